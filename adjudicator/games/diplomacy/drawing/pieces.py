"""Units and orders as scene shapes.

Units are coloured by power: an army is a disc, a fleet a hull, each with
its letter (``class="unit"``, ``data-unit="A VIE"``).  Orders are groups
named ``arrow move``, ``arrow retreat``, ``arrow support``, ``arrow
convoy``, ``hold`` and ``marker <kind>`` (``build``, ``remove``,
``disband``, ``transform``, ``confession``); a failed one also has the
class ``failed`` and a red cross.  Dislodged units get a red ring, bounces
a red burst, religious warfare a black cross (``disbanded``) or a badge
in the new power's colour (``defected``).
"""

from __future__ import annotations

import math
from typing import Mapping

from adjudicator.games.diplomacy.core.model import PhaseKind, UnitType, province_of
from adjudicator.games.diplomacy.core.orders import (
    Build,
    ConfessionChange,
    Convoy,
    Disband,
    Hold,
    Move,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
    Transform,
)
from adjudicator.games.diplomacy.drawing import colours as c
from adjudicator.games.diplomacy.drawing.board import UNIT_RADIUS
from adjudicator.games.pictures.geometry import Point, arrow_head, distance, regular_polygon, shorten, towards
from adjudicator.games.diplomacy.drawing.layout import MapLayout
from adjudicator.games.pictures.scene import Circle, Data, Group, Polygon, Polyline, Shape, Style, Text
from adjudicator.games.diplomacy.drawing.view import DrawnOrder, PhaseView

R = UNIT_RADIUS
RETREAT_OFFSET = (R * 1.3, R * 1.1)
"""A unit waiting to retreat is drawn this far from its province's point."""


def unit_symbol(kind: UnitType, at: Point, colour: str, *, ghost: bool = False) -> list[Shape]:
    """The shapes of one unit symbol at ``at`` (a dashed outline when ``ghost``)."""
    x, y = at
    outline = Style(fill=c.tint(colour, 0.35) if ghost else colour, stroke=c.INK, width=1.3,
                    dash=(2.5, 2.0) if ghost else ())
    if kind is UnitType.ARMY:
        body: Shape = Circle(at, R, outline)
    else:
        body = Polygon(((x - R * 1.15, y - R * 0.55), (x + R * 1.15, y - R * 0.55), (x + R * 0.7, y + R * 0.75),
                        (x - R * 0.7, y + R * 0.75)), outline)
    return [body, Text((x, y + (0.5 if kind is UnitType.ARMY else 0.0)), kind.value, R * 1.05,
                       c.readable_on(colour) if not ghost else c.INK, bold=True)]


def cross(at: Point, size: float, colour: str, width: float) -> list[Shape]:
    """An X of half-width ``size`` centred on ``at``."""
    x, y = at
    style = Style(stroke=colour, width=width)
    return [Polyline(((x - size, y - size), (x + size, y + size)), style),
            Polyline(((x - size, y + size), (x + size, y - size)), style)]


def burst(at: Point, size: float = 7.0) -> list[Shape]:
    """Eight short red rays around ``at``: the mark of a bounce."""
    style = Style(stroke=c.FAILED, width=1.8)
    ends = [(at[0] + size * math.cos(k * math.pi / 4), at[1] + size * math.sin(k * math.pi / 4)) for k in range(8)]
    return [Polyline((towards(at, end, 0.3), end), style) for end in ends]


def confession_badge(at: Point, confession: str) -> list[Shape]:
    """A white disc with a Latin cross: gold for catholic, black for
    protestant, grey while a change is under way (``ex-...``)."""
    x, y = at
    ink = "#b8860b" if confession == "catholic" else c.INK if confession == "protestant" else "#888888"
    style = Style(stroke=ink, width=1.8)
    return [
        Circle(at, 6.5, Style(fill=c.PAPER, stroke=ink, width=1.0)),
        Polyline(((x, y - 4.5), (x, y + 4.5)), style),
        Polyline(((x - 3.0, y - 1.8), (x + 3.0, y - 1.8)), style),
    ]


