"""Turn phases in the service, in process (issue 15): the test game of
``tests/turngame.py`` (Red, Green, Blue act in turn, then all vote) over a
real SQLite store and a ``Judge`` with a clock the test moves.

Each test states the position, the mails and what the judge must do: an
accepted action resolves at once, the next seat gets its "your turn" mail
in the same poll, the others their digest at the end of the round, a
deadline gives the default, a standing PASS and queued orders are used
or rejected, UNDO is allowed or refused."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest

from adjudicator.games import registry
from adjudicator.service.turns import create_game
from tests.test_service_commands import GM, Outbox, Table

registry.register("dicetest", "tests.turngame", "DiceRound")

SEATS = ("Red", "Green", "Blue")


def address(power: str) -> str:
    return f"{power.lower()}@players.test"


def signon(power: str, game: str = "dice") -> str:
    return f"SIGNON {power} {game} pw-{power.lower()}"


class DiceTable(Table):
    """A judge with one game of the test game, every seat taken."""

    def start(self, **options: object) -> Outbox:
        create_game(self.store, self.config, "dice", "dicetest", {"language": "en", **options}, self.now, gm=GM,
                    seed=7)
        for power in SEATS:
            self.deliver(address(power), signon(power))
        return self.poll()

    def act(self, power: str, *lines: str) -> Outbox:
        return self.send(address(power), signon(power), *lines)

    def game(self) -> dict[str, object]:
        found = self.store.game("dice")
        assert found is not None
        return {"phase": found.phase, "status": found.status, **found.state}


@pytest.fixture
def table(tmp_path: Path) -> Iterator[DiceTable]:
    made = DiceTable(tmp_path)
    yield made
    made.store.close()


def test_the_start_sends_the_first_seat_its_turn(table: DiceTable) -> None:
    out = table.start()
    turn = out.one("turn", address("Red"))
    assert turn.machine("Turn") == ["R1.1 action"]
    assert turn.machine("Power") == ["Red"]
    assert "ROLL – roll a die (d6)" in turn.text and "TAKE 2 – take 2 points" in turn.text
    assert "If you have not answered by then, the judge orders for you: PASS" in turn.text
    assert not out.of("turn")[1:]  # nobody else is to act


def test_an_action_resolves_at_once_and_the_next_seat_is_told_in_the_same_poll(table: DiceTable) -> None:
    table.start()
    out = table.act("Red", "TAKE 2")
    assert "Your action for R1.1 is accepted; the judge resolves it at once." in \
        out.one("acknowledgement", address("Red")).text
    assert table.game()["phase"] == "R1.2"
    turn = out.one("turn", address("Green"))
    assert "Red takes 2 (score 2)" in turn.text  # what happened since Green was last told
    assert turn.machine("Turn") == ["R1.2 action"]
    assert [m.kind for m in out] == ["acknowledgement", "turn"]  # no report to everyone


def test_an_action_out_of_turn_is_refused_and_changes_nothing(table: DiceTable) -> None:
    table.start()
    out = table.act("Green", "TAKE 2")
    assert "It is not your turn in R1.1 (to act: Red)." in out.one("acknowledgement", address("Green")).text
    assert table.game()["phase"] == "R1.1"


def test_a_full_round_a_die_roll_and_the_vote(table: DiceTable) -> None:
    table.start()
    table.act("Red", "ROLL")
    table.act("Green", "TAKE 1")
    out = table.act("Blue", "PASS")
    # the vote belongs to all three: each gets a "your turn" for R1V
    assert sorted(m.to for m in out.of("turn")) == sorted(address(p) for p in SEATS)
    vote = out.one("turn", address("Red"))
    assert "Together with: Green, Blue" in vote.text and "YES – end the game now" in vote.text
    red_roll = table.store.phases("dice")[0].report["random_events"][0]
    assert f"R1.1 Red W6: {red_roll['result'][0]} (#0)" in vote.text
    table.act("Red", "YES")
    assert table.game()["phase"] == "R1V"  # waits for every voter
    table.act("Green", "NO")
    out = table.act("Blue", "NO")
    assert table.game()["phase"] == "R2.1"
    assert out.one("turn", address("Red")).machine("Turn") == ["R2.1 action"]
    digest = out.one("digest", address("Green"))
    assert "Vote: Red YES, Green NO, Blue NO" in digest.text
    assert out.one("digest", GM)


def test_mails_per_player_per_round_are_its_turns_and_one_digest(table: DiceTable) -> None:
    table.start()
    per_player: dict[str, list[str]] = {address(p): [] for p in SEATS}
    for power, order in (("Red", "TAKE 1"), ("Green", "TAKE 1"), ("Blue", "TAKE 1"),
                         ("Red", "NO"), ("Green", "NO"), ("Blue", "NO")):
        for mail in table.act(power, order):
            if mail.to in per_player and mail.kind != "acknowledgement":
                per_player[mail.to].append(mail.kind)
    # Red: its vote turn and the round's digest (its R2.1 turn comes with it: no digest then);
    # Green and Blue: their action turn, their vote turn and the digest of the round
    assert per_player[address("Red")] == ["turn", "turn"]
    assert per_player[address("Green")] == ["turn", "turn", "digest"]
    assert per_player[address("Blue")] == ["turn", "turn", "digest"]


def test_the_deadline_gives_the_default_and_a_reminder_comes_before_it(table: DiceTable) -> None:
    table.start(**{"deadline.action": 3600, "reminder.action": 600})
    assert table.store.game("dice").deadline == (table.now + timedelta(hours=1)).isoformat()  # type: ignore[union-attr]
    table.now += timedelta(minutes=51)
    out = table.poll()
    reminder = out.one("notice", address("Red"))
    assert "After it: PASS" in reminder.text
    table.now += timedelta(minutes=10)
    out = table.poll()
    assert table.game()["phase"] == "R1.2"
    assert out.one("turn", address("Green"))
    history = table.store.phases("dice")[0]
    assert history.orders == {"Red": ["PASS"]} and history.trigger == "deadline"
    assert "No answer by the deadline, default used: Red" in history.report_text


def test_a_vote_deadline_defaults_to_no(table: DiceTable) -> None:
    table.start(**{"deadline.vote": 600})
    for power in SEATS:
        table.act(power, "TAKE 1")
    table.act("Red", "YES")
    table.now += timedelta(minutes=11)
    table.poll()
    assert table.store.phases("dice")[-1].orders == {"Red": ["YES"], "Green": ["NO"], "Blue": ["NO"]}
    assert table.game()["phase"] == "R2.1"


def test_a_game_ends_with_the_outcome_to_everyone(table: DiceTable) -> None:
    table.start(rounds=1)
    for power in SEATS:
        table.act(power, "TAKE 2" if power == "Green" else "TAKE 1")
    table.act("Red", "NO")
    table.act("Green", "NO")
    out = table.act("Blue", "NO")
    assert table.game()["status"] == "finished"
    for power in SEATS:
        report = out.one("report", address(power))
        assert "The game is over: Green reached the victory condition and wins." in report.text
        assert report.machine("Next-Phase") == ["-"]
    assert out.one("report", GM)
