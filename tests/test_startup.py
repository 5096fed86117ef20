"""Commands that neither draw nor serve import none of the heavy modules
(issue 20 point 6): the start-up time itself is printed by
``benchmarks/startup.py``; these tests check, in a fresh interpreter,
which modules the command line loads to build its parser and print
``--help``, and which modules whole commands load on a fresh judge."""

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
    assert heavy(modules) == [] and among(modules, NO_DATACLASSES) == []


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


# What a whole command (not only its parser) loads: ``adjudicator.cli.main``
# runs in a fresh interpreter on a fresh judge, then the modules it loaded
# are written to a file beside the judge's configuration.
COMMAND_PROBE = """
import json, sys
import adjudicator.cli
try:
    status = adjudicator.cli.main(sys.argv[1:])
finally:
    with open("modules.json", "w", encoding="utf-8") as handle:
        json.dump(sorted(sys.modules), handle)
raise SystemExit(status)
"""

CONFIG = '''[judge]
address = "judge@pbem.test"
language = "en"
admin = "admin@pbem.test"
[database]
path = "judge.sqlite3"
[rules]
default_variant = "standard"  # as in config.example.toml: checked without loading the game
'''

MAIL = b"""From: Player <player@example.org>
To: judge@pbem.test
Subject: orders
Message-ID: <startup-probe@example.org>

SIGNON England probe secret-password
F Lon - Nth
"""

GAMES = ("adjudicator.games.diplomacy", "adjudicator.games.revolution1848", "adjudicator.games.kreml",
         "adjudicator.games.liberte", "adjudicator.games.pfalz1847")
SERVING = ("logging",)  # Lark logs too: not for the grammars' commands
DRAWING_AND_SERVING = ("PIL", "jinja2", "apscheduler", "aiosmtplib", "imapclient", "mailbox",
                       "adjudicator.games.pictures", "adjudicator.service.runner", "adjudicator.service.handler", "adjudicator.service.notify", "adjudicator.service.turns")
NOTHING_OF_A_GAME = (*DRAWING_AND_SERVING, *SERVING, *GAMES, "lark", "adjudicator.games.base")


def command_modules(folder: Path, *arguments: str, stdin: bytes | None = None) -> list[str]:
    """The modules ``adjudicator --config judge.toml ARGUMENTS`` loaded in ``folder`` (it must succeed)."""
    done = subprocess.run([sys.executable, "-c", COMMAND_PROBE, "--config", "judge.toml", *arguments],
                          input=stdin, capture_output=True, cwd=folder, timeout=120,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "HOME": str(folder)})
    assert done.returncode == 0, (arguments, done.stdout, done.stderr)
    modules: list[str] = json.loads((folder / "modules.json").read_text(encoding="utf-8"))
    return modules


def among(modules: list[str], names: tuple[str, ...]) -> list[str]:
    return sorted({n for n in names for m in modules if m == n or m.startswith(n + ".")})


def judge_folder(tmp_path: Path) -> Path:
    """A judge with one standard game ``probe``."""
    (tmp_path / "judge.toml").write_text(CONFIG, encoding="utf-8")
    command_modules(tmp_path, "game", "create", "probe", "--variant", "standard")
    return tmp_path


def test_commands_that_read_the_database_load_no_game_mail_parser_or_sealing(tmp_path: Path) -> None:
    folder = judge_folder(tmp_path)
    for arguments in (("game", "list"), ("outbox",), ("outbox", "--json"), ("db", "status"), ("purge",),
                      ("db", "migrate")):
        modules = command_modules(folder, *arguments)
        assert among(modules, NOTHING_OF_A_GAME + ("cryptography", "email.policy", "hashlib", "shutil") +
                     NO_DATACLASSES) == [], arguments
        assert "adjudicator.service.store" in modules and "sqlite3" in modules, arguments


# The configuration and the store's rows are records, not dataclasses (S45):
# making a dataclass and importing the module (with inspect) cost more than
# the rest of a command that reads the database.
NO_DATACLASSES = ("dataclasses", "inspect")