def _arrow(points: list[Point], colour: str, width: float, dash: tuple[float, ...] = (),
           head: float = 9.0) -> list[Shape]:
    """A polyline with an outline and an arrow head at its last point."""
    if len(points) < 2 or distance(points[-2], points[-1]) < 1e-6:
        return []
    tip = points[-1]
    base = arrow_head(tip, points[-2], head, head * 0.9)
    neck = towards(tip, points[-2], min(head * 0.8 / max(distance(tip, points[-2]), 1e-6), 1.0))
    body = (*points[:-1], neck)
    shapes: list[Shape] = []
    if not dash:
        shapes.append(Polyline(body, Style(stroke=c.INK, width=width + 2.0), "outline"))
    shapes.append(Polyline(body, Style(stroke=colour, width=width, dash=dash), "shaft"))
    shapes.append(Polygon(base, Style(fill=colour, stroke=c.INK, width=1.0), "head"))
    return shapes


def _failure(at: Point) -> list[Shape]:
    return [Circle(at, 5.5, Style(fill=c.PAPER, stroke=c.FAILED, width=1.2)), *cross(at, 3.2, c.FAILED, 2.0)]


def _names(order: DrawnOrder, kind: str) -> tuple[str, Data]:
    cls = kind + (" failed" if order.result == "fails" else "")
    return cls, (("order", order.text), ("power", order.power), ("result", order.result))


