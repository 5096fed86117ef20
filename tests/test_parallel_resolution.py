"""Parallel resolution of due games (issue 20, build point 5): the games
whose deadlines fall together are computed in worker processes and
written back one by one, each in a short transaction that uses a
worker's result only while the game is exactly as the worker saw it.

The tests run real judges over real SQLite files: one resolves serially,
one with a pool of two worker processes, from the same games and the same
clock; their stored phases and queued mails must be the same byte for
byte (but for the random Message-IDs and MIME boundaries).  A game changed after its worker
read it is computed again; a worker that dies costs no phase; workers end with their judge."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from adjudicator import records
from adjudicator.config import Config
from adjudicator.service.pool import InlinePreparer, PoolPreparer, WORKER_CRASH
from adjudicator.service.runner import CRASH_ENV, Judge
from adjudicator.service.store import Store, Submission
from adjudicator.service import turns
from adjudicator.service.turns import create_game, deadline_passed, phase_inputs, prepare_phase, start_game
from tests.test_service_commands import ListTransport

JUDGE = "judge@pbem.test"
GM = "gm@pbem.test"
START = datetime(2026, 12, 1, 10, 0, tzinfo=timezone.utc)
DUE = START + timedelta(days=5)
Games = tuple[tuple[str, str, dict[str, str]], ...]
GAMES: Games = (("std", "standard", {}), ("jk", "30jk", {}), ("rev", "1848", {"data": "standin"}),
         ("kr", "kreml4", {"data": "standin"}), ("lib", "liberte4", {"data": "standin"}),
         ("pf", "1847", {"data": "standin"}), ("std2", "standard", {}))
"""Every game of the judge, simultaneous and turn-based."""
MOVE = Submission("std", "S1901M", "France", ("A PAR - BUR",), True, False, False, None, DUE.isoformat())


def seated(folder: Path, games: Games = GAMES) -> tuple[Config, Store]:
    """A judge's store with ``games`` started (every seat taken, seeded),
    their deadline passed at ``DUE``, the start mails sent."""
    config = records.replace(Config(), database=folder / "judge.sqlite3", address=JUDGE, language="en")
    store = Store(config.database)
    for number, (name, variant, options) in enumerate(games):
        with store.transaction() as db:
            game = create_game(store, config, name, variant, dict(options), START, gm=GM, seed=1000 + number, db=db)
            for index, player in enumerate(store.players(name)):
                store.update_player(db, records.replace(player, address=f"{name}-{index}@players.test",
                                                            password_hash="x", status="playing",
                                                            joined_at=START.isoformat()))
            started = start_game(store, db, config, game, START)
            store.update_game(db, records.replace(started, deadline=(START + timedelta(hours=1)).isoformat()))
    for mail in store.unsent_mail():
        store.mark_sent(mail.id, START.isoformat())
    return config, store


_BOUNDARY = re.compile(rb"={15}\d+==")
"""The email package's random MIME boundaries."""


Outcome = tuple[tuple[tuple[str, ...], ...], tuple[tuple[str, ...], ...], tuple[tuple[tuple[str, ...], bytes], ...]]


def outcome(store: Store) -> Outcome:
    """What the judge stored and queued: every game, phase and unsent mail
    (Message-IDs and MIME boundaries left out: they are random)."""
    games = tuple((g.name, g.phase, g.status, str(g.deadline), repr(g.state)) for g in store.games())
    phases = tuple((g.name, p.phase, p.report_text, repr(p.report)) for g in store.games() for p in store.phases(g.name))
    mails = tuple((tuple(m.recipients), _BOUNDARY.sub(b"=B=", re.sub(rb"Message-ID: <[^>]*>", b"", m.message)))
                  for m in store.unsent_mail())
    return games, phases, mails


SIMULTANEOUS = 4
"""The games of ``GAMES`` whose phase is resolved at once for every seat (the rest are turn games)."""


