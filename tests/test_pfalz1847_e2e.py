"""1847 AE over the real mail stack (the judge as a process, Dovecot,
SMTP): three players play a complete game by mail, each mail carrying
the orders of one player's turn(s); the judge carries out every order
(offers between directors answered by the other player, trains over a
limit chosen by the director), mails reports with the hex map, and ends
the game."""

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
    """Also issue 13 point 7: the start mail gives each player his money,
    the seat order, the start packet open to him, the first deadline and
    the map."""
    done = judge.cli("game", "create", "pf", "--variant", "1847ae", "--option", "language=en")
    assert done.returncode == 0, done.stderr
    judge.start()
    players = {seat: judge.player(f"p{seat.lower()}", seat, f"pw-{seat}-seat") for seat in ("S1", "S2", "S3")}
    for seat, player in players.items():
        player.send(f"SIGNON {seat} pf pw-{seat}-seat\n")
    for seat, player in players.items():
        mail = player.wait_for("start", 1)[0]
        start = text_of(mail)
        assert "Your money: 500M; certificate limit 16" in start
        assert f"Seat order: S1 - S2 - S3 (you: {seat}); the first round begins with S3" in start
        assert "The start packet, open to you (BUY <id>): PLP " in start and "K Königsbach 110M [L 10%]" in start
        assert "SPR Saarbrücker Privatbahn 190M [Saar 20%]" in start and "VIW " in start
        assert "Phase SR1-0001, deadline " in start and "stand-in" not in start
        assert any(part.get_content_type() == "image/png" for part in mail.walk())
    sent = 0
    mails = _mails(34)
    orders = [line for _, lines in mails for line in lines]
    assert {"ACCEPT", "DECLINE"} <= set(orders) and any(o.startswith("DISCARD") for o in orders)
    for seat, lines in mails:
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
    assert "stand-in" not in text_of(final)
    for player in players.values():
        assert "Final scores" in text_of(player.wait_for("report", 1)[0])
        turn = player.mails("turn")[0]                                   # "your turn" with the map and the orders
        assert any(part.get_content_type() == "image/png" for part in turn.walk())
        assert "PASS" in text_of(turn)
    turns = [text_of(m) for player in players.values() for m in player.mails("turn")]
    assert any("An offer to you: " in t and "ACCEPT" in t and "DECLINE" in t for t in turns)   # trades between directors
    assert any("over the train limit: choose" in t and "DISCARD " in t for t in turns)
