"""1848 through the judge's mail path, in process: a real SQLite store, a
real ``Judge`` with a clock the test sets, a list as its mailbox.

The sealing is checked where it matters, in the mails: the acknowledgement
of a play names only the sender's own play, a changed play replaces the
earlier one, the other player's acknowledgement is the same word for word
whether or not his opponent has played, and the report after the reveal
shows both plays.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from adjudicator import records
from adjudicator.config import Config
from adjudicator.games import game_module
from adjudicator.games.base import GameSetupError
from adjudicator.games.revolution1848 import Revolution1848
from adjudicator.service.intake import Incoming, read_pipe
from adjudicator.service.runner import Judge
from adjudicator.service.store import Store
from adjudicator.service.turns import GameError, create_game, start_game
from adjudicator.games.revolution1848 import describe
from adjudicator.games.revolution1848.state import from_json, to_json
from tests.revolution1848.helpers import COMPLETE, complete_data
from tests.inprocess_mail import post, take_queued
from tests.test_service_commands import ListTransport

JUDGE = "judge@pbem.test"
GM = "gm@pbem.test"
START = datetime(2026, 12, 1, 10, 0, tzinfo=timezone.utc)
ADDRESS = {"A": "anna@players.test", "B": "bert@players.test"}
PASSWORD = {"A": "pw-anna-1848", "B": "pw-bert-1848"}


@dataclasses.dataclass(frozen=True)
class Mail:
    to: str
    kind: str
    text: str


class Table:
    """A judge over a fresh database with a list mailbox."""

    def __init__(self, folder: Path) -> None:
        self.config = records.replace(Config(), database=folder / "judge.sqlite3", address=JUDGE, language="en")
        self.store = Store(self.config.database)
        self.mailbox = ListTransport()
        self.judge = Judge(self.config, self.store, self.mailbox, clock=lambda: START)

    def create(self, name: str) -> None:
        create_game(self.store, self.config, name, "1848", {**COMPLETE, "language": "en"},
                    START, gm=GM, seed=5)

    def send(self, sender: str, *lines: str) -> list[Mail]:
        post(self.mailbox, self.judge, sender, "plays", list(lines), JUDGE)
        return [Mail(mail.recipients[0], mail.kind, mail.text) for mail in take_queued(self.store, START)]

    def play(self, game: str, player: str, *lines: str) -> list[Mail]:
        return self.send(ADDRESS[player], f"SIGNON {player} {game} {PASSWORD[player]}", *lines)

    def phase(self, game: str) -> str:
        record = self.store.game(game)
        assert record is not None
        return record.phase

    def hand(self, game: str, player: str) -> list[str]:
        record = self.store.game(game)
        assert record is not None
        return [c["card"] for c in Revolution1848().private_view(record.state, player)["hand"]]

    def person(self, game: str, player: str, index: int = 0) -> str:
        """A play of one of ``player``'s person cards (with a party when it has two)."""
        record = self.store.game(game)
        assert record is not None
        plays = [o for o in Revolution1848().legal_orders(record.state, player) if o.startswith("PLAY PE")]
        return plays[index]


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    made = Table(tmp_path)
    yield made
    made.store.close()


def seated(table: Table, name: str) -> None:
    table.create(name)
    for player in ("A", "B"):
        table.send(ADDRESS[player], f"SIGNON {player} {name} {PASSWORD[player]}")
    assert table.phase(name) == "R01A01-1"


def only(mails: list[Mail], kind: str, to: str) -> Mail:
    found = [m for m in mails if m.kind == kind and m.to == to]
    assert len(found) == 1, [(m.kind, m.to) for m in mails]
    return found[0]


def body_of(ack: Mail, game: str) -> str:
    """An acknowledgement's text without what differs between two games."""
    return ack.text.replace(game, "GAME")


def test_the_variant_is_registered_and_needs_every_value() -> None:
    module = game_module("1848")
    assert module.variant == "1848" and module.submission_means_ready
    with pytest.raises(GameSetupError) as raised:
        module.start({}, 1)
    assert "card.PE02.value" in str(raised.value) and "rules.prognosis.A.text" in str(raised.value)


