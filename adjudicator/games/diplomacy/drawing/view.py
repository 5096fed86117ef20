"""What one picture shows, read from a game state and a phase report.

The judge keeps, for every resolved phase, the state it was resolved from
(the JSON case of docs/cli.md) and the public report data of
``DiplomacyGame.resolve``.  ``phase_view`` turns the two into typed
values: the units and centre owners before the phase, every order as an
order value with its result, the units dislodged, the bounces, what
religious warfare did, confessions, and the centre counts.  Without a
report it describes the position alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from adjudicator.games.diplomacy.contract import case_from_json
from adjudicator.games.diplomacy.core.engine import initial_position
from adjudicator.games.diplomacy.core.mapdata import GameMap
from adjudicator.games.diplomacy.core.model import DislodgedUnit, PhaseKind, Unit
from adjudicator.games.diplomacy.core.notation import OrderSyntaxError, parse_order
from adjudicator.games.diplomacy.core.orders import Order

_KINDS = {"movement": PhaseKind.MOVEMENT, "retreat": PhaseKind.RETREAT, "adjustment": PhaseKind.ADJUSTMENT}


@dataclass(frozen=True, slots=True)
class DrawnOrder:
    """An order to draw: the power, the order value, its canonical text,
    its result (``succeeds``, ``fails``) and whether the judge implied it
    (a unit without orders)."""

    power: str
    order: Order
    text: str
    result: str
    implied: bool


@dataclass(frozen=True, slots=True)
class Event:
    """What religious warfare did to a unit: ``disbanded`` or ``defected``
    (then ``to`` is its new power).  ``unit`` is written as in the report."""

    unit: str
    power: str
    outcome: str
    to: str | None


@dataclass(frozen=True, slots=True)
class Standing:
    """A power's line in the legend: centres before and after the phase,
    units after it, its confession (``""`` where there are none) and
    whether that changed in this phase."""

    power: str
    centres_before: int
    centres_after: int
    units: int
    confession: str
    confession_changed: bool


@dataclass(frozen=True)
class PhaseView:
    """Everything one picture shows (see the module docstring).

    ``units`` and ``owners`` are as before the phase; ``retreating`` are
    the units waiting to retreat in a retreat phase; ``dislodged`` maps
    each province whose unit was dislodged in this movement phase to the
    province the attacker came from (``""`` when unknown)."""

    game_map: GameMap
    phase: str
    next_phase: str | None
    kind: PhaseKind
    units: tuple[Unit, ...]
    owners: Mapping[str, str]
    retreating: tuple[DislodgedUnit, ...]
    orders: tuple[DrawnOrder, ...]
    dislodged: Mapping[str, str]
    standoffs: tuple[str, ...]
    events: tuple[Event, ...]
    standings: tuple[Standing, ...]


_READ: dict[tuple[int, PhaseKind, str], tuple[GameMap, Order | None]] = {}
"""Order texts already read, per map and phase kind (a report's canonical
orders repeat from phase to phase and game to game: ``A PAR H``)."""

_READ_LIMIT = 20_000


def _order(game_map: GameMap, text: str, kind: PhaseKind) -> Order | None:
    """``text`` read as an order on ``game_map`` (None when it does not
    parse); each text is parsed once per map and process (orders are
    immutable values, so the one read is shared)."""
    key = (id(game_map), kind, text)
    known = _READ.get(key)
    if known is not None and known[0] is game_map:
        return known[1]
    try:
        order: Order | None = parse_order(text, game_map, kind)
    except OrderSyntaxError:
        order = None
    if len(_READ) >= _READ_LIMIT:
        _READ.clear()
    _READ[key] = (game_map, order)
    return order


def phase_view(state: Mapping[str, Any], report: Mapping[str, Any] | None = None) -> PhaseView:
    """The view of the phase ``state`` is in, resolved as ``report`` says
    (``None``: the position only).  Invalid orders are left out (they do
    nothing on the board), and so are entries whose text does not parse.
    Raises ``CaseError`` for a state that is not a valid case."""
    case = case_from_json(dict(state))
    game_map, position = case.game_map, case.position
    kind = _KINDS.get(str(report.get("phase_kind")), position.phase.kind) if report else position.phase.kind
    orders: list[DrawnOrder] = []
    dislodged: dict[str, str] = {}
    standoffs: tuple[str, ...] = ()
    events: list[Event] = []
    changes: dict[str, str] = {}
    if report:
        for group in report.get("orders", []):
            for entry in group.get("entries", []):
                if not entry.get("valid") or not entry.get("order"):
                    continue
                order = _order(game_map, str(entry["order"]), kind)
                if order is not None:
                    orders.append(DrawnOrder(
                        str(entry.get("power", group.get("power", ""))), order, str(entry["order"]),
                        str(entry.get("result", "")), not entry.get("text"),
                    ))
        for item in report.get("dislodged", []):
            location = str(item.get("unit", "")).split()[-1:]
            if location:
                dislodged[location[0].split("/")[0]] = str(item.get("attacker_from") or "")
        standoffs = tuple(str(s) for s in report.get("standoffs", []))
        events = [
            Event(str(e.get("unit", "")), str(e.get("power", "")), str(e.get("outcome", "")), e.get("to"))
            for e in report.get("religious_warfare", [])
        ]
        changes = {str(c["power"]): str(c["after"]["state"]) for c in report.get("confession_changes", [])}
    confessions = {power: c.state for power, c in position.confessions.items()}
    standings = _standings(game_map, position.units, position.centres, confessions, report, changes)
    next_phase = report.get("next_phase") if report else None
    return PhaseView(
        game_map, str(position.phase), None if next_phase is None else str(next_phase), kind, position.units,
        dict(position.centres), position.dislodged, tuple(orders), dislodged, standoffs, tuple(events), standings,
    )


def _standings(game_map: GameMap, units: tuple[Unit, ...], owners: Mapping[str, str],
               confessions: Mapping[str, str], report: Mapping[str, Any] | None, changes: Mapping[str, str]
               ) -> tuple[Standing, ...]:
    rows = {str(r["power"]): r for r in (report or {}).get("centres", [])}
    standings = []
    for power in game_map.powers:
        row = rows.get(power)
        if row is not None:
            before, after, count = int(row["before"]), int(row["after"]), int(row["units"])
        else:
            before = after = sum(1 for owner in owners.values() if owner == power)
            count = sum(1 for u in units if u.power == power)
            if report is not None or (before == 0 and count == 0):
                continue
        standings.append(Standing(
            power, before, after, count, changes.get(power, confessions.get(power, "")), power in changes,
        ))
    return tuple(standings)


def start_view(game_map: GameMap) -> PhaseView:
    """The view of a map's start position, no orders (works for any loaded
    map, also one read from a file outside ``maps/``)."""
    position = initial_position(game_map)
    confessions = {power: p.confession or "" for power, p in game_map.powers.items()}
    standings = _standings(game_map, position.units, position.centres, confessions, None, {})
    return PhaseView(
        game_map, str(position.phase), None, position.phase.kind, position.units, dict(position.centres), (), (),
        {}, (), (), standings,
    )
