"""Sending the outbox from a thread of its own (issue 20).

While the judge's main thread handles mail and resolves games, a second
thread sends what they queued, over a database connection of its own: the
first report of a storm leaves while the other games are still being
resolved, and the slow parts of both (password hashes and map drawing
there; sockets, SQLite and compression here) run on two cores.  The two
threads share nothing but the database, where the outbox claims
(``Store.claim_outbound_many``) keep every mail to one sender, as they do
between judge instances.  The thread sends when woken (``wake``: mail was
queued) and every ``every`` seconds in any case.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Awaitable, Callable
from pathlib import Path

from adjudicator.service.store import Store

log = logging.getLogger("adjudicator")


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

    def stop(self, timeout: float = 60.0) -> None:
        """Send one last round, then end the thread (waiting at most ``timeout`` seconds)."""
        self._stopping.set()
        self._wake.set()
        self._thread.join(timeout)

    def _run(self) -> None:
        try:
            store = Store(self.target, migrate=False)
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
        while True:
            self._wake.wait(self.every)  # this thread's loop runs nothing else meanwhile
            self._wake.clear()
            stopping = self._stopping.is_set()
            try:
                await self.send_round(store)
            except Exception:  # the next round tries again; the main thread goes on
                log.exception("outbox: a sending round failed")
            if stopping:
                return
