"""Kreml over the real mail stack (the judge as a process, Dovecot, SMTP):
a secret note is acknowledged to its sender only, a reveal waits unseen
until its step is over, and each player's copy of a report carries only
his own note."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from adjudicator.games.kreml.module import KremlGame
from tests.judge_harness import RunningJudge, text_of, wait_until
from tests.mailserver import MailServer

MODULE = KremlGame("kreml3")


@pytest.fixture
def judge(mail_server: MailServer, tmp_path: Path) -> Iterator[RunningJudge]:
    running = RunningJudge(mail_server, tmp_path)
    yield running
    running.stop()


def _note(names: list[str], offset: int) -> list[str]:
    chosen = names[offset:offset + 10]
    return [f"NOTE {name} {points}" for points, name in enumerate(reversed(chosen), start=1)]


def test_notes_and_reveals_stay_secret_over_real_mail(judge: RunningJudge) -> None:
    done = judge.cli("game", "create", "kreml", "--variant", "kreml3", "--option", "data=standin",
                     "--option", "language=en")
    assert done.returncode == 0, done.stderr
    judge.start()
    players = {p: judge.player(f"p{p.lower()}", p, f"pw-{p.lower()}-seat") for p in MODULE.powers()}
    for power, player in players.items():
        player.send(f"SIGNON {power} kreml pw-{power.lower()}-seat\n")
    for player in players.values():
        player.wait_for("start", 1)
    store = judge.store()
    game = store.game("kreml")
    store.close()
    assert game is not None
    names = [n for n in game.state["pol"] if n != "Nestor Aparatschik"]
    notes = {"A": _note(names, 0), "B": _note(names, 5), "C": _note(names, 12)}

    players["A"].orders("kreml", *notes["A"])
    ack = text_of(players["A"].wait_for("acknowledgement", 2)[-1])
    top_a = notes["A"][-1].removeprefix("NOTE ").rsplit(" ", 1)[0]
    assert f"NOTE {top_a} 10" in ack  # the sealed note, acknowledged line by line to its sender
    for other in ("B", "C"):
        seen = "".join(text_of(m) for m in players[other].inbox())
        assert f"{top_a} 10" not in seen and not any(line in seen for line in notes["A"])

    players["B"].orders("kreml", *notes["B"])
    players["B"].wait_for("acknowledgement", 2)
    players["C"].orders("kreml", *notes["C"])
    # Each takes an event card, the oldest first (the seat order here); what one holds is public.
    for power, card in (("A", "kurort"), ("B", "krise"), ("C", "akten")):
        assert ":: Turn: 1950-0-" in text_of(players[power].wait_for("turn", 2)[-1])  # after the notes' turn
        players[power].orders("kreml", f"TAKE {card}")
    # Everyone's turn for the year's reveal window: each mail carries its reader's note and no other.
    turns = {p: text_of(pl.wait_for("turn", 3)[-1]) for p, pl in players.items()}
    tops = {p: lines[-1].removeprefix("NOTE ").rsplit(" ", 1)[0] for p, lines in notes.items()}
    for power, mail in turns.items():
        assert "Stand-in values" in mail and ":: Turn: 1951-0-004 reveal" in mail
        assert "Player A: kurort; Player B: krise; Player C: akten" in mail
        assert f"Your secret note: {tops[power]} 10" in mail
        assert all(f"Your secret note: {tops[o]} 10" not in mail for o in tops if o != power)

    # The year's reveal window: A reveals; nobody sees it until every player has answered.
    store = judge.store()
    state = store.game("kreml").state  # type: ignore[union-attr]
    store.close()
    reveal = next(str(o) for o in MODULE.legal_orders(state, "A") if o.verb == "REVEAL")
    players["A"].orders("kreml", reveal, "CONTINUE")
    players["A"].wait_for("acknowledgement", 4)
    target = reveal.removeprefix("REVEAL ").rsplit(" ", 1)[0]
    players["B"].orders("kreml", "CONTINUE")
    players["B"].wait_for("acknowledgement", 4)
    for other in ("B", "C"):
        seen = "".join(text_of(m) for m in players[other].inbox())
        assert "Player A reveals" not in seen and f"{reveal}\n" not in seen
    players["C"].orders("kreml", "CONTINUE")
    seen = wait_until(lambda: (lambda text: text if "Player A reveals" in text else None)(
        "".join(text_of(m) for m in players["B"].inbox())), 30, "the reveal in B's mail")
    assert f"Player A reveals {reveal.rsplit(' ', 1)[1]} points on {target}" in seen
