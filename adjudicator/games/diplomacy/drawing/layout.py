"""Where everything of a map lies on a picture, computed from the map data.

``map_layout(game_map)`` projects every province's ``seat`` (latitude,
longitude) onto the plane, gives each province its region (the Voronoi
cell of its seat, cut to the map's frame and to a rim around the seat
sized by its neighbours' distance), finds the borders between regions
(coastlines between sea and land), a point for every fleet location (split
coasts lie towards their seas), and the line of every river from the banks
listed in the map.  Provinces without a seat are placed from their
neighbours; a map with no seats at all gets a deterministic spring layout
of its adjacency graph.  The layout depends on nothing but the map and is
computed once per map.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache
from statistics import median
from types import MappingProxyType
from typing import Mapping

from adjudicator.games.diplomacy.core.mapdata import GameMap
from adjudicator.games.diplomacy.core.model import Location, coast_of, province_of
from adjudicator.games.pictures.geometry import (
    BOX,
    Cell,
    Point,
    contains,
    distance,
    smooth,
    towards,
    voronoi_cells,
)

MAX_MAP_HEIGHT = 1100
"""A tall map is scaled down to this height."""

LONGEST = 1.8
"""No two neighbours' seats lie further apart than this many times the
median distance between neighbours' seats (``_tighten``)."""
CLOSEST = 0.6
"""Nor closer than this many times it, so units and labels keep room."""
TIGHTEN_ROUNDS = 120
HOMING = 0.01


def map_width(provinces: int) -> int:
    """The width in pixels of the map part of a picture: about 110 pixels
    per square root of the number of provinces, between 900 and 1300
    (the standard map 953, 30JK 1235)."""
    return min(1300, max(900, round(110 * math.sqrt(provinces))))


@dataclass(frozen=True, slots=True)
class Region:
    """One province on the picture: its outline, its seat (where its unit
    stands) and the points of its fleet locations (the seat, or one point
    per split coast)."""

    key: str
    outline: tuple[Point, ...]
    seat: Point
    sea: bool
    coasts: Mapping[Location, Point]


@dataclass(frozen=True, slots=True)
class Border:
    """A stretch of border; ``kind`` is ``coast`` (sea against land or the
    map's edge of a land region), ``land``, ``sea`` or ``edge`` (a sea
    region's outer edge)."""

    start: Point
    end: Point
    kind: str


@dataclass(frozen=True, slots=True)
class RiverLine:
    """A river drawn as a line from its source downstream to where it ends."""

    name: str
    points: tuple[Point, ...]


@dataclass(frozen=True)
class MapLayout:
    """The geometry of one map's picture (see the module docstring)."""

    width: int
    height: int
    regions: Mapping[str, Region]
    borders: tuple[Border, ...]
    rivers: tuple[RiverLine, ...]
    spacing: float

    def point(self, location: Location) -> Point:
        """Where a unit on ``location`` is drawn: a split coast's own point,
        else the province's seat."""
        region = self.regions[province_of(location)]
        return region.coasts.get(location, region.seat)


def _neighbours(game_map: GameMap) -> dict[str, list[str]]:
    """Every province's neighbours by army or fleet, sorted."""
    found: dict[str, set[str]] = {key: set() for key in game_map.provinces}
    for key, province in game_map.provinces.items():
        found[key].update(province.army)
        for targets in province.fleet.values():
            found[key].update(province_of(t) for t in targets)
    for key in list(found):
        for other in found[key]:
            found[other].add(key)
        found[key].discard(key)
    return {key: sorted(others) for key, others in found.items()}


