"""One mail through an in-process judge (a real SQLite store, a list
mailbox, a fixed clock) and the mails it queued, read back as plain text:
the shared steps of the game service tests."""

from __future__ import annotations

import dataclasses
import email
import email.policy
from datetime import datetime
from email.message import EmailMessage
from email.utils import make_msgid

from adjudicator.service.intake import read_pipe
from adjudicator.service.runner import Judge
from adjudicator.service.store import Store
from tests.test_service_commands import ListTransport


@dataclasses.dataclass(frozen=True)
class Queued:
    """A mail the judge queued: its recipients, ``:: Kind:``, plain text
    (LF line ends) and the content types of its picture attachments."""

    recipients: tuple[str, ...]
    kind: str
    text: str
    images: tuple[str, ...]


def post(mailbox: ListTransport, judge: Judge, sender: str, subject: str, lines: list[str],
         judge_address: str) -> None:
    """Put a plain mail of ``lines`` from ``sender`` in the mailbox and let
    the judge poll once."""
    message = EmailMessage()
    message["From"] = sender
    message["To"] = judge_address
    message["Subject"] = subject
    message["Message-ID"] = make_msgid(domain="players.test")
    message.set_content("\n".join(lines) + "\n")
    mailbox.box.append(read_pipe(bytes(message)))
    judge.poll()


def take_queued(store: Store, sent_at: datetime) -> list[Queued]:
    """Every mail waiting in the outbox, oldest first, marked sent at
    ``sent_at``."""
    taken = []
    for queued in store.unsent_mail():
        parsed = email.message_from_bytes(queued.message, policy=email.policy.default)
        body = parsed.get_body(preferencelist=("plain",))
        assert body is not None
        text = str(body.get_content()).replace("\r\n", "\n")
        kind = next(line.removeprefix(":: Kind: ") for line in text.splitlines() if line.startswith(":: Kind: "))
        images = tuple(part.get_content_type() for part in parsed.iter_attachments()
                       if part.get_content_maintype() == "image")
        taken.append(Queued(tuple(queued.recipients), kind, text, images))
        store.mark_sent(queued.id, sent_at.isoformat())
    return taken
