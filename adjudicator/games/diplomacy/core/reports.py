"""Per-order reports shared by the three phase kinds."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any, Iterable, Mapping, NamedTuple, Sequence

from adjudicator.games.diplomacy.core.legality import tidy_order
from adjudicator.games.diplomacy.core.mapdata import GameMap
from adjudicator.games.diplomacy.core.model import PhaseKind, Unit
from adjudicator.games.diplomacy.core.orders import Order

if TYPE_CHECKING:  # the grammar (Lark) is loaded only when orders are parsed
    from adjudicator.games.diplomacy.core.notation import ParsedLine

SUCCEEDS = "succeeds"
FAILS = "fails"
INVALID = "invalid"

class OrderReport(NamedTuple):
    """One line of a turn report: what a power wrote, how it was read,
    and what came of it (``succeeds``, ``fails`` or ``invalid``).

    A named tuple (immutable, compared by value) rather than a dataclass:
    a phase makes one per order, and ``as_reports`` makes them all from the
    entries' lists in one C call each."""

    power: str
    text: str
    order: str
    valid: bool
    result: str
    reason: str


_new_report = partial(tuple.__new__, OrderReport)


def as_reports(entries: Iterable[Sequence[Any]]) -> tuple[OrderReport, ...]:
    """The reports of entries ``[power, text, order, valid, result, reason]``."""
    return tuple(map(_new_report, entries))


def parse_power_orders(
    game_map: GameMap, orders: Mapping[str, Sequence[str]], phase_kind: PhaseKind
) -> dict[str, list[ParsedLine]]:
    """Parse each power's order strings as the lines of one mail.

    Line numbers in error messages count the strings from 1; a string may
    itself hold several orders separated by ``;`` or line breaks.
    """
    from adjudicator.games.diplomacy.core.notation import parse_orders

    return {power: parse_orders("\n".join(lines), game_map, phase_kind) for power, lines in orders.items()}




class OrderBook:
    """Collects a phase's reports in the order the orders were written.

    ``accept`` records a legal order for a unit; a later legal order for the
    same unit supersedes it (the earlier one is reported invalid with the
    reason "superseded").  ``settle`` fills in the result once the phase is
    resolved; ``implied`` adds the entry of a unit that had no legal order.
    """

    def __init__(self, unit_at: Mapping[str, Unit]) -> None:
        # Entries are kept as lists [power, text, order, valid, result,
        # reason] and become reports once, when asked for.
        self._entries: list[list[Any]] = []
        self._unit_at = unit_at
        self.chosen: dict[str, tuple[int, Order]] = {}

    def invalid(self, power: str, line: ParsedLine, reason: str) -> None:
        """Record an unreadable or illegal order, printed in its tidied
        canonical form (board unit types and coasts)."""
        order = "" if line.order is None else str(tidy_order(line.order, self._unit_at))
        self._entries.append([power, line.text, order, False, INVALID, reason])

    def accept(self, power: str, line: ParsedLine, order: Order, key: str | None) -> int:
        """Record a legal order for the unit ``key`` (``None``: no unit, e.g. a build)."""
        entries, chosen = self._entries, self.chosen
        index = len(entries)
        entries.append([power, line.text, str(order), True, "", ""])
        if key is not None:
            if key in chosen:
                entries[chosen[key][0]][3:] = [False, INVALID, "superseded"]
            chosen[key] = (index, order)
        return index

    def settle(self, index: int, result: str, reason: str = "") -> None:
        """Set the result of the accepted order at ``index``."""
        entry = self._entries[index]
        entry[4] = result
        entry[5] = reason

    def implied(self, power: str, order: str, result: str, reason: str = "") -> None:
        """Add the entry of a unit that received no legal order."""
        self._entries.append([power, "", order, True, result, reason])

    def reports(self) -> tuple[OrderReport, ...]:
        """All reports so far."""
        return as_reports(self._entries)
