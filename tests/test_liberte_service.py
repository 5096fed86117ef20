"""Liberté through the judge's mail path, in process: a real SQLite
store, a real ``Judge`` with a clock the test sets, a list as its
mailbox.  Four players sign on and play a whole game with the stand-in
data by mail: the player whose turn it is mails one order, sealed
tie-break plays are mailed by every seat asked; every report goes to
every player, each copy with that player's own hand only."""

from __future__ import annotations

import dataclasses
import random
import re
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path

import pytest

from adjudicator import records
from adjudicator.config import Config
from adjudicator.games import game_module
from adjudicator.games.liberte import Liberte
from adjudicator.service.runner import Judge
from adjudicator.service.store import Store
from adjudicator.service.turns import create_game
from tests.liberte.driver import random_chooser
from tests.inprocess_mail import post, take_queued
from tests.test_service_commands import ListTransport

JUDGE = "judge@pbem.test"
GM = "gm@pbem.test"
START = datetime(2026, 12, 1, 10, 0, tzinfo=timezone.utc)
SEATS = ("A", "B", "C", "D")


@dataclasses.dataclass(frozen=True)
class Mail:
    to: str
    kind: str
    text: str
    images: tuple[str, ...] = ()
    """The content types of the mail's attachments that are pictures."""


class Table:
    """A judge over a fresh database with a list mailbox."""

    def __init__(self, folder: Path) -> None:
        self.config = records.replace(Config(), database=folder / "judge.sqlite3", address=JUDGE, language="en")
        self.store = Store(self.config.database)
        self.mailbox = ListTransport()
        self.judge = Judge(self.config, self.store, self.mailbox, clock=lambda: START)

    def send(self, seat: str, *lines: str) -> list[Mail]:
        post(self.mailbox, self.judge, f"{seat.lower()}@players.test", "orders",
             [f"SIGNON {seat} lib password-{seat}", *lines], JUDGE)
        return [Mail(recipient, mail.kind, mail.text, mail.images)
                for mail in take_queued(self.store, START) for recipient in mail.recipients]

    def state(self) -> dict[str, object]:
        record = self.store.game("lib")
        assert record is not None
        return record.state


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    made = Table(tmp_path)
    yield made
    made.store.close()


def test_a_game_without_data_waits_for_it_and_does_not_start(table: Table) -> None:
    create_game(table.store, table.config, "nodata", "liberte", {"language": "en"}, START, gm=GM)
    game = table.store.game("nodata")
    assert game is not None and game.status == "forming" and game.phase == "-"
    assert game.state["awaiting_data"] == ["liberte"]


def test_a_whole_game_by_mail(table: Table) -> None:
    create_game(table.store, table.config, "lib", "liberte", {"data": "standin", "language": "en"}, START, gm=GM,
                seed=11)
    module = game_module("liberte")
    assert isinstance(module, Liberte) and module.powers() == SEATS
    starts: dict[str, str] = {}
    for seat in SEATS:
        for mail in table.send(seat):
            if mail.kind == "start":
                starts[mail.to] = mail.text
    assert len(starts) == 4
    state = table.state()
    hands = {s: state["game"]["hands"][s] for s in SEATS}  # type: ignore[index]
    for seat in SEATS:
        text = starts[f"{seat.lower()}@players.test"]
        assert "Your hand: " + " ".join(hands[seat]) in text
        for other in SEATS:
            if other != seat:
                assert "Your hand: " + " ".join(hands[other]) not in text
    chooser = random_chooser(random.Random(4))
    kinds: set[str] = set()
    sealed_rounds = 0
    for _ in range(3000):
        record = table.store.game("lib")
        assert record is not None
        if record.status != "active":
            break
        acting = module.must_act(record.state)
        sealed = record.state["game"]["step"] == "bid"
        sealed_rounds += sealed
        for index, seat in enumerate(acting):
            order = chooser(record.state, seat, module.legal_orders(record.state, seat))
            mails = table.send(seat, *order)
            kinds |= {m.kind for m in mails}
            acknowledgement = [m for m in mails if m.kind == "acknowledgement"]
            assert acknowledgement and "Error" not in acknowledgement[0].text, acknowledgement
            if sealed and index < len(acting) - 1:
                # a sealed play: nobody else hears of it before all have played
                assert all(m.to == f"{seat.lower()}@players.test" for m in mails)
                assert table.state()["game"]["bid"] is not None and table.store.game("lib").phase == record.phase  # type: ignore[union-attr]
            before, now = record.state["game"], table.state()["game"]
            for mail in mails:
                hand = re.search(r"Your hand: (.*)", mail.text)
                if hand is not None and mail.to != GM:
                    # whatever a player is sent shows his own hand: as it was when his mail was read
                    # (acknowledgements), as it is now (everything else)
                    held = (before if mail.kind == "acknowledgement" else now)["hands"]  # type: ignore[index]
                    assert hand.group(1).split() == (held[mail.to[0].upper()] or ["-"])
            waiting = module.must_act(table.state())  # type: ignore[arg-type]
            for mail in (m for m in mails if m.kind == "turn"):
                assert mail.to[0].upper() in waiting
    record = table.store.game("lib")
    assert record is not None and record.status == "finished"
    assert record.state["game"]["result"]["kind"] in ("points", "landslide", "counter_revolution")
    assert sealed_rounds > 0 and {"acknowledgement", "turn"} <= kinds


