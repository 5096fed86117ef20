"""Resolution of an adjustment phase: builds, waives, removals, civil disorder.

A power with more supply centres than units may build on its vacant, owned
home centres (or waive builds); a power with more units than centres must
remove the difference.  Orders are carried out one by one in the order
written (DATC 4.D.4-4.D.6): surplus builds and removals fail.  Removals a
power leaves out are chosen by the 2023 civil-disorder rule: the unit
farthest from the power's nearest owned supply centre (over land and sea
alike) goes first, fleets before armies at equal distance, then in the
alphabetical order of the provinces' English names.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from adjudicator.games.diplomacy.core.board import Board
from adjudicator.games.diplomacy.core.errors import Illegal
from adjudicator.games.diplomacy.core.legality import find_own_unit
from adjudicator.games.diplomacy.core.mapdata import GameMap
from adjudicator.games.diplomacy.core.model import (
    ARMY, FLEET, Location, Position, Unit, coast_of, province_of,
)
from adjudicator.games.diplomacy.core.orders import Build, Order, Remove, Waive
from adjudicator.games.diplomacy.core.reports import FAILS, SUCCEEDS, OrderBook, OrderReport

if TYPE_CHECKING:  # the grammar (Lark) is loaded only when orders are parsed
    from adjudicator.games.diplomacy.core.notation import ParsedLine


@dataclass(frozen=True, slots=True)
class Allowance:
    """How a power stands in an adjustment phase: builds it may make
    (limited by vacant owned home centres) or removals it must make."""

    builds: int
    removals: int


def allowances(game_map: GameMap, position: Position) -> dict[str, Allowance]:
    """Builds and removals of every power in ``position``."""
    occupied = {u.province for u in position.units}
    centre_counts: dict[str, int] = {}
    for owner in position.centres.values():
        centre_counts[owner] = centre_counts.get(owner, 0) + 1
    unit_counts: dict[str, int] = {}
    for unit in position.units:
        unit_counts[unit.power] = unit_counts.get(unit.power, 0) + 1
    result = {}
    for power in game_map.powers:
        centres, units = centre_counts.get(power, 0), unit_counts.get(power, 0)
        free_homes = sum(
            1
            for home in game_map.home_centres(power)
            if position.centres.get(home) == power and home not in occupied
        )
        result[power] = Allowance(max(0, min(centres - units, free_homes)), max(0, units - centres))
    return result


def _build_unit(game_map: GameMap, position: Position, power: str, order: Build) -> Unit:
    province = province_of(order.location)
    details = game_map.provinces[province]
    if details.home != power:
        raise Illegal(f"{province} is not a home centre of {power}")
    if position.centres.get(province) != power:
        raise Illegal(f"{power} does not own {province}")
    if any(u.province == province for u in position.units):
        raise Illegal(f"{province} is occupied")
    kind = order.unit
    location: Location = order.location
    if kind is None:
        # DATC 4.C.3: an army inland; a fleet where a coast is named.
        if details.terrain == "land":
            kind = ARMY
        elif coast_of(location) is not None:
            kind = FLEET
        else:
            raise Illegal(f"say whether an army or a fleet is to be built in {province}")
    if kind is ARMY:
        return Unit(power, kind, province)
    locations = game_map.fleet_locations(province)
    if not locations:
        raise Illegal(f"a fleet cannot be built in {province}, it is inland")
    if len(locations) > 1 and location not in locations:
        raise Illegal(f"the coast must be given for a fleet in {province}: {' or '.join(locations)}")
    return Unit(power, kind, location if location in locations else locations[0])


def _removal_order(board: Board, position: Position, power: str, units: list[Unit]) -> list[Unit]:
    """Units of ``power`` in the order civil disorder removes them."""
    owned = frozenset(position.centres_of(power))
    names = board.game_map.provinces

    def key(unit: Unit) -> tuple[int, int, str]:
        distance = board.distance_to(unit.province, owned) if owned else None
        far = -(distance if distance is not None else 10**6)
        return far, 0 if unit.kind is FLEET else 1, names[unit.province].name.casefold()

    return sorted(units, key=key)


def resolve_adjustments(
    game_map: GameMap,
    board: Board,
    position: Position,
    parsed: dict[str, list[ParsedLine]],
) -> tuple[tuple[OrderReport, ...], tuple[Unit, ...]]:
    """Resolve an adjustment phase; returns the reports (civil-disorder
    removals included) and the units afterwards."""
    allowance = allowances(game_map, position)
    book = OrderBook(board.unit_at)
    units = list(position.units)
    for power in game_map.powers:
        builds_left = allowance[power].builds
        removals_left = allowance[power].removals
        built: set[str] = set()
        removed: set[str] = set()
        for line in parsed.get(power, []):
            order = line.order
            if line.error is not None or order is None:
                book.invalid(power, line, str(line.error))
                continue
            try:
                outcome = _one_adjustment(game_map, board, position, power, order, allowance[power])
            except Illegal as error:
                book.invalid(power, line, str(error))
                continue
            index = book.accept(power, line, outcome, None)
            if isinstance(outcome, Remove):
                unit = find_own_unit(board, power, outcome.location)
                if unit.province in removed:
                    book.settle(index, FAILS, f"{unit} is already removed")
                elif removals_left == 0:
                    book.settle(index, FAILS, f"{power} has no more units to remove")
                else:
                    removals_left -= 1
                    removed.add(unit.province)
                    units.remove(unit)
                    book.settle(index, SUCCEEDS)
                continue
            site = province_of(outcome.location) if isinstance(outcome, Build) else None
            if site is not None and site in built:
                book.settle(index, FAILS, f"{site} already has a build this phase")
            elif builds_left == 0:
                book.settle(index, FAILS, f"{power} has no builds left")
            else:
                builds_left -= 1
                if isinstance(outcome, Build) and site is not None:
                    built.add(site)
                    units.append(Unit(power, outcome.unit or ARMY, outcome.location))
                book.settle(index, SUCCEEDS)
        if removals_left:
            remaining = [u for u in units if u.power == power]
            for unit in _removal_order(board, position, power, remaining)[:removals_left]:
                units.remove(unit)
                book.implied(power, f"REMOVE {unit}", SUCCEEDS, "civil disorder")
    return book.reports(), tuple(units)


def _one_adjustment(
    game_map: GameMap, board: Board, position: Position, power: str, order: Order, allowance: Allowance
) -> Build | Waive | Remove:
    """Normalise one adjustment order of ``power`` or raise ``Illegal``."""
    if isinstance(order, Build):
        if not allowance.builds:
            raise Illegal(f"{power} has no builds in this adjustment phase")
        unit = _build_unit(game_map, position, power, order)
        return Build(unit.kind, unit.location)
    if isinstance(order, Waive):
        if not allowance.builds:
            raise Illegal(f"{power} has no builds to waive")
        return order
    if isinstance(order, Remove):
        if not allowance.removals:
            raise Illegal(f"{power} has no units to remove")
        unit = find_own_unit(board, power, order.location)
        return Remove(unit.kind, unit.location)
    raise Illegal(f"'{order}' is not an order for an adjustment phase: only builds, waives and removals")
