"""What the service benchmarks share: a judge folder with a config, games
whose seats are all taken, an SMTP sink on loopback that notes when each
mail arrives, and ``adjudicator serve`` run as a child process whose CPU
time and peak memory are read from /proc.

Nothing here is a mock of the judge: the judge is the real one, started as
an operator would start it; only the players' mailboxes are replaced by a
sink that accepts everything.  The judge measured is the installed package
when there is one (``pip install .``, whose rules core is compiled), else
the checkout's source; each script's first line says which.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
try:  # an installed judge first (``pip install .``: its rules core compiled), else the checkout's source
    import adjudicator
except ImportError:
    sys.path.insert(0, str(ROOT))
    import adjudicator

PACKAGE_HOME = Path(adjudicator.__file__).resolve().parent.parent
"""The folder the measured package was imported from; ``Serve`` starts the
judge from the same."""

from adjudicator.games.diplomacy.core.compiled import describe_core  # noqa: E402
from adjudicator.config import load_config  # noqa: E402
from adjudicator.games import game_module  # noqa: E402
from adjudicator.records import replace  # noqa: E402
from adjudicator.service.auth import hash_password  # noqa: E402
from adjudicator.service.store import Store  # noqa: E402
from adjudicator.service.turns import create_game, start_game  # noqa: E402

PASSWORD = "bench-password"


class _SinkSession(asyncio.Protocol):
    """One SMTP session of the sink: the commands a client sends are each
    answered with success, and a mail's data is taken as bytes up to the
    line with a single dot, found with one search per arrival of bytes
    (no line-by-line work: the benchmark measures the judge, not its peer;
    aiosmtpd's per-line Python costs about 7 ms of CPU per 83 KiB report)."""

    def __init__(self, note: Callable[[int], None]) -> None:
        self.note = note
        self.buffer = bytearray()
        self.in_data = False
        self.searched = 0
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        transport.write(b"220 sink.bench.test ESMTP\r\n")

    def data_received(self, data: bytes) -> None:
        assert self.transport is not None
        self.buffer += data
        while self.buffer:
            if self.in_data:
                if self.buffer.startswith(b".\r\n"):
                    end, content = 0, b""
                else:
                    found = self.buffer.find(b"\r\n.\r\n", self.searched)
                    if found < 0:
                        self.searched = max(0, len(self.buffer) - 4)
                        return
                    end, content = found + 2, bytes(self.buffer[:found + 2])
                del self.buffer[:end + 3]
                self.in_data, self.searched = False, 0
                stuffed = content.count(b"\r\n..") + content.startswith(b"..")
                self.note(len(content) - stuffed)
                self.transport.write(b"250 OK\r\n")
                continue
            line_end = self.buffer.find(b"\r\n")
            if line_end < 0:
                return
            verb = bytes(self.buffer[:4]).upper()
            del self.buffer[:line_end + 2]
            if verb == b"EHLO":
                self.transport.write(b"250-sink.bench.test\r\n250-8BITMIME\r\n250-SIZE 33554432\r\n"
                                     b"250 SMTPUTF8\r\n")
            elif verb == b"DATA":
                self.in_data = True
                self.transport.write(b"354 End data with <CR><LF>.<CR><LF>\r\n")
            elif verb == b"QUIT":
                self.transport.write(b"221 Bye\r\n")
                self.transport.close()
                return
            else:  # HELO, MAIL, RCPT, RSET, NOOP: all accepted
                self.transport.write(b"250 OK\r\n")


@dataclass
class Sink:
    """An SMTP server on loopback that accepts every mail and notes the
    time it arrived and its size (the mail's bytes as the client meant
    them, dot-stuffing undone), in a thread of its own; ``cpu_seconds``
    is that thread's CPU time, so a benchmark can say what its peer cost."""

    arrivals: list[tuple[float, int]] = field(default_factory=list)
    port: int = 0
    _loop: asyncio.AbstractEventLoop | None = None
    _thread: threading.Thread | None = None
    _cpu: float = 0.0
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def start(self) -> "Sink":
        """Listen on a free loopback port."""
        ready = threading.Event()

        def note(size: int) -> None:
            with self._lock:
                self.arrivals.append((time.time(), size))
                self._cpu = time.thread_time()

        def serve() -> None:
            loop = asyncio.new_event_loop()
            self._loop = loop
            server = loop.run_until_complete(
                loop.create_server(lambda: _SinkSession(note), "127.0.0.1", 0))
            self.port = server.sockets[0].getsockname()[1]
            ready.set()
            try:
                loop.run_forever()
            finally:
                server.close()
                loop.run_until_complete(server.wait_closed())
                loop.close()

        self._thread = threading.Thread(target=serve, name="smtp-sink", daemon=True)
        self._thread.start()
        ready.wait(10)
        return self

    def stop(self) -> None:
        """Stop listening."""
        if self._loop is not None and self._thread is not None:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(10)

    def count(self) -> int:
        """Mails received so far."""
        with self._lock:
            return len(self.arrivals)

    def cpu_seconds(self) -> float:
        """CPU seconds the sink's thread had used when the last mail arrived."""
        with self._lock:
            return self._cpu

    def times(self) -> list[float]:
        """Arrival times, in order."""
        with self._lock:
            return sorted(t for t, _ in self.arrivals)

    def sizes(self) -> list[int]:
        """Sizes of the mails received, in bytes."""
        with self._lock:
            return [s for _, s in self.arrivals]


def write_config(folder: Path, smtp_port: int, mailbox: str, *, poll: float = 1.0, database_url: str = "") -> Path:
    """A config file for a judge in ``folder``: SQLite there (or the
    PostgreSQL database ``database_url``), mail out to the sink, mail in
    from ``mailbox`` (a TOML [mailbox] body)."""
    path = folder / "judge.toml"
    path.write_text(
        f"""[judge]
address = "judge@bench.test"
language = "en"
time_zone = "UTC"

[mailbox]
{mailbox}

[smtp]
kind = "smtp"
host = "127.0.0.1"
port = {smtp_port}
tls = "none"

[service]
poll_interval = {poll}
retry_base = 5

[database]
path = "{folder / 'judge.sqlite3'}"
{f'url = "{database_url}"' if database_url else ""}
""",
        encoding="utf-8",
    )
    return path


def seat_games(config_path: Path, games: int, *, standard_share: float = 0.7,
               deadline: datetime | None = None, own_hashes: bool = False) -> dict[str, list[str]]:
    """Create ``games`` active games (``standard_share`` of them standard,
    the rest 30JK) with every seat taken by ``<game>-<n>@bench.test``, the
    same password for all, the start mails marked sent, and the deadline
    of every game at ``deadline`` when given.  The seats share one stored
    hash unless ``own_hashes`` (each its own salt, as real seats have: then
    the judge's memory of verified passwords helps each seat only from its
    second mail on).  Returns the seat addresses per game."""
    config = load_config(config_path)
    store = Store(config.store_target)
    now = datetime.now(timezone.utc)
    password_hash = hash_password(PASSWORD)
    seats: dict[str, list[str]] = {}
    standard = round(games * standard_share)
    for number in range(games):
        name = f"g{number}"
        variant = "standard" if number < standard else "30jk"
        with store.transaction() as db:
            game = create_game(store, config, name, variant, {}, now, seed=number, db=db)
            addresses = []
            for index, player in enumerate(store.players(name)):
                address = f"{name}-{index}@bench.test"
                store.update_player(db, replace(player, address=address,
                                                password_hash=hash_password(PASSWORD) if own_hashes else password_hash,
                                                status="playing", joined_at=now.isoformat()))
                addresses.append(address)
            started = start_game(store, db, config, game, now)
            if deadline is not None:
                store.update_game(db, replace(started, deadline=deadline.isoformat()))
        seats[name] = addresses
    for mail in store.unsent_mail():
        store.mark_sent(mail.id, now.isoformat())
    store.close()
    return seats


def powers_of(variant: str) -> tuple[str, ...]:
    """The powers of a variant, in seat order."""
    return game_module(variant).powers()


@dataclass
class Serve:
    """``adjudicator serve`` as a child process."""

    config: Path
    process: subprocess.Popen[bytes] | None = None
    log_name: str = "serve.log"

    def start(self) -> "Serve":
        """Start the judge."""
        env = {**os.environ, "PYTHONPATH": str(PACKAGE_HOME)}
        log = open(self.config.parent / self.log_name, "wb")
        self.process = subprocess.Popen([sys.executable, "-m", "adjudicator", "--config", str(self.config), "serve"],
                                        stdout=log, stderr=subprocess.STDOUT, cwd=self.config.parent, env=env)
        return self

    def cpu_seconds(self) -> float:
        """User plus system CPU time the judge and its worker processes
        (the running ones, and those it has waited for) have used so far."""
        assert self.process is not None
        ticks = os.sysconf("SC_CLK_TCK")
        total = 0
        for pid in [self.process.pid, *self.children()]:
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue  # it ended meanwhile
            total += sum(int(f) for f in fields[11:15]) if pid == self.process.pid else int(fields[11]) + int(fields[12])
        return total / ticks

    def own_cpu_seconds(self) -> float:
        """User plus system CPU time of the judge's own process so far."""
        assert self.process is not None
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def pause(self) -> None:
        """Stop the judge for a moment (SIGSTOP): mail put into its mailbox now waits for ``resume``."""
        assert self.process is not None
        self.process.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        """Let a paused judge go on (SIGCONT)."""
        assert self.process is not None
        self.process.send_signal(signal.SIGCONT)

    def pss_mib(self) -> float:
        """The proportional set size of the judge and its children together
        (shared pages counted once), in MiB: what they hold right now."""
        assert self.process is not None
        total = 0
        for pid in [self.process.pid, *self.children()]:
            try:
                for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
                    if line.startswith("Pss:"):
                        total += int(line.split()[1])
            except OSError:
                continue
        return total / 1024

    def children(self) -> list[int]:
        """The judge's running child processes (mail reader, resolution workers)."""
        assert self.process is not None
        found = []
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
                except (OSError, ValueError, IndexError):
                    continue
                if parent == self.process.pid:
                    found.append(int(entry.name))
        return found

    def peak_rss_mib(self, pid: int | None = None) -> float:
        """The peak resident memory (VmHWM) of the judge (or of its child ``pid``), in MiB."""
        assert self.process is not None
        try:
            lines = Path(f"/proc/{pid or self.process.pid}/status").read_text().splitlines()
        except OSError:
            return float("nan")
        for line in lines:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
        return float("nan")

    def peak_rss_all_mib(self) -> float:
        """The judge's peak resident memory plus each running child's, in MiB
        (an upper bound of what they held together)."""
        return self.peak_rss_mib() + sum(r for r in (self.peak_rss_mib(c) for c in self.children()) if r == r)

    def stop(self) -> None:
        """Stop the judge (SIGTERM, then SIGKILL)."""
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def wait_for(condition: Any, timeout: float, step: float = 0.05) -> bool:
    """Poll ``condition()`` until it is true or ``timeout`` seconds pass."""
    end = time.time() + timeout
    while time.time() < end:
        if condition():
            return True
        time.sleep(step)
    return bool(condition())


def new_folder(prefix: str) -> Path:
    """A fresh folder for one judge."""
    return Path(tempfile.mkdtemp(prefix=prefix))


def measured_judge() -> str:
    """One line for a benchmark's header: which judge it measures."""
    return f"judge measured: {PACKAGE_HOME / 'adjudicator'}, {describe_core()}"
