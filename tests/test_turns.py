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
from adjudicator.service.auth import hash_password
from adjudicator.service.turns import create_game
from tests.test_service_commands import GM, Outbox, Table

registry.register("dicetest", "tests.turngame", "DiceRound")

SEATS = ("Red", "Green", "Blue")


def address(power: str) -> str:
    return f"{power.lower()}@players.test"


def signon(power: str, game: str = "dice") -> str:
    return f"SIGNON {power} {game} pw-{power.lower()}-seat"


class DiceTable(Table):
    """A judge with one game of the test game, every seat taken."""

    def start(self, **options: object) -> Outbox:
        create_game(self.store, self.config, "dice", "dicetest", {"language": "en", **options}, self.now, gm=GM,
                    seed=7, settings={"gm_password_hash": hash_password("gm-secret")})
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


def test_a_turn_kind_may_have_a_weekly_window(table: DiceTable) -> None:
    from adjudicator.service.turns import GameError

    table.start(**{"weekly.action": "Sun 20:00, Wed 20:00"})
    game = table.store.game("dice")
    assert game is not None and game.deadline == "2026-12-02T19:00:00+00:00"  # Wed 20:00 CET, 33 h ahead
    with pytest.raises(GameError, match="option weekly.vote: expected weekly times"):
        create_game(table.store, table.config, "other", "dicetest", {"weekly.vote": "someday"}, table.now)


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


# --- (b) standing and queued orders ------------------------------------------------


def test_orders_sent_before_the_turn_are_queued_secretly_and_used_when_it_comes(table: DiceTable) -> None:
    table.start()
    out = table.act("Green", "TAKE 2", "ROLL")
    ack = out.one("acknowledgement", address("Green")).text
    assert "It is not your turn in R1.1 (to act: Red)." in ack and "2 order(s) queued" in ack
    assert [m.to for m in out] == [address("Green")]  # nobody else hears of it
    out = table.act("Red", "TAKE 1")
    # R1.1 and, in the same go, R1.2 with Green's first queued order; Blue is told at once
    assert [(p.phase, p.orders, p.trigger) for p in table.store.phases("dice")] == [
        ("R1.1", {"Red": ["TAKE 1"]}, "ready"), ("R1.2", {"Green": ["TAKE 2"]}, "chain")]
    assert not out.of("turn")[1:] and out.one("turn", address("Blue"))
    assert "queued" not in out.one("turn", address("Blue")).text.lower()
    assert table.store.turn_seat("dice", "Green").queue["orders"] == ["ROLL"]


def test_a_queued_order_that_is_not_legal_when_the_turn_comes_is_rejected_with_the_reason(table: DiceTable) -> None:
    table.start()
    table.act("Green", "TAKE 2", "ROLL")  # TAKE 2 for R1.2; ROLL is no vote
    table.act("Red", "TAKE 1")
    out = table.act("Blue", "PASS")
    vote = out.one("turn", address("Green"))
    assert "Your queued orders could not be used and are dropped:" in vote.text
    assert "ROLL: not a legal action now" in vote.text
    assert table.store.turn_seat("dice", "Green").queue["orders"] == []
    assert table.game()["phase"] == "R1V"


def test_queued_lines_are_tried_in_order_and_the_first_legal_one_is_used(table: DiceTable) -> None:
    table.start()
    table.act("Red", "TAKE 1")
    table.act("Green", "TAKE 1")
    table.act("Blue", "PASS")
    for power in SEATS:
        table.act(power, "NO")
    table.act("Green", "TAKE 2", "TAKE 1")  # round 2: both still open, so TAKE 2 is used
    table.act("Red", "TAKE 2")
    assert table.store.phases("dice")[-1].orders == {"Green": ["TAKE 2"]}


def test_pass_round_passes_every_turn_of_the_round_and_ends_with_it(table: DiceTable) -> None:
    table.start()
    ack = table.act("Blue", "PASS ROUND").one("acknowledgement", address("Blue")).text
    assert "You pass for the rest of round R1 (secret)." in ack
    table.act("Red", "TAKE 1")
    out = table.act("Green", "TAKE 1")
    # Blue's action and its vote are its passes; the vote waits for Red and Green only
    assert table.store.phases("dice")[-1].orders == {"Blue": ["PASS"]}
    assert sorted(m.to for m in out.of("turn")) == [address("Green"), address("Red")]
    table.act("Red", "NO")
    table.act("Green", "NO")
    assert table.store.phases("dice")[-1].orders == {"Red": ["NO"], "Green": ["NO"], "Blue": ["NO"]}
    table.act("Red", "TAKE 1")
    out = table.act("Green", "TAKE 1")
    assert out.one("turn", address("Blue")).machine("Turn") == ["R2.3 action"]  # round 2: Blue plays again


def test_pass_round_on_the_own_turn_passes_at_once(table: DiceTable) -> None:
    table.start()
    out = table.act("Red", "PASS ROUND")
    assert "It is your turn now: PASS is used at once." in out.one("acknowledgement", address("Red")).text
    assert table.game()["phase"] == "R1.2" and out.one("turn", address("Green"))


