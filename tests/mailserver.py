"""Real mail servers on loopback for the end-to-end tests.

`MailServer` runs, inside one temporary folder:

- Dovecot (the Debian packages ``dovecot-imapd`` and ``dovecot-lmtpd``) on
  a private configuration: IMAP and LMTP on free loopback ports, plain
  passwords, Maildir storage, a log file, nothing else;
- an SMTP front (``aiosmtpd``) on a free loopback port that hands every
  message over LMTP to Dovecot and answers ``250`` only once Dovecot has
  stored it, so a message sent with ``smtplib`` is in the recipient's INBOX
  when ``sendmail`` returns: tests need no polling.

Users exist only when a test adds them (`add_user`, `new_user`); the SMTP
front refuses any other recipient with ``550``.  It also offers AUTH PLAIN
and LOGIN without TLS against the same users, but never requires it.

The class installs nothing: the README's test command installs the Debian
packages, and the project's test extras install ``aiosmtpd``.  Dovecot must
be started as root (it drops to its own users); mail is stored as the
system user ``vmail``, created with ``useradd`` when it is missing.
"""

from __future__ import annotations

import asyncio
import email
import email.policy
import os
import pwd
import re
import secrets
import shutil
import signal
import smtplib
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path
from types import TracebackType
from typing import Any

LOOPBACK = "127.0.0.1"
DEFAULT_DOMAIN = "pbem.test"
MAIL_USER = "vmail"

_ADDRESS = re.compile(r"^[a-z0-9._+-]+@[a-z0-9.-]+$")


class MailServerError(RuntimeError):
    """The mail servers could not be started or did not answer as expected."""


@dataclass(frozen=True)
class MailUser:
    """A mailbox: its address is both the IMAP login and the mail address."""

    address: str
    password: str


def find_dovecot() -> str | None:
    """The dovecot binary, also where /usr/sbin is not on PATH."""
    return shutil.which("dovecot") or shutil.which("dovecot", path="/usr/sbin:/usr/local/sbin")


def require_dovecot() -> str:
    """The dovecot binary; without it a test skips on a developer's machine
    but fails where the environment variable CI is set, so that CI never
    loses the mail tests silently."""
    import pytest

    binary = find_dovecot()
    if binary is None:
        message = ("dovecot is not installed: apt-get install -y dovecot-imapd dovecot-lmtpd "
                   "(the README's test command does)")
        if os.environ.get("CI"):
            pytest.fail(message + "; CI must run the mail tests", pytrace=False)
        pytest.skip(message)
    return binary


def dovecot_version(binary: str) -> tuple[int, int, int]:
    out = subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=10).stdout
    match = re.match(r"\s*(\d+)\.(\d+)(?:\.(\d+))?", out)
    if not match:
        raise MailServerError(f"cannot read the version of {binary}: {out!r}")
    return int(match[1]), int(match[2]), int(match[3] or 0)


def _free_ports(count: int) -> list[int]:
    """Distinct free loopback ports (the sockets are held until all are found)."""
    sockets = []
    try:
        for _ in range(count):
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.bind((LOOPBACK, 0))
            sockets.append(s)
        return [s.getsockname()[1] for s in sockets]
    finally:
        for s in sockets:
            s.close()


def _ensure_system_user(name: str) -> pwd.struct_passwd:
    try:
        return pwd.getpwnam(name)
    except KeyError:
        pass
    useradd = shutil.which("useradd") or shutil.which("useradd", path="/usr/sbin:/sbin")
    if useradd is None:
        raise MailServerError(f"the system user {name!r} is missing and useradd was not found")
    done = subprocess.run(
        [useradd, "--system", "--user-group", "--no-create-home",
         "--home-dir", "/nonexistent", "--shell", "/usr/sbin/nologin", name],
        capture_output=True, text=True, timeout=30,
    )
    try:
        return pwd.getpwnam(name)
    except KeyError:
        raise MailServerError(f"could not create the system user {name!r}: {done.stderr.strip()}") from None


