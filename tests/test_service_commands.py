"""The player commands, in process: a real SQLite store, a real ``Judge``
with a clock the test moves, and a list of mails as its mailbox.

Every test states the situation, the mails the players send and what the
judge must answer (the acknowledgement's sections, the stored state, the
reports and who receives them).  The replies are read from the outbox
exactly as they would be sent.
"""

from __future__ import annotations

import email
import email.policy
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

import pytest

from adjudicator import records
from adjudicator.config import Config
from adjudicator.service.auth import check_password
from adjudicator.service.commands import COMMANDS
from adjudicator.service.intake import Incoming, read_pipe
from adjudicator.service.runner import Judge
from adjudicator.service.store import Store
from adjudicator.service.turns import create_game

JUDGE = "judge@pbem.test"
GM = "gm@pbem.test"
START = datetime(2026, 12, 1, 10, 0, tzinfo=timezone.utc)
MOVEMENT = timedelta(hours=72)
FIRST_DEADLINE = START + MOVEMENT
FIRST_DEADLINE_MACHINE = "2026-12-04T11:00+01:00"
FIRST_DEADLINE_TEXT = "Friday, 4 December 2026, 11:00 CET (Europe/Berlin)"
POWERS = ("Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey")
SIGNON_FAILED = "Sign-on failed: the game, the power or the password is wrong."
SIGN_ON_FIRST = "Sign on first: SIGNON <power> <game> <password>."
VOTE_RECORDED = "Vote recorded. Votes stay secret until everyone agrees; they count for this phase only."
READY = "Ready: once everyone is ready the phase is processed before the deadline."
WAITING = "Waiting: the phase will not be processed before its deadline."
GAME_ENDED = "Everyone agrees: the game is over. Every player gets a mail."
ALL_DRAW = "Draw between Austria, England, France, Germany, Italy, Russia, Turkey, agreed by all."


def address(power: str) -> str:
    return f"{power.lower().replace(' ', '.')}@players.test"


def password(power: str) -> str:
    return f"pw-{power.lower().replace(' ', '-')}"


def signon(power: str, game: str = "spiel1") -> str:
    return f"SIGNON {power} {game} {password(power)}"


class ListTransport:
    """A mailbox as a list: ``waiting`` yields what is in it, ``taken``
    removes a mail (it is stored in the judge's database)."""

    def __init__(self) -> None:
        self.box: list[Incoming] = []

    def waiting(self) -> Iterator[Incoming]:
        yield from list(self.box)

    def taken(self, incoming: Incoming) -> None:
        self.box.remove(incoming)


@dataclass(frozen=True)
class Mail:
    """One queued judge mail, decoded."""

    to: str
    subject: str
    text: str
    raw: bytes

    def machine(self, key: str) -> list[str]:
        """The values of the ``:: key: value`` lines."""
        prefix = f":: {key}: "
        return [line.removeprefix(prefix) for line in self.text.splitlines() if line.startswith(prefix)]

    @property
    def kind(self) -> str:
        kinds = self.machine("Kind")
        assert len(kinds) == 1, self.text
        return kinds[0]

    def sections(self) -> list[tuple[str, list[str]]]:
        """The acknowledgement's sections: (echoed command, answer lines)."""
        result: list[tuple[str, list[str]]] = []
        current: list[str] | None = None
        for line in self.text.splitlines():
            if line.startswith("> "):
                current = []
                result.append((line[2:], current))
            elif current is not None and line.startswith("  "):
                current.append(line[2:])
            else:
                current = None
        return result

    def section(self, echo: str) -> list[str]:
        found = [lines for shown, lines in self.sections() if shown == echo]
        assert len(found) == 1, f"{echo!r} in {self.sections()}"
        return found[0]


class Outbox(list[Mail]):
    """The mails one step of the judge queued."""

    def of(self, kind: str) -> list[Mail]:
        return [m for m in self if m.kind == kind]

    def one(self, kind: str, to: str) -> Mail:
        found = [m for m in self if m.kind == kind and m.to == to]
        assert len(found) == 1, f"{kind} to {to}: {[(m.kind, m.to) for m in self]}"
        return found[0]

    def recipients(self, kind: str) -> list[str]:
        return sorted(m.to for m in self.of(kind))


