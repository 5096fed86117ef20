"""The operator's commands (docs/cli.md): ``serve``, ``demo``, ``game
create|list|show``, ``outbox``, ``purge`` and ``hash-password``.  Each opens the configured database;
SQLite's WAL mode lets them run beside a running judge.

The service's heavy parts (the judge and its scheduler, mail transports,
the store, templates) are imported by the commands that use them, so that
``adjudicator --help``, ``game list`` or ``outbox`` start quickly (issue 20).
"""

from __future__ import annotations

import argparse
import json
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator, TextIO

from adjudicator.config import format_duration, parse_duration

# The games (their registry and data files), the demo's scripts, logging
# and the judge are imported by the commands that use them, so that
# ``game list``, ``outbox`` or ``purge`` load no game (issue 20).
if TYPE_CHECKING:
    from adjudicator.service.runner import Judge
    from adjudicator.service.store import Store

EX_TEMPFAIL = 75  # sysexits.h: try again later (procmail keeps the mail)


def open_store(args: argparse.Namespace, stderr: TextIO, *, create: bool = False) -> Store | None:
    """The configured database, or None after saying on ``stderr`` why it
    cannot be used (the command then exits with ``EX_TEMPFAIL``).  Only
    with ``create`` (``serve``, ``game create``) is a missing SQLite file
    made; otherwise it is an error naming the path, so a command run in
    the wrong folder never starts an empty database."""
    from adjudicator.service.store import Store, StoreError

    target = args.config.store_target
    if not create and isinstance(target, Path) and not target.exists():
        print(f"adjudicator {args.command}: no database at {target} (serve or game create makes one; "
              f"is --config right?)", file=stderr)
        return None
    try:
        return Store(args.config.store_target, mail_key=args.config.mail_key)
    except StoreError as error:
        print(f"adjudicator {args.command}: {error}", file=stderr)
        return None


def option_value(key: str, text: str) -> Any:
    """An ``--option KEY=VALUE`` value: durations for ``deadline.*`` and
    ``reminder.*`` keys (``72h`` -> seconds), whole numbers, true/false,
    else the text."""
    if key.startswith(("deadline.", "reminder.")):
        return parse_duration(text)
    if text.lstrip("-").isdigit():
        return int(text)
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    return text


