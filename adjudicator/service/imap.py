"""Taking mail in over IMAP: a polling transport for ``intake.take_in``.

`ImapIntake` reads every message of one folder that lacks the ``\\Seen``
flag, oldest UID first, without setting that flag (``BODY.PEEK[]``); only
`ImapIntake.taken`, called once the store holds the mail, sets it.  A crash
in between therefore means the mail is fetched again, and the store knows
it by its source ``imap:user@host:port/folder;UIDVALIDITY=v;UID=u``, which
stays the same across reconnects as long as the server keeps its
UIDVALIDITY.

A broken connection (server restarted, socket closed) is replaced once,
transparently; when the server cannot be reached or refuses the login the
transport raises `MailboxUnavailable`, and the service loop waits as
`Backoff` says before it polls again.
"""

from __future__ import annotations

from datetime import datetime, timezone

import imaplib
import logging
import ssl
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, TypeVar

from imapclient import IMAPClient
from imapclient.exceptions import LoginError

from adjudicator.service.intake import Incoming

log = logging.getLogger(__name__)

TLS_MODES = ("none", "starttls", "ssl")
"""The accepted values of `ImapSettings.tls`."""

DEFAULT_BATCH = 50
"""How many message bodies one FETCH asks for."""

_SEEN = b"\\Seen"
_BODY = b"BODY[]"
_INTERNALDATE = b"INTERNALDATE"

# What a connection that went away raises: imaplib's "abort" (the server
# said BYE, or a read or write on the socket failed) and socket errors.
_BROKEN: tuple[type[BaseException], ...] = (imaplib.IMAP4.abort, OSError, EOFError)

_T = TypeVar("_T")


@dataclass(frozen=True)
class ImapSettings:
    """Where the judge's mailbox is and how to log in.

    ``tls`` is ``"none"`` (plain text), ``"starttls"`` (plain connection
    upgraded before the login; refused when the server cannot) or
    ``"ssl"`` (TLS from the first byte).  The password is left out of the
    ``repr``.
    """

    host: str
    port: int
    tls: str
    user: str
    password: str = field(repr=False)
    folder: str = "INBOX"
    timeout: float = 30.0

    def __post_init__(self) -> None:
        """Reject settings that cannot work: an unknown ``tls`` mode, a port
        outside 1..65535, an empty host, user or folder, or a timeout that is
        not positive (`ValueError`)."""
        if self.tls not in TLS_MODES:
            raise ValueError(f"imap tls must be one of {', '.join(TLS_MODES)}, not {self.tls!r}")
        if not 0 < self.port < 65536:
            raise ValueError(f"imap port must be between 1 and 65535, not {self.port}")
        if not self.host or not self.user or not self.folder:
            raise ValueError("imap host, user and folder must not be empty")
        if not self.timeout > 0:
            raise ValueError(f"imap timeout must be positive, not {self.timeout}")

    @property
    def mailbox(self) -> str:
        """``user@host:port/folder``: the mailbox as sources and messages name it."""
        return f"{self.user}@{self.host}:{self.port}/{self.folder}"


class MailboxUnavailable(RuntimeError):
    """The IMAP mailbox cannot be used now: the server cannot be reached,
    refuses the login, or lost the connection.  The message names host,
    port, user and the reason, never the password."""

    def __init__(self, settings: ImapSettings, reason: str) -> None:
        """Build the message from the settings and the reason (any
        occurrence of the password in the reason is masked)."""
        if settings.password:
            reason = reason.replace(settings.password, "***")
        super().__init__(
            f"IMAP mailbox of {settings.user} at {settings.host}:{settings.port} "
            f"(folder {settings.folder}) is unavailable: {reason}"
        )
        self.host = settings.host
        self.port = settings.port
        self.user = settings.user
        self.reason = reason


class _ValidityChanged(Exception):
    """The folder's UIDVALIDITY changed while a poll was under way."""