class Table:
    """A judge over a fresh database, its mailbox and its clock."""

    def __init__(self, folder: Path, database_url: str = "") -> None:
        self.now = START
        self.config = records.replace(
            Config(), database=folder / "judge.sqlite3", database_url=database_url, address=JUDGE, language="en"
        )
        self.store = Store(self.config.store_target)
        self.mailbox = ListTransport()
        self.judge = Judge(self.config, self.store, self.mailbox, clock=lambda: self.now)

    def create(self, name: str = "spiel1", variant: str = "standard", language: str = "en",
               gm: str | None = GM) -> None:
        create_game(self.store, self.config, name, variant, {"language": language}, self.now, gm=gm, seed=1)

    def deliver(self, sender: str, body: str) -> None:
        """Put a mail into the judge's mailbox (not yet taken in)."""
        message = EmailMessage()
        message["From"] = sender
        message["To"] = JUDGE
        message["Subject"] = "orders"
        message["Message-ID"] = make_msgid(domain="players.test")
        message.set_content(body + "\n")
        self.mailbox.box.append(read_pipe(bytes(message), self.now))  # it reaches the mailbox now

    def poll(self) -> Outbox:
        """One intake round of the judge; the mails it queued."""
        self.judge.poll()
        return self.sent()

    def sent(self) -> Outbox:
        """Every mail queued since the last call (marked sent, so each is seen once)."""
        result = Outbox()
        for queued in self.store.unsent_mail():
            message = email.message_from_bytes(queued.message, policy=email.policy.default)
            body = message.get_body(preferencelist=("plain",))
            assert body is not None
            assert len(queued.recipients) == 1
            text = str(body.get_content()).replace("\r\n", "\n")
            result.append(Mail(queued.recipients[0], str(message["Subject"]), text, queued.message))
            self.store.mark_sent(queued.id, self.now.isoformat())
        return result

    def send(self, sender: str, *lines: str) -> Outbox:
        """``sender`` mails ``lines``; the judge polls once."""
        self.deliver(sender, "\n".join(lines))
        return self.poll()

    def ack(self, sender: str, *lines: str) -> Mail:
        """``sender`` mails ``lines``; the judge's only answer to it, which
        must be the only mail the judge queued."""
        out = self.send(sender, *lines)
        assert [(m.kind, m.to) for m in out] == [("acknowledgement", sender)], [(m.kind, m.to) for m in out]
        return out[0]

    def orders(self, power: str, *lines: str, game: str = "spiel1") -> Outbox:
        """``power`` signs on and mails ``lines``."""
        return self.send(address(power), signon(power, game), *lines)

    def phase(self, game: str = "spiel1") -> str:
        found = self.store.game(game)
        assert found is not None
        return found.phase

    def seat_everyone(self, game: str = "spiel1") -> Outbox:
        for power in POWERS:
            self.deliver(address(power), signon(power, game))
        return self.poll()


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    made = Table(tmp_path)
    yield made
    made.store.close()


@pytest.fixture
def started(table: Table) -> Table:
    """spiel1 (standard, English, GM gm@pbem.test): every seat taken, in S1901M."""
    table.create()
    table.seat_everyone()
    assert table.phase() == "S1901M" and table.store.game("spiel1").status == "active"  # type: ignore[union-attr]
    return table


def everyone_ready(table: Table, orders: dict[str, tuple[str, ...]], game: str = "spiel1") -> Outbox:
    """Every power mails its orders (if any) and READY in one poll."""
    for power in POWERS:
        table.deliver(address(power), "\n".join([signon(power, game), *orders.get(power, ()), "READY"]))
    return table.poll()


def everyone_ready_but(table: Table, absent: str) -> Outbox:
    for power in POWERS:
        if power != absent:
            table.deliver(address(power), f"{signon(power)}\nREADY")
    return table.poll()


def to_retreat(table: Table) -> None:
    """Play spiel1 to F1901R, where only Russia (A GAL dislodged) orders."""
    everyone_ready(table, {
        "Russia": ("A War - Gal", "F Sev - Bla", "A Mos - Ukr"),
        "Austria": ("A Vie H", "A Bud H", "F Tri - Alb"),
    })
    assert table.phase() == "F1901M"
    everyone_ready(table, {
        "Austria": ("A Vie - Gal", "A Bud S A Vie - Gal", "F Alb - Gre"),
        "Russia": ("A Gal H", "A Ukr - Rum", "F Bla - Ank"),
    })
    assert table.phase() == "F1901R"


def orders_of(report: str, power: str) -> list[str]:
    """A power's lines in the "Orders and results" part of a report, with
    the column padding squeezed."""
    block = report.split(f"\n{power}:\n")[1].split("\n\n")[0]
    return [" ".join(line.split()) for line in block.splitlines()]


def player_rows(table: Table) -> list[tuple[object, ...]]:
    return list(table.store.connection.execute("SELECT * FROM players"))


# --- 1. Sign-on -------------------------------------------------------------


def test_claiming_open_seats_stores_a_hash_and_the_last_seat_starts_the_game(table: Table) -> None:
    table.create()

    ack = table.ack(address("Austria"), signon("Austria"))
    assert ack.sections() == [("SIGNON Austria spiel1 ****", [
        "You now play Austria in spiel1. Keep your password: every mail needs it.",
        "The game has not started yet; powers still open: 6.",
    ])]
    assert (ack.machine("Game"), ack.machine("Power"), ack.machine("Phase"), ack.machine("Status"),
            ack.machine("Deadline")) == (["spiel1"], ["Austria"], ["S1901M"], ["forming"], ["-"])
    seat = next(p for p in table.store.players("spiel1") if p.power == "Austria")
    assert (seat.address, seat.status, seat.joined_at) == (address("Austria"), "playing", START.isoformat())
    assert seat.password_hash is not None and seat.password_hash.startswith("scrypt$16384$8$1$")
    assert check_password(password("Austria"), seat.password_hash)
    assert not any(password("Austria") in str(value) for row in player_rows(table) for value in row)

    for power in POWERS[1:-1]:
        table.deliver(address(power), signon(power))
    out = table.poll()
    assert out.recipients("acknowledgement") == sorted(address(p) for p in POWERS[1:-1])
    assert out.of("start") == []
    game = table.store.game("spiel1")
    assert game is not None and (game.status, game.deadline) == ("forming", None)

    table.now = START + timedelta(minutes=5)
    out = table.send(address("Turkey"), signon("Turkey"))
    game = table.store.game("spiel1")
    assert game is not None and game.status == "active"
    assert game.deadline == (table.now + MOVEMENT).isoformat()
    assert out.recipients("start") == sorted(address(p) for p in POWERS)
    assert len(out) == len(POWERS) + 1
    start = out.one("start", address("France"))
    assert start.machine("Power") == ["France"] and start.machine("Deadline") == ["2026-12-04T11:05+01:00"]
    assert "You play France." in start.text
    assert out.one("acknowledgement", address("Turkey")).section("SIGNON Turkey spiel1 ****") == [
        "You now play Turkey in spiel1. Keep your password: every mail needs it.",
        "All powers are taken: spiel1 starts with S1901M. Every player gets a start mail.",
        "Phase S1901M, deadline Friday, 4 December 2026, 11:05 CET (Europe/Berlin).",
    ]
    assert all(p.status == "playing" and p.address == address(p.power) for p in table.store.players("spiel1"))


