"""Seeded random movement phases on both maps, checked against invariants
that hold whatever the orders are.

The orders are random texts next to the units (moves, supports, convoys,
holds, 30JK double moves and transforms), some of them illegal, some
superseded by a later order for the same unit, and some units left
without an order.  The DATC cases pin the answers; these pin the shape of
every answer: each unit reported once as it stands, the board afterwards
consistent, retreats only where the rules allow, and the same result on a
second run.
"""

from __future__ import annotations

import random

import pytest

from adjudicator.games.diplomacy.core.engine import PhaseResult, adjudicate, initial_position
from adjudicator.games.diplomacy.core.mapdata import GameMap, load_map
from adjudicator.games.diplomacy.core.model import ARMY, FLEET, Position, Unit, province_of
from adjudicator.games.diplomacy.core.reports import INVALID

PHASES = 100  # per map


def _position(rng: random.Random, game_map: GameMap) -> Position:
    """A random position of the map's movement phase: one unit in up to
    half the provinces, each of a random power and of a kind that can
    stand there."""
    start = initial_position(game_map)
    units = []
    for province in rng.sample(sorted(game_map.provinces.values(), key=lambda p: p.key), len(game_map.provinces) // 2):
        choices = ([(ARMY, province.key)] if province.terrain != "sea" else []) + [(FLEET, loc) for loc in province.fleet]
        if choices:
            kind, location = rng.choice(choices)
            units.append(Unit(rng.choice(list(game_map.powers)), kind, location))
    return Position(start.phase, tuple(units), game_map.initial_centres(), confessions=start.confessions)


def _near(rng: random.Random, game_map: GameMap, unit: Unit) -> str:
    province = game_map.provinces[unit.province]
    places = sorted(province.army) + sorted(t for targets in province.fleet.values() for t in targets)
    return rng.choice(places) if places and rng.random() < 0.9 else rng.choice(sorted(game_map.provinces))


def _orders(rng: random.Random, game_map: GameMap, position: Position) -> dict[str, list[str]]:
    units = list(position.units)
    orders: dict[str, list[str]] = {}
    for unit in units:
        if rng.random() < 0.1:
            continue  # no order: the unit holds
        other = rng.choice(units)
        roll = rng.random()
        if roll < 0.1:
            text = f"{unit} H"
        elif roll < 0.45:
            text = f"{unit} - {_near(rng, game_map, unit)}" + (" VIA CONVOY" if rng.random() < 0.1 else "")
        elif roll < 0.55 and unit.kind is FLEET and game_map.rules != "standard":
            middle = _near(rng, game_map, unit)
            text = f"{unit} - {middle} - {_near(rng, game_map, Unit(unit.power, FLEET, middle))}"
        elif roll < 0.65:
            text = f"{unit} S {other}"
        elif roll < 0.85:
            text = f"{unit} S {other} - {_near(rng, game_map, other)}"
        elif roll < 0.95:
            text = f"{unit} C {other} - {rng.choice(sorted(game_map.provinces))}"
        else:
            text = f"{unit} T {rng.choice(['A', 'F', 'F/NC'])}"
        orders.setdefault(unit.power, []).append(text)
        if rng.random() < 0.05:
            orders[unit.power].append(f"{unit} H")  # supersedes the order before
    return orders


def _check(game_map: GameMap, position: Position, result: PhaseResult) -> None:
    before = {u.province: u for u in position.units}
    valid = [r for r in result.reports if r.valid]
    # Every unit has exactly one valid report, in the canonical text of the
    # unit as it stands; the rest are invalid with a reason.
    assert sorted(" ".join(r.order.split()[:2]) for r in valid) == sorted(str(u) for u in position.units)
    for report in result.reports:
        assert report.result in ("succeeds", "fails") if report.valid else report.result == INVALID
        assert report.reason or report.result == "succeeds"
    ranks = [list(game_map.powers).index(r.power) for r in result.reports]
    assert ranks == sorted(ranks)  # grouped by power in the map's order
    # Units afterwards: one per province, none lost but the dislodged and
    # those religious warfare disbands at the end of a 30JK turn.
    after = result.position.units
    provinces = [u.province for u in after]
    assert len(provinces) == len(set(provinces))
    disbanded = sum(1 for event in result.events if event.outcome == "disbanded")
    assert len(after) + len(result.dislodged) + disbanded == len(position.units)
    for entry in result.dislodged:
        assert before[entry.unit.province] == entry.unit
        for location in entry.retreats:
            province = province_of(location)
            assert province not in provinces and province not in result.standoffs
            assert province != entry.attacker_from or entry.by_convoy
    assert not result.standoffs & set(provinces)


@pytest.mark.parametrize("name", ["standard", "30jk"])
def test_random_movement_phases_keep_the_invariants(name: str) -> None:
    game_map = load_map(name)
    rng = random.Random(f"random phases {name}")
    for _ in range(PHASES):
        position = _position(rng, game_map)
        orders = _orders(rng, game_map, position)
        result = adjudicate(game_map, position, orders)
        _check(game_map, position, result)
        assert adjudicate(game_map, position, orders) == result  # the same answer again
