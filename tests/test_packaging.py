"""The installed package finds its grammars, maps and templates from any
working directory (they travel inside the wheel)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_wheel_carries_data_and_runs_from_elsewhere(tmp_path: Path) -> None:
    wheels = tmp_path / "wheels"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(wheels), str(ROOT)],
        check=True,
        timeout=300,
    )
    (wheel,) = wheels.glob("pbem_adjudicator-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "adjudicator/_data/grammars/diplomacy.lark" in names
    assert "adjudicator/_data/maps/standard.toml" in names
    assert "adjudicator/_data/grammars/commands.lark" in names
    assert "adjudicator/_data/templates/texts.toml" in names
    assert "adjudicator/_data/templates/diplomacy_report.html.j2" in names

    site = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "--quiet", "--target", str(site), str(wheel)],
        check=True,
        timeout=300,
    )
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {**os.environ, "PYTHONPATH": str(site)}
    case = json.dumps({"phase": "S1901M", "orders": {"Austria": ["A Vie - Gal"]}})
    done = subprocess.run(
        [sys.executable, "-m", "adjudicator", "adjudicate"],
        input=case, capture_output=True, text=True, cwd=elsewhere, env=env, timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["units"]["Austria"][0] == "A GAL"
    where = subprocess.run(
        [sys.executable, "-c", "import adjudicator.resources as r; print(r.data_dir('maps'))"],
        capture_output=True, text=True, cwd=elsewhere, env=env, timeout=60, check=True,
    )
    assert where.stdout.strip().startswith(str(site))

    # The judge itself, from the wheel: a piped sign-on is answered from the packaged templates.
    def judge(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run([sys.executable, "-m", "adjudicator", *args], input=stdin, capture_output=True,
                              cwd=elsewhere, env=env, timeout=60)

    assert judge("game", "create", "spiel1", "--variant", "30jk").returncode == 0
    mail = "From: p@pbem.test\nMessage-ID: <w1@pbem.test>\n\nANMELDEN Bayern spiel1 geheim-123\n".encode()
    assert judge("receive", stdin=mail).returncode == 0
    assert judge("serve", "--once").returncode == 0
    (answer,) = (elsewhere / "var" / "mail" / "sent" / "new").iterdir()
    assert b"Bayern" in answer.read_bytes() and b":: Kind: acknowledgement" in answer.read_bytes()
