"""Sending the outbox from a thread of its own (issue 20).

While the judge's main thread handles mail and resolves games, a second
thread sends what they queued, over a database connection of its own: the
first report of a storm leaves while the other games are still being
resolved, and the slow parts of both (password hashes and map drawing
there; sockets, SQLite and compression here) run on two cores.  The two
threads share nothing but the database, where the outbox claims
(``Store.claim_outbound_many``) keep every mail to one sender, as they do
between judge instances.  The thread sends when woken (``wake``: mail was
queued) and every ``every`` seconds in any case; rounds start at most every
``GATHER`` seconds, so a busy poll's answers leave in rounds of several.

On SQLite one writer holds the whole file, and the main thread, resolving
game after game, would keep the sender's few writes (a claim and a
sent-mark per batch) waiting until the storm is over.  So the sender's
store announces each write transaction it wants, and the main thread,
between two games or two mails, makes way for it (``make_way``): the
sending never waits for more than one game.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from adjudicator.service.store import Connection, Store

log = logging.getLogger("adjudicator")

GATHER = 0.05
"""Seconds between the starts of two sending rounds at least (a round
after a quiet spell starts at once)."""


class _Gate:
    """How many write transactions the sender thread waits to begin or has open."""

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._writing = 0

    @contextmanager
    def writing(self) -> Iterator[None]:
        with self._changed:
            self._writing += 1
        try:
            yield
        finally:
            with self._changed:
                self._writing -= 1
                self._changed.notify_all()

    def make_way(self, timeout: float) -> None:
        """Wait (at most ``timeout`` seconds) until the sender has no write waiting or open."""
        with self._changed:
            self._changed.wait_for(lambda: self._writing == 0, timeout)


class _GatedStore(Store):
    """The sender thread's store: each write transaction is announced to the gate."""

    def __init__(self, target: Path | str, gate: _Gate) -> None:
        super().__init__(target, migrate=False)
        self._gate = gate

    @contextmanager
    def transaction(self) -> Iterator[Connection]:
        """``Store.transaction``, announced to the main thread while it waits and runs."""
        with self._gate.writing(), super().transaction() as db:
            yield db


class SenderThread:
    """A thread that runs ``send_round(store)`` over its own ``Store`` of
    ``target`` whenever woken, at least every ``every`` seconds, and once
    more when stopped."""

    def __init__(self, target: Path | str, send_round: Callable[[Store], Awaitable[object]],
                 every: float) -> None:
        self.target, self.send_round, self.every = target, send_round, every
        self._wake = threading.Event()
        self._stopping = threading.Event()
        self._opened = threading.Event()
        self._gate = _Gate()
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="adjudicator-sender", daemon=True)

    def start(self) -> None:
        """Start the thread once its database connection is open (an
        unusable database raises here, as it would in the main thread)."""
        self._thread.start()
        self._opened.wait()
        if self._error is not None:
            raise self._error

    def wake(self) -> None:
        """Send now (mail was queued); callable from any thread."""
        self._wake.set()

    def make_way(self, timeout: float = 1.0) -> None:
        """Called by the main thread between two transactions: wait (at most
        ``timeout`` seconds) until the sender's pending writes are done."""
        self._gate.make_way(timeout)

    def stop(self, timeout: float = 60.0) -> None:
        """Send one last round, then end the thread (waiting at most ``timeout`` seconds)."""
        self._stopping.set()
        self._wake.set()
        self._thread.join(timeout)

    def _run(self) -> None:
        try:
            store: Store = _GatedStore(self.target, self._gate)
        except BaseException as error:  # handed to start()
            self._error = error
            self._opened.set()
            return
        self._opened.set()
        try:
            asyncio.run(self._rounds(store))
        finally:
            store.close()

    async def _rounds(self, store: Store) -> None:
        last = float("-inf")
        while True:
            self._wake.wait(self.every)  # this thread's loop runs nothing else meanwhile
            # rounds at most every GATHER seconds: the answers of the mails
            # handled meanwhile leave in one round (one SMTP session, one
            # claim, one sent-mark) instead of one round per mail
            self._stopping.wait(max(0.0, GATHER - (time.monotonic() - last)))
            self._wake.clear()
            last = time.monotonic()
            stopping = self._stopping.is_set()
            try:
                await self.send_round(store)
            except Exception:  # the next round tries again; the main thread goes on
                log.exception("outbox: a sending round failed")
            if stopping:
                return
