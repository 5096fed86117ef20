"""Reading a mail's body with a hard time bound (docs/service.md S37).

The parse-heavy part of handling a mail (its MIME structure, the text
part with HTML turned into text and the reply history stripped, the lines
and the commands parsed from them) is pure: bytes in, a ``Reading`` out.
``read_body`` does it; ``ReaderProcess`` does it in a worker process that
is killed when it takes longer than the mail's time, whatever the input's
shape and whether the time goes into Python or into one long C call that
no alarm interrupts.  The judge (``adjudicator serve``) reads every mail
through the worker; the in-process ``InlineReader`` (under the alarm of
``budget.time_budget``) serves the tests and tools that drive a judge in
one process.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import signal
import time
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any, Protocol

from adjudicator.config import Limits
from adjudicator.mail.body import ReadText, read_text
from adjudicator.service import commands as cmd
from adjudicator.service.budget import MailTimeout, read_message, time_budget

log = logging.getLogger("adjudicator")

STALL_ENV = "ADJUDICATOR_STALL_AT"
"""Tests only: with ``reading`` here, the worker stalls in an uninterruptible
wait on a mail that has an ``X-Test-Stall`` header (a stand-in for a C call
that never returns)."""


@dataclass(frozen=True)
class Reading:
    """What the body of a mail says, read within the mail's budget."""

    problem: str | None = None
    """Why the body is not read at all (too many MIME parts, nested too deeply)."""
    error: str | None = None
    """Why no decoder could read the text part."""
    found: ReadText | None = None
    lines: tuple[str, ...] = ()
    """The lines read (``handler.bounded_lines``): at most ``limits.lines`` pieces."""
    pieces: int = 0
    long_lines: tuple[int, ...] = ()
    items: tuple[cmd.Item, ...] = ()


def read_body(raw: bytes, limits: Limits) -> Reading:
    """Read ``raw`` as the handler does: each step bounded by ``limits``
    (S26).  Never raises for anything in the mail."""
    from adjudicator.service.handler import bounded_lines

    try:
        message, problem = read_message(raw, limits.header_bytes, limits.mime_parts)
    except Exception as error:  # the parser itself failed
        return Reading(problem=f"the mail cannot be parsed: {type(error).__name__}")
    if problem is not None:
        return Reading(problem=problem)
    try:
        found = read_text(message, limits.text_bytes, limits.mime_parts)
    except Exception as error:  # a body no decoder can read is answered, not fatal
        return Reading(error=str(error) or type(error).__name__)
    lines, pieces, long_lines = bounded_lines(cmd.mail_lines(found.text), limits.lines, limits.line_chars)
    return Reading(found=found, lines=tuple(lines), pieces=pieces, long_lines=tuple(long_lines),
                   items=cmd.parse_mail("\n".join(lines)))


class Reader(Protocol):
    """Reads a mail's body within ``seconds`` or raises ``MailTimeout``."""

    def read(self, raw: bytes, limits: Limits, seconds: float) -> Reading:
        """The mail's ``Reading``; ``MailTimeout`` when it took longer than ``seconds``."""
        ...  # pragma: no cover

    def close(self) -> None:
        """Release what the reader holds."""
        ...  # pragma: no cover


class InlineReader:
    """Reads in this process (the caller's alarm bounds it)."""

    def read(self, raw: bytes, limits: Limits, seconds: float) -> Reading:
        """``read_body`` here, under the alarm (``MailTimeout`` after ``seconds``)."""
        with time_budget(seconds):
            return read_body(raw, limits)

    def close(self) -> None:
        """Nothing to release."""


def _serve_readings(connection: Connection) -> None:
    """The worker: read each mail it is sent until the pipe closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the judge stops it; a Ctrl-C is the judge's
    cmd.parse_mail("HELP")  # the grammar is loaded before the first mail's time starts
    connection.send("ready")
    while True:
        try:
            raw, limits = connection.recv()
        except (EOFError, OSError):
            return
        if os.environ.get(STALL_ENV) == "reading" and b"\nX-Test-Stall:" in raw.split(b"\n\n", 1)[0]:
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM, signal.SIGTERM})
            while True:
                time.sleep(3600)
        connection.send(read_body(raw, limits))


START_SECONDS = 120.0
"""How long the worker may take to start (import the judge, load the grammar)."""


class ReaderProcess:
    """Reads in a worker process, started when first needed and killed
    (then started again for the next mail) when a mail takes longer than
    its time."""

    def __init__(self) -> None:
        self._context = multiprocessing.get_context("spawn")  # the judge has threads: no fork
        self._process: Any = None
        self._connection: Connection | None = None
        self.killed = 0
        """How many times the worker was killed at a mail's time limit."""

    def _start(self) -> Connection:
        if self._connection is None or self._process is None or not self._process.is_alive():
            self.close()
            mine, theirs = self._context.Pipe()
            self._process = self._context.Process(target=_serve_readings, args=(theirs,), daemon=True,
                                                  name="adjudicator-reader")
            self._process.start()
            theirs.close()
            self._connection = mine
            try:
                ready = mine.poll(START_SECONDS) and mine.recv() == "ready"
            except (EOFError, OSError):
                ready = False
            if not ready:
                self.close()
                raise RuntimeError(f"the reading worker did not start within {START_SECONDS:g} s")
        return self._connection

    def start(self) -> None:
        """Start the worker now (its start-up never counts against a mail)."""
        self._start()

    def read(self, raw: bytes, limits: Limits, seconds: float) -> Reading:
        """The mail's ``Reading`` from the worker; after ``seconds`` (the
        worker's start-up not counted) the worker is killed and
        ``MailTimeout`` raised."""
        connection = self._start()
        try:
            connection.send((raw, limits))
            if connection.poll(seconds):
                reading: Reading = connection.recv()
                return reading
        except (EOFError, OSError, BrokenPipeError) as error:  # the worker died on the mail
            self.close()
            raise MailTimeout(f"the reading worker ended: {error}") from error
        self.killed += 1
        log.warning("reading a mail took longer than %g s: the reading worker is killed", seconds)
        self.close()
        raise MailTimeout(f"reading took longer than {seconds:g} s")

    def close(self) -> None:
        """Kill the worker (if any) and wait for it."""
        if self._connection is not None:
            self._connection.close()
            self._connection = None
        if self._process is not None:
            if self._process.is_alive():
                self._process.kill()
            self._process.join(10)
            self._process = None