def test_signing_on_again_works_and_every_failure_reads_the_same(started: Table) -> None:
    ack = started.ack(address("Austria"), signon("Austria"))
    assert ack.sections() == [("SIGNON Austria spiel1 ****", [
        "Signed on as Austria in spiel1.", f"Phase S1901M, deadline {FIRST_DEADLINE_TEXT}.",
    ])]
    assert ack.machine("Deadline") == [FIRST_DEADLINE_MACHINE] and ack.machine("Status") == ["active"]

    intruder = "mallory@elsewhere.test"
    failures = {
        "wrong password": "SIGNON Austria spiel1 guessed",
        "unknown game": "SIGNON Austria spiel9 pw-austria",
        "unknown power": "SIGNON Narnia spiel1 pw-austria",
        "taken seat, wrong password": "SIGNON England spiel1 pw-austria",
    }
    answers = {}
    for case, line in failures.items():
        ack = started.ack(intruder, line, "A Vie - Gal")
        echo, lines = ack.sections()[0]
        assert lines == [SIGNON_FAILED], case
        assert ack.sections()[1] == ("Orders (lines 2-2)", [SIGN_ON_FIRST]), case
        assert ack.machine("Game") == [], case
        answers[case] = ack.text.replace(echo, "<echo>")
    assert len(set(answers.values())) == 1, answers
    assert started.store.submissions("spiel1", "S1901M") == {}
    seat = next(p for p in started.store.players("spiel1") if p.power == "Austria")
    assert seat.address == address("Austria") and check_password(password("Austria"), seat.password_hash)


def test_german_anmelden_with_powers_of_several_words(table: Table) -> None:
    table.create("spiel2", "30jk", language="de")

    ack = table.ack("nl@players.test", "ANMELDEN Vereinigte Niederlande spiel2 pw-geheim")
    assert ack.sections() == [("SIGNON Vereinigte Niederlande spiel2 ****", [
        "Du spielst jetzt Vereinigte Niederlande in spiel2. Merke dir dein Passwort: jede Mail braucht es.",
        "Das Spiel hat noch nicht begonnen; noch freie Mächte: 10.",
    ])]
    assert ack.machine("Power") == ["Vereinigte Niederlande"]
    ack = table.ack("rhb@players.test", "anmelden Rhine Bishoprics spiel2 geheim-123")
    assert ack.section("SIGNON Rhine Bishoprics spiel2 ****")[0] == (
        "Du spielst jetzt Rheinbistümer in spiel2. Merke dir dein Passwort: jede Mail braucht es."
    )
    seats = {p.power: p for p in table.store.players("spiel2")}
    assert (seats["Vereinigte Niederlande"].status, seats["Vereinigte Niederlande"].address) == (
        "playing", "nl@players.test")
    assert (seats["Rheinbistümer"].status, seats["Rheinbistümer"].address) == ("playing", "rhb@players.test")
    assert sorted(p for p, s in seats.items() if s.status == "playing") == ["Rheinbistümer", "Vereinigte Niederlande"]

    ack = table.ack("nl@players.test", "ANMELDEN Vereinigte Niederlande spiel2 pw-geheim")
    assert ack.sections()[0][1] == [
        "Angemeldet als Vereinigte Niederlande in spiel2.",
        "Das Spiel hat noch nicht begonnen; noch freie Mächte: 9.",
    ]


# --- 2. Orders --------------------------------------------------------------


def test_orders_are_echoed_canonically_with_mail_lines_and_errors_with_columns(started: Table) -> None:
    ack = started.ack(address("Austria"), signon("Austria"), "", "a vie - gal", "A Bud - Boh", "F Tri - Alb",
                      "A Mun - Ruh", "A Vie Gal Xx")
    assert ack.sections()[1] == ("Orders (lines 3-7)", [
        "line 3: A VIE - GAL",
        'line 4, column 1: ERROR in "A Bud - Boh": BOH is not next to BUD and no convoy route is possible',
        "line 5: F TRI - ALB",
        'line 6, column 1: ERROR in "A Mun - Ruh": the unit in MUN belongs to Germany',
        "line 7, column 3: ERROR in \"A Vie Gal Xx\": unknown province 'Vie Gal Xx'",
        "Still without orders (the rules' default applies: hold, disband or waive): A BUD",
        "Stored for S1901M: 2 order(s); they replace any earlier orders of this phase.",
    ])
    entry = started.store.submissions("spiel1", "S1901M")["Austria"]
    assert (entry.orders, entry.has_orders, entry.ready) == (("A VIE - GAL", "F TRI - ALB"), True, False)
    assert set(started.store.submissions("spiel1", "S1901M")) == {"Austria"}

    ack = started.ack(address("Italy"), signon("Italy"), "A Ven - Tirolo")
    assert ack.section("Orders (lines 2-2)")[0] == (
        "line 2, column 9: ERROR in \"A Ven - Tirolo\": unknown province 'Tirolo'"
        " Hint: did you mean TYR (Tyrolia)?"
    )

    ack = started.ack(address("Germany"), signon("Germany"), "F Kie - Den", "A Ber - Kie", "A Mun - Ruh")
    assert ack.section("Orders (lines 2-4)")[-2:] == [
        "Every unit has an order.", "Stored for S1901M: 3 order(s); they replace any earlier orders of this phase.",
    ]