def test_cancel_drops_the_queue_and_the_seat_gets_its_turn_mail(table: DiceTable) -> None:
    table.start()
    table.act("Green", "TAKE 2")
    assert "Queued orders and PASS ROUND dropped." in table.act("Green", "CANCEL").one(
        "acknowledgement", address("Green")).text
    out = table.act("Red", "TAKE 1")
    assert table.game()["phase"] == "R1.2" and out.one("turn", address("Green"))
    assert "Nothing was queued." in table.act("Green", "CANCEL").one("acknowledgement", address("Green")).text


# --- (c) digests and STATUS ---------------------------------------------------------


def test_set_digest_none_sends_a_mail_after_every_action(table: DiceTable) -> None:
    table.start()
    ack = table.act("Blue", "SET DIGEST NONE").one("acknowledgement", address("Blue")).text
    assert "Digests for you in dice: a mail after every action." in ack
    out = table.act("Red", "TAKE 1")
    assert "Red takes 1 (score 1)" in out.one("digest", address("Blue")).text
    assert not [m for m in out if m.to == address("Green") and m.kind == "digest"]  # Green: per round
    out = table.act("Green", "TAKE 2")
    assert out.one("turn", address("Blue"))  # Blue's turn: the turn mail carries the action instead


def test_a_digest_every_n_hours_collects_the_actions_in_between(table: DiceTable) -> None:
    table.start()
    table.act("Red", "SET DIGEST 12h")
    out = table.act("Red", "TAKE 1")
    assert "Red takes 1 (score 1)" in out.one("digest", address("Red")).text  # the first one at once
    table.now += timedelta(hours=1)
    out = table.act("Green", "TAKE 1")
    assert not [m for m in out if m.to == address("Red")]  # the last digest is only an hour ago
    table.now += timedelta(hours=10)
    assert not table.poll()
    table.now += timedelta(hours=1)
    digest = table.poll().one("digest", address("Red"))
    assert "Green takes 1 (score 1)" in digest.text and "Red takes 1" not in digest.text
    assert "Unknown choice" in table.act("Blue", "SET DIGEST sometimes").one("acknowledgement", address("Blue")).text


def test_status_shows_the_position_and_only_the_own_queue(table: DiceTable) -> None:
    table.start()
    table.act("Green", "TAKE 2")
    table.act("Red", "ROLL")
    status = table.act("Blue", "STATUS").one("acknowledgement", address("Blue")).section("STATUS")
    assert status[0].startswith("dice: phase R1.3, running, deadline ")
    assert "To act: Blue" in status and any(line.startswith("Points: Red ") for line in status)
    assert "R1.2:" in status and not any("Queued" in line for line in status)
    table.act("Blue", "ROLL", "PASS")  # Blue in turn: ROLL now; PASS is one action too many
    table.act("Green", "YES")  # Green is in the vote now, not queued
    mine = table.act("Red", "STATUS").one("acknowledgement", address("Red")).section("STATUS")
    assert "To act: Red, Green, Blue" in mine


# --- (d) UNDO and the GM's rollback -------------------------------------------------


def test_undo_takes_back_the_last_action_while_nobody_acted_after_it(table: DiceTable) -> None:
    table.start()
    table.act("Red", "TAKE 2")
    out = table.act("Red", "UNDO")
    answer = out.one("acknowledgement", address("Red")).section("UNDO")
    assert answer[0] == "Your action in R1.1 (TAKE 2) is taken back; it is your turn again."
    assert "  TAKE 2 – take 2 points" in answer
    notice = out.one("notice", address("Green"))  # Green had been told it was its turn
    assert "Red took back the action in R1.1 (TAKE 2)" in notice.text
    assert table.game()["phase"] == "R1.1" and table.game()["scores"] == {"Red": 0, "Green": 0, "Blue": 0}
    assert table.store.phases("dice") == []
    out = table.act("Red", "TAKE 1")
    turn = out.one("turn", address("Green"))  # told again, with the action that stands
    assert "Red takes 1 (score 1)" in turn.text and "takes 2" not in turn.text


def test_undo_is_refused_after_a_roll_and_after_the_next_seat_acted(table: DiceTable) -> None:
    table.start()
    table.act("Red", "ROLL")
    refused = table.act("Red", "UNDO").one("acknowledgement", address("Red")).section("UNDO")
    assert refused == ["R1.1 cannot be taken back: the action revealed something or drew something at random."]
    table.act("Green", "TAKE 1")
    refused = table.act("Green", "ZURÜCKNEHMEN").one("acknowledgement", address("Green")).section("UNDO")
    assert refused[0].startswith("Your action in R1.2 (TAKE 1) is taken back")
    table.act("Green", "PASS")
    table.act("Blue", "PASS")
    refused = table.act("Green", "UNDO").one("acknowledgement", address("Green")).section("UNDO")
    assert refused == ["R1.2 cannot be taken back: R1.3 has happened since."]
    assert [p.phase for p in table.store.phases("dice")] == ["R1.1", "R1.2", "R1.3"]