class Pieces:
    """Draws the units and orders of one ``PhaseView`` on its layout."""

    def __init__(self, view: PhaseView, layout: MapLayout, colours: Mapping[str, str]) -> None:
        self.view = view
        self.layout = layout
        self.colours = colours
        self.retreating = {d.unit.location for d in view.retreating}

    def colour(self, power: str) -> str:
        """The power's colour (grey for an unknown power)."""
        return self.colours.get(power, "#999999")

    def where(self, location: str) -> Point:
        """Where the unit ordered from ``location`` is drawn: a unit waiting
        to retreat beside its province's point, any other on it."""
        x, y = self.layout.point(location)
        if self.view.kind is PhaseKind.RETREAT and location in self.retreating:
            return x + RETREAT_OFFSET[0], y + RETREAT_OFFSET[1]
        return x, y

    # --- units --------------------------------------------------------------

    def units(self) -> list[Shape]:
        """One group per unit on the board, and per unit waiting to retreat
        (those with ``data-dislodged="yes"``)."""
        shapes: list[Shape] = []
        for unit in self.view.units:
            dislodged = province_of(unit.location) in self.view.dislodged
            shapes.append(Group(
                tuple(unit_symbol(unit.kind, self.layout.point(unit.location), self.colour(unit.power))),
                "unit dislodged" if dislodged else "unit",
                (("unit", str(unit)), ("power", unit.power)),
            ))
        for waiting in self.view.retreating:
            unit = waiting.unit
            at = self.where(unit.location)
            ring = Circle(at, R + 3.0, Style(stroke=c.FAILED, width=2.0))
            shapes.append(Group(
                (ring, *unit_symbol(unit.kind, at, self.colour(unit.power))), "unit dislodged",
                (("unit", str(unit)), ("power", unit.power), ("dislodged", "yes")),
            ))
        return shapes

    # --- orders -------------------------------------------------------------

    def under_units(self) -> list[Shape]:
        """Support and convoy lines, hold marks and bounces (drawn below the units)."""
        shapes: list[Shape] = []
        for province in self.view.standoffs:
            if province in self.layout.regions:
                shapes.append(self._standoff(province))
        for order in self.view.orders:
            value = order.order
            if isinstance(value, (SupportHold, SupportMove)):
                shapes.append(self._support(order, value))
            elif isinstance(value, Convoy):
                shapes.append(self._convoy(order, value))
            elif isinstance(value, Hold) and not order.implied:
                at = self.where(value.location)
                cls, data = _names(order, "hold")
                shapes.append(Group((Polygon(regular_polygon(at, R + 4, 8, math.pi / 8),
                                             Style(stroke=c.INK, width=1.6)),), cls, data))
        return shapes

    def over_units(self) -> list[Shape]:
        """Moves, retreats and markers, and the marks of dislodged units and
        religious warfare (drawn above the units)."""
        shapes: list[Shape] = []
        for province, attacker in sorted(self.view.dislodged.items()):
            if province in self.layout.regions:
                at = self.layout.regions[province].seat
                shapes.append(Group((Circle(at, R + 3.5, Style(stroke=c.FAILED, width=2.4)),), "marker dislodged",
                                    (("province", province), ("attacker", attacker))))
        for order in self.view.orders:
            value = order.order
            if isinstance(value, (Move, Retreat)):
                shapes.append(self._move(order, value))
            elif isinstance(value, (Disband, Remove)):
                kind = "disband" if isinstance(value, Disband) else "remove"
                failed = order.result == "fails"
                cls, data = _names(order, f"marker {kind}" + (" failed" if failed else ""))
                at = self.where(value.location)
                mark = cross(at, R * 0.95, c.FAILED, 3.0) if not failed else [
                    Circle(at, R + 3.0, Style(stroke=c.FAILED_LIGHT, width=1.6, dash=(3.0, 2.5))),
                    *cross(at, R * 0.6, c.FAILED_LIGHT, 1.6)]
                shapes.append(Group(tuple(mark), cls, data))
            elif isinstance(value, Build):
                shapes.append(self._build(order, value))
            elif isinstance(value, Transform):
                shapes.append(self._transform(order, value))
            elif isinstance(value, ConfessionChange):
                shapes.append(self._confession(order, value))
        for event in self.view.events:
            shapes.extend(self._event(event.unit, event.outcome, event.to))
        return shapes

    def _move(self, order: DrawnOrder, value: Move | Retreat) -> Group:
        start = self.where(value.location)
        legs: list[Point] = []
        if isinstance(value, Move) and value.waypoints and self._kind_at(value.location) is UnitType.FLEET:
            legs = [self.layout.point(w) for w in value.waypoints]
        end = self.layout.point(value.destination)
        path = [start, *legs, end]
        first, _ = shorten(path[0], path[1], R + 1, 0)
        _, last = shorten(path[-2], path[-1], 0, R + 1)
        path = [first, *path[1:-1], last]
        colour = self.colour(order.power)
        failed = order.result == "fails"
        shapes: list[Shape] = []
        if legs:
            shapes.extend(Circle(point, 3.0, Style(fill=colour, stroke=c.INK, width=1.0), "waypoint") for point in legs)
        shapes[:0] = _arrow(path, colour, 3.0, dash=(7.0, 4.0) if failed else ())
        if failed:
            shapes.extend(_failure(towards(path[-2], path[-1], 0.8)))
        kind = "arrow retreat" if isinstance(value, Retreat) or self.view.kind is PhaseKind.RETREAT else "arrow move"
        cls, data = _names(order, kind)
        return Group(tuple(shapes), cls, data + (("legs", str(len(path) - 1)),))

    def _kind_at(self, location: str) -> UnitType | None:
        for unit in self.view.units:
            if unit.location == location:
                return unit.kind
        return None

    def _support(self, order: DrawnOrder, value: SupportHold | SupportMove) -> Group:
        start = self.where(value.location)
        target = self.where(value.target)
        colour = self.colour(order.power)
        shapes: list[Shape]
        if isinstance(value, SupportMove):
            goal = towards(target, self.layout.point(value.destination), 0.62)
            first, _ = shorten(start, goal, R + 1, 0)
            shapes = _arrow([first, goal], colour, 2.0, dash=(5.0, 3.5), head=7.0)
            kind = "move"
        else:
            first, end = shorten(start, target, R + 1, R + 4)
            shapes = [Polyline((first, end), Style(stroke=colour, width=2.0, dash=(5.0, 3.5)), "shaft"),
                      Circle(target, R + 4, Style(stroke=colour, width=2.0, dash=(5.0, 3.5)), "ring")]
            goal = end
            kind = "hold"
        if order.result == "fails":
            shapes.extend(_failure(towards(start, goal, 0.5)))
        cls, data = _names(order, "arrow support")
        return Group(tuple(shapes), cls, data + (("kind", kind),))

    def _convoy(self, order: DrawnOrder, value: Convoy) -> Group:
        fleet = self.where(value.location)
        army = self.where(value.target)
        goal = self.layout.point(value.destination)
        first, _ = shorten(army, fleet, R + 1, 0)
        _, last = shorten(fleet, goal, 0, R + 2)
        colour = self.colour(order.power)
        shapes = _arrow([first, fleet, last], colour, 1.8, dash=(1.5, 3.5), head=7.0)
        if order.result == "fails":
            shapes.extend(_failure(towards(fleet, last, 0.5)))
        cls, data = _names(order, "arrow convoy")
        return Group(tuple(shapes), cls, data)

    def _build(self, order: DrawnOrder, value: Build) -> Group:
        """A build: the new unit, faint, with a "+"; a build that failed
        (no build left, site taken) only as a dashed outline crossed out,
        so nobody reads it as a unit on the board."""
        at = self.layout.point(value.location)
        kind = value.unit or UnitType.ARMY
        if order.result == "fails":
            shapes: list[Shape] = [Circle(at, R + 1.0, Style(stroke=c.FAILED, width=1.8, dash=(3.0, 2.5)))]
            shapes.extend(cross(at, R * 0.7, c.FAILED, 2.2))
            cls, data = _names(order, "marker build failed")
            return Group(tuple(shapes), cls, data + (("location", value.location),))
        shapes = unit_symbol(kind, at, self.colour(order.power), ghost=True)
        shapes.append(Circle((at[0] + R, at[1] - R), 5.0, Style(fill=c.PAPER, stroke=c.INK, width=1.0)))
        shapes.append(Text((at[0] + R, at[1] - R), "+", 9.0, c.INK, bold=True))
        cls, data = _names(order, "marker build")
        return Group(tuple(shapes), cls, data + (("location", value.location),))

    def _transform(self, order: DrawnOrder, value: Transform) -> Group:
        x, y = self.where(value.location)
        at = (x + R + 1, y - R - 1)
        shapes: list[Shape] = [Circle(at, 6.5, Style(fill=c.PAPER, stroke=self.colour(order.power), width=2.0)),
                               Text(at, value.into.value, 8.5, c.INK, bold=True)]
        if order.result == "fails":
            shapes.extend(cross(at, 5.0, c.FAILED, 1.8))
        cls, data = _names(order, "marker transform")
        return Group(tuple(shapes), cls, data + (("into", str(value).split(" T ")[-1]),))

    def _confession(self, order: DrawnOrder, value: ConfessionChange) -> Group:
        homes = self.view.game_map.powers[order.power].home_centres if order.power in self.view.game_map.powers else ()
        anchor = self.layout.regions[homes[0]].seat if homes else (12.0, 12.0)
        at = (anchor[0] - R - 8, anchor[1] - R - 2)
        shapes = confession_badge(at, value.confession.lower())
        if order.result == "fails":
            shapes.extend(cross(at, 5.0, c.FAILED, 1.8))
        cls, data = _names(order, "marker confession")
        return Group(tuple(shapes), cls, data + (("confession", value.confession.lower()),))

    def _standoff(self, province: str) -> Group:
        x, y = self.layout.regions[province].seat
        return Group(tuple(burst((x + R + 5, y - R + 1))), "marker standoff", (("province", province),))

    def _event(self, unit: str, outcome: str, to: str | None) -> list[Shape]:
        location = unit.split()[-1] if unit.split() else ""
        if province_of(location) not in self.layout.regions:
            return []
        x, y = self.layout.point(location)
        if outcome == "defected" and to is not None:
            at = (x - R - 2, y + R + 2)
            shapes: list[Shape] = [Circle(at, 6.5, Style(fill=self.colour(to), stroke=c.INK, width=1.5)),
                                   Text(at, "\u00bb", 9.0, c.readable_on(self.colour(to)), bold=True)]
            return [Group(tuple(shapes), "marker defected", (("event", unit), ("to", to)))]
        return [Group(tuple(cross((x, y), R + 2, c.INK, 3.2)), "marker disbanded", (("event", unit),))]


def piece_shapes(view: PhaseView, layout: MapLayout, colours: Mapping[str, str]
                 ) -> tuple[list[Shape], list[Shape], list[Shape]]:
    """The shapes below the units, the units, and the shapes above them."""
    pieces = Pieces(view, layout, colours)
    return pieces.under_units(), pieces.units(), pieces.over_units()

