"""The judge's database: one module, SQL that SQLite and PostgreSQL both accept.

Every raw incoming mail is stored here before anything interprets it, and
is kept once only: a mail is the same mail when it comes from the same
source (IMAP UIDVALIDITY+UID, Maildir file name), has the same Message-ID,
or has the same bytes (SHA-256).  Every outgoing mail waits in the outbox
until the SMTP server has accepted it.  The schema grows by numbered
migrations, applied in order at start-up; SQLite runs in WAL mode so that
the service and the operator commands can write at the same time.

Times are passed in by the caller as ISO-8601 strings: the store reads no
clock.
"""

from __future__ import annotations

import json
import os
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator

from adjudicator.records import Record
from adjudicator.service.backend import BackendError, connect, describe
from adjudicator.service.sealing import MailKey, SealError, default_key_path
from adjudicator.service.backend import Connection as Connection  # the one connection type of the service

# Each migration is a list of statements; never edit one that has shipped,
# add a new one.
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        """CREATE TABLE inbound (
            id TEXT PRIMARY KEY,
            seq INTEGER NOT NULL UNIQUE,
            source TEXT NOT NULL UNIQUE,
            message_id TEXT,
            received_at TEXT NOT NULL,
            raw BYTEA NOT NULL,
            state TEXT NOT NULL DEFAULT 'new',
            attempts INTEGER NOT NULL DEFAULT 0,
            note TEXT NOT NULL DEFAULT ''
        )""",
        "CREATE INDEX inbound_message_id ON inbound (message_id)",
        "CREATE INDEX inbound_state ON inbound (state, seq)",
        """CREATE TABLE outbox (
            id TEXT PRIMARY KEY,
            seq INTEGER NOT NULL UNIQUE,
            recipients TEXT NOT NULL,
            message BYTEA NOT NULL,
            queued_at TEXT NOT NULL,
            next_try TEXT NOT NULL,
            attempts INTEGER NOT NULL DEFAULT 0,
            sent_at TEXT,
            last_error TEXT NOT NULL DEFAULT ''
        )""",
        "CREATE INDEX outbox_pending ON outbox (sent_at, next_try)",
    ),
    (
        """CREATE TABLE games (
            name TEXT PRIMARY KEY,
            variant TEXT NOT NULL,
            options TEXT NOT NULL,
            language TEXT NOT NULL,
            time_zone TEXT NOT NULL,
            gm TEXT,
            status TEXT NOT NULL,
            phase TEXT NOT NULL,
            state TEXT NOT NULL,
            deadline TEXT,
            deadlines TEXT NOT NULL,
            outcome TEXT NOT NULL DEFAULT '',
            created_at TEXT NOT NULL
        )""",
        """CREATE TABLE players (
            game TEXT NOT NULL REFERENCES games (name),
            power TEXT NOT NULL,
            seat INTEGER NOT NULL,
            address TEXT,
            password_hash TEXT,
            status TEXT NOT NULL,
            joined_at TEXT,
            PRIMARY KEY (game, power)
        )""",
        """CREATE TABLE submissions (
            game TEXT NOT NULL REFERENCES games (name),
            phase TEXT NOT NULL,
            power TEXT NOT NULL,
            orders TEXT NOT NULL DEFAULT '[]',
            has_orders INTEGER NOT NULL DEFAULT 0,
            ready INTEGER NOT NULL DEFAULT 0,
            draw_vote INTEGER NOT NULL DEFAULT 0,
            concede_to TEXT,
            updated_at TEXT NOT NULL,
            PRIMARY KEY (game, phase, power)
        )""",
        """CREATE TABLE phases (
            game TEXT NOT NULL REFERENCES games (name),
            phase TEXT NOT NULL,
            seq INTEGER NOT NULL,
            state TEXT NOT NULL,
            orders TEXT NOT NULL,
            report TEXT NOT NULL,
            report_text TEXT NOT NULL,
            trigger TEXT NOT NULL,
            processed_at TEXT NOT NULL,
            PRIMARY KEY (game, phase)
        )""",
        """CREATE TABLE game_log (
            game TEXT NOT NULL,
            seq INTEGER NOT NULL,
            at TEXT NOT NULL,
            kind TEXT NOT NULL,
            detail TEXT NOT NULL,
            PRIMARY KEY (game, seq)
        )""",
    ),
    (
        "ALTER TABLE games ADD COLUMN settings TEXT NOT NULL DEFAULT '{}'",
        "ALTER TABLE players ADD COLUMN missed INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE players ADD COLUMN excused_used INTEGER NOT NULL DEFAULT 0",
        """CREATE TABLE audit (
            game TEXT NOT NULL,
            seq INTEGER NOT NULL,
            at TEXT NOT NULL,
            actor TEXT NOT NULL,
            command TEXT NOT NULL,
            detail TEXT NOT NULL,
            reported INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (game, seq)
        )""",
        """CREATE TABLE press (
            game TEXT NOT NULL,
            seq INTEGER NOT NULL,
            at TEXT NOT NULL,
            phase TEXT NOT NULL,
            sender TEXT NOT NULL,
            anonymous INTEGER NOT NULL,
            recipients TEXT NOT NULL,
            body TEXT NOT NULL,
            PRIMARY KEY (game, seq)
        )""",
        """CREATE TABLE reminders_sent (
            game TEXT NOT NULL,
            phase TEXT NOT NULL,
            kind TEXT NOT NULL,
            at TEXT NOT NULL,
            PRIMARY KEY (game, phase, kind)
        )""",
        """CREATE TABLE applicants (
            game TEXT NOT NULL,
            address TEXT NOT NULL,
            password_hash TEXT NOT NULL,
            at TEXT NOT NULL,
            PRIMARY KEY (game, address)
        )""",
        """CREATE TABLE absences (
            game TEXT NOT NULL,
            power TEXT NOT NULL,
            first_day TEXT NOT NULL,
            last_day TEXT NOT NULL,
            at TEXT NOT NULL,
            PRIMARY KEY (game, power, first_day)
        )""",
        """CREATE TABLE phase_archive (
            game TEXT NOT NULL,
            phase TEXT NOT NULL,
            archived_at TEXT NOT NULL,
            state TEXT NOT NULL,
            orders TEXT NOT NULL,
            report_text TEXT NOT NULL,
            processed_at TEXT NOT NULL,
            PRIMARY KEY (game, phase, archived_at)
        )""",
    ),
    (
        # issue 19: several judge instances on one database
        """CREATE TABLE instances (
            id TEXT PRIMARY KEY,
            host TEXT NOT NULL,
            pid INTEGER NOT NULL,
            started_at TEXT NOT NULL,
            seen_at TEXT NOT NULL,
            stopped_at TEXT
        )""",
        """CREATE TABLE leases (
            name TEXT PRIMARY KEY,
            holder TEXT NOT NULL,
            until TEXT NOT NULL,
            mark TEXT NOT NULL DEFAULT ''
        )""",
        "ALTER TABLE inbound ADD COLUMN sender TEXT NOT NULL DEFAULT ''",
        "ALTER TABLE inbound ADD COLUMN claimed_by TEXT",
        "ALTER TABLE inbound ADD COLUMN claimed_until TEXT",
        "CREATE INDEX inbound_sender ON inbound (sender, state)",
    ),
    (
        # turn-based games (issue 15): per seat its digest choice, the last
        # resolved phase it was told about, its queued orders (secret)
        """CREATE TABLE turn_seats (
            game TEXT NOT NULL,
            power TEXT NOT NULL,
            digest TEXT NOT NULL DEFAULT '',
            seen_seq INTEGER NOT NULL DEFAULT 0,
            digest_at TEXT,
            queue TEXT NOT NULL DEFAULT '{}',
            PRIMARY KEY (game, power)
        )""",
    ),
    (
        # issue 19 (and 12): an outbox row is claimed before it is handed to SMTP
        "ALTER TABLE outbox ADD COLUMN claimed_until TEXT",
        "ALTER TABLE outbox ADD COLUMN claimed_by TEXT",
    ),
    (
        # issue 12: authentication limits, answer budgets, claims, retention
        """CREATE TABLE auth_failures (
            key TEXT PRIMARY KEY,
            failures INTEGER NOT NULL,
            locked_until TEXT,
            last_at TEXT NOT NULL
        )""",
        """CREATE TABLE answers (
            address TEXT NOT NULL,
            at TEXT NOT NULL,
            success INTEGER NOT NULL,
            authenticated INTEGER NOT NULL
        )""",
        "CREATE INDEX answers_address ON answers (address, at)",
        """CREATE TABLE last_answers (
            address TEXT PRIMARY KEY,
            body TEXT NOT NULL,
            at TEXT NOT NULL
        )""",
        "ALTER TABLE inbound ADD COLUMN size INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE inbound ADD COLUMN handled_at TEXT",
        "ALTER TABLE outbox ADD COLUMN gave_up_at TEXT",
    ),
    (
        # issue 20: a game found by its case-folded name without scanning the
        # table (an expression index both backends use for LOWER(name) = ...),
        # the active games' deadlines read without reading every game
        "CREATE INDEX games_name_folded ON games (LOWER(name))",
        "CREATE INDEX games_deadline ON games (status, deadline)",
    ),
    (
        # S36: a mail is stored sealed until it is handled; ``raw`` then holds it masked
        "ALTER TABLE inbound ADD COLUMN sealed BYTEA",
    ),
    (
        # S40 (issue 20): a report to several players stores its body once;
        # an outbox row with ``body_id`` holds only its own head in ``message``
        """CREATE TABLE outbox_bodies (
            id TEXT PRIMARY KEY,
            body BYTEA NOT NULL
        )""",
        "ALTER TABLE outbox ADD COLUMN body_id TEXT",
        "CREATE INDEX outbox_body ON outbox (body_id)",
    ),
)

