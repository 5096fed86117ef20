"""How long does the judge take to resolve one movement phase?

Prints figures only (no assertions, no pass/fail):

* the median, 90th percentile and minimum wall time per movement phase of
  ``adjudicator.games.diplomacy.contract.run_case`` (validate the case, parse every order,
  adjudicate, build the output object) and of the core alone
  (``adjudicate(map, position, orders)``: order parsing + resolution), for
  two positions: the 1901 opening with all 22 units ordered, and an invented
  34-unit Fall 1905 position with many supports, two convoys (one through
  two fleets), bounces, a cut support and a dislodgement;
* whether the rules core runs compiled (``pip install .`` compiles its hot
  modules with mypyc, hatch_build.py) or as Python source (an editable
  install);
* the time to import the package and make the first call in a fresh
  process (map and grammar loading), which a judge started once per e-mail
  pays every time;
* the peak memory (tracemalloc) of one ``run_case`` of the mid-game phase;
* when the PyPI package ``diplomacy`` (the MILA engine) is importable, the
  same two phases there (``set_orders`` for every power + ``process()``,
  i.e. its parsing and adjudication; creating the game and placing the
  units is done outside the timed region), a check that both engines move
  the units to the same places, and as the last line
  ``speedup vs diplomacy: opening <x>x, midgame <y>x`` (MILA median / our
  median);
* before that last line, the least CPU time per call of the core on
  parsed orders (and on fresh copies of those orders, whose canonical
  texts are made anew) and of MILA's ``process()`` alone (batches taking turns),
  and per position whether the core is at least 10x faster (issue 20's goal): ``goal core >= 10x
  process() on the <position> (least CPU): <x>x, met`` or ``NOT met``.

Run from the repository root::

    python benchmarks/adjudicate.py [--repeat N] [--warmup N] [--json] [--no-compare]

``--no-compare`` behaves as if ``diplomacy`` were not installed (so that
path can be exercised on a machine that has it).
"""

from __future__ import annotations

import argparse
import gc
import json
import platform
import statistics
import sys
import time
import tracemalloc
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable

_T_START = time.perf_counter()
try:
    import adjudicator  # noqa: F401
except ImportError:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from adjudicator.games.diplomacy.contract import case_from_json, run_case  # noqa: E402
from adjudicator.games.diplomacy.core.compiled import compiled_modules, describe_core  # noqa: E402
from adjudicator.games.diplomacy.core.engine import adjudicate, adjudicate_parsed  # noqa: E402
from adjudicator.games.diplomacy.core.reports import parse_power_orders  # noqa: E402

_IMPORT_SECONDS = time.perf_counter() - _T_START

INSTALL_HINT = "pip install diplomacy   # the MILA engine, version 1.1.2 on PyPI"


# --------------------------------------------------------------------------
# The two positions.  Each row is (unit, our order text, MILA order text);
# our texts are written the way players type them (mixed case, "via convoy")
# so that parsing is exercised, MILA's in its own upper-case notation.


@dataclass(frozen=True)
class Position:
    name: str
    phase: str
    rows: dict[str, list[tuple[str, str, str]]]  # power -> [(unit, ours, mila)]
    centres: dict[str, list[str]] | None  # None: the initial ownership

    @property
    def unit_count(self) -> int:
        return sum(len(r) for r in self.rows.values())

    def case(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "variant": "standard",
            "phase": self.phase,
            "units": {p: [u for u, _, _ in rows] for p, rows in self.rows.items()},
            "orders": {p: [o for _, o, _ in rows] for p, rows in self.rows.items()},
        }
        if self.centres is not None:
            data["centers"] = {p: list(c) for p, c in self.centres.items()}
        return data


