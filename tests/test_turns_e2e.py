"""Turn phases over the real mail stack (issue 15): the judge as a process,
Dovecot over IMAP, SMTP; the test game of ``tests/turngame.py`` registered
through ``ADJUDICATOR_GAMES``.

A full round in which every mail resolves at once and the next seat's
"your turn" arrives within the poll; queued orders used and rejected; the
deadline's default and the reminder before it; digests counted per
player and round; UNDO allowed and refused; a SIGKILL between two chained
resolutions leaves every action applied exactly once; ``adjudicator
verify`` reproduces every roll of a finished game and fails on a tampered
archive."""

from __future__ import annotations

import json
import signal
import time
import sqlite3
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
    players = {p: judge.player(p.lower(), p, f"pw-{p.lower()}-seat") for p in SEATS}
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
    green.wait_for("turn", 2)  # its action turn and its vote turn (mailed beside Red's, not before it) ...
    time.sleep(1.5)
    assert len(green.mails("turn")) == 2  # ... each once


def test_queued_orders_are_used_and_a_queued_order_no_longer_legal_is_rejected(judge: RunningJudge) -> None:
    players = seated(judge)
    red, green, blue = (players[p] for p in SEATS)
    green.orders("dice", "TAKE 2", "ROLL")  # before its turn: TAKE 2 for R1.2, ROLL for its next turn
    ack = text_of(green.wait_for("acknowledgement", 2)[-1])
    assert "2 order(s) queued" in ack
    assert len(red.inbox()) == 3 and len(blue.inbox()) == 2  # sign-on, start (and Red's turn): nothing queued
    red.orders("dice", "TAKE 1")
    blue_turn = text_of(blue.wait_for("turn", 1)[0])  # R1.2 resolved from Green's queue in the same go
    assert ":: Turn: R1.3 action" in blue_turn and "Green takes 2 (score 2)" in blue_turn
    assert not green.mails("turn")  # Green never had to be asked
    blue.orders("dice", "PASS")
    vote = text_of(green.wait_for("turn", 1)[0])  # its next turn is the vote: ROLL is no vote
    assert ":: Turn: R1V vote" in vote and "ROLL: not a legal action now" in vote
    assert not any("queued" in text_of(m) for m in red.inbox() + blue.inbox())


def test_the_deadline_gives_the_default_after_a_reminder(judge: RunningJudge) -> None:
    players = seated(judge, "deadline.action=8s", "reminder.action=5s")
    red, green = players["Red"], players["Green"]
    reminder = text_of(red.wait_for("notice", 1, timeout=30)[0])
    assert "After it: PASS" in reminder
    green_turn = text_of(green.wait_for("turn", 1, timeout=30)[0])
    assert ":: Turn: R1.2 action" in green_turn and "No answer by the deadline, default used: Red" in green_turn
    store = judge.store()
    try:
        first = store.phases("dice")[0]
    finally:
        store.close()
    assert first.orders == {"Red": ["PASS"]} and first.trigger == "deadline"


def test_digests_one_mail_per_player_and_round_besides_its_turns(judge: RunningJudge) -> None:
    players = seated(judge)
    red, green, blue = (players[p] for p in SEATS)
    red.wait_for("turn", 1)
    for player, order, waits_for in ((red, "TAKE 1", green), (green, "TAKE 1", blue), (blue, "TAKE 1", red)):
        player.orders("dice", order)
        waits_for.wait_for("turn", 1 if waits_for is not red else 2)
    for player in (red, green, blue):
        player.orders("dice", "NO")
    red.wait_for("turn", 3)
    green.wait_for("digest", 1)
    blue.wait_for("digest", 1)
    judge.stop()  # nothing more can come: count
    counts = {p.power: (len(p.mails("turn")), len(p.mails("digest"))) for p in (red, green, blue)}
    # Red: R1.1, R1V and R2.1 turns, and R2.1's turn carries the round, so no digest;
    # Green and Blue: their action turn and their vote turn, and one digest of the round
    assert counts == {"Red": (3, 0), "Green": (2, 1), "Blue": (2, 1)}


