"""The route finder of 1847 AE: against exhaustive search over every
combination of routes on positions of seeded random games, and on the
real map where the best routes are known by hand."""

from __future__ import annotations

import itertools
import random
from typing import Any

from adjudicator.games.pfalz1847 import engine, routes
from tests.pfalz1847_helpers import DATA, EXAMPLE_SR1, Table, quick_bot_order


def _exhaustive(board: Any, company: str, trains: list[Any], colour: int) -> int:
    options = [[None, *routes.all_routes(board, company, t, colour)] for t in trains]
    best = 0
    for pick in itertools.product(*options):
        chosen = [r for r in pick if r is not None]
        used: set[Any] = set()
        clash = False
        for r in chosen:
            if used & r.paths:
                clash = True
                break
            used |= r.paths
        if not clash:
            best = max(best, sum(r.revenue for r in chosen))
    return best


def test_the_example_position_best_routes_known_by_hand() -> None:
    t = Table(4).script(EXAMPLE_SR1)
    t.script([("S1", "LAY 58 G17 ROT 1"), ("S1", "LAY 57 G19 ROT 2"), ("S1", "STATION G15")])
    b = engine.board(DATA, t.g)
    three = DATA.train("3")
    total, picks = routes.best(b, "L", [three], 0)
    assert total == 70 and picks[0] is not None and picks[0].text() in ("F18-G17-G15", "G15-G17-F18")
    # two 3-trains: Ludwigshafen-G17-Neustadt (70) and Speyer-Ludwigshafen or Neustadt-Bad Dürkheim (50)
    total, picks = routes.best(b, "L", [three, three], 0)
    assert total == 120
    # a 3+3: three cities (Speyer, Ludwigshafen, Neustadt) and the towns G17 and Bad Dürkheim's town
    total, picks = routes.best(b, "L", [DATA.train("3+3")], 0)
    assert total == 20 + 30 + 10 + 30 + 10 == 100
    assert picks[0] is not None and picks[0].stops[-1] == ("F16", 1) or picks[0] is not None and picks[0].stops[0] == ("F16", 1)


def test_the_finder_equals_exhaustive_search_on_random_positions() -> None:
    checked = 0
    for seed in range(6):
        rng = random.Random(seed)
        g = engine.new_game(DATA, 3 + seed % 3)
        steps = 0
        while not g["over"] and steps < 600 and checked < 40:
            seat = engine.actor(DATA, g)
            r = g["round"]
            if r["kind"] == "OR" and r["step"] in ("run", "station", "track"):
                cid = engine.operating(g)
                trains = engine.company_trains(DATA, g, str(cid))
                if trains and len(trains) <= 3:
                    b = engine.board(DATA, g)
                    colour = engine.colour_index(DATA, g)
                    total, picks = routes.best(b, str(cid), trains, colour)
                    assert total == _exhaustive(b, str(cid), trains, colour)
                    assert total == sum(p.revenue for p in picks if p is not None)
                    checked += 1
            g = engine.apply(DATA, g, str(seat), quick_bot_order(DATA, g, rng))
            steps += 1
    assert checked >= 10