def test_a_game_without_its_card_file_waits_for_it_and_cannot_start(table: Table) -> None:
    game = create_game(table.store, table.config, "revq", "1848", {"language": "de"}, START, gm=GM)
    assert game.status == "forming" and game.phase == "-" and game.state["awaiting_data"] == ["cards"]
    with table.store.transaction() as db, pytest.raises(GameError, match="data file"):
        start_game(table.store, db, table.config, game, START)
    with pytest.raises(GameSetupError, match=r"card\.PE02\.value.*card\.A07\.red\.next"):
        create_game(table.store, table.config, "revr", "1848", {"data.cards": "[person.PE01]\nvalue = 3\n"},
                    START, gm=GM)
    assert table.store.game("revr") is None


def test_a_sealed_play_is_seen_by_its_player_only_until_both_have_played(table: Table) -> None:
    seated(table, "revx")
    seated(table, "revy")  # the same seed: the same hands
    first, second = table.person("revx", "A", 0), table.person("revx", "A", 1)
    answer = table.person("revx", "B", 0)
    a_cards, b_cards = table.hand("revx", "A"), table.hand("revx", "B")

    mails = table.play("revx", "A", first.replace("PLAY", "SPIELE"))
    ack = only(mails, "acknowledgement", ADDRESS["A"])
    assert len(mails) == 1 and f"line 2: {first}" in ack.text
    assert not any(card in ack.text for card in b_cards)  # nothing of B's hand or play

    mails = table.play("revx", "A", second)  # changed before the reveal: replaces the first play
    assert len(mails) == 1 and f"line 2: {second}" in mails[0].text
    assert table.phase("revx") == "R01A01-1"

    # B plays in a game where A has played and in one where A has not: the same answer, word for word.
    played = table.play("revx", "B", answer)
    unplayed = table.play("revy", "B", answer)
    ack_b = only(played, "acknowledgement", ADDRESS["B"])
    assert body_of(ack_b, "revx") == body_of(only(unplayed, "acknowledgement", ADDRESS["B"]), "revy")
    assert not any(card in ack_b.text for card in a_cards)
    assert table.phase("revy") == "R01A01-1"

    # The reveal: one report to both players and the GM with both plays (A's second one).
    reports = [m for m in played if m.kind == "report"]
    assert sorted(m.to for m in reports) == sorted([ADDRESS["A"], ADDRESS["B"], GM])
    text = reports[0].text
    assert f"Player A: {second}" in text and f"Player B: {answer}" in text
    assert first.split()[1] not in text.split("Played (revealed):")[1].split("\n\n")[0]
    assert table.phase("revx") == "R01A01-2"
    assert "Evaluation:" in text and re.search(r"Player [AB] is ahead\.|Nobody is ahead\.", text)


def test_plays_that_are_not_allowed_are_answered_with_the_reason(table: Table) -> None:
    seated(table, "revz")
    b_card = table.hand("revz", "B")[0]
    mails = table.play("revz", "A", f"PLAY {b_card}", "DECIDE RED", "PLAY Z99 ON PE01", "SPIELE")
    text = only(mails, "acknowledgement", ADDRESS["A"]).text
    assert f"{b_card} is not in your hand" in text
    assert "not allowed now: R01A01-1 is a play step" in text
    assert "the order is incomplete" in text
    assert table.phase("revz") == "R01A01-1"


def test_the_german_report_speaks_german(table: Table) -> None:
    create_game(table.store, table.config, "revde", "1848", {**COMPLETE, "language": "de"},
                START, gm=GM, seed=5)
    for player in ("A", "B"):
        table.send(ADDRESS[player], f"ANMELDEN Spieler {player} revde {PASSWORD[player]}")
    table.play("revde", "A", "PASSE")
    mails = table.play("revde", "B", "PASSE")
    report = next(m for m in mails if m.kind == "report")
    assert "Gespielt (aufgedeckt):" in report.text and "Spieler A: PASSE" in report.text
    assert "Spieler A passt." in report.text


