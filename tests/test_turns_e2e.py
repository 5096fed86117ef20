"""Turn phases over the real mail stack (issue 15): the judge as a process,
Dovecot over IMAP, SMTP; the test game of ``tests/turngame.py`` registered
through ``ADJUDICATOR_GAMES``.

A full round in which every mail resolves at once and the next seat's
"your turn" arrives within the poll; a SIGKILL between two chained
resolutions leaves every action applied exactly once."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from pathlib import Path

import pytest

from adjudicator.games.registry import ENVIRONMENT
from tests.judge_harness import Player, RunningJudge, text_of, wait_until
from tests.mailserver import MailServer

SEATS = ("Red", "Green", "Blue")


@pytest.fixture
def judge(mail_server: MailServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[RunningJudge]:
    monkeypatch.setenv(ENVIRONMENT, "dicetest=tests.turngame:DiceRound")
    running = RunningJudge(mail_server, tmp_path)
    yield running
    running.stop()


def seated(judge: RunningJudge, *options: str) -> dict[str, Player]:
    """A started game ``dice`` with a player on every seat."""
    args = ["game", "create", "dice", "--variant", "dicetest", "--option", "language=en"]
    for option in options:
        args += ["--option", option]
    done = judge.cli(*args)
    assert done.returncode == 0, done.stderr
    judge.start()
    players = {p: judge.player(p.lower(), p, f"pw-{p.lower()}") for p in SEATS}
    for player in players.values():
        player.send(f"SIGNON {player.power} dice {player.password}\n")
    for player in players.values():
        player.wait_for("start", 1)
    return players


def turn_mails(player: Player) -> list[str]:
    return [text_of(m) for m in player.mails("turn")]


def test_a_full_round_where_each_mail_resolves_at_once(judge: RunningJudge) -> None:
    players = seated(judge)
    red, green, blue = (players[p] for p in SEATS)
    assert ":: Turn: R1.1 action" in text_of(red.wait_for("turn", 1)[0])
    red.orders("dice", "TAKE 2")
    green_turn = text_of(green.wait_for("turn", 1)[0])
    assert ":: Turn: R1.2 action" in green_turn and "Red takes 2 (score 2)" in green_turn
    green.orders("dice", "ROLL")
    blue_turn = text_of(blue.wait_for("turn", 1)[0])
    assert ":: Turn: R1.3 action" in blue_turn and "R1.2 Green W6: " in blue_turn
    blue.orders("dice", "PASS")
    for player in (red, green, blue):
        assert ":: Turn: R1V vote" in text_of(player.wait_for("turn", 2 if player is not red else 2)[-1])
    for player in (red, green, blue):
        player.orders("dice", "NO")
    assert ":: Turn: R2.1 action" in text_of(red.wait_for("turn", 3)[-1])
    green.wait_for("digest", 1)
    blue.wait_for("digest", 1)
    store = judge.store()
    try:
        phases = [p.phase for p in store.phases("dice")]
        triggers = {p.trigger for p in store.phases("dice")}
    finally:
        store.close()
    assert phases == ["R1.1", "R1.2", "R1.3", "R1V"]
    assert triggers == {"ready"}  # every one resolved by a mail, none by a deadline


def test_a_crash_between_two_chained_resolutions_applies_every_action_once(judge: RunningJudge) -> None:
    players = seated(judge)
    red, green, blue = (players[p] for p in SEATS)
    blue.orders("dice", "RESIGN")  # Blue's turns now pass by themselves: a chain after Green's action
    blue.wait_for("acknowledgement", 2)
    red.orders("dice", "TAKE 1")
    green.wait_for("turn", 1)
    judge.stop()
    green.orders("dice", "TAKE 2")
    judge.start(crash_at="chained")  # killed after R1.2 is resolved, before R1.3 (Blue's pass) is
    assert judge.wait_exit(timeout=60) == -signal.SIGKILL
    store = judge.store()
    try:
        assert [p.phase for p in store.phases("dice")] == ["R1.1"]  # the chain was one transaction
    finally:
        store.close()
    judge.start()
    # the chain is resolved again at start-up: Green's action and Blue's pass, each once
    wait_until(lambda: len(red.mails("turn")) >= 2, 60, "Red's vote turn")
    store = judge.store()
    try:
        phases = store.phases("dice")
        game = store.game("dice")
    finally:
        store.close()
    assert [p.phase for p in phases] == ["R1.1", "R1.2", "R1.3"]
    assert [p.orders for p in phases] == [{"Red": ["TAKE 1"]}, {"Green": ["TAKE 2"]}, {"Blue": ["PASS"]}]
    assert game is not None and game.phase == "R1V" and game.state["scores"] == {"Red": 1, "Green": 2, "Blue": 0}
    assert len(green.mails("turn")) == 2  # its action turn and its vote turn, each once