def test_a_second_order_mail_replaces_the_first_set_entirely(started: Table) -> None:
    started.orders("Austria", "A Vie - Gal", "F Tri - Alb", "A Bud - Ser")
    ack = started.ack(address("Austria"), signon("Austria"), "A Vie - Tyr")
    assert ack.section("Orders (lines 2-2)") == [
        "line 2: A VIE - TYR",
        "Still without orders (the rules' default applies: hold, disband or waive): A BUD, F TRI",
        "Stored for S1901M: 1 order(s); they replace any earlier orders of this phase.",
    ]
    assert started.store.submissions("spiel1", "S1901M")["Austria"].orders == ("A VIE - TYR",)

    started.now = FIRST_DEADLINE
    report = started.poll().one("report", address("Austria")).text
    assert started.store.phases("spiel1")[0].orders == {"Austria": ["A VIE - TYR"]}
    assert orders_of(report, "Austria") == [
        "A VIE - TYR succeeds", "A BUD H succeeds (no order)", "F TRI H succeeds (no order)",
    ]


def test_order_blocks_around_a_command_form_one_set(started: Table) -> None:
    ack = started.ack(address("Austria"), signon("Austria"), "A Vie - Gal", "READY", "F Tri - Alb")
    assert [echo for echo, _ in ack.sections()] == ["SIGNON Austria spiel1 ****", "Orders (lines 2-2)", "READY",
                                                    "Orders (lines 4-4)"]
    assert ack.section("Orders (lines 4-4)") == [
        "line 4: F TRI - ALB",
        "Still without orders (the rules' default applies: hold, disband or waive): A BUD",
        "Stored for S1901M: 2 order(s); they replace any earlier orders of this phase.",
    ]
    entry = started.store.submissions("spiel1", "S1901M")["Austria"]
    assert (entry.orders, entry.ready) == (("A VIE - GAL", "F TRI - ALB"), True)


def test_orders_for_another_powers_unit_change_nothing_of_that_power(started: Table) -> None:
    started.orders("Germany", "A Mun - Ruh", "F Kie - Den")
    before = started.store.submissions("spiel1", "S1901M")["Germany"]

    ack = started.ack(address("Austria"), signon("Austria"), "A Mun - Bur", "F Kie H")
    assert ack.section("Orders (lines 2-3)") == [
        'line 2, column 1: ERROR in "A Mun - Bur": the unit in MUN belongs to Germany',
        'line 3, column 1: ERROR in "F Kie H": the unit in KIE belongs to Germany',
        "No line could be read: nothing is stored for S1901M.",
    ]
    after = started.store.submissions("spiel1", "S1901M")
    assert after["Germany"] == before and after["Germany"].orders == ("A MUN - RUH", "F KIE - DEN")
    assert "Austria" not in after
    assert "A MUN - RUH" not in ack.text and "KIE - DEN" not in ack.text


def test_orders_before_signing_on_are_refused(started: Table) -> None:
    ack = started.ack(address("Austria"), "A Vie - Gal", "F Tri - Alb", signon("Austria"))
    assert ack.sections() == [
        ("Orders (lines 1-2)", [SIGN_ON_FIRST]),
        ("SIGNON Austria spiel1 ****", ["Signed on as Austria in spiel1.",
                                        f"Phase S1901M, deadline {FIRST_DEADLINE_TEXT}."]),
    ]
    assert started.store.submissions("spiel1", "S1901M") == {}
    ack = started.ack(address("Austria"), "A Vie - Gal")
    assert ack.sections() == [("Orders (lines 1-1)", [SIGN_ON_FIRST])]
    assert started.store.submissions("spiel1", "S1901M") == {}


def test_orders_to_a_forming_game_are_refused(table: Table) -> None:
    table.create()
    table.send(address("Austria"), signon("Austria"))
    ack = table.ack(address("Austria"), signon("Austria"), "A Vie - Gal", "READY")
    assert ack.sections()[1:] == [
        ("Orders (lines 2-2)", ["The game spiel1 has not started yet; no orders can be given."]),
        ("READY", ["The game spiel1 has not started yet; no orders can be given."]),
    ]
    assert table.store.submissions("spiel1", "S1901M") == {}


def test_orders_in_a_phase_without_anything_to_order_are_refused_and_do_not_block(started: Table) -> None:
    to_retreat(started)
    started.sent()

    ack = started.ack(address("Austria"), signon("Austria"), "F Gre H", "READY")
    assert ack.section("Orders (lines 2-2)") == [
        "You have nothing to order in phase F1901R; the lines were not stored."
    ]
    assert not started.store.submissions("spiel1", "F1901R")["Austria"].has_orders
    # Nobody but Russia has to act: its READY alone ends the phase.
    ack = started.ack(address("Russia"), signon("Russia"), "A Gal - War")
    assert ack.section("Orders (lines 2-2)")[0] == "line 2: A GAL - WAR"
    out = started.send(address("Russia"), signon("Russia"), "READY")
    assert started.phase() == "W1901A"
    assert out.recipients("report") == sorted([*(address(p) for p in POWERS), GM])
    report = out.one("report", GM).text
    assert "A GAL - WAR" in report and "No orders received" not in report
    assert started.store.phases("spiel1")[-1].trigger == "ready"


# --- 3. READY / WAIT ----------------------------------------------------------


