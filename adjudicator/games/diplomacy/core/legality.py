"""Legality of movement-phase orders against a position: the meaning layer.

``check_movement_order`` either returns the order normalised to the board
(actual unit types and locations, coasts completed or dropped as the
DATC prefers) or the reason it is illegal.  An illegal order is one that
could not be valid whatever the other orders are (DATC 4.E.1); the unit
then holds.  See docs/rulings.md for every choice made here.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from adjudicator.games.diplomacy.core.board import Board
from adjudicator.games.diplomacy.core.errors import Illegal
from adjudicator.games.diplomacy.core.model import ARMY, FLEET, Location, Unit, UnitType, coast_of, province_of
from adjudicator.games.diplomacy.core.orders import (
    Build,
    ConfessionChange,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
    Transform,
    Waive,
)


def find_own_unit(board: Board, power: str, location: Location) -> Unit:
    """The unit ``power`` orders at ``location`` (its coast and type as on the board)."""
    unit = board.unit_at.get(province_of(location))
    if unit is None:
        raise Illegal(f"there is no unit in {province_of(location)}")
    if unit.power != power:
        raise Illegal(f"the unit in {unit.province} belongs to {unit.power}")
    return unit


def _target_unit(board: Board, location: Location, what: str) -> Unit:
    unit = board.unit_at.get(province_of(location))
    if unit is None:
        raise Illegal(f"there is no unit in {province_of(location)} to {what}")
    return unit


_NOWHERE: dict[str, tuple[Location, ...]] = {}


def fleet_destination(board: Board, origin: Location, destination: Location) -> Location:
    """Complete or check the coast of a fleet move (DATC 4.B.1-4.B.3, 4.B.6).

    Returns the location the fleet moves to, or raises ``Illegal``.
    """
    province = province_of(destination)
    locations = board.fleet_locations[province]
    if not locations:
        raise Illegal(f"a fleet cannot go to {province}, it is inland")
    reachable = board.fleet_moves_into.get(origin, _NOWHERE).get(province, ())
    if province != destination and destination in locations:  # a coast the province has
        if destination not in reachable:
            raise Illegal(f"F {origin} cannot reach {destination}")
        return destination
    # No coast, or a coast the province does not have (ignored, DATC 4.B.6).
    if not reachable:
        raise Illegal(f"F {origin} cannot reach {province}")
    if len(reachable) > 1:
        coasts = " or ".join(reachable)
        raise Illegal(f"the coast must be given: {coasts}")
    return reachable[0]


def _as_on_board(order: Hold | Move | SupportHold | SupportMove | Convoy, unit: Unit) -> bool:
    """True when ``order`` names ``unit`` exactly as it stands (type and
    location): then a check that changes nothing else may return the order
    itself rather than an equal copy."""
    return order.unit is unit.kind and order.location == unit.location


def _province(board: Board, location: Location) -> str:
    """``province_of(location)``, from the map's table when it has the location."""
    return board.province_at.get(location) or province_of(location)


def _check_move(board: Board, unit: Unit, order: Move) -> Move:
    destination = board.province_at.get(order.destination) or province_of(order.destination)  # ``_province`` inline
    if destination == unit.province:
        raise Illegal("a unit cannot move to its own province")
    if order.unit is unit.kind and order.location == unit.location and not order.via_convoy and not order.waypoints:
        # The common case first: a plain move, written as on the board, to
        # a neighbour (by land without a coast; by sea to a location the
        # fleet reaches): already in its normal form.
        if unit.kind is ARMY:
            if destination in board.army_neighbours[unit.province] and order.destination == destination:
                return order
        elif order.destination in board.fleet_targets.get(unit.location, ()):
            return order
    if unit.kind is FLEET:
        if order.via_convoy:
            raise Illegal("only armies can be convoyed")
        if order.waypoints:
            if not board.rules.double_moves:
                raise Illegal("a fleet moves one province per turn")
            if len(order.waypoints) != 1:
                raise Illegal("a double move names one province in between: F xxx - yyy - zzz")
            middle = fleet_destination(board, unit.location, order.waypoints[0])
            end = fleet_destination(board, middle, order.destination)
            board.rules.check_double_move(board.game_map, unit.province, province_of(middle), province_of(end))
            return Move(unit.kind, unit.location, end, False, (middle,))
        destination_location = fleet_destination(board, unit.location, order.destination)
        if order.unit is unit.kind and order.location == unit.location and order.destination == destination_location:
            return order  # already in its normal form (orders are immutable values; ``_as_on_board`` inline)
        return Move(unit.kind, unit.location, destination_location)
    # Armies: coasts are irrelevant (DATC 4.B.6); a path names a convoy (4.A.6).
    via_convoy = order.via_convoy or bool(order.waypoints)
    if destination in board.seas:
        raise Illegal("an army cannot move to a sea")
    adjacent = destination in board.army_neighbours[unit.province]
    if not adjacent or via_convoy:
        if not board.convoy_route_possible(unit.province, destination):
            if adjacent:
                raise Illegal(f"no fleets could convoy A {unit.province} to {destination}")
            raise Illegal(f"{destination} is not next to {unit.province} and no convoy route is possible")
    if order.unit is unit.kind and order.location == unit.location and order.destination == destination \
            and order.via_convoy == via_convoy and not order.waypoints:
        return order
    return Move(unit.kind, unit.location, destination, via_convoy)


