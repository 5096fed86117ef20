"""30JK – Dreißigjähriger Krieg Diplomacy: the rules hooks (seed 004).

One movement turn a year from 1618 (section 3), adjustments and the
change of supply-centre owners at the end of every odd year (rulings
R25, R26), solo victory checked then (section 10); fleets on coasts and
river banks convoy (section 6, R27); units transform (section 7, R28);
fleets move twice downstream along a river (sections 4-5, R29, R30).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from adjudicator.core.errors import Illegal
from adjudicator.core.mapdata import GameMap, Province, River
from adjudicator.core.model import Location, Phase, PhaseKind, province_of
from adjudicator.core.rules import Rules


def _downstream(river: River, origin: str, destination: str, into_mouth: bool) -> bool | None:
    """True when origin -> destination goes downstream along ``river``,
    False when upstream, None when the river does not join the two."""
    course = river.provinces
    if origin not in course:
        return None
    if into_mouth and destination == river.mouth:
        return True
    if destination not in course:
        return None
    return course.index(destination) > course.index(origin)


def _leg_rivers(game_map: GameMap, origin: str, destination: str, into_mouth: bool) -> list[River]:
    """The rivers along which origin -> destination goes downstream; raises
    ``Illegal`` saying why when there is none."""
    verdicts = [(r, _downstream(r, origin, destination, into_mouth)) for r in game_map.rivers]
    downstream = [r for r, verdict in verdicts if verdict]
    if downstream:
        return downstream
    upstream = [r.name for r, verdict in verdicts if verdict is False]
    if upstream:
        raise Illegal(f"{origin} - {destination} goes upstream on the {upstream[0]}; a double move goes downstream")
    raise Illegal(f"{origin} and {destination} do not lie on one river; a double move follows a river")


@cache
def _double_move_ends(rules: "ThirtyYearsRules", game_map: GameMap, location: Location) -> frozenset[str]:
    ends = set()
    for middle in game_map.fleet_targets(location):
        for end in game_map.fleet_targets(middle):
            try:
                rules.check_double_move(game_map, province_of(location), province_of(middle), province_of(end))
            except Illegal:
                continue
            ends.add(province_of(end))
    return frozenset(ends)


@dataclass(frozen=True)
class ThirtyYearsRules(Rules):
    """The 30JK calendar on top of the standard rules."""

    name: str = "30jk"
    transforms: bool = True
    double_moves: bool = True

    def check_double_move(self, game_map: GameMap, origin: str, middle: str, end: str) -> None:
        """``F origin - middle - end``: both legs downstream along a river, the
        start and the middle on it, the end on it or its mouth; a change of
        river only where a tributary ends in the river it joins (section 4-5,
        ruling R29)."""
        firsts = _leg_rivers(game_map, origin, middle, into_mouth=False)
        seconds = _leg_rivers(game_map, middle, end, into_mouth=True)
        for first in firsts:
            for second in seconds:
                if first is second or (first.joins == second.name and first.provinces[-1] == middle):
                    return
        raise Illegal(
            f"a double move cannot turn from the {firsts[0].name} into the {seconds[0].name} at {middle}: "
            "it may change river only where a tributary ends, with the current"
        )

    def double_move_ends(self, game_map: GameMap, location: Location) -> frozenset[str]:
        """Provinces a fleet on ``location`` reaches by a legal double move."""
        return _double_move_ends(self, game_map, location)

    def can_convoy_from(self, province: Province) -> bool:
        """Fleets on coasts and river banks convoy too (section 6, ruling R27)."""
        return province.terrain != "land"

    def first_phase(self, game_map: GameMap) -> Phase:
        """``<start year>M``: 1618M."""
        return Phase(game_map.start_year, "", PhaseKind.MOVEMENT)

    def movement_after(self, phase: Phase) -> Phase | None:
        """The next year's movement, unless an odd year ends with adjustments."""
        if phase.kind is PhaseKind.ADJUSTMENT or phase.year % 2 == 0:
            return Phase(phase.year + 1, "", PhaseKind.MOVEMENT)
        return None

    def retreat_phase(self, movement: Phase) -> Phase:
        """``<year>R``."""
        return Phase(movement.year, "", PhaseKind.RETREAT)

    def adjustment_phase(self, phase: Phase) -> Phase:
        """``<year>A``, only at the end of odd years."""
        return Phase(phase.year, "", PhaseKind.ADJUSTMENT)

    def phase_problem(self, phase: Phase) -> str | None:
        """30JK phases are ``<year>M``, ``<year>R`` and, in odd years, ``<year>A``."""
        if phase.season:
            return f"{phase} has a season; 30JK phases are <year>M, <year>R and <year>A"
        if phase.kind is PhaseKind.ADJUSTMENT and phase.year % 2 == 0:
            return f"{phase}: adjustments take place only at the end of odd years"
        return None

    def counts_centres_after(self, phase: Phase) -> bool:
        """Centres change owner at the end of odd years (ruling R26)."""
        return phase.year % 2 == 1


THIRTY_YEARS = ThirtyYearsRules()
