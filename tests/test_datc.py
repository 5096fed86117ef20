"""Every DATC v3.0 case of sections 6.A-6.J, read from tests/datc/*.json.

Each case is a list of phases; a phase gives the adjudicator's JSON input
(later phases inherit phase, units, dislodged units, standoffs and centres
from the previous output) and what the output must contain.  The format is
described in tests/datc/README.md.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from adjudicator.games.diplomacy.contract import run_case

DATC_DIR = Path(__file__).parent / "datc"


def _cases() -> list[Any]:
    params = []
    for path in sorted(DATC_DIR.glob("6*.json")):
        for case in json.loads(path.read_text(encoding="utf-8"))["cases"]:
            params.append(pytest.param(case, id=case["id"]))
    return params


def _carry_over(previous: dict[str, Any], given: dict[str, Any]) -> dict[str, Any]:
    case = {
        "variant": "standard",
        "phase": previous["next_phase"],
        "units": previous["units"],
        "centers": previous["centers"],
        "standoffs": previous["standoffs"],
        "dislodged": {
            power: [d for d in entries if d["retreats"]]
            for power, entries in previous["dislodged"].items()
            if any(d["retreats"] for d in entries)
        },
    }
    case.update(given)
    return case


def _grouped(entries: dict[str, list[Any]], key: Any = None) -> dict[str, list[str]]:
    grouped = {}
    for power, items in entries.items():
        units = sorted(item if key is None else key(item) for item in items)
        if units:
            grouped[power] = units
    return grouped


def _check(expect: dict[str, Any], output: dict[str, Any]) -> None:
    listing = "\n".join(
        f"  {o['power']}: {o['order'] or o['text']!r} -> {o['result']} {o['reason']}" for o in output["orders"]
    )
    unused = list(output["orders"])
    for wanted in expect.get("orders", []):
        matches = [
            o
            for o in unused
            if o["power"] == wanted["power"]
            and o["order"] == wanted["order"]
            and ("text" not in wanted or o["text"] == wanted["text"])
        ]
        assert matches, f"no output entry for {wanted['power']}: {wanted['order']}\noutput:\n{listing}"
        found = matches[0]
        unused.remove(found)
        if "result" in wanted:
            assert found["result"] == wanted["result"], (
                f"{wanted['power']}: {wanted['order']} should be {wanted['result']}, "
                f"is {found['result']} ({found['reason']})\noutput:\n{listing}"
            )
    if "dislodged" in expect:
        assert _grouped(output["dislodged"], key=lambda d: d["unit"]) == _grouped(expect["dislodged"]), listing
    if "units" in expect:
        assert _grouped(output["units"]) == _grouped(expect["units"]), listing


def play(case: dict[str, Any]) -> list[dict[str, Any]]:
    """The outputs of a case's phases, each phase's input carried over from
    the output before it."""
    outputs: list[dict[str, Any]] = []
    for step in case["phases"]:
        given = step["input"]
        outputs.append(run_case({"variant": "standard", **given} if not outputs else _carry_over(outputs[-1], given)))
    return outputs


@pytest.mark.parametrize("case", _cases())
def test_datc_case(case: dict[str, Any]) -> None:
    for step, output in zip(case["phases"], play(case), strict=True):
        _check(step.get("expect", {}), output)


def test_every_datc_case_is_present() -> None:
    """Sections 6.A-6.J of DATC v3.0 have 12+15+9+34+15+25+20+16+7+11 cases."""
    sizes = {"A": 12, "B": 15, "C": 9, "D": 34, "E": 15, "F": 25, "G": 20, "H": 16, "I": 7, "J": 11}
    ids = {param.id for param in _cases()}
    for section, count in sizes.items():
        for number in range(1, count + 1):
            assert f"6.{section}.{number}" in ids, f"DATC 6.{section}.{number} is missing"