def _signed_on(table: Table, language: str) -> dict[str, list[Mail]]:
    """A stand-in game in ``language`` with all four seats signed on: the
    mails each sign-on brought, by recipient."""
    create_game(table.store, table.config, "lib", "liberte", {"data": "standin", "language": language}, START,
                gm=GM, seed=11)
    got: dict[str, list[Mail]] = {}
    for seat in SEATS:
        for mail in table.send(seat):
            got.setdefault(mail.to, []).append(mail)
    return got


@pytest.mark.parametrize("language, words", [
    ("de", ("Deine Hand: ", "Offene Karten: ", "Spielerreihenfolge der Runde 1: ", "du bist an Platz ", "Frist")),
    ("en", ("Your hand: ", "Open cards: ", "Player order of round 1: ", "you are in place ", "deadline"))])
def test_the_start_mail_gives_hand_open_cards_order_deadline_and_picture(table: Table, language: str,
                                                                       words: tuple[str, ...]) -> None:
    """Issue 13 point 7 for Liberté: each player's start mail names his
    hand, the open cards, the player order with his place, the first
    deadline, and carries the board picture."""
    got = _signed_on(table, language)
    g = table.state()["game"]
    record = table.store.game("lib")
    assert record is not None and record.deadline is not None
    for seat in SEATS:
        (start,) = [m for m in got[f"{seat.lower()}@players.test"] if m.kind == "start"]
        hand, order, place_word, deadline = words[0], words[2], words[3], words[4]
        assert hand + " ".join(g["hands"][seat]) in start.text  # type: ignore[index]
        assert words[1] + " ".join(g["open"]) not in start.text  # type: ignore[index]  # names too
        assert all(f"{c} (" in start.text for c in g["open"])  # type: ignore[union-attr]
        assert order + ", ".join(g["order"]) in start.text  # type: ignore[arg-type]
        assert place_word + str(g["order"].index(seat) + 1) in start.text  # type: ignore[union-attr]
        assert deadline.lower() in start.text.lower() and f":: Deadline: " in start.text
        assert start.images == ("image/png",)
        for other in SEATS:
            if other != seat:
                assert hand + " ".join(g["hands"][other]) not in start.text  # type: ignore[index]


def test_every_your_turn_mail_carries_the_board_picture(table: Table) -> None:
    """Issue 17 point 6: the "your turn" mail shows the board (a PNG of
    the module's picture), the first one after the start and the next one
    after a player's action."""
    got = _signed_on(table, "en")
    first = table.state()["game"]["order"][0]  # type: ignore[index]
    (turn,) = [m for m in got[f"{first.lower()}@players.test"] if m.kind == "turn"]
    assert turn.images == ("image/png",)
    mails = table.send(first, "PASS")
    second = table.state()["game"]["order"][1]  # type: ignore[index]
    (turn,) = [m for m in mails if m.kind == "turn"]
    assert turn.to == f"{second.lower()}@players.test" and turn.images == ("image/png",)


def _rules_position(table: Table) -> str:
    """A's turn with a blue Centre card of two blocks in hand; Paris holds
    A's blue 2, Berry three stacks of B, C and D, Touraine A's red 1,
    Orléanais B's blue 1.  Returns the card."""
    from tests.liberte.scenario import DATA

    record = table.store.game("lib")
    assert record is not None
    g = dict(record.state["game"])
    card = next(c for c in DATA.cards.values() if c.kind == "person" and c.faction == "blue" and c.region == "CENTRE"
                and c.blocks >= 2).id
    hands = {s: [c for c in g["hands"][s] if c != card] for s in SEATS}
    hands["A"].append(card)  # from wherever it was: a deck, open or hand card moves to A's hand
    board = {**g["board"], "PARIS": [["A", "blue", 2]], "BERRY": [["B", "red", 1], ["C", "white", 1], ["D", "blue", 1]],
             "TOURAINE": [["A", "red", 1]], "ORLEANAIS": [["B", "blue", 1]]}
    g.update(hands=hands, deck=[c for c in g["deck"] if c != card], open=[c for c in g["open"] if c != card],
             order=list(SEATS), turn=0, board=board)
    with table.store.transaction() as db:
        table.store.update_game(db, records.replace(record, state={**record.state, "game": g}))
    return card


