"""The shared vocabulary of the rules core: unit types, units, phases, positions.

Locations are plain strings: a province abbreviation (``"VIE"``) or a
province with a coast (``"STP/SC"``).  All values here are immutable.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import Enum
from functools import lru_cache
from operator import attrgetter
from typing import Mapping

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

@dataclass(frozen=True, slots=True)
class Unit:
    """A unit of a power standing on a location."""

    power: str
    kind: UnitType
    location: Location
    province: str = field(init=False, repr=False, compare=False)
    """The province the unit stands in (``location`` without its coast)."""

    def __init__(self, power: str, kind: UnitType, location: Location) -> None:
        # What dataclass would write, with ``object.__setattr__`` looked up
        # once per module rather than per field (units are made constantly).
        _set(self, "power", power)
        _set(self, "kind", kind)
        _set(self, "location", location)
        _set(self, "province", province_of(location))

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


@dataclass(frozen=True, slots=True)
class Phase:
    """A phase name: season letter (``S``, ``F``, ``W``; empty in variants
    with one turn a year), year, kind letter: ``S1901M``, ``W1901A``,
    ``1618M``."""

    year: int
    season: str
    kind: PhaseKind

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


@dataclass(frozen=True, slots=True)
class DislodgedUnit:
    """A unit dislodged in the movement phase, waiting for its retreat order.

    ``attacker_from`` is the province the dislodging unit came from
    (``None`` when unknown); ``by_convoy`` tells that it came by convoy, so
    the unit may retreat there (DATC 4.A.5).  ``retreats`` are the
    locations it may retreat to; with none it is disbanded at once.
    """

    unit: Unit
    attacker_from: str | None
    by_convoy: bool
    retreats: tuple[Location, ...]


@dataclass(frozen=True, slots=True)
class UnitEvent:
    """Something that happened to a unit outside the order resolution (30JK
    religious warfare): ``outcome`` is ``disbanded`` or ``defected`` (then
    ``to`` names the power that now holds it)."""

    unit: Unit
    outcome: str
    to: str | None = None


@dataclass(frozen=True, slots=True)
class Confession:
    """A power's confession (30JK): ``catholic`` or ``protestant``, or in
    transition ``ex-catholic`` / ``ex-protestant`` until the end of year
    ``until``, after which the power holds the other confession."""

    state: str
    until: int | None = None

    @property
    def settled(self) -> str | None:
        """The confession the power holds now, or ``None`` in transition."""
        return None if self.state.startswith("ex-") else self.state


@dataclass(frozen=True)
class Position:
    """Everything the rules need to know about the board at one phase.

    ``centres`` maps each owned supply-centre province to its owner.
    ``dislodged`` and ``standoffs`` are only meaningful in retreat phases.
    Variants with confessions (30JK) keep each power's ``confessions``, the
    provinces of ``incapacitated`` units (they hold and count for nothing
    this turn) and ``quiet_years``, the number of consecutive ends of
    building years in which no supply centre changed owner.
    """

    phase: Phase
    units: tuple[Unit, ...]
    centres: Mapping[str, str]
    dislodged: tuple[DislodgedUnit, ...] = ()
    standoffs: frozenset[str] = frozenset()
    confessions: Mapping[str, Confession] = field(default_factory=dict)
    incapacitated: frozenset[str] = frozenset()
    quiet_years: int = 0



    def centres_of(self, power: str) -> tuple[str, ...]:
        """The supply centres owned by ``power``, sorted."""
        return tuple(sorted(p for p, owner in self.centres.items() if owner == power))
