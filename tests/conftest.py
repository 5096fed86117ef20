"""Shared fixtures.

Mail: `mail_server` is one real Dovecot (IMAP, LMTP) plus an SMTP front on
loopback for the whole session (see tests/mailserver.py); `mail_users`
makes fresh mailboxes for one test.  Without the dovecot binary the mail
tests are skipped on a developer's machine but fail in CI (CI set), so the
end-to-end tests are never lost silently.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from tests.mailserver import MailServer, MailUser


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