@pytest.mark.parametrize("language, reasons", [
    ("de", ("Regel 1: höchstens 3 Steine einer Farbe in Paris", "Regel 2: in Berry liegen schon 3 Stapel",
            "Regel 3: du kontrollierst in Touraine schon einen Stapel (Radikale (rot))",
            "Regel 4: dein Stapel in Touraine ist Radikale (rot), ein Stapel hat nur eine Farbe",
            "Regel 5: nur Spieler B legt Steine auf seinen Stapel in Orléanais")),
    ("en", ("rule 1: at most 3 blocks of a colour in Paris", "rule 2: Berry holds 3 stacks already",
            "rule 3: you control a stack in Touraine already (Radicals (red))",
            "rule 4: your stack in Touraine is Radicals (red); a stack has one colour",
            "rule 5: only player B adds blocks to his stack in Orléanais"))])
def test_placement_rules_one_to_five_are_refused_over_the_intake_in_the_games_language(
        table: Table, language: str, reasons: tuple[str, ...]) -> None:
    """Each of the placement rules 1-5 broken by one line of a mail: the
    acknowledgement names the line and the rule in the game's language
    only, and nothing is stored."""
    _signed_on(table, language)
    card = _rules_position(table)
    mails = table.send("A", f"PLAY {card} PARIS PARIS", f"PLAY {card} BERRY", f"PLAY {card} TOURAINE",
                       f"PLAY {card} TOURAINE/A", f"PLAY {card} ORLEANAIS/B")
    (ack,) = [m for m in mails if m.kind == "acknowledgement"]
    for number, reason in enumerate(reasons, start=2):
        line = next(x for x in ack.text.splitlines() if reason in x)
        assert str(number) in line
    other = ("rule 1:", "rule 5:") if language == "de" else ("Regel 1:", "Regel 5:")
    assert not any(word in ack.text for word in other) and " / " not in "".join(
        x for x in ack.text.splitlines() if "Regel" in x or "rule" in x)
    assert table.state()["game"]["hands"]["A"][-1] == card  # type: ignore[index]


def test_a_queued_line_refused_at_the_seats_turn_is_named_in_the_games_language(table: Table) -> None:
    """B mails a play before his turn (queued); when his turn comes the
    line is not legal, and his "your turn" mail names it with the reason
    in the game's language (German here), from the catalogue."""
    _signed_on(table, "de")
    record = table.store.game("lib")
    assert record is not None
    g = dict(record.state["game"])
    g.update(order=list(SEATS), turn=0)
    with table.store.transaction() as db:
        table.store.update_game(db, records.replace(record, state={**record.state, "game": g}))
    table.send("B", "SPIELE A99 PARIS")
    mails = table.send("A", "PASSE")
    (turn,) = [m for m in mails if m.kind == "turn"]
    assert turn.to == "b@players.test" and "SPIELE A99 PARIS: keine Karte A99" in turn.text
    assert "no card" not in turn.text


def test_the_seats_told_of_one_position_get_one_drawing(table: Table) -> None:
    """Every seat's turn or digest mail of one position carries the same
    picture, drawn once (issue 20: each map once per mail, not per seat);
    another language or a changed state is drawn anew."""
    from adjudicator.service import turnplay
    from adjudicator.service.turns import texts_for

    create_game(table.store, table.config, "lib", "liberte", {"data": "standin", "language": "en"}, START, gm=GM,
                seed=11)
    for seat in SEATS:
        table.send(seat)
    record = table.store.game("lib")
    assert record is not None and record.status == "active"

    class Counting:
        def __init__(self) -> None:
            self.calls = 0

        def picture(self, *args: object, **kwargs: object) -> object:
            self.calls += 1
            return game_module("liberte").picture(*args, **kwargs)  # type: ignore[arg-type]

    module = Counting()
    turnplay._BOARDS.clear()
    texts = texts_for(record)
    first = turnplay.board_now(record, module, texts)  # type: ignore[arg-type]
    again = [turnplay.board_now(table.store.game("lib"), module, texts) for _ in SEATS]  # type: ignore[arg-type]
    assert first and first[0].mime_type == "image/png" and all(images == first for images in again)
    assert module.calls == 1
    german = turnplay.board_now(record, module, texts.replace(language="de"))  # type: ignore[arg-type]
    assert module.calls == 2 and german
    changed = record.replace(state={**record.state, "phase": record.state.get("phase", "")})
    turnplay.board_now(changed, module, texts)  # type: ignore[arg-type]
    assert module.calls == 2  # the same state, however it was copied
    moved = record.replace(state={**record.state, "seed_note": "another state"})
    turnplay.board_now(moved, module, texts)  # type: ignore[arg-type]
    assert module.calls == 3