def _spring_layout(keys: list[str], neighbours: dict[str, list[str]]) -> dict[str, Point]:
    """A deterministic force-directed layout (in degree-like units) for a
    map without seats: start on a circle in key order, then a fixed number
    of rounds of attraction along borders and repulsion between all."""
    count = len(keys)
    position = {k: (10 * math.cos(2 * math.pi * i / count), 10 * math.sin(2 * math.pi * i / count))
                for i, k in enumerate(keys)}
    ideal = 20 / math.sqrt(count)
    for step in range(150):
        heat = 2.0 * (1 - step / 150) + 0.05
        moves: dict[str, Point] = {}
        for k in keys:
            x, y = position[k]
            fx = fy = 0.0
            for other in keys:
                if other == k:
                    continue
                ox, oy = position[other]
                dx, dy = x - ox, y - oy
                d2 = dx * dx + dy * dy or 1e-6
                fx += dx * ideal * ideal / d2
                fy += dy * ideal * ideal / d2
            for other in neighbours[k]:
                ox, oy = position[other]
                dx, dy = x - ox, y - oy
                d = math.hypot(dx, dy) or 1e-6
                fx -= dx * d / ideal
                fy -= dy * d / ideal
            size = math.hypot(fx, fy) or 1.0
            moves[k] = (x + fx / size * min(size, heat), y + fy / size * min(size, heat))
        position = moves
    return {k: (y, x) for k, (x, y) in position.items()}


def seats(game_map: GameMap) -> dict[str, Point]:
    """Every province's (latitude, longitude): its ``seat`` where the map
    gives one; a province without one sits at the mean of its seated
    neighbours (repeated until all are placed), and a map with no seats
    at all is laid out by ``_spring_layout``.  No two provinces share a
    point (a later one is nudged)."""
    neighbours = _neighbours(game_map)
    keys = list(game_map.provinces)
    placed = {k: p.seat for k, p in game_map.provinces.items() if p.seat is not None}
    if not placed:
        placed = _spring_layout(keys, neighbours)
    missing = [k for k in keys if k not in placed]
    if missing:
        centre = (sum(p[0] for p in placed.values()) / len(placed), sum(p[1] for p in placed.values()) / len(placed))
        guess = {k: centre for k in missing}
        for _ in range(100):
            for k in missing:
                around = [placed.get(n) or guess[n] for n in neighbours[k]]
                if around:
                    guess[k] = (sum(p[0] for p in around) / len(around), sum(p[1] for p in around) / len(around))
        placed.update(guess)
    result: dict[str, Point] = {}
    taken: set[Point] = set()
    for index, k in enumerate(keys):
        lat, lon = placed[k]
        while (round(lat, 6), round(lon, 6)) in taken:
            lat, lon = lat + 0.01 * math.cos(index), lon + 0.01 * math.sin(index)
        taken.add((round(lat, 6), round(lon, 6)))
        result[k] = (lat, lon)
    return result


def _project(places: dict[str, Point]) -> tuple[dict[str, Point], int, int, float]:
    """Plane points (x to the east, y to the south, in pixels) of
    (latitude, longitude) pairs: an equirectangular projection true at the
    middle latitude, scaled into ``map_width`` x ``MAX_MAP_HEIGHT`` with a
    margin of about one province; also the picture's size and the median
    distance between neighbouring seats in pixels."""
    lats = [p[0] for p in places.values()]
    middle = math.radians((min(lats) + max(lats)) / 2)
    plane = {k: (lon * math.cos(middle), -lat) for k, (lat, lon) in places.items()}
    points = list(plane.values())
    nearest = [min(distance(p, q) for q in points if q is not p) for p in points] if len(points) > 1 else [1.0]
    margin = max(median(nearest), 1e-6)
    left = min(p[0] for p in points) - margin
    right = max(p[0] for p in points) + margin
    top = min(p[1] for p in points) - margin
    bottom = max(p[1] for p in points) + margin
    scale = min(map_width(len(points)) / (right - left), MAX_MAP_HEIGHT / (bottom - top))
    width = round((right - left) * scale)
    height = round((bottom - top) * scale)
    projected = {k: ((x - left) * scale, (y - top) * scale) for k, (x, y) in plane.items()}
    return projected, width, height, median(nearest) * scale