OPENING = Position(
    name="opening",
    phase="S1901M",
    rows={
        "Austria": [
            ("A VIE", "A Vie - Gal", "A VIE - GAL"),
            ("A BUD", "A Bud - Ser", "A BUD - SER"),
            ("F TRI", "F Tri - Alb", "F TRI - ALB"),
        ],
        "England": [
            ("F LON", "F Lon - Nth", "F LON - NTH"),
            ("F EDI", "F Edi - Nwg", "F EDI - NWG"),
            ("A LVP", "A Lvp - Yor", "A LVP - YOR"),
        ],
        "France": [
            ("F BRE", "F Bre - Mao", "F BRE - MAO"),
            ("A PAR", "A Par - Bur", "A PAR - BUR"),
            ("A MAR", "A Mar - Spa", "A MAR - SPA"),
        ],
        "Germany": [
            ("F KIE", "F Kie - Den", "F KIE - DEN"),
            ("A BER", "A Ber - Kie", "A BER - KIE"),
            ("A MUN", "A Mun - Ruh", "A MUN - RUH"),
        ],
        "Italy": [
            ("F NAP", "F Nap - Ion", "F NAP - ION"),
            ("A ROM", "A Rom - Apu", "A ROM - APU"),
            ("A VEN", "A Ven H", "A VEN H"),
        ],
        "Russia": [
            ("F STP/SC", "F Stp/sc - Bot", "F STP/SC - BOT"),
            ("A MOS", "A Mos - Ukr", "A MOS - UKR"),
            ("A WAR", "A War - Gal", "A WAR - GAL"),
            ("F SEV", "F Sev - Bla", "F SEV - BLA"),
        ],
        "Turkey": [
            ("F ANK", "F Ank - Bla", "F ANK - BLA"),
            ("A CON", "A Con - Bul", "A CON - BUL"),
            ("A SMY", "A Smy - Arm", "A SMY - ARM"),
        ],
    },
    centres=None,
)

# Fall 1905, 34 units on 34 centres.  What happens (both engines agree):
# * England convoys A Yor - Bel through F Nth, supported by F Eng and the
#   French A Pic (3); Germany's A Bel holds with A Hol's support only, since
#   the French A Bur - Ruh cuts A Ruh's support (2): A Bel is dislodged (and,
#   hemmed in, has nowhere to retreat).  F Hel - Nth with F Den's support
#   meets F Nth held by F Nwg's support (2 v 2): the convoy stands.
# * Turkey convoys A Smy - Tun through two fleets, F Aeg and F Ion; Italy's
#   F Tys - Ion with F Nap's support meets F Ion held by F Gre (2 v 2), so
#   the convoy goes through and Tunis falls.
# * Bounces: A Vie and A War in Galicia; A Ukr (with Austria's A Bud) and
#   A Bul (with F Bla) in Rumania; A Bur - Ruh, A Mun - Bur,
#   A Mar - Pie (with F Lyo) against A Pie held by A Ven, A Nwy - Swe
#   against A Swe held by F Bot.
# * A Tri - Alb with A Ser's support and F Mao - Por succeed.
MIDGAME = Position(
    name="midgame",
    phase="F1905M",
    rows={
        "Austria": [
            ("A VIE", "A Vienna - Galicia", "A VIE - GAL"),
            ("A BUD", "A Bud S A Ukr - Rum", "A BUD S A UKR - RUM"),
            ("A SER", "A Ser S A Tri - Alb", "A SER S A TRI - ALB"),
        ],
        "England": [
            ("F NWG", "F Nwg S F Nth", "F NWG S F NTH"),
            ("F NTH", "F North Sea C A Yorkshire - Belgium", "F NTH C A YOR - BEL"),
            ("A YOR", "A Yor - Bel", "A YOR - BEL"),
            ("F ENG", "F Eng S A Yor - Bel", "F ENG S A YOR - BEL"),
            ("A NWY", "A Nwy - Swe", "A NWY - SWE"),
        ],
        "France": [
            ("A BUR", "A Bur - Ruh", "A BUR - RUH"),
            ("A PIC", "A Pic S A Yor - Bel", "A PIC S A YOR - BEL"),
            ("F MAO", "F Mid-Atlantic Ocean - Portugal", "F MAO - POR"),
            ("A MAR", "A Mar - Pie", "A MAR - PIE"),
            ("F LYO", "F Lyo S A Mar - Pie", "F LYO S A MAR - PIE"),
        ],
        "Germany": [
            ("A BEL", "A Bel H", "A BEL H"),
            ("A HOL", "A Hol S A Bel", "A HOL S A BEL"),
            ("A RUH", "A Ruh S A Bel", "A RUH S A BEL"),
            ("F HEL", "F Hel - Nth", "F HEL - NTH"),
            ("F DEN", "F Den S F Hel - Nth", "F DEN S F HEL - NTH"),
            ("A MUN", "A Mun - Bur", "A MUN - BUR"),
        ],
        "Italy": [
            ("F TYS", "F Tys - Ion", "F TYS - ION"),
            ("F NAP", "F Nap S F Tys - Ion", "F NAP S F TYS - ION"),
            ("A PIE", "A Pie H", "A PIE H"),
            ("A VEN", "A Ven S A Pie", "A VEN S A PIE"),
            ("A TRI", "A Tri - Alb", "A TRI - ALB"),
        ],
        "Russia": [
            ("A WAR", "A War - Gal", "A WAR - GAL"),
            ("A UKR", "A Ukr - Rum", "A UKR - RUM"),
            ("A SWE", "A Swe H", "A SWE H"),
            ("F BOT", "F Bot S A Swe", "F BOT S A SWE"),
        ],
        "Turkey": [
            ("A SMY", "A Smy - Tun via convoy", "A SMY - TUN VIA"),
            ("F AEG", "F Aeg C A Smy - Tun", "F AEG C A SMY - TUN"),
            ("F ION", "F Ion C A Smy - Tun", "F ION C A SMY - TUN"),
            ("F GRE", "F Gre S F Ion", "F GRE S F ION"),
            ("A BUL", "A Bul - Rum", "A BUL - RUM"),
            ("F BLA", "F Bla S A Bul - Rum", "F BLA S A BUL - RUM"),
        ],
    },
    centres={
        "Austria": ["VIE", "BUD", "SER"],
        "England": ["LON", "EDI", "LVP", "NWY", "STP"],
        "France": ["PAR", "MAR", "BRE", "SPA", "POR"],
        "Germany": ["KIE", "BER", "MUN", "HOL", "DEN", "BEL"],
        "Italy": ["ROM", "NAP", "VEN", "TRI", "TUN"],
        "Russia": ["MOS", "WAR", "SEV", "SWE"],
        "Turkey": ["ANK", "CON", "SMY", "BUL", "GRE", "RUM"],
    },
)

