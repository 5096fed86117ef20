"""Resolution of a retreat phase.

Only dislodged units are ordered: a retreat to one of the unit's retreat
options, or a disband.  Two or more retreats to the same province all fail
and those units are disbanded; a dislodged unit without a legal order is
disbanded.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from adjudicator.games.diplomacy.core.errors import Illegal
from adjudicator.games.diplomacy.core.model import FLEET, DislodgedUnit, Unit, coast_of, province_of
from adjudicator.games.diplomacy.core.orders import Disband, Move, Order, Retreat
from adjudicator.games.diplomacy.core.reports import FAILS, SUCCEEDS, OrderBook, OrderReport

if TYPE_CHECKING:  # the grammar (Lark) is loaded only when orders are parsed
    from adjudicator.games.diplomacy.core.notation import ParsedLine


def check_retreat_order(
    order: Order, power: str, dislodged: dict[str, DislodgedUnit], units: dict[str, Unit]
) -> Retreat | Disband:
    """Normalise a retreat-phase order of ``power`` or raise ``Illegal``."""
    if isinstance(order, Move):
        raise Illegal("a retreat goes to one neighbouring province and cannot be convoyed")
    if not isinstance(order, (Retreat, Disband)):
        raise Illegal(f"'{order}' is not an order for a retreat phase: only retreats and disbands")
    province = province_of(order.location)
    entry = dislodged.get(province)
    if entry is None:
        if province in units and units[province].power == power:
            raise Illegal(f"{units[province]} was not dislodged; only dislodged units are ordered now")
        raise Illegal(f"there is no dislodged unit in {province}")
    unit = entry.unit
    if unit.power != power:
        raise Illegal(f"the dislodged unit in {province} belongs to {unit.power}")
    if isinstance(order, Disband):
        return Disband(unit.kind, unit.location)
    target = province_of(order.destination)
    options = [loc for loc in entry.retreats if province_of(loc) == target]
    if unit.kind is FLEET and coast_of(order.destination) is not None and len(options) > 1:
        options = [loc for loc in options if loc == order.destination]
    if len(options) > 1:
        raise Illegal(f"the coast must be given: {' or '.join(options)}")
    if not options:
        allowed = ", ".join(entry.retreats) or "nowhere"
        raise Illegal(f"{unit} cannot retreat to {order.destination} (it may retreat to: {allowed})")
    return Retreat(unit.kind, unit.location, options[0])


def resolve_retreats(
    parsed: dict[str, list[ParsedLine]],
    dislodged: tuple[DislodgedUnit, ...],
    units: tuple[Unit, ...],
    powers: list[str],
) -> tuple[tuple[OrderReport, ...], tuple[Unit, ...]]:
    """Resolve a retreat phase; returns the reports (implied disbands
    included) and the units on the board afterwards."""
    by_province = {d.unit.province: d for d in dislodged}
    unit_at = {u.province: u for u in units}
    book = OrderBook({**unit_at, **{p: d.unit for p, d in by_province.items()}})
    for power in powers:
        for line in parsed.get(power, []):
            if line.error is not None or line.order is None:
                book.invalid(power, line, str(line.error))
                continue
            try:
                order = check_retreat_order(line.order, power, by_province, unit_at)
            except Illegal as error:
                book.invalid(power, line, str(error))
                continue
            book.accept(power, line, order, province_of(order.location))

    crowded: dict[str, int] = {}
    for _, chosen in book.chosen.values():
        if isinstance(chosen, Retreat):
            target = province_of(chosen.destination)
            crowded[target] = crowded.get(target, 0) + 1
    after = list(units)
    for province, (index, chosen) in book.chosen.items():
        if isinstance(chosen, Retreat):
            if crowded[province_of(chosen.destination)] > 1:
                book.settle(index, FAILS, "bounced with another retreat; the unit is disbanded")
                continue
            unit = by_province[province].unit
            after.append(Unit(unit.power, unit.kind, chosen.destination))
        book.settle(index, SUCCEEDS)
    for entry in dislodged:
        if entry.unit.province not in book.chosen:
            book.implied(entry.unit.power, f"{entry.unit} DISBAND", SUCCEEDS, "no retreat ordered")
    return book.reports(), tuple(after)
