"""Board geometry over one position: who stands where, and convoy routes.

``Board`` answers the questions the legality checks and the resolver
share: the unit in a province, the provinces next to a province by sea,
and which convoy routes could exist through fleet-occupied waters.
"""

from __future__ import annotations

from functools import cache
from typing import Callable, Iterable

from adjudicator.games.diplomacy.core.mapdata import GameMap, fleet_reach_table
from adjudicator.games.diplomacy.core.model import FLEET, Unit, province_of
from adjudicator.games.diplomacy.core.rules import Rules


@cache
def _sea_neighbours(game_map: GameMap) -> dict[str, frozenset[str]]:
    """Province -> provinces a fleet in it (on any coast) borders."""
    return {
        key: frozenset(province_of(t) for targets in p.fleet.values() for t in targets)
        for key, p in game_map.provinces.items()
    }


@cache
def _army_neighbours(game_map: GameMap) -> dict[str, frozenset[str]]:
    """Province -> provinces an army in it borders."""
    return {key: p.army for key, p in game_map.provinces.items()}


@cache
def _seas(game_map: GameMap) -> frozenset[str]:
    """The sea provinces (no army stands there)."""
    return frozenset(key for key, p in game_map.provinces.items() if p.terrain == "sea")


@cache
def _convoy_waters(game_map: GameMap, rules: Rules) -> frozenset[str]:
    """The provinces in which a fleet may convoy under ``rules``."""
    return frozenset(key for key, province in game_map.provinces.items() if rules.can_convoy_from(province))


@cache
def any_neighbours(game_map: GameMap) -> dict[str, frozenset[str]]:
    """Province -> provinces bordering it by land or by sea (civil-disorder
    distances, 30JK religious warfare)."""
    seas = _sea_neighbours(game_map)
    return {key: p.army | seas[key] for key, p in game_map.provinces.items()}


class Board:
    """Units of a position indexed by province, with route queries."""

    def __init__(self, game_map: GameMap, rules: Rules, units: Iterable[Unit]) -> None:
        self.game_map = game_map
        self.rules = rules
        self.unit_at: dict[str, Unit] = {u.province: u for u in units}
        self.sea_neighbours = _sea_neighbours(game_map)
        self.army_neighbours = _army_neighbours(game_map)
        self.fleet_reaches = fleet_reach_table(game_map)
        self.seas = _seas(game_map)
        self.any_neighbours = any_neighbours(game_map)
        waters = _convoy_waters(game_map, rules)
        self.convoy_fleets = frozenset(
            prov for prov, unit in self.unit_at.items() if unit.kind is FLEET and prov in waters
        )
        # Where each convoying fleet reaches from the coast it stands on: a
        # convoy goes only where that fleet could move (30JK section 6).
        self.fleet_reach: dict[str, frozenset[str]] = {
            prov: game_map.fleet_reach(self.unit_at[prov].location) for prov in self.convoy_fleets
        }
        # Route answers depend on the units only: each is worked out once.
        self._routes: dict[tuple[str, str, str | None], bool] = {}
        self._necessary: dict[tuple[str, str], frozenset[str]] = {}

    def is_coastal(self, province: str) -> bool:
        """True for a land province that touches water (an army there may be convoyed)."""
        return self.game_map.provinces[province].terrain == "coast"

    def convoy_route_possible(self, origin: str, destination: str, excluded: str | None = None) -> bool:
        """True when fleets standing in convoy-capable waters (all of them,
        orders ignored, ``excluded`` left out) could form a chain from
        ``origin`` to ``destination``."""
        key = (origin, destination, excluded)
        known = self._routes.get(key)
        if known is None:
            if not (self.is_coastal(origin) and self.is_coastal(destination)):
                known = False
            else:
                fleets = self.convoy_fleets - {excluded} if excluded else self.convoy_fleets
                known = route_exists(origin, destination, fleets.__contains__, self)
            self._routes[key] = known
        return known

    def necessary_fleets(self, origin: str, destination: str) -> frozenset[str]:
        """Fleet provinces that lie on some convoy route from ``origin`` to
        ``destination`` in which no fleet could be skipped (a chordless
        chain): the fleets whose convoy order can matter (DATC 6.G.19)."""
        known = self._necessary.get((origin, destination))
        if known is None:
            known = self._necessary[(origin, destination)] = self._necessary_fleets(origin, destination)
        return known

    def _necessary_fleets(self, origin: str, destination: str) -> frozenset[str]:
        if not (self.is_coastal(origin) and self.is_coastal(destination)):
            return frozenset()
        reach = self.fleet_reach
        found: set[str] = set()
        path: list[str] = []

        def extend(candidates: frozenset[str]) -> None:
            for fleet in candidates:
                if fleet not in self.convoy_fleets or fleet in path:
                    continue
                if path and fleet in self.sea_neighbours[origin]:
                    continue  # the army could board this fleet directly
                if any(fleet in reach[earlier] for earlier in path[:-1]):
                    continue  # an earlier fleet could pass the army straight on
                path.append(fleet)
                if destination in reach[fleet]:
                    found.update(path)
                else:
                    extend(reach[fleet])
                path.pop()

        extend(self.sea_neighbours[origin])
        return frozenset(found)

    def distance_to(self, start: str, targets: frozenset[str]) -> int | None:
        """Fewest steps over land and sea from ``start`` to any of ``targets``."""
        if start in targets:
            return 0
        seen = {start}
        frontier = [start]
        steps = 0
        while frontier:
            steps += 1
            following = []
            for province in frontier:
                for neighbour in self.any_neighbours[province]:
                    if neighbour in targets:
                        return steps
                    if neighbour not in seen:
                        seen.add(neighbour)
                        following.append(neighbour)
            frontier = following
        return None


def route_exists(origin: str, destination: str, usable: Callable[[str], bool], board: Board) -> bool:
    """True when a chain of usable convoying fleets (provinces for which
    ``usable`` is true, asked once each) joins ``origin`` to ``destination``:
    the army boards a fleet next to its province, each fleet passes it to
    one it reaches, and the last fleet reaches the destination."""
    seen: set[str] = set()
    frontier: list[str] = []

    def visit(neighbours: frozenset[str]) -> None:
        for fleet in neighbours:
            if fleet not in seen and fleet in board.fleet_reach:
                seen.add(fleet)
                if usable(fleet):
                    frontier.append(fleet)

    visit(board.sea_neighbours[origin])
    while frontier:
        fleet = frontier.pop()
        if destination in board.fleet_reach[fleet]:
            return True
        visit(board.fleet_reach[fleet])
    return False