# Diplomacy's resolver, orders and their checks: neither a start position
# nor who must act in a movement phase needs them.
RESOLVING = tuple(f"adjudicator.games.diplomacy.{name}" for name in (
    "core.engine", "core.orders", "core.movement", "core.adjustments", "core.retreats", "core.legality",
    "core.reports", "core.notation", "arrival", "wording", "drawing"))


def test_showing_a_forming_game_loads_no_game(tmp_path: Path) -> None:
    # Nobody must act in a game that has not started: its rules are not needed.
    folder = judge_folder(tmp_path)
    modules = command_modules(folder, "game", "show", "probe")
    assert among(modules, NOTHING_OF_A_GAME + ("cryptography", "adjudicator.service.auth", "zoneinfo") +
                 NO_DATACLASSES) == []  # no deadline: no time zone to read
    assert "nothing to order" in show_output(folder, "probe")


def test_showing_an_active_game_loads_only_that_game_and_no_grammar(tmp_path: Path) -> None:
    folder = judge_folder(tmp_path)
    start_probe(folder)
    modules = command_modules(folder, "game", "show", "probe")
    assert among(modules, GAMES) == ["adjudicator.games.diplomacy"]
    assert among(modules, DRAWING_AND_SERVING + SERVING + RESOLVING + ("lark", "cryptography",
                                                                     "adjudicator.service.auth")) == []
    shown = show_output(folder, "probe")
    assert "probe (standard), active" in shown and "England: disorder, -, no orders yet" in shown


def show_output(folder: Path, game: str) -> str:
    """What ``game show GAME`` prints in ``folder``."""
    done = subprocess.run([sys.executable, "-m", "adjudicator", "--config", "judge.toml", "game", "show", game],
                          capture_output=True, cwd=folder, timeout=120, check=True,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "HOME": str(folder)})
    return done.stdout.decode("utf-8")


def start_probe(folder: Path) -> None:
    """Start the game ``probe`` of ``folder``'s judge (its open seats go into civil disorder)."""
    from datetime import datetime, timezone

    from adjudicator.config import load_config
    from adjudicator.service.store import Store
    from adjudicator.service.turns import start_game

    config = load_config(folder / "judge.toml", need_secrets=False)
    store = Store(folder / "judge.sqlite3", mail_key=config.mail_key)
    try:
        game = store.game("probe")
        assert game is not None
        with store.transaction() as db:
            start_game(store, db, config, game, datetime.now(timezone.utc))
    finally:
        store.close()


# What ``game create`` does not need: the rest of a game's life (turns), the
# mail composer and its pictures, the password hashing and the pool of
# password checks (no ``--gm``), the time zones (no weekly deadlines), and
# OpenSSL (``hashlib``: no random event is drawn, the map's cache key is
# CPython's own SHA-256).
NOT_FOR_CREATING = ("adjudicator.service.turns", "adjudicator.service.notify", "adjudicator.mail",
                    "adjudicator.service.pictures", "adjudicator.service.auth", "email", "zoneinfo",
                    "concurrent.futures", "secrets", "html", "hashlib", "hmac", "_hashlib")


def test_the_sha_256_without_openssl_is_the_one_hashlib_gives() -> None:
    import hashlib

    from adjudicator.digest import _BUILTIN, sha256

    assert _BUILTIN is not None  # CPython's own module is there: the test below compares it with OpenSSL's
    for text in (b"", b"[map]\nname = 'standard'\n", "Österreich".encode("utf-8") * 1000):
        assert _BUILTIN(text).hexdigest() == sha256(text).hexdigest() == hashlib.sha256(text).hexdigest()


def test_creating_a_game_loads_only_that_game_and_neither_drawing_grammar_nor_mail_client(tmp_path: Path) -> None:
    folder = judge_folder(tmp_path)
    for variant in ("standard", "30jk"):
        modules = command_modules(folder, "game", "create", f"second-{variant}", "--variant", variant)
        assert among(modules, GAMES) == ["adjudicator.games.diplomacy"], variant
        assert among(modules, DRAWING_AND_SERVING + SERVING + NOT_FOR_CREATING + RESOLVING +
                     ("lark", "cryptography")) == [], variant