def test_the_phase_is_resolved_early_only_when_every_acting_seat_is_ready(started: Table) -> None:
    for power in POWERS[:-1]:
        ack = started.ack(address(power), signon(power), "READY")
        assert ack.section("READY") == [READY]
    assert started.phase() == "S1901M"

    ack = started.ack(address("Russia"), signon("Russia"), "WARTEN")
    assert ack.section("WAIT") == [WAITING]
    started.ack(address("Turkey"), signon("Turkey"), "READY")
    assert started.phase() == "S1901M" and started.store.phases("spiel1") == []
    assert not started.store.submissions("spiel1", "S1901M")["Russia"].ready

    out = started.send(address("Russia"), signon("Russia"), "BEREIT")
    assert out.one("acknowledgement", address("Russia")).section("READY") == [READY]
    assert started.phase() == "F1901M"
    assert out.recipients("report") == sorted([*(address(p) for p in POWERS), GM])
    assert [(e.phase, e.trigger) for e in started.store.phases("spiel1")] == [("S1901M", "ready")]
    game = started.store.game("spiel1")
    assert game is not None and game.deadline == (START + MOVEMENT).isoformat()


def test_wait_in_the_same_mail_takes_ready_back(started: Table) -> None:
    for power in POWERS[:-1]:
        started.deliver(address(power), f"{signon(power)}\nREADY")
    started.deliver(address("Turkey"), f"{signon('Turkey')}\nREADY\nWAIT")
    out = started.poll()
    assert out.of("report") == [] and started.phase() == "S1901M"
    assert out.one("acknowledgement", address("Turkey")).sections()[1:] == [("READY", [READY]), ("WAIT", [WAITING])]


# --- 4. Deadlines -----------------------------------------------------------


def test_a_passed_deadline_is_processed_once_with_the_defaults(started: Table) -> None:
    started.orders("Austria", "A Vie - Gal", "F Tri - Alb")
    started.now = FIRST_DEADLINE - timedelta(seconds=1)
    assert started.poll() == [] and started.phase() == "S1901M"

    started.now = FIRST_DEADLINE
    assert started.judge.process_due() == 1
    out = started.sent()
    assert out.recipients("report") == sorted([*(address(p) for p in POWERS), GM]) and len(out) == 8
    report = out.one("report", address("Turkey"))
    assert report.subject == "spiel1: results of S1901M"
    assert report.machine("Phase") == ["S1901M"] and report.machine("Next-Phase") == ["F1901M"]
    assert report.machine("Deadline") == ["2026-12-07T11:00+01:00"]
    assert "No orders received (NMR): England, France, Germany, Italy, Russia, Turkey" in report.text
    assert orders_of(report.text, "Austria") == [
        "A VIE - GAL succeeds", "F TRI - ALB succeeds", "A BUD H succeeds (no order)",
    ]
    assert orders_of(report.text, "England") == [
        "F LON H succeeds (no order)", "F EDI H succeeds (no order)", "A LVP H succeeds (no order)",
    ]
    game = started.store.game("spiel1")
    assert game is not None and (game.phase, game.deadline) == ("F1901M", (FIRST_DEADLINE + MOVEMENT).isoformat())
    assert [(e.phase, e.trigger) for e in started.store.phases("spiel1")] == [("S1901M", "deadline")]

    # A second trigger for the same deadline (a restart, a scheduler job) does nothing.
    assert started.judge.process("spiel1", "S1901M", "deadline") == 0
    assert started.judge.process_due() == 0
    assert started.sent() == [] and len(started.store.phases("spiel1")) == 1 and started.phase() == "F1901M"


def test_a_deadline_missed_while_the_judge_was_down_counts_stored_mail(started: Table) -> None:
    started.now = FIRST_DEADLINE - timedelta(hours=1)
    started.deliver(address("Germany"), f"{signon('Germany')}\nA Mun - Ruh")
    assert started.judge.take_in() == 1  # stored, then the judge "goes down" before handling it
    assert started.store.submissions("spiel1", "S1901M") == {}

    started.now = FIRST_DEADLINE + timedelta(days=10)
    out = started.poll()
    assert out.recipients("acknowledgement") == [address("Germany")]
    assert out.recipients("report") == sorted([*(address(p) for p in POWERS), GM])
    assert started.store.phases("spiel1")[0].orders == {"Germany": ["A MUN - RUH"]}
    game = started.store.game("spiel1")
    assert game is not None and game.phase == "F1901M"
    assert game.deadline == (started.now + MOVEMENT).isoformat()
    assert started.poll() == []


def test_orders_in_the_mailbox_before_the_deadline_count_when_taken_in_after_it(started: Table) -> None:
    started.now = FIRST_DEADLINE - timedelta(minutes=1)
    started.deliver(address("Austria"), f"{signon('Austria')}\nA Vie - Tyr")
    started.now = FIRST_DEADLINE + timedelta(minutes=1)
    out = started.poll()
    ack = out.one("acknowledgement", address("Austria"))
    assert ack.section("Orders (lines 2-2)")[0] == "line 2: A VIE - TYR"
    assert ack.machine("Phase") == ["S1901M"]
    assert started.store.phases("spiel1")[0].orders == {"Austria": ["A VIE - TYR"]}
    report = out.one("report", address("Austria")).text
    assert "No orders received (NMR): England, France, Germany, Italy, Russia, Turkey" in report
    assert started.phase() == "F1901M"


def test_a_power_with_nothing_to_order_is_never_late(started: Table) -> None:
    to_retreat(started)
    started.sent()
    started.orders("Russia", "A Gal - Sil")
    game = started.store.game("spiel1")
    assert game is not None and game.deadline is not None
    started.now = datetime.fromisoformat(game.deadline)
    out = started.poll()
    report = out.one("report", address("Austria")).text
    assert "No orders received" not in report
    assert orders_of(report, "Russia") == ["A GAL - SIL succeeds"]
    assert started.phase() == "W1901A"
    assert [e.phase for e in started.store.phases("spiel1")] == ["S1901M", "F1901M", "F1901R"]


