"""Issue 20, point 2: games are found without scanning the games table, due
games without reading every game, and a resolution reschedules only the
game that changed.  The store tests run on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path
from typing import Any

from apscheduler.schedulers.asyncio import AsyncIOScheduler

from adjudicator import records
from adjudicator.service.store import Store
from adjudicator.service.turns import due_games
from tests.test_service_commands import Table


def _table(folder: Path, database_target: Path | str) -> Table:
    return Table(folder, database_url=database_target if isinstance(database_target, str) else "")


def _set_deadline(table: Table, name: str, moment: str | None, status: str | None = None) -> None:
    game = table.store.game(name)
    assert game is not None
    with table.store.transaction() as db:
        table.store.update_game(db, records.replace(game, deadline=moment, status=status or game.status))


def test_a_game_is_found_by_its_folded_name_through_an_index(tmp_path: Path, database_target: Path | str) -> None:
    """``LOWER(name) = LOWER(?)`` is answered from the expression index
    ``games_name_folded`` (migration 8), on both backends."""
    table = _table(tmp_path, database_target)
    table.create("Spiel1")
    store = table.store
    found = store.game("SPIEL1")
    assert found is not None and found.name == "Spiel1" and store.deadline_of("spiel1") is not None
    sql = "SELECT name FROM games WHERE LOWER(name) = LOWER('spiel1')"
    if store.backend == "sqlite":
        plan = " ".join(str(row[-1]) for row in store.connection.execute(f"EXPLAIN QUERY PLAN {sql}"))
    else:
        with store.snapshot() as db:
            db.execute("SET LOCAL enable_seqscan = off")  # one row: the planner would scan otherwise
            plan = " ".join(str(row[0]) for row in db.execute(f"EXPLAIN {sql}"))
    assert "games_name_folded" in plan, plan
    table.store.close()


def test_due_games_reads_only_the_games_that_are_due(tmp_path: Path, database_target: Path | str,
                                                    monkeypatch: Any) -> None:
    """Of three active games one is due: only that one is read in full;
    ``deadlines`` lists the active games with a deadline, by name."""
    table = _table(tmp_path, database_target)
    for name in ("a1", "b2", "c3"):
        table.create(name)
        table.seat_everyone(name)
    now = table.now
    _set_deadline(table, "a1", (now + timedelta(hours=1)).isoformat())
    _set_deadline(table, "b2", (now - timedelta(minutes=1)).isoformat())
    _set_deadline(table, "c3", None)
    assert [name for name, _, _ in table.store.deadlines()] == ["a1", "b2"]
    read: list[str] = []
    real = Store.game

    def counting(self: Store, name: str) -> Any:
        read.append(name)
        return real(self, name)

    monkeypatch.setattr(Store, "game", counting)
    monkeypatch.setattr(Store, "games", lambda self: (_ for _ in ()).throw(AssertionError("every game read")))
    assert [g.name for g in due_games(table.store, now)] == ["b2"]
    assert read == ["b2"]
    table.store.close()


def test_due_deadlines_in_any_offset_are_found_without_reading_the_later_ones(tmp_path: Path,
                                                                             database_target: Path | str) -> None:
    """``due_deadlines`` asks the store only for deadlines not after a day
    past now (as text, issue 20); in whatever offset and with or without
    a fraction, every passed deadline is due and no later one."""
    from datetime import datetime, timezone

    from adjudicator.service.turns import due_deadlines

    table = _table(tmp_path, database_target)
    now = datetime(2026, 12, 1, 12, 0, 0, 500000, tzinfo=timezone.utc)
    zones = [timezone(timedelta(hours=hours, minutes=minutes)) for hours, minutes in
             [(0, 0), (14, 0), (-12, 0), (23, 59), (-23, -59), (5, 30)]]
    moments = {}
    for number, (zone, shift) in enumerate((z, s) for z in zones for s in
                                           (-timedelta(days=2), -timedelta(microseconds=500000), timedelta(0),
                                            timedelta(microseconds=1), timedelta(hours=13), timedelta(days=3))):
        name = f"g{number:02d}"
        table.create(name)
        table.seat_everyone(name)
        moments[name] = (now + shift).astimezone(zone)
        _set_deadline(table, name, moments[name].isoformat())
    every = [(name, phase, datetime.fromisoformat(deadline)) for name, phase, deadline in table.store.deadlines()]
    expected = [(name, phase, deadline) for name, phase, deadline in every if deadline <= now]
    assert due_deadlines(table.store, now) == expected
    assert len(expected) >= 10 and len(every) == len(moments)
    read = table.store.deadlines((now + timedelta(days=1)).isoformat())
    assert len(expected) < len(read) < len(moments)  # the store was asked for fewer than all
    table.store.close()


def test_deadline_jobs_change_only_for_the_game_that_changed(tmp_path: Path) -> None:
    """A full sync sets one job per active game; after one game's deadline
    moved, syncing that game moves its job alone; a finished game's job goes."""
    table = Table(tmp_path)
    for name in ("a1", "b2", "c3"):
        table.create(name)
        table.seat_everyone(name)
    judge = table.judge

    async def run() -> None:
        scheduler = AsyncIOScheduler()
        scheduler.start(paused=True)
        judge.scheduler = scheduler
        added: list[str] = []
        real_add = scheduler.add_job

        def add_job(*args: Any, **kwargs: Any) -> Any:
            added.append(str(kwargs["id"]))
            return real_add(*args, **kwargs)

        scheduler.add_job = add_job  # type: ignore[method-assign]
        try:
            judge.sync_deadlines()
            assert sorted(added) == ["deadline:a1", "deadline:b2", "deadline:c3"]
            added.clear()
            judge.sync_deadlines()
            assert added == []  # nothing changed: nothing set again
            later = table.now + timedelta(days=9, minutes=7)
            _set_deadline(table, "b2", later.isoformat())
            judge.sync_deadlines(["B2"])
            assert added == ["deadline:b2"]
            job = scheduler.get_job("deadline:b2")
            assert job is not None and job.next_run_time == later
            _set_deadline(table, "c3", None, status="finished")
            added.clear()
            judge.sync_deadlines(["c3"])
            assert added == [] and scheduler.get_job("deadline:c3") is None
            assert {j.id for j in scheduler.get_jobs()} == {"deadline:a1", "deadline:b2"}
        finally:
            scheduler.shutdown(wait=False)
            judge.scheduler = None

    asyncio.run(run())
    table.store.close()