def _coast_point(seat: Point, cell: Cell, toward: Point) -> Point:
    """A point of the region on the way from its seat to ``toward``:
    about half way, but well inside the region."""
    step = towards(seat, toward, 0.45)
    for _ in range(12):
        if contains(cell.corners, step) and contains(cell.corners, towards(seat, step, 1.3)):
            return step
        step = towards(seat, step, 0.75)
    return step


_COMPASS = {"NC": (0.0, -1.0), "SC": (0.0, 1.0), "EC": (1.0, 0.0), "WC": (-1.0, 0.0)}


def _coasts(game_map: GameMap, key: str, seat: Point, cell: Cell, points: Mapping[str, Point],
            spacing: float) -> dict[Location, Point]:
    """The point of each split coast of a province: towards the seas and
    coasts it borders (or its compass direction when it borders none)."""
    found: dict[Location, Point] = {}
    for location, targets in game_map.provinces[key].fleet.items():
        code = coast_of(location)
        if code is None:
            continue
        around = [points[province_of(t)] for t in sorted(targets)]
        if around:
            toward = (sum(p[0] for p in around) / len(around), sum(p[1] for p in around) / len(around))
        else:
            dx, dy = _COMPASS.get(code, (0.0, 1.0))
            toward = (seat[0] + dx * spacing, seat[1] + dy * spacing)
        found[location] = _coast_point(seat, cell, toward)
    return found


def _shared_edge(cells: list[Cell], i: int, j: int) -> tuple[Point, Point] | None:
    cell = cells[i]
    for k, label in enumerate(cell.neighbours):
        if label == j:
            return cell.corners[k], cell.corners[(k + 1) % len(cell.corners)]
    return None


def _rivers(game_map: GameMap, index: dict[str, int], cells: list[Cell], points: dict[str, Point]
            ) -> tuple[RiverLine, ...]:
    """River lines: a point between each province and the nearest one on
    the other bank (the middle of their common border, else of their
    seats), a province the river flows through at its seat; then the mouth,
    or the nearest point of the river it joins; rounded by corner cutting."""
    lines: dict[str, tuple[Point, ...]] = {}
    pending = list(game_map.rivers)
    for _ in range(len(pending) + 1):
        later = []
        for river in pending:
            if river.joins is not None and river.joins not in lines:
                later.append(river)
                continue
            course = river.course
            line: list[Point] = []
            for n, (key, bank) in enumerate(course):
                if bank == "both":
                    line.append(points[key])
                    continue
                order = [m for m in range(n + 1, len(course))] + [m for m in range(n - 1, -1, -1)]
                partner = next((m for m in order if course[m][1] != bank), None)
                if partner is None:
                    line.append(points[key])
                    continue
                other = course[partner][0]
                edge = _shared_edge(cells, index[key], index[other])
                line.append(towards(*edge, 0.5) if edge else towards(points[key], points[other], 0.5))
            if river.mouth is not None:
                line.append(points[river.mouth])
            elif river.joins is not None and line:
                parent = lines[river.joins]
                end = line[-1]
                line.append(min(parent, key=lambda p: distance(p, end)))
            deduplicated = [p for n, p in enumerate(line) if n == 0 or distance(p, line[n - 1]) > 1e-6]
            lines[river.name] = tuple(smooth(deduplicated))
        if not later:
            break
        pending = later
    return tuple(RiverLine(river.name, lines[river.name]) for river in game_map.rivers if river.name in lines)


