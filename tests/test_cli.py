"""The `adjudicator adjudicate` command and its JSON contract (docs/cli.md)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from adjudicator.service.store import Store

ROOT = Path(__file__).resolve().parent.parent


def run_cli(case: Any, *args: str) -> subprocess.CompletedProcess[str]:
    text = case if isinstance(case, str) else json.dumps(case)
    return subprocess.run(
        [sys.executable, "-m", "adjudicator", "adjudicate", *args],
        input=text,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )


def adjudicate(case: Any) -> dict[str, Any]:
    done = run_cli(case)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def entry(output: dict[str, Any], order: str) -> dict[str, Any]:
    return next(o for o in output["orders"] if o["order"] == order)


def test_movement_phase_contract() -> None:
    output = adjudicate(
        {
            "variant": "standard",
            "phase": "S1901M",
            "units": {"Austria": ["A VIE", "A BUD", "F TRI"], "Russia": ["A GAL"]},
            "orders": {"Austria": ["A Vie - Gal", "A Bud S A Vie - Gal"], "russia": ["A gal h"]},
        }
    )
    assert output["phase"] == "S1901M"
    assert output["next_phase"] == "S1901R"
    assert entry(output, "A VIE - GAL") == {
        "power": "Austria",
        "text": "A Vie - Gal",
        "order": "A VIE - GAL",
        "valid": True,
        "result": "succeeds",
        "reason": "",
    }
    assert entry(output, "A BUD S A VIE - GAL")["result"] == "succeeds"
    implied = entry(output, "F TRI H")
    assert implied["text"] == "" and implied["result"] == "succeeds"
    assert entry(output, "A GAL H")["result"] == "fails"
    assert output["units"] == {"Austria": ["A GAL", "A BUD", "F TRI"]}
    assert output["dislodged"] == {
        "Russia": [{"unit": "A GAL", "attacker_from": "VIE", "retreats": ["BOH", "RUM", "SIL", "UKR", "WAR"]}]
    }
    assert output["standoffs"] == []
    assert output["centers"]["Austria"] == ["BUD", "TRI", "VIE"]
    assert output["winner"] is None


def test_opening_example_runs_from_the_docs() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "adjudicator", "adjudicate", "--input", "docs/examples/opening.json"],
        capture_output=True, text=True, cwd=ROOT, timeout=60,
    )
    assert done.returncode == 0, done.stderr
    output = json.loads(done.stdout)
    assert output["standoffs"] == ["BLA", "GAL"]
    assert output["units"]["France"] == ["F MAO", "A BUR", "A MAR"]
    assert len(output["orders"]) == 22


def test_retreat_phase_with_computed_retreats_and_standoffs() -> None:
    output = adjudicate(
        {
            "phase": "F1901R",
            "units": {"Austria": ["A GAL"], "Russia": ["A UKR"]},
            "dislodged": {"Russia": [{"unit": "A GAL", "attacker_from": "VIE"}]},
            "standoffs": ["WAR"],
            "orders": {"Russia": ["A Gal - War"]},
        }
    )
    # WAR is a standoff province: the retreat is illegal and the unit is disbanded.
    retreat = next(o for o in output["orders"] if o["text"] == "A Gal - War")
    assert retreat["result"] == "invalid" and "may retreat to: BOH, BUD, RUM, SIL)" in retreat["reason"]
    assert entry(output, "A GAL DISBAND")["result"] == "succeeds"
    assert output["units"] == {"Austria": ["A GAL"], "Russia": ["A UKR"]}
    assert output["next_phase"] == "W1901A"


def test_retreat_phase_with_given_retreats() -> None:
    output = adjudicate(
        {
            "phase": "S1902R",
            "units": {"Germany": ["A MUN"]},
            "dislodged": {"France": [{"unit": "A BUR", "attacker_from": "MUN", "retreats": ["PAR"]}]},
            "orders": {"France": ["A Bur - Par"]},
        }
    )
    assert entry(output, "A BUR - PAR")["result"] == "succeeds"
    assert output["units"]["France"] == ["A PAR"]
    assert output["next_phase"] == "F1902M"


def test_adjustment_phase_builds_and_civil_disorder() -> None:
    output = adjudicate(
        {
            "phase": "W1901A",
            "units": {"Russia": ["A WAR", "F SEV"], "Germany": ["A MUN", "A KIE", "A BER", "A DEN"]},
            "centers": {"Russia": ["WAR", "SEV", "MOS", "STP"], "Germany": ["MUN", "KIE", "BER"]},
            "orders": {"Russia": ["Build F StP/NC", "Build A Mos", "Build A Sev"]},
        }
    )
    assert entry(output, "BUILD F STP/NC")["result"] == "succeeds"
    assert entry(output, "BUILD A MOS")["result"] == "succeeds"
    invalid = next(o for o in output["orders"] if o["text"] == "Build A Sev")
    assert invalid["result"] == "invalid" and "occupied" in invalid["reason"]
    removal = [o for o in output["orders"] if o["power"] == "Germany"]
    assert removal == [
        {"power": "Germany", "text": "", "order": "REMOVE A DEN", "valid": True, "result": "succeeds", "reason": "civil disorder"}
    ]
    assert output["next_phase"] == "S1902M"
    assert sorted(output["units"]["Russia"]) == ["A MOS", "A WAR", "F SEV", "F STP/NC"]


def test_unparsable_order_is_invalid_with_line_and_column() -> None:
    output = adjudicate({"phase": "S1901M", "orders": {"Austria": ["A Vie - Gal", "A Bud -> Sbr"]}})
    bad = next(o for o in output["orders"] if o["text"] == "A Bud -> Sbr")
    assert bad["valid"] is False and bad["result"] == "invalid"
    assert bad["reason"] == "line 2, column 10: unknown province 'Sbr'"


@pytest.mark.parametrize(
    "case, fragment",
    [
        ("{not json", "not valid JSON: line 1, column 2"),
        ({"variant": "atlantis", "phase": "S1901M"}, "variant: unknown variant 'atlantis'"),
        ({"phase": "S1901X"}, "phase: not a phase name"),
        ({"phase": "S1901M", "units": {"Prussia": ["A BER"]}}, "units: unknown power 'Prussia'"),
        ({"phase": "S1901M", "units": {"Austria": ["A NTH"]}}, "units.Austria[0]: an army cannot stand in NTH"),
        ({"phase": "S1901M", "units": {"Russia": ["F STP"]}}, "needs a coast"),
        ({"phase": "S1901M", "units": {"Austria": ["A VIE"], "Germany": ["A VIE"]}}, "VIE already holds"),
        ({"phase": "S1901M", "units": {"Austria": ["Z VIE"]}}, "is not a unit"),
        ({"phase": "S1901M", "centers": {"Austria": ["BOH"]}}, "BOH is not a supply centre"),
        ({"phase": "S1901M", "orders": {"Narnia": ["A Vie H"]}}, "orders: unknown power 'Narnia'"),
        ({"phase": "S1901M", "dislodged": {"Austria": [{"unit": "A VIE"}]}}, "only a retreat phase"),
        ([1, 2], "expected a JSON object"),
    ],
)
def test_malformed_case_exits_2_naming_the_field(case: Any, fragment: str) -> None:
    done = run_cli(case)
    assert done.returncode == 2
    assert done.stdout == ""
    assert fragment in done.stderr


def test_input_file_option(tmp_path: Path) -> None:
    path = tmp_path / "case.json"
    path.write_text(json.dumps({"phase": "S1901M", "orders": {"Italy": ["A Ven - Tyr"]}}), encoding="utf-8")
    done = run_cli("", "--input", str(path))
    assert done.returncode == 0, done.stderr
    assert entry(json.loads(done.stdout), "A VEN - TYR")["result"] == "succeeds"
    missing = run_cli("", "--input", str(tmp_path / "missing.json"))
    assert missing.returncode == 2 and "cannot read" in missing.stderr


def test_config_example_is_valid_and_sets_the_default_variant(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "adjudicator", "--config", str(ROOT / "config.example.toml"), "adjudicate"],
        input=json.dumps({"phase": "S1901M", "orders": {}}), capture_output=True, text=True, cwd=ROOT, timeout=60,
    )
    assert done.returncode == 0, done.stderr
    broken = tmp_path / "broken.toml"
    broken.write_text('[rules]\ndefault_varaint = "standard"\n', encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "adjudicator", "--config", str(broken), "adjudicate"],
        input="{}", capture_output=True, text=True, cwd=ROOT, timeout=60,
    )
    assert done.returncode == 2
    assert "unknown key rules.default_varaint" in done.stderr
    broken.write_text('[rules]\ndefault_variant = "atlantis"\n', encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "adjudicator", "--config", str(broken), "adjudicate"],
        input="{}", capture_output=True, text=True, cwd=ROOT, timeout=60,
    )
    assert done.returncode == 2 and "rules.default_variant: unknown variant 'atlantis'" in done.stderr


def test_receive_stores_a_piped_mail_once(tmp_path: Path) -> None:
    config = tmp_path / "judge.toml"
    config.write_text('[database]\npath = "data/judge.sqlite3"\n', encoding="utf-8")
    mail = b"From: spieler@example.org\nMessage-ID: <r1@example.org>\n\nA Aug H\n"

    def receive(raw: bytes) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run(
            [sys.executable, "-m", "adjudicator", "--config", str(config), "receive"],
            input=raw, capture_output=True, cwd=ROOT, timeout=60,
        )

    missing = receive(mail)  # no database yet: the operator's mistake, so the mail system tries again
    assert missing.returncode == 75 and b"no database at" in missing.stderr
    Store(tmp_path / "data" / "judge.sqlite3").close()
    first = receive(mail)
    assert first.returncode == 0 and first.stdout.decode().startswith("stored ")
    again = receive(mail)
    assert again.returncode == 0 and again.stdout.decode().startswith("already stored ")
    assert (tmp_path / "data" / "judge.sqlite3").exists()
    assert receive(b"").returncode == 2
    config.write_text(f'[database]\npath = "{config}/x.sqlite3"\n', encoding="utf-8")
    broken = receive(mail)
    assert broken.returncode == 75 and b"database" in broken.stderr