_set = object.__setattr__  # how a record sets its fields, once, in its __init__

INBOUND_STATES = ("new", "done", "ignored", "failed", "shunted")
"""``shunted``: handling failed or was cut off ``limits.mail_attempts`` times;
the mail is set aside for a person and never tried again."""

TRACE_HEADERS = frozenset({
    "received", "delivered-to", "x-delivered-to", "x-original-to", "return-path", "authentication-results",
    "arc-seal", "arc-message-signature", "arc-authentication-results", "x-received", "received-spf",
    "x-spam-status", "x-spam-score", "x-spam-flag", "x-spam-level", "x-spam-checker-version", "x-virus-scanned",
    "dkim-filter", "x-rspamd-queue-id", "x-rspamd-server", "x-rspamd-action",
})
"""Headers that each delivery adds or changes: a re-delivered mail differs
only in these, so its content identity leaves them out."""


class AlreadyHandled(RuntimeError):
    """Another process handled (or claimed) the mail first."""


class StoreError(RuntimeError):
    """The database cannot be used; the message says which file and why."""


class InboundMail(Record):
    """A stored incoming mail.

    ``size``: The mail's full size in bytes: more than ``len(raw)`` when only its first ``limits.stored_bytes``
    were kept.
    ``seal_error``: Why the sealed mail could not be opened (``raw`` is then empty): this judge lacks the mail key
    that sealed it (S36)."""

    __slots__ = ("id", "seq", "source", "message_id", "received_at", "raw", "state", "attempts", "note", "size",
                 "seal_error")
    id: str
    seq: int
    source: str
    message_id: str | None
    received_at: str
    raw: bytes
    state: str
    attempts: int
    note: str
    size: int
    seal_error: str

    def __init__(self, id: str, seq: int, source: str, message_id: str | None, received_at: str, raw: bytes, state: str,
                 attempts: int, note: str, size: int = 0, seal_error: str = "") -> None:
        _set(self, "id", id)
        _set(self, "seq", seq)
        _set(self, "source", source)
        _set(self, "message_id", message_id)
        _set(self, "received_at", received_at)
        _set(self, "raw", raw)
        _set(self, "state", state)
        _set(self, "attempts", attempts)
        _set(self, "note", note)
        _set(self, "size", size)
        _set(self, "seal_error", seal_error)


class OutboundMail(Record):
    """A mail waiting in (or sent from) the outbox.

    ``gave_up_at``: When the SMTP server refused the mail for good (a 5xx answer)."""

    __slots__ = ("id", "seq", "recipients", "message", "queued_at", "next_try", "attempts", "sent_at", "last_error",
                 "gave_up_at")
    id: str
    seq: int
    recipients: tuple[str, ...]
    message: bytes
    queued_at: str
    next_try: str
    attempts: int
    sent_at: str | None
    last_error: str
    gave_up_at: str | None

    def __init__(self, id: str, seq: int, recipients: tuple[str, ...], message: bytes, queued_at: str, next_try: str,
                 attempts: int, sent_at: str | None, last_error: str, gave_up_at: str | None = None) -> None:
        _set(self, "id", id)
        _set(self, "seq", seq)
        _set(self, "recipients", recipients)
        _set(self, "message", message)
        _set(self, "queued_at", queued_at)
        _set(self, "next_try", next_try)
        _set(self, "attempts", attempts)
        _set(self, "sent_at", sent_at)
        _set(self, "last_error", last_error)
        _set(self, "gave_up_at", gave_up_at)


class GameRecord(Record):
    """A game as stored: ``status`` is ``forming`` (seats open), ``active``,
    ``paused`` or ``finished``; ``settings`` holds what its GM set (GM
    password hash, press, grace, late policy, reminders, schedule, random
    assignment, pause data); ``state`` is the game module's state of ``phase``;
    ``deadline`` an ISO-8601 UTC time or None; ``deadlines`` maps phase
    kinds to durations in seconds; ``outcome`` says how a finished game ended."""

    __slots__ = ("name", "variant", "options", "language", "time_zone", "gm", "status", "phase", "state", "deadline",
                 "deadlines", "outcome", "created_at", "settings")
    name: str
    variant: str
    options: dict[str, Any]
    language: str
    time_zone: str
    gm: str | None
    status: str
    phase: str
    state: dict[str, Any]
    deadline: str | None
    deadlines: dict[str, int]
    outcome: str
    created_at: str
    settings: dict[str, Any]

    def __init__(self, name: str, variant: str, options: dict[str, Any], language: str, time_zone: str, gm: str | None,
                 status: str, phase: str, state: dict[str, Any], deadline: str | None, deadlines: dict[str, int],
                 outcome: str, created_at: str, settings: dict[str, Any] | None = None) -> None:
        _set(self, "name", name)
        _set(self, "variant", variant)
        _set(self, "options", options)
        _set(self, "language", language)
        _set(self, "time_zone", time_zone)
        _set(self, "gm", gm)
        _set(self, "status", status)
        _set(self, "phase", phase)
        _set(self, "state", state)
        _set(self, "deadline", deadline)
        _set(self, "deadlines", deadlines)
        _set(self, "outcome", outcome)
        _set(self, "created_at", created_at)
        _set(self, "settings", {} if settings is None else settings)


class PlayerRecord(Record):
    """A seat: ``status`` is ``open``, ``playing``, ``resigned`` or
    ``disorder`` (civil disorder after missed turns or an ejection); the
    password is kept only as a hash (adjudicator.service.auth); ``missed``
    counts turns without orders in a row, ``excused_used`` the grace
    periods the power has caused."""

    __slots__ = ("game", "power", "address", "password_hash", "status", "joined_at", "missed", "excused_used")
    game: str
    power: str
    address: str | None
    password_hash: str | None
    status: str
    joined_at: str | None
    missed: int
    excused_used: int

    def __init__(self, game: str, power: str, address: str | None, password_hash: str | None, status: str,
                 joined_at: str | None, missed: int = 0, excused_used: int = 0) -> None:
        _set(self, "game", game)
        _set(self, "power", power)
        _set(self, "address", address)
        _set(self, "password_hash", password_hash)
        _set(self, "status", status)
        _set(self, "joined_at", joined_at)
        _set(self, "missed", missed)
        _set(self, "excused_used", excused_used)


class Submission(Record):
    """What a power has sent for one phase: its accepted orders (canonical),
    whether it sent any, readiness and its secret votes."""

    __slots__ = ("game", "phase", "power", "orders", "has_orders", "ready", "draw_vote", "concede_to", "updated_at")
    game: str
    phase: str
    power: str
    orders: tuple[str, ...]
    has_orders: bool
    ready: bool
    draw_vote: bool
    concede_to: str | None
    updated_at: str

    def __init__(self, game: str, phase: str, power: str, orders: tuple[str, ...], has_orders: bool, ready: bool,
                 draw_vote: bool, concede_to: str | None, updated_at: str) -> None:
        _set(self, "game", game)
        _set(self, "phase", phase)
        _set(self, "power", power)
        _set(self, "orders", orders)
        _set(self, "has_orders", has_orders)
        _set(self, "ready", ready)
        _set(self, "draw_vote", draw_vote)
        _set(self, "concede_to", concede_to)
        _set(self, "updated_at", updated_at)


