"""Routes of 1847 AE: which runs a train may make, what they pay, and the
best assignment of routes to a company's trains.

A route is a sequence of stops joined by stretches of track; no path is
used twice (within a route or between the trains of one company), a stop
is visited once, only the ends may be off-boards, a city full of other
companies' stations cannot be run through, and the route must touch a
city with the company's station.  What a train counts:

* ``plain`` n: at most n stops;
* ``plus`` n+n: at most n cities and off-boards, and at most 2n stops;
* ``express`` (6E): at most n cities and off-boards, any number of towns,
  which pay nothing.

Revenue: the stops' values (off-boards by the phase colour), +40 for a
route with an A and a B off-board, +70 for a route with a coal hex and a Z
off-board (not for the express).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Sequence

from adjudicator.games.pfalz1847.board import Board, NodeId, PathId
from adjudicator.games.pfalz1847.data import GameData, Train


@cache
def _hex_numbers(data: GameData) -> dict[str, int]:
    return {at: number for number, at in enumerate(sorted(data.hexes))}


def path_mask(data: GameData, paths: frozenset[PathId] | set[PathId]) -> int:
    """The paths as the bits of one number (for fast overlap tests)."""
    numbers = _hex_numbers(data)
    mask = 0
    for at, number in paths:
        mask |= 1 << (numbers[at] * 8 + number)
    return mask


@dataclass(frozen=True)
class Route:
    """One train's run: its stops in order, the paths used (``mask``: their
    bits, see ``path_mask``) and its value."""

    stops: tuple[NodeId, ...]
    mask: int
    revenue: int
    data: GameData

    @property
    def paths(self) -> frozenset[PathId]:
        """The paths used, as (hex, path number) pairs."""
        names = sorted(self.data.hexes)
        found = set()
        mask, bit = self.mask, 0
        while mask:
            if mask & 1:
                found.add((names[bit // 8], bit % 8))
            mask >>= 1
            bit += 1
        return frozenset(found)

    def text(self) -> str:
        """The route as hex coordinates (``F18-G17-G15``)."""
        return "-".join(at for at, _ in self.stops)


def fits(board: Board, train: Train, stops: Sequence[NodeId]) -> bool:
    """True when ``train`` may count all of ``stops``."""
    kinds = [board.node(s).kind for s in stops]
    big = sum(1 for k in kinds if k != "town")
    if train.kind == "plain":
        return len(kinds) <= train.length
    if train.kind == "plus":
        return big <= train.length and len(kinds) <= 2 * train.length
    return big <= train.length


def value(board: Board, train: Train, stops: Sequence[NodeId], colour_index: int) -> int:
    """What ``train`` earns on a route with ``stops`` (with the bonuses)."""
    data = board.data
    total = 0
    for stop in stops:
        if train.kind == "express" and board.node(stop).kind == "town":
            continue
        total += board.revenue(stop, colour_index)
    hexes = {at for at, _ in stops}
    if hexes & data.a_hexes and hexes & data.b_hexes:
        total += data.bonus_ab
    if train.kind != "express" and hexes & data.coal_hexes and hexes & data.z_hexes:
        total += data.bonus_coal
    return total


def all_routes(board: Board, company: str, train: Train, colour_index: int) -> list[Route]:
    """Every legal route of ``train`` for ``company`` (each once, in one
    direction), best first."""
    homes = set(board.token_nodes(company))
    if not homes:
        return []
    reached, _ = board.reach(company)
    data = board.data
    graph = {node: [(target, path_mask(data, paths)) for target, paths in board.segments(node) if target in reached]
             for node in reached}
    big = {node: board.node(node).kind != "town" for node in reached}
    pays = {node: 0 if train.kind == "express" and not big[node] else board.revenue(node, colour_index)
            for node in reached}
    through = {node: node in homes or board.passable(node, company) for node in reached}
    flags = {node: (node[0] in data.a_hexes, node[0] in data.b_hexes, node[0] in data.coal_hexes,
                    node[0] in data.z_hexes) for node in reached}
    coal_pays = train.kind != "express"
    limit_big = train.length
    limit_all = train.length if train.kind == "plain" else 2 * train.length if train.kind == "plus" else 10 ** 6
    found: list[Route] = []      # each (stops, track) once: a DFS reaches it once from its smaller end
    stops: list[NodeId] = []

    def extend(used: int, cities: int, revenue: int, home: int, a: int, b: int, coal: int,
               z: int) -> None:
        last = stops[-1]
        if len(stops) > 1:
            if home and stops[0] < last:
                total = revenue + (data.bonus_ab if a and b else 0) + (data.bonus_coal if coal_pays and coal and z else 0)
                found.append(Route(tuple(stops), used, total, data))
            if not through[last]:
                return
        if len(stops) >= limit_all:
            return
        for target, paths in graph[last]:
            if target in stops or paths & used:
                continue
            now_big = cities + big[target]
            if now_big > limit_big:
                continue
            fa, fb, fc, fz = flags[target]
            stops.append(target)
            extend(used | paths, now_big, revenue + pays[target], home + (target in homes), a | fa, b | fb,
                   coal | fc, z | fz)
            stops.pop()

    for start_node in sorted(reached):
        stops.append(start_node)
        fa, fb, fc, fz = flags[start_node]
        extend(0, int(big[start_node]), pays[start_node], int(start_node in homes), fa, fb, fc, fz)
        stops.pop()
    return sorted(found, key=lambda r: (-r.revenue, r.stops))


def best(board: Board, company: str, trains: Sequence[Train], colour_index: int
         ) -> tuple[int, tuple[Route | None, ...]]:
    """The highest total revenue of ``trains`` together and one route per
    train that earns it (None: that train does not run); exact."""
    cache: dict[str, list[Route]] = {}
    for t in trains:
        if t.name not in cache:
            cache[t.name] = all_routes(board, company, t, colour_index)
    options = [cache[t.name] for t in trains]
    order = sorted(range(len(trains)), key=lambda i: (-(options[i][0].revenue if options[i] else 0), trains[i].name))
    tops = [options[i][0].revenue if options[i] else 0 for i in order]
    rest = [sum(tops[k:]) for k in range(len(order) + 1)]
    best_total = -1
    best_pick: list[Route | None] = [None] * len(trains)
    chosen: list[Route | None] = [None] * len(trains)

    def search(k: int, total: int, used: int, floor: int) -> None:
        # ``floor``: two trains of one type take routes in list order (the
        # swapped assignment is the same); -1: the previous one does not run.
        nonlocal best_total, best_pick
        if total + rest[k] <= best_total:
            return
        if k == len(order):
            best_total, best_pick = total, list(chosen)
            return
        index = order[k]
        same = k + 1 < len(order) and trains[order[k + 1]].name == trains[index].name
        if floor >= 0:
            for position in range(floor, len(options[index])):
                route = options[index][position]
                if total + route.revenue + rest[k + 1] <= best_total:
                    break
                if route.mask & used:
                    continue
                chosen[index] = route
                search(k + 1, total + route.revenue, used | route.mask, position + 1 if same else 0)
                chosen[index] = None
        search(k + 1, total, used, -1 if same else 0)

    search(0, 0, 0, 0)
    return max(best_total, 0), tuple(best_pick)


def matching(board: Board, company: str, train: Train, hexes: Sequence[str], colour_index: int) -> list[Route]:
    """The legal routes of ``train`` whose stops lie on ``hexes`` in this
    order (or reversed); a hex with two stops matches either."""
    wanted = tuple(hexes)
    return [r for r in all_routes(board, company, train, colour_index)
            if tuple(at for at, _ in r.stops) in (wanted, tuple(reversed(wanted)))]


def why_not(board: Board, company: str, train: Train, hexes: Sequence[str]) -> tuple[str, dict[str, object]]:
    """Why no route of ``train`` runs through the stops ``hexes``: a
    catalogue key and its fields."""
    data = board.data
    for at in hexes:
        if at not in data.hexes:
            return "p47_why_hex", {"hex": at}
        if not board.shape(at).nodes or not board.shape(at).paths:
            return "p47_why_no_stop", {"hex": at}
    if len(hexes) < 2:
        return "p47_why_short", {}
    if len(set(hexes)) != len(hexes):
        return "p47_why_twice", {}
    homes = {at for at, _ in board.token_nodes(company)}
    if not homes.intersection(hexes):
        return "p47_why_station", {"company": company, "homes": ", ".join(sorted(homes)) or "-"}
    if not fits(board, train, [(at, 0) for at in hexes]):
        return "p47_why_long", {"train": train.name, "count": len(hexes)}
    for first, second in zip(hexes, hexes[1:]):
        linked = any(target[0] == second for i in range(len(board.shape(first).nodes))
                     for target, _ in board.segments((first, i)))
        if not linked:
            return "p47_why_gap", {"first": first, "second": second}
    return "p47_why_order", {}
