"""The ``adjudicator`` command line (documented in docs/cli.md).

``adjudicator adjudicate [--input FILE]`` reads one JSON case (standard
input when no file is given) and prints one JSON result; a malformed case
exits with status 2 and a message on standard error.
``adjudicator map check NAME`` reports a map's inconsistencies (exit 1 if
any); ``adjudicator map show NAME [PROVINCE]`` lists its data;
``adjudicator receive`` stores one mail from standard input.
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import datetime, timezone
from pathlib import Path
from typing import Sequence, TextIO

from adjudicator import __version__
from adjudicator.config import ConfigError, load_config
from adjudicator.contract import CaseError, run_case
from adjudicator.core.mapdata import GameMap, MapError, check_map, load_map, load_map_file
from adjudicator.maptext import describe_map, describe_province
from adjudicator.service.admin import add_commands
from adjudicator.service.intake import read_pipe
from adjudicator.service.store import Store, StoreError


def _read(path: str | None, stdin: TextIO) -> str:
    if path is None or path == "-":
        return stdin.read()
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def command_adjudicate(args: argparse.Namespace, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    """Adjudicate one JSON case; 0 on success, 2 on a malformed case."""
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
    if name.endswith(".toml"):
        return load_map_file(Path(name))
    return load_map(name)


def command_map_check(args: argparse.Namespace, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    """Check a map for consistency; 0 when it has no problem, 1 otherwise."""
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


EX_TEMPFAIL = 75  # sysexits.h: the mail system should try again later


def command_receive(args: argparse.Namespace, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    """Store one mail from standard input (procmail, .forward); 0 when it is
    stored (or was already), 75 when the database cannot be used, so that
    the mail system keeps the mail and tries again."""
    raw = stdin.buffer.read() if hasattr(stdin, "buffer") else stdin.read().encode("utf-8")
    if not raw.strip():
        print("adjudicator receive: no mail on standard input", file=stderr)
        return 2
    try:
        store = Store(args.config.database)
    except StoreError as error:
        print(f"adjudicator receive: {error}", file=stderr)
        return EX_TEMPFAIL
    try:
        incoming = read_pipe(raw)
        mail, new = store.save_inbound(incoming.raw, incoming.source, datetime.now(timezone.utc).isoformat())
    finally:
        store.close()
    print(f"{'stored' if new else 'already stored'} {mail.id}", file=stdout)
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``adjudicator`` command."""
    parser = argparse.ArgumentParser(prog="adjudicator", description="A play-by-email judge for Diplomacy variants.")
    parser.add_argument("--version", action="version", version=f"adjudicator {__version__}")
    parser.add_argument("--config", metavar="FILE", type=Path, help="configuration file (see config.example.toml)")
    commands = parser.add_subparsers(dest="command", required=True)
    adjudicate = commands.add_parser("adjudicate", help="resolve one phase given as a JSON case")
    adjudicate.add_argument("--input", "-i", metavar="FILE", help="the JSON case (default: standard input)")
    adjudicate.set_defaults(handler=command_adjudicate)
    receive = commands.add_parser("receive", help="store one mail from standard input (for procmail/.forward)")
    receive.set_defaults(handler=command_receive)
    add_commands(commands)
    maps = commands.add_parser("map", help="check or list a map file").add_subparsers(dest="map_command", required=True)
    check = maps.add_parser("check", help="report every inconsistency of maps/NAME.toml (exit 1 if any)")
    check.add_argument("name", metavar="NAME", help="a map name, or the path of a .toml map file")
    check.set_defaults(handler=command_map_check)
    show = maps.add_parser("show", help="list a province of maps/NAME.toml (or the whole map)")
    show.add_argument("name", metavar="NAME", help="a map name, or the path of a .toml map file")
    show.add_argument("province", metavar="PROVINCE", nargs="?")
    show.set_defaults(handler=command_map_show)
    return parser


def main(argv: Sequence[str] | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None,
         stderr: TextIO | None = None) -> int:
    """Run the command line; returns the exit status."""
    args = build_parser().parse_args(argv)
    err = stderr or sys.stderr
    try:
        args.config = load_config(args.config)
    except ConfigError as error:
        print(f"adjudicator: bad configuration: {error}", file=err)
        return 2
    status: int = args.handler(args, stdin or sys.stdin, stdout or sys.stdout, err)
    return status