def test_each_player_sees_his_own_hand_and_only_his_own(table: Table) -> None:
    table.create("revh")
    starts = []
    for player in ("A", "B"):
        starts += table.send(ADDRESS[player], f"SIGNON {player} revh {PASSWORD[player]}")
    a_cards, b_cards = table.hand("revh", "A"), table.hand("revh", "B")
    assert set(a_cards).isdisjoint(b_cards)
    start_a = only(starts, "start", ADDRESS["A"]).text
    assert "Your hand:" in start_a and all(card in start_a for card in a_cards)
    data = complete_data()
    for card in a_cards:  # each card with party, value, effect, army strength in words
        assert f"    {describe.line(data, card)['en']}" in start_a.splitlines()
    assert not any(card in start_a for card in b_cards)

    mails = table.play("revh", "A", table.person("revh", "A", 0))
    ack = only(mails, "acknowledgement", ADDRESS["A"])
    assert "Your play is sealed. It is revealed once everyone has played; until then you may change it." in ack.text
    assert ack.text.index("> Only for you (revh)") > ack.text.index("Your play is sealed")
    assert not any(card in ack.text for card in b_cards)

    played = table.play("revh", "B", table.person("revh", "B", 0))
    to_b = only(played, "report", ADDRESS["B"]).text
    hand_b = to_b.split("Only for you (revh):")[1]
    assert all(card in hand_b for card in table.hand("revh", "B")) and "Your hand:" in hand_b
    assert not any(card in hand_b for card in table.hand("revh", "A"))
    assert "Only for you" not in only(played, "report", GM).text


def test_a_complete_game_is_played_by_mail_between_two_players(table: Table) -> None:
    """Both players mail a legal play (the first one the rules offer) for
    every step until the game ends; every step is answered, revealed and
    reported by the judge, and the end is mailed with the final score."""
    seated(table, "revfull")
    module = Revolution1848()
    reports = 0
    for _ in range(2000):
        record = table.store.game("revfull")
        assert record is not None
        if record.status == "finished":
            break
        acting = module.must_act(record.state)
        assert acting, record.phase
        for player in acting:
            choice = module.legal_orders(record.state, player)[0]
            mails = table.play("revfull", player, choice)
            ack = only(mails, "acknowledgement", ADDRESS[player])
            assert "ERROR" not in ack.text, ack.text
            reports += sum(1 for m in mails if m.kind == "report" and m.to == GM)
    record = table.store.game("revfull")
    assert record is not None and record.status == "finished" and record.outcome
    assert reports == len(table.store.phases("revfull")) > 20


def test_list_counts_points_and_the_open_plays_are_not_repeated(table: Table) -> None:
    seated(table, "revl")
    listing = only(table.send("someone@players.test", "LIST revl"), "acknowledgement", "someone@players.test").text
    assert "  Player A: taken, 0 points (flow cards won)" in listing and "supply centres" not in listing
    record = table.store.game("revl")
    assert record is not None
    game = from_json(record.state["game"])
    keep = {**record.state, "game": to_json(records.replace(game, step="keep", tag="K", flow="A02"))}
    assert Revolution1848().legal_orders(keep, "A") == ["KEEP NOTHING"]  # with nothing on the table: once
    assert "Open to you now: KEEP NOTHING" in Revolution1848().private_lines(keep, "A", "en")


def test_the_extend_policy_gives_a_missed_play_one_extension_with_a_reminder(table: Table) -> None:
    now = [START]
    table.judge.clock = lambda: now[0]
    create_game(table.store, table.config, "revm", "1848", {**COMPLETE, "language": "en", "missed": "extend"},
                START, gm=GM, seed=5)
    for player in ("A", "B"):
        table.send(ADDRESS[player], f"SIGNON {player} revm {PASSWORD[player]}")
    first = table.store.game("revm")
    assert first is not None and first.settings["missed"] == "extend" and first.deadline is not None
    table.play("revm", "A", table.person("revm", "A", 0))
    now[0] = datetime.fromisoformat(first.deadline) + timedelta(seconds=1)
    mails = table.send("someone@players.test", "HELP")
    extended = table.store.game("revm")
    assert extended is not None and extended.phase == "R01A01-1"  # not resolved: B gets one extension
    assert extended.deadline == (datetime.fromisoformat(first.deadline) + timedelta(hours=48)).isoformat()
    notice = [m for m in mails if m.to == ADDRESS["B"]]
    assert len(notice) == 1 and "The deadline has been extended once" in notice[0].text
    assert "If nothing arrives by then: PASS." in notice[0].text
    assert not [m for m in mails if m.to == ADDRESS["A"]]  # A had played
    now[0] = datetime.fromisoformat(extended.deadline) + timedelta(seconds=1)
    mails = table.send("someone@players.test", "HELP")
    resolved = table.store.game("revm")
    assert resolved is not None and resolved.phase != "R01A01-1"
    report = only(mails, "report", ADDRESS["B"]).text
    assert "Player B passes (no play received)." in report


