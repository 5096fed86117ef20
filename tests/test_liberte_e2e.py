"""Liberté over the real mail stack (the judge as a process, Dovecot,
SMTP): each player's start mail shows his own hand and no other; a
sealed tie-break play reaches nobody else until every seat asked has
played; then every player gets the report revealing all plays."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from adjudicator import records
from tests.judge_harness import RunningJudge, text_of, wait_until
from tests.liberte.scenario import DATA
from tests.mailserver import MailServer

SEATS = ("A", "B", "C", "D")


@pytest.fixture
def judge(mail_server: MailServer, tmp_path: Path) -> Iterator[RunningJudge]:
    running = RunningJudge(mail_server, tmp_path)
    yield running
    running.stop()


def _tie_in_berry(judge: RunningJudge) -> tuple[str, str]:
    """Change the forming game: everyone but A has passed, Berry is tied
    between A (red 2) and B (blue 2), each with a card of his colour in
    his display; A's PASS will end the actions and open the sealed play."""
    store = judge.store()
    record = store.game("lib")
    assert record is not None
    g = dict(record.state["game"])
    red = next(c for c in g["hands"]["A"] if DATA.cards[c].kind == "person" and DATA.cards[c].faction == "red") if any(
        DATA.cards[c].kind == "person" and DATA.cards[c].faction == "red" for c in g["hands"]["A"]) else None
    deck = list(g["deck"])
    if red is None:
        red = next(c for c in deck if DATA.cards[c].kind == "person" and DATA.cards[c].faction == "red")
        deck.remove(red)
    else:
        g["hands"] = {**g["hands"], "A": [c for c in g["hands"]["A"] if c != red]}
    blue = next(c for c in deck if DATA.cards[c].kind == "person" and DATA.cards[c].faction == "blue")
    deck.remove(blue)
    g.update(deck=deck, displays={**g["displays"], "A": [red], "B": [blue]}, order=list(SEATS), turn=0,
             passes=3, board={**g["board"], "BERRY": [["A", "red", 2], ["B", "blue", 2]]},
             supply={**g["supply"], "red": g["supply"]["red"] - 2, "blue": g["supply"]["blue"] - 2})
    with store.transaction() as db:
        store.update_game(db, records.replace(record, state={**record.state, "game": g}))
    store.close()
    return red, blue


def test_hands_and_sealed_plays_stay_private_over_real_mail(judge: RunningJudge) -> None:
    done = judge.cli("game", "create", "lib", "--variant", "liberte", "--option", "data=standin",
                     "--option", "language=en")
    assert done.returncode == 0, done.stderr
    red, blue = _tie_in_berry(judge)
    judge.start()
    players = {s: judge.player(s.lower() + "x", s, f"password-{s}") for s in SEATS}
    for seat, player in players.items():
        player.send(f"SIGNON {seat} lib password-{seat}\n")
    starts = {s: text_of(p.wait_for("start", 1)[0]) for s, p in players.items()}
    store = judge.store()
    record = store.game("lib")
    store.close()
    assert record is not None
    hands = record.state["game"]["hands"]
    for seat in SEATS:
        assert "Your hand: " + " ".join(hands[seat]) in starts[seat]
        assert all("Your hand: " + " ".join(hands[o]) not in starts[seat] for o in SEATS if o != seat)

    players["A"].orders("lib", "PASS")
    turn_a = text_of(players["A"].wait_for("turn", 2)[-1])  # the sealed play is A's and B's turn
    turn_b = text_of(players["B"].wait_for("turn", 1)[-1])
    assert f"you may play: {red}" in turn_a and f"you may play: {blue}" in turn_b
    assert "INVENTED stand-in data" in turn_a
    players["A"].orders("lib", f"BID {red}")
    players["A"].wait_for("acknowledgement", 3)
    for seat in ("B", "C", "D"):
        # nothing of A's sealed play reaches anyone else
        assert not any(f"BID {red}" in text_of(m) or "Revealed" in text_of(m) for m in players[seat].inbox())
    players["B"].orders("lib", f"BID {blue}")
    players["B"].wait_for("acknowledgement", 2)
    store = judge.store()
    record = store.game("lib")
    store.close()
    assert record is not None and record.state["game"]["bid"] is None
    # the reveal names both plays, in the next mails the players get (turn mails, digests)
    revealed = f"A: {red} ({DATA.cards[red].value}), B: {blue} ({DATA.cards[blue].value})"
    told = wait_until(lambda: [s for s, p in players.items()
                               if any(revealed in text_of(m) for m in p.mails("turn") + p.mails("digest"))] or None,
                      60, "the reveal")
    assert told