def _config_23(s: MailServer, uid: int) -> str:
    """Dovecot 2.3 (Debian 12)."""
    return f"""\
# Written by tests/mailserver.py for one test session.
base_dir = {s.folder}/run
state_dir = {s.folder}/state
instance_name = adjudicator-test-{os.getpid()}
protocols = imap lmtp
listen = {LOOPBACK}
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
auth_failure_delay = 0
log_path = {s.log_path}
info_log_path = {s.log_path}
mail_location = maildir:~/Maildir
first_valid_uid = {uid}
last_valid_uid = {uid}
mail_max_userip_connections = 100
# Dovecot 2.3 queues failed logins for a 0.5 s timer even with
# auth_failure_delay = 0; only the extra field nodelay answers them at once,
# and a failing passdb drops its own fields: so this first passdb sets
# nodelay, authenticates nobody (noauthenticate) and passes on.
passdb {{
  driver = static
  args = nopassword=y noauthenticate=y nodelay=y
}}
# One passwd-file per user: a single shared file is re-read at most once a
# second, so a user added right after another login would stay unknown.
passdb {{
  driver = passwd-file
  args = scheme=PLAIN {s.folder}/passwd.d/%u
}}
userdb {{
  driver = static
  args = uid={MAIL_USER} gid={MAIL_USER} home={s.folder}/mail/%u
}}
service imap-login {{
  inet_listener imap {{
    port = {s.imap_port}
  }}
  inet_listener imaps {{
    port = 0
  }}
}}
service lmtp {{
  inet_listener lmtp {{
    port = {s.lmtp_port}
  }}
}}
# All logins come from 127.0.0.1: without this, failed logins slow down the
# following good ones by seconds.
service anvil {{
  unix_listener anvil-auth-penalty {{
    mode = 0
  }}
}}
"""


class _Delivery(Exception):
    def __init__(self, reply: str) -> None:
        super().__init__(reply)
        self.reply = reply


class _LmtpRelay:
    """aiosmtpd handler: accepts known users only, delivers over LMTP."""

    def __init__(self, server: MailServer) -> None:
        self.server = server

    async def handle_RCPT(
        self, server: Any, session: Any, envelope: Any, address: str, rcpt_options: list[str]
    ) -> str:
        if not self.server.has_user(address):
            return f"550 5.1.1 <{address}>: no such user here"
        envelope.rcpt_tos.append(address)
        envelope.rcpt_options.extend(rcpt_options)
        return "250 2.1.5 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        content = envelope.original_content or envelope.content
        if isinstance(content, str):
            content = content.encode("utf-8", "surrogateescape")
        loop = asyncio.get_running_loop()
        try:
            await loop.run_in_executor(
                None, self.server.deliver, envelope.mail_from, list(envelope.rcpt_tos),
                content, list(envelope.mail_options),
            )
        except _Delivery as failed:
            return failed.reply
        except (OSError, smtplib.SMTPException) as error:
            return f"451 4.3.0 LMTP delivery failed: {error}"
        return "250 2.0.0 delivered"


