"""The operator's paper cuts (issue 13 point 9): ``--config`` before or
after the subcommand, ``receive`` asking the mail system to try again
(75) for anything that is not the mail's fault, no admin password for
commands that do not need it, no new empty database in the wrong folder,
no traceback on a closed pipe, times in the game's zone."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EX_TEMPFAIL = 75
CONFIG = '''[judge]
address = "judge@pbem.test"
language = "en"
admin = "admin@pbem.test"
admin_password_env = "ADJUDICATOR_TEST_UNSET_SECRET"
[database]
path = "var/judge.sqlite3"
'''


def run(folder: Path, *args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    config = folder / "judge.toml"
    if not config.exists():
        config.write_text(CONFIG, encoding="utf-8")
    return subprocess.run([sys.executable, "-m", "adjudicator", *args], input=stdin, capture_output=True,
                          cwd=folder, timeout=300, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})


def test_config_after_the_subcommand_and_no_admin_secret_needed_to_look(tmp_path: Path) -> None:
    created = run(tmp_path, "game", "create", "spiel1", "--config", "judge.toml")
    assert created.returncode == 0, created.stderr.decode()
    listed = run(tmp_path, "game", "list", "--config", "judge.toml")
    assert listed.returncode == 0 and listed.stdout.decode().startswith("spiel1\tstandard\tforming")
    assert run(tmp_path, "--config", "judge.toml", "game", "list").stdout == listed.stdout


def test_a_missing_database_is_an_error_naming_the_path_not_a_new_one(tmp_path: Path) -> None:
    done = run(tmp_path, "game", "list", "--config", "judge.toml")
    assert done.returncode == EX_TEMPFAIL
    assert f"no database at {tmp_path / 'var' / 'judge.sqlite3'}" in done.stderr.decode()
    assert not (tmp_path / "var").exists()


def test_receive_asks_to_try_again_when_the_problem_is_not_the_mail(tmp_path: Path) -> None:
    mail = b"From: a@players.test\r\nSubject: x\r\n\r\nSIGNON Austria spiel1 pw\r\n"
    no_database = run(tmp_path, "receive", "--config", "judge.toml", stdin=mail)
    assert no_database.returncode == EX_TEMPFAIL, no_database.stderr.decode()
    (tmp_path / "broken.toml").write_text("[judge\n", encoding="utf-8")
    bad_config = run(tmp_path, "receive", "--config", "broken.toml", stdin=mail)
    assert bad_config.returncode == EX_TEMPFAIL
    run(tmp_path, "game", "create", "spiel1", "--config", "judge.toml")
    stored = run(tmp_path, "receive", "--config", "judge.toml", stdin=mail)
    assert stored.returncode == 0 and stored.stdout.decode().startswith("stored ")


def test_serve_still_needs_its_secrets(tmp_path: Path) -> None:
    done = run(tmp_path, "serve", "--once", "--config", "judge.toml")
    assert done.returncode == 2
    assert "ADJUDICATOR_TEST_UNSET_SECRET is not set" in done.stderr.decode()


def test_a_closed_pipe_ends_quietly(tmp_path: Path) -> None:
    process = subprocess.Popen([sys.executable, "-m", "adjudicator", "map", "show", "30jk"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, cwd=tmp_path, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert process.stdout is not None and process.stderr is not None
    first = process.stdout.readline()
    process.stdout.close()
    error = process.stderr.read().decode()
    assert process.wait(timeout=120) == 0
    assert first.startswith(b"30jk:") and "Traceback" not in error and "BrokenPipe" not in error


def test_game_show_prints_the_deadline_in_the_game_zone_to_the_minute(tmp_path: Path) -> None:
    from datetime import datetime, timezone

    from adjudicator.config import load_config
    from adjudicator.service.store import Store
    from adjudicator.service.turns import start_game

    run(tmp_path, "game", "create", "spiel1", "--config", "judge.toml")
    config = load_config(tmp_path / "judge.toml", need_secrets=False)
    store = Store(config.database)
    game = store.game("spiel1")
    assert game is not None
    with store.transaction() as db:
        start_game(store, db, config, game, datetime(2026, 12, 1, 10, 0, 0, 123456, tzinfo=timezone.utc))
    store.close()
    shown = run(tmp_path, "game", "show", "spiel1", "--config", "judge.toml").stdout.decode()
    assert "deadline: 2026-12-04T11:00+01:00 (Europe/Berlin)" in shown, shown


def test_the_scheduler_is_quiet_unless_verbose() -> None:
    import logging

    from adjudicator.cli import main

    main(["map", "check", "standard"])
    assert logging.getLogger("apscheduler").level == logging.ERROR
    main(["--verbose", "map", "check", "standard"])
    assert logging.getLogger("apscheduler").level == logging.DEBUG
    main(["map", "check", "standard", "--verbose"])
    assert logging.getLogger("apscheduler").level == logging.DEBUG
