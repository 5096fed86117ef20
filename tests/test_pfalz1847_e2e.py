"""1847 AE over the real mail stack (the judge as a process, Dovecot,
SMTP): three players play a complete game by mail, each mail carrying
the orders of one player's turn(s); the judge carries out every order,
mails reports with the hex map, and ends the game."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.judge_harness import RunningJudge, text_of, wait_until
from tests.mailserver import MailServer
from tests.pfalz1847_helpers import random_game


@pytest.fixture
def judge(mail_server: MailServer, tmp_path: Path) -> Iterator[RunningJudge]:
    running = RunningJudge(mail_server, tmp_path)
    yield running
    running.stop()


def _mails(seed: int) -> list[tuple[str, list[str]]]:
    """A complete game of seeded bots as mails: the orders of one seat's
    consecutive actions per mail."""
    g, _ = random_game(seed, 3)
    assert g["over"]
    mails: list[tuple[str, list[str]]] = []
    for entry in g["log"]:
        if mails and mails[-1][0] == entry["seat"]:
            mails[-1][1].append(entry["order"])
        else:
            mails.append((entry["seat"], [entry["order"]]))
    return mails


def _history(judge: RunningJudge) -> int:
    store = judge.store()
    try:
        game = store.game("pf")
        return len(game.state["history"]) if game is not None else -1
    finally:
        store.close()


def test_a_complete_three_player_game_by_mail(judge: RunningJudge) -> None:
    done = judge.cli("game", "create", "pf", "--variant", "1847ae", "--option", "data=standin",
                     "--option", "language=en")
    assert done.returncode == 0, done.stderr
    judge.start()
    players = {seat: judge.player(f"p{seat.lower()}", seat, f"pw-{seat}-seat") for seat in ("S1", "S2", "S3")}
    for seat, player in players.items():
        player.send(f"SIGNON {seat} pf pw-{seat}-seat\n")
    for player in players.values():
        start = text_of(player.wait_for("start", 1)[0])
        assert "stand-in" in start.lower() or "1847" in start
    sent = 0
    for seat, lines in _mails(63):
        players[seat].orders("pf", *lines)
        sent += len(lines)
        wait_until(lambda: _history(judge) >= sent or None, 60, f"{sent} orders carried out")
    store = judge.store()
    game = store.game("pf")
    store.close()
    assert game is not None and game.status == "finished"
    final = wait_until(lambda: next((m for m in players["S1"].mails("report") if "Final scores" in text_of(m)), None),
                       60, "the final report")
    assert any(part.get_content_type() == "image/png" for part in final.walk())
    assert "stand-in" in text_of(final)
    for player in players.values():
        assert "Final scores" in text_of(player.wait_for("report", 1)[0])
        turn = player.mails("turn")[0]                                   # "your turn" with the map and the orders
        assert any(part.get_content_type() == "image/png" for part in turn.walk())
        assert "PASS" in text_of(turn)
