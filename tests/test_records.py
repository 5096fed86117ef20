"""``adjudicator.records.Record`` behaves as the frozen dataclass it
replaces (S45): the configuration and the store's rows compare, hash,
show, refuse changes, copy and pickle as before."""

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
