"""Commands that neither draw nor serve import none of the heavy modules
(issue 20 point 6): the start-up time itself is printed by
``benchmarks/startup.py``; this test checks, in a fresh interpreter, which
modules the command line loads to build its parser and print ``--help``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

HEAVY = ("PIL", "lark", "jinja2", "apscheduler", "aiosmtplib", "imapclient", "adjudicator.games.diplomacy",
         "adjudicator.games.revolution1848", "adjudicator.games.kreml", "adjudicator.games.liberte",
         "adjudicator.games.pfalz1847", "adjudicator.service.runner", "adjudicator.service.store")

PROBE = """
import contextlib, io, json, sys
import adjudicator.cli
with contextlib.redirect_stdout(io.StringIO()) as out:
    try:
        adjudicator.cli.build_parser().parse_args(sys.argv[1:])
    except SystemExit:
        pass
print(json.dumps({"help": out.getvalue(), "modules": sorted(sys.modules)}))
"""


def loaded(*arguments: str) -> tuple[str, list[str]]:
    """The help text printed and the modules loaded by parsing ``arguments``."""
    done = subprocess.run([sys.executable, "-c", PROBE, *arguments], capture_output=True, cwd=ROOT, timeout=120,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}, check=True)
    data = json.loads(done.stdout)
    return data["help"], data["modules"]


def heavy(modules: list[str]) -> list[str]:
    return [m for m in modules if any(m == h or m.startswith(h + ".") for h in HEAVY)]


def test_help_imports_no_drawing_grammar_template_scheduler_mail_client_or_game() -> None:
    text, modules = loaded("--help")
    assert "play-by-email judge" in text and "serve" in text and "outbox" in text
    assert heavy(modules) == []


def test_the_subcommands_help_imports_none_of_them_either() -> None:
    for arguments in (("game", "--help"), ("db", "--help"), ("demo", "--help"), ("map", "draw", "--help")):
        text, modules = loaded(*arguments)
        assert "usage: adjudicator" in text, arguments
        assert heavy(modules) == [], arguments


def test_the_probe_sees_heavy_modules_when_a_command_loads_them() -> None:
    # The check above could pass by looking at the wrong interpreter: here
    # the same probe, with the drawing imported, must name Pillow.
    done = subprocess.run([sys.executable, "-c", "import adjudicator.games.pictures.png\n" + PROBE, "--help"],
                          capture_output=True, cwd=ROOT, timeout=120,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}, check=True)
    assert "PIL" in heavy(json.loads(done.stdout)["modules"])


def test_looking_at_a_diplomacy_game_loads_no_grammar_or_drawing() -> None:
    # What ``game show`` asks of a game: its module and who must act.
    code = ("import json, sys\nfrom adjudicator.games import game_module\nm = game_module('standard')\n"
            "print(json.dumps({'acting': list(m.must_act(m.start({}, 1))), 'modules': sorted(sys.modules)}))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, cwd=ROOT, timeout=120,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}, check=True)
    data = json.loads(done.stdout)
    assert "England" in data["acting"]
    assert [m for m in data["modules"] if m.split(".")[0] in ("lark", "PIL", "jinja2", "apscheduler")] == []
