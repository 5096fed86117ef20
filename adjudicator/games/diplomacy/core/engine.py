"""One phase of a game: position + orders -> reports + next position.

``adjudicate`` is the pure entry point of the rules core.  It parses the
order texts, checks them against the position, resolves the phase, moves
supply centres after the fall turn, and works out the next phase
(skipping retreat and adjustment phases in which nothing can happen).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import repeat
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence, TypeVar, get_args

from adjudicator.games.diplomacy.core.adjustments import resolve_adjustments
from adjudicator.games.diplomacy.core.board import Board
from adjudicator.games.diplomacy.core.errors import Illegal
from adjudicator.games.diplomacy.core.legality import MOVEMENT_CHECKS, check_movement_order, find_own_unit, tidy_order
from adjudicator.games.diplomacy.core.mapdata import GameMap
from adjudicator.games.diplomacy.core.model import (
    ARMY, MOVEMENT, POWER, RETREAT, DislodgedUnit, Phase, Position, Unit, UnitEvent, province_of,
)
from adjudicator.games.diplomacy.core.movement import UnitOutcome, resolve_movement, retreat_options
from adjudicator.games.diplomacy.core.orders import ConfessionChange, Hold, Move, Order
from adjudicator.games.diplomacy.core.reports import FAILS, INVALID, SUCCEEDS, OrderReport, as_reports, parse_power_orders
from adjudicator.games.diplomacy.core.retreats import resolve_retreats
from adjudicator.games.diplomacy.core.rules import Rules
from adjudicator.games.diplomacy.core.tally import centres_after, needs_adjustment, present, tables, winner
from adjudicator.games.diplomacy.variants import initial_position as initial_position, rules_for

if TYPE_CHECKING:  # the grammar (Lark) is loaded only when orders are parsed
    from adjudicator.games.diplomacy.core.notation import ParsedLine


@dataclass(frozen=True)
class PhaseResult:
    """The outcome of one phase.

    ``reports`` has one entry per written order plus one per unit that had
    no legal order (its implied hold or disband) and per civil-disorder
    removal.  ``dislodged`` and ``standoffs`` describe the movement phase
    just resolved; ``events`` what befell units at the end of the turn
    (30JK religious warfare).  ``position`` is the position of
    ``next_phase``, or the final position when the game is over
    (``next_phase`` is ``None``; ``winner`` names the power that reached the
    victory threshold, or ``draw`` says why the game ended in a draw).
    ``eliminated`` names the powers that had units or centres before this
    phase and have neither after it.
    """

    phase: Phase
    reports: tuple[OrderReport, ...]
    dislodged: tuple[DislodgedUnit, ...]
    standoffs: frozenset[str]
    position: Position
    next_phase: Phase | None
    winner: str | None
    eliminated: tuple[str, ...] = ()
    events: tuple[UnitEvent, ...] = ()
    draw: str | None = None

    def __init__(
        self,
        phase: Phase,
        reports: tuple[OrderReport, ...],
        dislodged: tuple[DislodgedUnit, ...],
        standoffs: frozenset[str],
        position: Position,
        next_phase: Phase | None,
        winner: str | None,
        eliminated: tuple[str, ...] = (),
        events: tuple[UnitEvent, ...] = (),
        draw: str | None = None,
    ) -> None:
        # What dataclass would write, as one update of the field dictionary
        # rather than one ``object.__setattr__`` per field.
        self.__dict__.update(
            phase=phase, reports=reports, dislodged=dislodged, standoffs=standoffs, position=position,
            next_phase=next_phase, winner=winner, eliminated=eliminated, events=events, draw=draw,
        )


_Record = TypeVar("_Record", Position, PhaseResult)


def _replace(record: _Record, **changes: Any) -> _Record:
    """``dataclasses.replace`` for a position or a phase result (records
    without init-only fields, ``__post_init__`` or slots): the same new
    value, its field dictionary copied rather than passed through
    ``__init__`` (the hot path of a phase builds several)."""
    new = object.__new__(type(record))
    new.__dict__.update(record.__dict__, **changes)
    return new


@cache
def _power_rank(game_map: GameMap) -> dict[str, int]:
    """Each power of the map by its place in the map's list."""
    return {power: index for index, power in enumerate(game_map.powers)}


