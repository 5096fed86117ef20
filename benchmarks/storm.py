"""The Sunday 20:00 storm: N games whose deadlines fall in the same minute.

    python benchmarks/storm.py [--games 100 1000] [--timeout 1800]

For each N: N active games (70 % standard, 30 % 30JK, every seat taken,
no orders sent, so every unit holds) on a fresh SQLite judge, all with the
same deadline a few seconds after ``adjudicator serve`` has started; the
judge sends its reports over SMTP to a sink on loopback.  Prints, per N:
seconds from the deadline to the first and to the last report received,
the judge's CPU seconds per game for the storm, its peak resident memory
(VmHWM) and the mean report size; then the ratio of CPU per game at the
largest N to the smallest.  Goals (issue 20): every report within 60 s,
the first within 2 s, peak RSS <= 250 MB, ratio <= 1.2, report <= 120 KB.
Figures only, no assertions.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import time
from datetime import datetime, timedelta, timezone

from judgebench import Serve, Sink, new_folder, seat_games, wait_for, write_config

LEAD = 6.0
"""Seconds between starting the judge and the common deadline."""


def storm(games: int, timeout: float) -> dict[str, float]:
    """Run one storm of ``games`` games; its figures."""
    folder = new_folder(f"adj-storm-{games}-")
    sink = Sink().start()
    config = write_config(folder, sink.port, f'kind = "maildir"\npath = "{folder / "inbox"}"', poll=5)
    started = time.time()
    seats = seat_games(config, games)
    expected = sum(len(addresses) for addresses in seats.values())
    setup = time.time() - started
    judge = Serve(config)
    deadline = datetime.now(timezone.utc) + timedelta(seconds=LEAD + 2)
    with sqlite3.connect(folder / "judge.sqlite3") as db:  # one statement, not N store calls
        db.execute("UPDATE games SET deadline = ?", (deadline.isoformat(),))
    judge.start()
    try:
        wait_for(lambda: time.time() >= deadline.timestamp() - 0.5, LEAD + 5)
        cpu_before = judge.cpu_seconds()
        done = wait_for(lambda: sink.count() >= expected, timeout, step=0.2)
        cpu = judge.cpu_seconds() - cpu_before
        rss = judge.peak_rss_mib()
    finally:
        judge.stop()
        sink.stop()
    times = sink.times()
    sizes = sink.sizes()
    at = deadline.timestamp()
    return {
        "games": games, "setup_s": setup, "expected": expected, "received": len(times), "complete": float(done),
        "first_s": (times[0] - at) if times else float("nan"),
        "last_s": (times[-1] - at) if times else float("nan"),
        "cpu_per_game_s": cpu / games, "peak_rss_mib": rss,
        "mean_kib": (sum(sizes) / len(sizes) / 1024) if sizes else float("nan"),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="+", default=[100, 1000], help="storm sizes (default 100 1000)")
    parser.add_argument("--timeout", type=float, default=1800, help="seconds to wait for the last report")
    args = parser.parse_args()
    print(f"{'games':>6} {'reports':>9} {'first s':>8} {'last s':>8} {'CPU/game s':>11} {'peak RSS MiB':>13} "
          f"{'mean KiB':>9} {'setup s':>8}")
    results = []
    for games in args.games:
        figures = storm(games, args.timeout)
        results.append(figures)
        received = f"{int(figures['received'])}/{int(figures['expected'])}"
        print(f"{games:>6} {received:>9} {figures['first_s']:>8.1f} {figures['last_s']:>8.1f} "
              f"{figures['cpu_per_game_s']:>11.3f} {figures['peak_rss_mib']:>13.0f} {figures['mean_kib']:>9.0f} "
              f"{figures['setup_s']:>8.0f}", flush=True)
    for figures in results:
        verdicts = [("first report <= 2 s", figures["first_s"] <= 2.0),
                    ("every report <= 60 s", bool(figures["complete"]) and figures["last_s"] <= 60.0),
                    ("peak RSS <= 250 MB", figures["peak_rss_mib"] * 1.048576 <= 250.0),
                    ("report <= 120 KB", figures["mean_kib"] * 1.024 <= 120.0)]
        print(f"{int(figures['games']):>6} games: " + "; ".join(f"{goal} {'met' if ok else 'NOT met'}"
                                                            for goal, ok in verdicts))
    if len(results) > 1:
        small, large = min(results, key=lambda r: r["games"]), max(results, key=lambda r: r["games"])
        ratio = large["cpu_per_game_s"] / small["cpu_per_game_s"]
        print(f"CPU per game at {int(large['games'])} games / at {int(small['games'])} games: {ratio:.2f} "
              f"(goal <= 1.2 at 1,000 / 100: {'met' if ratio <= 1.2 else 'NOT met'})")
    print(f"machine: {os.cpu_count()} cores, load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