def test_a_retreat_without_orders_disbands_and_only_the_acting_power_is_late(started: Table) -> None:
    to_retreat(started)
    started.sent()
    game = started.store.game("spiel1")
    assert game is not None and game.deadline is not None
    started.now = datetime.fromisoformat(game.deadline)
    report = started.poll().one("report", GM).text
    assert "No orders received (NMR): Russia\n" in report
    assert orders_of(report, "Russia") == ["A GAL DISBAND succeeds (no retreat ordered) (no order)"]
    game = started.store.game("spiel1")
    assert game is not None and game.phase == "W1901A"
    assert game.state["units"]["Russia"] == ["A RUM", "F BLA", "F STP/SC"]


# --- 5. Votes -----------------------------------------------------------------


def test_a_draw_of_all_surviving_powers_ends_the_game(started: Table) -> None:
    for power in POWERS[:-1]:
        ack = started.ack(address(power), signon(power), "DRAW")
        assert ack.section("DRAW") == [VOTE_RECORDED]
    game = started.store.game("spiel1")
    assert game is not None and game.status == "active"

    out = started.send(address("Turkey"), signon("Turkey"), "REMIS")
    assert out.one("acknowledgement", address("Turkey")).section("DRAW") == [VOTE_RECORDED, GAME_ENDED]
    assert out.recipients("end") == sorted([*(address(p) for p in POWERS), GM]) and len(out) == 9
    end = out.one("end", GM)
    assert end.subject == "spiel1: game over" and f"The game is over: {ALL_DRAW}" in end.text
    game = started.store.game("spiel1")
    assert game is not None and (game.status, game.outcome, game.deadline) == ("finished", ALL_DRAW, None)

    started.now = FIRST_DEADLINE + timedelta(days=1)
    assert started.poll() == [] and started.store.phases("spiel1") == []
    ack = started.ack(address("Austria"), signon("Austria"), "A Vie - Gal")
    assert ack.sections() == [
        ("SIGNON Austria spiel1 ****", ["Signed on as Austria in spiel1.", f"The game spiel1 is over: {ALL_DRAW}"]),
        ("Orders (lines 2-2)", [f"The game spiel1 is over: {ALL_DRAW}"]),
    ]


def test_nodraw_withdraws_a_vote(started: Table) -> None:
    for power in POWERS[:-1]:
        started.orders(power, "DRAW")
    ack = started.ack(address("Austria"), signon("Austria"), "NO DRAW")
    assert ack.section("NODRAW") == ["Vote withdrawn."]
    started.ack(address("Turkey"), signon("Turkey"), "DRAW")
    assert started.store.game("spiel1").status == "active"  # type: ignore[union-attr]
    out = started.send(address("Austria"), signon("Austria"), "DRAW")
    assert out.recipients("end") == sorted([*(address(p) for p in POWERS), GM])
    assert started.store.game("spiel1").outcome == ALL_DRAW  # type: ignore[union-attr]


def test_draw_votes_count_for_their_phase_only(started: Table) -> None:
    for power in POWERS[:-1]:
        started.orders(power, "DRAW")
    started.now = FIRST_DEADLINE
    started.poll()
    assert started.phase() == "F1901M"

    ack = started.ack(address("Turkey"), signon("Turkey"), "DRAW")
    assert ack.section("DRAW") == [VOTE_RECORDED]
    assert started.store.game("spiel1").status == "active"  # type: ignore[union-attr]
    votes = started.store.submissions("spiel1", "F1901M")
    assert [p for p, v in votes.items() if v.draw_vote] == ["Turkey"]


def test_a_concession_of_all_others_ends_the_game_with_that_winner(started: Table) -> None:
    for power in ("England", "France", "Germany", "Italy"):
        ack = started.ack(address(power), signon(power), "CONCEDE Austria")
        assert ack.section("CONCEDE Austria") == [VOTE_RECORDED]
    ack = started.ack(address("Russia"), signon("Russia"), "CONCEDE Austria", "NOCONCEDE")
    assert ack.sections()[1:] == [("CONCEDE Austria", [VOTE_RECORDED]), ("NOCONCEDE", ["Vote withdrawn."])]
    ack = started.ack(address("Turkey"), signon("Turkey"), "KAPITULIEREN Österreich")
    assert ack.section("CONCEDE Österreich") == [VOTE_RECORDED]
    assert started.store.game("spiel1").status == "active"  # type: ignore[union-attr]

    out = started.send(address("Russia"), signon("Russia"), "CONCEDE austria")
    assert out.one("acknowledgement", address("Russia")).section("CONCEDE austria") == [VOTE_RECORDED, GAME_ENDED]
    winner = "All other powers conceded to Austria: Austria wins."
    assert out.recipients("end") == sorted([*(address(p) for p in POWERS), GM])
    assert f"The game is over: {winner}" in out.one("end", address("Austria")).text
    game = started.store.game("spiel1")
    assert game is not None and (game.status, game.outcome) == ("finished", winner)


def test_conceding_to_oneself_or_an_unknown_power_is_refused(started: Table) -> None:
    ack = started.ack(address("Austria"), signon("Austria"), "CONCEDE Austria", "CONCEDE Narnia", "CONCEDE Österreich")
    assert ack.sections()[1:] == [
        ("CONCEDE Austria", ['No other power called "Austria" in this game.']),
        ("CONCEDE Narnia", ['No other power called "Narnia" in this game.']),
        ("CONCEDE Österreich", ['No other power called "Österreich" in this game.']),
    ]
    assert started.store.submissions("spiel1", "S1901M") == {}


# --- 6. RESIGN ----------------------------------------------------------------


