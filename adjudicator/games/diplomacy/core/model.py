"""The shared vocabulary of the rules core: unit types, units, phases, positions.

Locations are plain strings: a province abbreviation (``"VIE"``) or a
province with a coast (``"STP/SC"``).  All values here are immutable:
records (``adjudicator.records``) that compare, hash and show themselves
as the frozen dataclasses they were, without the cost of making a
dataclass when the rules are imported (issue 20: ``game create``).
"""

from __future__ import annotations

import re
from enum import Enum
from functools import lru_cache
from operator import attrgetter
from typing import Mapping

from adjudicator.records import Record

Location = str

_set = object.__setattr__


@lru_cache(maxsize=4096)  # the rules ask this of the same few map locations again and again
def province_of(location: Location) -> str:
    """The province part of a location (``"STP/SC"`` -> ``"STP"``)."""
    slash = location.find("/")
    return location if slash < 0 else location[:slash]


def coast_of(location: Location) -> str | None:
    """The coast part of a location, or ``None`` (``"STP/SC"`` -> ``"SC"``)."""
    slash = location.find("/")
    return None if slash < 0 else location[slash + 1 :]


class UnitType(Enum):
    """Army or fleet; the value is the one-letter canonical form."""

    ARMY = "A"
    FLEET = "F"

    def __str__(self) -> str:
        return self.value


ARMY = UnitType.ARMY
FLEET = UnitType.FLEET
"""The unit types as module constants: reading an enum member off its class
costs a descriptor call each time, and the rules ask for them constantly."""

class Unit(Record):
    """A unit of a power standing on a location."""

    __slots__ = ("power", "kind", "location", "province")
    power: str
    kind: UnitType
    location: Location
    province: str
    """The province the unit stands in (``location`` without its coast);
    derived, so neither compared, hashed, shown nor pickled."""

    def __init__(self, power: str, kind: UnitType, location: Location) -> None:
        # ``object.__setattr__`` looked up once per module rather than per
        # field (units are made constantly).
        _set(self, "power", power)
        _set(self, "kind", kind)
        _set(self, "location", location)
        _set(self, "province", province_of(location))

    # As the dataclass compared, hashed and showed it: by the three given fields.
    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return (self.power, self.kind, self.location) == (other.power, other.kind, other.location)
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.power, self.kind, self.location))

    def __repr__(self) -> str:
        return f"Unit(power={self.power!r}, kind={self.kind!r}, location={self.location!r})"

    def __reduce__(self) -> tuple[type[Unit], tuple[object, ...]]:
        return Unit, (self.power, self.kind, self.location)

    def replace(self, **changes: object) -> Unit:
        """A copy with ``changes`` of the given fields (``TypeError`` for another name)."""
        values: dict[str, object] = {"power": self.power, "kind": self.kind, "location": self.location}
        values.update(changes)
        return Unit(**values)  # type: ignore[arg-type]

    def __str__(self) -> str:
        return ("A " if self.kind is ARMY else "F ") + self.location


POWER = attrgetter("power")
"""``POWER(x)`` is ``x.power`` (of a unit or a report), for C-level maps over many."""
PROVINCE = attrgetter("province")
"""``PROVINCE(unit)`` is ``unit.province``, for C-level maps over many units."""

MADE_UNITS: dict[tuple[str, str, bool], Unit] = {}
"""The units ``make_unit`` handed out, by (power, location, is an army);
read it (never write it) to skip the call where units are made in bulk."""


def make_unit(power: str, kind: UnitType, location: Location) -> Unit:
    """A unit equal to ``Unit(power, kind, location)``; units are immutable
    values, so equal ones made before are handed out again (a bounded
    table per process: the powers, unit types and locations of the maps)."""
    key = (power, location, kind is ARMY)
    unit = MADE_UNITS.get(key)
    if unit is None:
        if len(MADE_UNITS) >= 1 << 16:
            MADE_UNITS.clear()
        unit = MADE_UNITS[key] = Unit(power, kind, location)
    return unit


class PhaseKind(Enum):
    """Movement, retreat or adjustment phase."""

    MOVEMENT = "M"
    RETREAT = "R"
    ADJUSTMENT = "A"


MOVEMENT = PhaseKind.MOVEMENT
RETREAT = PhaseKind.RETREAT
ADJUSTMENT = PhaseKind.ADJUSTMENT

_PHASE_RE = re.compile(r"^([SFW]?)(\d{3,4})([MRA])$")


