"""A scripted 30JK game from the 1618 start to 1623, phase by phase through
`adjudicator adjudicate`, with a double move, a transform, builds, a
religious-warfare disbandment, a change of confession, a defection and the
defector's incapacitated year.  Each phase's outcome is asserted."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

# phase -> (orders, expectations)
SCRIPT: list[tuple[str, dict[str, list[str]], dict[str, Any]]] = [
    (
        "1618M",
        {
            "Sachsen": ["F Tor - Wit - Anh", "A Lei - EbMa", "A Mei - Lei"],
            "Österreich": ["F Lin T A", "A Pra - Pil"],
            "Bayern": ["A FAns - RsNu"],
        },
        {
            "next_phase": "1619M",
            "succeed": ["F Tor - Wit - Anh", "F Lin T A", "A FAns - RsNu", "A Pra - Pil"],
            "religious_warfare": [{"unit": "A NOpf", "power": "Pfalz", "outcome": "disbanded"}],
            "units": {"Sachsen": ["A Lei", "A EbMa", "F Anh"], "Pfalz": ["A Mai", "A Hei"]},
            "has_unit": {"Österreich": "A Lin"},
        },
    ),
    (
        "1619M",
        {"Sachsen": ["A Lei - Erf"], "Bayern": ["A RsNu H"]},
        {
            "next_phase": "1619A",
            "centres": {"Bayern": ["Aug", "BFre", "FAns", "RsNu"], "Sachsen": ["Anh", "EbMa", "Lei", "Mei", "Tor"]},
        },
    ),
    (
        "1619A",
        {"Bayern": ["Build A FAns"], "Sachsen": ["Build A Mei", "Baue F Tor"], "Pfalz": ["waive"]},
        {"next_phase": "1620M", "succeed": ["Build A FAns", "Build A Mei", "Baue F Tor", "waive"]},
    ),
    (
        "1620M",
        {"Braunschweig-Lüneburg": ["Konfession katholisch"]},
        {
            "next_phase": "1621M",
            "succeed": ["Konfession katholisch"],
            "religious_warfare": [
                {"unit": "A Bra", "power": "Braunschweig-Lüneburg", "outcome": "defected", "to": "Sachsen"}
            ],
            "incapacitated": ["A Bra"],
            "confession": ("Braunschweig-Lüneburg", {"state": "catholic", "until": None}),
            "units": {"Braunschweig-Lüneburg": ["A NLHe", "F Lun"]},
            "has_unit": {"Sachsen": "A Bra"},
        },
    ),
    (
        "1621M",
        {"Sachsen": ["A Bra - Alt"]},
        {
            "next_phase": "1621A",
            "invalid": ["A Bra - Alt"],
            "religious_warfare": [],
            "incapacitated": [],
            "has_unit": {"Sachsen": "A Bra"},
            "centres": {"Sachsen": ["Anh", "Bra", "EbMa", "Lei", "Mei", "Tor"]},
        },
    ),
    ("1621A", {}, {"next_phase": "1622M"}),
    (
        "1622M",
        {},
        {
            "next_phase": "1623M",
            "religious_warfare": [
                {"unit": "A NLHe", "power": "Braunschweig-Lüneburg", "outcome": "disbanded"},
                {"unit": "F Lun", "power": "Braunschweig-Lüneburg", "outcome": "disbanded"},
            ],
        },
    ),
    ("1623M", {}, {"next_phase": "1623A", "quiet_years": 1}),  # no owner changed since 1621
    ("1623A", {}, {"next_phase": "1624M"}),
]


def _adjudicate(case: dict[str, Any]) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-m", "adjudicator", "adjudicate"],
        input=json.dumps(case), capture_output=True, text=True, cwd=ROOT, timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def _following(output: dict[str, Any]) -> dict[str, Any]:
    return {
        "variant": "30jk",
        "phase": output["next_phase"],
        "units": output["units"],
        "centers": output["centers"],
        "confessions": output["confessions"],
        "incapacitated": output["incapacitated"],
        "quiet_years": output["quiet_years"],
    }


def test_scripted_game_1618_to_1623() -> None:
    case: dict[str, Any] = {"variant": "30jk", "phase": "1618M"}
    for phase, orders, expect in SCRIPT:
        assert case["phase"] == phase
        output = _adjudicate({**case, "orders": orders})
        results = {o["text"]: o for o in output["orders"] if o["text"]}
        assert output["next_phase"] == expect["next_phase"], phase
        for text in expect.get("succeed", []):
            assert results[text]["result"] == "succeeds", (phase, results[text])
        for text in expect.get("invalid", []):
            assert results[text]["result"] == "invalid", (phase, results[text])
        if "religious_warfare" in expect:
            assert output["religious_warfare"] == expect["religious_warfare"], phase
        if "incapacitated" in expect:
            assert output["incapacitated"] == expect["incapacitated"], phase
        for power, units in expect.get("units", {}).items():
            assert output["units"][power] == units, (phase, power)
        for power, unit in expect.get("has_unit", {}).items():
            assert unit in output["units"][power], (phase, power)
        for power, centres in expect.get("centres", {}).items():
            assert output["centers"][power] == centres, (phase, power)
        if "confession" in expect:
            power, confession = expect["confession"]
            assert output["confessions"][power] == confession, phase
        if "quiet_years" in expect:
            assert output["quiet_years"] == expect["quiet_years"], phase
        assert output["winner"] is None and output["draw"] is None
        case = _following(output)
    assert case["phase"] == "1624M"
    assert "Braunschweig-Lüneburg" not in case["units"]
    assert case["centers"]["Sachsen"] == ["Anh", "Bra", "EbMa", "Lei", "Mei", "Tor"]
