"""Province abbreviations placed where nothing else is drawn.

Each province's label goes to one of a fixed set of places around its
seat (below it first).  ``place_labels`` chooses, province by province,
the place whose box meets the fewest things: unit symbols, order lines
and arrow heads, markers, supply-centre rings, coast marks and the labels
placed before it, and that stays inside the province's own region and
the map and off the rivers.  The choice depends only on the map and the shapes given, so a
phase drawn twice gets the same labels.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache

from adjudicator.games.diplomacy.core.mapdata import GameMap
from adjudicator.games.diplomacy.drawing.board import LABEL_SIZE, UNIT_RADIUS
from adjudicator.games.diplomacy.drawing.layout import map_layout
from adjudicator.games.pictures.geometry import Point, contains
from adjudicator.games.pictures.scene import Circle, Group, Polygon, Polyline, Shape, Text

Box = tuple[float, float, float, float]
"""(left, top, right, bottom) in pixels."""


def text_box(at: Point, text: str, size: float = LABEL_SIZE) -> Box:
    """The box a text of ``size`` centred at ``at`` covers."""
    half = len(text) * size * 0.31
    return at[0] - half, at[1] - size * 0.55, at[0] + half, at[1] + size * 0.55


def circle_box(centre: Point, radius: float) -> Box:
    """The box around a circle."""
    return centre[0] - radius, centre[1] - radius, centre[0] + radius, centre[1] + radius


def points_box(points: Iterable[Point]) -> Box:
    """The box around some points."""
    xs, ys = zip(*points)
    return min(xs), min(ys), max(xs), max(ys)


def boxes_meet(a: Box, b: Box) -> bool:
    """True when the two boxes overlap (touching edges do not count)."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def segment_meets_box(p: Point, q: Point, box: Box) -> bool:
    """True when the segment from ``p`` to ``q`` passes through ``box``
    (Liang-Barsky clipping)."""
    low, high = 0.0, 1.0
    dx, dy = q[0] - p[0], q[1] - p[1]
    for step, room in ((-dx, p[0] - box[0]), (dx, box[2] - p[0]), (-dy, p[1] - box[1]), (dy, box[3] - p[1])):
        if step == 0:
            if room < 0:
                return False
            continue
        t = room / step
        if step < 0:
            low = max(low, t)
        else:
            high = min(high, t)
        if low > high:
            return False
    return True


def line_meets_box(points: Sequence[Point], box: Box) -> bool:
    """True when the polyline (or polygon outline) through ``points`` passes
    through ``box``."""
    if len(points) == 1:
        return box[0] < points[0][0] < box[2] and box[1] < points[0][1] < box[3]
    return any(segment_meets_box(points[i], points[i + 1], box) for i in range(len(points) - 1))


@dataclass(frozen=True, slots=True)
class _Obstacle:
    """Something a label should not cover: a box (a symbol) or a line."""

    box: Box
    line: tuple[Point, ...] = ()
    weight: float = 10.0

    def meets(self, box: Box) -> bool:
        if not boxes_meet(self.box, box):
            return False
        return not self.line or line_meets_box(self.line, box)


def _grown(box: Box, by: float) -> Box:
    return box[0] - by, box[1] - by, box[2] + by, box[3] + by


def obstacles(shapes: Iterable[Shape]) -> list[_Obstacle]:
    """What of ``shapes`` a label should avoid: every circle, polygon, line
    and text (unit symbols, order lines, arrow heads, markers, centre
    rings, coast marks), each by its outline widened by half its stroke."""
    found: list[_Obstacle] = []
    for shape in shapes:
        if isinstance(shape, Group):
            found.extend(obstacles(shape.children))
        elif isinstance(shape, Circle):
            found.append(_Obstacle(_grown(circle_box(shape.centre, shape.radius), shape.style.width / 2)))
        elif isinstance(shape, Polygon):
            found.append(_Obstacle(_grown(points_box(shape.points), shape.style.width / 2)))
        elif isinstance(shape, Polyline):
            pad = shape.style.width / 2 + 0.5
            found.append(_Obstacle(_grown(points_box(shape.points), pad), shape.points, 8.0))
        elif isinstance(shape, Text) and shape.cls != "label":
            found.append(_Obstacle(text_box(shape.at, shape.text, shape.size)))
    return found


_GRID = 40.0


