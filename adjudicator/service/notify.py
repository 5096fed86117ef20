"""Putting the judge's mails into the outbox: every mail is composed here
(with the judge's From, X-Loop and Auto-Submitted headers) and queued in
the caller's transaction, so a mail is queued exactly when the change it
reports is committed."""

from __future__ import annotations

from datetime import datetime
from email.utils import parseaddr
from functools import lru_cache
from typing import Sequence

from adjudicator.config import Config
from adjudicator.mail.compose import Attachment, clean_text, compose, readdressed
from adjudicator.service.render import Texts
from adjudicator.service.store import Connection, GameRecord, Store


@lru_cache(maxsize=1024)
def envelope_address(address: str) -> str:
    """The bare address an outbox row of a mail to ``address`` is sent to
    (``parseaddr``'s, else ``address`` itself); the last answers remembered."""
    return parseaddr(address)[1] or address


def reply_subject(original: str | None) -> str:
    """``Re: <original>`` (once), on one line with single spaces (``compose``
    then makes it safe for a header and cuts it to length)."""
    subject = " ".join(clean_text(original or "").split())
    if not subject:
        return "Re: (ohne Betreff / no subject)"
    return subject if subject.lower().startswith("re:") else f"Re: {subject}"


def queue(
    store: Store,
    db: Connection,
    config: Config,
    to: str,
    subject: str,
    text: str,
    now: datetime,
    *,
    html: str | None = None,
    in_reply_to: str | None = None,
    references: Sequence[str] = (),
    attachments: Sequence[Attachment] = (),
) -> str:
    """Compose one mail to ``to`` and queue it; returns the outbox id."""
    message = composed_mail(config, to, subject, text, now, html=html, in_reply_to=in_reply_to,
                            references=references, attachments=attachments)
    return store.queue_mail(db, (envelope_address(to),), message, now.isoformat())


def composed_mail(
    config: Config, to: str, subject: str, text: str, now: datetime, *, html: str | None = None,
    in_reply_to: str | None = None, references: Sequence[str] = (), attachments: Sequence[Attachment] = (),
) -> bytes:
    """One mail from the judge to ``to`` as ``queue`` composes it (not queued)."""
    return compose(
        sender=config.address,
        sender_name=config.name,
        to=[to],
        subject=subject,
        text=text,
        html=html,
        in_reply_to=in_reply_to,
        references=references,
        loop_id=config.loop_id,
        date=now,
        attachments=attachments,
    )


def notice_text(config: Config, game: GameRecord, body: str, kind: str = "notice") -> str:
    """A notice's text: the machine-readable head (``:: Kind: notice``, the
    game, its phase, status and deadline) above ``body``."""
    texts = Texts(game.language, game.time_zone)
    head = [
        f":: Judge: {config.address}",
        f":: Kind: {kind}",
        f":: Game: {game.name}",
        f":: Phase: {game.phase}",
        f":: Status: {game.status}",
        f":: Deadline: {texts.machine_time(game.deadline)}",
    ]
    return "\n".join(head) + "\n\n" + body.rstrip("\n") + "\n"


def queue_to_all(
    store: Store,
    db: Connection,
    config: Config,
    addresses: Sequence[str],
    subject: str,
    text: str,
    now: datetime,
    *,
    html: str | None = None,
    attachments: Sequence[Attachment] = (),
    composed: bytes | None = None,
) -> list[str]:
    """Queue the same mail to each of ``addresses``, one mail each (its own
    To and Message-ID), composed once (``composed``: the mail to the first
    address as ``composed_mail`` made it beforehand, e.g. in a worker
    process); returns the outbox ids.  The mails share one stored body
    (``Store.queue_shared``, S40): each is sent as the same bytes as if
    it were stored whole."""
    if not addresses:
        return []
    message = composed if composed is not None else \
        composed_mail(config, addresses[0], subject, text, now, html=html, attachments=attachments)
    if len(addresses) == 1:
        return [store.queue_mail(db, (envelope_address(addresses[0]),), message, now.isoformat())]
    head, separator, body = message.partition(b"\r\n\r\n")
    head += separator
    heads = [(head if index == 0 else readdressed(head, address)) for index, address in enumerate(addresses)]
    return store.queue_shared(db, [((envelope_address(address),), own) for address, own in zip(addresses, heads)],
                              body, now.isoformat())


def queue_notice(
    store: Store, db: Connection, config: Config, game: GameRecord, to: str, subject: str, body: str,
    now: datetime, kind: str = "notice",
) -> str:
    """Queue a notice about ``game`` (see ``notice_text``) to ``to``."""
    return queue(store, db, config, to, subject, notice_text(config, game, body, kind), now)