class ImapIntake:
    """One IMAP folder as a `Transport` of ``intake.take_in``.

    The connection is opened at the first use and kept between polls; use
    `close` (or a ``with`` block) to log out.  Not thread-safe: one
    service loop owns it.
    """

    def __init__(
        self,
        settings: ImapSettings,
        *,
        batch_size: int = DEFAULT_BATCH,
        ssl_context: ssl.SSLContext | None = None,
    ) -> None:
        """Remember the settings; connects to nothing yet.  ``batch_size``
        bounds how many bodies one FETCH loads; ``ssl_context`` replaces the
        default verifying context for ``tls = "ssl"`` or ``"starttls"``."""
        if batch_size < 1:
            raise ValueError(f"batch_size must be at least 1, not {batch_size}")
        self.settings = settings
        self.batch_size = batch_size
        self._ssl_context = ssl_context
        self._client: Any = None
        # UIDVALIDITY of the folder as selected on the current connection;
        # None until it is selected there.
        self._validity: int | None = None

    # ------------------------------------------------------------ Transport

    def waiting(self) -> Iterator[Incoming]:
        """Every message of the folder without ``\\Seen``, oldest UID first,
        with its exact bytes as the server holds them and a source that is
        the same on every poll (``imap:user@host:port/folder;UIDVALIDITY=v;UID=u``).

        Reading sets no flag.  Bodies are fetched ``batch_size`` at a time.
        A connection that broke since the last use is replaced once; raises
        `MailboxUnavailable` when the server cannot be reached, refuses the
        login, or the fresh connection fails too.  Should the folder's
        UIDVALIDITY change during the poll, the poll ends early (the rest
        comes with the next one, under the new UIDVALIDITY)."""
        validity, uids = self._call("search for unseen mail", self._unseen)
        for start in range(0, len(uids), self.batch_size):
            batch = uids[start:start + self.batch_size]
            try:
                fetched = self._call("fetch mail", lambda client: self._fetch(client, validity, batch))
            except _ValidityChanged:
                log.warning("%s: UIDVALIDITY changed from %d during a poll; the rest waits for the next poll",
                            self.settings.mailbox, validity)
                return
            for uid in batch:
                found = fetched.get(uid)
                if found is None:  # expunged since the search
                    continue
                yield Incoming(found[0], self.source(validity, uid), found[1])

    def taken(self, incoming: Incoming) -> None:
        """Set ``\\Seen`` on that message, so that no later `waiting` yields
        it; does nothing when the folder's UIDVALIDITY is no longer the one
        in the source (the UID may name another message now).  Raises
        `ValueError` for a source of another mailbox and
        `MailboxUnavailable` when the server cannot be reached (the mail
        then comes again and is recognised by the store)."""
        self.taken_many([incoming])

    def taken_many(self, incoming: list[Incoming]) -> None:
        """`taken` of every mail of ``incoming``, in one STORE command per
        UIDVALIDITY (one round trip for a poll's batch, issue 20)."""
        by_validity: dict[int, list[int]] = {}
        for mail in incoming:
            validity, uid = self.parse_source(mail.source)
            by_validity.setdefault(validity, []).append(uid)
        for validity, uids in by_validity.items():

            def mark(client: Any, validity: int = validity, uids: list[int] = uids) -> bool:
                current = self._validity if self._validity is not None else self._select(client)
                if current != validity:
                    return False
                client.add_flags(uids, [_SEEN], silent=True)
                return True

            if not self._call("mark mail seen", mark):
                log.warning("%s: not marking UID %s seen: UIDVALIDITY is no longer %d",
                            self.settings.mailbox, ",".join(map(str, uids)), validity)

    # -------------------------------------------------------------- sources

    def source(self, validity: int, uid: int) -> str:
        """The source string of message ``uid`` under ``validity``."""
        return f"imap:{self.settings.mailbox};UIDVALIDITY={validity};UID={uid}"

    def parse_source(self, source: str) -> tuple[int, int]:
        """``(UIDVALIDITY, UID)`` of a source made by `source`; `ValueError`
        when it names another mailbox or is malformed."""
        prefix = f"imap:{self.settings.mailbox};UIDVALIDITY="
        if not source.startswith(prefix):
            raise ValueError(f"not a mail of {self.settings.mailbox}: {source!r}")
        validity, sep, uid = source[len(prefix):].partition(";UID=")
        if not sep or not validity.isdigit() or not uid.isdigit():
            raise ValueError(f"malformed IMAP source: {source!r}")
        return int(validity), int(uid)

    # ----------------------------------------------------------- connection

    def close(self) -> None:
        """Log out and drop the connection; never raises.  The next
        `waiting` connects again."""
        client, self._client = self._client, None
        self._validity = None
        if client is None:
            return
        try:
            client.logout()
        except Exception as error:  # the connection is gone already
            log.debug("%s: logout failed (%s); closing the socket", self.settings.mailbox, error)
            self._shutdown(client)

    def __enter__(self) -> ImapIntake:
        """The intake itself; `close` runs at the end of the block."""
        return self

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, tb: TracebackType | None
    ) -> None:
        """Log out (see `close`)."""
        self.close()

    def _call(self, what: str, action: Callable[[Any], _T]) -> _T:
        """Run ``action`` on the connection.  When a kept connection turns
        out broken it is replaced once and ``action`` runs again; failing
        on a fresh connection raises `MailboxUnavailable`."""
        if self._client is not None:
            try:
                return action(self._client)
            except _BROKEN as error:
                log.info("%s: connection lost during %s (%s); reconnecting",
                         self.settings.mailbox, what, _describe(error))
                self._discard()
        client = self._connect()
        try:
            return action(client)
        except _BROKEN as error:
            self._discard()
            raise MailboxUnavailable(self.settings, f"{what} failed: {_describe(error)}") from error

    def _connect(self) -> Any:
        """A fresh logged-in connection (kept for later calls), or
        `MailboxUnavailable`."""
        s = self.settings
        context = self._ssl_context
        if context is None and s.tls != "none":
            context = ssl.create_default_context()
        try:
            client = IMAPClient(s.host, port=s.port, ssl=s.tls == "ssl", ssl_context=context, timeout=s.timeout)
        except (imaplib.IMAP4.error, OSError, EOFError) as error:
            raise MailboxUnavailable(s, f"cannot connect: {_describe(error)}") from error
        try:
            if s.tls == "starttls":
                try:
                    client.starttls(context)
                except (imaplib.IMAP4.error, OSError) as error:
                    raise MailboxUnavailable(s, f"STARTTLS failed: {_describe(error)}") from error
            try:
                client.login(s.user, s.password)
            except LoginError as error:
                raise MailboxUnavailable(s, f"login refused ({_describe(error)})") from error
            except (imaplib.IMAP4.error, OSError, EOFError) as error:
                raise MailboxUnavailable(s, f"login failed: {_describe(error)}") from error
        except BaseException:
            self._shutdown(client)
            raise
        log.debug("%s: connected", s.mailbox)
        self._client = client
        self._validity = None
        return client

    def _discard(self) -> None:
        """Forget a broken connection, closing its socket."""
        client, self._client = self._client, None
        self._validity = None
        if client is not None:
            self._shutdown(client)

    @staticmethod
    def _shutdown(client: Any) -> None:
        try:
            client.shutdown()
        except Exception:  # nothing left to close
            pass

    # ------------------------------------------------------------- commands

    def _select(self, client: Any) -> int:
        """Select the folder (read-write) and return its UIDVALIDITY."""
        try:
            state = client.select_folder(self.settings.folder)
        except imaplib.IMAP4.abort:
            raise
        except imaplib.IMAP4.error as error:
            raise MailboxUnavailable(
                self.settings, f"cannot select folder {self.settings.folder!r}: {_describe(error)}"
            ) from error
        validity = int(state[b"UIDVALIDITY"])
        self._validity = validity
        return validity

    def _unseen(self, client: Any) -> tuple[int, list[int]]:
        """UIDVALIDITY and the UIDs without ``\\Seen``, ascending."""
        validity = self._select(client)  # a fresh SELECT also shows mail that came since
        uids = sorted(int(uid) for uid in client.search(["UNSEEN"]))
        return validity, uids

    def _fetch(self, client: Any, validity: int, uids: list[int]) -> dict[int, tuple[bytes, datetime | None]]:
        """The bodies of ``uids`` by UID with their INTERNALDATE (when the
        mail reached the mailbox), without setting ``\\Seen``;
        `_ValidityChanged` when the folder is no longer at ``validity``."""
        current = self._validity if self._validity is not None else self._select(client)
        if current != validity:
            raise _ValidityChanged()
        response = client.fetch(uids, ["BODY.PEEK[]", "INTERNALDATE"])
        bodies: dict[int, tuple[bytes, datetime | None]] = {}
        for uid, data in response.items():
            body = data.get(_BODY)
            when = data.get(_INTERNALDATE)
            if isinstance(body, bytes):
                arrived = when.astimezone(timezone.utc) if isinstance(when, datetime) else None
                bodies[int(uid)] = (bytes(body), arrived)
        return bodies


