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

from adjudicator.games.diplomacy.core.board import Board, route_exists
from adjudicator.games.diplomacy.core.model import Location, Unit, UnitType, province_of
from adjudicator.games.diplomacy.core.orders import Convoy, Move, Order, SupportHold, SupportMove, Transform


@dataclass(frozen=True, slots=True)
class UnitOutcome:
    """What happened to one unit's order: success, a reason when it failed,
    and whether (and by whom) the unit was dislodged."""

    succeeded: bool
    reason: str
    dislodged_by: str | None


@dataclass(frozen=True, slots=True)
class MovementOutcome:
    """The resolved movement phase: per-unit outcomes keyed by province,
    units after the phase (dislodged ones excluded), dislodged units with
    their attacker, and the provinces left empty by a standoff."""

    outcomes: dict[str, UnitOutcome]
    units: tuple[Unit, ...]
    dislodged: tuple[tuple[Unit, str, bool], ...]
    standoffs: frozenset[str]


SECOND_LEG = ">2"

_SUCCEEDED = UnitOutcome(True, "", None)  # the common outcome, shared (outcomes are immutable)


def second_leg(province: str) -> str:
    """The decision key of the second leg of a double move from ``province``."""
    return province + SECOND_LEG


class _Resolver:
    def __init__(self, board: Board, orders: dict[str, Order]) -> None:
        self.board = board
        self.unit_at = board.unit_at
        self.orders: dict[str, Order] = {}
        self.owner: dict[str, Unit] = {}  # decision key -> the unit deciding
        self.origin: dict[str, str] = {}  # decision key -> province the move starts from
        self.first_leg: dict[str, str] = {}  # second-leg key -> first-leg key
        for province, order in orders.items():
            unit = board.unit_at[province]
            if type(order) is Move and order.waypoints and unit.kind is UnitType.FLEET:
                middle = order.waypoints[0]
                leg = second_leg(province)
                self.orders[province] = Move(order.unit, order.location, middle)
                self.orders[leg] = Move(order.unit, middle, order.destination)
                self.owner[leg], self.origin[leg], self.first_leg[leg] = unit, province_of(middle), province
            else:
                self.orders[province] = order
            self.owner[province], self.origin[province] = unit, province
        # Facts fixed by the orders alone, worked out once: each move's
        # destination province, and the decisions of each kind.
        self.target: dict[str, str] = {}  # move key -> destination province
        self.moves: list[str] = []
        self.decisions: list[str] = []  # every move, support and convoy key, in order
        for key, order in self.orders.items():
            kind = type(order)
            if kind is Move:
                self.target[key] = province_of(order.destination)  # type: ignore[union-attr]
                self.moves.append(key)
                self.decisions.append(key)
            elif kind is SupportHold or kind is SupportMove or kind is Convoy:
                self.decisions.append(key)
        self.moves_to: dict[str, list[str]] = {}
        self.hold_supports: dict[str, list[str]] = {}
        self.move_supports: dict[str, list[str]] = {}
        self.convoyed: set[str] = set()
        self.convoys_for: dict[str, set[str]] = {}
        self.unmatched: dict[str, str] = {}
        self.resolution: dict[str, bool] = {}
        self.resolved: set[str] = set()
        self.visited: set[str] = set()
        self.cycle: list[str] = []
        self.guess_based = False
        self.recursion_hits = 0
        self._index()
        self.opposing: dict[str, str | None] = {key: self._head_to_head(key) for key in self.moves}
        self.needs_path = self.convoyed | set(self.first_leg)  # moves whose path is a decision

    # --- set-up -------------------------------------------------------------

    def _index(self) -> None:
        orders, unit_at, target = self.orders, self.unit_at, self.target
        convoy_orders = {p: o for p, o in orders.items() if type(o) is Convoy}
        for province in self.moves:
            order = orders[province]
            destination = target[province]
            self.moves_to.setdefault(destination, []).append(province)
            if self.owner[province].kind is not UnitType.ARMY:
                continue
            fleets = {
                f for f, c in convoy_orders.items() if province_of(c.target) == province and c.destination == destination
            }
            adjacent = destination in self.board.game_map.provinces[province].army
            own_intent = any(unit_at[f].power == unit_at[province].power for f in fleets)
            if not adjacent or order.via_convoy or own_intent:  # type: ignore[union-attr]
                self.convoyed.add(province)
                self.convoys_for[province] = fleets
        for province, order in orders.items():
            kind = type(order)
            if kind is SupportHold:
                target_province = province_of(order.target)  # type: ignore[union-attr]
                if type(orders.get(target_province)) is Move:
                    self.unmatched[province] = "the supported unit moves instead of holding"
                else:
                    self.hold_supports.setdefault(target_province, []).append(province)
            elif kind is SupportMove:
                assert isinstance(order, SupportMove)
                supported = province_of(order.target)
                wanted = province_of(order.destination)
                leg = second_leg(supported)
                if leg in target and target[leg] == wanted:
                    supported = leg
                move = orders.get(supported)
                if type(move) is not Move or target[supported] != wanted:
                    self.unmatched[province] = "the supported unit does not make that move"
                elif order.destination != wanted and order.destination != move.destination:
                    self.unmatched[province] = f"the supported fleet moves to {move.destination}"
                else:
                    self.move_supports.setdefault(supported, []).append(province)
            elif kind is Convoy:
                army = province_of(order.target)  # type: ignore[union-attr]
                if province not in self.convoys_for.get(army, ()):
                    self.unmatched[province] = "the army does not move as convoyed"
        for province in self.unmatched:
            self.resolution[province] = False
            self.resolved.add(province)

    def _head_to_head(self, province: str) -> str | None:
        if province in self.convoyed or province in self.first_leg:
            return None
        destination = self.target[province]
        if self.target.get(destination) == province and destination not in self.convoyed:
            return destination
        return None

    def head_to_head(self, province: str) -> str | None:
        """The province of the unit that ``province``'s move meets head to head
        (never the second leg of a double move, ruling R30)."""
        return self.opposing.get(province)

    # --- the guess algorithm (DATC 5.F) -------------------------------------

    def resolve(self, key: str) -> bool:
        if key in self.resolved:
            return self.resolution[key]
        if key in self.cycle:
            self.guess_based = True
            return self.resolution[key]
        if key in self.visited:
            self.cycle.append(key)
            self.guess_based = True
            self.recursion_hits += 1
            return self.resolution[key]
        self.visited.add(key)
        old_cycle_length = len(self.cycle)
        old_guess_based = self.guess_based
        old_recursion_hits = self.recursion_hits
        self.guess_based = False
        self.resolution[key] = False
        first = self.adjudicate(key)
        if not self.guess_based:
            self.guess_based = old_guess_based
            return self._settle(key, first)
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
        exempt = province_of(order.destination) if type(order) is SupportMove else None
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
        fleets = self.convoys_for[key]
        destination = self.target[key]
        return route_exists(key, destination, lambda fleet: fleet in fleets and self.resolve(fleet), self.board)

    def _given(self, supporters: list[str] | None, excluded_power: str | None = None) -> int:
        if not supporters:
            return 0
        count = 0
        for supporter in supporters:
            if self.resolve(supporter) and (excluded_power is None or self.unit_at[supporter].power != excluded_power):
                count += 1
        return count

    def attack_strength(self, key: str) -> int:
        if key in self.needs_path and not self.path(key):
            return 0
        destination = self.target[key]
        defender = self.unit_at.get(destination)
        supporters = self.move_supports.get(key)
        if defender is None:
            return 1 + self._given(supporters)
        if destination in self.target and self.opposing[key] is None and self.resolve(destination):
            return 1 + self._given(supporters)
        if defender.power == self.owner[key].power:
            return 0
        return 1 + self._given(supporters, excluded_power=defender.power)

    def hold_strength(self, province: str) -> int:
        if province not in self.unit_at:
            return 0
        if province in self.target:
            return 0 if self.resolve(province) else 1
        return 1 + self._given(self.hold_supports.get(province))

    def defend_strength(self, key: str) -> int:
        return 1 + self._given(self.move_supports.get(key))

    def prevent_strength(self, key: str) -> int:
        if key in self.needs_path and not self.path(key):
            return 0
        opponent = self.opposing[key]
        if opponent is not None and self.resolve(opponent):
            return 0
        return 1 + self._given(self.move_supports.get(key))

    def _move_succeeds(self, key: str) -> bool:
        attack = self.attack_strength(key)
        if attack == 0:
            return False
        destination = self.target[key]
        opponent = self.opposing[key]
        if opponent is not None:
            if attack <= self.defend_strength(opponent):
                return False
        elif attack <= self.hold_strength(destination):
            return False
        for other in self.moves_to[destination]:
            if other != key and attack <= self.prevent_strength(other):
                return False
        return True


