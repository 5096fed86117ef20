"""Checking one power's orders on arrival, as the acknowledgement shows them.

The rules core reads every order as the DATC prefers: a wrong unit type or
coast of the ordered unit is corrected from the board.  On arrival the
player must see that correction (``you wrote F CON; the unit there is an
army``), and a corrected order never pushes aside another, correctly
written order for the same unit.  In an adjustment phase the answer says
what is due and which builds or removals will be used; builds and removals
beyond what is due are refused at once (they would fail anyway: an
adjustment does not depend on the other powers' orders).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Sequence

from adjudicator.games.base import AcceptedOrder, Note, OrderCheck, OrderProblem
from adjudicator.games.diplomacy.core.adjustments import allowances
from adjudicator.games.diplomacy.core.engine import adjudicate_parsed
from adjudicator.games.diplomacy.core.mapdata import GameMap
from adjudicator.games.diplomacy.core.model import Location, PhaseKind, Position, Unit, UnitType, coast_of, province_of
from adjudicator.games.diplomacy.core.orders import Build, ConfessionChange, Convoy, Order, SupportHold, SupportMove, Waive
from adjudicator.games.diplomacy.core.reports import FAILS, OrderReport
from adjudicator.games.diplomacy.wording import reason_note

if TYPE_CHECKING:
    from adjudicator.games.diplomacy.core.notation import ParsedLine

_KIND_WORD = {UnitType.ARMY: "army", UnitType.FLEET: "fleet"}


@dataclass(frozen=True, slots=True)
class _Correction:
    """What the board made of a written unit: ``F CON`` -> ``A CON``."""

    province: str
    note: Note


def _units(position: Position) -> dict[str, Unit]:
    """The units an order of this phase can name, by province."""
    if position.phase.kind is PhaseKind.RETREAT:
        return {d.unit.province: d.unit for d in position.dislodged}
    return {u.province: u for u in position.units}


def _corrected(written_kind: UnitType | None, written: Location, units: dict[str, Unit],
               power: str | None) -> Note | None:
    """The note for a written unit the board reads differently, or None."""
    unit = units.get(province_of(written))
    if unit is None or (power is not None and unit.power != power):
        return None
    text = f"{written_kind.value} {written}" if written_kind is not None else written
    if written_kind is not None and written_kind is not unit.kind:
        return Note(f"corrected_to_{_KIND_WORD[unit.kind]}", (("written", text), ("unit", str(unit))))
    if coast_of(written) is not None and written != unit.location and unit.kind is UnitType.FLEET:
        return Note("corrected_coast", (("written", text), ("unit", str(unit))))
    return None


def _correction(order: Order, units: dict[str, Unit], power: str) -> _Correction | None:
    """How the board corrects the units ``order`` names (its own unit first)."""
    if isinstance(order, (Build, Waive, ConfessionChange)):
        return None
    own = _corrected(order.unit, order.location, units, power)
    if own is not None:
        return _Correction(province_of(order.location), own)
    if isinstance(order, (SupportHold, SupportMove, Convoy)):
        target = _corrected(order.target_unit, order.target, units, None)
        if target is not None:
            return _Correction(province_of(order.location), target)
    return None


def check_power_orders(game_map: GameMap, position: Position, options: dict[str, object], power: str,
                       lines: Sequence[tuple[int, str]]) -> OrderCheck:
    """Parse and check ``power``'s lines (``(mail line, text)``) against
    ``position``; only legality is decided, never the result of a move, and
    only this power's orders are read, so the answer reveals nothing of
    the others'."""
    from adjudicator.games.diplomacy.core.notation import parse_orders  # here: Lark is loaded for parsing only

    kind = position.phase.kind
    texts = [text for _, text in lines]
    parsed = parse_orders("\n".join(texts), game_map, kind)
    units = _units(position)
    corrections = [_correction(p.order, units, power) if p.order is not None else None for p in parsed]
    clean = {province_of(p.order.location) for p, c in zip(parsed, corrections)
             if c is None and p.order is not None and p.error is None and hasattr(p.order, "location")}
    # A corrected order for a unit that also has a correctly written order is
    # not used: the correct one stands (and is not marked superseded).
    dropped = {index for index, c in enumerate(corrections) if c is not None and c.province in clean}
    kept = [p for index, p in enumerate(parsed) if index not in dropped]
    result = adjudicate_parsed(game_map, position, {power: as_written_alone(kept)}, options)
    written = [r for r in result.reports if r.power == power and r.text]
    implied = [r for r in result.reports if r.power == power and not r.text]
    accepted: list[AcceptedOrder] = []
    problems: list[OrderProblem] = []
    reports = iter(written)
    for index, parsed_line in enumerate(parsed):
        mail_line = lines[parsed_line.line - 1][0] if 0 < parsed_line.line <= len(lines) else parsed_line.line
        correction = corrections[index]
        if index in dropped:
            assert correction is not None
            note = Note("corrected_not_used", correction.note.fields)
            problems.append(OrderProblem(mail_line, parsed_line.column, parsed_line.text,
                                         "corrected order not used: another order for the unit stands", note=note))
            continue
        report = next(reports)
        if parsed_line.error is not None and not _looks_like_order(game_map, parsed_line.text):
            word = parsed_line.text.split()[0]
            problems.append(OrderProblem(mail_line, parsed_line.column, parsed_line.text,
                                         f"unknown command or order {word!r}",
                                         note=Note("why_unknown_line", (("word", word),))))
        elif not report.valid or (kind is PhaseKind.ADJUSTMENT and report.result == FAILS):
            problems.append(problem(mail_line, parsed_line.column, report))
        else:
            accepted.append(AcceptedOrder(mail_line, report.text, report.order,
                                          correction.note if correction is not None else None))
    missing = tuple(report.order if kind is not PhaseKind.MOVEMENT else report.order.removesuffix(" H")
                    for report in implied)
    notes = _due(game_map, position, power, accepted, implied) if kind is PhaseKind.ADJUSTMENT else ()
    return OrderCheck(tuple(accepted), tuple(problems), missing, notes)