def test_creating_a_diplomacy_game_makes_no_dataclass(tmp_path: Path) -> None:
    # Diplomacy's model, map, rules, case and module and the random events
    # are records (S49): creating a game of either map imports neither
    # ``dataclasses`` nor the ``inspect`` it loads.
    folder = judge_folder(tmp_path)
    for variant in ("standard", "30jk"):
        modules = command_modules(folder, "game", "create", f"plain-{variant}", "--variant", variant)
        assert "adjudicator.games.diplomacy.core.model" in modules, variant
        assert among(modules, NO_DATACLASSES) == [], variant


def test_creating_a_game_of_the_other_games_loads_no_grammar(tmp_path: Path) -> None:
    # Their order grammars (Lark, with its logging) load when a line is
    # parsed: the parsers, the line reader and 1848's and Liberté's
    # transformers import Lark on first use (S49).
    folder = judge_folder(tmp_path)
    for variant, package in (("1848", "revolution1848"), ("kreml", "kreml"), ("liberte4", "liberte"),
                             ("1847", "pfalz1847")):
        modules = command_modules(folder, "game", "create", f"other-{variant}", "--variant", variant)
        assert among(modules, GAMES) == [f"adjudicator.games.{package}"], variant
        assert f"adjudicator.games.{package}.parse" in modules, variant  # imported, with no grammar
        assert among(modules, ("lark", "logging")) == [], variant


def test_creating_a_game_with_a_gm_hashes_the_gm_password(tmp_path: Path) -> None:
    folder = judge_folder(tmp_path)
    modules = command_modules(folder, "game", "create", "third", "--variant", "standard", "--gm", "gm@pbem.test")
    assert "adjudicator.service.auth" in modules and "secrets" in modules
    assert among(modules, ("adjudicator.service.turns", "email", "concurrent.futures")) == []
    import sqlite3

    with sqlite3.connect(folder / "judge.sqlite3") as db:
        (settings,) = db.execute("SELECT settings FROM games WHERE name = 'third'").fetchone()
    assert json.loads(settings)["gm_password_hash"].startswith("scrypt$16384$8$1$")


# 1848's rules and order grammar, which its card file's template and check do not need.
RULES_OF_1848 = tuple(f"adjudicator.games.revolution1848.{name}" for name in (
    "module", "parse", "wording", "orders", "state", "actions", "evaluation", "flow", "military", "report",
    "describe"))


def test_a_data_template_loads_only_its_game_s_card_file(tmp_path: Path) -> None:
    folder = judge_folder(tmp_path)
    modules = command_modules(folder, "data", "template", "1848", "cards")
    assert among(modules, GAMES) == ["adjudicator.games.revolution1848"]
    assert "adjudicator.games.revolution1848.cardfile" in modules
    assert among(modules, DRAWING_AND_SERVING + RULES_OF_1848 + ("lark", "cryptography", "adjudicator.service.store") +
                 NO_DATACLASSES) == []  # the card tables are records (S45)


def test_the_registry_describes_1848_s_data_files_as_its_module_gives_them() -> None:
    from adjudicator.games import game_module
    from adjudicator.games.registry import GameDescription, described

    for variant, name in (("1848", "1848"), ("kreml", "kreml4"), ("Kreml-5", "kreml5"), ("liberté", "liberte4"),
                          ("liberte6", "liberte6")):
        described_game, module = described(variant), game_module(variant)
        assert isinstance(described_game, GameDescription), variant
        assert described_game.variant == module.variant == name
        assert described_game.data_files() == module.data_files() and len(module.data_files()) == 1
    assert described("standard").variant == "standard"  # a game without a description: its module


def test_kreml_s_and_liberte_s_data_templates_load_neither_their_rules_nor_a_grammar(tmp_path: Path) -> None:
    folder = judge_folder(tmp_path)
    for variant, name, package in (("kreml", "kreml", "adjudicator.games.kreml"),
                                   ("liberte3", "liberte", "adjudicator.games.liberte")):
        modules = command_modules(folder, "data", "template", variant, name)
        assert among(modules, GAMES) == [package], variant
        assert f"{package}.data" in modules and f"{package}.module" not in modules, variant
        assert among(modules, DRAWING_AND_SERVING + ("lark", "cryptography", "adjudicator.service.store",
                                                     f"{package}.parse", f"{package}.flow")) == [], variant


