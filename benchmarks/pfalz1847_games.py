"""1847 AE: seeded random games (bots choosing random legal orders) to
their end, 3 to 5 players, money checked after every order; prints how
the games ended, their length, the time per order and the slowest best-
route search (RUN BEST) met on the way.

    python benchmarks/pfalz1847_games.py            # 200 games
    python benchmarks/pfalz1847_games.py --games 20
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from adjudicator.games.pfalz1847 import bots, engine, routes  # noqa: E402
from adjudicator.games.pfalz1847.data import game_data  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()
    data = game_data(standin=True)
    ends: Counter[str] = Counter()
    orders = 0
    slowest = 0.0
    started = time.perf_counter()
    for seed in range(args.games):
        g, steps = bots.random_game(data, seed, 3 + seed % 3)
        ends[g["result"].get("why", "unfinished")] += 1
        orders += steps
        for cid in g["trains"]:
            if g["trains"][cid] and g["floated"][cid]:
                t = time.perf_counter()
                routes.best(engine.board(data, g), cid, engine.company_trains(data, g, cid), engine.colour_index(data, g))
                slowest = max(slowest, time.perf_counter() - t)
    elapsed = time.perf_counter() - started
    print(f"games: {args.games}, ended: {dict(ends)}, money conserved after every one of {orders} orders")
    print(f"orders per game: {orders / args.games:.0f}, time per order: {1000 * elapsed / max(orders, 1):.1f} ms")
    print(f"slowest RUN BEST at a game's end: {1000 * slowest:.0f} ms")


if __name__ == "__main__":
    main()
