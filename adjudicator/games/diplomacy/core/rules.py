"""Rules hooks: the small, named differences between variants.

A variant is a map file plus one ``Rules`` object chosen by the map's
``variant.rules`` key (see ``adjudicator.games.diplomacy.variants``).  The resolver is
shared; a variant overrides only the hooks below (which provinces can hold
a convoying fleet, the phase calendar, when supply centres change hands).
"""

from __future__ import annotations


from typing import TYPE_CHECKING, Any, Mapping

from adjudicator.games.diplomacy.core.errors import Illegal
from adjudicator.games.diplomacy.core.mapdata import GameMap, Province
from adjudicator.games.diplomacy.core.model import (
    ADJUSTMENT, MOVEMENT, RETREAT, Confession, Location, Phase, Position, UnitEvent,
)

from adjudicator.records import Record

if TYPE_CHECKING:  # orders are only passed through here: a start position needs none (issue 20)
    from adjudicator.games.diplomacy.core.orders import Order


class Rules(Record):
    """The standard (Calhamer, 2023 rulebook) hooks; a variant's rules are
    a subclass with its own defaults (30JK's ``ThirtyYearsRules``)."""

    __slots__ = ("name", "transforms", "double_moves")
    name: str
    transforms: bool  # may units change kind with a T order (30JK section 7)?
    double_moves: bool  # may fleets move twice along a river (30JK section 4)?

    def __init__(self, name: str = "standard", transforms: bool = False, double_moves: bool = False) -> None:
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "transforms", transforms)
        object.__setattr__(self, "double_moves", double_moves)

    def check_double_move(self, game_map: GameMap, origin: str, middle: str, end: str) -> None:
        """Raise ``Illegal`` unless a fleet may move ``origin - middle - end``
        (each leg already a possible fleet move)."""
        raise Illegal("a fleet moves one province per turn")

    def double_move_ends(self, game_map: GameMap, location: Location) -> frozenset[str]:
        """Provinces a fleet on ``location`` can reach only by a double move."""
        return frozenset()

    def can_convoy_from(self, province: Province) -> bool:
        """True when a fleet in ``province`` may convoy (standard: seas only)."""
        return province.terrain == "sea"

    def first_phase(self, game_map: GameMap) -> Phase:
        """The phase a new game starts in."""
        return Phase(game_map.start_year, "S", MOVEMENT)

    def movement_after(self, phase: Phase) -> Phase | None:
        """The next movement phase after ``phase`` when no adjustment comes
        between (``None`` after a fall turn: adjustments come first)."""
        if phase.season == "S":
            return Phase(phase.year, "F", MOVEMENT)
        if phase.season == "W":
            return Phase(phase.year + 1, "S", MOVEMENT)
        return None

    def retreat_phase(self, movement: Phase) -> Phase:
        """The retreat phase that belongs to a movement phase."""
        return Phase(movement.year, movement.season, RETREAT)

    def adjustment_phase(self, phase: Phase) -> Phase:
        """The adjustment phase that ends the year of ``phase``."""
        return Phase(phase.year, "W", ADJUSTMENT)

    def phase_problem(self, phase: Phase) -> str | None:
        """Why ``phase`` is not a phase of this calendar (``None`` if it is)."""
        if not phase.season:
            return f"{phase} has no season; standard phases are S<year>M, F<year>M, S/F<year>R, W<year>A"
        return None

    def option_problem(self, options: Mapping[str, Any]) -> str | None:
        """What is wrong with a game's variant options (the standard game has none)."""
        return f"unknown option(s) {', '.join(sorted(options))}" if options else None

    def initial_confessions(self, game_map: GameMap, options: Mapping[str, Any]) -> dict[str, Confession]:
        """Each power's confession at the start (none in the standard game)."""
        return {}

    def check_power_order(
        self, game_map: GameMap, position: Position, power: str, order: Order, options: Mapping[str, Any]
    ) -> Order:
        """Validate an order given by a power rather than a unit (a change of
        confession); raise ``Illegal`` where the variant has none."""
        raise Illegal(f"'{order}': there are no confessions in this variant")

    def apply_power_orders(
        self, game_map: GameMap, position: Position, orders: Mapping[str, Order], options: Mapping[str, Any]
    ) -> Mapping[str, Confession]:
        """The confessions after the powers' own orders of a movement phase."""
        return position.confessions

    def end_of_turn(self, game_map: GameMap, position: Position) -> tuple[Position, tuple[UnitEvent, ...]]:
        """What happens after the retreats of a turn (30JK: religious warfare)."""
        return position, ()

    def draw(self, game_map: GameMap, position: Position) -> str | None:
        """Why the game ends in a draw at ``position`` (``None``: it goes on)."""
        return None

    def counts_centres_after(self, phase: Phase) -> bool:
        """True when supply centres change owner at the end of ``phase``'s turn
        (standard: after the fall turn, retreats included)."""
        return phase.season == "F"


STANDARD = Rules()