def command_game_create(args: argparse.Namespace, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    """Create a game open for sign-on; 2 when the name, variant or an option is wrong."""
    from adjudicator.games import UnknownGame, game_module
    from adjudicator.games.base import GameSetupError
    from adjudicator.service import gamedata
    from adjudicator.service.creation import GameError, create_game

    options: dict[str, Any] = {}
    for item in args.option or []:
        key, sep, value = item.partition("=")
        if not sep or not key:
            print(f"adjudicator game create: --option {item!r}: expected KEY=VALUE", file=stderr)
            return 2
        try:
            options[key.strip()] = option_value(key.strip(), value.strip())
        except ValueError as error:
            print(f"adjudicator game create: --option {key}: {error}", file=stderr)
            return 2
    if "cards.file" in options:  # the old way to name 1848's card file: read here, by the operator's hand
        args.data = [*(args.data or []), f"cards={options.pop('cards.file')}"]
    try:
        options.update(data_options(game_module(args.variant or args.config.default_variant), args.data or [],
                                    args.config.data_max_bytes))
    except UnknownGame as error:
        print(f"adjudicator game create: {error}", file=stderr)
        return 2
    except gamedata.DataRefused as refused:
        for problem in refused.problems:
            print(f"adjudicator game create: {problem}", file=stderr)
        return 2
    store = open_store(args, stderr, create=True)
    if store is None:
        return EX_TEMPFAIL
    gm_password = _gm_password() if args.gm else None
    settings = {"gm_password_hash": _hash(gm_password)} if gm_password else {}
    try:
        game = create_game(store, args.config, args.name, args.variant or args.config.default_variant, options,
                           datetime.now(timezone.utc), gm=args.gm, settings=settings)
    except (GameError, GameSetupError, UnknownGame) as error:
        print(f"adjudicator game create: {error}", file=stderr)
        return 2
    finally:
        store.close()
    module = game_module(game.variant)
    powers = module.powers()
    print(f"created {game.name} ({game.variant}), {len(powers)} powers open for sign-on: {', '.join(powers)}",
          file=stdout)
    if gamedata.uses_standin(game.options) and gamedata.files_of(module):
        print("data: the stand-in data set (stand-in values, not the original data; every report says so)",
              file=stdout)
    for name in gamedata.awaiting(game.state):
        data_file = gamedata.find(module, name)
        print(f"waiting for the data file {name}: the game cannot start without it; supply it with "
              f"GM DATA {name} (attached) or create the game with --data {name}=FILE "
              f"(template: adjudicator data template {game.variant} {name})", file=stdout)
        for line in (data_file.unknown(None) if data_file and data_file.unknown else ()):
            print(f"  unknown: {line}", file=stdout)
    if gm_password:
        print(f"GM password for {args.gm}: {gm_password} (sign on with GAMEMASTER {game.name} <password>)",
              file=stdout)
    return 0


def _gm_password() -> str:
    """A new GM password (``secrets``, imported only for a game with a GM)."""
    import secrets

    return secrets.token_urlsafe(9)


def _hash(password: str) -> str:
    """``auth.hash_password`` (imported only where a password is hashed)."""
    from adjudicator.service.auth import hash_password

    return hash_password(password)


def data_options(module: Any, items: list[str], limit: int) -> dict[str, str]:
    """``--data NAME=FILE`` items as options ``data.<name>``: each file read
    (at most ``limit`` bytes), decoded and checked by the game;
    ``DataRefused`` names every problem with file, line and field."""
    from adjudicator.service import gamedata

    options: dict[str, str] = {}
    problems: list[str] = []
    for item in items:
        name, sep, path = item.partition("=")
        data_file = gamedata.find(module, name.strip() or None) if sep else gamedata.find(module, None)
        path = path if sep else item
        if data_file is None:
            known = ", ".join(f.name for f in gamedata.files_of(module)) or "none"
            problems.append(f"--data {item}: {module.variant} has no data file {name!r} (there are: {known})")
            continue
        try:
            with open(path, "rb") as handle:
                raw = handle.read(limit + 1)
            text = gamedata.checked(data_file, gamedata.decoded(raw, path, limit), path)
        except OSError as error:
            problems.append(f"--data {item}: cannot read {path}: {error.strerror}")
            continue
        except gamedata.DataRefused as refused:
            problems.extend(str(p) for p in refused.problems)
            continue
        options[f"data.{data_file.name}"] = text
    if problems:
        raise gamedata.DataRefused(problems)
    return options


def _variant_module(args: argparse.Namespace, what: str, stderr: TextIO) -> Any:
    """The game of ``args.variant`` as far as its data files go (the
    registry's ``described``: 1848's without its rules), or None after
    saying why not."""
    from adjudicator.games import UnknownGame
    from adjudicator.games.registry import described

    try:
        return described(args.variant)
    except UnknownGame as error:
        print(f"adjudicator {args.command} {what}: {error}", file=stderr)
        return None


def command_data_template(args: argparse.Namespace, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    """Print the template of a game's data file; 2 for an unknown variant or file."""
    from adjudicator.service import gamedata

    module = _variant_module(args, "template", stderr)
    if module is None:
        return 2
    data_file = gamedata.find(module, args.name)
    if data_file is None:
        known = ", ".join(f.name for f in gamedata.files_of(module)) or "none"
        print(f"adjudicator {args.command} template: {module.variant} has no data file {args.name or ''} "
              f"(there are: {known})", file=stderr)
        return 2
    stdout.write(data_file.template())
    return 0


def command_data_check(args: argparse.Namespace, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    """Check a data file: every problem on its own line (file, line, field);
    0 when a game can start with it, 1 when not, 2 when unreadable."""
    from adjudicator.service import gamedata

    module = _variant_module(args, "check", stderr)
    if module is None:
        return 2
    try:
        options = data_options(module, [f"{args.name or ''}={args.file}" if args.name else args.file],
                               args.config.data_max_bytes)
    except gamedata.DataRefused as refused:
        for problem in refused.problems:
            print(problem, file=stdout)
        print(f"{args.file}: {len(refused.problems)} problem(s)", file=stdout)
        return 1
    print(f"{args.file}: ok ({', '.join(options)}); a game can start with it", file=stdout)
    return 0


def command_game_list(args: argparse.Namespace, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    """One line per game: name, variant, status, phase, deadline, seats taken."""
    store = open_store(args, stderr)
    if store is None:
        return EX_TEMPFAIL
    try:
        games = store.games()
        if not games:
            print("no games", file=stdout)
        for game in games:
            seats = store.players(game.name)
            taken = sum(1 for p in seats if p.status != "open")
            print(f"{game.name}\t{game.variant}\t{game.status}\t{game.phase}\t{game.deadline or '-'}\t"
                  f"{taken}/{len(seats)} seats", file=stdout)
    finally:
        store.close()
    return 0


def command_game_show(args: argparse.Namespace, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    """A game's phase, deadline and seats, and which powers have orders in
    (never the orders themselves); 1 when there is no such game."""
    from adjudicator.games import game_module
    from adjudicator.service.render import Texts

    store = open_store(args, stderr)
    if store is None:
        return EX_TEMPFAIL
    try:
        game = store.game(args.name)
        if game is None:
            print(f"adjudicator game show: no game called {args.name!r}", file=stderr)
            return 1
        # Only an active game has powers that must act: a forming or finished one loads no rules (issue 20).
        acting = set(game_module(game.variant).must_act(game.state)) if game.status == "active" else set()
        submissions = store.submissions(game.name, game.phase)
        print(f"game:     {game.name} ({game.variant}), {game.status}", file=stdout)
        print(f"phase:    {game.phase}", file=stdout)
        print(f"deadline: {Texts('en', game.time_zone).machine_time(game.deadline)} ({game.time_zone})", file=stdout)
        print(f"gm:       {game.gm or '-'}", file=stdout)
        print(f"deadlines: {', '.join(f'{k} {format_duration(v)}' for k, v in sorted(game.deadlines.items()))}",
              file=stdout)
        if game.outcome:
            print(f"outcome:  {game.outcome}", file=stdout)
        print(f"resolved: {len(store.phases(game.name))} phases", file=stdout)
        for seat in store.players(game.name):
            entry = submissions.get(seat.power)
            if seat.power not in acting:
                orders = "nothing to order"
            elif entry is not None and entry.has_orders:
                orders = "orders in" + (", ready" if entry.ready else "")
            else:
                orders = "no orders yet" + (", ready" if entry is not None and entry.ready else "")
            print(f"  {seat.power}: {seat.status}, {seat.address or '-'}, {orders}", file=stdout)
    finally:
        store.close()
    return 0


def _subject(message: bytes) -> str:
    from email import message_from_bytes, policy

    try:
        return str(message_from_bytes(message, policy=policy.default).get("Subject", ""))
    except Exception:
        return "?"


def command_outbox(args: argparse.Namespace, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    """Every outgoing mail not yet accepted by the SMTP server: pending
    (never tried) and failed (with the last error and the next try)."""
    store = open_store(args, stderr)
    if store is None:
        return EX_TEMPFAIL
    try:
        unsent = store.unsent_mail() + store.refused_mail()
        if args.json:
            json.dump([{"id": m.id, "recipients": list(m.recipients), "subject": _subject(m.message),
                        "queued_at": m.queued_at, "attempts": m.attempts, "next_try": m.next_try,
                        "state": "refused" if m.gave_up_at else "failed" if m.attempts else "pending",
                        "last_error": m.last_error}
                       for m in unsent], stdout, ensure_ascii=False, indent=2)
            stdout.write("\n")
            return 0
        if not unsent:
            print("outbox empty: every mail was accepted by the SMTP server", file=stdout)
        for mail in unsent:
            state = f"failed {mail.attempts}x, next try {mail.next_try}: {mail.last_error}" if mail.attempts \
                else f"pending since {mail.queued_at}"
            if mail.gave_up_at:
                state = f"refused for good at {mail.gave_up_at}, not tried again: {mail.last_error}"
            print(f"{mail.id[:12]}  {', '.join(mail.recipients)}  {_subject(mail.message)!r}  {state}", file=stdout)
    finally:
        store.close()
    return 0


def command_serve(args: argparse.Namespace, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    """Run the judge until SIGTERM/SIGINT (``--once``: one round, then exit)."""
    import asyncio
    import logging

    from adjudicator.service.imap import MailboxUnavailable
    from adjudicator.service.lock import AlreadyServing, ServeLock
    from adjudicator.service.reader import ReaderProcess
    from adjudicator.service.runner import Judge, make_transport

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s", stream=stderr)
    try:  # one judge per SQLite file; several on PostgreSQL share the work by claims (issue 19)
        lock = None if args.config.database_url else ServeLock(args.config.database)
    except AlreadyServing as error:
        print(f"adjudicator serve: {error}", file=stderr)
        return EX_TEMPFAIL
    store = open_store(args, stderr, create=True)
    if store is None:
        if lock is not None:
            lock.release()
        return EX_TEMPFAIL
    config = args.config
    judge = Judge(config, store, make_transport(config))
    print(f"adjudicator serve: database {store.name}, mailbox {config.mailbox.kind} "
          f"{config.mailbox.path if config.mailbox.kind == 'maildir' else config.mailbox.host}, "
          f"outgoing {config.smtp.kind} {config.smtp.path if config.smtp.kind == 'maildir' else config.smtp.host}",
          file=stderr, flush=True)
    try:
        if args.once:
            judge.reader = ReaderProcess()  # started at the first mail (S37)
            try:
                judge.poll()
            finally:
                judge.reader.close()
            asyncio.run(judge.send())
            return 0
        asyncio.run(_serve_until_signal(judge))
    except MailboxUnavailable as error:
        print(f"adjudicator serve: {error}", file=stderr)
        return EX_TEMPFAIL
    finally:
        store.close()
        if lock is not None:
            lock.release()
    return 0


def command_purge(args: argparse.Namespace, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    """Apply the retention (``limits.retention``) now: raw mails handled
    longer ago are emptied, sent outbox mails deleted (S32)."""
    store = open_store(args, stderr)
    if store is None:
        return EX_TEMPFAIL
    retention = args.config.limits.retention
    try:
        cutoff = (datetime.now(timezone.utc) - timedelta(seconds=retention)).isoformat()
        mails, outbox, answers = store.purge(cutoff)
    finally:
        store.close()
    print(f"purged (older than {format_duration(retention)}): {mails} raw mails emptied, {outbox} sent mails and "
          f"{answers} answer records deleted", file=stdout)
    return 0


def command_hash_password(args: argparse.Namespace, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    """Read a password from standard input and print its hash, for
    ``judge.admin_password`` in the configuration."""
    from adjudicator.service.auth import hash_password

    password = stdin.readline().rstrip("\r\n")
    if not password:
        print("adjudicator hash-password: no password on standard input", file=stderr)
        return 2
    print(hash_password(password), file=stdout)
    return 0


async def _serve_until_signal(judge: Judge) -> None:
    import asyncio
    import signal

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    await judge.serve(stop)
    await judge.send()


def command_demo(args: argparse.Namespace, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    """Play the scripted demo game and print where its mails are."""
    import asyncio
    import mailbox
    import tempfile

    from adjudicator.service.demo import demo_config, play
    from adjudicator.service.demo_scripts import SCRIPTS

    folder = Path(args.dir) if args.dir else Path(tempfile.mkdtemp(prefix="adjudicator-demo-"))
    folder.mkdir(parents=True, exist_ok=True)
    config = demo_config(folder)
    script = SCRIPTS[args.variant]
    print(f"adjudicator demo: playing a scripted {script.variant} game in {folder} ...", file=stdout, flush=True)
    phases = asyncio.run(play(config, script, deadline_seconds=args.deadline))
    sent = config.smtp.path
    count = len(mailbox.Maildir(sent, create=True))
    print(f"phases played: {', '.join(phases)}", file=stdout)
    print(f"{count} mails sent by the judge are in the Maildir {sent} (one file each in {sent / 'new'})",
          file=stdout)
    print(f"the players' mails are in {config.mailbox.path}, the database is {config.database}", file=stdout)
    return 0 if script.finished(phases) else 1


def command_verify(args: argparse.Namespace, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    """Recompute every random event of a game from its seed: from the
    database (``GAME``) or from the file a game's last mail carries
    (``--file``); 0 when every event is genuine, 1 otherwise."""
    from adjudicator.service import verify

    if args.file:
        try:
            document = json.loads(Path(args.file).read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            print(f"adjudicator verify: {args.file}: {error}", file=stderr)
            return 1
        problems, count, digest = verify.document_problems(document), len(document.get("events", [])), \
            str(document.get("sha256", ""))
    else:
        if not args.game:
            print("adjudicator verify: name a game or --file", file=stderr)
            return 2
        store = open_store(args, stderr)
        if store is None:
            return EX_TEMPFAIL
        try:
            game = store.game(args.game)
            if game is None:
                print(f"adjudicator verify: no game called {args.game!r}", file=stderr)
                return 1
            problems, count = verify.problems(store, game), len(verify.events_of(store, game))
            digest = verify.events_document(store, game)["sha256"]
        finally:
            store.close()
    print(f"seed SHA-256: {digest}", file=stdout)
    for problem in problems:
        print(f"WRONG: {problem}", file=stdout)
    print(f"{count} random events checked: " + ("all genuine" if not problems else f"{len(problems)} problem(s)"),
          file=stdout)
    return 0 if not problems else 1


class _DemoScripts:
    """The demo's script names as ``--variant`` choices, read from
    ``demo_scripts`` only when ``demo`` parses or prints its options."""

    def _names(self) -> list[str]:
        from adjudicator.service.demo_scripts import SCRIPTS

        return sorted(SCRIPTS)

    def __contains__(self, name: object) -> bool:
        return name in self._names()

    def __iter__(self) -> Iterator[str]:
        return iter(self._names())


def add_commands(commands: Any) -> None:
    """Register the operator commands on the ``adjudicator`` argument parser."""
    serve = commands.add_parser("serve", help="run the judge (poll mail, deadlines, send mail)")
    serve.add_argument("--once", action="store_true", help="one round of intake, deadlines and sending, then exit")
    serve.set_defaults(handler=command_serve)
    demo = commands.add_parser("demo", help="play a scripted game through the real judge, mails left as files")
    demo.add_argument("--dir", metavar="DIR", help="folder for the demo's mail and database (default: a new temporary one)")
    demo.add_argument("--variant", choices=_DemoScripts(), metavar="VARIANT", default="30jk",
                      help="the scripted game: %(choices)s (default %(default)s)")
    demo.add_argument("--deadline", metavar="SECONDS", type=int, default=4, help="length of each deadline (default 4)")
    demo.set_defaults(handler=command_demo)
    game = commands.add_parser("game", help="create, list or show games").add_subparsers(dest="game_command",
                                                                                          required=True)
    create = game.add_parser("create", help="create a game; its powers are then open for sign-on")
    create.add_argument("name", metavar="NAME")
    create.add_argument("--variant", metavar="VARIANT", help="standard, 30jk, ... (default: rules.default_variant)")
    create.add_argument("--option", metavar="KEY=VALUE", action="append",
                        help="variant option (e.g. confessions=random) or language=de|en, time_zone=..., "
                             "deadline.movement=72h, deadline.<turn kind>=24h, reminder.<turn kind>=2h, weekly.<kind>=Sun 20:00, "
                             "digest=round|none|hours:N (repeatable)")
    create.add_argument("--gm", metavar="ADDRESS", help="the game master's address (gets every report)")
    create.add_argument("--data", metavar="NAME=FILE", action="append",
                        help="a data file the game needs (1848: cards=my-cards.toml), checked first (repeatable); "
                             "--option data=standin plays with the stand-in set instead")
    create.set_defaults(handler=command_game_create)
    for word, default in (("data", None), ("cards", "1848")):
        files = commands.add_parser(word, help="the template and the check of a game's data file"
                                    + (" (1848's card file)" if default else "")).add_subparsers(
            dest="data_command", required=True)
        template = files.add_parser("template", help="print the template to fill in (every unknown value marked)")
        template.add_argument("variant", metavar="VARIANT", **({"nargs": "?", "default": default} if default else {}))
        template.add_argument("name", metavar="NAME", nargs="?", default="cards" if default else None,
                              help="the data file (default: the game's only one)")
        template.set_defaults(handler=command_data_template)
        check = files.add_parser("check", help="list every problem of a filled-in file (exit 1 if any)")
        if default:
            check.add_argument("file", metavar="FILE")
            check.add_argument("--variant", default=default, help=f"the game (default {default})")
            check.set_defaults(name="cards")
        else:
            check.add_argument("variant", metavar="VARIANT")
            check.add_argument("file", metavar="FILE")
            check.add_argument("--name", help="the data file (default: the game's only one)")
        check.set_defaults(handler=command_data_check)
    listing = game.add_parser("list", help="one line per game")
    listing.set_defaults(handler=command_game_list)
    show = game.add_parser("show", help="phase, deadline and who has orders in (never the orders)")
    show.add_argument("name", metavar="NAME")
    show.set_defaults(handler=command_game_show)
    checking = commands.add_parser("verify", help="recompute every die roll and shuffle of a game from its seed")
    checking.add_argument("game", metavar="GAME", nargs="?")
    checking.add_argument("--file", metavar="FILE", help="the <game>-random.json of a game's last mail instead")
    checking.set_defaults(handler=command_verify)
    purge = commands.add_parser("purge", help="apply the retention now: drop old raw mails and sent outbox mails")
    purge.set_defaults(handler=command_purge)
    hashing = commands.add_parser("hash-password", help="print the hash of a password read from standard input "
                                                        "(for judge.admin_password)")
    hashing.set_defaults(handler=command_hash_password)
    outbox = commands.add_parser("outbox", help="pending and failed outgoing mail")
    outbox.add_argument("--json", action="store_true", help="print a JSON list instead of lines")
    outbox.set_defaults(handler=command_outbox)
