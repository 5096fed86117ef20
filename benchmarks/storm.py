"""The Sunday 20:00 storm: N games whose deadlines fall in the same minute.

    python benchmarks/storm.py [--games 100 1000] [--timeout 1800]

For each N: N active games (70 % standard, 30 % 30JK, every seat taken,
no orders sent, so every unit holds) on a fresh SQLite judge, all with the
same deadline a few seconds after ``adjudicator serve`` has started; the
judge sends its reports over SMTP to a sink on loopback.  Prints, per N:
seconds from the deadline to the first and to the last report received,
the CPU seconds per game for the storm of the judge and its child
processes (the resolution workers, the mail reader), the judge's peak
resident memory (VmHWM) alone and plus its children's, and the mean
report size; then the ratio of CPU per game at the
largest N to the smallest.  Goals (issue 20): every report within 60 s,
the first within 2 s, peak RSS <= 250 MB, ratio <= 1.2, report <= 120 KB.
Figures only, no assertions.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import time
from pathlib import Path
from datetime import datetime, timedelta, timezone

from judgebench import Serve, Sink, measured_judge, new_folder, seat_games, wait_for, write_config

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
        cpu_before, own_before, sink_before = judge.cpu_seconds(), judge.own_cpu_seconds(), sink.cpu_seconds()
        pss = [judge.pss_mib()]

        def finished() -> bool:
            pss.append(judge.pss_mib())
            return sink.count() >= expected

        done = wait_for(finished, timeout, step=0.5)
        cpu = judge.cpu_seconds() - cpu_before
        own = judge.own_cpu_seconds() - own_before
        sink_cpu = sink.cpu_seconds() - sink_before
        rss = judge.peak_rss_mib()
        rss_all = judge.peak_rss_all_mib()
        children = len(judge.children())
        for child in judge.children():
            command = Path(f"/proc/{child}/cmdline").read_bytes().replace(b"\0", b" ").decode()[:90]
            print(f"  child {child}: peak RSS {judge.peak_rss_mib(child):.0f} MiB: {command}", flush=True)
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
        "peak_rss_all_mib": rss_all, "peak_pss_mib": max(pss), "own_cpu_per_game_s": own / games, "sink_cpu_per_game_s": sink_cpu / games, "children": children, "wall_cpu": cpu / max(1e-9, (times[-1] - at) if times else 1.0),
        "mean_kib": (sum(sizes) / len(sizes) / 1024) if sizes else float("nan"),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="+", default=[100, 1000], help="storm sizes (default 100 1000)")
    parser.add_argument("--timeout", type=float, default=1800, help="seconds to wait for the last report")
    args = parser.parse_args()
    print(measured_judge(), flush=True)
    print(f"{'games':>6} {'reports':>9} {'first s':>8} {'last s':>8} {'CPU/game s':>11} {'of judge':>9} {'cores used':>10} "
          f"{'sink s':>7} {'RSS MiB':>8} {'+children':>10} {'PSS MiB':>8} {'mean KiB':>9} {'setup s':>8}")
    results = []
    for games in args.games:
        figures = storm(games, args.timeout)
        results.append(figures)
        received = f"{int(figures['received'])}/{int(figures['expected'])}"
        print(f"{games:>6} {received:>9} {figures['first_s']:>8.1f} {figures['last_s']:>8.1f} "
              f"{figures['cpu_per_game_s']:>11.3f} {figures['own_cpu_per_game_s']:>9.3f} {figures['wall_cpu']:>10.2f} "
              f"{figures['sink_cpu_per_game_s']:>7.3f} {figures['peak_rss_mib']:>8.0f} "
              f"{figures['peak_rss_all_mib']:>10.0f} {figures['peak_pss_mib']:>8.0f} {figures['mean_kib']:>9.0f} {figures['setup_s']:>8.0f}", flush=True)
    for figures in results:
        verdicts = [("first report <= 2 s", figures["first_s"] <= 2.0),
                    ("every report <= 60 s", bool(figures["complete"]) and figures["last_s"] <= 60.0),
                    ("peak RSS <= 250 MB (judge)", figures["peak_rss_mib"] * 1.048576 <= 250.0),
                    ("with its children (PSS)", figures["peak_pss_mib"] * 1.048576 <= 250.0),
                    ("report <= 120 KB", figures["mean_kib"] * 1.024 <= 120.0)]
        print(f"{int(figures['games']):>6} games: " + "; ".join(f"{goal} {'met' if ok else 'NOT met'}"
                                                            for goal, ok in verdicts))
    if len(results) > 1:
        small, large = min(results, key=lambda r: r["games"]), max(results, key=lambda r: r["games"])
        ratio = large["cpu_per_game_s"] / small["cpu_per_game_s"]
        print(f"CPU per game at {int(large['games'])} games / at {int(small['games'])} games: {ratio:.2f} "
              f"(goal <= 1.2 at 1,000 / 100: {'met' if ratio <= 1.2 else 'NOT met'})")
    print(f"machine: {os.cpu_count()} cores, load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}; "
          f"'cores used' is CPU seconds (judge and its workers) per second from the deadline to the last report, "
          f"'+children' the peak RSS of the judge plus each child process's own peak "
          f"(shared pages counted in each), 'PSS' the most the judge and its children held together "
          f"(shared pages counted once; sampled every 0.5 s); 'of judge' the judge process's own CPU per game; "
          f"'sink s' the CPU per game of the benchmark's SMTP sink (the judge's peer, not counted in 'CPU/game')")


if __name__ == "__main__":
    main()