POSITIONS = (OPENING, MIDGAME)


# --------------------------------------------------------------------------
# Timing helpers.


@dataclass(frozen=True)
class Figures:
    times: list[float]  # seconds, one per repetition

    @property
    def median(self) -> float:
        return statistics.median(self.times)

    @property
    def p90(self) -> float:
        if len(self.times) < 2:
            return self.times[0]
        return statistics.quantiles(self.times, n=10, method="inclusive")[-1]

    @property
    def minimum(self) -> float:
        return min(self.times)

    def as_json(self) -> dict[str, Any]:
        return {
            "median_ms": round(self.median * 1e3, 4),
            "p90_ms": round(self.p90 * 1e3, 4),
            "min_ms": round(self.minimum * 1e3, 4),
            "runs": len(self.times),
        }


def time_calls(call: Callable[[], Any], repeat: int, warmup: int) -> Figures:
    """Time ``call()`` ``repeat`` times after ``warmup`` untimed calls."""
    for _ in range(warmup):
        call()
    gc.collect()
    times = []
    clock = time.perf_counter
    for _ in range(repeat):
        start = clock()
        call()
        times.append(clock() - start)
    return Figures(times)


def time_with_setup(setup: Callable[[], Any], timed: Callable[[Any], Any], repeat: int, warmup: int) -> Figures:
    """Like ``time_calls`` but ``setup()`` runs untimed before each timed call."""
    for _ in range(warmup):
        timed(setup())
    gc.collect()
    times = []
    clock = time.perf_counter
    for _ in range(repeat):
        state = setup()
        start = clock()
        timed(state)
        times.append(clock() - start)
    return Figures(times)


Series = dict[str, tuple[Callable[[], Any], Callable[[Any], Any]]]  # name -> (setup, timed)


def least_cpu(series: Series, batches: int, size: int) -> dict[str, float]:
    """The least CPU time (``time.process_time``) per call of each series
    over ``batches`` batches of ``size`` calls of ``timed(state)``, each
    state made by ``setup()`` before its batch's clock starts.  CPU time
    rather than wall time, the least batch rather than the median, and the
    series' batches taking turns, because other processes on a shared
    machine stretch wall times and come and go.  Each batch starts with one
    untimed call, so that no series pays for the caches the other one left
    cold; the collector runs once at the start only (a collection before
    every batch slows the calls after it)."""
    best = {name: float("inf") for name in series}
    clock = time.process_time
    gc.collect()
    for _ in range(batches):
        for name, (setup, timed) in series.items():
            states = [setup() for _ in range(size + 1)]
            timed(states.pop())
            start = clock()
            for state in states:
                timed(state)
            best[name] = min(best[name], (clock() - start) / size)
    return best


def fresh_orders(lines: dict[str, list[Any]]) -> dict[str, list[Any]]:
    """Copies of parsed orders as new order values: an order keeps its
    canonical text once made (``kept_text``), and the parser and the
    judge hand out the same values again, so the timed series reuse them;
    this one shows the cost when every text is made anew."""
    return {
        power: [replace(line, order=None if line.order is None else replace(line.order)) for line in power_lines]
        for power, power_lines in lines.items()
    }


