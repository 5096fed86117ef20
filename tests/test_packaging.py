"""The installed package finds its grammars, maps and templates from any
working directory (they travel inside the wheel), and its rules core,
compiled with mypyc (hatch_build.py), plays the DATC and the random phases
as the source does."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import adjudicator
from adjudicator.games.diplomacy.core.compiled import compiled_modules

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def wheel_and_site(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A wheel built from the checkout (its core compiled: a build that
    cannot compile fails here) and a folder it is installed in."""
    tmp_path = tmp_path_factory.mktemp("wheel")
    wheels = tmp_path / "wheels"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(wheels), str(ROOT)],
        check=True,
        timeout=600,
        env={**os.environ, "ADJUDICATOR_REQUIRE_COMPILED": "1"},
    )
    (wheel,) = wheels.glob("pbem_adjudicator-*.whl")
    site = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "--quiet", "--target", str(site), str(wheel)],
        check=True,
        timeout=300,
    )
    return wheel, site


def test_wheel_carries_data_and_runs_from_elsewhere(wheel_and_site: tuple[Path, Path], tmp_path: Path) -> None:
    wheel, site = wheel_and_site
    names = zipfile.ZipFile(wheel).namelist()
    assert "adjudicator/_data/grammars/diplomacy.lark" in names
    assert "adjudicator/_data/maps/standard.toml" in names
    assert "adjudicator/_data/grammars/commands.lark" in names
    assert "adjudicator/_data/templates/texts.toml" in names
    assert "adjudicator/_data/templates/diplomacy_report.html.j2" in names

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


def _compiled_by_the_build() -> tuple[str, ...]:
    """The module names of ``hatch_build.COMPILED``, read from the file (the
    hook itself imports hatchling, which only the build environment has)."""
    tree = ast.parse((ROOT / "hatch_build.py").read_text(encoding="utf-8"))
    (paths,) = [ast.literal_eval(node.value) for node in tree.body if isinstance(node, ast.Assign)
                and any(isinstance(t, ast.Name) and t.id == "COMPILED" for t in node.targets)]
    return tuple(sorted(Path(path).stem for path in paths))


COMPILED = _compiled_by_the_build()

# Run in a child process from the checkout, the installed wheel first on
# the path: check that the package is the installed one and its core's
# modules the compiled ones, then run the given test files with the
# checkout's tests appended to the path (so that they import the installed
# package, not the source).
_PLAY_COMPILED = """
import sys
sys.path.insert(0, sys.argv[1])
import adjudicator
from adjudicator.games.diplomacy.core.compiled import compiled_modules
assert adjudicator.__file__.startswith(sys.argv[1]), adjudicator.__file__
assert compiled_modules() == tuple(sys.argv[2].split(",")), compiled_modules()
import pytest
raise SystemExit(pytest.main(["-q", "-p", "no:cacheprovider", "-p", "no:xdist", "--import-mode=append", *sys.argv[3:]]))
"""


def test_the_compiled_core_plays_the_datc_and_random_phases_as_the_source(wheel_and_site: tuple[Path, Path]) -> None:
    _, site = wheel_and_site
    names = zipfile.ZipFile(wheel_and_site[0]).namelist()
    for name in COMPILED:
        assert any(n.startswith(f"adjudicator/games/diplomacy/core/{name}.cpython-") for n in names), name
    files = ["tests/test_datc.py", "tests/test_random_phases.py", "tests/test_game_30jk.py", "tests/test_core_shortcuts.py"]
    done = subprocess.run(
        [sys.executable, "-c", _PLAY_COMPILED, str(site), ",".join(COMPILED), *files],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
    assert " passed" in done.stdout and " failed" not in done.stdout


def test_the_checkout_runs_the_core_as_source() -> None:
    # No extension module beside the source (an in-place build would hide
    # every later edit of the module it compiled).
    assert Path(adjudicator.__file__).resolve().parent.parent == ROOT
    assert compiled_modules() == ()