class PhaseRecord(Record):
    """A resolved phase: the state it was resolved from, the orders used,
    the report data and the rendered report text."""

    __slots__ = ("game", "phase", "state", "orders", "report", "report_text", "trigger", "processed_at", "seq")
    game: str
    phase: str
    state: dict[str, Any]
    orders: dict[str, list[str]]
    report: dict[str, Any]
    report_text: str
    trigger: str
    processed_at: str
    seq: int

    def __init__(self, game: str, phase: str, state: dict[str, Any], orders: dict[str, list[str]],
                 report: dict[str, Any], report_text: str, trigger: str, processed_at: str, seq: int = 0) -> None:
        _set(self, "game", game)
        _set(self, "phase", phase)
        _set(self, "state", state)
        _set(self, "orders", orders)
        _set(self, "report", report)
        _set(self, "report_text", report_text)
        _set(self, "trigger", trigger)
        _set(self, "processed_at", processed_at)
        _set(self, "seq", seq)


class TurnSeat(Record):
    """A seat's turn-game data: ``digest`` its choice (``""`` the game's
    default, ``round``, ``none`` = a mail after every action, ``hours:N``);
    ``seen_seq`` the last resolved phase (``PhaseRecord.seq``) it was told
    about; ``digest_at`` when its last digest went out; ``queue`` its
    secret standing and queued orders (``pass_round``: the round its
    standing PASS holds for; ``orders``: lines tried in order)."""

    __slots__ = ("game", "power", "digest", "seen_seq", "digest_at", "queue")
    game: str
    power: str
    digest: str
    seen_seq: int
    digest_at: str | None
    queue: dict[str, Any]

    def __init__(self, game: str, power: str, digest: str = "", seen_seq: int = 0, digest_at: str | None = None,
                 queue: dict[str, Any] | None = None) -> None:
        _set(self, "game", game)
        _set(self, "power", power)
        _set(self, "digest", digest)
        _set(self, "seen_seq", seen_seq)
        _set(self, "digest_at", digest_at)
        _set(self, "queue", {} if queue is None else queue)


class AuditEntry(Record):
    """One change a game master made: who (an address and role), when, the
    command as given and what it did; ``reported`` once a turn report
    listed it."""

    __slots__ = ("game", "seq", "at", "actor", "command", "detail", "reported")
    game: str
    seq: int
    at: str
    actor: str
    command: str
    detail: str
    reported: bool

    def __init__(self, game: str, seq: int, at: str, actor: str, command: str, detail: str, reported: bool) -> None:
        _set(self, "game", game)
        _set(self, "seq", seq)
        _set(self, "at", at)
        _set(self, "actor", actor)
        _set(self, "command", command)
        _set(self, "detail", detail)
        _set(self, "reported", reported)



def content_hash(raw: bytes) -> str:
    """The SHA-256 of a mail's bytes, in hex: its identity as content."""
    from adjudicator.digest import sha256  # without OpenSSL in a command that has not loaded it (issue 20)

    return str(sha256(raw).hexdigest())


def _head_fields(raw: bytes) -> tuple[str | None, str]:
    """(Message-ID, sender key) of a mail as stored: the Message-ID field
    stripped (None when absent or empty), and the From address lower-cased
    ('' when absent or unreadable), by which mails of one sender are
    handled in the order they arrived, whichever instance handles them.
    Both are read from the head of the mail's first 64 KiB: without the
    email package where ``envelope`` is sure of the package's answer (S49),
    else from one parse of that head by the package (S50; the whole mail
    was parsed twice for them), which reads the fields a parse of the whole
    mail reads."""
    from adjudicator.service.envelope import address_of, first_header  # only where a mail is stored

    head = raw[:65536]
    message_id: object = first_header(head, "Message-ID")
    sender: object = first_header(head, "From")
    if message_id is None or sender is None:
        from email.parser import BytesHeaderParser  # policy compat32, the default: without email.policy's weight

        try:
            parsed = BytesHeaderParser().parsebytes(head)
        except Exception:  # a mail too broken to read headers from still gets stored
            return None, ""
        message_id, sender = parsed.get("Message-ID"), parsed.get("From")
    text = str(message_id).strip() if message_id else ""
    try:
        if not sender:
            key = ""
        else:
            address = address_of(str(sender))
            if address is None:
                from email.utils import parseaddr

                address = parseaddr(str(sender))[1]
            key = address.strip().lower()[:320]
    except Exception:  # a broken From still gets stored
        key = ""
    return text or None, key


def game_lock(name: str) -> str:
    """The name of the lock that serialises work on game ``name``."""
    return f"game:{name.lower()}"


def mail_identity(raw: bytes) -> str:
    """A received mail's identity as content: the SHA-256 of its bytes
    without the trace headers (``TRACE_HEADERS``) that change when the same
    mail is delivered again.  Linear in the mail's size."""
    cut = min((i for i in (raw.find(b"\r\n\r\n"), raw.find(b"\n\n")) if i >= 0), default=-1)
    if cut < 0:
        return content_hash(raw)
    head, body = raw[:cut], raw[cut:]
    kept: list[bytes] = []
    skipping = False
    for line in head.splitlines(keepends=True):
        if line[:1] in (b" ", b"\t"):
            if not skipping:
                kept.append(line)
            continue
        name = line.split(b":", 1)[0].strip().lower().decode("latin-1")
        skipping = name in TRACE_HEADERS
        if not skipping:
            kept.append(line)
    return content_hash(b"".join(kept) + body)


class Rider:
    """Work done in the next write transaction of a store, just before it
    commits (``Store.ride_along``): written together with it or not at all.
    ``result`` is what ``action`` returned; ``committed`` is True once the
    transaction it rode in has committed.  Equal only to itself."""

    def __init__(self, action: Callable[[Connection], Any], result: Any = None, committed: bool = False) -> None:
        self.action = action
        self.result = result
        self.committed = committed

    def __repr__(self) -> str:
        return f"{type(self).__qualname__}(action={self.action!r}, result={self.result!r}, committed={self.committed!r})"