def _borders(game_map: GameMap, keys: list[str], cells: list[Cell]) -> tuple[Border, ...]:
    """Every border once: shared edges from the lower-numbered side, outer
    edges of every region."""
    found: list[Border] = []
    for i, cell in enumerate(cells):
        sea = game_map.provinces[keys[i]].terrain == "sea"
        count = len(cell.corners)
        for k, j in enumerate(cell.neighbours):
            start, end = cell.corners[k], cell.corners[(k + 1) % count]
            if j < 0:
                kind = "edge" if sea or j == BOX else "coast"
            elif j < i:
                continue
            else:
                other_sea = game_map.provinces[keys[j]].terrain == "sea"
                kind = "sea" if sea and other_sea else "coast" if sea != other_sea else "land"
            found.append(Border(start, end, kind))
    return tuple(found)


@cache
def map_layout(game_map: GameMap) -> MapLayout:
    """The layout of ``game_map`` (computed once per map; see the module
    docstring).  Every province gets exactly one region."""
    keys = list(game_map.provinces)
    points, width, height, spacing = _project(seats(game_map))
    neighbours = _neighbours(game_map)
    points = _tighten(points, neighbours, width, height)
    sites = [points[k] for k in keys]
    rims = []
    for k in keys:
        reach = max((distance(points[k], points[n]) for n in neighbours[k]), default=spacing)
        rims.append(min(max(0.75 * reach, 0.9 * spacing), 2.2 * spacing))
    cells = voronoi_cells(sites, (0.0, 0.0, float(width), float(height)), rims)
    index = {k: i for i, k in enumerate(keys)}
    regions = {
        k: Region(
            k, cells[i].corners, points[k], game_map.provinces[k].terrain == "sea",
            MappingProxyType(_coasts(game_map, k, points[k], cells[i], points, spacing)),
        )
        for i, k in enumerate(keys)
    }
    return MapLayout(
        width, height, MappingProxyType(regions), _borders(game_map, keys, cells),
        _rivers(game_map, index, cells, points), spacing,
    )


def _tighten(points: dict[str, Point], neighbours: dict[str, list[str]], width: int, height: int
             ) -> dict[str, Point]:
    """The seats moved so that arrows between neighbours stay short: in a
    fixed number of rounds, neighbours further apart than ``LONGEST`` times
    the median neighbour distance are drawn together, provinces closer
    than ``CLOSEST`` times it pushed apart, every seat pulled a little back
    to where the map put it, and kept inside the picture."""
    keys = list(points)
    pairs = sorted({(a, b) if a < b else (b, a) for a in keys for b in neighbours[a]})
    typical = median(distance(points[a], points[b]) for a, b in pairs) if pairs else 1.0
    longest, closest = LONGEST * typical, CLOSEST * typical
    margin = 0.35 * typical
    home = dict(points)
    moved = dict(points)
    for _ in range(TIGHTEN_ROUNDS):
        shift = {k: [0.0, 0.0] for k in keys}
        for a, b in pairs:
            (ax, ay), (bx, by) = moved[a], moved[b]
            d = math.hypot(bx - ax, by - ay) or 1e-6
            if d > longest:
                pull = 0.5 * (d - longest) / d
                shift[a][0] += (bx - ax) * pull
                shift[a][1] += (by - ay) * pull
                shift[b][0] -= (bx - ax) * pull
                shift[b][1] -= (by - ay) * pull
        for i, a in enumerate(keys):
            ax, ay = moved[a]
            for b in keys[i + 1:]:
                bx, by = moved[b]
                dx, dy = bx - ax, by - ay
                if abs(dx) >= closest or abs(dy) >= closest:
                    continue
                d = math.hypot(dx, dy) or 1e-6
                if d < closest:
                    push = 0.5 * (closest - d) / d
                    shift[a][0] -= dx * push
                    shift[a][1] -= dy * push
                    shift[b][0] += dx * push
                    shift[b][1] += dy * push
        for k in keys:
            x, y = moved[k]
            hx, hy = home[k]
            x += 0.5 * shift[k][0] + HOMING * (hx - x)
            y += 0.5 * shift[k][1] + HOMING * (hy - y)
            moved[k] = (min(max(x, margin), width - margin), min(max(y, margin), height - margin))
    return moved
