"""The ``adjudicator`` command line.

``adjudicator adjudicate [--input FILE]`` reads one JSON case (standard
input when no file is given) and prints one JSON result; a malformed case
exits with status 2 and a message on standard error.  See docs/cli.md.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Sequence, TextIO

from pathlib import Path

from adjudicator import __version__
from adjudicator.config import ConfigError, load_config
from adjudicator.contract import CaseError, run_case


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


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``adjudicator`` command."""
    parser = argparse.ArgumentParser(prog="adjudicator", description="A play-by-email judge for Diplomacy variants.")
    parser.add_argument("--version", action="version", version=f"adjudicator {__version__}")
    parser.add_argument("--config", metavar="FILE", type=Path, help="configuration file (see config.example.toml)")
    commands = parser.add_subparsers(dest="command", required=True)
    adjudicate = commands.add_parser("adjudicate", help="resolve one phase given as a JSON case")
    adjudicate.add_argument("--input", "-i", metavar="FILE", help="the JSON case (default: standard input)")
    adjudicate.set_defaults(handler=command_adjudicate)
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
