"""``adjudicator db migrate|status|copy`` (docs/cli.md, docs/deploy.md):
a judge moves from SQLite to PostgreSQL with everything it holds, and the
operator sees the state of a shared database."""

from __future__ import annotations

import io
import json
from datetime import timedelta
from pathlib import Path

from adjudicator.cli import main
from adjudicator.service.store import MIGRATIONS, Store
from adjudicator.service.transfer import tables
from tests.postgres import PostgresServer
from tests.test_service_commands import FIRST_DEADLINE, POWERS, Table, address, everyone_ready, signon


def run(tmp_path: Path, database: str, *argv: str) -> tuple[int, str, str]:
    config = tmp_path / f"judge-{abs(hash(database))}.toml"
    key = "url" if database.startswith("postgresql:") else "path"
    config.write_text(f'[database]\n{key} = "{database}"\n', encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    status = main(["--config", str(config), *argv], stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def rows(store: Store) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every table, in a stable order; a sealed mail (S36) as
    what it seals (each database seals under its own key)."""
    found = {}
    for table in tables():
        cursor = store.connection.execute(f"SELECT * FROM {table}")
        names = [str(column[0]) for column in cursor.description or ()]
        values = [[bytes(v) if isinstance(v, memoryview) else v for v in row] for row in cursor.fetchall()]
        for row in values:
            for i, name in enumerate(names):
                if table == "inbound" and name == "sealed" and row[i] is not None:
                    row[i] = store.mail_key.unseal(row[i])
        found[table] = sorted((tuple(row) for row in values), key=repr)
    return found


def test_migrate_brings_a_new_database_to_the_schema_and_says_so(tmp_path: Path,
                                                                 postgres_server: PostgresServer) -> None:
    for database in (str(tmp_path / "new.sqlite3"), postgres_server.new_database()):
        status, out, _ = run(tmp_path, database, "db", "migrate")
        assert status == 0 and f"schema {len(MIGRATIONS)}, {len(MIGRATIONS)} migrations applied, from schema 0" in out
        status, out, _ = run(tmp_path, database, "db", "migrate")
        assert status == 0 and "already up to date" in out


def test_a_live_sqlite_judge_copied_to_postgresql_answers_the_same(tmp_path: Path,
                                                                   postgres_server: PostgresServer) -> None:
    old = Table(tmp_path / "old")
    old.create()
    old.seat_everyone()
    everyone_ready(old, {"Austria": ("A Vie - Gal",), "Russia": ("A War - Gal",)})
    old.send(address("Germany"), signon("Germany"), "A Mun - Ruh")
    old.deliver("stranger@elsewhere.test", "SIGNON Germany spiel1 wrong-password")  # a failed sign-on is counted
    old.judge.poll()  # its answer stays in the outbox
    old.now = FIRST_DEADLINE - timedelta(hours=1)  # before F1901M's deadline: nothing resolves meanwhile
    old.deliver(address("France"), f"{signon('France')}\nF Bre - Mao")
    old.judge.take_in()  # stored, not yet handled
    assert old.store.unsent_mail() and old.store.pending_inbound(), "the copy carries unsent and unhandled mail"

    url = postgres_server.new_database()
    status, out, err = run(tmp_path, url, "db", "copy", "--from", f"sqlite:{old.config.database}", "--to", url)
    assert status == 0, err
    assert f"to {url}:" in out and "  phases: 1" in out and "  players: 7" in out
    new = Table(tmp_path / "new", database_url=url)
    new.now = old.now
    assert rows(new.store) == rows(old.store)

    shown = [run(tmp_path, db, "game", "show", "spiel1") for db in (str(old.config.database), url)]
    assert shown[0] == shown[1] and shown[0][0] == 0 and "resolved: 1 phases" in shown[0][1]
    outs = [table.send("visitor@elsewhere.test", "HISTORY spiel1", "HISTORY spiel1 S1901M") for table in (old, new)]
    assert [(m.kind, m.to, m.text) for m in outs[0]] == [(m.kind, m.to, m.text) for m in outs[1]]
    assert "A VIE - GAL" in outs[1].one("acknowledgement", "visitor@elsewhere.test").text
    assert "F BRE - MAO" in outs[1].one("acknowledgement", address("France")).text  # the mail that waited
    # both judges go on alike: the same orders resolve the same fall
    for table in (old, new):
        everyone_ready(table, {"Austria": ("A Vie - Tyr",)})
    assert old.store.phases("spiel1")[-1].report_text == new.store.phases("spiel1")[-1].report_text
    assert [p.phase for p in new.store.phases("spiel1")] == ["S1901M", "F1901M"]

    status, _, err = run(tmp_path, url, "db", "copy", "--from", f"sqlite:{old.config.database}", "--to", url)
    assert status == 1 and "is not empty" in err
    for table in (old, new):
        table.store.close()


def test_status_shows_instances_claims_queues_and_deadlines(tmp_path: Path, database_target: Path | str) -> None:
    table = Table(tmp_path, database_url=database_target if isinstance(database_target, str) else "")
    table.create()
    for power in POWERS:
        table.deliver(address(power), signon(power))
    table.judge.poll()  # the start mails stay in the outbox
    table.store.instance_seen("hostA:4711:1", "hostA", 4711, "2026-12-01T10:00:00+00:00")
    table.deliver(address("Italy"), f"{signon('Italy')}\nA Rom - Apu")
    table.judge.take_in()
    waiting = table.store.claimable_inbound("2099-01-01T00:00:00+00:00")
    table.store.claim_inbound_lease(waiting[0], "hostA:4711:1", "2026-12-01T10:00:00+00:00", "2099-01-01T00:00:00+00:00")
    sending = table.store.unsent_mail()[0].id
    assert table.store.claim_outbound(sending, "2026-12-01T10:00:00+00:00", "2099-01-01T00:00:00+00:00", "hostA:4711:1")
    target = str(table.store.target)
    status, out, _ = run(tmp_path, target, "db", "status", "--json")
    assert status == 0
    data = json.loads(out)
    assert data["backend"] == table.store.backend and data["schema"] == len(MIGRATIONS)
    assert "hostA:4711:1" in [i["id"] for i in data["instances"]]  # with the judge's own instance
    assert [c["holder"] for c in data["claims"]] == ["hostA:4711:1"] and data["inbound"]["new"] == 1
    assert data["oldest_unhandled"] is not None and [c["mail"] for c in data["sending"]] == [sending[:16]]
    assert data["outbox"]["unsent"] == len(table.store.unsent_mail()) > 0
    assert data["next_deadlines"] == [{"game": "spiel1", "phase": "S1901M", "deadline": FIRST_DEADLINE.isoformat()}]
    status, out, _ = run(tmp_path, target, "db", "status")
    assert status == 0 and "hostA pid 4711" in out and "1 waiting" in out and "spiel1 S1901M" in out
    table.store.close()


def test_status_refuses_a_database_behind_this_judge(tmp_path: Path) -> None:
    status, _, err = run(tmp_path, str(tmp_path / "never.sqlite3"), "db", "status")
    assert status == 1 and "run adjudicator db migrate" in err
