"""1847 AE: seeded random games (bots choosing random legal orders) to
their end, 3 to 5 players, money checked after every order; prints how
the games ended, their length, the time per order and the slowest best-
route search (RUN BEST) met on the way.

    python benchmarks/pfalz1847_games.py            # 200 games
    python benchmarks/pfalz1847_games.py --games 20
    python benchmarks/pfalz1847_games.py --dense    # RUN BEST on dense networks
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
    parser.add_argument("--steady", action="store_true", help="bots that buy, build, run and pay (bank breaks)")
    args = parser.parse_args()
    data = game_data()
    ends: Counter[str] = Counter()
    orders = 0
    slowest = 0.0
    started = time.perf_counter()
    for seed in range(args.games):
        g, steps = bots.random_game(data, seed, 3 + seed % 3, steady=args.steady)
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




def dense() -> None:
    """RUN BEST on a dense network: the L after the seed's first round with
    up to 120 random legal tiles of phases 3, 4 and 5 and a second station."""
    import random

    data = game_data()
    g = engine.new_game(data, 4)
    for seat, line in (("S4", "BUY SCR"), ("S3", "BUY VIW"), ("S2", "BUY MNR"), ("S1", "BUY PLP"), ("S1", "BUY W"),
                       ("S2", "BUY K"), ("S3", "BUY LFKC"), ("S4", "BUY R"), ("S1", "PASS"), ("S2", "BUY SPR"),
                       ("S3", "BUY H"), ("S4", "PASS"), ("S1", "PASS"), ("S2", "PASS"), ("S3", "PASS")):
        from adjudicator.games.pfalz1847.parse import parse_line
        g = engine.apply(data, g, seat, parse_line(line))
    for seed in (1, 2):
        rng = random.Random(seed)
        h = {k: v for k, v in g.items()}
        h["tiles"] = {}
        h["round"] = dict(g["round"])
        h["operated"] = dict(g["operated"], L=True)
        for phase in ("3", "4", "5"):
            h["phase"] = phase
            for _ in range(40):
                h["round"]["lays"], h["round"]["step"] = [], "track"
                options = engine.lay_options(data, h, "L", 400)
                if not options:
                    break
                lay = rng.choice(options)
                h["tiles"] = {**h["tiles"], lay.hex: [lay.tile, lay.rotation]}
        h["stations"] = {**g["stations"], "F12": ["L"]}
        board = engine.board(data, h)
        for trains in (["6+6", "6+6"], ["5+5", "6E"], ["5", "5"]):
            started = time.perf_counter()
            total, _ = routes.best(board, "L", [data.train(t) for t in trains], 2)
            elapsed = time.perf_counter() - started
            count = len(routes.all_routes(board, "L", data.train(trains[0]), 2))
            print(f"dense network {seed} ({len(h['tiles'])} tiles): RUN BEST {'+'.join(trains)} = {total}M "
                  f"in {1000 * elapsed:.0f} ms ({count} routes of the first train)")


if __name__ == "__main__":
    if "--dense" in sys.argv:
        sys.argv.remove("--dense")
        dense()
    else:
        main()
