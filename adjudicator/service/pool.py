"""Resolving many games at once on every core (issue 20, build point 5).

When many deadlines fall together, the judge reads each due game in a
short read (``turns.phase_inputs``), hands it to a pool of worker
processes that do the heavy part (``turns.compute_phase``: the rules, the
map drawn and encoded, the report rendered and its mail composed), and
writes the results back one game at a time in the order of the due list,
each in a short transaction that first reads the game again and uses the
worker's result only if the store still gives exactly what the worker was
given (otherwise the phase is computed again inside that transaction).
So the outcome is the one a serial judge gets, byte for byte but for the
random Message-IDs, whatever the workers do: a worker that fails or dies
costs time, never a phase (nothing is written until the main process
writes it).

``InlinePreparer`` does nothing ahead (the judge outside ``serve``, and
the tests that need no pool); ``PoolPreparer`` keeps ``workers`` worker
processes (spawned: the judge has threads) and at most ``AHEAD × workers``
games handed out ahead; it starts them only for ``PARALLEL_FROM`` or more
games due together (or at ``serve``'s start for a judge with as many
games), and computes fewer in the judge's own process.  Turn phases are not prepared: their resolution
reads and writes the seats' queues as it goes, so it runs in the
transaction as before (it is one seat's action, not a map of the world).
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from datetime import datetime
from typing import Protocol

from adjudicator.config import Config
from adjudicator.service.store import Store
from adjudicator.service.turns import PhaseInputs, PhaseWork, compute_phase, phase_inputs

log = logging.getLogger("adjudicator")

CRASH_ENV = "ADJUDICATOR_CRASH_AT"
WORKER_CRASH = "preparing"
"""``ADJUDICATOR_CRASH_AT=preparing`` kills a worker as it starts on a game (crash tests)."""

Prepared = tuple[str, str, datetime, "PhaseWork | None"]
"""A due game's name and phase, the moment it was read at, and its work (None: compute it when writing)."""

Handed = tuple[str, str, datetime, "tuple[ProcessPoolExecutor, Future[PhaseWork]] | None"]
"""A game given to a worker: name, phase, moment read, and the pool with the future (None: not handed out)."""


class Preparer(Protocol):
    """Makes the heavy part of resolving due games ahead of writing them."""

    def prepared(self, store: Store, config: Config, games: Sequence[tuple[str, str]],
                 clock: Callable[[], datetime]) -> Iterator[Prepared | Future[PhaseWork]]:
        """Each of ``games`` (name, phase) in the order given, with the
        moment its inputs were read and its work when one was made; in
        between, the future of the next game's work while it is not done
        (the caller waits for it as it can: the event loop's thread goes
        on with other jobs meanwhile)."""
        ...

    def close(self) -> None:
        """Stop what runs for the preparer."""
        ...


class InlinePreparer:
    """Prepares nothing ahead: each game is computed when it is written."""

    def prepared(self, store: Store, config: Config, games: Sequence[tuple[str, str]],
                 clock: Callable[[], datetime]) -> Iterator[Prepared | Future[PhaseWork]]:
        """Each game with the moment it comes up and no work."""
        for name, phase in games:
            yield name, phase, clock(), None

    def close(self) -> None:
        """Nothing runs."""


def worker_count() -> int:
    """The cores this process may use (``os.process_cpu_count`` where
    Python has it, else the scheduler's affinity, else ``os.cpu_count``)."""
    counter = getattr(os, "process_cpu_count", None)
    if counter is not None:
        found = counter()
        return max(1, int(found or 1))
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def _compute(config: Config, inputs: PhaseInputs) -> PhaseWork:
    """A worker's job: ``compute_phase`` (the crash point first)."""
    if os.environ.get(CRASH_ENV) == WORKER_CRASH:
        os._exit(70)
    return compute_phase(config, inputs)


def _orphan_watch(parent: int) -> None:
    """Run in each worker: end it when the judge that started it has gone
    (killed with SIGKILL, a worker would otherwise wait for work for ever)."""
    while True:
        time.sleep(1.0)
        if os.getppid() != parent:
            os._exit(0)


def _started(parent: int) -> None:
    """A worker's initializer: watch the judge, load the pictures' code."""
    threading.Thread(target=_orphan_watch, args=(parent,), name="adjudicator-orphan-watch", daemon=True).start()
    _warm()


def _warm(config: Config | None = None, examples: Sequence[PhaseInputs] = ()) -> None:
    """A worker loads the pictures' code and, for each of ``examples``
    (one game per variant played), computes its phase once and forgets
    it: the rules, maps, fonts and templates are loaded before the first
    due game comes (the first report then leaves at once)."""
    import adjudicator.games.pictures.png  # noqa: F401

    for inputs in examples:
        if config is not None:
            try:
                compute_phase(config, inputs)
            except Exception:  # a game that cannot be computed fails again when due, and is logged there
                pass