def _grouped(game_map: GameMap, reports: tuple[OrderReport, ...]) -> tuple[OrderReport, ...]:
    """The reports grouped by power in the map's order (stable; powers the
    map does not know last)."""
    rank = _power_rank(game_map)
    keys = list(map(rank.get, map(POWER, reports), repeat(len(rank))))
    if keys == sorted(keys):
        return reports
    return tuple(report for _, report in sorted(zip(keys, reports), key=lambda pair: pair[0]))


def adjudicate(
    game_map: GameMap,
    position: Position,
    orders: Mapping[str, Sequence[str]],
    options: Mapping[str, Any] | None = None,
) -> PhaseResult:
    """Resolve ``position.phase`` with each power's order texts.

    ``orders`` maps canonical power names to the order strings that power
    wrote (each may hold several orders separated by ``;`` or line breaks);
    ``options`` are the game's variant options (30JK: ``confessions``).
    Nothing is read from outside the arguments.
    """
    parsed = parse_power_orders(game_map, orders, position.phase.kind)
    return adjudicate_parsed(game_map, position, parsed, options)


def adjudicate_parsed(
    game_map: GameMap,
    position: Position,
    parsed: dict[str, list[ParsedLine]],
    options: Mapping[str, Any] | None = None,
) -> PhaseResult:
    """``adjudicate`` for orders already parsed (``parse_power_orders``):
    legality, resolution and the next position, without reading a text."""
    rules = rules_for(game_map)
    options = options or {}
    powers = list(filter(parsed.__contains__, game_map.powers))  # the map's order, then powers it does not know
    if len(powers) < len(parsed):
        powers += [p for p in parsed if p not in game_map.powers]
    board = Board(game_map, rules, position.units)
    if position.phase.kind is MOVEMENT:
        result = _movement(game_map, rules, board, position, parsed, powers, options)
    elif position.phase.kind is RETREAT:
        reports, units = resolve_retreats(parsed, position.dislodged, position.units, powers)
        after = _replace(position, units=units, dislodged=(), standoffs=frozenset())
        result = _finish_turn(game_map, rules, after, reports, (), frozenset())
    else:
        reports, units = resolve_adjustments(game_map, board, position, parsed)
        next_phase = rules.movement_after(position.phase)
        assert next_phase is not None
        following = _replace(position, phase=next_phase, units=units)
        result = PhaseResult(position.phase, reports, (), frozenset(), following, next_phase, None)
    if result.next_phase is not None:
        draw = rules.draw(game_map, result.position)
        if draw is not None:
            result = _replace(result, next_phase=None, draw=draw, position=_replace(result.position, phase=position.phase))
    # A movement phase's reports come grouped already (``_movement``).
    reports = result.reports if position.phase.kind is MOVEMENT else _grouped(game_map, result.reports)
    # ``result`` was made above and nobody holds it yet: its last two fields
    # are filled in place rather than in a copy (``_replace``).
    result.__dict__.update(reports=reports, eliminated=_eliminated(game_map, position, result.position))
    return result