def test_a_resigned_power_cannot_sign_on_never_blocks_and_gets_no_reports(started: Table) -> None:
    ack = started.ack(address("England"), signon("England"), "RESIGN", "F Lon - Nth")
    assert ack.sections()[1:] == [
        ("RESIGN", ["You resigned from spiel1. Your power is now in civil disorder."]),
        ("Orders (lines 3-3)", [SIGN_ON_FIRST]),
    ]
    assert ack.machine("Game") == []
    seat = next(p for p in started.store.players("spiel1") if p.power == "England")
    assert seat.status == "resigned"

    ack = started.ack(address("England"), signon("England"), "F Lon - Nth", "READY")
    assert ack.sections() == [
        ("SIGNON ****", [SIGNON_FAILED]),
        ("Orders (lines 2-2)", [SIGN_ON_FIRST]),
        ("READY", [SIGN_ON_FIRST]),
    ]
    assert "England" not in started.store.submissions("spiel1", "S1901M")

    out = everyone_ready_but(started, "England")
    assert started.phase() == "F1901M"
    assert out.recipients("report") == sorted([*(address(p) for p in POWERS if p != "England"), GM])
    report = out.one("report", GM).text
    # READY without orders holds on purpose (ruling S11): no NMR; the resigned England is nobody's to order.
    assert "No orders received (NMR)" not in report
    assert orders_of(report, "England") == [
        "F LON H succeeds (no order)", "F EDI H succeeds (no order)", "A LVP H succeeds (no order)",
    ]

    # The resigned power does not count for a draw either.
    for power in POWERS:
        if power != "England":
            started.deliver(address(power), f"{signon(power)}\nDRAW")
    out = started.poll()
    outcome = "Draw between Austria, France, Germany, Italy, Russia, Turkey, agreed by all."
    assert started.store.game("spiel1").outcome == outcome  # type: ignore[union-attr]
    assert address("England") not in out.recipients("end")


def test_when_the_last_holdout_resigns_the_draw_of_the_others_ends_the_game(started: Table) -> None:
    for power in POWERS[:-1]:
        started.orders(power, "DRAW")
    out = started.send(address("Turkey"), signon("Turkey"), "RESIGN")
    assert out.one("acknowledgement", address("Turkey")).section("RESIGN") == [
        "You resigned from spiel1. Your power is now in civil disorder.", GAME_ENDED,
    ]
    outcome = "Draw between Austria, England, France, Germany, Italy, Russia, agreed by all."
    assert out.recipients("end") == sorted([*(address(p) for p in POWERS[:-1]), GM])
    game = started.store.game("spiel1")
    assert game is not None and (game.status, game.outcome) == ("finished", outcome)


# --- 7. PASSWORD --------------------------------------------------------------


def test_a_changed_password_replaces_the_old_one(started: Table) -> None:
    ack = started.ack(address("Austria"), signon("Austria"), "PASSWORD neu-geheim")
    assert ack.section("PASSWORD ****") == ["Password changed."]
    assert "neu-geheim" not in ack.text and password("Austria") not in ack.text

    ack = started.ack(address("Austria"), signon("Austria"), "A Vie - Gal")
    assert ack.sections() == [("SIGNON ****", [SIGNON_FAILED]),
                              ("Orders (lines 2-2)", [SIGN_ON_FIRST])]
    ack = started.ack(address("Austria"), "SIGNON Austria spiel1 neu-geheim", "A Vie - Gal")
    assert ack.section("SIGNON Austria spiel1 ****")[0] == "Signed on as Austria in spiel1."
    assert started.store.submissions("spiel1", "S1901M")["Austria"].orders == ("A VIE - GAL",)


# --- 8. LIST, HISTORY, HELP ---------------------------------------------------


def test_list_shows_games_and_seats_but_no_addresses_or_orders(started: Table) -> None:
    started.create("spiel2", "30jk", language="de")
    started.orders("Austria", "A Vie - Gal")
    started.orders("England", "RESIGN")

    ack = started.ack("visitor@elsewhere.test", "LIST", "LIST spiel1", "LIST nogame")
    assert ack.section("LIST") == [
        f"spiel1 (standard): running, phase S1901M, 0 powers open, deadline {FIRST_DEADLINE_TEXT}",
        "spiel2 (30jk): forming, phase 1618M, 11 powers open, deadline -",
    ]
    assert ack.section("LIST spiel1") == [
        f"spiel1 (standard): running, phase S1901M, 0 powers open, deadline {FIRST_DEADLINE_TEXT}",
        "  Austria: taken, 3 supply centres/points",
        "  England: resigned (civil disorder), 3 supply centres/points",
        "  France: taken, 3 supply centres/points",
        "  Germany: taken, 3 supply centres/points",
        "  Italy: taken, 3 supply centres/points",
        "  Russia: taken, 4 supply centres/points",
        "  Turkey: taken, 3 supply centres/points",
    ]
    assert ack.section("LIST nogame") == ['No game called "nogame".']
    assert "@players.test" not in ack.text and "VIE - GAL" not in ack.text and "scrypt" not in ack.text