def test_undo_withdraws_a_vote_while_the_others_have_not_voted(table: DiceTable) -> None:
    table.start()
    for power in SEATS:
        table.act(power, "PASS")
    table.act("Red", "YES")
    assert table.act("Red", "UNDO").one("acknowledgement", address("Red")).section("UNDO") == [
        "Your answer for R1V is withdrawn; the phase waits for you again."]
    assert "Red" not in table.store.submissions("dice", "R1V")


def test_the_gm_rolls_a_turn_game_back_to_any_action(table: DiceTable) -> None:
    table.start()
    table.act("Red", "TAKE 1")
    table.act("Green", "TAKE 2")
    table.act("Blue", "ROLL")
    out = table.send(GM, "GAMEMASTER dice gm-secret", "GM ROLLBACK R1.2")
    assert table.game()["phase"] == "R1.2" and table.game()["scores"] == {"Red": 1, "Green": 0, "Blue": 0}
    assert out.one("turn", address("Green")).machine("Turn") == ["R1.2 action"]
    assert [p.phase for p in table.store.phases("dice")] == ["R1.1"]
    out = table.act("Green", "PASS")
    assert out.one("turn", address("Blue")).machine("Turn") == ["R1.3 action"]


def test_the_gm_acts_for_a_seat_and_the_game_goes_on_at_once(table: DiceTable) -> None:
    table.start()
    out = table.send(GM, "GAMEMASTER dice gm-secret", "GM ORDERS Red", "TAKE 2")
    assert table.game()["phase"] == "R1.2" and out.one("turn", address("Green"))


# --- (e) verifiable randomness --------------------------------------------------


def test_the_start_mail_publishes_the_seeds_hash_and_the_end_the_seed(table: DiceTable) -> None:
    from adjudicator.games.randomness import seed_digest

    out = table.start(rounds=1)
    start = out.one("start", address("Red")).text
    assert seed_digest(7) in start and "The random seed was" not in start
    table.act("Red", "ROLL")
    table.act("Green", "ROLL")
    table.act("Blue", "TAKE 1")
    for power in SEATS:
        out = table.act(power, "NO")
    end = out.one("report", address("Red"))
    assert f"The random seed was 7 (SHA-256 {seed_digest(7)})" in end.text
    assert b"dice-random.json" in end.raw


def test_random_powers_are_a_verifiable_draw_of_the_judge(tmp_path: Path) -> None:
    from adjudicator.games.randomness import judge_key, shuffle
    from adjudicator.service.verify import problems
    from tests.test_service_commands import POWERS

    table = Table(tmp_path)
    create_game(table.store, table.config, "zufall", "standard", {"language": "en"}, table.now, seed=11,
                settings={"random": True})
    for number in range(7):
        table.deliver(f"p{number}@players.test", f"SIGNON ANY zufall password-{number}")
    out = table.poll()
    game = table.store.game("zufall")
    assert game is not None and game.status == "active"
    draw = shuffle(judge_key(11), 0, list(POWERS), "random powers")
    seats = {p.power: p.address for p in table.store.players("zufall")}
    # the applicants in order of arrival get the powers in the drawn order
    assert [seats[power] for power in draw.result] == [f"p{n}@players.test" for n in range(7)]
    assert "random powers: " + ", ".join(draw.result) + " (#0)" in out.one("start", "p0@players.test").text
    assert problems(table.store, game) == ()


def test_30jk_random_confessions_are_named_in_the_start_mail_and_verified(tmp_path: Path) -> None:
    from adjudicator.service.verify import problems

    table = Table(tmp_path)
    create_game(table.store, table.config, "jk", "30jk", {"language": "en", "confessions": "random"}, table.now,
                seed=5)
    game = table.store.game("jk")
    assert game is not None and game.settings["opening_events"]
    assert problems(table.store, game) == ()
    last = game.settings["opening_events"][-1]["event"]
    powers = registry.game_module("30jk").powers()
    drawn = {p: ("catholic", "protestant")[v - 1] for p, v in zip(powers, last["result"])}
    assert drawn == {p: c["state"] for p, c in game.state["confessions"].items()}


@pytest.mark.parametrize("seed", range(3))
def test_seeded_random_games_of_the_test_game_run_to_their_end_by_mail(tmp_path: Path, seed: int) -> None:
    import random

    from adjudicator.service.verify import problems

    table = DiceTable(tmp_path)
    table.start(rounds=2)
    rng = random.Random(seed)
    module = registry.game_module("dicetest")
    for _ in range(60):
        game = table.store.game("dice")
        assert game is not None
        if game.status == "finished":
            break
        turn = module.turn(game.state)
        assert turn is not None
        power = rng.choice([p for p in turn.seats if p not in table.store.submissions("dice", game.phase)])
        choice = rng.choice([line.split(" – ")[0] for line in module.actions_now(game.state, power, "en")])
        table.act(power, rng.choice(["PASS ROUND", choice]) if rng.random() < 0.1 else choice)
    game = table.store.game("dice")
    assert game is not None and game.status == "finished" and game.outcome
    assert problems(table.store, game) == ()
    table.store.close()
