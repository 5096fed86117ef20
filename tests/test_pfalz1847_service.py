"""1847 AE through the judge's mail path, in process: a real SQLite
store, a real ``Judge`` with a fixed clock, a list as its mailbox.  A
refused order is answered in the game's language only (issue 13 point
3), from the catalogue notes the module gives."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path

import pytest

from adjudicator import records
from adjudicator.config import Config
from adjudicator.service.runner import Judge
from adjudicator.service.store import Store
from adjudicator.service.turns import create_game
from tests.inprocess_mail import post, take_queued
from tests.test_service_commands import ListTransport

JUDGE = "judge@pbem.test"
START = datetime(2026, 12, 1, 10, 0, tzinfo=timezone.utc)
SEATS = ("S1", "S2", "S3")


class Table:
    """A judge over a fresh database with a list mailbox and a 1847 AE
    game ``pf`` on the stand-in data."""

    def __init__(self, folder: Path, language: str) -> None:
        self.language = language
        self.config = records.replace(Config(), database=folder / "judge.sqlite3", address=JUDGE, language="en")
        self.store = Store(self.config.database)
        self.mailbox = ListTransport()
        self.judge = Judge(self.config, self.store, self.mailbox, clock=lambda: START)
        create_game(self.store, self.config, "pf", "1847ae", {"data": "standin", "language": language}, START,
                    gm="gm@pbem.test", seed=3)
        for seat in SEATS:
            self.send(seat)

    def send(self, seat: str, *lines: str) -> dict[str, str]:
        """The plain texts of the mails one mail of ``seat`` brought, by kind."""
        post(self.mailbox, self.judge, f"{seat.lower()}@players.test", "orders",
             [f"SIGNON {seat} pf password-{seat}", *lines], JUDGE)
        return {mail.kind: mail.text for mail in take_queued(self.store, START)}


@pytest.fixture(params=["de", "en"])
def table(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Table]:
    made = Table(tmp_path, str(request.param))
    yield made
    made.store.close()


PACKET = "PLP, SPR, LFKC, R, K, H, W, MNR, SCR, VIW"
OPEN = "PASS; BUY PLP; BUY SPR; BUY LFKC; BUY R; BUY K; BUY H; BUY W; BUY MNR; BUY SCR; BUY VIW"
REFUSED = {
    "de": f'  Zeile 2, Spalte 1: FEHLER in "BUY XYZ": XYZ liegt nicht im Startpaket (noch da: {PACKET}) Tipp: {OPEN}',
    "en": f'  line 2, column 1: ERROR in "BUY XYZ": XYZ is not in the start packet (still there: {PACKET}) Hint: {OPEN}',
}
OTHER = {"de": ("start packet", "still there", "Hint"), "en": ("Startpaket", "noch da", "Tipp")}


def test_a_refused_order_is_answered_in_the_games_language_only(table: Table) -> None:
    """S3, on turn, buys a private that is not in the start packet: the
    acknowledgement gives the reason and the orders open now in the
    game's language, no other language beside it, and stores nothing."""
    language = table.language
    ack = table.send("S3", "BUY XYZ")["acknowledgement"]
    assert REFUSED[language] in ack.splitlines()
    assert not any(word in ack for word in OTHER[language]) and " / " not in ack


def test_a_queued_order_refused_at_the_turn_is_named_in_the_games_language(table: Table) -> None:
    """S2 queues ``BUY W`` before his turn; S3 buys W first: the "your
    turn" mail of S2 names the queued line with the reason in the game's
    language only."""
    table.send("S2", "BUY W")
    turn = table.send("S3", "BUY W")["turn"]
    left = "PLP, SPR, LFKC, R, K, H, MNR, SCR, VIW"
    expected = {"de": f"  BUY W: W liegt nicht im Startpaket (noch da: {left}) Tipp: PASS; BUY PLP",
                "en": f"  BUY W: W is not in the start packet (still there: {left}) Hint: PASS; BUY PLP"}
    assert any(line.startswith(expected[table.language]) for line in turn.splitlines())
    assert not any(word in turn for word in OTHER[table.language])


def test_a_garbled_order_is_answered_in_the_games_language_only(table: Table) -> None:
    """Issue 13 point 3: a line that is no order at all gets its column and
    the unread rest in the game's language, with the order syntax as hint."""
    ack = table.send("S3", "BUY K 7 8 zz")["acknowledgement"]
    said = {"de": "  Zeile 2, Spalte 7: FEHLER in \"BUY K 7 8 zz\": ab Spalte 7 nicht als Befehl lesbar: '7 8 zz' "
                  "Tipp: BUY K | BUY L IPO | ",
            "en": "  line 2, column 7: ERROR in \"BUY K 7 8 zz\": cannot read this as an order at column 7: '7 8 zz' "
                  "Hint: BUY K | BUY L IPO | "}
    assert any(line.startswith(said[table.language]) for line in ack.splitlines()), ack
    assert ("cannot read" in ack) == (table.language == "en")
