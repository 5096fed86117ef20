"""30JK – Dreißigjähriger Krieg Diplomacy: the rules hooks (seed 004).

One movement turn a year from 1618 (section 3), adjustments and the
change of supply-centre owners at the end of every odd year (rulings
R25, R26), solo victory checked then (section 10); fleets on coasts and
river banks convoy (section 6, R27).
"""

from __future__ import annotations

from dataclasses import dataclass

from adjudicator.core.mapdata import GameMap, Province
from adjudicator.core.model import Phase, PhaseKind
from adjudicator.core.rules import Rules


@dataclass(frozen=True)
class ThirtyYearsRules(Rules):
    """The 30JK calendar on top of the standard rules."""

    name: str = "30jk"
    transforms: bool = True

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
