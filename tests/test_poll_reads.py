"""Issue 20, point 2: a poll reads only the games a reminder, digest or
pause notice may be due for, not every game's state on every poll."""

from __future__ import annotations

from datetime import timedelta

import pytest

from adjudicator import records
from adjudicator.service import store as store_module
from adjudicator.service.store import GameRecord, Store, TurnSeat
from tests.test_service_commands import Table, table  # noqa: F401 - fixture


@pytest.fixture
def decoded(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The name of every game record read from the database (its state decoded)."""
    names: list[str] = []
    real = store_module._game

    def noting(row: tuple[object, ...]) -> GameRecord:
        game = real(row)  # type: ignore[arg-type]
        names.append(game.name)
        return game

    monkeypatch.setattr(store_module, "_game", noting)
    monkeypatch.setattr(Store, "games", lambda self: pytest.fail("a poll read every game"))
    return names


def _games(table: Table, count: int) -> None:
    """``count`` active standard games with a deadline in two days, and two paused ones."""
    for number in range(count + 2):
        table.create(f"g{number:02}")
        game = table.store.game(f"g{number:02}")
        assert game is not None
        status = "active" if number < count else "paused"
        with table.store.transaction() as db:
            table.store.update_game(db, records.replace(
                game, status=status, deadline=(table.now + timedelta(days=2)).isoformat(),
                settings={**game.settings, "paused_at": table.now.isoformat()} if status == "paused" else game.settings))


def test_a_poll_reads_no_game_without_a_notice_setting(table: Table, decoded: list[str]) -> None:
    """Twenty active games without reminders or digests and two paused
    ones: the notices of a poll read the paused games only."""
    _games(table, 20)
    decoded.clear()
    table.judge._poll_notices()
    assert sorted(decoded) == ["g20", "g21"]


def test_a_game_with_reminders_is_read_and_reminded(table: Table, decoded: list[str]) -> None:
    """A game whose GM set reminders is read on each poll (and only it,
    beside the paused ones); its reminder is marked sent when due."""
    _games(table, 20)
    game = table.store.game("g07")
    assert game is not None
    with table.store.transaction() as db:
        table.store.update_game(db, records.replace(game, settings={**game.settings, "reminders": [86400 * 3]}))
    decoded.clear()
    table.judge._poll_notices()
    assert sorted(decoded) == ["g07", "g20", "g21"]
    assert table.store.reminder_sent("g07", game.phase, "3d")


def test_games_where_narrows_without_missing_a_candidate(table: Table) -> None:
    """``games_where`` keeps every game a notice may be due for: settings
    naming a key, a seat on an hourly digest; by name, as ``games`` was."""
    _games(table, 4)
    for name, settings in (("g01", {"digest": "hours:6"}), ("g02", {"reminder_by_kind": {"movement": 3600}})):
        game = table.store.game(name)
        assert game is not None
        with table.store.transaction() as db:
            table.store.update_game(db, records.replace(game, settings={**game.settings, **settings}))
    with table.store.transaction() as db:
        table.store.save_turn_seat(db, TurnSeat("g03", "England", digest="hours:2"))
        table.store.save_turn_seat(db, TurnSeat("g00", "France", digest="round"))
    store = table.store
    assert [g.name for g in store.games_where("active")] == ["g00", "g01", "g02", "g03"]
    assert [g.name for g in store.games_where("active", deadline=True, settings_keys=("reminder",))] == ["g02"]
    assert [g.name for g in store.games_where("active", settings_keys=("digest",), hourly_digests=True)] == [
        "g01", "g03"]
    assert [g.name for g in store.games_where("paused")] == ["g04", "g05"]