def as_written_alone(kept: Sequence[ParsedLine]) -> list[ParsedLine]:
    """The lines ``kept`` as parsing their texts again, one per line
    (``adjudicate`` of ``[p.text for p in kept]``), would give them,
    without parsing again (issue 20): each text is its own line at column
    1, an error's column moved with it.  An order's parse depends on its
    text alone, the place only on where the text stands."""
    from adjudicator.games.diplomacy.core.notation import OrderSyntaxError, ParsedLine

    lines = []
    for number, parsed in enumerate(kept, start=1):
        error = parsed.error
        if error is not None:
            error = OrderSyntaxError(number, error.column - parsed.column + 1, error.message)
        lines.append(ParsedLine(number, 1, parsed.text, parsed.order, error))
    return lines


_ORDER_WORDS = frozenset((
    "a", "f", "army", "fleet", "armee", "flotte", "build", "builds", "baue", "baut", "bau", "remove", "removes",
    "entferne", "entfernen", "waive", "waives", "disband", "disbands", "d", "auflösen", "aufloesen", "confession",
    "konfession", "konfessionswechsel",
))


def _looks_like_order(game_map: GameMap, text: str) -> bool:
    """True when ``text`` starts as an order would: a unit type, an order
    word, or a place of the map (one or two words: ``St Petersburg``); a
    nationality before the unit (``Russian A ...``) counts too."""
    words = text.replace("-", " ").split()
    if not words:
        return False
    first = words[0].lower().rstrip(".:")
    if first in _ORDER_WORDS or len(words) > 1 and words[1].lower() in ("a", "f"):
        return True
    return any(game_map.lookup_place(" ".join(words[:n])) is not None for n in (1, 2, 3))


def _due(game_map: GameMap, position: Position, power: str, accepted: list[AcceptedOrder],
         implied: list[OrderReport]) -> tuple[Note, ...]:
    """What an adjustment phase asks of ``power`` and what will be used."""
    allowance = allowances(game_map, position)[power]
    used = ", ".join(a.canonical for a in accepted) or "-"
    if allowance.builds:
        waived = allowance.builds - len(accepted)
        notes = [Note("due_builds", (("count", str(allowance.builds)), ("used", used)))]
        if waived > 0:
            notes.append(Note("builds_left_waived", (("count", str(waived)),)))
        return tuple(notes)
    if allowance.removals:
        notes = [Note("due_removals", (("count", str(allowance.removals)), ("used", used)))]
        chosen = [r.order for r in implied if r.order.startswith("REMOVE")]
        if chosen:
            notes.append(Note("removals_by_rule", (("orders", ", ".join(chosen)),)))
        return tuple(notes)
    return ()


def problem(line: int, column: int, report: OrderReport) -> OrderProblem:
    """An invalid (or, on arrival, failing) report as a problem; a syntax
    error's own "line N, column C:" prefix (counted within the order block)
    is replaced by the mail's, and the reason carries its catalogue entry."""
    message = report.reason
    if message.startswith("line ") and ": " in message:
        location, _, rest = message.partition(": ")
        parts = location.replace(",", "").split()
        if len(parts) == 4 and parts[2] == "column" and parts[3].isdigit():
            column, message = int(parts[3]), rest
    hint = ""
    if " (did you mean " in message and message.rstrip().endswith(")"):
        message, _, hint = message.partition(" (did you mean ")
        hint = "did you mean " + hint.rstrip()[:-1]
    return OrderProblem(line, column, report.text, message, hint, reason_note(message, hint))


__all__ = ["check_power_orders", "problem"]
