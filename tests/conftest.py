"""Shared fixtures.

Mail: `mail_server` is one real Dovecot (IMAP, LMTP) plus an SMTP front on
loopback for the whole session (see tests/mailserver.py); `mail_users`
makes fresh mailboxes for one test.  Without the dovecot binary the mail
tests are skipped on a developer's machine but fail in CI (CI set), so the
end-to-end tests are never lost silently.

Databases: `postgres_server` is one private PostgreSQL server for the whole
session (see tests/postgres.py); `database_target` is a fresh, empty
database of each backend in turn (an SQLite file path, then a PostgreSQL
URL), so a test that takes it runs against both.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from tests.mailserver import MailServer, MailUser
    from tests.postgres import PostgresServer


@pytest.fixture(scope="session")
def postgres_server(request: pytest.FixtureRequest) -> Iterator[PostgresServer]:
    from tests.postgres import PostgresServer, require_postgres

    server = PostgresServer(require_postgres())
    try:
        server.start()
        yield server
    finally:
        server.stop()
        if request.session.testsfailed:
            print(f"postgres_server: the data folder and log are kept in {server.folder}")
        else:
            server.cleanup()


BACKENDS = ("sqlite", "postgresql")


@pytest.fixture(params=BACKENDS)
def database_target(request: pytest.FixtureRequest, tmp_path: Path) -> Path | str:
    """A fresh database: an SQLite file (not yet created), then a PostgreSQL URL."""
    if request.param == "sqlite":
        return tmp_path / "var" / "judge.sqlite3"
    server: PostgresServer = request.getfixturevalue("postgres_server")
    return server.new_database()


@pytest.fixture(scope="session")
def mail_server(request: pytest.FixtureRequest) -> Iterator[MailServer]:
    from tests.mailserver import MailServer, require_dovecot

    server = MailServer(dovecot=require_dovecot())
    try:
        server.start()
        yield server
    finally:
        server.stop()
        if request.session.testsfailed:
            note = f"mail_server: Dovecot's config and log are kept in {server.folder}"
            reporter = request.config.pluginmanager.get_plugin("terminalreporter")
            if reporter is not None:
                reporter.write_line(note)
            else:
                print(note)
        else:
            server.cleanup()


@pytest.fixture
def mail_users(mail_server: MailServer) -> Callable[..., MailUser]:
    """A factory of fresh mailboxes: ``alice = mail_users("alice")``."""

    def make(name: str = "player", password: str | None = None) -> MailUser:
        return mail_server.new_user(name, password)

    return make


@pytest.fixture
def scrypt_calls(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every scrypt the auth module runs, by its cost parameter n (the
    cache of verified passwords emptied first)."""
    from adjudicator.service import auth

    calls: list[int] = []
    real = hashlib.scrypt

    def counting(*args: object, **kwargs: object) -> bytes:
        calls.append(int(kwargs.get("n", 0)))  # type: ignore[call-overload]
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(auth.hashlib, "scrypt", counting)
    auth.forget_verified()
    return calls
