"""``adjudicator.records.Record`` behaves as the frozen dataclass it
replaces (S45, S49): the configuration, the store's rows and Diplomacy's
values compare, hash, show, refuse changes, copy and pickle as before."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from pathlib import Path

import pytest

from adjudicator.config import Config, Limits, MailboxConfig
from adjudicator.records import FrozenRecordError, Record, replace
from adjudicator.service.render import Texts
from adjudicator.service.store import GameRecord, PlayerRecord


@dataclasses.dataclass(frozen=True)
class _Seat:
    """The dataclass ``PlayerRecord`` was, field for field."""

    game: str
    power: str
    address: str | None
    password_hash: str | None
    status: str
    joined_at: str | None
    missed: int = 0
    excused_used: int = 0


def _seat(**changes: object) -> PlayerRecord:
    values: dict[str, object] = {"game": "g", "power": "England", "address": "a@b.org", "password_hash": None,
                                 "status": "playing", "joined_at": None}
    values.update(changes)
    return PlayerRecord(**values)  # type: ignore[arg-type]


def test_a_record_shows_compares_and_hashes_as_its_dataclass_did() -> None:
    seat = _seat(missed=2)
    old = _Seat("g", "England", "a@b.org", None, "playing", None, missed=2)
    assert repr(seat) == repr(old).replace("_Seat(", "PlayerRecord(")
    assert seat == _seat(missed=2) and seat != _seat(missed=3) and hash(seat) == hash(_seat(missed=2))
    assert hash(seat) == hash(dataclasses.astuple(old))
    assert seat != old and (seat == ("g", "England")) is False  # only a record of its own class is equal
    assert repr(Texts("en")) == "Texts(language='en', time_zone='UTC')"


def test_a_record_refuses_changes_and_replace_makes_a_changed_copy() -> None:
    seat = _seat()
    with pytest.raises(FrozenRecordError):
        seat.status = "resigned"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del seat.status
    changed = seat.replace(status="disorder", address=None)
    assert (changed.status, changed.address, changed.power) == ("disorder", None, "England")
    assert seat.status == "playing" and replace(seat, missed=1).missed == 1
    with pytest.raises(TypeError):
        seat.replace(colour="red")
    old = _Seat("g", "England", None, None, "open", None)
    assert replace(old, status="playing") == dataclasses.replace(old, status="playing")  # a dataclass still works


def test_records_pickle_and_copy_as_equal_records() -> None:
    config = Config(database=Path("/tmp/x.sqlite3"), limits=Limits(lines=10), deadlines={"movement": 60})
    game = GameRecord("g", "standard", {}, "en", "UTC", None, "forming", "S1901M", {"a": [1]}, None, {}, "", "now")
    for record in (config, game, _seat(), Texts("de", "Europe/Berlin")):
        assert pickle.loads(pickle.dumps(record)) == record
        assert copy.copy(record) == record and copy.deepcopy(record) == record
    assert copy.deepcopy(game).state is not game.state


def test_defaults_are_fresh_for_each_record() -> None:
    first, second = Config(), Config()
    assert first.deadlines == {"movement": 259200, "retreat": 86400, "adjustment": 86400, "play": 172800}
    assert first.deadlines is not second.deadlines
    assert first.mailbox == MailboxConfig() and first.limits == Limits()
    games = [GameRecord("g", "standard", {}, "en", "UTC", None, "forming", "S1901M", {}, None, {}, "", "now")
             for _ in range(2)]
    assert games[0].settings == {} and games[0].settings is not games[1].settings
    assert games[0].replace().settings is games[0].settings  # as dataclasses.replace: the same value
    assert Limits.__slots__[0] == "auth_lines_per_mail" and isinstance(Config(), Record)


# Diplomacy's values as the frozen dataclasses they were (S49), written out
# here field for field with the dataclass's options.
@dataclasses.dataclass(frozen=True, slots=True)
class _Unit:
    power: str
    kind: object
    location: str
    province: str = dataclasses.field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "province", self.location.split("/")[0])


@dataclasses.dataclass(frozen=True)
class _Event:
    counter: int
    kind: str
    label: str
    sides: int = 0
    count: int = 1
    items: tuple[str, ...] = ()
    result: tuple[object, ...] = ()


def test_diplomacy_s_values_show_compare_hash_and_pickle_as_their_dataclasses_did() -> None:
    from adjudicator.games.diplomacy.core.model import FLEET, Confession, Phase, PhaseKind, Position, Unit
    from adjudicator.games.randomness import RandomEvent

    unit, old = Unit("Russia", FLEET, "STP/SC"), _Unit("Russia", FLEET, "STP/SC")
    assert repr(unit) == repr(old).replace("_Unit", "Unit") and unit.province == old.province == "STP"
    assert hash(unit) == hash(old) == hash(("Russia", FLEET, "STP/SC"))  # the same sets, in the same order
    assert unit == Unit("Russia", FLEET, "STP/SC") and unit != Unit("Russia", FLEET, "STP/NC") and unit != old
    back = pickle.loads(pickle.dumps(unit))
    assert back == unit and back.province == "STP" and copy.copy(unit) == unit
    assert unit.replace(location="BOT") == Unit("Russia", FLEET, "BOT")
    with pytest.raises(AttributeError):
        unit.location = "BOT"  # type: ignore[misc]
    event, old_event = RandomEvent(3, "die", "W20", sides=6, result=(4,)), _Event(3, "die", "W20", sides=6, result=(4,))
    assert repr(event) == repr(old_event).replace("_Event", "RandomEvent") and hash(event) == hash(old_event)
    assert replace(event, result=(5,)) == RandomEvent(3, "die", "W20", 6, 1, (), (5,))
    phase = Phase.parse("F1901R")
    assert phase == Phase(1901, "F", PhaseKind.RETREAT) and hash(phase) == hash((1901, "F", PhaseKind.RETREAT))
    assert repr(phase) == "Phase(year=1901, season='F', kind=<PhaseKind.RETREAT: 'R'>)"
    position = Position(phase, (unit,), {"STP": "Russia"})
    assert position.confessions == {} and position.confessions is not Position(phase, (), {}).confessions
    assert position == Position(phase, (unit,), {"STP": "Russia"}, (), frozenset(), {}, frozenset(), 0)
    assert position.replace(quiet_years=1).quiet_years == 1 and vars(position)["units"] == (unit,)
    assert Confession("ex-catholic", 1620).settled is None and Confession("catholic").until is None


def test_a_map_is_equal_only_to_itself_and_30jk_s_rules_are_the_standard_s_fields() -> None:
    from adjudicator.games.diplomacy.core.mapdata import load_map
    from adjudicator.games.diplomacy.core.rules import STANDARD, Rules
    from adjudicator.games.diplomacy.module import DiplomacyGame
    from adjudicator.games.diplomacy.variants.thirty_years import THIRTY_YEARS, ThirtyYearsRules

    game_map = load_map("standard")
    twin = copy.copy(game_map)  # a map holds read-only mappings: copied, not pickled, as before
    assert twin.provinces is game_map.provinces and hash(game_map) == object.__hash__(game_map)
    assert game_map == game_map and game_map != twin and {game_map: 1}.get(twin) is None
    assert repr(THIRTY_YEARS) == "ThirtyYearsRules(name='30jk', transforms=True, double_moves=True)"
    assert THIRTY_YEARS == ThirtyYearsRules() and THIRTY_YEARS != Rules("30jk", True, True) and STANDARD == Rules()
    assert DiplomacyGame(game_map) == DiplomacyGame.for_variant("standard")
    assert DiplomacyGame(game_map).report_template == "diplomacy_report"