def _movement(
    game_map: GameMap,
    rules: Rules,
    board: Board,
    position: Position,
    parsed: Mapping[str, list[ParsedLine]],
    powers: list[str],
    options: Mapping[str, Any],
) -> PhaseResult:
    # One pass over the written orders: legality, and the report entry of
    # each ([power, text, order, valid, result, reason], made reports once
    # at the end); ``chosen`` keeps each unit's last legal order and
    # ``entry_of`` its entry (an earlier one for the same unit is superseded).
    unit_at, province_at, army_neighbours = board.unit_at, board.province_at, board.army_neighbours
    incapacitated = position.incapacitated
    checks = _CHECK_OF_KIND
    check_move = checks[Move]
    entries: list[list[Any]] = []
    chosen: dict[str, Order] = {}
    entry_of: dict[str, list[Any]] = {}
    power_orders: dict[str, tuple[list[Any], Order]] = {}
    others = 0  # the entries of unreadable, illegal and power orders
    for power in powers:
        for line in parsed[power]:
            written = line.order
            if written is None:  # unreadable: the parser gives an error and no order
                entries.append(_invalid(power, line, str(line.error), unit_at))
                others += 1
                continue
            # ``check_movement_order`` inline: the check of the order's kind
            # on the unit it names (which gives the unit's province).
            check = checks[type(written)]
            try:
                if check is None:
                    if type(written) is not ConfessionChange:
                        check_movement_order(board, power, written)  # raises why
                    order = rules.check_power_order(game_map, position, power, written, options)
                    entry = [power, line.text, str(order), True, SUCCEEDS, ""]
                    entries.append(entry)
                    if power in power_orders:
                        power_orders[power][0][3:] = [False, INVALID, "superseded"]
                    power_orders[power] = (entry, order)
                    others += 1
                    continue
                location = written.location  # type: ignore[union-attr]
                unit = unit_at.get(province_at.get(location) or province_of(location))
                if unit is None or unit.power != power:
                    unit = find_own_unit(board, power, written.location)  # type: ignore[union-attr]  # raises why
                key = unit.province
                if (
                    check is check_move and unit.kind is ARMY and written.unit is ARMY  # type: ignore[union-attr]
                    and location == key and written.destination in army_neighbours[key]  # type: ignore[union-attr]
                    and not written.via_convoy and not written.waypoints  # type: ignore[union-attr]
                ):
                    order = written  # ``_check_move``'s first case inline: an army's plain move by land
                else:
                    order = check(board, unit, written)
                if incapacitated and key in incapacitated:
                    raise Illegal(f"{unit_at[key]} defected last turn and holds, incapacitated")
            except Illegal as error:
                entries.append(_invalid(power, line, str(error), unit_at))
                others += 1
                continue
            entry = [power, line.text, order.kept_text or str(order), True, SUCCEEDS, ""]
            entries.append(entry)
            chosen[key] = order  # a later order for the unit supersedes this one (marked below)
            entry_of[key] = entry
    if len(entries) - others > len(chosen):
        # Some unit was ordered twice: each of its entries but the last is superseded.
        kept = {id(entry) for entry in entry_of.values()}
        kept.update(id(entry) for entry, _ in power_orders.values())
        for entry in entries:
            if entry[3] and id(entry) not in kept:
                entry[3:] = [False, INVALID, "superseded"]
    confessions = rules.apply_power_orders(
        game_map, position, {power: order for power, (_, order) in power_orders.items()}, options
    )

    # Every unit's order (a hold for a unit without one).  The resolution
    # does not depend on the orders' order (tests/test_core_shortcuts.py):
    # when every unit has one, the written orders serve as they are.
    if len(chosen) == len(unit_at):
        orders = chosen
    else:
        orders = {}  # a loop, not a comprehension: that would make ``chosen`` a closure's cell
        for province, unit in unit_at.items():
            orders[province] = chosen[province] if province in chosen else Hold(unit.kind, unit.location)
    outcome = resolve_movement(board, orders)
    outcomes = outcome.outcomes  # the units whose order did not simply succeed
    for province, (succeeded, reason, _) in outcomes.items():
        if province in entry_of:
            entry = entry_of[province]
            entry[4] = SUCCEEDS if succeeded else FAILS
            entry[5] = reason
    # The written orders' entries are grouped by power in the map's order
    # (``powers``); the implied holds, in the board's order, join their
    # power's group after its written orders.
    if len(chosen) < len(unit_at):
        for province, unit in unit_at.items():
            if province not in chosen:
                succeeded, reason, _ = outcomes.get(province, _HELD)
                entries.append([unit.power, "", str(orders[province]), True, SUCCEEDS if succeeded else FAILS, reason])
        reports = _grouped(game_map, as_reports(entries))
    else:
        reports = as_reports(entries)

    # A loop rather than a generator: one would make ``board`` a closure's
    # cell, read more slowly all through the orders' pass above.
    retreats: list[DislodgedUnit] = []
    for unit, attacker, by_convoy in outcome.dislodged:
        places = retreat_options(board, unit, attacker, by_convoy, outcome.occupied, outcome.standoffs)
        retreats.append(DislodgedUnit(unit, attacker, by_convoy, places))
    dislodged = tuple(retreats)
    after = _replace(position, units=outcome.units, confessions=confessions)
    if any(d.retreats for d in dislodged):
        retreat = rules.retreat_phase(position.phase)
        following = _replace(
            after, phase=retreat, dislodged=tuple(d for d in dislodged if d.retreats), standoffs=outcome.standoffs
        )
        return PhaseResult(position.phase, reports, dislodged, outcome.standoffs, following, retreat, None)
    return _finish_turn(game_map, rules, after, reports, dislodged, outcome.standoffs, outcome.occupied)