def counting(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The games ``compute_phase`` runs for in this process, from now on."""
    calls: list[str] = []
    original = turns.compute_phase

    def counted(config: Config, inputs: turns.PhaseInputs) -> turns.PhaseWork:
        calls.append(inputs.game.name)
        return original(config, inputs)

    monkeypatch.setattr(turns, "compute_phase", counted)
    return calls


def resolve_all(folder: Path, pool: PoolPreparer | None) -> Outcome:
    config, store = seated(folder)
    judge = Judge(config, store, ListTransport(), clock=lambda: DUE)
    if pool is not None:
        judge.preparer = pool
    try:
        assert judge.process_due() == len(GAMES)
        return outcome(store)
    finally:
        judge.preparer.close()
        store.close()


def test_games_resolved_in_worker_processes_give_byte_identical_phases_and_mails(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    here = counting(monkeypatch)
    serial = resolve_all(tmp_path / "serial", None)
    assert len(here) == SIMULTANEOUS  # serially: each computed once, before its transaction
    here.clear()
    parallel = resolve_all(tmp_path / "parallel", PoolPreparer(2, parallel_from=2))
    assert here == []  # every simultaneous game was computed by a worker and its work used
    games, phases, mails = parallel
    assert len(phases) >= len(GAMES) and len(mails) >= len(GAMES)  # every game resolved and reported
    assert all(status == "active" for _, _, status, _, _ in games)
    assert parallel == serial


def test_a_worker_that_dies_loses_no_phase(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    serial = resolve_all(tmp_path / "serial", None)
    monkeypatch.setenv(CRASH_ENV, WORKER_CRASH)  # every worker dies on its first game
    here = counting(monkeypatch)
    assert resolve_all(tmp_path / "crashing", PoolPreparer(2, parallel_from=2)) == serial
    assert len(here) == SIMULTANEOUS  # each game the dead workers had was computed here


def test_a_game_changed_after_its_work_was_made_is_computed_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config, store = seated(tmp_path / "a", GAMES[:1])
    work = prepare_phase(store, config, "std", "S1901M", DUE, due=True)
    assert work is not None and work.orders == {}
    with store.transaction() as db:  # an order stored after the work was made
        store.save_submission(db, MOVE)
    here = counting(monkeypatch)
    assert deadline_passed(store, config, "std", "S1901M", DUE, work)
    assert here == ["std"]  # the stale work was not used
    assert store.phases("std")[-1].orders == {"France": ["A PAR - BUR"]}  # the order stored late counted
    fresh_config, fresh = seated(tmp_path / "b", GAMES[:1])
    with fresh.transaction() as db:
        fresh.save_submission(db, MOVE)
    assert deadline_passed(fresh, fresh_config, "std", "S1901M", DUE)
    assert outcome(store) == outcome(fresh)
    store.close()
    fresh.close()


def test_a_turn_phase_is_not_prepared_but_resolved_in_its_transaction(tmp_path: Path) -> None:
    config, store = seated(tmp_path, GAMES[3:4])
    game = store.game("kr")
    assert game is not None
    assert phase_inputs(store, "kr", game.phase, DUE, due=True) is None
    assert list(InlinePreparer().prepared(store, config, [("kr", game.phase)], lambda: DUE)) == \
        [("kr", game.phase, DUE, None)]
    store.close()


def test_the_workers_end_when_the_judge_is_killed(tmp_path: Path) -> None:
    script = ("import sys, time\n"
              "from adjudicator.service.pool import PoolPreparer\n"
              "pool = PoolPreparer(2)\n"
              "pool.start()\n"
              "time.sleep(0.5)\n"
              "print(' '.join(str(p) for p in pool.pids()), flush=True)\n"
              "time.sleep(60)\n")
    judge = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, cwd=Path(__file__).parent.parent,
                             env={**os.environ, "PYTHONPATH": str(Path(__file__).parent.parent)})
    assert judge.stdout is not None
    workers = [int(p) for p in judge.stdout.readline().split()]
    assert len(workers) == 2
    judge.kill()  # SIGKILL: no shutdown runs
    judge.wait()

    def alive(pid: int) -> bool:
        try:
            return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
        except OSError:
            return False

    end = time.monotonic() + 20
    while any(alive(p) for p in workers) and time.monotonic() < end:
        time.sleep(0.2)
    assert not any(alive(p) for p in workers), "a resolution worker outlived its judge"


def test_a_few_due_games_are_computed_in_the_judge_without_starting_workers(tmp_path: Path) -> None:
    config, store = seated(tmp_path, GAMES)
    pool = PoolPreparer(2, parallel_from=len(GAMES) + 1)
    pool.start(store, config, DUE)  # a small judge: no workers at start either
    games = [(g.name, g.phase) for g in store.games()]
    assert list(pool.prepared(store, config, games, lambda: DUE)) == [(n, p, DUE, None) for n, p in games]
    assert pool.pids() == []
    pool.close()
    store.close()


def test_each_worker_gets_several_games_ahead_of_the_writing_and_no_more(tmp_path: Path) -> None:
    from adjudicator.service.pool import AHEAD

    config, store = seated(tmp_path, GAMES)
    games = [(g.name, g.phase) for g in store.games()]
    assert len(games) > AHEAD  # so that the limit shows
    read: list[str] = []  # one clock reading per game read and handed out

    def clock() -> datetime:
        read.append("read")
        return DUE

    pool = PoolPreparer(1, parallel_from=1)
    try:
        items = pool.prepared(store, config, games, clock)
        next(items)  # the first game, or the future of its work
        assert AHEAD <= len(read) <= AHEAD + 1  # a worker waits on AHEAD games at most, so it never idles for one
        rest = list(items)
        assert [item[:2] for item in rest if isinstance(item, tuple)][-1] == games[-1] and len(read) == len(games)
    finally:
        pool.close()
        store.close()