def test_the_pass_policy_resolves_a_missed_play_at_the_deadline(table: Table) -> None:
    now = [START]
    table.judge.clock = lambda: now[0]
    seated(table, "revp")
    game = table.store.game("revp")
    assert game is not None and game.deadline is not None and "missed" not in game.settings
    table.play("revp", "A", table.person("revp", "A", 0))
    now[0] = datetime.fromisoformat(game.deadline) + timedelta(seconds=1)
    mails = table.send("someone@players.test", "HELP")
    assert table.phase("revp") != "R01A01-1"
    assert "Player B passes (no play received)." in only(mails, "report", ADDRESS["B"]).text


def test_a_round_digest_holds_the_reveals_until_the_player_must_play_and_loses_none(table: Table) -> None:
    """B, on ``SET DIGEST ROUND``, passes at once: while A plays on alone B
    gets no report; the first mail after the round holds every reveal of
    it, oldest first, and B's hand.  A (no choice) and the GM get every
    report as it happens."""
    seated(table, "revdg")
    answer = only(table.play("revdg", "B", "SET DIGEST ROUND"), "acknowledgement", ADDRESS["B"]).text
    assert "Digests for you in revdg: one mail per completed round." in answer
    assert "you still get a mail at once whenever you have to play" in answer
    table.play("revdg", "A", table.person("revdg", "A", 0))
    mails = table.play("revdg", "B", "PASS")
    module = Revolution1848()
    resolved = ["R01A01-1"]
    to_b = [m for m in mails if m.kind == "report" and m.to == ADDRESS["B"]]
    gm_reports = sum(1 for m in mails if m.kind == "report" and m.to == GM)
    a_reports = sum(1 for m in mails if m.kind == "report" and m.to == ADDRESS["A"])
    for _ in range(30):
        if to_b:
            break
        record = table.store.game("revdg")
        assert record is not None and module.must_act(record.state) == ("A",), record.phase
        resolved.append(record.phase)
        mails = table.play("revdg", "A", module.legal_orders(record.state, "A")[0])
        to_b += [m for m in mails if m.kind == "report" and m.to == ADDRESS["B"]]
        gm_reports += sum(1 for m in mails if m.kind == "report" and m.to == GM)
        a_reports += sum(1 for m in mails if m.kind == "report" and m.to == ADDRESS["A"])
    assert len(resolved) > 2 and len(to_b) == 1 and gm_reports == a_reports == len(resolved)
    record = table.store.game("revdg")
    assert record is not None and not record.phase.startswith("R01A01") and "B" in module.must_act(record.state)
    digest = to_b[0].text
    assert "Also since your last mail (the oldest report first):" in digest
    held = digest.split("Also since your last mail")[1]
    positions = [held.index(f"--- {phase} ---") for phase in resolved[:-1]]
    assert positions == sorted(positions)  # every held reveal, oldest first
    for entry in table.store.phases("revdg"):  # nothing revealed is lost
        revealed = entry.report_text.split("Played (revealed):\n")[1].split("\n\n")[0]
        assert all(line.strip() in digest for line in revealed.splitlines()), entry.phase
    assert ":: Phase: R01A01-1" not in digest and to_b[0].text.count(":: Kind:") == 1
    assert "Player B passes." in held and digest.rstrip().splitlines()[-1].strip() in \
        "\n".join(Revolution1848().private_lines(record.state, "B", "en"))


