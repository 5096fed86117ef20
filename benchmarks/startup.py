"""How long does each ``adjudicator`` command take to start and finish?

Prints figures only (no assertions): for each command, the wall time of
a whole process (``python -m adjudicator ...``: interpreter start, the
imports, the command's work) as the minimum and median of ``--repeat``
runs, then the modules of the slow kind (Pillow, Lark, Jinja2,
APScheduler, aiosmtplib, imapclient, the game modules) each command
imported, and the goal of issue 20: a command that neither draws nor
serves done in at most 120 ms.

The commands run against a fresh judge in a temporary folder (a
configuration, an SQLite database with one standard game, one mail on
standard input for ``receive``).  Byte-code is cached in a private
folder (``PYTHONPYCACHEPREFIX``) after one warm-up run, as in an
installed package, so compiling the sources is not counted.

Run from the repository root::

    python benchmarks/startup.py [--repeat N]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GOAL_MS = 120.0

CONFIG = '''[judge]
address = "judge@pbem.test"
language = "en"
admin = "admin@pbem.test"
admin_password_env = "ADJUDICATOR_BENCHMARK_UNSET_SECRET"
[database]
path = "judge.sqlite3"
'''

MAIL = b"""From: Player <player@example.org>
To: judge@pbem.test
Subject: orders
Message-ID: <startup-%d@example.org>

SIGNON England bench secret
F Lon - Nth
"""

CASE = json.dumps({"variant": "standard", "phase": "S1901M", "orders": {"England": ["F Lon - Nth"]}})

HEAVY = ("PIL", "lark", "jinja2", "apscheduler", "aiosmtplib", "imapclient", "adjudicator.games.diplomacy",
         "adjudicator.games.revolution1848", "adjudicator.games.kreml", "adjudicator.games.liberte",
         "adjudicator.games.pfalz1847")

# (label, arguments, standard input, whether the 120 ms goal applies)
COMMANDS: tuple[tuple[str, tuple[str, ...], bytes | None, bool], ...] = (
    ("--help", ("--help",), None, True),
    ("--version", ("--version",), None, True),
    ("game list", ("game", "list"), None, True),
    ("game show", ("game", "show", "bench"), None, True),
    ("outbox", ("outbox",), None, True),
    ("db status", ("db", "status"), None, True),
    ("receive", ("receive",), MAIL, True),
    ("adjudicate", ("adjudicate",), CASE.encode(), False),
    ("map draw (PNG)", ("map", "draw", "standard", "-o", "map.png"), None, False),
)

# Prints the heavy modules a command imported (run instead of the real entry point).
PROBE = """
import runpy, sys
heavy = {heavy!r}
try:
    sys.argv = ["adjudicator", *sys.argv[1:]]
    runpy.run_module("adjudicator", run_name="__main__")
except SystemExit:
    pass
finally:
    found = sorted({{h for h in heavy for m in sys.modules if m == h or m.startswith(h + ".")}})
    sys.stderr.write("HEAVY " + ",".join(found) + "\\n")
"""


def environment(folder: Path) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = str(ROOT)
    env["PYTHONPYCACHEPREFIX"] = str(folder / "pycache")
    return env


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run(folder: Path, arguments: tuple[str, ...], stdin: bytes | None,
        probe: bool = False) -> tuple[float, float, str]:
    """One process: (wall seconds, CPU seconds, its standard error)."""
    command = [sys.executable, "-c", PROBE.format(heavy=HEAVY)] if probe else [sys.executable, "-m", "adjudicator"]
    cpu = _children_cpu()
    start = time.perf_counter()
    done = subprocess.run([*command, "--config", "judge.toml", *arguments], input=stdin, capture_output=True,
                          cwd=folder, env=environment(folder), timeout=120)
    seconds = time.perf_counter() - start
    return seconds, _children_cpu() - cpu, done.stderr.decode("utf-8", "replace")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=15, help="runs per command (default 15)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="adjudicator-startup-") as name:
        folder = Path(name)
        (folder / "judge.toml").write_text(CONFIG, encoding="utf-8")
        run(folder, ("game", "create", "bench", "--variant", "standard"), None)
        print(f"adjudicator start-up benchmark: Python {sys.version.split()[0]}, {args.repeat} runs per command, "
              f"load average {os.getloadavg()[0]:.2f}")
        interpreter = [run_bare(folder) for _ in range(args.repeat)]
        print(f"{'python -c pass (the interpreter alone)':42} min {min(w for w, _ in interpreter) * 1e3:6.1f} ms  "
              f"median {statistics.median(w for w, _ in interpreter) * 1e3:6.1f} ms  "
              f"CPU {min(c for _, c in interpreter) * 1e3:6.1f} ms")
        met = True
        for index, (label, arguments, stdin, goal) in enumerate(COMMANDS):
            def mail(i: int) -> bytes | None:
                return stdin % (index * 1000 + i) if stdin is not None and b"%d" in stdin else stdin

            run(folder, arguments, mail(999))  # warm-up: byte-code cache, first database access
            runs = [run(folder, arguments, mail(i)) for i in range(args.repeat)]
            times = [wall for wall, _, _ in runs]
            cpu = min(used for _, used, _ in runs) * 1e3
            _, _, probe = run(folder, arguments, mail(998), probe=True)
            heavy = next((line[6:] for line in probe.splitlines() if line.startswith("HEAVY ")), "?") or "none"
            best = min(times) * 1e3
            mark = ("ok" if best <= GOAL_MS else "OVER") if goal else "(draws/rules: no goal)"
            met = met and (best <= GOAL_MS or not goal)
            print(f"{'adjudicator ' + label:42} min {best:6.1f} ms  median {statistics.median(times) * 1e3:6.1f} ms"
                  f"  CPU {cpu:6.1f} ms  {mark:8}  heavy imports: {heavy}")
        print(f"goal (issue 20): commands that neither draw nor serve in <= {GOAL_MS:.0f} ms (minimum wall time of the "
              f"runs): " + ("met" if met else "not met") + "; on a loaded machine the CPU column (user + system "
              "time of the process, least of the runs) is the steadier figure")
    return 0


def run_bare(folder: Path) -> tuple[float, float]:
    cpu = _children_cpu()
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], env=environment(folder), check=True)
    return time.perf_counter() - start, _children_cpu() - cpu


if __name__ == "__main__":
    sys.exit(main())
