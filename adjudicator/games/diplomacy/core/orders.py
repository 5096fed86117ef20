"""Order values: one frozen dataclass per order kind.

``str(order)`` is the canonical order text (``A VIE - GAL``,
``F NTH C A LON - NWY``, ``BUILD F STP/NC``), and parsing the canonical
text gives back an equal value.  A unit type may be ``None`` where the
player left it out; the rules fill it in from the position.

The text is composed once per order value and kept on it (``_Text``):
orders are immutable, the parser hands out the same value for the same
text again (``notation.PARSED_KEPT``) and the checks return the written
order itself when it is already in its normal form, so the answer to a
mail and the report at the deadline share one text (issue 20).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Union

from adjudicator.games.diplomacy.core.model import ARMY, FLEET, Location, UnitType


def _unit_text(kind: UnitType | None, location: Location) -> str:
    if kind is ARMY:
        return "A " + location
    return location if kind is None else "F " + location


_set = object.__setattr__


@dataclass(frozen=True, slots=True)
class _Text:
    """The base of every order kind: ``str`` composes the canonical text
    with the kind's ``_compose`` the first time and keeps it in
    ``kept_text`` (a field outside ``__init__``, neither compared, hashed
    nor shown; ``None`` until the text is first asked for, so
    ``order.kept_text or str(order)`` is the text without a call once made)."""

    kept_text: str | None = field(default=None, init=False, repr=False, compare=False)

    def _compose(self) -> str:
        raise NotImplementedError

    def __str__(self) -> str:
        text = self.kept_text
        if text is None:
            text = self._compose()
            _set(self, "kept_text", text)  # the dataclasses are frozen
        return text


@dataclass(frozen=True, slots=True)
class _UnitAt(_Text):
    """An order that names only a unit (its type may be unknown) and its location."""

    unit: UnitType | None
    location: Location


@dataclass(frozen=True, slots=True)
class Hold(_UnitAt):
    """``A VIE H``."""

    def _compose(self) -> str:
        return f"{_unit_text(self.unit, self.location)} H"


@dataclass(frozen=True, slots=True)
class Move(_Text):
    """``A VIE - GAL``; ``waypoints`` are the provinces named between
    origin and destination (a convoy path, or a river double move in
    variants that have them); ``via_convoy`` is the explicit ``VIA CONVOY``.
    """

    unit: UnitType | None
    location: Location
    destination: Location
    via_convoy: bool = False
    waypoints: tuple[Location, ...] = ()

    def _compose(self) -> str:
        # ``_unit_text`` inline here and in the support and convoy texts
        # (a phase writes one per order).
        unit = self.unit
        legs = " - ".join((*self.waypoints, self.destination)) if self.waypoints else self.destination
        text = f"{'A ' if unit is ARMY else 'F ' if unit is FLEET else ''}{self.location} - {legs}"
        return f"{text} VIA CONVOY" if self.via_convoy else text


@dataclass(frozen=True, slots=True)
class SupportHold(_Text):
    """``A BUD S A VIE``: support of a unit that does not move."""

    unit: UnitType | None
    location: Location
    target_unit: UnitType | None
    target: Location

    def _compose(self) -> str:
        unit, target = self.unit, self.target_unit
        return (
            f"{'A ' if unit is ARMY else 'F ' if unit is FLEET else ''}{self.location} S "
            f"{'A ' if target is ARMY else 'F ' if target is FLEET else ''}{self.target}"
        )


@dataclass(frozen=True, slots=True)
class _ForAMove(_Text):
    """An order about another unit's move: ``<unit> <verb> <target> - <destination>``."""

    unit: UnitType | None
    location: Location
    target_unit: UnitType | None
    target: Location
    destination: Location
    verb = ""

    def _compose(self) -> str:
        unit, target = self.unit, self.target_unit
        return (
            f"{'A ' if unit is ARMY else 'F ' if unit is FLEET else ''}{self.location} {self.verb} "
            f"{'A ' if target is ARMY else 'F ' if target is FLEET else ''}{self.target} - {self.destination}"
        )


@dataclass(frozen=True, slots=True)
class SupportMove(_ForAMove):
    """``A BUD S A VIE - GAL``."""

    verb = "S"


@dataclass(frozen=True, slots=True)
class Convoy(_ForAMove):
    """``F NTH C A LON - NWY``."""

    verb = "C"


@dataclass(frozen=True, slots=True)
class Retreat(_Text):
    """``A VIE - BOH`` in a retreat phase."""

    unit: UnitType | None
    location: Location
    destination: Location

    def _compose(self) -> str:
        return f"{_unit_text(self.unit, self.location)} - {self.destination}"


@dataclass(frozen=True, slots=True)
class Disband(_UnitAt):
    """``A VIE DISBAND`` in a retreat phase."""

    def _compose(self) -> str:
        return f"{_unit_text(self.unit, self.location)} DISBAND"


@dataclass(frozen=True, slots=True)
class Build(_UnitAt):
    """``BUILD F STP/NC``."""

    def _compose(self) -> str:
        return f"BUILD {_unit_text(self.unit, self.location)}"


@dataclass(frozen=True, slots=True)
class Remove(_UnitAt):
    """``REMOVE A PAR``: a removal in an adjustment phase."""

    def _compose(self) -> str:
        return f"REMOVE {_unit_text(self.unit, self.location)}"


@dataclass(frozen=True, slots=True)
class Transform(_Text):
    """``A SIN T F/NC``, ``F LIN T A``: the unit becomes the other kind (or a
    fleet moves to the other coast of its province) and counts as holding
    (30JK section 7).  ``coast`` is the coast of the new fleet, if named."""

    unit: UnitType | None
    location: Location
    into: UnitType
    coast: str | None = None

    def _compose(self) -> str:
        into = self.into.value if self.coast is None else f"{self.into.value}/{self.coast}"
        return f"{_unit_text(self.unit, self.location)} T {into}"


@dataclass(frozen=True, slots=True)
class ConfessionChange(_Text):
    """``CONFESSION PROTESTANT``: the power changes its state confession (30JK)."""

    confession: str

    def _compose(self) -> str:
        return f"CONFESSION {self.confession.upper()}"


@dataclass(frozen=True, slots=True)
class Waive(_Text):
    """``WAIVE``: one build left unused on purpose."""

    def _compose(self) -> str:
        return "WAIVE"


Order = Union[
    Hold, Move, SupportHold, SupportMove, Convoy, Retreat, Disband, Build, Remove, Transform, ConfessionChange, Waive
]