def _three_due_games(table: Table) -> None:
    for name in ("a1", "b2", "c3"):
        table.create(name)
        table.seat_everyone(name)
    for name in ("a1", "b2", "c3"):
        _set_deadline(table, name, (table.now - timedelta(seconds=30)).isoformat())


def test_each_resolved_game_is_sent_before_the_next_is_resolved(tmp_path: Path) -> None:
    """Issue 20 point 3: three games fall due at once; the round sends after
    each resolution, so the first game's reports wait for no other game."""
    table = Table(tmp_path)
    _three_due_games(table)
    resolved_at_send: list[list[str]] = []

    async def send() -> Any:
        resolved_at_send.append([n for n in ("a1", "b2", "c3") if table.store.phases(n)])
        for queued in table.store.unsent_mail():
            table.store.mark_sent(queued.id, table.now.isoformat())

    table.judge.send = send  # type: ignore[method-assign]
    assert asyncio.run(table.judge.process_due_sending()) == 3
    assert resolved_at_send == [["a1"], ["a1", "b2"], ["a1", "b2", "c3"]]
    table.store.close()


def test_deadline_jobs_due_together_make_one_round(tmp_path: Path) -> None:
    """Jobs of games due together that fire while a round runs return at
    once; the running round resolves their games too (and reads the
    mailbox again for them before it ends)."""
    table = Table(tmp_path)
    _three_due_games(table)
    judge = table.judge
    intakes: list[int] = []
    real_take_in = judge.take_in

    def take_in(force: bool = False) -> int:
        intakes.append(1)
        return real_take_in(force)

    async def send() -> Any:
        for name in ("b2", "c3"):  # their jobs fire while the round runs
            await judge._deadline_job(name, "S1901M")
        for queued in table.store.unsent_mail():
            table.store.mark_sent(queued.id, table.now.isoformat())

    judge.take_in = take_in  # type: ignore[method-assign]
    judge.send = send  # type: ignore[method-assign]
    asyncio.run(judge._deadline_job("a1", "S1901M"))
    assert all(table.store.phases(name) for name in ("a1", "b2", "c3"))
    assert len(intakes) == 2  # the round's own read, and one more for the jobs that came meanwhile
    table.store.close()