def resolve_movement(board: Board, orders: dict[str, Order]) -> MovementOutcome:
    """Resolve a movement phase.

    ``orders`` holds one legal, normalised order for every unit on the
    board, keyed by province (units without a legal order hold).  The
    result gives every unit's outcome, the units after the phase, the
    dislodged units (unit, attacker's province, whether the attacker was
    convoyed) and the standoff provinces.
    """
    resolver = _Resolver(board, orders)
    for key in resolver.decisions:
        resolver.resolve(key)
    final: dict[str, Location] = {}
    resolution = resolver.resolution
    for province in resolver.moves:
        if province in resolver.first_leg:
            continue  # a second leg: its unit is the one of the first
        leg = second_leg(province) if resolver.first_leg else None
        if leg in resolver.target and resolution[leg]:
            final[province] = resolver.orders[leg].destination  # type: ignore[union-attr]
        elif resolution[province]:
            final[province] = resolver.orders[province].destination  # type: ignore[union-attr]
    dislodger: dict[str, str] = {}
    for province in board.unit_at:
        if province in final:
            continue
        for attacker in resolver.moves_to.get(province, ()):
            if resolver.resolution[attacker]:
                dislodger[province] = attacker

    outcomes: dict[str, UnitOutcome] = {}
    for province, order in orders.items():
        dislodged_by = resolver.origin[dislodger[province]] if province in dislodger else None
        outcomes[province] = _outcome(resolver, province, order, dislodged_by, final)

    units: list[Unit] = []
    dislodged: list[tuple[Unit, str, bool]] = []
    for province, unit in board.unit_at.items():
        order = orders[province]
        if province in final:
            units.append(Unit(unit.power, unit.kind, final[province]))
        elif province in dislodger:
            attacker = dislodger[province]
            dislodged.append((unit, resolver.origin[attacker], attacker in resolver.convoyed))
        elif isinstance(order, Transform):
            location = unit.province if order.coast is None else f"{unit.province}/{order.coast}"
            units.append(Unit(unit.power, order.into, location))
        else:
            units.append(unit)

    occupied = {u.province for u in units}
    standoffs = set()
    for key in resolver.moves:
        if resolution[key] or not resolver.path(key):
            continue
        destination = resolver.target[key]
        lost_head_to_head = (
            key in dislodger
            and resolver.origin[dislodger[key]] == destination
            and resolver.head_to_head(key) == destination
        )
        if destination not in occupied and not lost_head_to_head:
            standoffs.add(destination)
    return MovementOutcome(outcomes, tuple(units), tuple(dislodged), frozenset(standoffs))