class Backoff:
    """Exponential back-off for the service loop: after the n-th failure in
    a row wait ``base * 2**(n-1)`` seconds, at most ``cap``; a success
    starts again at ``base``.  Reads no clock and never sleeps."""

    def __init__(self, base: float = 1.0, cap: float = 300.0) -> None:
        """``base`` must be positive and ``cap`` at least ``base`` (`ValueError`)."""
        if not base > 0:
            raise ValueError(f"back-off base must be positive, not {base}")
        if not cap >= base:
            raise ValueError(f"back-off cap ({cap}) must not be below its base ({base})")
        self.base = base
        self.cap = cap
        self._failures = 0

    @property
    def failures(self) -> int:
        """Failures in a row since the last success."""
        return self._failures

    def failure(self) -> float:
        """Count a failure; returns the seconds to wait before the next try:
        ``base``, ``2*base``, ``4*base`` ... never more than ``cap``."""
        self._failures += 1
        exponent = min(self._failures - 1, 1000)  # 2.0**1000 is still a float; the product may be inf
        return min(self.cap, self.base * 2.0 ** exponent)

    def success(self) -> None:
        """Count a success: the next failure waits ``base`` again."""
        self._failures = 0


def _describe(error: BaseException) -> str:
    """An exception as one readable line: its class and text."""
    text = str(error).strip()
    return f"{type(error).__name__}: {text}" if text else type(error).__name__
