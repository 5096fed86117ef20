"""Liberté through the judge's mail path, in process: a real SQLite
store, a real ``Judge`` with a clock the test sets, a list as its
mailbox.  Four players sign on and play a whole game with the stand-in
data by mail: the player whose turn it is mails one order, sealed
tie-break plays are mailed by every seat asked; every report goes to
every player, each copy with that player's own hand only."""

from __future__ import annotations

import dataclasses
import email
import email.policy
import random
import re
from collections.abc import Iterator
from datetime import datetime, timezone
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

import pytest

from adjudicator.config import Config
from adjudicator.games import game_module
from adjudicator.games.liberte import Liberte
from adjudicator.service.intake import read_pipe
from adjudicator.service.runner import Judge
from adjudicator.service.store import Store
from adjudicator.service.turns import create_game
from tests.liberte.driver import random_chooser
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


class Table:
    """A judge over a fresh database with a list mailbox."""

    def __init__(self, folder: Path) -> None:
        self.config = dataclasses.replace(Config(), database=folder / "judge.sqlite3", address=JUDGE, language="en")
        self.store = Store(self.config.database)
        self.mailbox = ListTransport()
        self.judge = Judge(self.config, self.store, self.mailbox, clock=lambda: START)

    def send(self, seat: str, *lines: str) -> list[Mail]:
        message = EmailMessage()
        message["From"] = f"{seat.lower()}@players.test"
        message["To"] = JUDGE
        message["Subject"] = "orders"
        message["Message-ID"] = make_msgid(domain="players.test")
        message.set_content("\n".join([f"SIGNON {seat} lib password-{seat}", *lines]) + "\n")
        self.mailbox.box.append(read_pipe(bytes(message)))
        self.judge.poll()
        mails = []
        for queued in self.store.unsent_mail():
            parsed = email.message_from_bytes(queued.message, policy=email.policy.default)
            body = parsed.get_body(preferencelist=("plain",))
            assert body is not None
            text = str(body.get_content()).replace("\r\n", "\n")
            kind = next(line.removeprefix(":: Kind: ") for line in text.splitlines() if line.startswith(":: Kind: "))
            for recipient in queued.recipients:
                mails.append(Mail(recipient, kind, text))
            self.store.mark_sent(queued.id, START.isoformat())
        return mails

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
