"""The ``adjudicator`` command line (documented in docs/cli.md).

``adjudicator adjudicate [--input FILE]`` reads one JSON case (standard
input when no file is given) and prints one JSON result; a malformed case
exits with status 2 and a message on standard error.
``adjudicator map check NAME`` reports a map's inconsistencies (exit 1 if
any); ``adjudicator map show NAME [PROVINCE]`` lists its data;
``adjudicator map draw NAME -o FILE`` draws it (SVG or PNG), with a
position and orders when given; ``adjudicator export GAME -o DIR`` writes a
game's static HTML archive; ``adjudicator receive`` stores one mail from
standard input.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Sequence, TextIO

from adjudicator import __version__
from adjudicator.config import ConfigError, load_config
from adjudicator.service.admin import EX_TEMPFAIL, add_commands, open_store
from adjudicator.service.dbadmin import add_db_commands

# The rules, the grammars, the drawing (Pillow) and the templates are
# imported by the commands that use them, so that a command that neither
# draws nor serves starts quickly (issue 20; tests/test_startup.py).
if TYPE_CHECKING:
    from adjudicator.games.diplomacy.core.mapdata import GameMap
    from adjudicator.games.pictures.scene import Scene
    from adjudicator.service.render import Texts


def _read(path: str | None, stdin: TextIO) -> str:
    if path is None or path == "-":
        return stdin.read()
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def command_adjudicate(args: argparse.Namespace, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    """Adjudicate one JSON case; 0 on success, 2 on a malformed case."""
    from adjudicator.games.diplomacy.contract import CaseError, run_case

    try:
        text = _read(args.input, stdin)
    except OSError as error:
        print(f"adjudicator adjudicate: cannot read {args.input}: {error.strerror}", file=stderr)
        return 2
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        print(f"adjudicator adjudicate: not valid JSON: line {error.lineno}, column {error.colno}: {error.msg}", file=stderr)
        return 2
    if isinstance(data, dict) and "variant" not in data:
        data = {**data, "variant": args.config.default_variant}
    try:
        result = run_case(data)
    except CaseError as error:
        print(f"adjudicator adjudicate: malformed case: {error}", file=stderr)
        return 2
    json.dump(result, stdout, ensure_ascii=False, indent=2)
    stdout.write("\n")
    return 0


def _map(name: str) -> GameMap:
    """A map by name (``maps/<name>.toml``) or by path to a ``.toml`` file."""
    from adjudicator.games.diplomacy.core.mapdata import load_map, load_map_file

    if name.endswith(".toml"):
        return load_map_file(Path(name))
    return load_map(name)


def command_map_check(args: argparse.Namespace, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    """Check a map for consistency; 0 when it has no problem, 1 otherwise."""
    from adjudicator.games.diplomacy.core.mapdata import MapError, check_map

    try:
        game_map = _map(args.name)
    except MapError as error:
        print(f"{args.name}: cannot be loaded: {error}", file=stdout)
        return 1
    problems = check_map(game_map)
    for problem in problems:
        print(f"{args.name}: {problem}", file=stdout)
    if problems:
        print(f"{args.name}: {len(problems)} problem(s)", file=stdout)
        return 1
    print(
        f"{args.name}: OK ({len(game_map.provinces)} provinces, {len(game_map.supply_centres)} supply centres, "
        f"{len(game_map.powers)} powers)",
        file=stdout,
    )
    return 0


def command_map_show(args: argparse.Namespace, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    """List one province of a map, or the whole map; 2 when unknown."""
    from adjudicator.games.diplomacy.core.mapdata import MapError
    from adjudicator.games.diplomacy.maptext import describe_map, describe_province

    try:
        game_map = _map(args.name)
    except MapError as error:
        print(f"adjudicator map show: {error}", file=stderr)
        return 2
    if args.province is None:
        print(describe_map(game_map), file=stdout)
        return 0
    key = game_map.lookup_place(args.province)
    if key is None:
        print(f"adjudicator map show: {args.name} has no province {args.province!r}", file=stderr)
        return 2
    print(describe_province(game_map, game_map.provinces[key]), file=stdout)
    return 0


def _json_file(path: str, what: str) -> object:
    """A decoded JSON file; ``ValueError`` naming the file and the problem."""
    try:
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)
    except OSError as error:
        raise ValueError(f"cannot read the {what} {path}: {error.strerror}") from None
    except json.JSONDecodeError as error:
        raise ValueError(f"the {what} {path} is not valid JSON: line {error.lineno}, column {error.colno}: "
                         f"{error.msg}") from None


def _orders_of(data: object, where: str) -> dict[str, list[str]]:
    """Orders as power -> order strings from ``{"orders": {...}}`` or a bare mapping."""
    if isinstance(data, dict) and isinstance(data.get("orders"), dict):
        data = data["orders"]
    if not isinstance(data, dict):
        raise ValueError(f"{where}: expected an object mapping powers to order strings")
    orders: dict[str, list[str]] = {}
    for power, listed in data.items():
        texts = [listed] if isinstance(listed, str) else listed
        if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
            raise ValueError(f"{where}.{power}: expected a list of order strings")
        orders[str(power)] = list(texts)
    return orders


def command_map_draw(args: argparse.Namespace, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    """Draw a map as SVG or PNG (by the output's suffix): the start
    position, or the position of ``--position`` (a JSON case); with orders
    (the case's ``orders`` and ``--orders``) the phase is resolved and the
    orders are drawn with their results.  0 on success, 2 on bad input."""
    from adjudicator.games.diplomacy.contract import CaseError
    from adjudicator.games.diplomacy.core.mapdata import MapError
    from adjudicator.games.diplomacy.drawing.legend import legend_words
    from adjudicator.games.diplomacy.drawing.picture import draw_phase
    from adjudicator.games.diplomacy.drawing.view import start_view
    from adjudicator.games.pictures.png import to_png
    from adjudicator.games.pictures.svg import to_svg
    from adjudicator.service.render import Texts

    out = Path(args.output)
    if out.suffix.lower() not in (".svg", ".png"):
        print(f"adjudicator map draw: {out}: the output must end in .svg or .png", file=stderr)
        return 2
    texts = Texts(args.language)
    try:
        game_map = _map(args.name)
        if args.position is None and args.orders is None:
            title = game_map.title
            scene = draw_phase(start_view(game_map), power_name=_namer(game_map, args.language),
                               words=legend_words(texts), title=title)
        else:
            scene = _draw_case(args, game_map, texts)
    except (MapError, CaseError, ValueError) as error:
        print(f"adjudicator map draw: {error}", file=stderr)
        return 2
    data = to_png(scene) if out.suffix.lower() == ".png" else to_svg(scene).encode("utf-8")
    try:
        out.write_bytes(data)
    except OSError as error:
        print(f"adjudicator map draw: cannot write {out}: {error.strerror}", file=stderr)
        return 2
    print(f"wrote {out} ({scene.width}x{scene.height}, {len(data)} bytes)", file=stdout)
    return 0


def _namer(game_map: GameMap, language: str) -> Callable[[str], str]:
    from adjudicator.games.diplomacy import DiplomacyGame

    module = DiplomacyGame(game_map)
    return lambda power: module.power_name(power, language)


def _draw_case(args: argparse.Namespace, game_map: GameMap, texts: Texts) -> Scene:
    """The scene of ``--position`` (or the start) with the orders resolved."""
    from adjudicator.games.diplomacy import DiplomacyGame
    from adjudicator.games.diplomacy.contract import case_from_json
    from adjudicator.games.diplomacy.drawing.legend import legend_words
    from adjudicator.games.diplomacy.drawing.picture import draw

    if args.name.endswith(".toml"):
        raise ValueError("a position or orders need a map from maps/ (give its name, not a file)")
    case = _json_file(args.position, "position") if args.position else {"phase": _start_phase(game_map)}
    if not isinstance(case, dict):
        raise ValueError(f"{args.position}: expected a JSON object (a case, see docs/cli.md)")
    state = {key: value for key, value in case.items() if key != "orders"}
    state.setdefault("variant", game_map.name)
    if state["variant"] != game_map.name:
        raise ValueError(f"the position is for the variant {state['variant']!r}, not {game_map.name!r}")
    if "centers" not in state:  # the report counts centres before the phase from the state
        position = case_from_json(state).position
        state["centers"] = {p: list(position.centres_of(p)) for p in game_map.powers if position.centres_of(p)}
    orders = _orders_of(case["orders"], "orders") if "orders" in case else {}
    if args.orders is not None:
        for power, texts_ in _orders_of(_json_file(args.orders, "orders file"), "orders").items():
            orders.setdefault(power, []).extend(texts_)
    module = DiplomacyGame(game_map)
    report = None
    if orders:
        resolved = {module.lookup_power(p) or p: o for p, o in orders.items()}
        report = module.resolve(state, resolved).report
    return draw(state, report, power_name=_namer(game_map, args.language), words=legend_words(texts),
                title=game_map.title)


def _start_phase(game_map: GameMap) -> str:
    from adjudicator.games.diplomacy.core.engine import initial_position

    return str(initial_position(game_map).phase)


def command_export(args: argparse.Namespace, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    """Write a game's static HTML archive into a folder; 0 on success, 1
    for an unknown game, 75 when the database cannot be used."""
    from adjudicator.service.archive import ArchiveError, export_game

    store = open_store(args, stderr)
    if store is None:
        return EX_TEMPFAIL
    try:
        written = export_game(store, args.game, Path(args.output))
    except ArchiveError as error:
        print(f"adjudicator export: {error}", file=stderr)
        return 1
    except OSError as error:
        print(f"adjudicator export: cannot write {args.output}: {error.strerror}", file=stderr)
        return 2
    finally:
        store.close()
    print(f"wrote {len(written)} files to {args.output} (open {Path(args.output) / 'index.html'})", file=stdout)
    return 0


def command_receive(args: argparse.Namespace, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    """Store one mail from standard input (procmail, .forward); 0 when it is
    stored (or was already), 75 when the database cannot be used, so that
    the mail system keeps the mail and tries again."""
    from adjudicator.service.intake import read_pipe

    raw = stdin.buffer.read() if hasattr(stdin, "buffer") else stdin.read().encode("utf-8")
    if not raw.strip():
        print("adjudicator receive: no mail on standard input", file=stderr)
        return 2
    store = open_store(args, stderr)
    if store is None:
        return EX_TEMPFAIL
    try:
        now = datetime.now(timezone.utc)
        incoming = read_pipe(raw, now)
        mail, new = store.save_inbound(incoming.raw, incoming.source, now.isoformat(),
                                       keep_bytes=args.config.limits.stored_bytes)
    except _sqlite_busy() as error:  # database locked or busy: the mail system tries again
        print(f"adjudicator receive: the database is busy ({error}); try again later", file=stderr)
        return EX_TEMPFAIL
    finally:
        store.close()
    print(f"{'stored' if new else 'already stored'} {mail.id}", file=stdout)
    return 0


def _sqlite_busy() -> tuple[type[BaseException], ...]:
    """``sqlite3.OperationalError`` (a locked or busy database) when SQLite
    is loaded; nothing to catch when it is not, as on a PostgreSQL judge,
    which then imports no SQLite for this ``except`` (issue 20)."""
    sqlite3 = sys.modules.get("sqlite3")
    return (sqlite3.OperationalError,) if sqlite3 is not None else ()


def _columns() -> int:
    """The terminal's width as ``shutil.get_terminal_size`` finds it
    (``$COLUMNS``, the terminal of standard output, else 80), without
    importing shutil and the compression modules it loads."""
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


class _Formatter(argparse.HelpFormatter):
    """argparse's help layout at the terminal's width (see ``_columns``):
    argparse makes a formatter for every option it adds, and its own
    default imports shutil for the width (issue 20)."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        super().__init__(prog, indent_increment, max_help_position, _columns() - 2 if width is None else width)


class _Parser(argparse.ArgumentParser):
    """An argument parser laid out by ``_Formatter``, as are its subcommands'."""

    def __init__(self, *arguments: Any, **options: Any) -> None:
        options.setdefault("formatter_class", _Formatter)
        super().__init__(*arguments, **options)


class _Unused:
    """What a command that will not be parsed gets to add its options and
    subcommands to: it takes every call and builds nothing."""

    def __getattr__(self, name: str) -> Callable[..., _Unused]:
        return lambda *arguments, **options: self


class _OnlyOne:
    """The subcommands of ``adjudicator`` when one command is to be parsed:
    that command's parser is built in full, and what every other one would
    add goes to ``_Unused``.  The others only get their names (for the
    usage line and an error naming the choices), with their help lines
    when the top-level help may be printed (``wanted`` is then ``""``).
    Building the options of some 20 commands and subcommands with
    argparse costs more than everything else ``adjudicator game list``
    does (issue 20)."""

    def __init__(self, commands: Any, wanted: str) -> None:
        self._commands = commands
        self._wanted = wanted
        self._unbuilt: argparse.ArgumentParser | None = None

    def add_parser(self, name: str, **options: Any) -> Any:
        if name == self._wanted:
            return self._commands.add_parser(name, **options)
        if not self._wanted:
            self._commands.add_parser(name, help=options.get("help"), add_help=False)
        else:  # named only: never parsed, since the command line names another command
            if self._unbuilt is None:
                self._unbuilt = _Parser(prog=f"adjudicator {name}", add_help=False)
            self._commands.choices[name] = self._unbuilt
        return _Unused()


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The argument parser of the ``adjudicator`` command: with every
    command's options, or (``command`` given: the first word after the
    global options, ``""`` when there is none) with that command's only."""
    parser = _Parser(prog="adjudicator", description="A play-by-email judge for Diplomacy variants.")
    parser.add_argument("--version", action="version", version=f"adjudicator {__version__}")
    parser.add_argument("--config", metavar="FILE", type=Path,
                        help="configuration file (see config.example.toml); before or after the subcommand")
    parser.add_argument("--verbose", action="store_true", help="log the scheduler's every run too")
    commands: Any = parser.add_subparsers(dest="command", required=True)
    if command is not None:
        commands = _OnlyOne(commands, command)
    adjudicate = commands.add_parser("adjudicate", help="resolve one phase given as a JSON case")
    adjudicate.add_argument("--input", "-i", metavar="FILE", help="the JSON case (default: standard input)")
    adjudicate.set_defaults(handler=command_adjudicate)
    receive = commands.add_parser("receive", help="store one mail from standard input (for procmail/.forward)")
    receive.set_defaults(handler=command_receive)
    add_commands(commands)
    add_db_commands(commands)
    maps = commands.add_parser("map", help="check or list a map file").add_subparsers(dest="map_command", required=True)
    check = maps.add_parser("check", help="report every inconsistency of maps/NAME.toml (exit 1 if any)")
    check.add_argument("name", metavar="NAME", help="a map name, or the path of a .toml map file")
    check.set_defaults(handler=command_map_check)
    show = maps.add_parser("show", help="list a province of maps/NAME.toml (or the whole map)")
    show.add_argument("name", metavar="NAME", help="a map name, or the path of a .toml map file")
    show.add_argument("province", metavar="PROVINCE", nargs="?")
    show.set_defaults(handler=command_map_show)
    drawing = maps.add_parser("draw", help="draw maps/NAME.toml as SVG or PNG, with a position and orders")
    drawing.add_argument("name", metavar="NAME", help="a map name, or the path of a .toml map file")
    drawing.add_argument("--position", metavar="FILE.json", help="a JSON case (docs/cli.md); default: the start")
    drawing.add_argument("--orders", metavar="FILE.json", help="orders: {power: [order, ...]} (resolved and drawn)")
    drawing.add_argument("--language", choices=("en", "de"), default="en", help="language of the legend")
    drawing.add_argument("-o", "--output", metavar="FILE", required=True, help="the picture: FILE.svg or FILE.png")
    drawing.set_defaults(handler=command_map_draw)
    export = commands.add_parser("export", help="write a game's static HTML archive (maps, orders, results)")
    export.add_argument("game", metavar="GAME")
    export.add_argument("-o", "--output", metavar="DIR", required=True, help="the folder to write into")
    export.set_defaults(handler=command_export)
    return parser


_NEEDS_SECRETS = ("serve",)
"""Commands that send mail or answer ADMIN: only they need the passwords."""

_SCHEDULES = ("serve", "demo")
"""Commands that run the judge's scheduler (whose log ``--verbose`` lets through)."""


def _global_options(argv: Sequence[str]) -> tuple[list[str], list[str]]:
    """``--config FILE`` and ``--verbose`` taken from anywhere in ``argv``
    (before or after the subcommand): (those options, the rest)."""
    own: list[str] = []
    rest: list[str] = []
    words = list(argv)
    index = 0
    while index < len(words):
        word = words[index]
        if word == "--config" and index + 1 < len(words):
            own += words[index:index + 2]
            index += 2
            continue
        if word.startswith("--config=") or word == "--verbose":
            own.append(word)
        else:
            rest.append(word)
        index += 1
    return own, rest


def main(argv: Sequence[str] | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None,
         stderr: TextIO | None = None) -> int:
    """Run the command line; returns the exit status.  A closed output
    pipe (``| head``) ends the command quietly; ``receive`` exits 75
    (try again later) for a problem that is not the mail's."""
    own, rest = _global_options(list(sys.argv[1:] if argv is None else argv))
    command = next((word for word in rest if not word.startswith("-")), "")
    if command and any(word in ("-h", "--help") for word in rest[:rest.index(command)]):
        command = ""  # the top-level help, with every command's line
    args = build_parser(command).parse_args(own + rest)
    err = stderr or sys.stderr
    if args.command in _SCHEDULES or "logging" in sys.modules:  # not imported for this alone (issue 20)
        import logging

        logging.getLogger("apscheduler").setLevel(logging.DEBUG if args.verbose else logging.ERROR)
    try:
        args.config = load_config(args.config, need_secrets=args.command in _NEEDS_SECRETS)
    except ConfigError as error:
        print(f"adjudicator: bad configuration: {error}", file=err)
        return EX_TEMPFAIL if args.command == "receive" else 2
    out = stdout or sys.stdout
    previous = os.umask(0o077)  # every file and folder the judge makes is its owner's only (S32)
    try:
        status: int = args.handler(args, stdin or sys.stdin, out, err)
        out.flush()
    except BrokenPipeError:
        _quiet_stdout()
        return 0
    finally:
        os.umask(previous)  # main() may run inside another program (the tests)
    return status


def _quiet_stdout() -> None:
    """After a closed pipe: send what is left of standard output nowhere,
    so Python's exit flush raises no second error."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # no real file descriptor (tests): nothing to quiet
        pass
