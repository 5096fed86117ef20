"""Board geometry over one position: who stands where, and convoy routes.

``Board`` answers the questions the legality checks and the resolver
share: the unit in a province, the provinces next to a province by sea,
and which convoy routes could exist through fleet-occupied waters.
"""

from __future__ import annotations

from functools import cache
from typing import Callable, Iterable

from adjudicator.games.diplomacy.core.mapdata import GameMap, fleet_moves_into_table, fleet_reach_table
from adjudicator.games.diplomacy.core.model import FLEET, PROVINCE, Location, Unit, province_of
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


_Tables = tuple[
    dict[str, frozenset[str]], dict[str, frozenset[str]], dict[Location, frozenset[str]],
    dict[Location, frozenset[Location]], dict[str, tuple[Location, ...]], dict[Location, dict[str, tuple[Location, ...]]],
    frozenset[str], frozenset[str], dict[str, frozenset[str]], frozenset[str], dict[Location, str],
]


@cache
def _tables(game_map: GameMap, rules: Rules) -> _Tables:
    """The per-map tables every board of ``game_map`` under ``rules``
    shares, in the order of ``Board._TABLES``."""
    return (
        _sea_neighbours(game_map),
        _army_neighbours(game_map),
        fleet_reach_table(game_map),
        {location: targets for province in game_map.provinces.values() for location, targets in province.fleet.items()},
        {key: tuple(province.fleet) for key, province in game_map.provinces.items()},
        fleet_moves_into_table(game_map),
        _seas(game_map),
        frozenset(key for key, p in game_map.provinces.items() if p.terrain == "coast"),
        any_neighbours(game_map),
        _convoy_waters(game_map, rules),
        {
            **{key: key for key in game_map.provinces},
            **{location: key for key, province in game_map.provinces.items() for location in province.fleet},
        },
    )


