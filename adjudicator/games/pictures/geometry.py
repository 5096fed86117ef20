"""Plane geometry for map pictures: Voronoi cells by half-plane clipping,
polygon measures, and a few vector helpers.

Everything is pure arithmetic on tuples of floats; no randomness, no
iteration over unordered collections, so equal inputs give equal outputs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

Point = tuple[float, float]

BOX = -1
"""The label of a cell edge that lies on the bounding box."""
RIM = -2
"""The label of a cell edge cut by the cell's outer rim (see ``voronoi_cells``)."""


@dataclass(frozen=True, slots=True)
class Cell:
    """A convex region: its corners counter-clockwise in screen order and,
    for each edge ``corners[k] -> corners[k + 1]``, the index of the site
    on the other side of that edge (``BOX`` or ``RIM`` for an outer edge)."""

    corners: tuple[Point, ...]
    neighbours: tuple[int, ...]


def clip(corners: Sequence[Point], labels: Sequence[int], a: float, b: float, c: float, label: int
         ) -> tuple[list[Point], list[int]]:
    """The part of a convex polygon where ``a*x + b*y <= c``, with edge
    labels kept; the edge along the cutting line gets ``label``.

    One step of Sutherland-Hodgman for a single half-plane: corners inside
    are kept, an edge that crosses the line is cut where it crosses.
    """
    count = len(corners)
    if count == 0:
        return [], []
    values = [a * x + b * y - c for x, y in corners]
    out: list[Point] = []
    out_labels: list[int] = []
    for k in range(count):
        here, there = corners[k], corners[(k + 1) % count]
        v_here, v_there = values[k], values[(k + 1) % count]
        if v_here <= 0:
            out.append(here)
            if v_there <= 0:
                out_labels.append(labels[k])
            else:
                t = v_here / (v_here - v_there)
                out_labels.append(labels[k])
                out.append((here[0] + t * (there[0] - here[0]), here[1] + t * (there[1] - here[1])))
                out_labels.append(label)
        elif v_there <= 0:
            t = v_here / (v_here - v_there)
            out.append((here[0] + t * (there[0] - here[0]), here[1] + t * (there[1] - here[1])))
            out_labels.append(labels[k])
    return _drop_slivers(out, out_labels)


def _drop_slivers(corners: list[Point], labels: list[int]) -> tuple[list[Point], list[int]]:
    """Remove corners that repeat the previous one (zero-length edges)."""
    kept: list[Point] = []
    kept_labels: list[int] = []
    for corner, label in zip(corners, labels):
        if kept and abs(corner[0] - kept[-1][0]) < 1e-9 and abs(corner[1] - kept[-1][1]) < 1e-9:
            kept_labels[-1] = label
            continue
        kept.append(corner)
        kept_labels.append(label)
    if len(kept) > 1 and abs(kept[0][0] - kept[-1][0]) < 1e-9 and abs(kept[0][1] - kept[-1][1]) < 1e-9:
        kept.pop()
        kept_labels.pop()
    return kept, kept_labels


def voronoi_cells(sites: Sequence[Point], box: tuple[float, float, float, float],
                  rims: Sequence[float] | None = None, rim_sides: int = 24) -> list[Cell]:
    """The Voronoi cell of every site inside ``box`` = (left, top, right, bottom).

    Each cell starts as the box and is cut by the perpendicular bisector
    with every other site, nearest first, until no farther site can cut
    it.  With ``rims`` each cell is also cut by a regular ``rim_sides``-gon
    of that radius around its site, so that sites at the edge of a map do
    not reach to the corners of the box.  Two sites at the same point
    raise ``ValueError``.
    """
    left, top, right, bottom = box
    square = [(left, top), (left, bottom), (right, bottom), (right, top)]
    cells: list[Cell] = []
    for i, (x, y) in enumerate(sites):
        corners, labels = list(square), [BOX, BOX, BOX, BOX]
        others = sorted(
            (((sx - x) ** 2 + (sy - y) ** 2, j) for j, (sx, sy) in enumerate(sites) if j != i)
        )
        for distance2, j in others:
            if distance2 == 0:
                raise ValueError(f"sites {i} and {j} are at the same point {sites[i]}")
            reach = max(((cx - x) ** 2 + (cy - y) ** 2 for cx, cy in corners), default=0.0)
            if distance2 > 4 * reach:
                break
            sx, sy = sites[j]
            a, b = sx - x, sy - y
            c = (sx * sx + sy * sy - x * x - y * y) / 2
            corners, labels = clip(corners, labels, a, b, c, j)
        if rims is not None:
            radius = rims[i]
            for k in range(rim_sides):
                angle = 2 * math.pi * (k + 0.5) / rim_sides
                a, b = math.cos(angle), math.sin(angle)
                corners, labels = clip(corners, labels, a, b, a * x + b * y + radius, RIM)
        cells.append(Cell(tuple(corners), tuple(labels)))
    return cells


