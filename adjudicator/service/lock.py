"""One judge per database: ``adjudicator serve`` holds an exclusive lock on
``<database>.lock`` for as long as it runs (S34).

The lock is the operating system's (``fcntl.flock``), so it goes away with
the process however it ends (SIGKILL included) and never needs cleaning up.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from typing import IO


class AlreadyServing(RuntimeError):
    """Another ``serve`` holds the database's lock."""


class ServeLock:
    """The exclusive lock of one database, held until ``release``."""

    def __init__(self, database: Path) -> None:
        """Take the lock of ``database``; ``AlreadyServing`` (naming the
        process that holds it, when known) when another judge has it."""
        self.path = Path(f"{database}.lock")
        self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        descriptor = os.open(self.path, os.O_CREAT | os.O_RDWR, 0o600)
        self._file: IO[str] | None = os.fdopen(descriptor, "r+", encoding="ascii")
        try:
            fcntl.flock(self._file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = self._file.read().strip()
            self._file.close()
            self._file = None
            who = f" (process {holder})" if holder.isdigit() else ""
            raise AlreadyServing(f"another adjudicator serve is running on {database}{who}; "
                                 "stop it first (one judge per database)") from None
        self._file.seek(0)
        self._file.truncate()
        self._file.write(str(os.getpid()))
        self._file.flush()

    def release(self) -> None:
        """Give the lock up (it also ends with the process)."""
        if self._file is not None:
            fcntl.flock(self._file, fcntl.LOCK_UN)
            self._file.close()
            self._file = None