def test_a_digest_never_holds_a_report_the_player_needs_to_play(table: Table) -> None:
    seated(table, "revdn")
    table.play("revdn", "A", "SET DIGEST ROUND")
    table.play("revdn", "B", table.person("revdn", "B", 0))
    mails = table.play("revdn", "A", table.person("revdn", "A", 0))
    report = only(mails, "report", ADDRESS["A"])  # both play the next action: A is told at once
    assert "Also since your last mail" not in report.text
    assert table.store.turn_seat("revdn", "A").queue.get("held", []) == []


def test_a_short_reminder_before_each_actions_deadline_goes_to_the_silent_player_only(table: Table) -> None:
    now = [START]
    table.judge.clock = lambda: now[0]
    create_game(table.store, table.config, "revrm", "1848",
                {**COMPLETE, "language": "en", "deadline.play": 24 * 3600, "reminder.play": 6 * 3600}, START, gm=GM,
                seed=5)
    for player in ("A", "B"):
        table.send(ADDRESS[player], f"SIGNON {player} revrm {PASSWORD[player]}")
    for action in ("R01A01-1", "R01A01-2"):  # each action has its own reminder
        game = table.store.game("revrm")
        assert game is not None and game.phase == action and game.deadline is not None
        table.play("revrm", "A", table.person("revrm", "A", 0))
        now[0] = datetime.fromisoformat(game.deadline) - timedelta(hours=7)
        assert not table.send("someone@players.test", "HELP")[1:]  # not yet: only the HELP answer
        now[0] = datetime.fromisoformat(game.deadline) - timedelta(hours=5)
        mails = [m for m in table.send("someone@players.test", "HELP") if m.to != "someone@players.test"]
        assert [(m.to, m.kind) for m in mails] == [(ADDRESS["B"], "notice")]  # A has played
        assert f"The judge has nothing from you for {action} in revrm yet." in mails[0].text
        assert "After it: PASS" in mails[0].text
        assert not [m for m in table.send("someone@players.test", "HELP") if m.to != "someone@players.test"]  # once
        table.play("revrm", "B", table.person("revrm", "B", 0))


@pytest.mark.parametrize("language", ["de", "en"])
def test_refusals_are_answered_in_the_games_language(table: Table, language: str) -> None:
    name = f"reverr{language}"
    create_game(table.store, table.config, name, "1848", {**COMPLETE, "language": language}, START, gm=GM, seed=5)
    for player in ("A", "B"):
        table.send(ADDRESS[player], f"SIGNON {player} {name} {PASSWORD[player]}")
    b_card = table.hand(name, "B")[0]
    mails = table.play(name, "A", f"SPIELE {b_card}", "ENTSCHEIDUNG ROT", "SPIELE", "BONJOUR", "PLAY PE12 PE13")
    text = only(mails, "acknowledgement", ADDRESS["A"]).text
    expected = {
        "de": [f"{b_card} ist nicht auf deiner Hand", "jetzt nicht erlaubt: R01A01-1 ist ein Schritt „Ausspielen“",
               "der Befehl ist unvollständig; erwartet: PE12/Z03/A06", "'BONJOUR' ist hier nicht erwartet",
               "'PE13' ist hier nicht erwartet; erwartet: ", "Tipp: PLAY <card> [ON <card>] [AS <party>] | PASS"],
        "en": [f"{b_card} is not in your hand", "not allowed now: R01A01-1 is a play step",
               "the order is incomplete; expected PE12/Z03/A06", "did not expect 'BONJOUR' here",
               "did not expect 'PE13' here; expected ", "Hint: PLAY <card> [ON <card>] [AS <party>] | PASS"],
    }[language]
    for line in expected:
        assert line in text, (line, text)
    english = ("is not in your hand", "not allowed now", "incomplete", "did not expect", "Hint:")
    assert language == "en" or not [word for word in english if word in text]


