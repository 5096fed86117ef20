"""Taking mail in: every transport hands raw bytes to the store first and
only then marks the mail as taken on its side, so a crash in between
means the mail is fetched again and recognised as already stored.

Transports: a local Maildir (``MaildirIntake``), standard input
(``read_pipe``, for procmail and ``.forward``), and IMAP (later, behind the
same ``take_in`` step).
"""

from __future__ import annotations

import os
from datetime import datetime, timedelta, timezone
from pathlib import Path
from itertools import islice
from typing import Callable, Iterator, Protocol, runtime_checkable

from adjudicator.records import Record
from adjudicator.service.store import InboundMail, Store, content_hash


class Incoming(Record):
    """A mail as a transport found it: its bytes and where it came from.
    ``arrived`` is when the mail reached the mailbox (IMAP INTERNALDATE, the
    Maildir file's delivery time, the moment ``receive`` was called); None
    when the transport does not know.  A record (S45): no dataclass is made
    for ``adjudicator receive``."""

    __slots__ = ("raw", "source", "arrived")
    raw: bytes
    source: str
    arrived: datetime | None

    def __init__(self, raw: bytes, source: str, arrived: datetime | None = None) -> None:
        object.__setattr__(self, "raw", raw)
        object.__setattr__(self, "source", source)
        object.__setattr__(self, "arrived", arrived)


class Transport(Protocol):
    """Where mail comes from."""

    def waiting(self) -> Iterator[Incoming]:
        """The mails not yet taken in."""
        ...  # pragma: no cover

    def taken(self, incoming: Incoming) -> None:
        """Mark a mail as taken in (it is safely stored)."""
        ...  # pragma: no cover


@runtime_checkable
class MarksMany(Protocol):
    """A transport that marks several mails taken at once (one IMAP command)."""

    def taken_many(self, incoming: list[Incoming]) -> None:
        """Mark every mail of ``incoming`` as taken in (all are safely stored)."""
        ...  # pragma: no cover


BATCH = 50
"""Mails stored in one transaction and then marked taken together (the
IMAP transport fetches as many bodies at once)."""


def take_in(
    store: Store, transport: Transport, now: str, between: Callable[[], None] | None = None,
    keep_bytes: int | None = None, skew: int = 600, batch: int = BATCH,
) -> list[tuple[InboundMail, bool]]:
    """Store every waiting mail, then mark it taken; returns each stored mail
    and whether it was new (a mail seen before is marked taken again).
    Each mail is stored with its time of arrival (``arrival_time``) and at
    most ``keep_bytes`` of its bytes.  Up to ``batch`` mails are stored in
    one transaction (one commit, issue 20), then marked taken (together,
    when the transport can): a crash before the marking means they come
    again and are known.  ``between`` runs after each batch is stored
    and before it is marked (tests use it to crash exactly there)."""
    moment = datetime.fromisoformat(now)
    moment = moment if moment.tzinfo is not None else moment.replace(tzinfo=timezone.utc)
    stored: list[tuple[InboundMail, bool]] = []
    waiting = transport.waiting()
    while chunk := list(islice(waiting, max(1, batch))):
        stored.extend(store.save_inbound_many(
            [(i.raw, i.source, arrival_time(i, moment, skew).isoformat()) for i in chunk], keep_bytes=keep_bytes))
        if between is not None:
            between()
        if isinstance(transport, MarksMany):
            transport.taken_many(chunk)
        else:
            for incoming in chunk:
                transport.taken(incoming)
    return stored


def arrival_time(incoming: Incoming, now: datetime, skew: int = 600) -> datetime:
    """When a mail counts as arrived (S33): the server's time of delivery
    when the transport knows it (never later than ``now``); otherwise the
    mail's ``Date:`` header, but never earlier than ``skew`` seconds before
    ``now`` nor later than ``now``; otherwise ``now``."""
    from email import policy  # here: ``receive`` knows the time of arrival and reads no header (issue 20)
    from email.parser import BytesHeaderParser
    from email.utils import parsedate_to_datetime

    if incoming.arrived is not None:
        return min(incoming.arrived.astimezone(timezone.utc), now)
    try:
        head = incoming.raw[:65536]
        value = BytesHeaderParser(policy=policy.compat32).parsebytes(head).get("Date")
        stated = parsedate_to_datetime(str(value)) if value else None
    except (TypeError, ValueError, IndexError):
        stated = None
    if stated is None or stated.tzinfo is None:
        return now
    return max(min(stated.astimezone(timezone.utc), now), now - timedelta(seconds=skew))


def make_maildir(path: Path) -> None:
    """Make the Maildir at ``path`` (owner-only, its parents as needed) unless
    it is there.  Each of ``tmp/``, ``new/`` and ``cur/`` is made on its
    own, so that another process making the Maildir at the same moment
    never leaves this one without one of them (``mailbox.Maildir(create=True)``
    makes them only when the Maildir itself is new)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    for folder in (path, path / "tmp", path / "new", path / "cur"):
        folder.mkdir(mode=0o700, exist_ok=True)


class MaildirIntake:
    """A local Maildir: new mail is read from ``new/`` and moved to ``cur/``
    with the Seen flag once stored.  Each file is read once and renamed
    (its flags are in its name, its delivery time is its modification
    time): nothing is parsed or rewritten (issue 20)."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        make_maildir(self.path)
        self._where: dict[str, tuple[str, str]] = {}

    def waiting(self) -> Iterator[Incoming]:
        """Mails in ``new/`` and unseen mails in ``cur/``, oldest first (by key)."""
        found: dict[str, tuple[str, str, float]] = {}
        for sub in ("new", "cur"):
            try:
                entries = list(os.scandir(self.path / sub))
            except FileNotFoundError:
                continue
            for entry in entries:
                key, _, info = entry.name.partition(":")
                if entry.name.startswith(".") or _seen(info) or key in found:
                    continue
                try:
                    if not entry.is_file():
                        continue
                    found[key] = (sub, entry.name, entry.stat().st_mtime)
                except FileNotFoundError:  # taken meanwhile by another process
                    continue
        self._where = {key: (sub, name) for key, (sub, name, _) in found.items()}
        for key in sorted(found):
            sub, name, delivered = found[key]
            try:
                raw = (self.path / sub / name).read_bytes()
            except FileNotFoundError:  # taken meanwhile by another process
                continue
            # a Maildir message's date is its file's delivery time
            yield Incoming(raw, f"maildir:{key}", datetime.fromtimestamp(delivered, timezone.utc))

    def taken(self, incoming: Incoming) -> None:
        """Move the mail to ``cur/`` and flag it Seen (one rename)."""
        key = incoming.source.removeprefix("maildir:")
        sub, name = self._where.pop(key, ("new", key))
        info = name.partition(":")[2]
        flags = set(info[2:]) if info.startswith("2,") else set()
        try:
            os.rename(self.path / sub / name, self.path / "cur" / f"{key}:2,{''.join(sorted(flags | {'S'}))}")
        except FileNotFoundError:  # another process marked it first
            return


def _seen(info: str) -> bool:
    """True when a Maildir file name's info part (after the colon) holds the Seen flag."""
    return info.startswith("2,") and "S" in info[2:]


def read_pipe(raw: bytes, now: datetime | None = None) -> Incoming:
    """A mail handed over on standard input (``adjudicator receive``): it
    arrived when ``receive`` was called (``now``)."""
    return Incoming(raw, f"pipe:{content_hash(raw)}", now)
