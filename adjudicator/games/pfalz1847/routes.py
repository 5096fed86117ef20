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
from typing import Sequence

from adjudicator.games.pfalz1847.board import Board, NodeId, PathId
from adjudicator.games.pfalz1847.data import GameData, Train


@dataclass(frozen=True)
class Route:
    """One train's run: its stops in order, the paths used and its value."""

    stops: tuple[NodeId, ...]
    paths: frozenset[PathId]
    revenue: int

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
    found: dict[tuple[tuple[NodeId, ...], frozenset[PathId]], Route] = {}

    def extend(stops: list[NodeId], used: frozenset[PathId]) -> None:
        last = stops[-1]
        if len(stops) > 1:
            if homes.intersection(stops):
                key = tuple(stops) if stops[0] <= stops[-1] else tuple(reversed(stops))
                if (key, used) not in found:
                    found[(key, used)] = Route(key, used, value(board, train, stops, colour_index))
            if not board.passable(last, company) and last not in homes:
                return
        for target, paths in board.segments(last):
            if target in stops or paths & used or target not in reached:
                continue
            stops.append(target)
            if fits(board, train, stops):
                extend(stops, used | paths)
            stops.pop()

    for start in sorted(reached):
        extend([start], frozenset())
    return sorted(found.values(), key=lambda r: (-r.revenue, r.stops))


def best(board: Board, company: str, trains: Sequence[Train], colour_index: int
         ) -> tuple[int, tuple[Route | None, ...]]:
    """The highest total revenue of ``trains`` together and one route per
    train that earns it (None: that train does not run); exact."""
    options = [all_routes(board, company, t, colour_index) for t in trains]
    order = sorted(range(len(trains)), key=lambda i: -(options[i][0].revenue if options[i] else 0))
    tops = [options[i][0].revenue if options[i] else 0 for i in order]
    rest = [sum(tops[k:]) for k in range(len(order) + 1)]
    best_total = -1
    best_pick: list[Route | None] = [None] * len(trains)
    chosen: list[Route | None] = [None] * len(trains)

    def search(k: int, total: int, used: frozenset[PathId]) -> None:
        nonlocal best_total, best_pick
        if total + rest[k] <= best_total:
            return
        if k == len(order):
            best_total, best_pick = total, list(chosen)
            return
        index = order[k]
        for route in options[index]:
            if total + route.revenue + rest[k + 1] <= best_total:
                break
            if route.paths & used:
                continue
            chosen[index] = route
            search(k + 1, total + route.revenue, used | route.paths)
            chosen[index] = None
        search(k + 1, total, used)

    search(0, 0, frozenset())
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