class Board:
    """Units of a position indexed by province, with route queries.

    Besides ``unit_at`` a board holds its map's tables (shared by every
    board of the map): ``sea_neighbours`` and ``army_neighbours`` (province
    -> provinces a fleet on any coast, an army borders), ``fleet_reaches``
    (fleet location -> provinces it can move to), ``fleet_targets`` (fleet
    location -> locations it can move to), ``fleet_locations`` (province ->
    the locations a fleet can occupy there), ``fleet_moves_into`` (fleet
    location -> province -> the locations of it the fleet can move to),
    ``seas``, ``coasts`` (the coastal land provinces), ``any_neighbours``
    ``convoy_waters`` (where a fleet may convoy under the rules) and
    ``province_at`` (each location of the map -> its province: a plain
    dictionary's lookup costs a fraction of a call of ``province_of``; a
    location the map does not have is not in it).  Slots
    rather than a dictionary: the rules read these attributes constantly.
    """

    __slots__ = (
        "game_map", "rules", "unit_at", "sea_neighbours", "army_neighbours", "fleet_reaches", "fleet_targets",
        "fleet_locations", "fleet_moves_into", "seas", "coasts", "any_neighbours", "convoy_waters",
        "province_at", "_routes", "_necessary", "_convoy_fleets", "_fleet_reach",
    )

    def __init__(self, game_map: GameMap, rules: Rules, units: Iterable[Unit]) -> None:
        self.game_map = game_map
        self.rules = rules
        units = units if isinstance(units, tuple) else tuple(units)
        self.unit_at: dict[str, Unit] = {unit.province: unit for unit in units}
        (
            self.sea_neighbours, self.army_neighbours, self.fleet_reaches, self.fleet_targets, self.fleet_locations,
            self.fleet_moves_into, self.seas, self.coasts, self.any_neighbours, self.convoy_waters, self.province_at,
        ) = _tables(game_map, rules)
        # Route answers depend on the units only: each is worked out once.
        self._routes: dict[tuple[str, str, str | None], bool] = {}
        self._necessary: dict[tuple[str, str], frozenset[str]] = {}
        self._convoy_fleets: frozenset[str] | None = None
        self._fleet_reach: dict[str, frozenset[str]] | None = None

    @property
    def convoy_fleets(self) -> frozenset[str]:
        """The provinces of the fleets standing in convoy-capable waters
        (worked out when a convoy question is first asked)."""
        fleets = self._convoy_fleets
        if fleets is None:
            unit_at, waters = self.unit_at, self.convoy_waters
            if waters <= self.seas:  # only fleets stand there (the standard game)
                fleets = self._convoy_fleets = waters.intersection(unit_at)
            else:
                fleets = self._convoy_fleets = frozenset(
                    prov for prov in waters.intersection(unit_at) if unit_at[prov].kind is FLEET
                )
        return fleets

    @property
    def fleet_reach(self) -> dict[str, frozenset[str]]:
        """Where each convoying fleet reaches from the coast it stands on: a
        convoy goes only where that fleet could move (30JK section 6)."""
        reach = self._fleet_reach
        if reach is None:
            reaches, unit_at = self.fleet_reaches, self.unit_at
            reach = self._fleet_reach = {
                prov: reaches.get(unit_at[prov].location, frozenset()) for prov in self.convoy_fleets
            }
        return reach

    def is_coastal(self, province: str) -> bool:
        """True for a land province that touches water (an army there may be convoyed)."""
        return province in self.coasts

    def convoy_route_possible(self, origin: str, destination: str, excluded: str | None = None) -> bool:
        """True when fleets standing in convoy-capable waters (all of them,
        orders ignored, ``excluded`` left out) could form a chain from
        ``origin`` to ``destination``."""
        fleets = self.convoy_fleets
        if excluded is not None and excluded not in fleets:
            excluded = None  # not a convoying fleet: the same answer as with none left out
        key = (origin, destination, excluded)
        known = self._routes.get(key)
        if known is None:
            if origin not in self.coasts or destination not in self.coasts:
                known = False
            else:
                usable = fleets - {excluded} if excluded else fleets
                known = _chain_exists(self.sea_neighbours[origin], destination, usable, self.fleet_reach)
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
        if origin not in self.coasts or destination not in self.coasts:
            return frozenset()
        reach, fleets, boarding = self.fleet_reach, self.convoy_fleets, self.sea_neighbours[origin]
        found: set[str] = set()
        path: list[str] = []

        def extend(candidates: frozenset[str]) -> None:
            # Only the fleets among the candidates, picked out in one C call
            # (the order they are tried in does not change what is found).
            for fleet in fleets.intersection(candidates):
                if fleet in path:
                    continue
                if path and fleet in boarding:
                    continue  # the army could board this fleet directly
                if any(fleet in reach[earlier] for earlier in path[:-1]):
                    continue  # an earlier fleet could pass the army straight on
                path.append(fleet)
                if destination in reach[fleet]:
                    found.update(path)
                else:
                    extend(reach[fleet])
                path.pop()

        extend(boarding)
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


def _chain_exists(
    boarding: frozenset[str], destination: str, fleets: frozenset[str], reach: dict[str, frozenset[str]]
) -> bool:
    """True when a chain of ``fleets`` joins a province whose sea neighbours
    are ``boarding`` to ``destination`` (``route_exists`` for a fixed set of
    usable fleets: the fleets next to each one found picked out by set
    intersection, in C, rather than asked one by one)."""
    frontier = list(fleets.intersection(boarding))
    seen = set(frontier)
    while frontier:
        onward = reach[frontier.pop()]
        if destination in onward:
            return True
        new = fleets.intersection(onward).difference(seen)
        if new:
            seen |= new
            frontier += new
    return False


def route_exists(origin: str, destination: str, usable: Callable[[str], bool], board: Board) -> bool:
    """True when a chain of usable convoying fleets (provinces for which
    ``usable`` is true, asked once each) joins ``origin`` to ``destination``:
    the army boards a fleet next to its province, each fleet passes it to
    one it reaches, and the last fleet reaches the destination."""
    seen: set[str] = set()
    frontier: list[str] = []
    reach = board.fleet_reach
    neighbours = board.sea_neighbours[origin]
    is_fleet = reach.__contains__
    while True:
        for fleet in filter(is_fleet, neighbours):  # the convoying fleets among them, in the same order
            if fleet not in seen:
                seen.add(fleet)
                if usable(fleet):
                    frontier.append(fleet)
        if not frontier:
            return False
        fleet = frontier.pop()
        neighbours = reach[fleet]
        if destination in neighbours:
            return True