@pytest.mark.parametrize("language", ["de", "en"])
def test_the_start_mail_gives_side_hand_first_step_and_deadline(table: Table, language: str) -> None:
    name = f"revst{language}"
    create_game(table.store, table.config, name, "1848", {**COMPLETE, "language": language}, START, gm=GM, seed=5)
    starts = []
    for player in ("A", "B"):
        starts += table.send(ADDRESS[player], f"SIGNON {player} {name} {PASSWORD[player]}")
    record = table.store.game(name)
    assert record is not None and record.deadline is not None
    data = complete_data()
    for player in ("A", "B"):
        text = only(starts, "start", ADDRESS[player]).text
        example = table.person(name, player, 0).removeprefix("PLAY ")
        words = {
            "de": [f"Du spielst Spieler {player}.", "Die erste Runde geht um die Ablaufkarte A01 in der Mitte",
                   f"Zuerst, in R01A01-1: spiele eine Karte aus deiner Hand (z. B. SPIELE {example};",
                   "Kommt bis zur Frist nichts, passt du.", "Phase R01A01-1, Frist Donnerstag, 3. Dezember 2026",
                   "1848 hat kein Spielbild", "Deine Hand:"],
            "en": [f"You play Player {player}.", "The first round is about the flow card A01 in the middle",
                   f"First, in R01A01-1: play a card from your hand (e.g. PLAY {example};",
                   "If nothing arrives by the deadline, you pass.", "Phase R01A01-1, deadline Thursday, 3 December 2026",
                   "1848 has no board picture", "Your hand:"],
        }[language]
        for line in words:
            assert line in text, (line, text)
        for card in table.hand(name, player):  # the hand with what each card is and does
            assert f"    {describe.line(data, card)[language]}" in text.splitlines()
        assert example.split()[0] in table.hand(name, player)


def test_the_games_digest_option_gives_the_gm_one_mail_per_round_with_every_step(table: Table) -> None:
    create_game(table.store, table.config, "revgm", "1848", {**COMPLETE, "language": "en", "digest": "round"}, START,
                gm=GM, seed=5)
    for player in ("A", "B"):
        table.send(ADDRESS[player], f"SIGNON {player} revgm {PASSWORD[player]}")
    module = Revolution1848()
    to_gm: list[Mail] = []
    rounds: list[str] = []
    for _ in range(200):
        record = table.store.game("revgm")
        assert record is not None
        if len(rounds) >= 2:
            break
        before = module.round_key(record.state)
        for player in module.must_act(record.state):
            to_gm += [m for m in table.play("revgm", player, module.legal_orders(record.state, player)[0])
                      if m.to == GM and m.kind == "report"]
        after = table.store.game("revgm")
        assert after is not None
        if module.round_key(after.state) != before:
            rounds.append(before)
            assert len(to_gm) == len(rounds), (before, after.phase)  # one mail, at the round's end
    assert len(rounds) >= 2
    played = [p.phase for p in table.store.phases("revgm")]
    for entry, round_key in zip(to_gm, rounds):  # every step of the round, the earlier ones held
        steps = [p for p in played if p.startswith(round_key)]
        assert all(step in entry.text for step in steps), (round_key, steps)
        assert len(steps) > 2 and f"--- {steps[0]} ---" in entry.text


def test_a_digest_every_n_hours_sends_the_held_reveals_with_the_first_report_after_n_hours(table: Table) -> None:
    now = [START]
    table.judge.clock = lambda: now[0]
    seated(table, "revhr")
    assert "at most one mail every 12 hours" in table.play("revhr", "B", "SET DIGEST 12h")[0].text
    module = Revolution1848()
    table.play("revhr", "A", table.person("revhr", "A", 0))
    first = table.play("revhr", "B", "PASS")  # the first report goes out at once
    assert [m.kind for m in first if m.to == ADDRESS["B"]] == ["acknowledgement", "report"]

    def a_plays() -> list[Mail]:
        record = table.store.game("revhr")
        assert record is not None and module.must_act(record.state) == ("A",)
        return [m for m in table.play("revhr", "A", module.legal_orders(record.state, "A")[0])
                if m.to == ADDRESS["B"]]

    held = table.phase("revhr")
    now[0] = START + timedelta(hours=1)
    assert a_plays() == []  # within 12 hours of the last mail: held
    now[0] = START + timedelta(hours=13)
    later = table.phase("revhr")
    mails = a_plays()
    assert len(mails) == 1 and f"--- {held} ---" in mails[0].text and f"phase {later}" in mails[0].text
    record = table.store.game("revhr")
    assert record is not None and module.must_act(record.state) == ("A",)  # sent for the hours, not for a play
