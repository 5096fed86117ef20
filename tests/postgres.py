"""A real PostgreSQL server on loopback for the tests.

`PostgresServer` runs Debian's PostgreSQL binaries (the package
``postgresql``; ``/usr/lib/postgresql/<version>/bin``) on a private data
folder in a temporary directory, a free loopback port and a unix socket in
that folder, with trust authentication for the one superuser ``judge`` on
loopback only.  Durability settings are off (``fsync``): the data folder is
thrown away after the tests.  ``new_database`` creates an empty database
and returns its URL.

PostgreSQL refuses to run as root: as root, the server runs as the system
user ``postgres`` (the Debian package creates it; created with ``useradd``
when missing), and the data folder belongs to that user.  The class
installs nothing: the README's test command installs the Debian package and
the ``test`` extra installs psycopg.
"""

from __future__ import annotations

import itertools
import os
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path
from types import TracebackType

from tests.mailserver import LOOPBACK, _ensure_system_user, _free_ports

SUPERUSER = "judge"
SYSTEM_USER = "postgres"


class PostgresError(RuntimeError):
    """The server could not be started or did not answer."""


def find_postgres() -> Path | None:
    """The bin folder of the newest installed PostgreSQL server, or None."""
    found = sorted(
        (p for p in Path("/usr/lib/postgresql").glob("*/bin") if (p / "postgres").exists() and (p / "initdb").exists()),
        key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0,
    )
    return found[-1] if found else None


def require_postgres() -> Path:
    """The server's bin folder and a usable driver; without them a test
    skips on a developer's machine but fails where CI is set, so that CI
    never loses the PostgreSQL tests silently."""
    import pytest

    binaries = find_postgres()
    message = ""
    if binaries is None:
        message = "PostgreSQL is not installed: apt-get install -y postgresql (the README's test command does)"
    else:
        try:
            import psycopg  # noqa: F401
        except ImportError:
            message = "psycopg is not installed: pip install -e '.[test]'"
    if message:
        if os.environ.get("CI"):
            pytest.fail(message + "; CI must run the PostgreSQL tests", pytrace=False)
        pytest.skip(message)
    assert binaries is not None
    return binaries


class PostgresServer:
    """One private PostgreSQL server (see the module docstring)."""

    def __init__(self, binaries: Path, start_timeout: float = 60.0) -> None:
        self.binaries = binaries
        self.start_timeout = start_timeout
        # the unix socket lives in the folder: keep the path short (108 bytes at most)
        self.folder = Path(tempfile.mkdtemp(prefix="adj-pg-", dir="/tmp"))
        self.data = self.folder / "data"
        self.log_path = self.folder / "postgres.log"
        self.port = 0
        self._process: subprocess.Popen[bytes] | None = None
        self._names = itertools.count(1)
        self._user: tuple[int, int] | None = None

    def __enter__(self) -> PostgresServer:
        return self.start()

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None, tb: TracebackType | None) -> None:
        self.stop()

    def _run_as(self) -> dict[str, int]:
        return {} if self._user is None else {"user": self._user[0], "group": self._user[1]}

    def start(self) -> PostgresServer:
        """initdb, then the server; returns when it accepts connections."""
        if os.geteuid() == 0:
            account = _ensure_system_user(SYSTEM_USER)
            self._user = (account.pw_uid, account.pw_gid)
            os.chown(self.folder, *self._user)
        done = subprocess.run(
            [str(self.binaries / "initdb"), "-D", str(self.data), "-U", SUPERUSER, "--auth=trust",
             "--encoding=UTF8", "--locale=C", "--no-sync"],
            capture_output=True, text=True, timeout=300, **self._run_as(),  # type: ignore[call-overload]
        )
        if done.returncode != 0:
            raise PostgresError(f"initdb failed: {done.stderr.strip() or done.stdout.strip()}")
        self.port = _free_ports(1)[0]
        command = [
            str(self.binaries / "postgres"), "-D", str(self.data), "-p", str(self.port), "-k", str(self.folder),
            "-c", f"listen_addresses={LOOPBACK}", "-c", "fsync=off", "-c", "synchronous_commit=off",
            "-c", "full_page_writes=off", "-c", "max_connections=200", "-c", "shared_buffers=32MB",
        ]
        setpriv = shutil.which("setpriv")
        if setpriv:  # the server ends with pytest even if pytest is killed
            command = [setpriv, "--pdeathsig", "TERM", *command]
        with open(self.log_path, "wb") as log:
            self._process = subprocess.Popen(
                command, stdin=subprocess.DEVNULL, stdout=log, stderr=log, start_new_session=True, close_fds=True,
                **self._run_as(),  # type: ignore[call-overload]
            )
        self._await_ready()
        return self

    def _await_ready(self) -> None:
        import psycopg

        deadline = time.monotonic() + self.start_timeout
        last: object = None
        while time.monotonic() < deadline:
            if self._process is not None and self._process.poll() is not None:
                raise PostgresError(f"postgres exited with {self._process.returncode}: {self.diagnostics()}")
            try:
                psycopg.connect(self.url("postgres"), connect_timeout=2).close()
                return
            except psycopg.Error as error:
                last = error
                time.sleep(0.2)
        raise PostgresError(f"postgres did not accept connections within {self.start_timeout}s: {last}")

    def diagnostics(self) -> str:
        """The end of the server's log."""
        try:
            return self.log_path.read_text(encoding="utf-8", errors="replace")[-3000:]
        except OSError:
            return "(no log)"

    def url(self, database: str) -> str:
        """The URL of a database on this server."""
        return f"postgresql://{SUPERUSER}@{LOOPBACK}:{self.port}/{database}"

    def new_database(self, prefix: str = "t") -> str:
        """Create a fresh, empty database and return its URL."""
        import psycopg

        name = f"{prefix}_{os.getpid()}_{next(self._names)}"
        with psycopg.connect(self.url("postgres"), autocommit=True) as db:
            db.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def stop(self) -> None:
        """Stop the server (fast shutdown: SIGINT) and wait for it."""
        if self._process is not None and self._process.poll() is None:
            self._process.send_signal(signal.SIGINT)
            try:
                self._process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait(timeout=10)
        self._process = None

    def cleanup(self) -> None:
        """Remove the data folder."""
        shutil.rmtree(self.folder, ignore_errors=True)
