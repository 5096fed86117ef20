"""A game's creation (``game create``, ``GM CREATE``, the demo) and the
weekly deadline times its options may set.

Split from ``turns`` (which imports every name of it back) so that
``adjudicator game create`` loads the game's module and the store, but
not the mail composer, the pictures and the rest of a game's life
(issue 20; tests/test_startup.py).
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import TYPE_CHECKING, Any, Mapping

from adjudicator.games import game_module
from adjudicator.service.gamedata import awaiting, start_or_wait
from adjudicator.service.missed import POLICIES as MISSED_POLICIES
from adjudicator.service.store import GameRecord
from adjudicator.service.verify import OPENING, new_seed, opening_events_of

if TYPE_CHECKING:
    from adjudicator.config import Config
    from adjudicator.games.base import GameModule
    from adjudicator.service.store import Connection, Store

FORMING, ACTIVE, FINISHED = "forming", "active", "finished"


class GameError(ValueError):
    """A game operation that cannot be done; the message says why."""


def create_game(
    store: Store,
    config: Config,
    name: str,
    variant: str,
    options: Mapping[str, Any],
    now: datetime,
    *,
    gm: str | None = None,
    seed: int | None = None,
    db: Connection | None = None,
    settings: Mapping[str, Any] | None = None,
) -> GameRecord:
    """Create a game whose seats are open for sign-on.  ``options`` are the
    variant's options plus the judge's own: ``language`` (de/en),
    ``time_zone``, ``deadline.<kind>`` (durations in seconds) and
    ``missed`` (the missed-play policy, ``pass`` or ``extend``).  Inside
    the caller's transaction ``db`` when given, else in one of its own."""
    if not name or not name.isprintable() or " " in name or len(name) > 40:
        raise GameError(f"game name {name!r}: use one word of at most 40 characters")
    if store.game(name) is not None:
        raise GameError(f"a game called {name!r} exists already")
    module = game_module(variant)
    own = {k: v for k, v in options.items()
           if k in ("language", "time_zone", "digest", "missed") or k.startswith(("deadline.", "reminder.", "weekly."))}
    rules_options = {k: v for k, v in options.items() if k not in own}
    deadlines = {**config.deadlines, **_seconds_by_kind(own, "deadline.")}
    reminders = _seconds_by_kind(own, "reminder.")
    weekly = {}
    for key, value in own.items():
        if key.startswith("weekly."):
            times = [" ".join(t.split()) for t in str(value).split(",") if t.strip()]
            try:
                next_weekly_time(now, times, str(own.get("time_zone", config.time_zone)))
            except (ValueError, IndexError):
                raise GameError(f"option {key}: expected weekly times such as 'Sun 20:00, Wed 20:00', "
                                f"got {value!r}") from None
            weekly[key.removeprefix("weekly.")] = times
    if str(own.get("missed", "pass")) not in MISSED_POLICIES:
        raise GameError(f"option missed: expected {' or '.join(MISSED_POLICIES)}, got {own['missed']!r}")
    language = str(own.get("language", config.language))
    if language not in ("de", "en"):
        raise GameError(f"option language: expected de or en, got {language!r}")
    seed = new_seed() if seed is None else seed
    state = start_or_wait(module, rules_options, seed)
    record = GameRecord(
        name, module.variant, dict(state.get("options", rules_options)), language,
        str(own.get("time_zone", config.time_zone)), gm, FORMING, phase_of(module, state), state, None, deadlines, "",
        now.isoformat(), {**(settings or {}), "seed": seed,
                          **({"reminder_by_kind": reminders} if reminders else {}),
                          **({"weekly_by_kind": weekly} if weekly else {}),
                          OPENING: [] if awaiting(state) else opening_events_of(module.variant, state),
                          **({"digest": own["digest"]} if "digest" in own else {}),
                          **({"missed": own["missed"]} if "missed" in own else {})},
    )
    if db is not None:
        store.create_game(db, record, module.powers())
        store.log(db, name, now.isoformat(), "created", f"variant {module.variant}")
        return record
    with store.transaction() as own_db:
        store.create_game(own_db, record, module.powers())
        store.log(own_db, name, now.isoformat(), "created", f"variant {module.variant}")
    return record


def _seconds_by_kind(own: Mapping[str, Any], prefix: str) -> dict[str, int]:
    """The options ``<prefix><kind>`` as kind -> seconds; ``GameError``
    for one that is not a whole number above 0."""
    found: dict[str, int] = {}
    for key, value in own.items():
        if key.startswith(prefix):
            if not isinstance(value, int) or value <= 0:
                raise GameError(f"option {key}: expected seconds > 0, got {value!r}")
            found[key.removeprefix(prefix)] = value
    return found


def phase_of(module: GameModule, state: dict[str, Any]) -> str:
    """The phase of ``state``, or ``-`` for a game still waiting for its data."""
    return "-" if awaiting(state) else module.phase(state)


WEEKDAY_NAMES = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_WEEKDAY_WORDS = {"mon": 0, "mo": 0, "tue": 1, "di": 1, "wed": 2, "mi": 2, "thu": 3, "do": 3, "fri": 4, "fr": 4,
                  "sat": 5, "sa": 5, "sun": 6, "so": 6}


def weekday(word: str) -> int | None:
    """Monday = 0 for a day name or abbreviation in English or German
    (``Sun``, ``Sunday``, ``So``, ``Sonntag``, ``Mi.``), else None."""
    key = word.lower().rstrip(".")
    return _WEEKDAY_WORDS.get(key[:3], _WEEKDAY_WORDS.get(key[:2]))


def next_weekly_time(now: datetime, times: list[str], time_zone: str, minimum: timedelta = timedelta(hours=24)) -> datetime:
    """The first of the weekly ``times`` (``"Sun 20:00"``, German day names
    too) in ``time_zone`` that is at least ``minimum`` after ``now``."""
    from zoneinfo import ZoneInfo  # only for a game with weekly deadlines

    zone = ZoneInfo(time_zone)
    local = now.astimezone(zone)
    candidates = []
    for entry in times:
        day, _, clock = entry.partition(" ")
        hour, minute = (int(x) for x in clock.split(":"))
        day_index = weekday(day)
        if day_index is None:
            raise ValueError(f"not a weekday: {day!r}")
        for weeks in range(3):
            date = (local + timedelta(days=(day_index - local.weekday()) % 7 + 7 * weeks)).date()
            moment = datetime(date.year, date.month, date.day, hour, minute, tzinfo=zone)
            if moment - now >= minimum:
                candidates.append(moment)
                break
    return min(candidates).astimezone(timezone.utc)
