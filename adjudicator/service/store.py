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

import hashlib
import sqlite3
from contextlib import contextmanager
from dataclasses import dataclass
from email import message_from_bytes, policy
from pathlib import Path
from typing import Iterator

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
)

INBOUND_STATES = ("new", "done", "ignored", "failed")


class StoreError(RuntimeError):
    """The database cannot be used; the message says which file and why."""


@dataclass(frozen=True, slots=True)
class InboundMail:
    """A stored incoming mail."""

    id: str
    seq: int
    source: str
    message_id: str | None
    received_at: str
    raw: bytes
    state: str
    attempts: int
    note: str


@dataclass(frozen=True, slots=True)
class OutboundMail:
    """A mail waiting in (or sent from) the outbox."""

    id: str
    seq: int
    recipients: tuple[str, ...]
    message: bytes
    queued_at: str
    next_try: str
    attempts: int
    sent_at: str | None
    last_error: str


def content_hash(raw: bytes) -> str:
    """The SHA-256 of a mail's bytes, in hex: its identity as content."""
    return hashlib.sha256(raw).hexdigest()


def _message_id(raw: bytes) -> str | None:
    try:
        value = message_from_bytes(raw, policy=policy.compat32).get("Message-ID")
    except Exception:  # a mail too broken to read headers from still gets stored
        return None
    text = str(value).strip() if value else ""
    return text or None


class Store:
    """The judge's SQLite database (one file), migrated on opening."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, timeout=30, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.execute("PRAGMA busy_timeout=30000")
        except (OSError, sqlite3.Error) as error:
            raise StoreError(f"database {self.path}: {error}") from error
        self._migrate()

    def close(self) -> None:
        """Close the connection."""
        self._db.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction: committed on success, rolled back on error."""
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield self._db
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    def _migrate(self) -> None:
        with self.transaction() as db:
            db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            row = db.execute("SELECT MAX(version) FROM schema_version").fetchone()
            current = row[0] or 0
            if current > len(MIGRATIONS):
                raise StoreError(f"database {self.path} has schema {current}, newer than this judge ({len(MIGRATIONS)})")
            for version, statements in enumerate(MIGRATIONS[current:], start=current + 1):
                for statement in statements:
                    db.execute(statement)
                db.execute("INSERT INTO schema_version (version) VALUES (?)", (version,))

    @property
    def schema_version(self) -> int:
        """The schema version the database is at."""
        return int(self._db.execute("SELECT MAX(version) FROM schema_version").fetchone()[0])

    # --- incoming mail ---------------------------------------------------------

    def save_inbound(self, raw: bytes, source: str, received_at: str) -> tuple[InboundMail, bool]:
        """Store a raw mail before it is read; returns the stored mail and
        whether it is new.  A mail already stored (same source, same
        Message-ID or same bytes) is returned as it was, not stored again."""
        identity = content_hash(raw)
        message_id = _message_id(raw)
        with self.transaction() as db:
            row = db.execute(
                "SELECT id FROM inbound WHERE source = ? OR id = ? OR (message_id IS NOT NULL AND message_id = ?)",
                (source, identity, message_id),
            ).fetchone()
            if row is not None:
                return self._inbound(db, row[0]), False
            seq = db.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM inbound").fetchone()[0]
            db.execute(
                "INSERT INTO inbound (id, seq, source, message_id, received_at, raw) VALUES (?, ?, ?, ?, ?, ?)",
                (identity, seq, source, message_id, received_at, raw),
            )
            return self._inbound(db, identity), True

    def inbound(self, mail_id: str) -> InboundMail:
        """A stored incoming mail by id (``KeyError`` when unknown)."""
        return self._inbound(self._db, mail_id)

    def _inbound(self, db: sqlite3.Connection, mail_id: str) -> InboundMail:
        row = db.execute(
            "SELECT id, seq, source, message_id, received_at, raw, state, attempts, note FROM inbound WHERE id = ?",
            (mail_id,),
        ).fetchone()
        if row is None:
            raise KeyError(mail_id)
        mail_id, seq, source, message_id, received_at, raw, state, attempts, note = row
        return InboundMail(mail_id, seq, source, message_id, received_at, bytes(raw), state, attempts, note)

    def pending_inbound(self) -> list[InboundMail]:
        """Stored mails not yet handled, oldest first."""
        ids = [r[0] for r in self._db.execute("SELECT id FROM inbound WHERE state = 'new' ORDER BY seq")]
        return [self.inbound(i) for i in ids]

    def finish_inbound(self, db: sqlite3.Connection, mail_id: str, state: str, note: str = "") -> None:
        """Mark a mail handled (inside the caller's transaction, together
        with everything its handling wrote)."""
        if state not in INBOUND_STATES or state == "new":
            raise ValueError(f"not a final state: {state!r}")
        db.execute(
            "UPDATE inbound SET state = ?, note = ?, attempts = attempts + 1 WHERE id = ?", (state, note, mail_id)
        )

    # --- outgoing mail -----------------------------------------------------------

    def queue_mail(self, db: sqlite3.Connection, recipients: tuple[str, ...], message: bytes, now: str) -> str:
        """Put a mail into the outbox (inside the caller's transaction);
        returns its id.  The same message bytes are queued once only."""
        identity = content_hash(message)
        if db.execute("SELECT 1 FROM outbox WHERE id = ?", (identity,)).fetchone():
            return identity
        seq = db.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM outbox").fetchone()[0]
        db.execute(
            "INSERT INTO outbox (id, seq, recipients, message, queued_at, next_try) VALUES (?, ?, ?, ?, ?, ?)",
            (identity, seq, "\n".join(recipients), message, now, now),
        )
        return identity

    def due_mail(self, now: str) -> list[OutboundMail]:
        """Unsent mails whose next try is due, oldest first."""
        rows = self._db.execute(
            "SELECT id FROM outbox WHERE sent_at IS NULL AND next_try <= ? ORDER BY seq", (now,)
        ).fetchall()
        return [self.outbound(r[0]) for r in rows]

    def unsent_mail(self) -> list[OutboundMail]:
        """Every mail not yet accepted by the SMTP server, oldest first."""
        rows = self._db.execute("SELECT id FROM outbox WHERE sent_at IS NULL ORDER BY seq").fetchall()
        return [self.outbound(r[0]) for r in rows]

    def outbound(self, mail_id: str) -> OutboundMail:
        """An outbox mail by id (``KeyError`` when unknown)."""
        row = self._db.execute(
            "SELECT id, seq, recipients, message, queued_at, next_try, attempts, sent_at, last_error"
            " FROM outbox WHERE id = ?",
            (mail_id,),
        ).fetchone()
        if row is None:
            raise KeyError(mail_id)
        mail_id, seq, recipients, message, queued_at, next_try, attempts, sent_at, last_error = row
        return OutboundMail(
            mail_id, seq, tuple(recipients.split("\n")), bytes(message), queued_at, next_try, attempts, sent_at, last_error
        )

    def mark_sent(self, mail_id: str, now: str) -> None:
        """The SMTP server accepted the mail."""
        with self.transaction() as db:
            db.execute("UPDATE outbox SET sent_at = ?, attempts = attempts + 1 WHERE id = ?", (now, mail_id))

    def mark_failed(self, mail_id: str, next_try: str, error: str) -> None:
        """Sending failed; try again at ``next_try``."""
        with self.transaction() as db:
            db.execute(
                "UPDATE outbox SET attempts = attempts + 1, next_try = ?, last_error = ? WHERE id = ?",
                (next_try, error, mail_id),
            )