class Phase(Record):
    """A phase name: season letter (``S``, ``F``, ``W``; empty in variants
    with one turn a year), year, kind letter: ``S1901M``, ``W1901A``,
    ``1618M``."""

    __slots__ = ("year", "season", "kind")
    year: int
    season: str
    kind: PhaseKind

    def __init__(self, year: int, season: str, kind: PhaseKind) -> None:
        _set(self, "year", year)
        _set(self, "season", season)
        _set(self, "kind", kind)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return (self.year, self.season, self.kind) == (other.year, other.season, other.kind)
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.year, self.season, self.kind))

    @classmethod
    def parse(cls, text: str) -> "Phase":
        """Parse ``S1901M``/``F1901R``/``W1901A``/``1618M`` (case-insensitive).

        Raises ``ValueError`` with the offending text when it is not a phase.
        Whether the phase fits a variant's calendar is the rules' business.
        """
        match = _PHASE_RE.match(text.strip().upper())
        if not match:
            raise ValueError(f"not a phase name: {text!r} (expected e.g. S1901M, F1901R, W1901A or 1618M)")
        season, year, kind = match.groups()
        if season and (season == "W") != (kind == "A"):
            raise ValueError(f"not a phase name: {text!r} (adjustments are W<year>A, moves and retreats S/F)")
        return cls(int(year), season, PhaseKind(kind))

    def __str__(self) -> str:
        return f"{self.season}{self.year}{self.kind._value_}"


class DislodgedUnit(Record):
    """A unit dislodged in the movement phase, waiting for its retreat order.

    ``attacker_from`` is the province the dislodging unit came from
    (``None`` when unknown); ``by_convoy`` tells that it came by convoy, so
    the unit may retreat there (DATC 4.A.5).  ``retreats`` are the
    locations it may retreat to; with none it is disbanded at once.
    """

    __slots__ = ("unit", "attacker_from", "by_convoy", "retreats")
    unit: Unit
    attacker_from: str | None
    by_convoy: bool
    retreats: tuple[Location, ...]

    def __init__(self, unit: Unit, attacker_from: str | None, by_convoy: bool, retreats: tuple[Location, ...]) -> None:
        _set(self, "unit", unit)
        _set(self, "attacker_from", attacker_from)
        _set(self, "by_convoy", by_convoy)
        _set(self, "retreats", retreats)


class UnitEvent(Record):
    """Something that happened to a unit outside the order resolution (30JK
    religious warfare): ``outcome`` is ``disbanded`` or ``defected`` (then
    ``to`` names the power that now holds it)."""

    __slots__ = ("unit", "outcome", "to")
    unit: Unit
    outcome: str
    to: str | None

    def __init__(self, unit: Unit, outcome: str, to: str | None = None) -> None:
        _set(self, "unit", unit)
        _set(self, "outcome", outcome)
        _set(self, "to", to)


class Confession(Record):
    """A power's confession (30JK): ``catholic`` or ``protestant``, or in
    transition ``ex-catholic`` / ``ex-protestant`` until the end of year
    ``until``, after which the power holds the other confession."""

    __slots__ = ("state", "until")
    state: str
    until: int | None

    def __init__(self, state: str, until: int | None = None) -> None:
        _set(self, "state", state)
        _set(self, "until", until)

    @property
    def settled(self) -> str | None:
        """The confession the power holds now, or ``None`` in transition."""
        return None if self.state.startswith("ex-") else self.state


class Position(Record):
    """Everything the rules need to know about the board at one phase.

    ``centres`` maps each owned supply-centre province to its owner.
    ``dislodged`` and ``standoffs`` are only meaningful in retreat phases.
    Variants with confessions (30JK) keep each power's ``confessions``, the
    provinces of ``incapacitated`` units (they hold and count for nothing
    this turn) and ``quiet_years``, the number of consecutive ends of
    building years in which no supply centre changed owner.

    Its fields live in its ``__dict__`` (no slots), so the resolver makes a
    changed position by copying that dictionary (``engine._replace``).
    """

    _fields = ("phase", "units", "centres", "dislodged", "standoffs", "confessions", "incapacitated", "quiet_years")
    phase: Phase
    units: tuple[Unit, ...]
    centres: Mapping[str, str]
    dislodged: tuple[DislodgedUnit, ...]
    standoffs: frozenset[str]
    confessions: Mapping[str, Confession]
    incapacitated: frozenset[str]
    quiet_years: int

    def __init__(self, phase: Phase, units: tuple[Unit, ...], centres: Mapping[str, str],
                 dislodged: tuple[DislodgedUnit, ...] = (), standoffs: frozenset[str] = frozenset(),
                 confessions: Mapping[str, Confession] | None = None, incapacitated: frozenset[str] = frozenset(),
                 quiet_years: int = 0) -> None:
        self.__dict__.update(phase=phase, units=units, centres=centres, dislodged=dislodged, standoffs=standoffs,
                             confessions={} if confessions is None else confessions, incapacitated=incapacitated,
                             quiet_years=quiet_years)

    def centres_of(self, power: str) -> tuple[str, ...]:
        """The supply centres owned by ``power``, sorted."""
        return tuple(sorted(p for p, owner in self.centres.items() if owner == power))
