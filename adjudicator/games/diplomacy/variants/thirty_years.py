"""30JK – Dreißigjähriger Krieg Diplomacy: the rules hooks (seed 004).

One movement turn a year from 1618 (section 3), adjustments and the
change of supply-centre owners at the end of every odd year (rulings
R25, R26), solo victory checked then (section 10); fleets on coasts and
river banks convoy (section 6, R27); units transform (section 7, R28);
fleets move twice downstream along a river (sections 4-5, R29, R30);
confessions change and religious warfare follows every turn (sections
8-9, R31-R33); the game ends in a draw as section 10 says (R34); start
confessions follow section 11's options (R35).
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any, Mapping

from adjudicator.games.diplomacy.core.board import any_neighbours
from adjudicator.games.diplomacy.core.errors import Illegal
from adjudicator.games.diplomacy.core.mapdata import GameMap, Province, River
from adjudicator.games.diplomacy.core.model import Confession, Location, Phase, PhaseKind, Position, Unit, UnitEvent, province_of
from adjudicator.games.diplomacy.core.rules import Rules
from adjudicator.games.randomness import seed_text
from adjudicator.games.diplomacy.variants.religion import change_confession, end_transitions, random_confessions, religious_warfare

if TYPE_CHECKING:  # the orders come with the orders' parser: a start position needs none (issue 20)
    from adjudicator.games.diplomacy.core.orders import Order

CONFESSION_OPTIONS = ("historical", "random", "chosen")


def confession_option(options: Mapping[str, Any]) -> str:
    """The game's confession option (section 11): ``historical`` (default),
    ``random`` or ``chosen``; ``ValueError`` for anything else."""
    option = options.get("confessions", "historical")
    if option not in CONFESSION_OPTIONS:
        raise ValueError(f"confessions: {option!r} is not one of {', '.join(CONFESSION_OPTIONS)}")
    return str(option)


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


class ThirtyYearsRules(Rules):
    """The 30JK hooks on top of the standard rules."""

    __slots__ = ()

    def __init__(self, name: str = "30jk", transforms: bool = True, double_moves: bool = True) -> None:
        super().__init__(name, transforms, double_moves)

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

    def option_problem(self, options: Mapping[str, Any]) -> str | None:
        """``confessions`` (historical, random, chosen) and ``seed`` (random)."""
        unknown = sorted(set(options) - {"confessions", "seed"})
        if unknown:
            return f"unknown option(s) {', '.join(unknown)}"
        try:
            confession_option(options)
        except ValueError as error:
            return str(error)
        if not isinstance(options.get("seed", 0), int):
            return "seed: expected a whole number"
        return None

    def initial_confessions(self, game_map: GameMap, options: Mapping[str, Any]) -> dict[str, Confession]:
        """Section 2's confessions, or a seeded random draw with each
        confession at least three times (section 11, ``options.seed``,
        verifiable: ``random_confessions``)."""
        if confession_option(options) == "random":
            drawn, _ = random_confessions(list(game_map.powers), seed_text(options.get("seed", 0)))
            return {power: Confession(confession) for power, confession in drawn.items()}
        return {name: Confession(power.confession or "catholic") for name, power in game_map.powers.items()}

    def check_power_order(
        self, game_map: GameMap, position: Position, power: str, order: Order, options: Mapping[str, Any]
    ) -> Order:
        """A change of confession (section 8): only from a settled confession
        to the other one; with the ``chosen`` option, in the first year, the
        choice of the start confession (ruling R31)."""
        from adjudicator.games.diplomacy.core.orders import ConfessionChange

        if not isinstance(order, ConfessionChange):
            raise Illegal(f"'{order}' is not an order of a power")
        current = position.confessions.get(power)
        if self._choosing(game_map, position, options):
            return order
        if current is None:
            raise Illegal(f"{power} has no confession")
        if current.settled is None:
            raise Illegal(f"{power} is {current.state} until the end of {current.until}; it cannot change again")
        if current.settled == order.confession:
            raise Illegal(f"{power} is {order.confession} already")
        return order

    def apply_power_orders(
        self, game_map: GameMap, position: Position, orders: Mapping[str, Order], options: Mapping[str, Any]
    ) -> Mapping[str, Confession]:
        """Changes of confession take effect in the turn they are ordered,
        at once or through an ex-state by the power's centres (section 8)."""
        from adjudicator.games.diplomacy.core.orders import ConfessionChange

        confessions = dict(position.confessions)
        choosing = self._choosing(game_map, position, options)
        for power, order in orders.items():
            assert isinstance(order, ConfessionChange)
            if choosing:
                confessions[power] = Confession(order.confession)
            else:
                centres = sum(1 for owner in position.centres.values() if owner == power)
                confessions[power] = change_confession(
                    confessions[power], order.confession, centres, position.phase.year
                )
        return confessions

    def end_of_turn(self, game_map: GameMap, position: Position) -> tuple[Position, tuple[UnitEvent, ...]]:
        """Religious warfare after the retreats (section 9), then the end of
        transitions whose last year this was; defected units are
        incapacitated for the next turn (rulings R32, R33)."""
        events = religious_warfare(
            position.units, position.confessions, position.incapacitated, any_neighbours(game_map)
        )
        fate = {event.unit.province: event for event in events}
        units: list[Unit] = []
        for unit in position.units:
            event = fate.get(unit.province)
            if event is None:
                units.append(unit)
            elif event.outcome == "defected" and event.to is not None:
                units.append(Unit(event.to, unit.kind, unit.location))
        defected = frozenset(e.unit.province for e in events if e.outcome == "defected")
        after = position.replace(
            units=tuple(units),
            confessions=end_transitions(position.confessions, position.phase.year),
            incapacitated=defected,
        )
        return after, events

    def draw(self, game_map: GameMap, position: Position) -> str | None:
        """Section 10: no centre changed owner at the end of three building
        years in a row, or every power still in the game holds one
        confession (ruling R34)."""
        if position.quiet_years >= 3:
            return "no supply centre changed owner in three adjustment phases in a row"
        playing = {u.power for u in position.units} | set(position.centres.values())
        held = {position.confessions[p].settled if p in position.confessions else None for p in playing}
        if len(playing) > 1 and len(held) == 1 and None not in held:
            return f"every power still in the game is {held.pop()}"
        return None

    def _choosing(self, game_map: GameMap, position: Position, options: Mapping[str, Any]) -> bool:
        return confession_option(options) == "chosen" and position.phase.year == game_map.start_year

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