GOAL = 10.0  # issue 20: the core on parsed orders at least 10x MILA's process()


# --------------------------------------------------------------------------
# Outcomes, to compare the engines: (power, unit) pairs left on the board
# and the units dislodged, all in upper case.


Outcome = tuple[frozenset[tuple[str, str]], frozenset[tuple[str, str]]]


def our_outcome(output: dict[str, Any]) -> Outcome:
    units = frozenset((p.upper(), u.upper()) for p, us in output["units"].items() for u in us)
    dislodged = frozenset((p.upper(), d["unit"].upper()) for p, ds in output["dislodged"].items() for d in ds)
    return units, dislodged


def difference(mine: Outcome, other: Outcome) -> str:
    """What ``mine`` has that ``other`` lacks, e.g. ``Rus A RUM; dislodged: -``."""

    def listing(items: frozenset[tuple[str, str]]) -> str:
        return ", ".join(f"{p[:3].title()} {u}" for p, u in sorted(items)) or "-"

    return f"{listing(mine[0] - other[0])}; dislodged: {listing(mine[1] - other[1])}"


# --------------------------------------------------------------------------
# The MILA engine (optional).


def import_diplomacy(skip: bool) -> tuple[Any, str | None]:
    """The ``diplomacy`` module, or None and why not."""
    if skip:
        return None, "--no-compare given: treating package 'diplomacy' as not installed"
    try:
        import diplomacy  # type: ignore[import-not-found]
    except ModuleNotFoundError as error:
        if error.name == "diplomacy":
            return None, "package 'diplomacy' is not installed"
        return None, f"package 'diplomacy' cannot be imported: {error}"
    except Exception as error:  # a broken install: report it, don't die
        return None, f"package 'diplomacy' cannot be imported: {type(error).__name__}: {error}"
    return diplomacy, None


def mila_setup(diplomacy: Any, position: Position) -> Any:
    game = diplomacy.Game()
    game.clear_units()
    for power, rows in position.rows.items():
        game.set_units(power.upper(), [unit for unit, _, _ in rows], reset=True)
    if position.centres is not None:
        game.clear_centers()
        for power, centres in position.centres.items():
            game.set_centers(power.upper(), list(centres), reset=True)
    game.set_current_phase(position.phase)
    return game


def mila_orders(position: Position) -> list[tuple[str, list[str]]]:
    return [(power.upper(), [mila for _, _, mila in rows]) for power, rows in position.rows.items()]


def mila_process(game: Any, orders: list[tuple[str, list[str]]]) -> None:
    for power, texts in orders:
        game.set_orders(power, texts)
    game.process()


def mila_ordered(diplomacy: Any, position: Position, orders: list[tuple[str, list[str]]]) -> Any:
    """A MILA game set up with the position and every power's orders set."""
    game = mila_setup(diplomacy, position)
    for power, texts in orders:
        game.set_orders(power, texts)
    return game


def mila_outcome(diplomacy: Any, position: Position) -> Outcome:
    game = mila_setup(diplomacy, position)
    for power, texts in mila_orders(position):
        game.set_orders(power, texts)
    if game.error:
        raise RuntimeError(f"diplomacy rejected orders: {game.error}")
    game.process()
    results = game.result_history[game.map.phase_abbr(game.map.phase_long(position.phase))]
    dislodged_units = {unit for unit, res in results.items() if any(str(r) == "dislodged" for r in res)}
    owners = {unit: power for power, rows in position.rows.items() for unit, _, _ in rows}
    dislodged = frozenset((owners[u].upper(), u) for u in dislodged_units)
    units = frozenset(
        (power, unit) for power, listed in game.get_units().items() for unit in listed if not unit.startswith("*")
    )
    return units, dislodged


# --------------------------------------------------------------------------