def test_receive_catches_sqlite_s_busy_error_only_where_sqlite_is_loaded() -> None:
    # On PostgreSQL ``receive`` never loads SQLite; there is then nothing of it to catch.
    code = ("import sys\nfrom adjudicator.cli import _sqlite_busy\nbefore = _sqlite_busy()\n"
            "assert 'sqlite3' not in sys.modules, 'the check imported SQLite'\nimport sqlite3\n"
            "print(before == () and _sqlite_busy() == (sqlite3.OperationalError,))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, cwd=ROOT, timeout=120,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}, check=True)
    assert done.stdout.decode().strip() == "True"


def test_hash_password_loads_no_thread_pool_random_or_logging(tmp_path: Path) -> None:
    folder = judge_folder(tmp_path)
    modules = command_modules(folder, "hash-password", stdin=b"a long password\n")
    assert among(modules, NOTHING_OF_A_GAME + ("concurrent.futures", "secrets", "random", "logging", "sqlite3",
                                               "adjudicator.service.store", "cryptography") + NO_DATACLASSES) == []
    assert "adjudicator.service.auth" in modules


def test_hash_password_prints_a_full_strength_hash_of_the_password(tmp_path: Path) -> None:
    from adjudicator.service.auth import check_password

    folder = judge_folder(tmp_path)
    done = subprocess.run([sys.executable, "-m", "adjudicator", "--config", "judge.toml", "hash-password"],
                          input=b"a long password\n", capture_output=True, cwd=folder, timeout=120, check=True,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "HOME": str(folder)})
    printed = done.stdout.decode().strip()
    assert printed.startswith("scrypt$16384$8$1$") and len(printed.split("$")[4]) == 32  # 16 bytes of salt
    assert check_password("a long password", printed) and not check_password("a long passwort", printed)


def test_receive_seals_the_mail_and_loads_no_game_grammar_or_maildir(tmp_path: Path) -> None:
    folder = judge_folder(tmp_path)
    modules = command_modules(folder, "receive", stdin=MAIL)
    assert among(modules, NOTHING_OF_A_GAME + NO_DATACLASSES + ("hashlib", "_hashlib")) == []  # its hash: no OpenSSL
    assert "cryptography.fernet" in modules  # the mail is stored sealed (issue 12): the key is used
    import sqlite3

    with sqlite3.connect(folder / "judge.sqlite3") as db:
        (raw,) = db.execute("SELECT raw FROM inbound").fetchone()
    assert b"secret-password" not in bytes(raw) and b"SIGNON" not in bytes(raw)


def test_receive_of_a_plain_mail_reads_its_envelope_without_the_email_package(tmp_path: Path) -> None:
    # A mail of printable ASCII header lines and a plain From (S49): its
    # Message-ID and sender are read by ``envelope``, as the package reads them.
    folder = judge_folder(tmp_path)
    modules = command_modules(folder, "receive", stdin=MAIL)
    assert "adjudicator.service.envelope" in modules and among(modules, ("email",)) == []
    import sqlite3

    with sqlite3.connect(folder / "judge.sqlite3") as db:
        assert db.execute("SELECT message_id, sender FROM inbound").fetchone() == (
            "<startup-probe@example.org>", "player@example.org")
    eight_bit = MAIL.replace(b"From: Player", "From: Jürgen".encode("utf-8")).replace(b"probe@", b"other@")
    modules = command_modules(folder, "receive", stdin=eight_bit)
    assert "email.parser" in modules  # not plain: the package reads it, as before
    with sqlite3.connect(folder / "judge.sqlite3") as db:
        assert db.execute("SELECT message_id, sender FROM inbound ORDER BY seq").fetchall()[1] == (
            "<startup-other@example.org>", "player@example.org")


