"""Taking mail in: every transport hands raw bytes to the store first and
only then marks the mail as taken on its side, so a crash in between
means the mail is fetched again and recognised as already stored.

Transports: a local Maildir (``MaildirIntake``), standard input
(``read_pipe``, for procmail and ``.forward``), and IMAP (later, behind the
same ``take_in`` step).
"""

from __future__ import annotations

import mailbox
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator, Protocol

from adjudicator.service.store import InboundMail, Store, content_hash


@dataclass(frozen=True, slots=True)
class Incoming:
    """A mail as a transport found it: its bytes and where it came from."""

    raw: bytes
    source: str


class Transport(Protocol):
    """Where mail comes from."""

    def waiting(self) -> Iterator[Incoming]:
        """The mails not yet taken in."""
        ...  # pragma: no cover

    def taken(self, incoming: Incoming) -> None:
        """Mark a mail as taken in (it is safely stored)."""
        ...  # pragma: no cover


def take_in(
    store: Store, transport: Transport, now: str, between: Callable[[], None] | None = None
) -> list[tuple[InboundMail, bool]]:
    """Store every waiting mail, then mark it taken; returns each stored mail
    and whether it was new (a mail seen before is marked taken again).
    ``between`` runs after each store and before its marking (tests use it
    to crash exactly there)."""
    stored = []
    for incoming in transport.waiting():
        stored.append(store.save_inbound(incoming.raw, incoming.source, now))
        if between is not None:
            between()
        transport.taken(incoming)
    return stored


class MaildirIntake:
    """A local Maildir: new mail is read from ``new/`` and moved to ``cur/``
    with the Seen flag once stored."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._box = mailbox.Maildir(self.path, factory=None, create=True)

    def waiting(self) -> Iterator[Incoming]:
        """Mails in ``new/`` and unseen mails in ``cur/``, oldest first."""
        self._box = mailbox.Maildir(self.path, factory=None, create=True)
        keys = sorted(key for key in self._box.iterkeys() if "S" not in self._box.get_message(key).get_flags())
        for key in keys:
            with self._box.get_file(key) as handle:
                raw = handle.read()
            yield Incoming(raw, f"maildir:{key}")

    def taken(self, incoming: Incoming) -> None:
        """Move the mail to ``cur/`` and flag it Seen."""
        key = incoming.source.removeprefix("maildir:")
        message = self._box.get_message(key)
        message.set_subdir("cur")
        message.add_flag("S")
        self._box[key] = message


def read_pipe(raw: bytes) -> Incoming:
    """A mail handed over on standard input (``adjudicator receive``)."""
    return Incoming(raw, f"pipe:{content_hash(raw)}")
