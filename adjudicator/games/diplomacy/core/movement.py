"""Resolution of a movement phase (DATC section 5).

Every move, support and convoy order is a yes/no decision whose condition
refers to other decisions: attack, hold, defend and prevent strengths, the
convoy path, support cuts.  Decisions are resolved recursively; where the
recursion meets itself the guess algorithm of DATC 5.F tries both answers.
A cycle with one consistent answer takes it; a cycle with none or two is
a circular movement (all its moves succeed) or, if a convoy is part of it,
a convoy paradox settled by the Szykman rule (its convoys fail).

A fleet's double move along a river (30JK, ``F xxx - yyy - zzz``) is two
move decisions: the first leg from its province, the second from the
middle province, whose "path" is the success of the first leg (rulings
R29, R30).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import AbstractSet, NamedTuple

from adjudicator.games.diplomacy.core.board import Board, route_exists
from adjudicator.games.diplomacy.core.model import (
    ARMY, FLEET, MADE_UNITS, Location, Unit, make_unit, province_of,
)
from adjudicator.games.diplomacy.core.orders import Convoy, Move, Order, SupportHold, SupportMove, Transform


class UnitOutcome(NamedTuple):
    """What happened to one unit's order: success, a reason when it failed,
    and whether (and by whom) the unit was dislodged (a named tuple: a phase
    builds one per unit)."""

    succeeded: bool
    reason: str
    dislodged_by: str | None


@dataclass(frozen=True, slots=True)
class MovementOutcome:
    """The resolved movement phase: the outcomes of the units whose order
    did not simply succeed, keyed by province (a unit absent succeeded and
    was not dislodged), units after the phase (dislodged ones excluded) and
    the provinces they stand in, dislodged units with their attacker, and
    the provinces left empty by a standoff."""

    outcomes: dict[str, UnitOutcome]
    units: tuple[Unit, ...]
    occupied: frozenset[str]
    dislodged: tuple[tuple[Unit, str, bool], ...]
    standoffs: frozenset[str]


SECOND_LEG = ">2"

_SUCCEEDED = UnitOutcome(True, "", None)  # the common outcome, shared (outcomes are immutable)


def second_leg(province: str) -> str:
    """The decision key of the second leg of a double move from ``province``."""
    return province + SECOND_LEG


class _Resolver:
    """The decisions of one movement phase and their resolution state."""

    __slots__ = (
        "board", "unit_at", "orders", "owner", "origin", "first_leg", "target", "moves", "decisions", "moves_to",
        "hold_supports", "move_supports", "convoyed", "convoys_for", "unmatched", "resolution", "resolved",
        "visited", "cycle", "guess_based", "recursion_hits", "opposing", "needs_path", "paths", "supports",
        "convoys", "transforms",
    )

    def __init__(self, board: Board, orders: dict[str, Order]) -> None:
        self.board = board
        self.unit_at = unit_at = board.unit_at
        # Facts fixed by the orders alone, worked out in one pass: the order,
        # unit and origin of each decision (copies of the orders and units
        # only when a double move is split into legs), each move's
        # destination province, the moves into each province, the decisions
        # of each kind (in the orders' order) and the army moves that go by
        # convoy whatever the fleets do (not to a neighbour, or "via convoy").
        neighbours = board.army_neighbours
        province_at = board.province_at  # every location in the orders is one of the map's (legality)
        decided: dict[str, Order] = orders
        owner: dict[str, Unit] = unit_at  # decision key -> the unit deciding
        origin: dict[str, str] | None = None  # decision key -> province the move starts from
        first_leg: dict[str, str] = {}  # second-leg key -> first-leg key
        target: dict[str, str] = {}  # move key -> destination province
        moves_to: dict[str, list[str]] = {}  # province -> the moves into it
        moves: list[str] = []
        decisions: list[str] = []  # every move, support and convoy key, in order
        supports: list[str] = []
        convoys: list[str] = []
        convoyed: set[str] = set()
        by_land: list[str] = []  # army moves to a neighbour, convoyed only if their own power convoys them
        transforms: list[str] = []
        pairs: list[str] = []  # moves into the province of a unit moving back here (seen second)
        for province, order in orders.items():
            kind = type(order)
            if kind is Move:
                destination = province_at[order.destination]  # type: ignore[union-attr]
                unit_kind = unit_at[province].kind
                if order.waypoints and unit_kind is FLEET:  # type: ignore[union-attr]
                    if origin is None:
                        decided, owner, origin = dict(orders), dict(unit_at), dict(zip(unit_at, unit_at))
                    middle = order.waypoints[0]  # type: ignore[union-attr]
                    leg = province + SECOND_LEG
                    decided[province] = Move(order.unit, order.location, middle)  # type: ignore[union-attr]
                    decided[leg] = Move(order.unit, middle, order.destination)  # type: ignore[union-attr]
                    owner[leg], origin[leg], first_leg[leg] = owner[province], province_of(middle), province
                    target[province] = province_of(middle)
                    if target.get(target[province]) == province:
                        pairs.append(province)
                    target[leg] = destination
                    moves_to.setdefault(province_of(middle), []).append(province)
                    moves_to.setdefault(destination, []).append(leg)
                    moves += (province, leg)
                    decisions += (province, leg)
                    continue
                target[province] = destination
                if destination in moves_to:
                    moves_to[destination].append(province)
                else:
                    moves_to[destination] = [province]
                if target.get(destination) == province:
                    pairs.append(province)
                moves.append(province)
                decisions.append(province)
                if unit_kind is ARMY:
                    if order.via_convoy or destination not in neighbours[province]:  # type: ignore[union-attr]
                        convoyed.add(province)
                    else:
                        by_land.append(province)
            elif kind is SupportHold or kind is SupportMove:
                supports.append(province)
                decisions.append(province)
            elif kind is Convoy:
                convoys.append(province)
                decisions.append(province)
            elif kind is Transform:
                transforms.append(province)
        self.supports, self.convoys, self.transforms = supports, convoys, transforms
        self.orders, self.owner, self.first_leg = decided, owner, first_leg
        self.origin = dict(zip(unit_at, unit_at)) if origin is None else origin
        self.target, self.moves, self.decisions, self.moves_to = target, moves, decisions, moves_to
        self.hold_supports: dict[str, list[str]] = {}
        self.move_supports: dict[str, list[str]] = {}
        self.convoyed = convoyed
        self.convoys_for: dict[str, set[str]] = {}
        self.unmatched: dict[str, str] = {}
        self.resolution: dict[str, bool] = {}
        self.resolved: set[str] = set()
        self.visited: set[str] = set()
        self.cycle: list[str] = []
        self.guess_based = False
        self.recursion_hits = 0
        self.paths: dict[str, bool] = {}  # convoyed move -> its path, once its fleets are settled
        if convoys:
            self._convoyed(by_land, convoys)
        elif convoyed:
            self.convoys_for = {province: set() for province in convoyed}
        if supports or convoys:
            self._index(supports, convoys)
        # Head-to-head battles: two moves by land into each other's province
        # (never a convoyed move nor a leg of a double move, ruling R30);
        # a move into a province whose unit does not move back has none.
        self.opposing: dict[str, str] = {}
        for key in pairs:
            other = target[key]
            if key not in convoyed and other not in convoyed:
                self.opposing[key] = other
                self.opposing[other] = key
        self.needs_path = convoyed | first_leg.keys() if first_leg else convoyed  # moves whose path is a decision
        # Decisions that depend on no other are settled at once: a plain move
        # by land into an empty province nobody else enters (its supports
        # add to a strength nothing opposes; they stay decisions of their
        # own), and the supports and convoys nobody attacks (``_index``).
        resolution, resolved = self.resolution, self.resolved
        for province in moves:
            destination = target[province]
            if (
                destination not in unit_at
                and len(moves_to[destination]) == 1
                and province not in convoyed
                and province not in first_leg
            ):
                resolution[province] = True
                resolved.add(province)

    # --- set-up -------------------------------------------------------------

    def _convoyed(self, by_land: list[str], convoys: list[str]) -> None:
        """The fleets convoying each convoyed army move, and the army moves
        to a neighbour that go by convoy because a fleet of their own power
        convoys them (DATC 4.A.3)."""
        orders, unit_at, target, convoyed = self.orders, self.unit_at, self.target, self.convoyed
        province_at = self.board.province_at
        convoying: dict[tuple[str, str], set[str]] = {}  # (army, destination) -> fleets convoying it there
        for fleet in convoys:
            convoy: Convoy = orders[fleet]  # type: ignore[assignment]
            convoying.setdefault((province_at[convoy.target], convoy.destination), set()).add(fleet)
        for province in by_land:
            fleets = convoying.get((province, target[province]))
            if fleets and any(unit_at[f].power == unit_at[province].power for f in fleets):
                convoyed.add(province)
        self.convoys_for = {province: convoying.get((province, target[province])) or set() for province in convoyed}

    def _index(self, supports: list[str], convoys: list[str]) -> None:
        orders, target, moves_to = self.orders, self.target, self.moves_to
        province_at = self.board.province_at
        for province in supports:
            order: SupportHold | SupportMove = orders[province]  # type: ignore[assignment]
            if type(order) is SupportHold:
                target_province = province_at[order.target]
                if type(orders.get(target_province)) is Move:
                    self.unmatched[province] = "the supported unit moves instead of holding"
                else:
                    self.hold_supports.setdefault(target_province, []).append(province)
                continue
            supported = province_at[order.target]
            wanted = province_at[order.destination]  # type: ignore[union-attr]
            leg = supported + SECOND_LEG
            if leg in target and target[leg] == wanted:
                supported = leg
            move = orders.get(supported)
            if type(move) is not Move or target[supported] != wanted:
                self.unmatched[province] = "the supported unit does not make that move"
            elif order.destination != wanted and order.destination != move.destination:  # type: ignore[union-attr]
                self.unmatched[province] = f"the supported fleet moves to {move.destination}"
            else:
                self.move_supports.setdefault(supported, []).append(province)
        for province in convoys:
            army = province_at[orders[province].target]  # type: ignore[union-attr]
            if province not in self.convoys_for.get(army, ()):
                self.unmatched[province] = "the army does not move as convoyed"
        resolution, resolved = self.resolution, self.resolved
        for province in self.unmatched:
            resolution[province] = False
            resolved.add(province)
        # A support or convoy nobody attacks is given.
        for province in (*supports, *convoys):
            if province not in moves_to and province not in resolved:
                resolution[province] = True
                resolved.add(province)

    def head_to_head(self, province: str) -> str | None:
        """The province of the unit that ``province``'s move meets head to head
        (never the second leg of a double move, ruling R30)."""
        return self.opposing.get(province)

    # --- the guess algorithm (DATC 5.F) -------------------------------------

    def resolve(self, key: str) -> bool:
        resolution, cycle, visited = self.resolution, self.cycle, self.visited
        if key in self.resolved:
            return resolution[key]
        if key in cycle:
            self.guess_based = True
            return resolution[key]
        if key in visited:
            cycle.append(key)
            self.guess_based = True
            self.recursion_hits += 1
            return resolution[key]
        visited.add(key)
        old_cycle_length = len(cycle)
        old_guess_based = self.guess_based
        old_recursion_hits = self.recursion_hits
        self.guess_based = False
        resolution[key] = False
        order = self.orders[key]
        kind = type(order)  # ``adjudicate`` inline
        if kind is Move:
            first = self._move_succeeds(key)
        elif kind is Convoy:
            first = self._convoy_holds(key)
        else:
            first = self._support_given(key, order)  # type: ignore[arg-type]
        if not self.guess_based:  # no guess was needed: settled (``_settle`` inlined, the common case)
            self.guess_based = old_guess_based
            resolution[key] = first
            self.resolved.add(key)
            visited.discard(key)
            return first
        if key in self.cycle:
            self.recursion_hits -= 1
        if self.recursion_hits == old_recursion_hits:
            # This decision is the ancestor of the whole cycle: try the other guess.
            del self.cycle[old_cycle_length:]
            self.resolution[key] = True
            second = self.adjudicate(key)
            if first == second:
                del self.cycle[old_cycle_length:]
                self.guess_based = old_guess_based
                return self._settle(key, first)
            self._backup_rule(self.cycle[old_cycle_length:] or [key])
            del self.cycle[old_cycle_length:]
            self.guess_based = old_guess_based
            self.visited.discard(key)
            return self.resolve(key)
        if key not in self.cycle:
            self.cycle.append(key)
        self.resolution[key] = first
        self.visited.discard(key)
        return first

    def _settle(self, key: str, value: bool) -> bool:
        self.resolution[key] = value
        self.resolved.add(key)
        self.visited.discard(key)
        return value

    def _backup_rule(self, cycle: list[str]) -> None:
        """Zero or two consistent answers: circular movement or convoy paradox."""
        kinds = [self.orders[k] for k in cycle]
        if any(isinstance(o, Convoy) for o in kinds):
            # Szykman rule: the convoys in the paradox fail; the rest is
            # resolved again with that knowledge.
            for key in cycle:
                if isinstance(self.orders[key], Convoy):
                    self._settle(key, False)
                else:
                    self.visited.discard(key)
            return
        verdict = all(isinstance(o, Move) for o in kinds)
        for key in cycle:
            self._settle(key, verdict)

    # --- the conditions (DATC 5.B) --------------------------------------------

    def adjudicate(self, key: str) -> bool:
        order = self.orders[key]
        kind = type(order)
        if kind is Move:
            return self._move_succeeds(key)
        if kind is SupportHold or kind is SupportMove:
            return self._support_given(key, order)  # type: ignore[arg-type]
        return self._convoy_holds(key)

    def _convoy_holds(self, key: str) -> bool:
        # The attacks on the fleet are adjudicated in place rather than
        # resolved as decisions of their own, so that a convoy paradox is
        # always one clean cycle through the convoy (DATC 5.D, Pandin's
        # paradox).
        return not any(self.adjudicate(m) for m in self.moves_to.get(key, ()))

    def _support_given(self, key: str, order: SupportHold | SupportMove) -> bool:
        attackers = self.moves_to.get(key)
        if not attackers:
            return True
        power = self.unit_at[key].power
        exempt = self.board.province_at[order.destination] if type(order) is SupportMove else None
        for attacker in attackers:
            if self.owner[attacker].power == power:
                continue
            if self.origin[attacker] == exempt:
                if self.resolve(attacker):
                    return False
            elif self.path(attacker):
                return False
        return True

    def path(self, key: str) -> bool:
        """A move by land always has its path; a convoyed one needs a chain
        of fleets with matching, successful convoy orders; the second leg of
        a double move needs the first leg to succeed."""
        if key not in self.needs_path:
            return True
        if key in self.first_leg:
            return self.resolve(self.first_leg[key])
        known = self.paths.get(key)
        if known is not None:
            return known
        fleets = self.convoys_for[key]
        destination = self.target[key]
        found = route_exists(key, destination, lambda fleet: fleet in fleets and self.resolve(fleet), self.board)
        if fleets <= self.resolved:
            self.paths[key] = found  # settled fleets only: asking again gives the same
        return found

    def _given(self, supporters: list[str] | None, excluded_power: str | None = None) -> int:
        if not supporters:
            return 0
        count = 0
        resolved, resolution = self.resolved, self.resolution
        for supporter in supporters:
            if (resolution[supporter] if supporter in resolved else self.resolve(supporter)) and (
                excluded_power is None or self.unit_at[supporter].power != excluded_power
            ):
                count += 1
        return count

    def _decided(self, key: str) -> bool:
        """``resolve(key)``, without the call when it is settled already."""
        return self.resolution[key] if key in self.resolved else self.resolve(key)

    def defender(self, key: str) -> Unit | None:
        """The unit the move ``key`` attacks: the one in its destination,
        unless that unit moves away (not head to head) with success."""
        destination = self.target[key]
        defender = self.unit_at.get(destination)
        if defender is not None and destination in self.target and self.opposing.get(key) is None \
                and self._decided(destination):
            return None
        return defender

    def prevent_strength(self, key: str) -> int:
        if key in self.needs_path and not self.path(key):
            return 0
        opponent = self.opposing.get(key)
        if opponent is not None and self._decided(opponent):
            return 0
        return 1 + self._given(self.move_supports.get(key))

    def _move_succeeds(self, key: str) -> bool:
        # The attack strength first, with ``defender`` inline: no path, or a
        # defender of the mover's own power, means strength 0 (the questions
        # asked in the order of DATC 5.B, which the guess algorithm depends on).
        if key in self.needs_path and not self.path(key):
            return False
        target, resolution, resolved = self.target, self.resolution, self.resolved
        destination = target[key]
        opponent = self.opposing.get(key)
        defender = self.unit_at.get(destination)
        if defender is not None and destination in target and opponent is None \
                and (resolution[destination] if destination in resolved else self.resolve(destination)):
            defender = None
        supporters = self.move_supports.get(key)
        if defender is None:
            attack = 1 + self._given(supporters) if supporters else 1
        elif defender.power == self.owner[key].power:
            return False
        else:
            attack = 1 + self._given(supporters, excluded_power=defender.power) if supporters else 1
        if opponent is not None:
            # The defend strength of the unit met head to head.
            if attack <= 1 + self._given(self.move_supports.get(opponent)):
                return False
        elif destination in self.unit_at:
            # The hold strength of the destination: a unit that moves away
            # holds with 0 if it leaves, 1 if not; one that stays, 1 + support.
            if destination in self.target:
                if attack <= (0 if self._decided(destination) else 1):
                    return False
            elif attack <= 1 + self._given(self.hold_supports.get(destination)):
                return False
        for other in self.moves_to[destination]:
            if other != key and attack <= self.prevent_strength(other):
                return False
        return True


def resolve_movement(board: Board, orders: dict[str, Order]) -> MovementOutcome:
    """Resolve a movement phase.

    ``orders`` holds one legal, normalised order for every unit on the
    board, keyed by province (units without a legal order hold).  The
    result gives the outcome of every unit whose order did not simply
    succeed, the units after the phase and the provinces they stand in, the
    dislodged units (unit, attacker's province, whether the attacker was
    convoyed) and the standoff provinces.
    """
    resolver = _Resolver(board, orders)
    resolve, resolved = resolver.resolve, resolver.resolved
    for key in resolver.decisions:
        if key not in resolved:
            resolve(key)
    unit_at, resolution, target, moves_to = board.unit_at, resolver.resolution, resolver.target, resolver.moves_to
    first_leg, decided = resolver.first_leg, resolver.orders
    final: dict[str, Location]  # province -> where its unit moved
    if first_leg:
        final = {}
        for province in resolver.moves:
            if province in first_leg:
                continue  # a second leg: its unit is the one of the first
            leg = province + SECOND_LEG
            if leg in target and resolution[leg]:
                final[province] = decided[leg].destination  # type: ignore[union-attr]
            elif resolution[province]:
                final[province] = decided[province].destination  # type: ignore[union-attr]
    else:
        final = {key: decided[key].destination for key in resolver.moves if resolution[key]}  # type: ignore[union-attr]
    dislodger: dict[str, str] = {}
    for province, attackers in moves_to.items():
        if province in unit_at and province not in final:
            for attacker in attackers:
                if resolution[attacker]:
                    dislodger[province] = attacker

    # The units afterwards, in the board's order: a copy of the board with
    # the units that moved or transformed replaced and the dislodged ones
    # taken out.  Outcomes are worked out only for the units whose order
    # may not simply have succeeded: the moves that did not arrive where
    # ordered, the dislodged units, the supports not given and the convoys.
    outcomes: dict[str, UnitOutcome] = {}
    after = dict(unit_at)
    made = MADE_UNITS
    for province, location in final.items():
        unit = unit_at[province]
        moved = made.get((unit.power, location, unit.kind is ARMY))  # ``make_unit`` inline
        after[province] = moved if moved is not None else make_unit(unit.power, unit.kind, location)
        if location != orders[province].destination:  # type: ignore[union-attr]  # a double move stopped halfway
            outcomes[province] = _outcome(resolver, province, orders[province], None, final)
    for province in resolver.transforms:
        if province not in dislodger:
            unit, order = unit_at[province], orders[province]
            location = unit.province if order.coast is None else f"{unit.province}/{order.coast}"  # type: ignore[union-attr]
            after[province] = make_unit(unit.power, order.into, location)  # type: ignore[union-attr]
    dislodged: list[tuple[Unit, str, bool]] = []
    if dislodger:
        for province in unit_at if len(dislodger) > 1 else dislodger:  # the board's order
            if province in dislodger:
                attacker = dislodger[province]
                origin = resolver.origin[attacker]
                outcomes[province] = _outcome(resolver, province, orders[province], origin, final)
                dislodged.append((unit_at[province], origin, attacker in resolver.convoyed))
                del after[province]
    for province in resolver.moves:
        if province not in final and province not in outcomes and province not in first_leg:
            outcomes[province] = _outcome(resolver, province, orders[province], None, final)
    for province in resolver.supports:
        if not resolution[province] and province not in outcomes:
            outcomes[province] = _outcome(resolver, province, orders[province], None, final)
    for province in resolver.convoys:
        if province not in outcomes:
            outcome = _outcome(resolver, province, orders[province], None, final)
            if outcome is not _SUCCEEDED:
                outcomes[province] = outcome
    units = tuple(after.values())

    occupied = frozenset([unit.province for unit in units])
    standoffs = set()
    needs_path, path = resolver.needs_path, resolver.path
    for key in resolver.moves:
        if resolution[key] or (key in needs_path and not path(key)):
            continue
        destination = target[key]
        lost_head_to_head = (
            key in dislodger
            and resolver.origin[dislodger[key]] == destination
            and resolver.head_to_head(key) == destination
        )
        if destination not in occupied and not lost_head_to_head:
            standoffs.add(destination)
    return MovementOutcome(outcomes, units, occupied, tuple(dislodged), frozenset(standoffs))


def _move_failure(resolver: _Resolver, key: str, order: Move) -> str:
    if not resolver.path(key):
        if key in resolver.first_leg:
            return "the first leg failed"
        return "no convoy" if not resolver.convoys_for.get(key) else "convoy disrupted"
    defender = resolver.defender(key)
    if defender is not None and defender.power == resolver.owner[key].power:  # no attack strength
        return "cannot dislodge a unit of its own power"
    return "bounced"


def _outcome(
    resolver: _Resolver, province: str, order: Order, dislodged_by: str | None, final: dict[str, Location]
) -> UnitOutcome:
    kind = type(order)
    if kind is Move:
        if final.get(province) == order.destination:  # type: ignore[union-attr]
            return _SUCCEEDED
        first: Move = resolver.orders[province]  # type: ignore[assignment]
        if province in final:  # a double move that stopped halfway
            leg = second_leg(province)
            reason = _move_failure(resolver, leg, resolver.orders[leg])  # type: ignore[arg-type]
            return UnitOutcome(False, f"stopped in {final[province]}: second leg {reason}", None)
        return UnitOutcome(False, _move_failure(resolver, province, first), dislodged_by)
    if province in resolver.unmatched:
        return UnitOutcome(False, resolver.unmatched[province], dislodged_by)
    if kind is SupportHold or kind is SupportMove:
        if resolver.resolution[province]:
            return _SUCCEEDED if dislodged_by is None else UnitOutcome(True, "", dislodged_by)
        return UnitOutcome(False, "dislodged" if dislodged_by else "cut", dislodged_by)
    if kind is Convoy:
        if dislodged_by or not resolver.resolution[province]:
            return UnitOutcome(False, "dislodged" if dislodged_by else "convoy paradox (Szykman rule)", dislodged_by)
        if province_of(order.target) not in final:  # type: ignore[union-attr]
            return UnitOutcome(False, "the convoyed army did not arrive", None)
        return _SUCCEEDED
    if kind is Transform and dislodged_by:
        return UnitOutcome(False, "dislodged, so it does not transform", dislodged_by)
    if dislodged_by is None:
        return _SUCCEEDED
    return UnitOutcome(False, "dislodged", dislodged_by)


def retreat_options(
    board: Board, unit: Unit, attacker: str, by_convoy: bool, occupied: AbstractSet[str], standoffs: frozenset[str]
) -> tuple[Location, ...]:
    """Where a dislodged ``unit`` may retreat: next to it, empty after the
    movement phase, not a standoff province, and not the attacker's province
    unless the attacker came by convoy (DATC 4.A.5)."""
    game_map = board.game_map
    if unit.kind is ARMY:
        candidates = sorted(game_map.provinces[unit.province].army)
    else:
        candidates = sorted(game_map.fleet_targets(unit.location))
    options = []
    for location in candidates:
        province = province_of(location)
        if province in occupied or province in standoffs:
            continue
        if province == attacker and not by_convoy:
            continue
        options.append(location)
    return tuple(options)