def area(corners: Sequence[Point]) -> float:
    """The unsigned area of a simple polygon (shoelace formula)."""
    total = 0.0
    for k in range(len(corners)):
        x1, y1 = corners[k]
        x2, y2 = corners[(k + 1) % len(corners)]
        total += x1 * y2 - x2 * y1
    return abs(total) / 2


def contains(corners: Sequence[Point], point: Point) -> bool:
    """True when ``point`` lies inside the polygon (even-odd rule)."""
    x, y = point
    inside = False
    count = len(corners)
    for k in range(count):
        x1, y1 = corners[k]
        x2, y2 = corners[(k + 1) % count]
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def distance(p: Point, q: Point) -> float:
    """The Euclidean distance between two points."""
    return math.hypot(q[0] - p[0], q[1] - p[1])


def towards(p: Point, q: Point, t: float) -> Point:
    """The point a fraction ``t`` of the way from ``p`` to ``q``."""
    return (p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1]))


def shorten(p: Point, q: Point, start: float, end: float) -> tuple[Point, Point]:
    """The segment ``p -> q`` with ``start`` cut off at ``p`` and ``end``
    at ``q`` (in drawing units); a segment too short keeps its middle."""
    length = distance(p, q)
    if length <= start + end + 1e-9:
        middle = towards(p, q, 0.5)
        return middle, middle
    return towards(p, q, start / length), towards(p, q, 1 - end / length)


def arrow_head(tip: Point, tail: Point, length: float, width: float) -> tuple[Point, Point, Point]:
    """The triangle of an arrow head at ``tip``, pointing away from ``tail``."""
    size = distance(tail, tip)
    if size == 0:
        return tip, tip, tip
    ux, uy = (tip[0] - tail[0]) / size, (tip[1] - tail[1]) / size
    bx, by = tip[0] - ux * length, tip[1] - uy * length
    return tip, (bx - uy * width / 2, by + ux * width / 2), (bx + uy * width / 2, by - ux * width / 2)


def smooth(points: Sequence[Point], rounds: int = 2) -> list[Point]:
    """An open polyline rounded by Chaikin's corner cutting; the ends stay."""
    line = list(points)
    for _ in range(rounds):
        if len(line) < 3:
            return line
        rounded = [line[0]]
        for p, q in zip(line, line[1:]):
            rounded.append(towards(p, q, 0.25))
            rounded.append(towards(p, q, 0.75))
        rounded.append(line[-1])
        line = [rounded[0], *rounded[2:-2], rounded[-1]] if len(rounded) > 4 else rounded
    return line


def point_at(points: Sequence[Point], fraction: float) -> tuple[Point, Point]:
    """The point a ``fraction`` of the length along a polyline, and the
    direction there as a unit vector."""
    lengths = [distance(p, q) for p, q in zip(points, points[1:])]
    total = sum(lengths)
    if total == 0:
        return points[0], (1.0, 0.0)
    goal = fraction * total
    for (p, q), length in zip(zip(points, points[1:]), lengths):
        if goal <= length and length > 0:
            return towards(p, q, goal / length), ((q[0] - p[0]) / length, (q[1] - p[1]) / length)
        goal -= length
    p, q = points[-2], points[-1]
    length = distance(p, q) or 1.0
    return q, ((q[0] - p[0]) / length, (q[1] - p[1]) / length)


def regular_polygon(centre: Point, radius: float, sides: int, turn: float = 0.0) -> tuple[Point, ...]:
    """The corners of a regular polygon around ``centre`` (first corner at
    angle ``turn`` in radians, measured from the x axis)."""
    x, y = centre
    return tuple(
        (x + radius * math.cos(turn + 2 * math.pi * k / sides), y + radius * math.sin(turn + 2 * math.pi * k / sides))
        for k in range(sides)
    )