def _supported_move_possible(board: Board, target: Unit, destination: Location, supporter: str) -> Location:
    """Check that ``target`` could make the supported move; returns the
    destination as the support names it (army coasts dropped)."""
    province = province_of(destination)
    if target.kind is ARMY:
        if province in board.seas:
            raise Illegal("an army cannot move to a sea")
        if province not in board.army_neighbours[target.province] and not board.convoy_route_possible(
            target.province, province, excluded=supporter
        ):
            raise Illegal(f"A {target.province} cannot reach {province}")
        return province
    locations = board.fleet_locations[province]
    rules = board.rules
    if rules.double_moves and province in rules.double_move_ends(board.game_map, target.location):
        return destination if destination in locations else province
    if province != destination and destination in locations:  # a coast the province has
        if not board.game_map.fleet_can_move(target.location, destination):
            raise Illegal(f"F {target.location} cannot reach {destination}")
        return destination
    if province not in board.fleet_reaches.get(target.location, ()):
        raise Illegal(f"F {target.location} cannot reach {province}")
    return province


def _check_support_hold(board: Board, unit: Unit, order: SupportHold) -> SupportHold:
    target = board.unit_at.get(board.province_at.get(order.target) or province_of(order.target)) \
        or _target_unit(board, order.target, "support")
    province = target.province
    if province == unit.province:
        raise Illegal("a unit cannot support itself")
    if province not in (board.army_neighbours[unit.province] if unit.kind is ARMY
                        else board.fleet_reaches.get(unit.location, ())):  # ``_reaches`` inline
        raise Illegal(f"{unit} cannot reach {target.province}, so cannot support there")
    if order.unit is unit.kind and order.location == unit.location and order.target_unit is target.kind \
            and order.target == target.location:
        return order
    return SupportHold(unit.kind, unit.location, target.kind, target.location)


def _check_support_move(board: Board, unit: Unit, order: SupportMove) -> SupportMove:
    province_at = board.province_at
    target = board.unit_at.get(province_at.get(order.target) or province_of(order.target)) \
        or _target_unit(board, order.target, "support")
    destination = province_at.get(order.destination) or province_of(order.destination)
    if target.province == unit.province:
        raise Illegal("a unit cannot support its own move")
    if destination == unit.province:
        raise Illegal("a unit cannot support a move into its own province")
    if destination == target.province:
        raise Illegal("a unit cannot move to its own province")
    if destination not in (board.army_neighbours[unit.province] if unit.kind is ARMY
                           else board.fleet_reaches.get(unit.location, ())):  # ``_reaches`` inline
        raise Illegal(f"{unit} cannot reach {destination}, so cannot support a move there")
    if target.kind is ARMY and destination in board.army_neighbours[target.province]:
        named = destination  # the common case of ``_supported_move_possible``: a move by land
    else:
        named = _supported_move_possible(board, target, order.destination, unit.province)
    if (order.unit is unit.kind and order.location == unit.location and order.target_unit is target.kind
            and order.target == target.location and order.destination == named):
        return order
    return SupportMove(unit.kind, unit.location, target.kind, target.location, named)


def _check_convoy(board: Board, unit: Unit, order: Convoy) -> Convoy:
    if unit.kind is not FLEET or unit.province not in board.convoy_waters:
        raise Illegal(f"{unit} cannot convoy: only fleets at sea convoy")
    target = board.unit_at.get(_province(board, order.target)) or _target_unit(board, order.target, "convoy")
    if target.kind is not ARMY:
        raise Illegal(f"{target} is not an army; only armies can be convoyed")
    destination = _province(board, order.destination)
    if destination == target.province:
        raise Illegal("a unit cannot move to its own province")
    if target.province not in board.coasts or destination not in board.coasts:
        raise Illegal(f"an army cannot be convoyed from {target.province} to {destination}")
    if not (
        # A fleet next to the army that reaches the destination is a chain of
        # its own (so on a chordless one): no search needed.
        unit.province in board.sea_neighbours[target.province]
        and destination in board.fleet_reaches.get(unit.location, ())
    ) and unit.province not in board.necessary_fleets(target.province, destination):
        raise Illegal(f"{unit} is not on any convoy route from {target.province} to {destination}")
    if (order.unit is unit.kind and order.location == unit.location and order.target_unit is target.kind
            and order.target == target.location and order.destination == destination):
        return order
    return Convoy(unit.kind, unit.location, target.kind, target.location, destination)