def test_undo_allowed_and_refused_over_mail(judge: RunningJudge) -> None:
    players = seated(judge)
    red, green = players["Red"], players["Green"]
    red.orders("dice", "TAKE 2")
    green.wait_for("turn", 1)
    red.orders("dice", "UNDO")
    answer = text_of(red.wait_for("acknowledgement", 3)[-1])
    assert "Your action in R1.1 (TAKE 2) is taken back; it is your turn again." in answer
    assert "Red took back the action in R1.1 (TAKE 2)" in text_of(green.wait_for("notice", 1)[0])
    red.orders("dice", "ROLL")
    assert ":: Turn: R1.2 action" in text_of(green.wait_for("turn", 2)[-1])
    red.orders("dice", "UNDO")
    refused = text_of(red.wait_for("acknowledgement", 5)[-1])
    assert "R1.1 cannot be taken back: the action revealed something or drew something at random." in refused


def test_verify_reproduces_every_roll_of_a_finished_game_and_fails_on_a_tampered_archive(judge: RunningJudge) -> None:
    players = seated(judge, "rounds=2")
    red, green, blue = (players[p] for p in SEATS)
    start = text_of(red.wait_for("start", 1)[0])
    rolls = 0
    for round_number in (1, 2):
        for player in (red, green, blue):
            wait_until(lambda: (lambda g: g is not None and g.state["seat"] == SEATS.index(player.power)
                                and not g.state["vote"])(_game(judge)), 30, f"{player.power}'s turn")
            player.orders("dice", "ROLL")
            rolls += 1
        wait_until(lambda: (lambda g: g is not None and g.state["vote"])(_game(judge)), 30, "the vote")
        for player in (red, green, blue):
            player.orders("dice", "NO")
    end = red.wait_for("report", 1)[0]
    game = _game(judge)
    assert game is not None and game.status == "finished"
    seed = str(game.settings["seed"])
    digest = __import__("hashlib").sha256(seed.encode()).hexdigest()
    assert digest in start  # published at the start, the seed itself only now
    assert seed not in start and f"The random seed was {seed}" in text_of(end)
    attached = [part for part in end.iter_attachments() if part.get_filename() == "dice-random.json"]
    document = json.loads(attached[0].get_content())
    assert document["seed"] == seed and len(document["events"]) == rolls
    checked = judge.cli("verify", "dice")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert f"{rolls} random events checked: all genuine" in checked.stdout
    from_file = judge.folder / "dice-random.json"
    from_file.write_text(json.dumps(document), encoding="utf-8")
    assert judge.cli("verify", "--file", str(from_file)).returncode == 0
    judge.stop()
    # tamper with one roll in the archive: verify names it and fails
    database = sqlite3.connect(judge.folder / "judge.sqlite3")
    with database:
        (report,) = database.execute("SELECT report FROM phases WHERE game = 'dice' AND phase = 'R1.2'").fetchone()
        data = json.loads(report)
        data["random_events"][0]["result"] = [7 - data["random_events"][0]["result"][0]]
        database.execute("UPDATE phases SET report = ? WHERE game = 'dice' AND phase = 'R1.2'", (json.dumps(data),))
    database.close()
    tampered = judge.cli("verify", "dice")
    assert tampered.returncode == 1 and "WRONG: R1.2: #1 R1.2 Green W6" in tampered.stdout
    document["events"][0]["result"] = [7 - document["events"][0]["result"][0]]
    from_file.write_text(json.dumps(document), encoding="utf-8")
    assert judge.cli("verify", "--file", str(from_file)).returncode == 1


def _game(judge: RunningJudge):  # type: ignore[no-untyped-def]
    store = judge.store()
    try:
        return store.game("dice")
    finally:
        store.close()
