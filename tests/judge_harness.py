"""Running the real judge (`adjudicator serve`) against the test mail servers.

`RunningJudge` writes a configuration that points the judge at a Dovecot
mailbox over IMAP and at the SMTP front, with a short poll interval, and
runs `python -m adjudicator serve` as a child process, so tests can kill it
with SIGKILL and start it again on the same database.  `Player` sends mail
to the judge over SMTP and reads its own mailbox over IMAP.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path
from typing import Callable, TypeVar

from adjudicator.service.store import Store
from tests.mailserver import MailServer, MailUser

ROOT = Path(__file__).resolve().parent.parent
T = TypeVar("T")


def wait_until(condition: Callable[[], T], timeout: float = 30.0, what: str = "condition") -> T:
    """Poll ``condition`` until it returns something true; fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(0.1)


def text_of(message: EmailMessage) -> str:
    """The plain-text part of a judge mail."""
    part = message.get_body(preferencelist=("plain",))
    assert part is not None, "no text/plain part"
    return str(part.get_content())


@dataclass
class Player:
    """A player with a real mailbox."""

    server: MailServer
    user: MailUser
    judge_address: str
    power: str = ""
    password: str = ""
    sent: list[str] = field(default_factory=list)

    @property
    def address(self) -> str:
        return self.user.address

    def send(self, body: str, subject: str = "Befehle", lmtp: bool = False) -> str:
        """Mail ``body`` to the judge (through SMTP, or straight into the
        judge's mailbox over LMTP while SMTP is down); returns the Message-ID."""
        message = EmailMessage()
        message["From"] = self.user.address
        message["To"] = self.judge_address
        message["Subject"] = subject
        message["Message-ID"] = make_msgid(domain="players.test")
        message.set_content(body)
        if lmtp:
            self.server.deliver(self.user.address, [self.judge_address], bytes(message))
        else:
            self.server.send(self.user.address, self.judge_address, message)
        self.sent.append(str(message["Message-ID"]))
        return str(message["Message-ID"])

    def orders(self, game: str, *lines: str, lmtp: bool = False) -> str:
        """Sign on and send order lines (and commands)."""
        return self.send("\n".join([f"SIGNON {self.power} {game} {self.password}", *lines]) + "\n", lmtp=lmtp)

    def inbox(self) -> list[EmailMessage]:
        """Every mail in the player's INBOX, oldest first."""
        return self.server.fetch_all(self.user.address, self.user.password)

    def mails(self, kind: str) -> list[EmailMessage]:
        """The judge's mails of one kind (``:: Kind:`` line)."""
        return [m for m in self.inbox() if f":: Kind: {kind}" in text_of(m)]

    def wait_for(self, kind: str, count: int, timeout: float = 30.0) -> list[EmailMessage]:
        """Wait until the player holds ``count`` judge mails of ``kind``."""
        return wait_until(lambda: (lambda found: found if len(found) >= count else None)(self.mails(kind)),
                          timeout, f"{count} {kind} mail(s) for {self.address}")


class RunningJudge:
    """The judge as a child process over a real mailbox and SMTP server."""

    def __init__(self, server: MailServer, folder: Path, *, language: str = "en", poll: float = 0.2,
                 retry_base: float = 0.5, admin: tuple[str, str] | None = None, database_url: str = "",
                 lease: str = "5m") -> None:
        self.server = server
        self.folder = folder
        self.account = server.new_user("judge")
        self.address = self.account.address
        self.config = folder / "judge.toml"
        self.log = folder / "judge.log"
        self.database_url = database_url
        self.config.write_text(
            "\n".join([
                "[judge]", f'address = "{self.address}"', 'name = "Testrichter"', f'language = "{language}"',
                'time_zone = "Europe/Berlin"',
                *([f'admin = "{admin[0]}"', f'admin_password = "{admin[1]}"'] if admin else []),
                "[mailbox]", 'kind = "imap"', f'host = "{server.imap_host}"', f"port = {server.imap_port}",
                'tls = "none"', f'user = "{self.account.address}"', 'password_env = "TEST_JUDGE_IMAP_PASSWORD"',
                "[smtp]", 'kind = "smtp"', f'host = "{server.smtp_host}"', f"port = {server.smtp_port}",
                'tls = "none"',
                "[service]", f"poll_interval = {poll}", f"retry_base = {retry_base}", f'lease = "{lease}"',
                "[database]", 'path = "judge.sqlite3"', *([f'url = "{database_url}"'] if database_url else []),
            ]) + "\n",
            encoding="utf-8",
        )
        self.process: subprocess.Popen[bytes] | None = None

    def _env(self, extra: dict[str, str] | None) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k != "ADJUDICATOR_CRASH_AT"}
        env["TEST_JUDGE_IMAP_PASSWORD"] = self.account.password
        env["PYTHONPATH"] = str(ROOT)
        env.update(extra or {})
        return env

    def cli(self, *args: str) -> subprocess.CompletedProcess[str]:
        """Run an operator command against the judge's configuration."""
        return subprocess.run([sys.executable, "-m", "adjudicator", "--config", str(self.config), *args],
                              capture_output=True, text=True, cwd=self.folder, env=self._env(None), timeout=120)

    def receive(self, raw: bytes) -> subprocess.CompletedProcess[bytes]:
        """Pipe one mail into ``adjudicator receive`` (as procmail would)."""
        return subprocess.run([sys.executable, "-m", "adjudicator", "--config", str(self.config), "receive"],
                              input=raw, capture_output=True, cwd=self.folder, env=self._env(None), timeout=120)

    def start(self, crash_at: str | None = None) -> None:
        """Start ``adjudicator serve`` (with a crash point when given)."""
        self.process = self.spawn(self.log, crash_at)

    def spawn(self, log_path: Path, crash_at: str | None = None) -> subprocess.Popen[bytes]:
        """One more ``adjudicator serve`` on this configuration, logging to ``log_path``."""
        extra = {"ADJUDICATOR_CRASH_AT": crash_at} if crash_at else None
        with open(log_path, "ab") as log:
            return subprocess.Popen(
                [sys.executable, "-m", "adjudicator", "--config", str(self.config), "serve"],
                stdout=log, stderr=log, cwd=self.folder, env=self._env(extra),
            )

    def wait_exit(self, timeout: float = 30.0) -> int:
        """Wait for the judge to end by itself (a crash point); its exit status."""
        assert self.process is not None
        return self.process.wait(timeout=timeout)

    def stop(self) -> None:
        """Stop the judge gracefully (SIGTERM): it finishes its sending round
        and sends once more (killing it then could send a mail twice, S10,
        so it gets as long as the sender thread may take)."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=90)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def wait_sent(self, timeout: float = 90.0) -> None:
        """Wait until the SMTP server has accepted every mail the judge queued."""
        wait_until(lambda: self.cli("outbox", "--json").stdout.strip() == "[]", timeout, "an empty outbox")

    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def store(self) -> Store:
        """A fresh connection to the judge's database (for reading)."""
        return Store(self.database_url or self.folder / "judge.sqlite3")

    def player(self, name: str, power: str = "", password: str = "") -> Player:
        return Player(self.server, self.server.new_user(name), self.address, power, password)

    def log_text(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace") if self.log.exists() else ""
