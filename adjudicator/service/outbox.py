"""Sending the outbox: every mail the judge writes waits in the store
until an SMTP server has accepted it.

``send_due`` hands the due mails to the SMTP server over one connection
and records each outcome in the store: the mails the server accepted are
marked sent in commits of up to ``BATCH`` (issue 20: one commit per mail
cost more than the sending), and a mail the server did not take (server
down, timeout, a 4xx or 5xx answer, every recipient refused) is marked
failed and tried again later, after an exponential back-off
(``retry_delay``).  Nothing is lost while the server is away, and a mail
the server accepted is never handed over again by a judge that lives on.
(Only a crash between the server's acceptance and the store's record, at
most ``BATCH`` mails, could send a mail twice: SMTP gives no stronger
guarantee than at-least-once; the mails keep their Message-ID.)

``send_due`` raises for none of these failures: the judge keeps running,
and the failures are in the store (``last_error``) and in the returned
``SendSummary``.  Passwords never appear in an error text.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

import aiosmtplib

from adjudicator.mail.compose import check_address
from adjudicator.service import smtpwire
from adjudicator.service.store import OutboundMail, Store

smtpwire.install()  # S41: the same bytes on the wire, without regular expressions over each mail

TLS_MODES = ("none", "starttls", "ssl")
"""``none``: plain SMTP; ``starttls``: plain, then STARTTLS (required);
``ssl``: TLS from the first byte (SMTPS, usually port 465)."""

_ERROR_LIMIT = 1000

# What can go wrong when talking to an SMTP server: aiosmtplib's own
# errors, the socket's (OSError covers ssl.SSLError and ConnectionError),
# timeouts, and addresses or data it refuses before sending (ValueError).
_SEND_ERRORS: tuple[type[BaseException], ...] = (
    aiosmtplib.SMTPException,
    OSError,
    asyncio.TimeoutError,
    ValueError,
)


@dataclass(frozen=True)
class SmtpSettings:
    """How the judge reaches its SMTP server.

    ``tls`` is one of ``TLS_MODES``; ``envelope_from`` is the judge's
    address, used as the envelope sender (MAIL FROM); with ``user`` set the
    judge logs in (``password`` is then required and is never shown in a
    repr or an error).  ``timeout`` is in seconds, per SMTP command.
    Invalid settings raise ``ValueError`` when the object is made.
    """

    host: str
    port: int
    tls: str
    envelope_from: str
    user: str | None = None
    password: str | None = field(default=None, repr=False)
    timeout: float = 30.0

    def __post_init__(self) -> None:
        if not self.host or any(c.isspace() for c in self.host):
            raise ValueError(f"not an SMTP host name: {self.host!r}")
        if not 0 < self.port < 65536:
            raise ValueError(f"not an SMTP port: {self.port!r}")
        if self.tls not in TLS_MODES:
            raise ValueError(f"SMTP tls must be one of {', '.join(TLS_MODES)}, not {self.tls!r}")
        if self.user is not None and self.password is None:
            raise ValueError("an SMTP user needs a password")
        if not self.timeout > 0:
            raise ValueError(f"the SMTP timeout must be positive, not {self.timeout!r}")
        check_address(self.envelope_from)

    @property
    def server(self) -> str:
        """``host:port``, as error texts name the server."""
        return f"{self.host}:{self.port}"


@dataclass(frozen=True)
class SendSummary:
    """What one ``send_due`` did: how many mails the server accepted, how
    many failed (and wait for a later try), and the distinct error texts in
    the order they happened (also reports of recipients the server refused
    while it accepted the mail for the others)."""

    sent: int
    failed: int
    errors: tuple[str, ...]
    refused: tuple[str, ...] = ()
    """Ids of mails the server refused for good (5xx): never tried again."""


def retry_delay(attempts: int, base: float = 30.0, cap: float = 3600.0) -> timedelta:
    """How long to wait after the ``attempts``-th failed try (1 for the
    first): ``base`` seconds, doubled for every further failure, never more
    than ``cap``.  Pure; ``attempts`` below 1 count as 1."""
    if base < 0 or cap < 0:
        raise ValueError("retry delays cannot be negative")
    exponent = min(max(attempts, 1) - 1, 64)  # 2**64 * base is beyond any cap
    return timedelta(seconds=min(cap, base * 2.0**exponent))


def permanent(error: BaseException) -> bool:
    """True for a refusal for good: a 5xx answer to the mail (or to every
    recipient).  Everything else (4xx, timeouts, a broken line) is
    temporary and tried again."""
    if isinstance(error, aiosmtplib.SMTPRecipientsRefused):
        return bool(error.recipients) and all(r.code >= 500 for r in error.recipients)
    if isinstance(error, aiosmtplib.SMTPResponseException):
        return error.code >= 500
    return False


def _reason(error: BaseException) -> str:
    name = type(error).__name__
    if isinstance(error, aiosmtplib.SMTPRecipientsRefused):
        refused = "; ".join(f"{e.recipient}: {e.code} {e.message}" for e in error.recipients)
        return f"every recipient refused ({refused})"
    if isinstance(error, aiosmtplib.SMTPResponseException):
        return f"{name}: {error.code} {error.message}"
    text = str(error)
    return f"{name}: {text}" if text else name


def _error_text(settings: SmtpSettings, what: str) -> str:
    text = f"SMTP server {settings.server}: {what}"
    if settings.password:
        text = text.replace(settings.password, "********")
    text = " ".join(text.split())  # one line
    return text if len(text) <= _ERROR_LIMIT else text[: _ERROR_LIMIT - 3] + "..."


async def _connect(settings: SmtpSettings) -> aiosmtplib.SMTP:
    client = aiosmtplib.SMTP(
        hostname=settings.host,
        port=settings.port,
        timeout=settings.timeout,
        use_tls=settings.tls == "ssl",
        start_tls=settings.tls == "starttls",
        username=settings.user,
        password=settings.password,
    )
    try:
        await client.connect()  # EHLO, STARTTLS and AUTH as configured
    except BaseException:
        client.close()
        raise
    return client


async def _hang_up(client: aiosmtplib.SMTP) -> None:
    if not client.is_connected:
        return
    try:
        await client.quit()
    except _SEND_ERRORS:
        client.close()


async def _send_one(client: aiosmtplib.SMTP, settings: SmtpSettings, mail: OutboundMail) -> dict[str, str]:
    """Hand one mail over; returns the refused recipients (when the
    server took it for the others), raises when the server did not take it."""
    options: list[str] = []
    if not mail.message.isascii() and client.supports_extension("8bitmime"):
        options.append("BODY=8BITMIME")
    refused, _ = await client.sendmail(settings.envelope_from, list(mail.recipients), mail.message,
                                       mail_options=options)
    return {recipient: f"{reply.code} {reply.message}" for recipient, reply in refused.items()}


BATCH = 50
"""Mails claimed together, and sent-marks committed together, at most: a
crash can send at most this many mails a second time (SMTP gives no more
than at-least-once), and memory holds one message at a time."""


async def send_due(store: Store, settings: SmtpSettings, now: datetime, *, base_delay: float = 30.0,
                   holder: str = "", lease: float = 600.0) -> SendSummary:
    """Send every mail of ``store.due_mail(now.isoformat())``, oldest first.

    Guarantees: one SMTP connection serves the whole batch (a broken one is
    opened again once for the next mail); the due mails are read and
    claimed ``BATCH`` at a time and each message is read only right before
    it is handed over (memory stays bounded however much is due); each
    mail the server accepts is marked sent (at ``now``), in commits of up
    to ``BATCH`` mails and always before this function returns or raises;
    each mail it does not take is marked failed at once with ``next_try =
    now + retry_delay(attempts + 1, base_delay)`` and an error text that
    names the server and the reason, never the password; when the server
    cannot be reached, every remaining due mail is marked failed that way.
    A mail refused for good (a 5xx answer) is never tried again
    (``give_up``) and listed in ``refused``.  Once the server accepted a
    mail, every mail waiting for a later try is due at once and sent in
    the same round, oldest first.  No SMTP or network failure is raised.
    Each batch is claimed for ``holder`` (for ``lease`` seconds from the
    claim) right before its mails are handed over, so of several judges
    sending at once only one sends a mail.  ``now`` must be timezone-aware
    (the outbox compares ISO-8601 times as text: use one zone, UTC,
    throughout).
    """
    if now.tzinfo is None or now.utcoffset() is None:
        raise ValueError("send_due needs a timezone-aware now")
    stamp, started = now.isoformat(), time.monotonic()

    def claim(mail_ids: list[str]) -> list[str]:
        # the claim counts from the moment it is made, however long the round has run
        moment = now + timedelta(seconds=time.monotonic() - started)
        return store.claim_outbound_many(mail_ids, moment.isoformat(), (moment + timedelta(seconds=lease)).isoformat(),
                                         holder)

    sent = failed = 0
    errors: list[str] = []
    refused_for_good: list[str] = []
    accepted: list[str] = []  # sent, not yet marked
    held: set[str] = set()  # claimed, not yet handed over

    def flush() -> None:
        if accepted:
            store.mark_sent_many(accepted, stamp)
            accepted.clear()

    def note(text: str) -> None:
        if text not in errors:
            errors.append(text)

    def fail(mails: Sequence[tuple[str, int]], text: str) -> None:
        nonlocal failed
        for mail_id, attempts in mails:
            next_try = now + retry_delay(attempts + 1, base=base_delay)
            store.mark_failed(mail_id, next_try.isoformat(), text)
            failed += 1
        note(text)

    def fail_the_rest(after: int, text: str) -> None:
        while heads := store.due_mail_heads(stamp, after, BATCH):
            after = heads[-1][1]
            attempts = {mail_id: tries for mail_id, _, tries in heads}
            fail([(mail_id, attempts[mail_id]) for mail_id in claim(list(attempts))], text)

    client: aiosmtplib.SMTP | None = None
    drained = False
    try:
        while True:
            after, unreachable = 0, False
            while not unreachable and (heads := store.due_mail_heads(stamp, after, BATCH)):
                after = heads[-1][1]
                attempts = {mail_id: tries for mail_id, _, tries in heads}
                claimed = claim(list(attempts))  # mails another judge holds (or has sent) drop out
                held.update(claimed)
                for index, mail_id in enumerate(claimed):
                    if client is None or not client.is_connected:
                        try:
                            client = await _connect(settings)
                        except _SEND_ERRORS as error:
                            client = None
                            text = _error_text(settings, f"cannot connect: {_reason(error)}")
                            fail([(m, attempts[m]) for m in claimed[index:]], text)
                            held.clear()
                            fail_the_rest(after, text)
                            unreachable = True
                            break
                    mail, head_length, body_id = store.outbound_parts(mail_id)
                    if body_id is not None:  # a shared body's encoding made once for its mails
                        smtpwire.prime(mail.message, head_length, body_id)
                    held.discard(mail_id)
                    try:
                        refused = await _send_one(client, settings, mail)
                    except _SEND_ERRORS as error:
                        text = _error_text(settings, _reason(error))
                        if permanent(error):
                            store.give_up(mail.id, stamp, text)
                            refused_for_good.append(mail.id)
                            note(text)
                        else:
                            fail([(mail.id, mail.attempts)], text)
                        if not isinstance(error, (aiosmtplib.SMTPResponseException, aiosmtplib.SMTPRecipientsRefused)):
                            # a timeout or a broken line leaves the session in an
                            # unknown state: the next mail gets a new connection
                            client.close()
                            client = None
                        continue
                    accepted.append(mail.id)
                    sent += 1
                    if len(accepted) >= BATCH:
                        flush()
                    if refused:
                        listed = "; ".join(f"{r}: {reply}" for r, reply in refused.items())
                        note(_error_text(settings, f"mail {mail.id} sent, but recipients refused: {listed}"))
                flush()
            if unreachable or drained or sent == 0:
                break
            # the server takes mail again: what waits for a later try is due
            # now, oldest first, instead of each mail keeping its back-off
            drained = True
            if not store.make_waiting_due(stamp):
                break
    finally:
        flush()
        if held:  # cut off (cancelled): what was not handed over is free for the next round at once
            store.release_outbound(sorted(held), holder)
        if client is not None:
            await _hang_up(client)
    return SendSummary(sent=sent, failed=failed, errors=tuple(errors), refused=tuple(refused_for_good))
