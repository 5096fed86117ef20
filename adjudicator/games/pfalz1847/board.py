"""The board of 1847 AE: hex neighbours, the track now on each hex, and
which track and stops a company reaches from its stations.

A board is the printed map plus the laid tiles (``{hex: [tile, rotation]}``)
and the station markers (``{hex: [company, ...]}``, on the hex's city).
Sides are numbered 0 lower left, 1 left, 2 upper left, 3 upper right,
4 right, 5 lower right; a tile turned by ``r`` has side ``s`` at ``s + r``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Iterator, Mapping, Sequence

from adjudicator.games.pfalz1847.data import GameData, Hex, Node, Shape

_STEP = {0: (1, -1), 1: (0, -2), 2: (-1, -1), 3: (-1, 1), 4: (0, 2), 5: (1, 1)}
_COORD = re.compile(r"^([A-Z])(\d{1,2})$")

PathId = tuple[str, int]
NodeId = tuple[str, int]


def split(at: str) -> tuple[int, int]:
    """Row and column of a coordinate such as ``G17`` (row A = 0)."""
    match = _COORD.match(at)
    if not match:
        raise ValueError(f"not a hex coordinate: {at!r}")
    return ord(match.group(1)) - ord("A"), int(match.group(2))


def neighbour_at(row: int, col: int, side: int) -> str:
    """The coordinate beyond ``side`` of the hex at row/col (may be off the map)."""
    dr, dc = _STEP[side]
    r, c = row + dr, col + dc
    return f"{chr(ord('A') + r)}{c}" if 0 <= r < 26 and c > 0 else ""


def neighbour(data: GameData, at: str, side: int) -> str | None:
    """The hex beyond ``side`` of ``at`` when it is on the map and no
    impassable border lies between; None otherwise."""
    other = neighbour_at(*split(at), side)
    if other not in data.hexes:
        return None
    if side in data.hexes[at].borders or (side + 3) % 6 in data.hexes[other].borders:
        return None
    return other


def rotate(shape: Shape, rotation: int) -> Shape:
    """``shape`` turned by ``rotation`` sixth turns clockwise."""
    def turn(end: str) -> str:
        return end if end.startswith("_") else str((int(end) + rotation) % 6)
    return Shape(shape.colour, shape.nodes, tuple((turn(a), turn(b)) for a, b in shape.paths), shape.label,
                 shape.upgrades_to)


@dataclass(frozen=True)
class Board:
    """The position of the track: printed map, laid tiles and stations."""

    data: GameData
    tiles: Mapping[str, tuple[str, int]]
    stations: Mapping[str, tuple[str, ...]]

    def shape(self, at: str) -> Shape:
        """The track on ``at`` now (laid tile turned, or the printed hex)."""
        laid = self.tiles.get(at)
        if laid is None:
            return self.data.hexes[at].shape
        return _rotated(self.data, laid[0], laid[1])

    def hex(self, at: str) -> Hex:
        """The printed hex ``at``."""
        return self.data.hexes[at]

    def node(self, node: NodeId) -> Node:
        """A stop of the board."""
        return self.shape(node[0]).nodes[node[1]]

    def city_node(self, at: str) -> int | None:
        """The index of the city on ``at`` (None without a city)."""
        for index, node in enumerate(self.shape(at).nodes):
            if node.kind == "city":
                return index
        return None

    def passable(self, node: NodeId, company: str) -> bool:
        """True when a train of ``company`` may run through ``node``: a town,
        or a city with its station or a free place; never an off-board."""
        stop = self.node(node)
        if stop.kind == "offboard":
            return False
        if stop.kind == "town":
            return True
        tokens = self.stations.get(node[0], ())
        return company in tokens or len(tokens) < stop.slots

    def revenue(self, node: NodeId, colour_index: int) -> int:
        """What ``node`` pays now (off-boards by the phase colour 0/1/2)."""
        stop = self.node(node)
        if stop.kind == "offboard":
            return self.hex(node[0]).offboard[colour_index]
        return stop.revenue

    def segments(self, start: NodeId) -> Iterator[tuple[NodeId, frozenset[PathId]]]:
        """Every stretch of track from the stop ``start`` to the next stop:
        the stop reached and the paths used (no path twice)."""
        at, index = start
        shape = self.shape(at)
        me = f"_{index}"
        for number, (a, b) in enumerate(shape.paths):
            if me not in (a, b):
                continue
            other = b if a == me else a
            used = frozenset({(at, number)})
            if other.startswith("_"):
                yield (at, int(other[1:])), used
            else:
                yield from self._walk(at, int(other), used)

    def _walk(self, at: str, side: int, used: frozenset[PathId]) -> Iterator[tuple[NodeId, frozenset[PathId]]]:
        nxt = neighbour(self.data, at, side)
        if nxt is None:
            return
        entry = str((side + 3) % 6)
        for number, (a, b) in enumerate(self.shape(nxt).paths):
            if entry not in (a, b) or (nxt, number) in used:
                continue
            other = b if a == entry else a
            now = used | {(nxt, number)}
            if other.startswith("_"):
                yield (nxt, int(other[1:])), now
            else:
                yield from self._walk(nxt, int(other), now)

    def token_nodes(self, company: str) -> list[NodeId]:
        """The cities holding a station of ``company``."""
        found = []
        for at, tokens in sorted(self.stations.items()):
            index = self.city_node(at)
            if company in tokens and index is not None:
                found.append((at, index))
        return found

    def reach(self, company: str) -> tuple[set[NodeId], set[tuple[str, int]]]:
        """The stops ``company`` reaches from its stations (running through
        passable stops only) and the hex sides its reached track points
        into (``(hex, side)`` of the hex beyond)."""
        nodes: set[NodeId] = set()
        sides: set[tuple[str, int]] = set()
        homes = self.token_nodes(company)
        frontier = list(homes)
        nodes.update(frontier)
        seen_paths: set[PathId] = set()
        while frontier:
            node = frontier.pop()
            if node not in homes and not self.passable(node, company):
                continue
            at, index = node
            me = f"_{index}"
            for number, (a, b) in enumerate(self.shape(at).paths):
                if me not in (a, b):
                    continue
                other = b if a == me else a
                self._spread(at, number, other, nodes, sides, seen_paths, frontier)
        return nodes, sides

    def _spread(self, at: str, number: int, end: str, nodes: set[NodeId], sides: set[tuple[str, int]],
                seen: set[PathId], frontier: list[NodeId]) -> None:
        stack = [(at, number, end)]
        while stack:
            hex_at, path, far = stack.pop()
            if (hex_at, path) in seen:
                continue
            seen.add((hex_at, path))
            if far.startswith("_"):
                node = (hex_at, int(far[1:]))
                if node not in nodes:
                    nodes.add(node)
                    frontier.append(node)
                continue
            side = int(far)
            sides.add((hex_at, side))
            nxt_raw = neighbour_at(*split(hex_at), side)
            nxt = neighbour(self.data, hex_at, side)
            if nxt_raw in self.data.hexes and nxt is not None:
                entry = str((side + 3) % 6)
                sides.add((nxt, -1 - (side + 3) % 6))   # pointing into nxt at entry side
                for other_number, (a, b) in enumerate(self.shape(nxt).paths):
                    if entry in (a, b):
                        stack.append((nxt, other_number, b if a == entry else a))


def points_into(sides: set[tuple[str, int]], at: str, side: int) -> bool:
    """True when reached track points into ``at`` at ``side``."""
    return (at, -1 - side) in sides


@cache
def _rotated(data: GameData, tile: str, rotation: int) -> Shape:
    return rotate(data.shapes[tile], rotation)


def board_of(data: GameData, tiles: Mapping[str, Sequence[object]], stations: Mapping[str, Sequence[str]]) -> Board:
    """A ``Board`` from the JSON of a state."""
    return Board(data, {k: (str(v[0]), int(str(v[1]))) for k, v in tiles.items()},
                 {k: tuple(v) for k, v in stations.items()})
