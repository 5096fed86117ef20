"""Counting at the end of a turn: centres changing owner, the winner, who
must adjust, who is gone.

Each function reads a map's per-power tables (``tables``, built once per
map and cached) and a position's centres and units; none changes its
arguments.  They give the same answers as counting afresh with the map's
accessors, in one pass each over the units or the centres.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from functools import cache
from typing import AbstractSet, Mapping

from adjudicator.games.diplomacy.core.mapdata import GameMap
from adjudicator.games.diplomacy.core.model import POWER, Unit


@dataclass(frozen=True, slots=True)
class MapTally:
    """What the end of a turn asks of a map: its supply-centre provinces,
    each power with its home centres (in the map's order of powers), and
    the number of centres that wins."""

    supply: frozenset[str]
    homes: tuple[tuple[str, tuple[str, ...]], ...]
    powers: frozenset[str]
    victory: int


@cache
def tables(game_map: GameMap) -> MapTally:
    """The tally tables of ``game_map`` (worked out once per map)."""
    return MapTally(
        frozenset(game_map.supply_centres),
        tuple((name, power.home_centres) for name, power in game_map.powers.items()),
        frozenset(game_map.powers),
        game_map.victory_centres,
    )


def centres_after(tally: MapTally, centres: Mapping[str, str], units: tuple[Unit, ...]) -> dict[str, str]:
    """A new ownership table: ``centres`` with every supply centre a unit
    stands on given to that unit's power (new owners after the old ones,
    in the units' order)."""
    after = dict(centres)
    supply = tally.supply
    for unit in units:
        if unit.province in supply:
            after[unit.province] = unit.power
    return after


def winner(tally: MapTally, owners: list[str]) -> str | None:
    """The one power with at least the victory number of centres (``None``
    when none or several have); ``owners`` are the centres' owners, sorted
    (each power's centres one run of the list, measured by bisection:
    a few C calls per power rather than a dictionary update per centre)."""
    victory = tally.victory
    leaders = []
    start, end = 0, len(owners)
    while start < end:
        power = owners[start]
        stop = bisect_right(owners, power, start)
        if stop - start >= victory:
            leaders.append(power)
        start = stop
    return leaders[0] if len(leaders) == 1 else None


def needs_adjustment(
    tally: MapTally,
    centres: Mapping[str, str],
    owners: list[str],
    units: tuple[Unit, ...],
    occupied: AbstractSet[str] | None = None,
) -> bool:
    """True when some power can build (more centres than units and a vacant
    owned home centre) or must remove (more units than centres);
    ``owners`` are the centres' owners, sorted (counted by bisection, as
    the units' powers); ``occupied``, when the caller knows it, is the set
    of the provinces the units stand in."""
    powers = sorted([unit.power for unit in units])
    if powers == owners:
        return False  # every power has as many units as centres
    for power, homes in tally.homes:
        start, first = bisect_left(owners, power), bisect_left(powers, power)  # each list's run of the power
        surplus = bisect_right(owners, power, start) - start - bisect_right(powers, power, first) + first
        if surplus < 0:
            return True
        if surplus > 0:
            if occupied is None:
                occupied = {unit.province for unit in units}
            for home in homes:
                if home not in occupied and centres.get(home) == power:
                    return True
    return False


def present(units: tuple[Unit, ...], centres: Mapping[str, str]) -> set[str]:
    """The powers with a unit or a centre."""
    return {unit.power for unit in units}.union(centres.values())