class Store:
    """The judge's database, migrated on opening: an SQLite file (a path)
    or a PostgreSQL database (a ``postgresql://`` URL)."""

    def __init__(self, target: Path | str, migrate: bool = True, mail_key: Path | None = None) -> None:
        self.target = target
        self.name = describe(target)
        self.mail_key = MailKey(mail_key or default_key_path(target))
        """Seals raw mail until it is handled (S36)."""
        try:
            self._db = connect(target)
        except BackendError as error:
            raise StoreError(str(error)) from error
        self.backend = self._db.backend
        self._in_transaction = False
        self._rows_read: dict[str, tuple[Any, ...]] | None = None
        """Inside a transaction that has written no game: each game's row
        as read, by the name asked for (``game``)."""
        self._riders: list[Rider] = []
        if migrate:
            self.migrate()

    @property
    def connection(self) -> Connection:
        """The store's one connection (reads inside ``transaction()`` see its writes)."""
        return self._db

    def close(self) -> None:
        """Close the connection."""
        self._db.close()

    @contextmanager
    def transaction(self) -> Iterator[Connection]:
        """One write transaction: committed on success, rolled back on error.
        Inside it, reading a game (``game``) first takes that game's lock, so
        work on one game is serialised across every process on the database."""
        self._db.begin()
        self._in_transaction = True
        self._rows_read = {}
        riding: list[Rider] = []
        try:
            yield self._db
            riding, self._riders = self._riders, []
            for rider in riding:
                rider.result = rider.action(self._db)
        except BaseException:
            self._in_transaction = False
            self._rows_read = None
            self._db.rollback()
            raise
        self._in_transaction = False
        self._rows_read = None
        self._db.commit()
        for rider in riding:
            rider.committed = True

    def ride_along(self, action: Callable[[Connection], Any]) -> Rider:
        """Have ``action`` run inside the next write transaction of this
        store that succeeds, just before it commits (it is then written
        with that transaction; one that fails takes it along in its
        rollback, and it is not tried again: see ``Rider.committed``).
        ``action`` must not raise."""
        rider = Rider(action)
        self._riders.append(rider)
        return rider

    def drop_rider(self, rider: Rider) -> None:
        """Forget ``rider`` if it has not ridden yet."""
        if rider in self._riders:
            self._riders.remove(rider)

    @contextmanager
    def snapshot(self) -> Iterator[Connection]:
        """A read-only view of one consistent state of the whole database
        (others may write meanwhile; they do not show)."""
        self._db.begin_snapshot()
        try:
            yield self._db
        finally:
            self._db.rollback()

    def migrate(self) -> int:
        """Apply the migrations the database lacks, in order, in one
        transaction; returns how many were applied.  A database from a
        newer judge is refused (``StoreError``)."""
        return self._migrate()

    def _migrate(self) -> int:
        with self.transaction() as db:
            db.lock("schema")
            db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            row = db.execute("SELECT MAX(version) FROM schema_version").fetchone()
            current = row[0] or 0
            if current > len(MIGRATIONS):
                raise StoreError(f"database {self.name} has schema {current}, newer than this judge ({len(MIGRATIONS)})")
            for version, statements in enumerate(MIGRATIONS[current:], start=current + 1):
                for statement in statements:
                    db.execute(statement)
                db.execute("INSERT INTO schema_version (version) VALUES (?)", (version,))
            return len(MIGRATIONS) - current

    @property
    def schema_version(self) -> int:
        """The schema version the database is at (0: never migrated)."""
        if not self._db.has_table("schema_version"):
            return 0
        return int(self._db.execute("SELECT COALESCE(MAX(version), 0) FROM schema_version").fetchone()[0])

    # --- incoming mail ---------------------------------------------------------

    def save_inbound(self, raw: bytes, source: str, received_at: str,
                     keep_bytes: int | None = None) -> tuple[InboundMail, bool]:
        """Store a raw mail before it is read; returns the stored mail and
        whether it is new.  A mail already stored (same source, same
        Message-ID or same content without trace headers) is returned as it
        was, not stored again.  ``received_at`` is when the mail reached the
        mailbox; with ``keep_bytes`` only that many bytes are kept (``size``
        records the whole).  The mail is kept sealed (``sealing``): the
        database never holds its bytes in clear before it is handled."""
        return self.save_inbound_many([(raw, source, received_at)], keep_bytes)[0]

    def save_inbound_many(self, mails: list[tuple[bytes, str, str]],
                          keep_bytes: int | None = None) -> list[tuple[InboundMail, bool]]:
        """``save_inbound`` of each (raw, source, received_at) in order, all
        in one transaction (one commit): all are stored or none."""
        with self.transaction() as db:
            db.lock("inbound")
            return [self._save_inbound(db, raw, source, received_at, keep_bytes) for raw, source, received_at in mails]

    def _save_inbound(self, db: Connection, raw: bytes, source: str, received_at: str,
                      keep_bytes: int | None) -> tuple[InboundMail, bool]:
        identity = mail_identity(raw)
        message_id, sender = _head_fields(raw)
        kept = raw if keep_bytes is None else raw[:keep_bytes]
        row = db.execute(
            "SELECT id FROM inbound WHERE source = ? OR id = ? OR (message_id IS NOT NULL AND message_id = ?)",
            (source, identity, message_id),
        ).fetchone()
        if row is not None:
            return self._inbound(db, row[0]), False
        seq = _next_seq(db, "inbound")
        db.execute(
            "INSERT INTO inbound (id, seq, source, message_id, received_at, raw, sealed, sender, size)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (identity, seq, source, message_id, received_at, b"", self.mail_key.seal(kept), sender,
             len(raw)),
        )
        return self._inbound(db, identity), True

    def inbound(self, mail_id: str) -> InboundMail:
        """A stored incoming mail by id (``KeyError`` when unknown); a mail
        not yet handled comes unsealed, as it arrived (with ``seal_error``
        and no bytes when this judge's mail key cannot open it)."""
        return self._inbound(self._db, mail_id)

    def _inbound(self, db: Connection, mail_id: str) -> InboundMail:
        row = db.execute(
            "SELECT id, seq, source, message_id, received_at, raw, state, attempts, note, size, sealed FROM inbound"
            " WHERE id = ?",
            (mail_id,),
        ).fetchone()
        if row is None:
            raise KeyError(mail_id)
        mail_id, seq, source, message_id, received_at, raw, state, attempts, note, size, sealed = row
        problem = ""
        try:
            kept = bytes(raw) if sealed is None else self.mail_key.unseal(bytes(sealed))
        except SealError as error:
            kept, problem = b"", str(error)
        return InboundMail(mail_id, seq, source, message_id, received_at, kept, state, attempts, note,
                           max(size, len(kept)), problem)

    def pending_inbound(self) -> list[InboundMail]:
        """Stored mails not yet handled, in order of arrival (then of storing)."""
        ids = [r[0] for r in self._db.execute(
            "SELECT id FROM inbound WHERE state = 'new' ORDER BY received_at, seq")]
        return [self.inbound(i) for i in ids]

    def finish_inbound(self, db: Connection, mail_id: str, state: str, note: str = "") -> None:
        """Mark a mail handled (inside the caller's transaction, together
        with everything its handling wrote)."""
        if state not in INBOUND_STATES or state == "new":
            raise ValueError(f"not a final state: {state!r}")
        changed = db.execute(
            "UPDATE inbound SET state = ?, note = ? WHERE id = ? AND state = 'new'", (state, note, mail_id)
        ).rowcount
        if changed != 1:
            raise AlreadyHandled(mail_id)

    def replace_inbound_raw(self, db: Connection, mail_id: str, raw: bytes, handled_at: str) -> None:
        """Keep ``raw`` (the mail with its passwords masked) instead of the
        mail as it came, and note when it was handled (retention counts
        from then); the sealed mail is dropped."""
        db.execute("UPDATE inbound SET raw = ?, sealed = NULL, handled_at = ? WHERE id = ?", (raw, handled_at, mail_id))

    # --- outgoing mail -----------------------------------------------------------

    def queue_mail(self, db: Connection, recipients: tuple[str, ...], message: bytes, now: str) -> str:
        """Put a mail into the outbox (inside the caller's transaction);
        returns its id.  The same message bytes are queued once only."""
        return self._queue_row(db, content_hash(message), recipients, message, now, None)

    @staticmethod
    def _queue_row(db: Connection, identity: str, recipients: tuple[str, ...], stored: bytes, now: str,
                   body_id: str | None) -> str:
        """The outbox row ``identity`` holding ``stored`` (the whole mail, or
        its head when ``body_id`` names its body), unless it is there already."""
        if db.execute("SELECT 1 FROM outbox WHERE id = ?", (identity,)).fetchone():
            return identity
        seq = _next_seq(db, "outbox")
        db.execute(
            "INSERT INTO outbox (id, seq, recipients, message, queued_at, next_try, body_id)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (identity, seq, "\n".join(recipients), stored, now, now, body_id),
        )
        return identity

    def queue_shared(self, db: Connection, mails: list[tuple[tuple[str, ...], bytes]], body: bytes,
                     now: str) -> list[str]:
        """Put several mails with the same body into the outbox (inside the
        caller's transaction), each given as its recipients and its head (up
        to and with the blank line that ends it); returns their ids, in
        order.  Each mail is ``head + body`` (what ``outbound`` gives and
        its id is the hash of, as ``queue_mail`` would store it), but the
        body is stored once, however many mails share it (S40)."""
        body_id = content_hash(body)
        db.execute("INSERT INTO outbox_bodies (id, body) VALUES (?, ?) ON CONFLICT (id) DO NOTHING", (body_id, body))
        return [self._queue_row(db, content_hash(head + body), recipients, head, now, body_id)
                for recipients, head in mails]

    def queued_after(self, db: Connection, seq: int) -> list[tuple[bytes, tuple[str, ...]]]:
        """Each outbox mail after ``seq`` (in the caller's transaction), in
        order: its whole message and its recipients."""
        rows = db.execute("SELECT o.message, b.body, o.recipients FROM outbox o"
                          " LEFT JOIN outbox_bodies b ON b.id = o.body_id WHERE o.seq > ? ORDER BY o.seq",
                          (seq,)).fetchall()
        return [(bytes(head) + bytes(body or b""), tuple(str(to).split("\n"))) for head, body, to in rows]

    def due_mail(self, now: str) -> list[OutboundMail]:
        """Unsent mails whose next try is due and that no live claim holds, oldest first."""
        rows = self._db.execute(
            "SELECT id FROM outbox WHERE sent_at IS NULL AND gave_up_at IS NULL AND next_try <= ?"
            " AND (claimed_until IS NULL OR claimed_until <= ?) ORDER BY seq", (now, now)
        ).fetchall()
        return [self.outbound(r[0]) for r in rows]

    def due_mail_heads(self, now: str, after_seq: int = 0, limit: int = 100) -> list[tuple[str, int, int]]:
        """(id, seq, attempts) of at most ``limit`` mails ``due_mail`` would
        list, those after ``after_seq`` only, oldest first; no message is
        read (the sender reads one mail at a time: memory stays bounded
        however much is due)."""
        rows = self._db.execute(
            "SELECT id, seq, attempts FROM outbox WHERE sent_at IS NULL AND gave_up_at IS NULL AND next_try <= ?"
            " AND (claimed_until IS NULL OR claimed_until <= ?) AND seq > ? ORDER BY seq LIMIT ?",
            (now, now, after_seq, limit)).fetchall()
        return [(str(i), int(seq), int(attempts)) for i, seq, attempts in rows]

    def unsent_mail(self) -> list[OutboundMail]:
        """Every mail not yet accepted by the SMTP server, oldest first."""
        rows = self._db.execute("SELECT id FROM outbox WHERE sent_at IS NULL AND gave_up_at IS NULL ORDER BY seq"
                                ).fetchall()
        return [self.outbound(r[0]) for r in rows]

    def refused_mail(self) -> list[OutboundMail]:
        """Every mail the SMTP server refused for good, oldest first."""
        rows = self._db.execute("SELECT id FROM outbox WHERE gave_up_at IS NOT NULL ORDER BY seq").fetchall()
        return [self.outbound(r[0]) for r in rows]

    def outbound(self, mail_id: str) -> OutboundMail:
        """An outbox mail by id (``KeyError`` when unknown)."""
        return self.outbound_parts(mail_id)[0]

    def outbound_parts(self, mail_id: str) -> tuple[OutboundMail, int, str | None]:
        """``outbound(mail_id)`` with the length of its own head and the id
        (the SHA-256) of the body it shares with other mails (S40; None and
        the whole length for a mail stored whole)."""
        row = self._db.execute(
            "SELECT o.id, o.seq, o.recipients, o.message, o.queued_at, o.next_try, o.attempts, o.sent_at,"
            " o.last_error, o.gave_up_at, b.body, b.id FROM outbox o LEFT JOIN outbox_bodies b ON b.id = o.body_id"
            " WHERE o.id = ?",
            (mail_id,),
        ).fetchone()
        if row is None:
            raise KeyError(mail_id)
        mail_id, seq, recipients, message, queued_at, next_try, attempts, sent_at, last_error, gave_up, body, \
            body_id = row
        head = bytes(message)
        mail = OutboundMail(mail_id, seq, tuple(recipients.split("\n")), head + bytes(body or b""), queued_at,
                            next_try, attempts, sent_at, last_error, gave_up)
        return mail, len(head), None if body_id is None else str(body_id)

    def claim_outbound(self, mail_id: str, now: str, until: str, holder: str = "") -> bool:
        """Claim an unsent mail for sending until ``until``: a conditional
        update, True only for the one process whose update changed the row
        (a live claim of another, or the mail already sent, makes it False)."""
        with self.transaction() as db:
            changed = db.execute(
                "UPDATE outbox SET claimed_until = ?, claimed_by = ? WHERE id = ? AND sent_at IS NULL"
                " AND gave_up_at IS NULL AND (claimed_until IS NULL OR claimed_until <= ?)",
                (until, holder, mail_id, now)).rowcount
        return changed == 1

    def claim_outbound_many(self, mail_ids: list[str], now: str, until: str, holder: str = "") -> list[str]:
        """``claim_outbound`` for several mails in one transaction; returns
        the ids claimed, in the order given."""
        claimed = []
        with self.transaction() as db:
            for mail_id in mail_ids:
                if db.execute(
                    "UPDATE outbox SET claimed_until = ?, claimed_by = ? WHERE id = ? AND sent_at IS NULL"
                    " AND gave_up_at IS NULL AND (claimed_until IS NULL OR claimed_until <= ?)",
                    (until, holder, mail_id, now)).rowcount == 1:
                    claimed.append(mail_id)
        return claimed

    def release_outbound(self, mail_ids: list[str], holder: str) -> None:
        """End ``holder``'s claims of these unsent mails (they may be claimed again at once)."""
        with self.transaction() as db:
            db.executemany("UPDATE outbox SET claimed_until = NULL WHERE id = ? AND claimed_by = ? AND sent_at IS NULL",
                           [(mail_id, holder) for mail_id in mail_ids])

    def mark_sent(self, mail_id: str, now: str) -> None:
        """The SMTP server accepted the mail (its claim ends)."""
        self.mark_sent_many([mail_id], now)

    def mark_sent_many(self, mail_ids: list[str], now: str) -> None:
        """The SMTP server accepted each of these mails: one commit for all."""
        with self.transaction() as db:
            db.executemany("UPDATE outbox SET sent_at = ?, attempts = attempts + 1, claimed_until = NULL WHERE id = ?",
                           [(now, mail_id) for mail_id in mail_ids])

    def mark_failed(self, mail_id: str, next_try: str, error: str) -> None:
        """Sending failed; try again at ``next_try`` (its claim ends)."""
        with self.transaction() as db:
            db.execute(
                "UPDATE outbox SET attempts = attempts + 1, next_try = ?, last_error = ?, claimed_until = NULL"
                " WHERE id = ?",
                (next_try, error, mail_id),
            )

    def give_up(self, mail_id: str, now: str, error: str) -> None:
        """The SMTP server refused the mail for good (5xx): it is never
        tried again and stays listed by ``adjudicator outbox``."""
        with self.transaction() as db:
            db.execute("UPDATE outbox SET attempts = attempts + 1, gave_up_at = ?, last_error = ?,"
                       " claimed_until = NULL WHERE id = ?", (now, error, mail_id))

    def make_waiting_due(self, now: str) -> int:
        """Every unsent mail waiting for a later try is due now (after the
        SMTP server came back); returns how many."""
        with self.transaction() as db:
            return int(db.execute("UPDATE outbox SET next_try = ? WHERE sent_at IS NULL AND gave_up_at IS NULL"
                                  " AND next_try > ?", (now, now)).rowcount)

    # --- games -----------------------------------------------------------------
    # Reads use the store's one connection, so inside ``transaction()`` they
    # see what the transaction wrote; writes take the transaction's ``db``.

    def create_game(self, db: Connection, game: GameRecord, powers: tuple[str, ...]) -> None:
        """Insert a new game and an open seat for each power."""
        self._rows_read = None  # a savepoint may take any game write back: read games anew from here
        db.execute(
            "INSERT INTO games (name, variant, options, language, time_zone, gm, status, phase, state, deadline,"
            " deadlines, outcome, created_at, settings) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                game.name, game.variant, _dump(game.options), game.language, game.time_zone, game.gm, game.status,
                game.phase, _dump(game.state), game.deadline, _dump(game.deadlines), game.outcome, game.created_at,
                _dump(game.settings),
            ),
        )
        for seat, power in enumerate(powers):
            db.execute(
                "INSERT INTO players (game, power, seat, status) VALUES (?, ?, ?, 'open')", (game.name, power, seat)
            )

    def game(self, name: str) -> GameRecord | None:
        """The game called ``name`` (names compare case-insensitively), or
        None; inside a transaction the game's lock is taken first, so what
        is read stays true until the transaction ends: a transaction that
        has not written any game reads each game's row once (issue 20: a
        mail's handling asks for its game some eight times; each call
        still gets a record of its own)."""
        rows = self._rows_read
        row = rows.get(name) if rows is not None else None
        if row is None:
            if self._in_transaction:
                self._db.lock(game_lock(name))
            row = self._db.execute(f"SELECT {_GAME_COLUMNS} FROM games WHERE LOWER(name) = LOWER(?)",
                                   (name,)).fetchone()
            if row is None:
                return None
            if rows is not None:
                rows[name] = row
        return _game(row)

    def games(self) -> list[GameRecord]:
        """Every game, by name."""
        return [_game(row) for row in self._db.execute(f"SELECT {_GAME_COLUMNS} FROM games ORDER BY name")]

    def games_where(self, status: str, *, deadline: bool = False, settings_keys: tuple[str, ...] = (),
                    hourly_digests: bool = False) -> list[GameRecord]:
        """The games of ``status``, by name, narrowed without reading any
        state (issue 20: a poll reads only the games a notice may be due
        for): with ``deadline`` only those with a deadline; with
        ``settings_keys`` or ``hourly_digests`` only those whose settings
        name one of the keys or that have a seat on an ``hours:`` digest
        (a superset: the caller checks each game it gets)."""
        where, values = ["status = ?"], [status]
        if deadline:
            where.append("deadline IS NOT NULL")
        either = ["settings LIKE ?" for _ in settings_keys]
        values += [f'%"{key}%' for key in settings_keys]
        if hourly_digests:
            either.append("EXISTS (SELECT 1 FROM turn_seats AS t WHERE t.game = games.name AND t.digest LIKE ?)")
            values.append("hours:%")
        if either:
            where.append("(" + " OR ".join(either) + ")")
        rows = self._db.execute(f"SELECT {_GAME_COLUMNS} FROM games WHERE {' AND '.join(where)} ORDER BY name",
                                tuple(values))
        return [_game(row) for row in rows]

    def deadlines(self, not_after: str | None = None) -> list[tuple[str, str, str]]:
        """(name, phase, deadline) of every active game that has a deadline,
        by name; reads no game's state (cheap however many games there are).
        With ``not_after`` only those whose deadline, compared as text, is
        not after it (the caller compares the times exactly)."""
        bound, values = ("", ()) if not_after is None else (" AND deadline <= ?", (not_after,))
        rows = self._db.execute("SELECT name, phase, deadline FROM games WHERE status = 'active'"
                                f" AND deadline IS NOT NULL{bound} ORDER BY name", values)
        return [(str(name), str(phase), str(deadline)) for name, phase, deadline in rows]

    def active_variants(self) -> dict[str, str]:
        """One active game's name (the first by name) per variant played,
        without reading any game's state."""
        rows = self._db.execute("SELECT variant, MIN(name) FROM games WHERE status = 'active' GROUP BY variant"
                                " ORDER BY variant")
        return {str(variant): str(name) for variant, name in rows}

    def deadline_of(self, name: str) -> tuple[str, str, str, str | None] | None:
        """(name as stored, status, phase, deadline) of the game ``name``
        (compared case-insensitively, by index), None when there is none;
        reads no state and takes no lock."""
        row = self._db.execute("SELECT name, status, phase, deadline FROM games WHERE LOWER(name) = LOWER(?)",
                               (name,)).fetchone()
        return None if row is None else (str(row[0]), str(row[1]), str(row[2]), row[3])

    def update_game(self, db: Connection, game: GameRecord) -> None:
        """Write every field of a game but its name, variant and creation time."""
        self._rows_read = None  # a savepoint may take any game write back: read games anew from here
        db.execute(
            "UPDATE games SET status = ?, phase = ?, state = ?, deadline = ?, outcome = ?, options = ?, deadlines = ?,"
            " language = ?, time_zone = ?, gm = ?, settings = ? WHERE name = ?",
            (game.status, game.phase, _dump(game.state), game.deadline, game.outcome, _dump(game.options),
             _dump(game.deadlines), game.language, game.time_zone, game.gm, _dump(game.settings), game.name),
        )

    def players(self, game: str) -> list[PlayerRecord]:
        """The seats of a game, in the order the powers were created."""
        rows = self._db.execute(
            "SELECT game, power, address, password_hash, status, joined_at, missed, excused_used FROM players"
            " WHERE game = ? ORDER BY seat",
            (game,),
        )
        return [PlayerRecord(*row) for row in rows]

    def update_player(self, db: Connection, player: PlayerRecord) -> None:
        """Write a seat's address, password hash, status, joining time and lateness counters."""
        db.execute(
            "UPDATE players SET address = ?, password_hash = ?, status = ?, joined_at = ?, missed = ?, excused_used = ?"
            " WHERE game = ? AND power = ?",
            (player.address, player.password_hash, player.status, player.joined_at, player.missed,
             player.excused_used, player.game, player.power),
        )

    def submissions(self, game: str, phase: str) -> dict[str, Submission]:
        """Every power's submission for a phase (powers that sent nothing are absent)."""
        rows = self._db.execute(
            "SELECT game, phase, power, orders, has_orders, ready, draw_vote, concede_to, updated_at"
            " FROM submissions WHERE game = ? AND phase = ?",
            (game, phase),
        )
        result = {}
        for row in rows:
            game_name, phase_name, power, orders, has_orders, ready, draw_vote, concede_to, updated_at = row
            result[power] = Submission(
                game_name, phase_name, power, tuple(json.loads(orders)), bool(has_orders), bool(ready),
                bool(draw_vote), concede_to, updated_at,
            )
        return result

    def save_submission(self, db: Connection, entry: Submission) -> None:
        """Store a power's submission for a phase (a new one, or over the old one)."""
        db.execute(
            "INSERT INTO submissions (game, phase, power, orders, has_orders, ready, draw_vote, concede_to, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game, phase, power) DO UPDATE SET"
            " orders = excluded.orders, has_orders = excluded.has_orders, ready = excluded.ready,"
            " draw_vote = excluded.draw_vote, concede_to = excluded.concede_to, updated_at = excluded.updated_at",
            (entry.game, entry.phase, entry.power, _dump(list(entry.orders)), int(entry.has_orders), int(entry.ready),
             int(entry.draw_vote), entry.concede_to, entry.updated_at),
        )

    def add_phase(self, db: Connection, entry: PhaseRecord) -> bool:
        """Record a resolved phase; False (and nothing written) when that
        phase of that game was recorded before."""
        if db.execute("SELECT 1 FROM phases WHERE game = ? AND phase = ?", (entry.game, entry.phase)).fetchone():
            return False
        seq = _next_seq(db, "phases", entry.game)
        db.execute(
            "INSERT INTO phases (game, phase, seq, state, orders, report, report_text, trigger, processed_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (entry.game, entry.phase, seq, _dump(entry.state), _dump(entry.orders), _dump(entry.report),
             entry.report_text, entry.trigger, entry.processed_at),
        )
        return True

    def phases(self, game: str, after: int = 0) -> list[PhaseRecord]:
        """A game's resolved phases, oldest first; with ``after``, only those
        recorded after the one of that sequence number (a turn-based game
        asks for the few a seat has not seen, not its whole history)."""
        rows = self._db.execute(
            "SELECT game, phase, seq, state, orders, report, report_text, trigger, processed_at"
            " FROM phases WHERE game = ? AND seq > ? ORDER BY seq",
            (game, after),
        )
        return [
            PhaseRecord(g, p, json.loads(st), json.loads(o), json.loads(r), text, trig, at, seq)
            for g, p, seq, st, o, r, text, trig, at in rows
        ]

    def log(self, db: Connection, game: str, at: str, kind: str, detail: str) -> None:
        """Append a line to a game's log (sign-ons, resignations, votes' outcome)."""
        seq = _next_seq(db, "game_log", game)
        db.execute("INSERT INTO game_log (game, seq, at, kind, detail) VALUES (?, ?, ?, ?, ?)", (game, seq, at, kind, detail))

    def game_log(self, game: str) -> list[tuple[str, str, str]]:
        """A game's log as (time, kind, detail), oldest first."""
        rows = self._db.execute("SELECT at, kind, detail FROM game_log WHERE game = ? ORDER BY seq", (game,))
        return [(at, kind, detail) for at, kind, detail in rows]


    # --- game masters: audit trail, press, reminders, applicants, absences ---------

    def add_audit(self, db: Connection, game: str, at: str, actor: str, command: str, detail: str) -> None:
        """Record a game master's (or administrator's) change of a game."""
        seq = _next_seq(db, "audit", game)
        db.execute(
            "INSERT INTO audit (game, seq, at, actor, command, detail) VALUES (?, ?, ?, ?, ?, ?)",
            (game, seq, at, actor, command, detail),
        )

    def audit(self, game: str, unreported_only: bool = False) -> list[AuditEntry]:
        """A game's audit trail, oldest first (only the entries no turn
        report has listed yet, when asked)."""
        condition = " AND reported = 0" if unreported_only else ""
        rows = self._db.execute(
            f"SELECT game, seq, at, actor, command, detail, reported FROM audit WHERE game = ?{condition} ORDER BY seq",
            (game,),
        )
        return [AuditEntry(g, seq, at, actor, command, detail, bool(reported))
                for g, seq, at, actor, command, detail, reported in rows]

    def mark_audit_reported(self, db: Connection, game: str) -> None:
        """Every audit entry of ``game`` has been listed in a turn report."""
        db.execute("UPDATE audit SET reported = 1 WHERE game = ?", (game,))

    def add_press(self, db: Connection, game: str, at: str, phase: str, sender: str, anonymous: bool,
                  recipients: tuple[str, ...], body: str) -> None:
        """Keep a press message in the game's history."""
        seq = _next_seq(db, "press", game)
        db.execute(
            "INSERT INTO press (game, seq, at, phase, sender, anonymous, recipients, body) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (game, seq, at, phase, sender, int(anonymous), "\n".join(recipients), body),
        )

    def press(self, game: str) -> list[tuple[str, str, str, bool, tuple[str, ...], str]]:
        """A game's press as (time, phase, sender, anonymous, recipients, body), oldest first."""
        rows = self._db.execute(
            "SELECT at, phase, sender, anonymous, recipients, body FROM press WHERE game = ? ORDER BY seq", (game,)
        )
        return [(at, phase, sender, bool(anon), tuple(to.split("\n")), body) for at, phase, sender, anon, to, body in rows]

    def reminder_sent(self, game: str, phase: str, kind: str) -> bool:
        """True when the reminder ``kind`` went out for this phase."""
        return self._db.execute(
            "SELECT 1 FROM reminders_sent WHERE game = ? AND phase = ? AND kind = ?", (game, phase, kind)
        ).fetchone() is not None

    def mark_reminder(self, db: Connection, game: str, phase: str, kind: str, at: str) -> None:
        """Record that the reminder ``kind`` went out for this phase."""
        db.execute(
            "INSERT INTO reminders_sent (game, phase, kind, at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
            (game, phase, kind, at),
        )

    def add_applicant(self, db: Connection, game: str, address: str, password_hash: str, at: str) -> bool:
        """Put a player on the list for random power assignment; False when
        the address is on it already."""
        if db.execute("SELECT 1 FROM applicants WHERE game = ? AND address = ?", (game, address)).fetchone():
            return False
        db.execute("INSERT INTO applicants (game, address, password_hash, at) VALUES (?, ?, ?, ?)",
                   (game, address, password_hash, at))
        return True

    def applicants(self, game: str) -> list[tuple[str, str]]:
        """The players waiting for a random power, as (address, password hash), in order of arrival."""
        rows = self._db.execute("SELECT address, password_hash FROM applicants WHERE game = ? ORDER BY at, address",
                                (game,))
        return [(address, password_hash) for address, password_hash in rows]

    def clear_applicants(self, db: Connection, game: str) -> None:
        """Empty the list of players waiting for a random power."""
        db.execute("DELETE FROM applicants WHERE game = ?", (game,))

    def add_absence(self, db: Connection, game: str, power: str, first_day: str, last_day: str, at: str) -> None:
        """Record a player's announced absence (days as YYYY-MM-DD)."""
        db.execute(
            "INSERT INTO absences (game, power, first_day, last_day, at) VALUES (?, ?, ?, ?, ?)"
            " ON CONFLICT (game, power, first_day) DO UPDATE SET last_day = excluded.last_day, at = excluded.at",
            (game, power, first_day, last_day, at),
        )

    def absences(self, game: str) -> list[tuple[str, str, str]]:
        """Announced absences as (power, first day, last day)."""
        rows = self._db.execute("SELECT power, first_day, last_day FROM absences WHERE game = ? ORDER BY first_day",
                                (game,))
        return [(power, first, last) for power, first, last in rows]

    def roll_back_phases(self, db: Connection, game: str, phase: str, at: str) -> PhaseRecord | None:
        """Move the resolved phase ``phase`` and every later one of ``game``
        into the archive and clear their submissions; returns the record of
        ``phase`` (its ``state`` is the position to return to), or None when
        that phase was never resolved."""
        target = next((p for p in self.phases(game) if p.phase.upper() == phase.upper()), None)
        if target is None:
            return None
        for entry in self.phases(game):
            if entry.seq < target.seq:
                continue
            db.execute(
                "INSERT INTO phase_archive (game, phase, archived_at, state, orders, report_text, processed_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (game, entry.phase, at, _dump(entry.state), _dump(entry.orders), entry.report_text, entry.processed_at),
            )
            db.execute("DELETE FROM phases WHERE game = ? AND phase = ?", (game, entry.phase))
            if entry.phase != target.phase:
                db.execute("DELETE FROM submissions WHERE game = ? AND phase = ?", (game, entry.phase))
        return target

    def clear_ready(self, db: Connection, game: str, phase: str) -> None:
        """Take back every READY of a phase (its orders stay)."""
        db.execute("UPDATE submissions SET ready = 0 WHERE game = ? AND phase = ?", (game, phase))

    # --- several instances: claims, leases, the instances seen (issue 19) ---------

    def try_game_lock(self, db: Connection, name: str) -> bool:
        """Take game ``name``'s lock for the transaction ``db`` if no other
        process holds it (always True on SQLite, whose write transaction
        holds the whole file)."""
        return db.try_lock(game_lock(name))

    def claimable_inbound(self, now: str) -> list[str]:
        """Ids of the new mails no live claim holds and no older new mail of
        the same sender precedes, in order of arrival."""
        rows = self._db.execute(
            "SELECT id FROM inbound AS m WHERE state = 'new' AND (claimed_until IS NULL OR claimed_until <= ?)"
            " AND NOT EXISTS (SELECT 1 FROM inbound AS o WHERE o.state = 'new' AND m.sender != ''"
            " AND o.sender = m.sender AND (o.received_at < m.received_at"
            " OR (o.received_at = m.received_at AND o.seq < m.seq)))"
            " ORDER BY received_at, seq",
            (now,),
        )
        return [row[0] for row in rows]

    def claim_inbound_lease(self, mail_id: str, holder: str, now: str, until: str) -> int | None:
        """Claim a new mail for ``holder`` until ``until`` and count one more
        attempt, in a committed transaction of its own: a conditional update
        that succeeds for one process only (none while another's claim is
        live).  Returns the attempts so far, or None when not claimed."""
        with self.transaction() as db:
            return self.claim_inbound_in(db, mail_id, holder, now, until)

    def claim_inbound_in(self, db: Connection, mail_id: str, holder: str, now: str, until: str) -> int | None:
        """``claim_inbound_lease`` inside the caller's transaction ``db``
        (the claim holds once that transaction commits)."""
        changed = db.execute(
            "UPDATE inbound SET attempts = attempts + 1, claimed_by = ?, claimed_until = ?"
            " WHERE id = ? AND state = 'new' AND (claimed_until IS NULL OR claimed_until <= ? OR claimed_by = ?)",
            (holder, until, mail_id, now, holder),
        ).rowcount
        if changed != 1:
            return None
        return int(db.execute("SELECT attempts FROM inbound WHERE id = ?", (mail_id,)).fetchone()[0])

    def release_inbound(self, mail_id: str, holder: str) -> None:
        """Give up ``holder``'s claim of a mail (it may be claimed again at once)."""
        with self.transaction() as db:
            db.execute("UPDATE inbound SET claimed_until = NULL WHERE id = ? AND claimed_by = ?", (mail_id, holder))

    def oldest_pending_arrival(self) -> str | None:
        """When the oldest mail not yet handled arrived (None: none waits)."""
        row = self._db.execute("SELECT MIN(received_at) FROM inbound WHERE state = 'new'").fetchone()
        return None if row is None or row[0] is None else str(row[0])

    def take_lease(self, name: str, holder: str, now: str, until: str) -> bool:
        """Hold the lease ``name`` until ``until``: True when it was free
        (never taken, expired at ``now``, or already ``holder``'s)."""
        with self.transaction() as db:
            changed = db.execute(
                "INSERT INTO leases (name, holder, until) VALUES (?, ?, ?) ON CONFLICT (name) DO UPDATE SET"
                " holder = excluded.holder, until = excluded.until"
                " WHERE leases.holder = excluded.holder OR leases.until <= ?",
                (name, holder, until, now),
            ).rowcount
        return changed == 1

    def end_lease(self, name: str, holder: str, mark: str | None = None) -> None:
        """Give up ``holder``'s lease ``name``; ``mark`` (when given) is kept
        with it for others to read (the intake lease: when the last
        complete read of the mailbox began)."""
        with self.transaction() as db:
            if mark is None:
                db.execute("UPDATE leases SET until = '' WHERE name = ? AND holder = ?", (name, holder))
            else:
                db.execute("UPDATE leases SET until = '', mark = ? WHERE name = ? AND holder = ?",
                           (mark, name, holder))

    def lease(self, name: str) -> tuple[str, str, str] | None:
        """The lease ``name`` as (holder, until, mark), None when never taken."""
        row = self._db.execute("SELECT holder, until, mark FROM leases WHERE name = ?", (name,)).fetchone()
        return None if row is None else (str(row[0]), str(row[1]), str(row[2]))

    def leases(self) -> list[tuple[str, str, str, str]]:
        """Every lease as (name, holder, until, mark)."""
        rows = self._db.execute("SELECT name, holder, until, mark FROM leases ORDER BY name")
        return [(str(n), str(h), str(u), str(m)) for n, h, u, m in rows]

    def instance_seen(self, instance: str, host: str, pid: int, now: str) -> None:
        """Record that judge instance ``instance`` (on ``host``, process
        ``pid``) is running at ``now``."""
        with self.transaction() as db:
            db.execute(
                "INSERT INTO instances (id, host, pid, started_at, seen_at) VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT (id) DO UPDATE SET seen_at = excluded.seen_at, stopped_at = NULL",
                (instance, host, pid, now, now),
            )

    def instance_stopped(self, instance: str, now: str) -> None:
        """Judge instance ``instance`` stopped cleanly; its claims and leases end."""
        with self.transaction() as db:
            db.execute("UPDATE instances SET stopped_at = ?, seen_at = ? WHERE id = ?", (now, now, instance))
            db.execute("UPDATE inbound SET claimed_until = NULL WHERE claimed_by = ? AND state = 'new'", (instance,))
            db.execute("UPDATE outbox SET claimed_until = NULL WHERE claimed_by = ? AND sent_at IS NULL", (instance,))
            db.execute("UPDATE leases SET until = '' WHERE holder = ?", (instance,))

    def holders(self, now: str) -> set[str]:
        """The instances that hold a live claim of a mail or a live lease at ``now``."""
        rows = self._db.execute(
            "SELECT claimed_by FROM inbound WHERE state = 'new' AND claimed_until > ?"
            " UNION SELECT claimed_by FROM outbox WHERE sent_at IS NULL AND claimed_until > ?"
            " UNION SELECT holder FROM leases WHERE until > ?", (now, now, now))
        return {str(row[0]) for row in rows if row[0]}

    def instances(self) -> list[tuple[str, str, int, str, str, str | None]]:
        """Every instance seen, as (id, host, pid, started, last seen, stopped), most recently seen first."""
        rows = self._db.execute(
            "SELECT id, host, pid, started_at, seen_at, stopped_at FROM instances ORDER BY seen_at DESC, id")
        return [(str(i), str(h), int(p), str(st), str(se), so) for i, h, p, st, se, so in rows]

    def claimed_inbound(self, now: str) -> list[tuple[str, str, str]]:
        """Mails a live claim holds, as (id, holder, until)."""
        rows = self._db.execute(
            "SELECT id, claimed_by, claimed_until FROM inbound WHERE state = 'new' AND claimed_until > ? ORDER BY seq",
            (now,),
        )
        return [(str(i), str(h), str(u)) for i, h, u in rows]

    def claimed_outbound(self, now: str) -> list[tuple[str, str, str]]:
        """Outbox mails a live claim holds (being sent), as (id, holder, until)."""
        rows = self._db.execute(
            "SELECT id, claimed_by, claimed_until FROM outbox WHERE sent_at IS NULL AND claimed_until > ? ORDER BY seq",
            (now,),
        )
        return [(str(i), str(h or ""), str(u)) for i, h, u in rows]

    def inbound_counts(self) -> dict[str, int]:
        """How many stored mails are in each state."""
        rows = self._db.execute("SELECT state, COUNT(*) FROM inbound GROUP BY state")
        return {str(state): int(count) for state, count in rows}

    # --- turn-based games ----------------------------------------------------------

    def turn_seat(self, game: str, power: str) -> TurnSeat:
        """A seat's turn data (the defaults when nothing was stored)."""
        row = self._db.execute(
            "SELECT digest, seen_seq, digest_at, queue FROM turn_seats WHERE game = ? AND power = ?", (game, power)
        ).fetchone()
        if row is None:
            return TurnSeat(game, power)
        return TurnSeat(game, power, row[0], int(row[1]), row[2], json.loads(row[3]))

    def save_turn_seat(self, db: Connection, seat: TurnSeat) -> None:
        """Store a seat's turn data (over what was there)."""
        db.execute(
            "INSERT INTO turn_seats (game, power, digest, seen_seq, digest_at, queue) VALUES (?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (game, power) DO UPDATE SET digest = excluded.digest, seen_seq = excluded.seen_seq,"
            " digest_at = excluded.digest_at, queue = excluded.queue",
            (seat.game, seat.power, seat.digest, seat.seen_seq, seat.digest_at, _dump(seat.queue)),
        )

    def forget_reminders(self, db: Connection, game: str, phase: str) -> None:
        """Forget which reminders and "your turn" mails went out for a phase
        (it is open again after an UNDO or a rollback)."""
        db.execute("DELETE FROM reminders_sent WHERE game = ? AND phase = ?", (game, phase))

    def delete_submission(self, db: Connection, game: str, phase: str, power: str) -> None:
        """Forget a power's submission for a phase."""
        db.execute("DELETE FROM submissions WHERE game = ? AND phase = ? AND power = ?", (game, phase, power))

    # --- limits: failed sign-ons, answers, retention (issue 12) ------------------

    def auth_failures(self, key: str) -> tuple[int, str | None]:
        """Failed authentications counted for ``key`` and its lock-out end."""
        row = self._db.execute("SELECT failures, locked_until FROM auth_failures WHERE key = ?", (key,)).fetchone()
        return (0, None) if row is None else (int(row[0]), row[1])

    def save_auth_failures(self, db: Connection, key: str, failures: int, locked_until: str | None,
                           at: str) -> None:
        """Record the failure count and lock-out of ``key``."""
        db.execute(
            "INSERT INTO auth_failures (key, failures, locked_until, last_at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (key) DO UPDATE SET failures = excluded.failures, locked_until = excluded.locked_until,"
            " last_at = excluded.last_at", (key, failures, locked_until, at))

    def clear_auth_failures(self, db: Connection, key: str) -> None:
        """A successful authentication of ``key``: its count starts again."""
        db.execute("DELETE FROM auth_failures WHERE key = ?", (key,))

    def record_answer(self, db: Connection, address: str, at: str, success: bool, body: str,
                      authenticated: bool = False) -> None:
        """An answer went to ``address``; ``success`` when its mail carried
        out a command, ``authenticated`` when it signed on with a password;
        ``body`` is kept as the last answer to that address."""
        db.execute("INSERT INTO answers (address, at, success, authenticated) VALUES (?, ?, ?, ?)",
                   (address.lower(), at, int(success), int(authenticated)))
        db.execute("INSERT INTO last_answers (address, body, at) VALUES (?, ?, ?) ON CONFLICT (address) DO UPDATE"
                   " SET body = excluded.body, at = excluded.at", (address.lower(), body, at))

    def answers_since(self, address: str, since: str, idle_since: str | None = None) -> tuple[int, int]:
        """(answers to mails that signed on with no password sent to
        ``address`` from ``since`` on, answers without a successful command
        since the last one with, from ``idle_since`` on: ``since`` when not
        given)."""
        key = address.lower()
        total = int(self._db.execute("SELECT COUNT(*) FROM answers WHERE address = ? AND at >= ?"
                                     " AND authenticated = 0", (key, since)).fetchone()[0])
        last_ok = self._db.execute("SELECT MAX(at) FROM answers WHERE address = ? AND success = 1",
                                   (key,)).fetchone()[0]
        idle_since = since if idle_since is None else idle_since
        start = max(idle_since, last_ok) if last_ok else idle_since
        idle = int(self._db.execute("SELECT COUNT(*) FROM answers WHERE address = ? AND at >= ? AND success = 0",
                                    (key, start)).fetchone()[0])
        return total, idle

    def last_answer(self, address: str) -> str | None:
        """The text of the judge's last answer to ``address``."""
        row = self._db.execute("SELECT body FROM last_answers WHERE address = ?", (address.lower(),)).fetchone()
        return None if row is None else str(row[0])

    def purge(self, cutoff: str) -> tuple[int, int, int]:
        """Apply the retention: the raw bytes of every mail handled before
        ``cutoff`` are dropped (its row stays, so a copy is still known),
        sent outbox mails from before it are deleted, and answer counts
        older than it too.  Returns (mails emptied, outbox rows, answers)."""
        with self.transaction() as db:
            emptied = db.execute(
                "UPDATE inbound SET raw = ?, sealed = NULL WHERE state != 'new'"
                " AND (LENGTH(raw) > 0 OR sealed IS NOT NULL)"
                " AND COALESCE(handled_at, received_at) < ?", (b"", cutoff)).rowcount
            sent = db.execute("DELETE FROM outbox WHERE (sent_at IS NOT NULL AND sent_at < ?)"
                              " OR (gave_up_at IS NOT NULL AND gave_up_at < ?)", (cutoff, cutoff)).rowcount
            db.execute("DELETE FROM outbox_bodies WHERE NOT EXISTS"
                       " (SELECT 1 FROM outbox WHERE outbox.body_id = outbox_bodies.id)")
            answers = db.execute("DELETE FROM answers WHERE at < ?", (cutoff,)).rowcount
        return int(emptied), int(sent), int(answers)


_GAME_COLUMNS = (
    "name, variant, options, language, time_zone, gm, status, phase, state, deadline, deadlines, outcome, created_at,"
    " settings"
)


def _next_seq(db: Connection, table: str, game: str | None = None) -> int:
    """The next sequence number of ``table`` (of one game's rows when given),
    taken under the lock of that sequence so that concurrent transactions on
    PostgreSQL never take the same number; ``table`` is one of this module's
    own table names, never input."""
    if game is None:
        db.lock(f"seq:{table}")
        return int(db.execute(f"SELECT COALESCE(MAX(seq), 0) + 1 FROM {table}").fetchone()[0])
    db.lock(f"seq:{table}:{game}")
    return int(db.execute(f"SELECT COALESCE(MAX(seq), 0) + 1 FROM {table} WHERE game = ?", (game,)).fetchone()[0])


def _dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def _game(row: tuple[Any, ...]) -> GameRecord:
    name, variant, options, language, time_zone, gm, status, phase, state, deadline, deadlines, outcome, created, \
        settings = row
    return GameRecord(
        name, variant, json.loads(options), language, time_zone, gm, status, phase, json.loads(state), deadline,
        json.loads(deadlines), outcome, created, json.loads(settings),
    )