_HELD = UnitOutcome(True, "", None)

_CHECK_OF_KIND: dict[type, Callable[[Board, Unit, Any], Order] | None] = {
    **dict.fromkeys(get_args(Order)), **MOVEMENT_CHECKS
}
"""``MOVEMENT_CHECKS`` with ``None`` for every other kind of order (so the
movement loop reads it by subscript)."""


def _invalid(power: str, line: ParsedLine, reason: str, unit_at: Mapping[str, Unit]) -> list[Any]:
    """The report entry of an unreadable or illegal order, printed in its
    tidied canonical form (board unit types and coasts)."""
    order = "" if line.order is None else str(tidy_order(line.order, unit_at))
    return [power, line.text, order, False, INVALID, reason]


def _finish_turn(
    game_map: GameMap,
    rules: Rules,
    position: Position,
    reports: tuple[OrderReport, ...],
    dislodged: tuple[DislodgedUnit, ...],
    standoffs: frozenset[str],
    occupied: frozenset[str] | None = None,
) -> PhaseResult:
    """Close a turn: the variant's end-of-turn step, centres changing owner
    where the turn counts them, and the next phase (adjustments only when
    some power can build or must remove).  ``occupied``, when given, is
    the set of the provinces ``position``'s units stand in."""
    units = position.units
    position, events = rules.end_of_turn(game_map, position)
    if position.units is not units:
        occupied = None  # the variant's step moved or took units
    phase = position.phase
    tally = tables(game_map)
    if rules.counts_centres_after(phase):
        centres = centres_after(tally, position.centres, position.units)
        quiet = position.quiet_years + 1 if centres == position.centres else 0
        position = _replace(position, centres=centres, quiet_years=quiet)
    owners = sorted(position.centres.values())
    won = winner(tally, owners)
    if won is not None:
        return PhaseResult(phase, reports, dislodged, standoffs, position, None, won, events=events)
    next_phase = rules.movement_after(phase)
    if next_phase is None:
        adjustment = rules.adjustment_phase(phase)
        if needs_adjustment(tally, position.centres, owners, position.units, occupied):
            candidate = _replace(position, phase=adjustment)
            return PhaseResult(phase, reports, dislodged, standoffs, candidate, adjustment, None, events=events)
        next_phase = rules.movement_after(adjustment)
        assert next_phase is not None
    following = _replace(position, phase=next_phase)
    return PhaseResult(phase, reports, dislodged, standoffs, following, next_phase, None, events=events)


def _eliminated(game_map: GameMap, before: Position, after: Position) -> tuple[str, ...]:
    powers = tables(game_map).powers
    if powers.issubset(after.centres.values()):
        return ()  # every power still owns a centre (the units need not be counted)
    still = present(after.units, after.centres)
    if still.issuperset(powers):
        return ()  # every power is still there
    was = present(before.units, before.centres)
    return tuple(p for p in game_map.powers if p in was and p not in still)