def fmt_ms(seconds: float) -> str:
    return f"{seconds * 1e3:9.3f} ms"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--repeat", type=int, default=1000, help="timed runs per engine and position (default 1000, ~15 s in all)"
    )
    parser.add_argument("--warmup", type=int, default=10, help="untimed runs before timing (default 10)")
    parser.add_argument("--json", action="store_true", help="also print the figures as one JSON line")
    parser.add_argument(
        "--no-compare", action="store_true", help="do not time the 'diplomacy' package (as if not installed)"
    )
    parser.add_argument(
        "--batches", type=int, default=25,
        help="CPU-time batches for the core-alone ratio (default 25 batches of 20 calls; the least counts)",
    )
    args = parser.parse_args(argv)
    if args.repeat < 1 or args.warmup < 0 or args.batches < 1:
        parser.error("--repeat and --batches must be >= 1 and --warmup >= 0")

    cases = {p.name: p.case() for p in POSITIONS}

    # The first call of a fresh process loads the map and builds the parser.
    start = time.perf_counter()
    first_output = run_case(cases[OPENING.name])
    first_call = time.perf_counter() - start
    outputs = {OPENING.name: first_output, MIDGAME.name: run_case(cases[MIDGAME.name])}
    for name, output in outputs.items():
        bad = [o for o in output["orders"] if not o["valid"] or not o["text"]]
        if bad:
            print(f"warning: {name}: orders not taken as written: {bad}")

    print(
        f"adjudicator movement-phase benchmark: Python {platform.python_version()} "
        f"({platform.python_implementation()}), {args.repeat} timed runs after {args.warmup} warm-up runs each"
    )
    print(describe_core())
    print(
        f"fresh process: import adjudicator {_IMPORT_SECONDS * 1e3:.1f} ms, "
        f"first run_case (map + grammar loading) {first_call * 1e3:.1f} ms"
    )

    figures: dict[str, dict[str, Figures]] = {}
    cpu_series: dict[str, Series] = {}  # position -> {"resolve"/"process": (setup, timed)}
    for position in POSITIONS:
        case = cases[position.name]
        parsed = case_from_json(case)
        lines = parse_power_orders(parsed.game_map, parsed.orders, parsed.position.phase.kind)
        cpu_series[position.name] = {
            "resolve": (
                lambda: None,
                lambda _, c=parsed, lines=lines: adjudicate_parsed(c.game_map, c.position, lines),
            ),
            "fresh": (
                lambda lines=lines: fresh_orders(lines),
                lambda fresh, c=parsed: adjudicate_parsed(c.game_map, c.position, fresh),
            ),
        }
        figures[position.name] = {
            "run_case": time_calls(lambda case=case: run_case(case), args.repeat, args.warmup),
            "core": time_calls(
                lambda c=parsed: adjudicate(c.game_map, c.position, c.orders), args.repeat, args.warmup
            ),
            "resolve": time_calls(
                lambda c=parsed, lines=parse_power_orders(parsed.game_map, parsed.orders, parsed.position.phase.kind):
                adjudicate_parsed(c.game_map, c.position, lines), args.repeat, args.warmup
            ),
        }

    # Peak memory of one mid-game run_case (caches already warm), untimed.
    gc.collect()
    tracemalloc.start()
    tracemalloc.reset_peak()
    run_case(cases[MIDGAME.name])
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()

    diplomacy, why_not = import_diplomacy(args.no_compare)
    mila_version = None
    agreement: dict[str, bool | None] = {}
    warnings: list[str] = []
    if diplomacy is not None:
        mila_version = getattr(diplomacy, "__version__", None)
        if mila_version is None:
            try:
                from importlib.metadata import version

                mila_version = version("diplomacy")
            except Exception:
                mila_version = "?"
        for position in POSITIONS:
            ours = our_outcome(outputs[position.name])
            try:
                theirs = mila_outcome(diplomacy, position)
            except Exception as error:
                agreement[position.name] = None
                warnings.append(f"warning: {position.name}: diplomacy failed, not timed: {error!r}")
                continue
            agreement[position.name] = ours == theirs
            if ours != theirs:
                warnings.append(
                    f"warning: engines disagree on the {position.name} ({position.phase}):\n"
                    f"  only in adjudicator's result: {difference(ours, theirs)}\n"
                    f"  only in diplomacy's result:   {difference(theirs, ours)}"
                )
            orders = mila_orders(position)
            figures[position.name]["diplomacy"] = time_with_setup(
                lambda position=position: mila_setup(diplomacy, position),
                lambda game, orders=orders: mila_process(game, orders),
                args.repeat,
                args.warmup,
            )
            figures[position.name]["process"] = time_with_setup(
                lambda position=position, orders=orders: mila_ordered(diplomacy, position, orders),
                lambda game: game.process(),
                args.repeat,
                args.warmup,
            )
            cpu_series[position.name]["process"] = (
                lambda position=position, orders=orders: mila_ordered(diplomacy, position, orders),
                lambda game: game.process(),
            )
    cpu = {name: least_cpu(series, args.batches, 20) for name, series in cpu_series.items()}

    labels = {
        "run_case": "adjudicator run_case (validate + parse + adjudicate + output)",
        "core": "adjudicator core adjudicate() (parse + adjudicate)",
        "resolve": "adjudicator core on parsed orders (legality + resolution)",
        "diplomacy": f"diplomacy {mila_version} set_orders + process()",
        "process": f"diplomacy {mila_version} process() alone",
    }
    print()
    print(f"{'position':<30} {'engine':<63} {'median':>12} {'p90':>12} {'min':>12} {'runs':>6}")
    for position in POSITIONS:
        title = f"{position.name} {position.phase} ({position.unit_count} units)"
        for key, fig in figures[position.name].items():
            print(
                f"{title:<30} {labels[key]:<63} {fmt_ms(fig.median):>12} {fmt_ms(fig.p90):>12} "
                f"{fmt_ms(fig.minimum):>12} {len(fig.times):>6}"
            )
            title = ""
    print()
    print(f"peak memory (tracemalloc) of one midgame run_case: {peak / 1024:.1f} KiB")
    print(
        f"least CPU per call ({args.batches} batches of 20): "
        + ", ".join(
            f"{name} core on parsed orders {times['resolve'] * 1e6:.0f} us"
            f" (on fresh order values {times['fresh'] * 1e6:.0f} us)"
            + (f", diplomacy process() {times['process'] * 1e6:.0f} us" if "process" in times else "")
            for name, times in cpu.items()
        )
    )

    speedups: dict[str, float] | None = None
    if diplomacy is not None:
        print(
            "outcomes agree with diplomacy: "
            + ", ".join(
                f"{name} {'yes' if ok else ('NO' if ok is False else 'not checked')}" for name, ok in agreement.items()
            )
        )
        for line in warnings:
            print(line)
        speedups = {
            p.name: figures[p.name]["diplomacy"].median / figures[p.name]["run_case"].median
            for p in POSITIONS
            if "diplomacy" in figures[p.name]
        }
    else:
        print(f"{why_not}; to compare with the MILA engine: {INSTALL_HINT}")

    ratios = {name: times["process"] / times["resolve"] for name, times in cpu.items() if "process" in times}
    if args.json:
        report = {
            "python": platform.python_version(),
            "core_compiled": list(compiled_modules()),
            "repeat": args.repeat,
            "warmup": args.warmup,
            "import_ms": round(_IMPORT_SECONDS * 1e3, 3),
            "first_call_ms": round(first_call * 1e3, 3),
            "midgame_peak_kib": round(peak / 1024, 1),
            "positions": {
                p.name: {
                    "phase": p.phase,
                    "units": p.unit_count,
                    **{key: fig.as_json() for key, fig in figures[p.name].items()},
                    "cpu_us": {key: round(value * 1e6, 1) for key, value in cpu[p.name].items()},
                }
                for p in POSITIONS
            },
            "diplomacy": None
            if diplomacy is None
            else {
                "version": mila_version,
                "agree": agreement,
                "speedup": None if speedups is None else {k: round(v, 2) for k, v in speedups.items()},
                "core_speedup_cpu": {k: round(v, 2) for k, v in ratios.items()},
                "core_goal": GOAL,
                "core_goal_met": {k: v >= GOAL for k, v in ratios.items()},
            },
        }
        print(json.dumps(report, sort_keys=True))

    if speedups is not None and all(p.name in speedups for p in POSITIONS):
        core = {p.name: figures[p.name]["process"].median / figures[p.name]["resolve"].median for p in POSITIONS}
        print(f"core alone vs diplomacy process(): opening {core['opening']:.1f}x, midgame {core['midgame']:.1f}x"
              " (goal: 10x)")
        for name, ratio in ratios.items():
            verdict = "met" if ratio >= GOAL else f"NOT met (needs {GOAL / ratio:.2f}x more)"
            print(f"goal core >= {GOAL:.0f}x process() on the {name} (least CPU): {ratio:.1f}x, {verdict}")
        print(f"speedup vs diplomacy: opening {speedups['opening']:.1f}x, midgame {speedups['midgame']:.1f}x")
    elif diplomacy is not None:
        print("speedup vs diplomacy: not measured (diplomacy failed on a position)")
    elif why_not is not None and "cannot be imported" in why_not:
        print("speedup vs diplomacy: not measured (package 'diplomacy' cannot be imported)")
    else:
        print("speedup vs diplomacy: not measured (package 'diplomacy' not installed)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
