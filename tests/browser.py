"""A real headless Chromium for tests, driven over the DevTools protocol.

Chromium is started with ``--remote-debugging-pipe``: it reads protocol
commands (JSON, each ended by a NUL byte) from file descriptor 3 and
writes answers and events to descriptor 4.  Only the standard library is
used, no network and no port: a page is opened in a fresh tab, and
everything the page reports (uncaught exceptions, ``console.error`` and
``console.assert``, and browser log entries of level ``error`` such as a
picture or style sheet that failed to load) is collected.

Without Chromium a test skips on a developer's machine but fails where
the environment variable CI is set (as ``require_dovecot`` does), so CI
never loses the browser tests silently.
"""

from __future__ import annotations

import fcntl
import json
import os
import select
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

BINARIES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def find_chromium() -> str | None:
    """The path of a Chromium binary on PATH, or None."""
    for name in BINARIES:
        path = shutil.which(name)
        if path:
            return path
    return None


def require_chromium() -> str:
    """The Chromium binary; without one the test skips, or fails under CI."""
    import pytest

    binary = find_chromium()
    if binary is None:
        message = "chromium is not installed: apt-get install -y chromium (the README's test command does)"
        if os.environ.get("CI"):
            pytest.fail(message + "; CI must run the browser tests", pytrace=False)
        pytest.skip(message)
    return binary


def _above_four(fd: int) -> int:
    """``fd`` moved to a descriptor number above 4 (close-on-exec)."""
    moved = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10)
    os.close(fd)
    return moved


class BrowserError(RuntimeError):
    """Chromium did not answer as expected."""


@dataclass
class PageReport:
    """What a page did when it was loaded: its problems (one line each),
    the ``href`` of every link, and how many of its pictures loaded."""

    url: str
    problems: list[str] = field(default_factory=list)
    links: list[str] = field(default_factory=list)
    images: int = 0
    images_loaded: int = 0
    title: str = ""


class Browser:
    """One headless Chromium process; use as a context manager."""

    def __init__(self, binary: str, timeout: float = 30.0) -> None:
        self.binary = binary
        self.timeout = timeout
        self._next_id = 0
        self._buffer = b""
        self._events: list[dict[str, Any]] = []
        self._profile = tempfile.TemporaryDirectory(prefix="adjudicator-chromium-")
        commands_read, self._commands = os.pipe()
        self._answers, answers_write = os.pipe()
        # Keep the child's ends above 4, so that moving them to 3 and 4
        # cannot overwrite one with the other.
        commands_read = _above_four(commands_read)
        answers_write = _above_four(answers_write)

        def wire() -> None:  # in the child: the protocol's descriptors 3 and 4
            os.dup2(commands_read, 3)  # dup2 leaves the copy inheritable
            os.dup2(answers_write, 4)

        self.process = subprocess.Popen(
            [
                binary, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--remote-debugging-pipe", "--no-first-run", "--no-default-browser-check",
                "--disable-background-networking", "--disable-extensions", "--disable-sync",
                f"--user-data-dir={self._profile.name}", "about:blank",
            ],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            # Descriptors 3 and 4 are made by dup2 in the child, after the
            # point where close_fds would close them; every other descriptor
            # of this process is close-on-exec (Python's default).
            preexec_fn=wire, close_fds=False,
        )
        os.close(commands_read)
        os.close(answers_write)

    def __enter__(self) -> "Browser":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Ask Chromium to quit; kill it if it does not."""
        try:
            self._send("Browser.close")
        except (BrowserError, OSError):
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)
        for fd in (self._commands, self._answers):
            try:
                os.close(fd)
            except OSError:
                pass
        self._profile.cleanup()

    # --- the protocol --------------------------------------------------------

    def _send(self, method: str, params: dict[str, Any] | None = None, session: str | None = None) -> int:
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params or {}}
        if session is not None:
            message["sessionId"] = session
        data = json.dumps(message).encode("utf-8") + b"\0"
        while data:
            written = os.write(self._commands, data)
            data = data[written:]
        return self._next_id

    def _receive(self, deadline: float) -> dict[str, Any] | None:
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            ready, _, _ = select.select([self._answers], [], [], left)
            if not ready:
                return None
            chunk = os.read(self._answers, 1 << 16)
            if not chunk:
                raise BrowserError(f"chromium closed the protocol pipe (exit {self.process.poll()})")
            self._buffer += chunk
        raw, _, self._buffer = self._buffer.partition(b"\0")
        message: dict[str, Any] = json.loads(raw)
        return message

    def call(self, method: str, params: dict[str, Any] | None = None, session: str | None = None) -> dict[str, Any]:
        """Send a command and wait for its answer (events seen meanwhile are kept)."""
        wanted = self._send(method, params, session)
        deadline = time.monotonic() + self.timeout
        while True:
            message = self._receive(deadline)
            if message is None:
                raise BrowserError(f"no answer to {method} within {self.timeout} s")
            if message.get("id") == wanted:
                if "error" in message:
                    raise BrowserError(f"{method}: {message['error']}")
                result: dict[str, Any] = message.get("result", {})
                return result
            if "method" in message:
                self._events.append(message)

    def _wait_for(self, method: str, session: str) -> None:
        deadline = time.monotonic() + self.timeout
        while True:
            for event in self._events:
                if event.get("method") == method and event.get("sessionId") == session:
                    return
            message = self._receive(deadline)
            if message is None:
                raise BrowserError(f"no {method} within {self.timeout} s")
            if "method" in message:
                self._events.append(message)

    def _drain(self, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while (message := self._receive(deadline)) is not None:
            if "method" in message:
                self._events.append(message)

    # --- pages ------------------------------------------------------------------

    def open(self, url: str) -> PageReport:
        """Load ``url`` in a new tab and report what happened (see the module docstring)."""
        self._events.clear()
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Runtime.enable", "Log.enable", "Page.enable"):
            self.call(domain, session=session)
        self._events.clear()
        self.call("Page.navigate", {"url": url}, session=session)
        self._wait_for("Page.loadEventFired", session)
        self._drain(0.3)
        report = PageReport(url)
        for event in self._events:
            if event.get("sessionId") != session:
                continue
            params = event.get("params", {})
            if event["method"] == "Runtime.exceptionThrown":
                details = params.get("exceptionDetails", {})
                report.problems.append(f"exception: {details.get('exception', {}).get('description') or details.get('text')}")
            elif event["method"] == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
                texts = [str(a.get("value", a.get("description", ""))) for a in params.get("args", [])]
                report.problems.append(f"console.{params['type']}: {' '.join(texts)}")
            elif event["method"] == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
                entry = params["entry"]
                report.problems.append(f"log ({entry.get('source')}): {entry.get('text')} {entry.get('url', '')}".strip())
        facts = self.call("Runtime.evaluate", {
            "expression": "JSON.stringify({links: Array.from(document.querySelectorAll('a[href]'),"
                          " a => a.getAttribute('href')), images: document.images.length,"
                          " loaded: Array.from(document.images).filter(i => i.complete && i.naturalWidth > 0).length,"
                          " title: document.title})",
            "returnByValue": True,
        }, session=session)["result"]["value"]
        data = json.loads(facts)
        report.links, report.images, report.images_loaded, report.title = (
            data["links"], data["images"], data["loaded"], data["title"],
        )
        self.call("Target.closeTarget", {"targetId": target})
        return report


def file_url(path: Path) -> str:
    """The ``file://`` URL of a local file."""
    return path.resolve().as_uri()