def test_history_lists_phases_and_shows_one_report(started: Table) -> None:
    ack = started.ack("visitor@elsewhere.test", "HISTORY spiel1")
    assert ack.section("HISTORY spiel1")[0] == "spiel1 has no processed phase yet."

    started.orders("Austria", "A Vie - Gal")
    started.now = FIRST_DEADLINE
    started.poll()
    stored = started.store.phases("spiel1")[0]

    ack = started.ack("visitor@elsewhere.test", "HISTORY spiel1", "HISTORY SPIEL1 s1901m", "HISTORY spiel1 F1905M",
                      "HISTORY nogame S1901M")
    assert ack.section("HISTORY spiel1") == [
        f"S1901M: processed {FIRST_DEADLINE_TEXT}",
        "2026-12-01T11:00+01:00 created: variant standard",
        "2026-12-01T11:00+01:00 started: phase S1901M",
    ]
    shown = ack.section("HISTORY SPIEL1 s1901m")
    assert [line.rstrip() for line in shown] == [line.rstrip() for line in stored.report_text.splitlines()]
    assert "A VIE - GAL" in "\n".join(shown)
    attached = [p.get_filename() for p in email.message_from_bytes(ack.raw, policy=email.policy.default).walk()
                if p.get_content_type() == "image/png"]
    assert attached == ["spiel1-S1901M.png"]  # the map the report text mentions comes along
    assert ack.section("HISTORY spiel1 F1905M") == ["spiel1 has no processed phase F1905M."]
    assert ack.section("HISTORY nogame S1901M") == ['No game called "nogame".']


def test_help_lists_every_command_in_both_languages(table: Table) -> None:
    ack = table.ack("visitor@elsewhere.test", "HELP", "hilfe")
    assert [echo for echo, _ in ack.sections()] == ["HELP", "HELP"]
    english = ack.sections()[0][1]
    assert ack.sections()[1][1] == english
    assert english[0] == "Commands (one per line, in upper or lower case, in English or German):"
    for spec in COMMANDS:
        assert spec.syntax("en") in english, spec.rule
        assert any(line.strip().endswith(f"in German: {', '.join(spec.german)})") for line in english), spec.rule

    table.create("spiel2", "30jk", language="de")
    ack = table.ack("nl@players.test", "ANMELDEN Vereinigte Niederlande spiel2 pw-geheim", "HILFE")
    german = ack.section("HELP")
    for spec in COMMANDS:
        assert spec.syntax("de") in german, spec.rule


# --- 9. Several commands in one mail -------------------------------------------


def test_several_commands_in_one_mail_are_answered_in_order(started: Table) -> None:
    out = started.send(address("Austria"), signon("Austria"), "A Vie - Gal", "F Tri - Alb", "READY", "LIST", "HELP",
                       "PASSWORD zweites-geheimnis", "SIGNOFF", "DRAW")
    ack = out.one("acknowledgement", address("Austria"))
    assert [echo for echo, _ in ack.sections()] == [
        "SIGNON Austria spiel1 ****", "Orders (lines 2-3)", "READY", "LIST", "HELP", "PASSWORD ****", "SIGNOFF",
    ]
    assert ack.section("Orders (lines 2-3)")[:2] == ["line 2: A VIE - GAL", "line 3: F TRI - ALB"]
    assert ack.section("READY") == [READY]
    assert ack.section("LIST")[0].startswith("spiel1 (standard): running, phase S1901M")
    assert ack.section("SIGNOFF") == ["Signed off; the rest of the mail is not read (lines: 1)."]
    assert password("Austria").encode() not in ack.raw and b"zweites-geheimnis" not in ack.raw
    assert (ack.machine("Game"), ack.machine("Power"), ack.machine("Phase"), ack.machine("Deadline")) == (
        ["spiel1"], ["Austria"], ["S1901M"], [FIRST_DEADLINE_MACHINE])
    entry = started.store.submissions("spiel1", "S1901M")["Austria"]
    assert (entry.orders, entry.ready, entry.draw_vote) == (("A VIE - GAL", "F TRI - ALB"), True, False)


# --- later additions ---------------------------------------------------------


def test_a_failed_sign_on_to_a_german_game_reads_like_any_other_failure(table: Table) -> None:
    table.create("spiel2", language="de")
    table.ack(address("Austria"), signon("Austria", "spiel2"))
    wrong = table.ack(address("England"), "SIGNON Austria spiel2 falsch")
    unknown = table.ack(address("England"), "SIGNON Austria gibtsnicht falsch")
    assert wrong.sections() == unknown.sections() == [("SIGNON ****", [SIGNON_FAILED])]
    assert wrong.machine("Game") == unknown.machine("Game") == []


def test_resigning_before_the_start_opens_the_seat_again(table: Table) -> None:
    table.create()
    table.ack(address("Austria"), signon("Austria"))
    ack = table.ack(address("Austria"), signon("Austria"), "RESIGN")
    assert ack.section("RESIGN") == ["You gave up your seat in spiel1; the game had not started, so the power is open again."]
    seat = next(p for p in table.store.players("spiel1") if p.power == "Austria")
    assert (seat.status, seat.address, seat.password_hash) == ("open", None, None)
    again = table.ack(address("Germany"), "SIGNON Austria spiel1 neu-geheim")
    assert again.section("SIGNON Austria spiel1 ****")[0] == "You now play Austria in spiel1. Keep your password: every mail needs it."


def test_a_mail_without_a_readable_order_keeps_the_earlier_set(started: Table) -> None:
    started.orders("Austria", "A Vie - Gal", "F Tri - Alb")
    ack = started.ack(address("Austria"), signon("Austria"), "A Wien nach Nirgendwo")
    assert ack.section("Orders (lines 2-2)")[-1] == "No line could be read: your earlier orders for S1901M stay as they were."
    assert started.store.submissions("spiel1", "S1901M")["Austria"].orders == ("A VIE - GAL", "F TRI - ALB")


def test_new_orders_leave_ready_standing(started: Table) -> None:
    """Ruling S2: READY is taken back by WAIT only, not by a new order set."""
    started.orders("Austria", "A Vie - Gal", "READY")
    started.orders("Austria", "A Vie - Tyr")
    entry = started.store.submissions("spiel1", "S1901M")["Austria"]
    assert (entry.orders, entry.ready) == (("A VIE - TYR",), True)