def test_adjudicate_loads_the_diplomacy_rules_and_grammar_but_no_service_or_drawing(tmp_path: Path) -> None:
    folder = judge_folder(tmp_path)
    case = json.dumps({"variant": "standard", "phase": "S1901M", "orders": {"England": ["F Lon - Nth"]}})
    modules = command_modules(folder, "adjudicate", stdin=case.encode())
    assert among(modules, GAMES) == ["adjudicator.games.diplomacy"]
    assert "lark" in modules
    assert among(modules, DRAWING_AND_SERVING + ("cryptography", "adjudicator.service.store", "sqlite3",
                                                 "adjudicator.games.diplomacy.drawing")) == []


def test_the_configured_default_variant_is_checked_without_loading_a_game(tmp_path: Path) -> None:
    code = """
import json, sys
from pathlib import Path
from adjudicator.config import ConfigError, load_config
from adjudicator.games.registry import check_variant
seen = []
modules = []
for variant in ("standard", "30jk", "1848", "Kreml-5", "atlantis", "../standard"):
    Path("judge.toml").write_text(f'[rules]\\ndefault_variant = "{variant}"\\n', encoding="utf-8")
    try:
        seen.append(load_config(Path("judge.toml"), need_secrets=False).default_variant)
    except ConfigError as error:
        seen.append(str(error).split(": ", 1)[1])
    modules = modules or (sorted(sys.modules) if len(seen) == 4 else [])  # before a refusal loads the interface
from adjudicator.games import UnknownGame
try:
    check_variant("atlantis")
except UnknownGame as error:
    seen.append("refused: " + str(error))
print(json.dumps({"seen": seen, "modules": modules}))
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, cwd=tmp_path, timeout=120,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}, check=True)
    data = json.loads(done.stdout)
    assert data["seen"][:4] == ["standard", "30jk", "1848", "Kreml-5"]
    assert data["seen"][4].startswith("rules.default_variant: unknown variant 'atlantis'")
    assert data["seen"][5].startswith("rules.default_variant: not a map name")
    assert data["seen"][6] == "refused: unknown variant 'atlantis': no map file atlantis.toml"
    assert "adjudicator.games.registry" in data["modules"]
    assert among(data["modules"], (*GAMES, "adjudicator.games.base", "lark")) == []


def test_a_parser_built_for_one_command_parses_it_as_the_whole_parser_does() -> None:
    import contextlib
    import io

    from adjudicator.cli import build_parser, main

    cases = (["game", "create", "g1", "--variant", "30jk", "--option", "a=b", "--gm", "gm@x.org"],
             ["game", "list"], ["game", "show", "g1"], ["outbox", "--json"], ["db", "status", "--json"],
             ["db", "copy", "--from", "a.sqlite3", "--to", "b.sqlite3"], ["receive"], ["adjudicate", "-i", "c.json"],
             ["map", "draw", "standard", "-o", "m.png", "--language", "de"], ["demo", "--variant", "1848"],
             ["data", "template", "1848", "cards"], ["cards", "check", "f.toml"], ["serve", "--once"], ["purge"],
             ["verify", "--file", "r.json"], ["hash-password"], ["export", "g1", "-o", "out"])
    for arguments in cases:
        whole, one = build_parser().parse_args(arguments), build_parser(arguments[0]).parse_args(arguments)
        assert vars(whole) == vars(one), arguments
    for arguments in (["--help"], ["-h", "game"], ["game", "--help"], ["gmae"], ["demo", "--variant", "chess"],
                      ["receive", "x"], ["--bogus", "outbox"], ["game", "create"], ["--verbose", "db", "-h"]):
        printed = []
        for parse in (build_parser().parse_args, main):  # main builds the parser for the command it finds
            with contextlib.redirect_stdout(io.StringIO()) as out, contextlib.redirect_stderr(io.StringIO()) as err:
                with contextlib.suppress(SystemExit):
                    parse(arguments)
            printed.append(out.getvalue() + err.getvalue())
        assert printed[0] == printed[1] and "usage: adjudicator" in printed[0], arguments
