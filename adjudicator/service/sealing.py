"""Raw mail sealed at rest until it is handled (docs/service.md S36).

A mail is stored the moment it is taken in, before anything has read it,
so nobody yet knows which of its words are passwords.  It is therefore
stored *sealed*: encrypted (Fernet: AES-128-CBC with an HMAC-SHA256 tag)
under the judge's mail key, a file outside the database.  The handler
unseals it, and in the transaction that handles it the sealed copy is
dropped and the mail kept with its passwords masked.  So the database
never holds a password of a mail in clear, and a judge killed between
intake and handling still reads the mail whole afterwards.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from adjudicator.service.backend import is_postgres_url, sqlite_path

if TYPE_CHECKING:  # cryptography is imported when a mail is first sealed or opened
    from cryptography.fernet import Fernet


class SealError(RuntimeError):
    """A sealed mail cannot be opened with this judge's mail key."""


def default_key_path(target: Path | str) -> Path:
    """Where the mail key of database ``target`` lives unless the
    configuration names one (``[database] mail_key``): beside an SQLite
    file as ``<file>.key``; for PostgreSQL in the user's state folder
    (``$XDG_STATE_HOME/adjudicator/mail.key``), shared by every judge of
    that user on this host."""
    if is_postgres_url(target):
        state = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
        return Path(state) / "adjudicator" / "mail.key"
    return Path(f"{sqlite_path(target)}.key")


OPENED_MAILS = 8
"""Unsealed mails a key remembers (more than the mails read ahead, ``ahead.AHEAD``)."""
OPENED_BYTES = 256 * 1024


class MailKey:
    """The key that seals stored raw mail, read from (or, the first time a
    mail is sealed, created owner-only as) the file ``path``."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._fernet: Fernet | None = None
        self._opened: dict[bytes, bytes] = {}
        """The last sealed mails unsealed (at most ``OPENED_MAILS`` of at
        most ``OPENED_BYTES`` each) and what they held: a mail read ahead is
        read again when its turn comes (issue 20)."""

    def _key(self, create: bool) -> Fernet | None:
        from cryptography.fernet import Fernet

        if self._fernet is None:
            try:
                self._fernet = Fernet(self.path.read_bytes().strip())
            except FileNotFoundError:
                if not create:
                    return None
                self._fernet = Fernet(self._create())
            except ValueError as error:
                raise SealError(f"the mail key {self.path} is not a key: {error}") from error
        return self._fernet

    def _create(self) -> bytes:
        """Write a fresh key owner-only; when another process wrote one first, use that."""
        from cryptography.fernet import Fernet

        self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        key = Fernet.generate_key()
        try:
            handle = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            return self.path.read_bytes().strip()
        with os.fdopen(handle, "wb") as out:
            out.write(key + b"\n")
        return key

    def seal(self, raw: bytes) -> bytes:
        """``raw`` encrypted and authenticated under the key (created if need be)."""
        fernet = self._key(create=True)
        assert fernet is not None
        return fernet.encrypt(raw)

    def unseal(self, sealed: bytes) -> bytes:
        """The bytes ``seal`` was given; ``SealError`` when the key is missing
        or not the one that sealed them (or the bytes were altered)."""
        from cryptography.fernet import InvalidToken

        fernet = self._key(create=False)
        if fernet is None:
            raise SealError(f"the mail key {self.path} is missing (copy it from the judge that stored the mail)")
        raw = self._opened.get(sealed)
        if raw is not None:
            return raw
        try:
            raw = fernet.decrypt(sealed)
        except InvalidToken as error:
            raise SealError(f"the mail was sealed with another key than {self.path}") from error
        if len(sealed) <= OPENED_BYTES:
            if len(self._opened) >= OPENED_MAILS:
                del self._opened[next(iter(self._opened))]
            self._opened[sealed] = raw
        return raw