def _check_transform(board: Board, unit: Unit, order: Transform) -> Transform:
    if not board.rules.transforms:
        raise Illegal("units cannot transform in this variant")
    game_map = board.game_map
    if order.into is ARMY:
        if unit.kind is ARMY:
            raise Illegal(f"{unit} is already an army")
        if game_map.provinces[unit.province].terrain == "sea":
            raise Illegal(f"an army cannot stand in {unit.province}, it is sea")
        return Transform(unit.kind, unit.location, ARMY)
    locations = game_map.fleet_locations(unit.province)
    if not locations:
        raise Illegal(f"a fleet cannot stand in {unit.province}, it is inland")
    if len(locations) == 1:
        target = locations[0]
    elif order.coast is None:
        raise Illegal(f"the coast must be given: {' or '.join(locations)}")
    elif f"{unit.province}/{order.coast}" not in locations:
        raise Illegal(f"{unit.province} has no coast {order.coast}: {' or '.join(locations)}")
    else:
        target = f"{unit.province}/{order.coast}"
    if unit.kind is FLEET and unit.location == target:
        raise Illegal(f"{unit} is already a fleet there")
    return Transform(unit.kind, unit.location, FLEET, coast_of(target))


def _check_hold(board: Board, unit: Unit, order: Hold) -> Hold:
    return order if _as_on_board(order, unit) else Hold(unit.kind, unit.location)


MOVEMENT_CHECKS: dict[type, Callable[[Board, Unit, Any], Order]] = {
    Hold: _check_hold,
    Move: _check_move,
    SupportHold: _check_support_hold,
    SupportMove: _check_support_move,
    Convoy: _check_convoy,
    Transform: _check_transform,
}
"""The check of each order kind of a movement phase (looked up by the
order's exact type: the order kinds have no subclasses)."""


def check_movement_order(board: Board, power: str, order: Order) -> Order:
    """Normalise a movement-phase order of ``power`` to the board, or raise
    ``Illegal`` with the reason (the unit then holds)."""
    check = MOVEMENT_CHECKS.get(type(order))
    if check is None:
        raise Illegal(f"'{order}' is not an order for a movement phase")
    unit = board.unit_at.get(province_of(order.location))  # type: ignore[union-attr]
    if unit is None or unit.power != power:
        unit = find_own_unit(board, power, order.location)  # type: ignore[union-attr]  # raises why
    return check(board, unit, order)


def _tidy_unit(kind: UnitType | None, location: Location, unit_at: Mapping[str, Unit]) -> tuple[UnitType | None, Location]:
    unit = unit_at.get(province_of(location))
    if unit is not None:
        return unit.kind, unit.location
    if kind is ARMY:
        return kind, province_of(location)
    return kind, location


def _for_kind(kind: UnitType | None, destination: Location) -> Location:
    return province_of(destination) if kind is ARMY else destination


def tidy_order(order: Order, unit_at: Mapping[str, Unit]) -> Order:
    """Best-effort canonical form of an order that may be illegal: unit
    types and coasts as on the board (DATC 4.B.5, 4.C.2), army coasts
    dropped (4.B.6).  Never raises; used to report invalid orders."""
    if isinstance(order, (Waive, ConfessionChange)):
        return order
    if isinstance(order, Build):
        return Build(order.unit, _for_kind(order.unit, order.location))
    kind, location = _tidy_unit(order.unit, order.location, unit_at)
    if isinstance(order, (Hold, Disband, Remove)):
        return type(order)(kind, location)
    if isinstance(order, Move):
        return Move(kind, location, _for_kind(kind, order.destination), order.via_convoy, order.waypoints)
    if isinstance(order, Retreat):
        return Retreat(kind, location, _for_kind(kind, order.destination))
    if isinstance(order, Transform):
        return Transform(kind, location, order.into, order.coast)
    target_kind, target = _tidy_unit(order.target_unit, order.target, unit_at)
    if isinstance(order, SupportHold):
        return SupportHold(kind, location, target_kind, target)
    return type(order)(kind, location, target_kind, target, _for_kind(target_kind, order.destination))