def _cells(box: Box) -> Iterable[tuple[int, int]]:
    for gx in range(int(box[0] // _GRID), int(box[2] // _GRID) + 1):
        for gy in range(int(box[1] // _GRID), int(box[3] // _GRID) + 1):
            yield gx, gy


class _Index:
    """Obstacles bucketed on a grid, so each label looks only at its own
    neighbourhood."""

    def __init__(self, items: Iterable[_Obstacle] = ()) -> None:
        self.cells: dict[tuple[int, int], list[_Obstacle]] = defaultdict(list)
        for item in items:
            self.add(item)

    def add(self, item: _Obstacle) -> None:
        for cell in _cells(item.box):
            self.cells[cell].append(item)

    def weight(self, box: Box, cells: Sequence[tuple[int, int]]) -> float:
        """The summed weight of the obstacles in ``cells`` (each once, in the
        order first met) that meet ``box`` (``_Obstacle.meets``, inline)."""
        found = self.cells
        if len(cells) == 1:  # one cell: its obstacles are each there once
            items: Iterable[_Obstacle] = found.get(cells[0], ())
        else:
            seen: dict[int, _Obstacle] = {}
            for cell in cells:
                for item in found.get(cell, ()):
                    seen[id(item)] = item
            items = seen.values()
        left, top, right, bottom = box
        total = 0.0
        for item in items:
            other = item.box
            if other[0] < right and left < other[2] and other[1] < bottom and top < other[3] \
                    and (not item.line or line_meets_box(item.line, box)):
                total += item.weight
        return total


def _offsets(half: float) -> tuple[Point, ...]:
    """Label centres relative to the seat: below first, then right, left,
    the four diagonals, above, and the same a little further out."""
    gap = UNIT_RADIUS + 4
    low = UNIT_RADIUS + 6
    near = ((0.0, low), (gap + half, 0.0), (-gap - half, 0.0), (gap + half, gap), (-gap - half, gap),
            (gap + half, -gap), (-gap - half, -gap), (0.0, -low - 6))
    far = tuple((dx * 1.6 if dx else 0.0, dy * 1.7) for dx, dy in near)
    return near + far + ((0.0, low * 2.6), (0.0, -low * 2.8))


Place = tuple[Point, Box, float, tuple[tuple[int, int], ...]]
"""A label's place: its centre, its box, the cost the map gives it and the
grid cells its box lies in."""


@dataclass(frozen=True)
class _Candidates:
    """Per map: each province's label places with the cost the map itself
    gives them (outside the region or the map, across a river)."""

    width: float
    height: float
    places: dict[str, tuple[Place, ...]]


@cache
def _candidates(game_map: GameMap) -> _Candidates:
    layout = map_layout(game_map)
    places: dict[str, tuple[Place, ...]] = {}
    for key, region in layout.regions.items():
        x, y = region.seat
        found = []
        for rank, (dx, dy) in enumerate(_offsets(len(key) * LABEL_SIZE * 0.31)):
            at = (x + dx, y + dy)
            box = text_box(at, key)
            inside = sum(contains(region.outline, corner) for corner in
                         ((box[0], box[1]), (box[2], box[1]), (box[0], box[3]), (box[2], box[3])))
            outside_map = box[0] < 0 or box[1] < 0 or box[2] > layout.width or box[3] > layout.height
            rivers = sum(line_meets_box(river.points, _grown(box, 1.2)) for river in layout.rivers)
            cost = 0.05 * rank + 1.5 * (4 - inside) + 3.0 * rivers + (50.0 if outside_map else 0.0)
            found.append((at, box, cost, tuple(_cells(box))))
        places[key] = tuple(found)
    return _Candidates(layout.width, layout.height, places)


def place_labels(game_map: GameMap, drawn: Iterable[Shape]) -> dict[str, Point]:
    """Where each province's label goes (see the module docstring): the
    place of least cost, where covering a symbol or another label costs 10
    and crossing a line 8.  Provinces whose first place is free keep it;
    the others are placed afterwards, most crowded first."""
    candidates = _candidates(game_map)
    index = _Index(obstacles(drawn))

    def cost(place: Place) -> float:
        return place[2] + index.weight(place[1], place[3])

    chosen: dict[str, Point] = {}
    crowded: list[tuple[float, str]] = []
    for key, places in candidates.places.items():
        first = cost(places[0])
        if first < 1.0:
            chosen[key] = places[0][0]
            index.add(_Obstacle(places[0][1]))
        else:
            crowded.append((-first, key))
    for _, key in sorted(crowded):
        best = min(candidates.places[key], key=cost)
        chosen[key] = best[0]
        index.add(_Obstacle(best[1]))
    return {key: chosen[key] for key in candidates.places}


def label_shapes(game_map: GameMap, drawn: Iterable[Shape] = ()) -> list[Shape]:
    """Every province's abbreviation (``class="label"``, ``data-province``),
    placed off the shapes ``drawn`` on the map (``place_labels``)."""
    layout = map_layout(game_map)
    places = place_labels(game_map, drawn)
    return [
        Text(places[key], key, LABEL_SIZE, "#3b4a5a" if region.sea else "#4a3f2c", cls="label",
             data=(("province", key),))
        for key, region in layout.regions.items()
    ]