class MailServer:
    """Dovecot (IMAP, LMTP) and an SMTP front on loopback; see the module doc."""

    def __init__(
        self,
        *,
        domain: str = DEFAULT_DOMAIN,
        dovecot: str | None = None,
        start_timeout: float = 10.0,
    ) -> None:
        self.domain = domain
        self.dovecot = dovecot or find_dovecot()
        self.start_timeout = start_timeout
        # Dovecot's sockets live below it: keep the path short (108 bytes at most).
        parent = tempfile.gettempdir() if len(tempfile.gettempdir()) <= 40 else "/tmp"
        self.folder = Path(tempfile.mkdtemp(prefix="adj-mail-", dir=parent))
        self.log_path = self.folder / "dovecot.log"
        self.stderr_path = self.folder / "dovecot.stderr"
        self.smtp_host = self.imap_host = self.lmtp_host = LOOPBACK
        self.smtp_port = self.imap_port = self.lmtp_port = 0
        self.version: tuple[int, int, int] | None = None
        self._users: dict[str, str] = {}
        self._lock = threading.Lock()
        self._counter = 0
        self._process: subprocess.Popen[bytes] | None = None
        self._controller: Any = None

    # ----------------------------------------------------------------- life

    def __enter__(self) -> MailServer:
        return self.start()

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def start(self) -> MailServer:
        if self.dovecot is None:
            raise MailServerError("dovecot is not installed (apt-get install dovecot-imapd dovecot-lmtpd)")
        if os.geteuid() != 0:
            raise MailServerError("Dovecot must be started as root here (it drops to its own users)")
        try:
            self._start_dovecot()
            self._start_smtp()
        except BaseException:
            self.stop()
            raise
        return self

    def _start_dovecot(self) -> None:
        assert self.dovecot is not None
        self.version = dovecot_version(self.dovecot)
        vmail = _ensure_system_user(MAIL_USER)
        os.chmod(self.folder, 0o755)  # Dovecot's own users must reach the files below
        shutil.rmtree(self.folder / "run", ignore_errors=True)
        for sub in ("state", "passwd.d", "mail"):
            (self.folder / sub).mkdir(exist_ok=True)
        os.chown(self.folder / "mail", vmail.pw_uid, vmail.pw_gid)
        os.chmod(self.folder / "mail", 0o700)
        if not self.imap_port:  # a restart keeps the ports
            self.imap_port, self.lmtp_port, self.smtp_port = _free_ports(3)
        if self.version[:2] != (2, 3):
            raise MailServerError(
                f"Dovecot {'.'.join(map(str, self.version))} is not supported by this fixture; "
                "its private configuration is written and tested for Dovecot 2.3 (Debian 12)"
            )
        make = _config_23
        config = self.folder / "dovecot.conf"
        config.write_text(make(self, vmail.pw_uid), encoding="utf-8")
        self.log_path.write_bytes(b"")

        command = [self.dovecot, "-F", "-c", str(config)]
        setpriv = shutil.which("setpriv")
        if setpriv:
            # Dovecot gets SIGTERM when the thread that started it ends, so it
            # ends with pytest even if pytest is killed.  Start it from the
            # main thread (as pytest fixtures are), not from a passing thread.
            command = [setpriv, "--pdeathsig", "TERM", *command]
        with open(self.stderr_path, "wb") as stderr:
            self._process = subprocess.Popen(
                command, stdin=subprocess.DEVNULL, stdout=stderr, stderr=stderr,
                start_new_session=True, close_fds=True,
            )
        deadline = time.monotonic() + self.start_timeout
        for port, greeting in ((self.imap_port, b"* OK"), (self.lmtp_port, b"220")):
            self._await_greeting(port, greeting, deadline)

    def _await_greeting(self, port: int, greeting: bytes, deadline: float) -> None:
        last: object = None
        while time.monotonic() < deadline:
            if self._process is not None and self._process.poll() is not None:
                raise MailServerError(f"dovecot exited with {self._process.returncode} at start-up"
                                      + self.diagnostics())
            try:
                with socket.create_connection((LOOPBACK, port), timeout=1.0) as s:
                    line = s.makefile("rb").readline()
                if line.startswith(greeting):
                    return
                last = line
            except OSError as error:
                last = error
            time.sleep(0.02)
        raise MailServerError(f"dovecot did not answer on {LOOPBACK}:{port} within "
                              f"{self.start_timeout} s (last: {last!r})" + self.diagnostics())

    def _start_smtp(self) -> None:
        from aiosmtpd.controller import Controller

        self._controller = Controller(
            _LmtpRelay(self), hostname=LOOPBACK, port=self.smtp_port,
            server_hostname=f"smtp.{self.domain}", ready_timeout=self.start_timeout,
            enable_SMTPUTF8=True, authenticator=self._authenticate,
            auth_require_tls=False, auth_required=False,
        )
        self._controller.start()

    def stop_smtp(self) -> None:
        """Stop only the SMTP front (an SMTP outage while IMAP keeps running);
        `start_smtp` brings it back on the same port."""
        controller, self._controller = self._controller, None
        if controller is not None:
            controller.stop(no_assert=True)

    def start_smtp(self) -> None:
        """Start the SMTP front again after `stop_smtp`."""
        if self._controller is None:
            self._start_smtp()

    def stop(self) -> None:
        """Stop the SMTP thread and Dovecot; safe to call more than once.

        `start` may be called again afterwards: the ports, the users and
        their mail stay (a test can simulate a mail server outage)."""
        controller, self._controller = self._controller, None
        if controller is not None:
            try:
                controller.stop(no_assert=True)
            finally:
                loop = getattr(controller, "loop", None)
                if loop is not None and not loop.is_running() and not loop.is_closed():
                    loop.close()
        process, self._process = self._process, None
        if process is not None:
            # SIGTERM to the whole process group ends Dovecot at once; to its
            # master alone it takes a second.  Its log then holds a few
            # "Killed with signal 15" warnings, no errors.
            self._signal_group(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
            if not self._group_gone(process.pid, 2.0):
                self._signal_group(process.pid, signal.SIGKILL)
                self._group_gone(process.pid, 5.0)
            process.wait(timeout=5)

    @staticmethod
    def _signal_group(pgid: int, sig: int) -> None:
        try:
            os.killpg(pgid, sig)
        except (ProcessLookupError, PermissionError):
            pass

    @staticmethod
    def _group_alive(pgid: int) -> bool:
        """Whether a process of the group still runs (zombies waiting for
        init to reap them do not count)."""
        proc = Path("/proc")
        if not proc.is_dir():
            try:
                os.killpg(pgid, 0)
            except ProcessLookupError:
                return False
            return True
        for stat in proc.glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except (OSError, IndexError):
                continue
            if int(fields[2]) == pgid and fields[0] not in ("Z", "X"):
                return True
        return False

    @classmethod
    def _group_gone(cls, pgid: int, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while cls._group_alive(pgid):
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.01)
        return True

    def cleanup(self) -> None:
        """Remove the temporary folder (after `stop`)."""
        shutil.rmtree(self.folder, ignore_errors=True)

    # ---------------------------------------------------------- diagnostics

    def log_tail(self, lines: int = 40) -> str:
        parts = []
        for path in (self.stderr_path, self.log_path):
            try:
                text = path.read_text(encoding="utf-8", errors="replace")
            except OSError:
                continue
            if text.strip():
                parts.append(f"--- {path} (last {lines} lines) ---\n"
                             + "\n".join(text.splitlines()[-lines:]))
        return "\n".join(parts)

    def diagnostics(self) -> str:
        tail = self.log_tail()
        return "\n" + tail if tail else f"\n(no Dovecot output in {self.folder})"

    def log_errors(self) -> list[str]:
        """Dovecot log lines of level Error, Fatal or Panic."""
        try:
            text = self.log_path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return []
        return [line for line in text.splitlines() if re.search(r"\b(Error|Fatal|Panic):", line)]

    # ---------------------------------------------------------------- users

    def add_user(self, address: str, password: str) -> MailUser:
        """Create a mailbox (idempotent for the same password)."""
        key = address.strip().lower()
        if not _ADDRESS.match(key):
            raise ValueError(f"not a plain test address: {address!r}")
        if not password or any(c in password for c in ":\r\n\0"):
            raise ValueError("a test password must be non-empty and hold no ':' nor line breaks")
        with self._lock:
            known = self._users.get(key)
            if known is not None and known != password:
                # Dovecot re-reads a passwd-file at most once a second.
                raise ValueError(f"{key} exists already with another password")
            if known is None:
                path = self.folder / "passwd.d" / key
                path.write_text(f"{key}:{{PLAIN}}{password}::::::\n", encoding="utf-8")
                path.chmod(0o644)
                self._users[key] = password
        return MailUser(key, password)

    def new_user(self, name: str = "player", password: str | None = None) -> MailUser:
        """A fresh mailbox with a unique address like ``name-3-1a2b3c@pbem.test``."""
        with self._lock:
            self._counter += 1
            number = self._counter
        local = re.sub(r"[^a-z0-9._+-]", "-", name.lower()) or "user"
        address = f"{local}-{number}-{secrets.token_hex(3)}@{self.domain}"
        return self.add_user(address, password or secrets.token_urlsafe(12))

    def has_user(self, address: str) -> bool:
        with self._lock:
            return address.strip().lower() in self._users

    @property
    def users(self) -> dict[str, str]:
        with self._lock:
            return dict(self._users)

    def _authenticate(self, server: Any, session: Any, envelope: Any, mechanism: str, auth_data: Any) -> Any:
        from aiosmtpd.smtp import AuthResult, LoginPassword

        if isinstance(auth_data, LoginPassword):
            login = auth_data.login.decode("utf-8", "replace").lower()
            password = auth_data.password.decode("utf-8", "replace")
            with self._lock:
                if self._users.get(login) == password:
                    return AuthResult(success=True, auth_data=login)
        # handled=False: aiosmtpd answers 535 itself (handled=True would leave the client waiting).
        return AuthResult(success=False, handled=False)

    # ------------------------------------------------------------- delivery

    def deliver(
        self, sender: str, recipients: Sequence[str], content: bytes, mail_options: Iterable[str] = ()
    ) -> None:
        """Hand one message to Dovecot over LMTP; raises unless every recipient got it."""
        with smtplib.LMTP(self.lmtp_host, self.lmtp_port, local_hostname=f"smtp.{self.domain}",
                          timeout=30) as lmtp:
            lmtp.ehlo()  # LHLO
            options = []
            for option in mail_options:
                keyword = option.split("=", 1)[0].lower()
                if keyword in ("body", "smtputf8") and lmtp.has_extn(
                    "8bitmime" if keyword == "body" else keyword
                ):
                    options.append(option)
            code, reply = lmtp.mail(sender, options)
            if code != 250:
                raise _Delivery(f"451 4.3.0 LMTP MAIL FROM refused: {code} {reply!r}")
            accepted = []
            failed = {}
            for recipient in recipients:
                code, reply = lmtp.rcpt(recipient)
                if code in (250, 251):
                    accepted.append(recipient)
                else:
                    failed[recipient] = (code, reply)
            if accepted:
                # LMTP answers the message once per accepted recipient.
                code, reply = lmtp.data(content)
                replies = [(code, reply)] + [lmtp.getreply() for _ in accepted[1:]]
                for recipient, (code, reply) in zip(accepted, replies):
                    if code != 250:
                        failed[recipient] = (code, reply)
        if failed:
            permanent = all(code >= 500 for code, _ in failed.values())
            detail = "; ".join(f"{r}: {c} {t.decode('utf-8', 'replace')}" for r, (c, t) in failed.items())
            raise _Delivery(("554 5.0.0" if permanent else "451 4.3.0") + f" LMTP delivery failed: {detail}")

    def send(
        self, sender: str, recipients: str | Sequence[str], message: bytes | str | EmailMessage
    ) -> dict[str, tuple[int, bytes]]:
        """Send through the SMTP front; returns smtplib's dict of refused recipients."""
        if isinstance(message, EmailMessage):
            data: bytes | str = message.as_bytes(policy=email.policy.SMTP)
        else:
            data = message
        to = [recipients] if isinstance(recipients, str) else list(recipients)
        with smtplib.SMTP(self.smtp_host, self.smtp_port, timeout=30) as smtp:
            return smtp.sendmail(sender, to, data)

    # ------------------------------------------------------------- reading

    def imap(self, address: str, password: str) -> Any:
        """A logged-in `imapclient.IMAPClient`; use it as a context manager."""
        from imapclient import IMAPClient  # type: ignore[import-untyped]

        client = IMAPClient(self.imap_host, port=self.imap_port, ssl=False, timeout=30)
        try:
            client.login(address, password)
        except BaseException:
            client.shutdown()
            raise
        return client

    def fetch_raw(self, address: str, password: str, folder: str = "INBOX") -> list[bytes]:
        """Every message in the folder, oldest first, as IMAP sends it (CRLF line ends)."""
        with self.imap(address, password) as client:
            client.select_folder(folder, readonly=True)
            uids = client.search("ALL")
            if not uids:
                return []
            fetched = client.fetch(uids, ["BODY.PEEK[]"])
        return [fetched[uid][b"BODY[]"] for uid in sorted(fetched)]

    def fetch_all(self, address: str, password: str, folder: str = "INBOX") -> list[EmailMessage]:
        """Every message in the folder, oldest first, parsed with the default policy.

        Line ends are made "\n" first (IMAP sends CRLF, and the email package
        would keep the "\r" in 7bit and 8bit text), so ``get_content()`` of a
        text part equals the text that was sent with ``set_content``.
        """
        messages = []
        for raw in self.fetch_raw(address, password, folder):
            message = email.message_from_bytes(raw.replace(b"\r\n", b"\n"), policy=email.policy.default)
            assert isinstance(message, EmailMessage)
            messages.append(message)
        return messages

    def wait_for(
        self, address: str, password: str, count: int = 1, timeout: float = 5.0, folder: str = "INBOX"
    ) -> list[EmailMessage]:
        """The folder's messages once there are at least `count` of them."""
        deadline = time.monotonic() + timeout
        while True:
            messages = self.fetch_all(address, password, folder)
            if len(messages) >= count:
                return messages
            if time.monotonic() >= deadline:
                raise TimeoutError(f"{address} has {len(messages)} message(s) in {folder}, "
                                   f"expected {count} within {timeout} s" + self.diagnostics())
            time.sleep(0.05)
