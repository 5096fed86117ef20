"""Resolution of a movement phase (DATC section 5).

Every move, support and convoy order is a yes/no decision whose condition
refers to other decisions: attack, hold, defend and prevent strengths, the
convoy path, support cuts.  Decisions are resolved recursively; where the
recursion meets itself the guess algorithm of DATC 5.F tries both answers.
A cycle with one consistent answer takes it; a cycle with none or two is
a circular movement (all its moves succeed) or, if a convoy is part of it,
a convoy paradox settled by the Szykman rule (its convoys fail).

For speed the decisions that ask no question of another are settled while
the orders are read, and the others are first resolved without the guess
algorithm's bookkeeping: the first time the recursion meets itself, the
resolution starts again from that decision with the full algorithm.  The
decisions settled by then needed no guess, and the full algorithm settles
them the same way, so the answers are those of the full algorithm.

A fleet's double move along a river (30JK, ``F xxx - yyy - zzz``) is two
move decisions: the first leg from its province, the second from the
middle province, whose "path" is the success of the first leg (rulings
R29, R30).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import AbstractSet, Iterable, NamedTuple

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

# The failed outcomes that carry no dislodgement, shared (outcomes are
# immutable, and making a named tuple costs a Python-level call).
_FAILED = {
    reason: UnitOutcome(False, reason, None)
    for reason in (
        "bounced", "cut", "cannot dislodge a unit of its own power", "no convoy", "convoy disrupted",
        "the first leg failed", "the convoyed army did not arrive",
    )
}
_BOUNCED, _CUT = _FAILED["bounced"], _FAILED["cut"]
_NOWHERE: frozenset[str] = frozenset()


class _Cycle(Exception):
    """The quick resolution met a cycle of decisions: guesses are needed."""


def second_leg(province: str) -> str:
    """The decision key of the second leg of a double move from ``province``."""
    return province + SECOND_LEG


class _Resolver:
    """The decisions of one movement phase and their resolution state.

    A decision is keyed by the province of its unit (``second_leg`` of it
    for the second leg of a double move).  ``settled`` holds the decisions
    resolved for good, ``guess`` the current guess of those being resolved:
    ``settled.get(key)`` is the one question the conditions ask before
    calling ``resolve``.

    ``resolve`` is quick at first: the guess algorithm without its
    bookkeeping, for decisions that meet no cycle (nearly all of them).  On
    the first cycle it raises ``_Cycle``; ``resolve_movement`` then turns
    to the full algorithm (``_guess``, ``guessing``) and starts again from
    the decision it was resolving.  The decisions settled by then are
    settled as the full algorithm settles them (none of them needed a
    guess), so the outcome is the same.
    """

    __slots__ = (
        "board", "unit_at", "orders", "owner", "origin", "first_leg", "target", "decisions", "moves_to",
        "into_occupied", "backing", "own_side", "pending", "convoyed", "convoys_for", "unmatched", "opposing",
        "needs_path", "paths", "supports", "convoys", "transforms", "settled", "not_bounced", "visited",
        "guessing", "guess", "cycle", "guess_based", "recursion_hits",
    )

    def __init__(self, board: Board, orders: dict[str, Order]) -> None:
        self.board = board
        self.unit_at = unit_at = board.unit_at
        # Facts fixed by the orders alone, worked out in one pass: the order,
        # unit and origin of each decision (copies of the orders and units
        # only when a double move is split into legs), each move's
        # destination province (``target``: the moves in order), the moves
        # into each province, the supports, convoys and transforms (in the
        # orders' order) and the army moves that go by convoy whatever the
        # fleets do (not to a neighbour, or "via convoy").  A unit that
        # holds is settled at once, so that the decisions can be taken in
        # the orders' order by walking the orders (a list of them only with
        # a double move, whose second leg comes right after the first).
        neighbours = board.army_neighbours
        province_at = board.province_at  # every location in the orders is one of the map's (legality)
        decided: dict[str, Order] = orders
        owner: dict[str, Unit] = unit_at  # decision key -> the unit deciding
        origin: dict[str, str] = {}  # second-leg key -> the province it starts from (any other move: its key)
        first_leg: dict[str, str] = {}  # second-leg key -> first-leg key
        target: dict[str, str] = {}  # move key -> destination province
        moves_to: dict[str, list[str]] = {}  # province -> the moves into it
        settled: dict[str, bool] = {}
        supports: list[str] = []
        convoys: list[str] = []
        convoyed: set[str] = set()
        transforms: list[str] = []
        pairs: list[str] = []  # moves into the province of a unit moving back here (seen second)
        alone: list[list[str]] = []  # the moves into each province without a unit (one move: settled below)
        into_occupied: list[str] = []  # moves (legs too) into a province with a unit, in order
        for province, order in orders.items():
            kind = type(order)
            if kind is Move:
                destination = province_at[order.destination]  # type: ignore[union-attr]
                if order.waypoints and unit_at[province].kind is FLEET:  # type: ignore[union-attr]
                    if decided is orders:
                        decided, owner = dict(orders), dict(unit_at)
                    middle = order.waypoints[0]  # type: ignore[union-attr]
                    halfway = province_of(middle)
                    leg = province + SECOND_LEG
                    decided[province] = Move(order.unit, order.location, middle)  # type: ignore[union-attr]
                    decided[leg] = Move(order.unit, middle, order.destination)  # type: ignore[union-attr]
                    owner[leg], origin[leg], first_leg[leg] = owner[province], halfway, province
                    target[province] = halfway
                    if target.get(halfway) == province:
                        pairs.append(province)
                    target[leg] = destination
                    for key, place in ((province, halfway), (leg, destination)):
                        if place in moves_to:
                            moves_to[place].append(key)
                        else:
                            moves_to[place] = [key]
                            if place not in unit_at and key is province:
                                alone.append(moves_to[place])
                        if place in unit_at:
                            into_occupied.append(key)
                    continue
                target[province] = destination
                rivals = moves_to.get(destination)
                if destination in unit_at:
                    into_occupied.append(province)
                    if target.get(destination) == province:
                        pairs.append(province)
                    if rivals is None:
                        moves_to[destination] = [province]
                    else:
                        rivals.append(province)
                elif rivals is None:
                    moves_to[destination] = rivals = [province]
                    alone.append(rivals)
                else:
                    rivals.append(province)
                if order.via_convoy or destination not in neighbours[province]:  # type: ignore[union-attr]
                    if unit_at[province].kind is ARMY:
                        convoyed.add(province)
            elif kind is SupportMove or kind is SupportHold:
                supports.append(province)
            elif kind is Convoy:
                convoys.append(province)
            else:
                settled[province] = True  # not a decision (a hold or a transform)
                if kind is Transform:
                    transforms.append(province)
        self.supports, self.convoys, self.transforms = supports, convoys, transforms
        self.orders, self.owner, self.origin, self.first_leg = decided, owner, origin, first_leg
        self.target, self.moves_to = target, moves_to
        self.decisions: Iterable[str] = orders
        if first_leg:
            self.decisions = [
                key for province in orders
                for key in ((province, province + SECOND_LEG) if province + SECOND_LEG in first_leg else (province,))
            ]
        self.into_occupied = into_occupied
        self.convoyed = convoyed
        # convoyed move -> the fleets convoying it (absent: none does)
        self.convoys_for = convoys_for = self._convoyed(convoys) if convoys else {}
        self.settled = settled
        # The failed moves that did not simply bounce (no path, or a unit of
        # their own power in the way), as the conditions met them: right
        # once settled, unless guesses were made.
        self.not_bounced: set[str] = set()
        self.visited: set[str] = set()
        self.guessing = False  # (then ``guess``, ``cycle``, ``guess_based``, ``recursion_hits``: ``_start_guessing``)
        self.paths: dict[str, bool] = {}  # convoyed move -> its path, once its fleets are settled
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
        self.unmatched: dict[str, str] = {}
        # The supports of each move (by its key) and of each unit that does
        # not move (by its province): how many are given for sure, how many
        # of those a move has from the power of the unit in its destination
        # (not counted against that unit), and the others (decisions of
        # their own), in order.
        self.backing: dict[str, int] = {}
        self.own_side: dict[str, int] = {}
        self.pending: dict[str, list[str]] = {}
        if supports:
            self._index_supports(supports)
        for province in convoys:
            army = province_at[decided[province].target]  # type: ignore[union-attr]
            if province not in convoys_for.get(army, ()):
                self.unmatched[province] = "the army does not move as convoyed"
                settled[province] = False
            elif province not in moves_to:
                settled[province] = True  # a convoy nobody attacks holds
        # Moves that depend on no other decision are settled at once: a
        # move by land into an empty province nobody else enters (its
        # supports add to a strength nothing opposes; they stay decisions of
        # their own), moves by land into an empty province none of whose
        # supports is undecided (the strongest alone succeeds: its attack
        # beats every other's prevent strength, DATC 5.B, no question
        # asked), and a convoyed move no fleet convoys (no path).
        needs_path, backing, pending = self.needs_path, self.backing, self.pending
        for rivals in alone:
            if len(rivals) == 1:
                if rivals[0] not in convoyed:
                    settled[rivals[0]] = True
            elif needs_path.isdisjoint(rivals) and (not pending or pending.keys().isdisjoint(rivals)):
                strongest, winner = -1, None
                for move in rivals:
                    strength = backing.get(move, 0)
                    if strength > strongest:
                        strongest, winner = strength, move
                    elif strength == strongest:
                        winner = None  # a tie: nobody gets in
                for move in rivals:
                    settled[move] = move is winner
        if convoyed:
            for province in convoyed:
                if province not in convoys_for:
                    settled[province] = False
                    self.not_bounced.add(province)

    # --- set-up -------------------------------------------------------------

    def _convoyed(self, convoys: list[str]) -> dict[str, set[str]]:
        """The fleets convoying each convoyed army move (the moves no fleet
        convoys left out), after adding the army moves to a neighbour that go
        by convoy because a fleet of their own power convoys them (DATC
        4.A.3)."""
        orders, unit_at, target, convoyed = self.orders, self.unit_at, self.target, self.convoyed
        province_at = self.board.province_at
        convoys_for: dict[str, set[str]] = {}
        for fleet in convoys:
            convoy: Convoy = orders[fleet]  # type: ignore[assignment]
            army = province_at[convoy.target]
            if target.get(army) == convoy.destination:  # the army makes the move the fleet convoys
                if army in convoys_for:
                    convoys_for[army].add(fleet)
                else:
                    convoys_for[army] = {fleet}
        by_land = [army for army in convoys_for if army not in convoyed]
        for army in by_land:  # a move to a neighbour: by convoy if its own power convoys it
            unit = unit_at[army]
            if unit.kind is ARMY and any(unit_at[fleet].power == unit.power for fleet in convoys_for[army]):
                convoyed.add(army)
            else:
                del convoys_for[army]
        return convoys_for

    def _index_supports(self, supports: list[str]) -> None:
        """The supports of each move and each holding unit (``backing``,
        ``pending``), the supports that match no order (settled as failed),
        and the supports whose fate needs no other decision, settled at
        once: one nobody attacks, one attacked only by its own power or by
        moves without a path, and one cut by a move by land (what
        ``_support_given`` finds without asking a question)."""
        orders, target, moves_to, owner, origin = self.orders, self.target, self.moves_to, self.owner, self.origin
        unit_at, province_at, settled, unmatched = self.unit_at, self.board.province_at, self.settled, self.unmatched
        needs_path, first_leg, convoys_for = self.needs_path, self.first_leg, self.convoys_for
        backing, own_side, pending = self.backing, self.own_side, self.pending
        for province in supports:
            order: SupportHold | SupportMove = orders[province]  # type: ignore[assignment]
            supported = province_at[order.target]
            if type(order) is SupportHold:
                exempt = None
                if supported in target:  # (``orders[supported]`` is a move)
                    unmatched[province] = "the supported unit moves instead of holding"
                    settled[province] = False
                    continue
            else:
                destination = order.destination  # type: ignore[union-attr]
                exempt = wanted = province_at[destination]
                if first_leg and target.get(supported + SECOND_LEG) == wanted:
                    supported += SECOND_LEG
                if target.get(supported) != wanted:
                    unmatched[province] = "the supported unit does not make that move"
                    settled[province] = False
                    continue
                if destination != wanted:  # a fleet's move to a coast: the same coast, if the move names one
                    ordered = orders[supported].destination  # type: ignore[union-attr]
                    if destination != ordered:
                        unmatched[province] = f"the supported fleet moves to {ordered}"
                        settled[province] = False
                        continue
            if province not in moves_to:
                settled[province] = True  # nobody attacks it
            else:
                given: bool | None = True  # None: not known without asking
                for attacker in moves_to[province]:
                    if owner[attacker].power == unit_at[province].power:
                        continue
                    if origin.get(attacker, attacker) == exempt:
                        given = None  # cut only if that move succeeds
                        break
                    if attacker in needs_path:
                        if attacker in first_leg or attacker in convoys_for:
                            given = None  # cut only if the first leg or the convoy succeeds
                            break
                        continue  # a convoyed move no fleet convoys: no path, no cut
                    given = False  # cut by a move by land
                    break
                if given is None:
                    pending.setdefault(supported, []).append(province)
                    continue
                settled[province] = given
                if not given:
                    continue
            backing[supported] = backing.get(supported, 0) + 1
            if exempt is not None:  # a move's: is the unit it attacks of the supporter's power?
                attacked = unit_at.get(exempt)
                if attacked is not None and attacked.power == unit_at[province].power:
                    own_side[supported] = own_side.get(supported, 0) + 1

    # --- the guess algorithm (DATC 5.F) -------------------------------------

    def _start_guessing(self) -> None:
        """Make ``resolve`` the full guess algorithm, after the quick one met a cycle."""
        self.visited.clear()
        self.guess: dict[str, bool] = {}
        self.cycle: list[str] = []
        self.guess_based = False
        self.recursion_hits = 0
        self.guessing = True

    def resolve(self, key: str) -> bool:
        value = self.settled.get(key)
        if value is not None:
            return value
        if self.guessing:
            return self._guess(key)
        visited = self.visited
        if key in visited:
            raise _Cycle  # a guess is needed: ``resolve_movement`` starts again, guessing
        visited.add(key)  # (left there once settled: ``settled`` is asked first)
        value = self._move_succeeds(key) if key in self.target else self._hold_or_give(key)
        self.settled[key] = value
        return value

    def _guess(self, key: str) -> bool:
        value = self.settled.get(key)
        if value is not None:
            return value
        cycle, visited, guess = self.cycle, self.visited, self.guess
        if key in cycle:
            self.guess_based = True
            return guess[key]
        if key in visited:
            cycle.append(key)
            self.guess_based = True
            self.recursion_hits += 1
            return guess[key]
        visited.add(key)
        old_cycle_length = len(cycle)
        old_guess_based = self.guess_based
        old_recursion_hits = self.recursion_hits
        self.guess_based = False
        guess[key] = False
        first = self.adjudicate(key)
        if not self.guess_based:  # no guess was needed: settled (``_settle`` inlined, the common case)
            self.guess_based = old_guess_based
            self.settled[key] = first
            visited.discard(key)
            return first
        if key in cycle:
            self.recursion_hits -= 1
        if self.recursion_hits == old_recursion_hits:
            # This decision is the ancestor of the whole cycle: try the other guess.
            del cycle[old_cycle_length:]
            guess[key] = True
            second = self.adjudicate(key)
            if first == second:
                del cycle[old_cycle_length:]
                self.guess_based = old_guess_based
                return self._settle(key, first)
            self._backup_rule(cycle[old_cycle_length:] or [key])
            del cycle[old_cycle_length:]
            self.guess_based = old_guess_based
            visited.discard(key)
            return self._guess(key)
        if key not in cycle:
            cycle.append(key)
        guess[key] = first
        visited.discard(key)
        return first

    def _settle(self, key: str, value: bool) -> bool:
        self.settled[key] = value
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
        return self._move_succeeds(key) if key in self.target else self._hold_or_give(key)

    def _hold_or_give(self, key: str) -> bool:
        """Whether the convoy or support ``key`` holds or is given."""
        order = self.orders[key]
        if type(order) is not Convoy:
            return self._support_given(key, order)  # type: ignore[arg-type]
        # Whether the convoy holds: the attacks on the fleet are adjudicated
        # in place rather than resolved as decisions of their own, so that
        # a convoy paradox is always one clean cycle through the convoy
        # (DATC 5.D, Pandin's paradox).
        for attacker in self.moves_to.get(key, ()):
            if self._move_succeeds(attacker):
                return False
        return True

    def _support_given(self, key: str, order: SupportHold | SupportMove) -> bool:
        attackers = self.moves_to.get(key)
        if not attackers:
            return True
        power = self.unit_at[key].power
        exempt = self.board.province_at[order.destination] if type(order) is SupportMove else None
        owner, origin = self.owner, self.origin
        for attacker in attackers:
            if owner[attacker].power == power:
                continue
            if origin.get(attacker, attacker) == exempt:
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
        fleets = self.convoys_for.get(key)
        if not fleets:
            return False  # no fleet convoys it (``route_exists`` would ask nothing)
        settled, resolve = self.settled, self.resolve
        destination = self.target[key]
        if len(fleets) == 1:
            # ``route_exists`` for one fleet, in the order it asks: next to
            # the army, holds, reaches the destination.
            found = False
            for fleet in fleets:
                if fleet in self.board.sea_neighbours[key]:
                    held = settled.get(fleet)
                    if held if held is not None else resolve(fleet):
                        found = destination in self.board.fleet_reaches.get(self.unit_at[fleet].location, _NOWHERE)
        else:
            def holds(fleet: str) -> bool:
                if fleet not in fleets:
                    return False
                held = settled.get(fleet)
                return held if held is not None else resolve(fleet)

            found = route_exists(key, destination, holds, self.board)
        if fleets <= settled.keys():
            self.paths[key] = found  # settled fleets only: asking again gives the same
        return found

    def _given(self, supporters: list[str], excluded_power: str | None = None) -> int:
        """The supports given among ``supporters`` (those of ``excluded_power`` not counted)."""
        count = 0
        settled = self.settled
        for supporter in supporters:
            given = settled.get(supporter)
            if given is None:
                given = self.resolve(supporter)
            if given and (excluded_power is None or self.unit_at[supporter].power != excluded_power):
                count += 1
        return count

    def _move_succeeds(self, key: str) -> bool:
        # The questions are asked in the order of DATC 5.B, which the guess
        # algorithm depends on: the path, whether the unit in the
        # destination leaves, the attack strength (0 without a path or
        # against a unit of the mover's own power), the hold or defend
        # strength of the destination, the prevent strength of every other
        # move into it.  A strength is 1, the supports given for sure and
        # the pending ones given (asked in order), those of an excluded
        # power left out.
        needs_path = self.needs_path
        if key in needs_path and not self.path(key):
            self.not_bounced.add(key)
            return False
        target = self.target
        destination = target[key]
        defender = self.unit_at.get(destination)
        backing, pending, opposing = self.backing, self.pending, self.opposing
        leaves = defender is None  # (an empty province: as if its unit had left)
        if defender is not None:
            opponent = opposing.get(key) if opposing else None
            if opponent is None and destination in target:  # whether the unit there moves away
                moved = self.settled.get(destination)  # None while undecided (``leaves`` stays a bool)
                leaves = moved if moved is not None else self.resolve(destination)
            if not leaves:
                if defender.power == self.owner[key].power:
                    self.not_bounced.add(key)
                    return False
                attack = 1 + backing.get(key, 0) - self.own_side.get(key, 0)
                if pending and key in pending:
                    attack += self._given(pending[key], defender.power)
                if opponent is not None:
                    strength = 1 + backing.get(opponent, 0)  # the defend strength of the unit met head to head
                    if pending and opponent in pending:
                        strength += self._given(pending[opponent])
                elif destination in target:
                    strength = 1  # the hold strength of a unit that fails to move away
                else:
                    strength = 1 + backing.get(destination, 0)  # the hold strength of one that stays
                    if pending and destination in pending:
                        strength += self._given(pending[destination])
                if attack <= strength:
                    return False
        if leaves:  # no unit in the destination (any more): no hold strength
            attack = 1 + backing.get(key, 0)
            if pending and key in pending:
                attack += self._given(pending[key])
        # The prevent strength of every other move into the destination: 0
        # without a path or after losing a head-to-head battle.
        for other in self.moves_to[destination]:
            if other == key or (other in needs_path and not self.path(other)):
                continue
            rival = opposing.get(other) if opposing else None
            if rival is not None:
                beaten = self.settled.get(rival)
                if beaten is None:
                    beaten = self.resolve(rival)
                if beaten:
                    continue
            strength = 1 + backing.get(other, 0)
            if pending and other in pending:
                strength += self._given(pending[other])
            if attack <= strength:
                return False
        return True


def resolve_movement(board: Board, orders: dict[str, Order]) -> MovementOutcome:
    """Resolve a movement phase.

    ``orders`` holds one legal, normalised order for every unit on the
    board, keyed by province (units without a legal order hold), in any
    order: the answer is the same whatever their order (the units and the
    dislodged units come in the board's).  The result gives the outcome
    of every unit whose order did not simply succeed, the units after the
    phase and the provinces they stand in, the dislodged units (unit,
    attacker's province, whether the attacker was convoyed) and the
    standoff provinces.
    """
    resolver = _Resolver(board, orders)
    settled, visited, target = resolver.settled, resolver.visited, resolver.target
    move_succeeds, hold_or_give = resolver._move_succeeds, resolver._hold_or_give
    guessed = resolver.guessing  # (never at first, unless a test forces the full algorithm throughout)
    if not guessed:
        try:
            for key in resolver.decisions:
                if key not in settled:  # ``resolve`` inline
                    visited.add(key)
                    settled[key] = move_succeeds(key) if key in target else hold_or_give(key)
        except _Cycle:
            guessed = True
            resolver._start_guessing()
    if guessed:
        resolve = resolver._guess
        for key in resolver.decisions:
            if key not in settled:
                resolve(key)
    unit_at, first_leg, decided = board.unit_at, resolver.first_leg, resolver.orders

    # The units afterwards, in the board's order: a copy of the board with
    # the units that moved or transformed replaced and the dislodged ones
    # taken out.  Outcomes are worked out only for the units whose order
    # may not simply have succeeded: the moves that did not arrive where
    # ordered, the dislodged units, the supports not given and the convoys.
    outcomes: dict[str, UnitOutcome] = {}
    after = dict(unit_at)
    made = MADE_UNITS
    final: dict[str, Location] = {}  # province -> where its unit moved
    for province in target:
        if first_leg:
            if province in first_leg:
                continue  # a second leg: its unit is the one of the first
            leg = province + SECOND_LEG
            if leg in target and settled[leg]:
                location = decided[leg].destination  # type: ignore[union-attr]
            elif settled[province]:
                location = decided[province].destination  # type: ignore[union-attr]
            else:
                continue
        elif settled[province]:
            location = decided[province].destination  # type: ignore[union-attr]
        else:
            continue
        final[province] = location
        unit = unit_at[province]
        moved = made.get((unit.power, location, unit.kind is ARMY))  # ``make_unit`` inline
        after[province] = moved if moved is not None else make_unit(unit.power, unit.kind, location)
        if first_leg and location != orders[province].destination:  # type: ignore[union-attr]  # stopped halfway
            reason = _move_failure(resolver, province + SECOND_LEG)
            outcomes[province] = UnitOutcome(False, f"stopped in {location}: second leg {reason}", None)
    dislodger: dict[str, str] = {}  # province -> the successful move into it, when its unit stayed
    for key in resolver.into_occupied:
        if settled[key]:
            destination = target[key]
            if destination not in final:
                dislodger[destination] = key
    for province in resolver.transforms:
        if province not in dislodger:
            unit, order = unit_at[province], orders[province]
            location = unit.province if order.coast is None else f"{unit.province}/{order.coast}"  # type: ignore[union-attr]
            after[province] = make_unit(unit.power, order.into, location)  # type: ignore[union-attr]
    dislodged: list[tuple[Unit, str, bool]] = []
    origin = resolver.origin
    if dislodger:
        convoyed = resolver.convoyed
        for province in unit_at if len(dislodger) > 1 else dislodger:  # the board's order
            if province in dislodger:
                attacker = dislodger[province]
                by = origin.get(attacker, attacker)
                outcomes[province] = _dislodged_outcome(resolver, province, orders[province], by)
                dislodged.append((unit_at[province], by, attacker in convoyed))
                del after[province]
    units = tuple(after.values())
    occupied = frozenset([unit.province for unit in units])

    # The failed moves: their outcome (a bounce unless the quick resolution
    # found otherwise; every reason worked out again after guesses), and
    # the standoffs they leave: the empty provinces a move with a path did
    # not reach, unless that move lost a head-to-head battle against the
    # unit now in its province.
    standoffs = set()
    needs_path, path, opposing = resolver.needs_path, resolver.path, resolver.opposing
    not_bounced = resolver.not_bounced
    for key, destination in target.items():
        if settled[key]:
            continue
        if destination not in occupied and (key not in needs_path or path(key)):
            winner = dislodger.get(key) if opposing and opposing.get(key) == destination else None
            if winner is None or origin.get(winner, winner) != destination:
                standoffs.add(destination)
        if key in outcomes or (first_leg and (key in first_leg or key in final)):
            continue  # dislodged, a second leg, or a double move stopped halfway
        outcomes[key] = _FAILED[_move_failure(resolver, key)] if guessed or key in not_bounced else _BOUNCED
    unmatched = resolver.unmatched
    for province in resolver.supports:
        if not settled[province] and province not in outcomes:
            outcomes[province] = UnitOutcome(False, unmatched[province], None) if province in unmatched else _CUT
    for province in resolver.convoys:
        if province not in outcomes:
            if not settled[province]:
                reason = unmatched.get(province, "convoy paradox (Szykman rule)")
                outcomes[province] = UnitOutcome(False, reason, None)
            elif board.province_at[decided[province].target] not in final:  # type: ignore[union-attr]
                outcomes[province] = _FAILED["the convoyed army did not arrive"]
    return MovementOutcome(outcomes, units, occupied, tuple(dislodged), frozenset(standoffs))


def _move_failure(resolver: _Resolver, key: str) -> str:
    """Why the failed move ``key`` failed."""
    if key in resolver.needs_path and not resolver.path(key):
        if key in resolver.first_leg:
            return "the first leg failed"
        return "no convoy" if key not in resolver.convoys_for else "convoy disrupted"
    # The unit the move attacked: the one in its destination, unless that
    # unit moved away (not head to head) with success.
    destination = resolver.target[key]
    defender = resolver.unit_at.get(destination)
    if defender is None or defender.power != resolver.owner[key].power:
        return "bounced"
    if destination in resolver.target and key not in resolver.opposing and resolver.settled[destination]:
        return "bounced"
    return "cannot dislodge a unit of its own power"  # no attack strength


def _dislodged_outcome(resolver: _Resolver, province: str, order: Order, dislodged_by: str) -> UnitOutcome:
    """The outcome of the unit in ``province``, dislodged by the move from ``dislodged_by``."""
    kind = type(order)
    if kind is Move:
        return UnitOutcome(False, _move_failure(resolver, province), dislodged_by)
    reason = resolver.unmatched.get(province)
    if reason is not None:
        return UnitOutcome(False, reason, dislodged_by)
    if kind is SupportHold or kind is SupportMove:
        if resolver.settled[province]:
            return UnitOutcome(True, "", dislodged_by)
        return UnitOutcome(False, "dislodged", dislodged_by)
    if kind is Transform:
        return UnitOutcome(False, "dislodged, so it does not transform", dislodged_by)
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