def _move_failure(resolver: _Resolver, key: str, order: Move) -> str:
    if not resolver.path(key):
        if key in resolver.first_leg:
            return "the first leg failed"
        return "no convoy" if not resolver.convoys_for.get(key) else "convoy disrupted"
    if resolver.attack_strength(key) == 0:
        return "cannot dislodge a unit of its own power"
    return "bounced"


def _outcome(
    resolver: _Resolver, province: str, order: Order, dislodged_by: str | None, final: dict[str, Location]
) -> UnitOutcome:
    if isinstance(order, Move):
        if final.get(province) == order.destination:
            return _SUCCEEDED
        first = resolver.orders[province]
        assert isinstance(first, Move)
        if province in final:  # a double move that stopped halfway
            leg = second_leg(province)
            reason = _move_failure(resolver, leg, resolver.orders[leg])  # type: ignore[arg-type]
            return UnitOutcome(False, f"stopped in {final[province]}: second leg {reason}", None)
        return UnitOutcome(False, _move_failure(resolver, province, first), dislodged_by)
    if province in resolver.unmatched:
        return UnitOutcome(False, resolver.unmatched[province], dislodged_by)
    if isinstance(order, (SupportHold, SupportMove)):
        if resolver.resolution[province]:
            return _SUCCEEDED if dislodged_by is None else UnitOutcome(True, "", dislodged_by)
        return UnitOutcome(False, "dislodged" if dislodged_by else "cut", dislodged_by)
    if isinstance(order, Convoy):
        if dislodged_by or not resolver.resolution[province]:
            return UnitOutcome(False, "dislodged" if dislodged_by else "convoy paradox (Szykman rule)", dislodged_by)
        if province_of(order.target) not in final:
            return UnitOutcome(False, "the convoyed army did not arrive", None)
        return _SUCCEEDED
    if isinstance(order, Transform) and dislodged_by:
        return UnitOutcome(False, "dislodged, so it does not transform", dislodged_by)
    if dislodged_by is None:
        return _SUCCEEDED
    return UnitOutcome(False, "dislodged", dislodged_by)


def retreat_options(
    board: Board, unit: Unit, attacker: str, by_convoy: bool, occupied: set[str], standoffs: frozenset[str]
) -> tuple[Location, ...]:
    """Where a dislodged ``unit`` may retreat: next to it, empty after the
    movement phase, not a standoff province, and not the attacker's province
    unless the attacker came by convoy (DATC 4.A.5)."""
    game_map = board.game_map
    if unit.kind is UnitType.ARMY:
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
