"""The database commands (docs/cli.md, docs/deploy.md): ``adjudicator db
migrate``, ``db status`` and ``db copy``."""

from __future__ import annotations

import argparse
import json
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any, TextIO

from adjudicator.service.admin import EX_TEMPFAIL

if TYPE_CHECKING:  # the store is imported by the commands, not for --help (issue 20)
    from adjudicator.service.store import Store

NEXT_DEADLINES = 10


def _open(target: Any, command: str, stderr: TextIO, migrate: bool = True, mail_key: Any = None) -> Store | None:
    from adjudicator.service.store import Store, StoreError

    try:
        return Store(target, migrate=migrate, mail_key=mail_key)
    except StoreError as error:
        print(f"adjudicator db {command}: {error}", file=stderr)
        return None


def command_db_migrate(args: argparse.Namespace, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    """Bring the configured database to this judge's schema (what every
    start does too); says which version it was at and is at now."""
    from adjudicator.service.store import MIGRATIONS, StoreError

    store = _open(args.config.store_target, "migrate", stderr, migrate=False, mail_key=args.config.mail_key)
    if store is None:
        return EX_TEMPFAIL
    try:
        before = store.schema_version
        applied = store.migrate()
    except StoreError as error:
        print(f"adjudicator db migrate: {error}", file=stderr)
        return 1
    finally:
        store.close()
    state = f"{applied} migrations applied, from schema {before}" if applied else "already up to date"
    print(f"database {store.name} ({store.backend}): schema {len(MIGRATIONS)}, {state}", file=stdout)
    return 0


def status(store: Store, now: datetime) -> dict[str, Any]:
    """What ``db status`` shows, as data: schema, instances seen, claims
    and leases held, queue lengths, the oldest mail not yet handled, the
    next deadlines."""
    stamp = now.isoformat()
    unsent = store.unsent_mail()
    deadlines = sorted((g.deadline, g.name, g.phase) for g in store.games() if g.status == "active" and g.deadline)
    return {
        "database": store.name,
        "backend": store.backend,
        "schema": store.schema_version,
        "instances": [
            {"id": i, "host": host, "pid": pid, "started_at": started, "seen_at": seen, "stopped_at": stopped}
            for i, host, pid, started, seen, stopped in store.instances()
        ],
        "claims": [{"mail": mail[:16], "holder": holder, "until": until}
                   for mail, holder, until in store.claimed_inbound(stamp)],
        "sending": [{"mail": mail[:16], "holder": holder, "until": until}
                    for mail, holder, until in store.claimed_outbound(stamp)],
        "leases": [{"name": name, "holder": holder, "until": until, "mark": mark}
                   for name, holder, until, mark in store.leases() if until > stamp],
        "inbound": store.inbound_counts(),
        "oldest_unhandled": store.oldest_pending_arrival(),
        "outbox": {"unsent": len(unsent), "due": sum(1 for m in unsent if m.next_try <= stamp),
                   "failed": sum(1 for m in unsent if m.attempts)},
        "next_deadlines": [{"game": name, "phase": phase, "deadline": when}
                           for when, name, phase in deadlines[:NEXT_DEADLINES]],
    }


def _print_status(data: dict[str, Any], stdout: TextIO) -> None:
    print(f"database:  {data['database']} ({data['backend']}), schema {data['schema']}", file=stdout)
    print(f"instances: {len(data['instances'])} seen", file=stdout)
    for item in data["instances"]:
        state = f"stopped {item['stopped_at']}" if item["stopped_at"] else f"last seen {item['seen_at']}"
        print(f"  {item['id']}  {item['host']} pid {item['pid']}, started {item['started_at']}, {state}", file=stdout)
    print(f"claims:    {len(data['claims'])} mails being handled", file=stdout)
    for claim in data["claims"]:
        print(f"  mail {claim['mail']} by {claim['holder']} until {claim['until']}", file=stdout)
    for claim in data["sending"]:
        print(f"  outgoing mail {claim['mail']} being sent by {claim['holder']} until {claim['until']}", file=stdout)
    for lease in data["leases"]:
        print(f"  lease {lease['name']} by {lease['holder']} until {lease['until']}", file=stdout)
    counts = data["inbound"]
    others = "".join(f", {counts[state]} {state}" for state in sorted(counts) if state != "new")
    print(f"inbound:   {counts.get('new', 0)} waiting{others}", file=stdout)
    print(f"oldest:    {data['oldest_unhandled'] or '-'} (oldest mail not yet handled)", file=stdout)
    outbox = data["outbox"]
    print(f"outbox:    {outbox['unsent']} unsent, {outbox['due']} due now, {outbox['failed']} after failures",
          file=stdout)
    print(f"deadlines: {len(data['next_deadlines'])} next", file=stdout)
    for entry in data["next_deadlines"]:
        print(f"  {entry['deadline']}  {entry['game']} {entry['phase']}", file=stdout)


def command_db_status(args: argparse.Namespace, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    """The state of the configured database for the operator (``--json``: as JSON)."""
    from adjudicator.service.store import MIGRATIONS

    store = _open(args.config.store_target, "status", stderr, migrate=False, mail_key=args.config.mail_key)
    if store is None:
        return EX_TEMPFAIL
    try:
        if store.schema_version != len(MIGRATIONS):
            print(f"adjudicator db status: database {store.name} is at schema {store.schema_version}, this judge"
                  f" needs {len(MIGRATIONS)}: run adjudicator db migrate", file=stderr)
            return 1
        data = status(store, datetime.now(timezone.utc))
    finally:
        store.close()
    if args.json:
        json.dump(data, stdout, ensure_ascii=False, indent=2)
        stdout.write("\n")
    else:
        _print_status(data, stdout)
    return 0


def command_db_copy(args: argparse.Namespace, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    """Copy a whole judge into an empty database (both are migrated first)."""
    from adjudicator.service.store import StoreError
    from adjudicator.service.transfer import copy_database

    own = args.config.mail_key if str(args.source) == str(args.config.store_target) else None
    source = _open(args.source, "copy", stderr, mail_key=own)
    if source is None:
        return EX_TEMPFAIL
    target = _open(args.target, "copy", stderr)
    if target is None:
        source.close()
        return EX_TEMPFAIL
    try:
        summary = copy_database(source, target)
    except StoreError as error:
        print(f"adjudicator db copy: {error}", file=stderr)
        return 1
    finally:
        source.close()
        target.close()
    print(f"copied {summary.total} rows from {source.name} to {target.name}:", file=stdout)
    for table, count in summary.rows:
        print(f"  {table}: {count}", file=stdout)
    return 0


def add_db_commands(commands: Any) -> None:
    """Register ``adjudicator db migrate|status|copy``."""
    db = commands.add_parser("db", help="the judge's database: migrate, status, copy").add_subparsers(
        dest="db_command", required=True)
    migrate = db.add_parser("migrate", help="bring the configured database to this judge's schema")
    migrate.set_defaults(handler=command_db_migrate)
    show = db.add_parser("status", help="instances, claims, queues, oldest waiting mail, next deadlines")
    show.add_argument("--json", action="store_true", help="print JSON instead of lines")
    show.set_defaults(handler=command_db_status)
    copy = db.add_parser("copy", help="copy a whole judge into an empty database (SQLite <-> PostgreSQL)")
    copy.add_argument("--from", dest="source", metavar="DB", required=True,
                      help="the database to copy: sqlite:PATH, a file path, or postgresql://...")
    copy.add_argument("--to", dest="target", metavar="DB", required=True,
                      help="an empty database: postgresql://..., sqlite:PATH or a file path")
    copy.set_defaults(handler=command_db_copy)