PARALLEL_FROM = 20
"""Due games at once from which a judge without running workers starts
them (fewer are computed in the judge's process, as the workers' start,
a second or two of CPU each, would cost more than it gains; ``serve``
starts them at once for a judge with at least that many games with a
deadline)."""


AHEAD = 5
"""Games handed out ahead per worker: enough that the workers go on while
the judge's process writes, sends or waits for the disk (a 30JK game takes
twice a standard one; with 2 per worker the workers waited on the judge,
issue 20), few enough that the results waiting to be written (a few
hundred KiB each) stay a few MiB."""


class PoolPreparer:
    """Computes due games in ``workers`` worker processes, ``AHEAD × workers`` ahead."""

    def __init__(self, workers: int | None = None, parallel_from: int = PARALLEL_FROM) -> None:
        self.workers = workers or worker_count()
        self.parallel_from = parallel_from
        self._pool: ProcessPoolExecutor | None = None

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"),
                                             initializer=_started, initargs=(os.getpid(),))
        return self._pool

    def start(self, store: Store | None = None, config: Config | None = None,
              now: datetime | None = None) -> None:
        """Start the workers now and let each load the code (with ``store``:
        and compute one active game per variant once, see ``_warm``; not
        for a store with fewer than ``parallel_from`` games with a deadline)."""
        examples: list[PhaseInputs] = []
        if store is not None and len(store.deadlines()) < self.parallel_from:
            return  # a small judge: started when as many games fall due together
        if store is not None and now is not None:
            for name in store.active_variants().values():
                game = store.game(name)
                inputs = phase_inputs(store, name, game.phase, now) if game is not None else None
                if inputs is not None:
                    examples.append(inputs)
        pool = self._executor()
        for _ in range(self.workers):
            pool.submit(_warm, config, examples)

    def pids(self) -> list[int]:
        """The process ids of the running workers (none before ``start``)."""
        processes = getattr(self._pool, "_processes", None) or {}
        return sorted(int(pid) for pid in processes)

    def prepared(self, store: Store, config: Config, games: Sequence[tuple[str, str]],
                 clock: Callable[[], datetime]) -> Iterator[Prepared | Future[PhaseWork]]:
        """Each game in order with its work from a worker (None when the
        game is not a simultaneous phase due to resolve, or its worker
        failed: it is computed when written); before a game whose work is
        not done yet, its future (see ``Preparer.prepared``)."""
        if self._pool is None and len(games) < self.parallel_from:
            yield from InlinePreparer().prepared(store, config, games, clock)  # not worth starting workers
            return
        waiting: deque[Handed] = deque()
        ahead = iter(games)
        for _ in range(AHEAD * self.workers):
            self._hand_out(store, config, ahead, clock, waiting)
        while waiting:
            head = waiting[0][3]
            if head is not None and not head[1].done():
                yield head[1]
                continue
            name, phase, now, handed = waiting.popleft()
            work = self._result(name, phase, handed)
            self._hand_out(store, config, ahead, clock, waiting)
            yield name, phase, now, work

    def _hand_out(self, store: Store, config: Config, ahead: Iterator[tuple[str, str]],
                  clock: Callable[[], datetime],
                  waiting: deque[Handed]) -> None:
        """Read the next game and give it to a worker (when there is one)."""
        for name, phase in ahead:
            now = clock()
            inputs = phase_inputs(store, name, phase, now, due=True)
            handed = None
            if inputs is not None:
                pool = self._executor()
                try:
                    handed = (pool, pool.submit(_compute, config, inputs))
                except (BrokenProcessPool, RuntimeError) as error:
                    log.warning("resolution workers unusable (%s): game %s is computed here", error, name)
                    self._restart(pool)
            waiting.append((name, phase, now, handed))
            return

    def _result(self, name: str, phase: str, handed: tuple[ProcessPoolExecutor, Future[PhaseWork]] | None
                ) -> PhaseWork | None:
        if handed is None:
            return None
        pool, future = handed
        try:
            return future.result()
        except BrokenProcessPool as error:
            log.warning("a resolution worker died (%s): game %s, %s is computed here", error, name, phase)
            self._restart(pool)
        except Exception:  # computed again when written, where a real error is logged
            log.warning("game %s, %s failed in a worker; computed here", name, phase, exc_info=True)
        return None

    def _restart(self, broken: ProcessPoolExecutor) -> None:
        """Drop the broken pool (unless already replaced); the next game starts a new one."""
        broken.shutdown(wait=False, cancel_futures=True)
        if self._pool is broken:
            self._pool = None

    def close(self) -> None:
        """Stop the workers."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
