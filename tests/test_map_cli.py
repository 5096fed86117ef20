"""`adjudicator map check` and `adjudicator map show`."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from adjudicator.resources import data_dir

ROOT = Path(__file__).resolve().parent.parent
MAPS = sorted(p.stem for p in data_dir("maps").glob("*.toml"))


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "adjudicator", "map", *args], capture_output=True, text=True, cwd=ROOT, timeout=60
    )


@pytest.mark.parametrize("name", MAPS)
def test_map_check_passes_for_every_map(name: str) -> None:
    done = run("check", name)
    assert done.returncode == 0, done.stdout
    assert done.stdout.startswith(f"{name}: OK (")


def test_map_check_reports_every_problem_and_exits_1(tmp_path: Path) -> None:
    broken = (data_dir("maps") / "standard.toml").read_text(encoding="utf-8")
    broken = broken.replace('army = ["GAL", "MUN", "SIL", "TYR", "VIE"]', 'army = ["GAL", "MUN", "TYR", "VIE"]', 1)
    broken = broken.replace("supply_centres = 34", "supply_centres = 35", 1)
    path = tmp_path / "broken.toml"
    path.write_text(broken, encoding="utf-8")
    done = run("check", str(path))
    assert done.returncode == 1
    assert "army adjacency SIL -> BOH is not listed back" in done.stdout
    assert "34 supply centres, but the variant declares 35" in done.stdout
    assert "2 problem(s)" in done.stdout


def test_map_check_unloadable_file_exits_1(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text("format = 1\n[variant]\nname = 'x'\n", encoding="utf-8")
    done = run("check", str(path))
    assert done.returncode == 1 and "cannot be loaded" in done.stdout


def test_map_show_lists_a_province() -> None:
    done = run("show", "standard", "St Petersburg")
    assert done.returncode == 0
    assert done.stdout.splitlines() == [
        "STP  St Petersburg / Sankt Petersburg",
        "  terrain: coastal, supply centre (home of Russia)",
        "  also written: Saint Petersburg, StPetersburg, St-Petersburg, Sankt-Petersburg, Petersburg, StPete, St Pete",
        "  seat: 63.0000 N, 30.5000 E",
        "  army to: FIN, LVN, MOS, NWY",
        "  fleet on STP/NC to: BAR, NWY",
        "  fleet on STP/SC to: BOT, FIN, LVN",
    ]


def test_map_show_whole_map_and_unknown_province() -> None:
    whole = run("show", "standard")
    assert whole.returncode == 0 and "75 provinces, 34 supply centres, 18 to win" in whole.stdout
    assert whole.stdout.count("\n\n") == 75
    unknown = run("show", "standard", "Atlantis")
    assert unknown.returncode == 2 and "no province 'Atlantis'" in unknown.stderr
