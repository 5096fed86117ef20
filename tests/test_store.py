"""The judge's database: migrations, incoming mail stored once before it is
read, and the durable outbox.  Every test that takes ``database_target``
runs against SQLite and against a real PostgreSQL server."""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

import pytest

from adjudicator.service.store import MIGRATIONS, Store, StoreError, content_hash
from tests.conftest import BACKENDS
from tests.postgres import PostgresServer

MAIL = b"From: spieler@example.org\r\nMessage-ID: <1@example.org>\r\nSubject: Befehle\r\n\r\nA Aug H\r\n"
OTHER = b"From: spieler@example.org\r\nMessage-ID: <2@example.org>\r\n\r\nA BFre H\r\n"


@pytest.fixture
def store(database_target: Path | str) -> Store:
    return Store(database_target)


def test_a_new_database_is_migrated_and_reopened(database_target: Path | str) -> None:
    first = Store(database_target)
    assert first.schema_version == len(MIGRATIONS)
    first.save_inbound(MAIL, "pipe:1", "2026-11-30T10:00:00+00:00")
    first.close()
    again = Store(database_target)
    assert again.schema_version == len(MIGRATIONS) and again.backend in BACKENDS
    assert [m.source for m in again.pending_inbound()] == ["pipe:1"]
    if isinstance(database_target, Path):
        assert sqlite3.connect(database_target).execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_a_database_from_a_newer_judge_is_refused(database_target: Path | str) -> None:
    opened = Store(database_target)
    with opened.transaction() as db:
        db.execute("INSERT INTO schema_version (version) VALUES (?)", (len(MIGRATIONS) + 1,))
    opened.close()
    with pytest.raises(StoreError, match="newer than this judge"):
        Store(database_target)


def test_an_unusable_path_is_named(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    with pytest.raises(StoreError, match="file"):
        Store(tmp_path / "file" / "judge.sqlite3")


def test_incoming_mail_is_stored_once(store: Store) -> None:
    mail, new = store.save_inbound(MAIL, "imap:7:1", "2026-11-30T10:00:00+00:00")
    assert new and mail.id == content_hash(MAIL) and mail.message_id == "<1@example.org>" and mail.raw == MAIL
    assert store.save_inbound(MAIL, "imap:7:1", "later")[1] is False  # same source
    assert store.save_inbound(MAIL, "maildir:abc", "later")[1] is False  # same bytes
    resent = MAIL.replace(b"A Aug H", b"A Aug - Ing")
    assert store.save_inbound(resent, "imap:7:2", "later")[1] is False  # same Message-ID
    assert store.save_inbound(OTHER, "imap:7:3", "later")[1] is True
    assert [m.source for m in store.pending_inbound()] == ["imap:7:1", "imap:7:3"]


def test_broken_mail_is_stored_too(store: Store) -> None:
    garbage = b"\xff\xfe\x00not a mail at all"
    mail, new = store.save_inbound(garbage, "pipe:x", "now")
    assert new and mail.message_id is None and mail.raw == garbage


def test_a_stored_mails_message_id_and_sender_are_what_a_whole_parse_reads(store: Store) -> None:
    # issue 20: one parse of the head gives both; a parse of the whole mail (as before) reads the same fields
    from email import message_from_bytes
    from email.utils import parseaddr

    mails = [MAIL, OTHER, b"\xff\xfe\x00not a mail at all", mail_from("Spieler <A@X.test>", 9),
             b"From: =?utf-8?q?J=C3=BCrgen?= <j@x.test>\r\nMessage-ID:  <sp@x>  \r\n\r\nbody",
             "From: Jürgen <jü@x.test>\r\nMessage-ID:\r\n\r\nbody".encode(),
             b"From: a@x.test, b@x.test\r\nMessage-ID: <f@x>\r\n (folded)\r\nContent-Type: multipart/mixed;"
             b' boundary="b"\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nx\r\n--b--\r\n',
             b"Subject: no from\r\n\r\n" + b"x" * 70000, b"From: " + b"long@x.test " * 7000 + b"\r\n\r\nbody"]
    for number, raw in enumerate(mails):
        whole = message_from_bytes(raw[:65536])
        expected_id = str(whole.get("Message-ID") or "").strip() or None
        expected_sender = parseaddr(str(whole.get("From")))[1].strip().lower()[:320] if whole.get("From") else ""
        stored, new = store.save_inbound(raw, f"pipe:{number}", "2026-11-30T10:00:00")
        assert new and stored.message_id == expected_id
        assert store._db.execute("SELECT sender FROM inbound WHERE id = ?", (stored.id,)).fetchone()[0] == \
            expected_sender


def test_handling_commits_with_the_state_or_not_at_all(store: Store) -> None:
    mail, _ = store.save_inbound(MAIL, "pipe:1", "now")
    with pytest.raises(RuntimeError):
        with store.transaction() as db:
            store.queue_mail(db, ("spieler@example.org",), b"reply", "now")
            store.finish_inbound(db, mail.id, "done")
            raise RuntimeError("crash while handling")
    assert [m.id for m in store.pending_inbound()] == [mail.id]
    assert store.unsent_mail() == []
    with store.transaction() as db:
        store.queue_mail(db, ("spieler@example.org",), b"reply", "now")
        store.finish_inbound(db, mail.id, "done", "2 orders")
    assert store.pending_inbound() == []
    assert store.inbound(mail.id).state == "done" and store.inbound(mail.id).note == "2 orders"


def test_outbox_retries_until_sent(store: Store) -> None:
    with store.transaction() as db:
        first = store.queue_mail(db, ("a@example.org", "b@example.org"), b"report 1", "2026-11-30T10:00:00")
        second = store.queue_mail(db, ("a@example.org",), b"report 2", "2026-11-30T10:00:00")
        assert store.queue_mail(db, ("a@example.org",), b"report 1", "2026-11-30T10:00:01") == first
    assert [m.id for m in store.due_mail("2026-11-30T10:00:00")] == [first, second]
    assert store.outbound(first).recipients == ("a@example.org", "b@example.org")
    store.mark_failed(first, "2026-11-30T10:05:00", "421 try later")
    store.mark_sent(second, "2026-11-30T10:00:02")
    assert store.due_mail("2026-11-30T10:01:00") == []
    assert [m.id for m in store.unsent_mail()] == [first]
    later = store.due_mail("2026-11-30T10:05:00")
    assert [m.id for m in later] == [first] and later[0].attempts == 1 and later[0].last_error == "421 try later"


def test_two_connections_write_the_same_database(database_target: Path | str) -> None:
    service, operator = Store(database_target), Store(database_target)
    service.save_inbound(MAIL, "imap:1:1", "now")
    operator.save_inbound(OTHER, "pipe:1", "now")
    assert [m.seq for m in service.pending_inbound()] == [1, 2]
    with pytest.raises(ValueError):
        with service.transaction() as db:
            service.finish_inbound(db, content_hash(MAIL), "new")


def test_the_sql_avoids_what_postgresql_does_not_accept() -> None:
    source = Path(__file__).resolve().parent.parent / "adjudicator" / "service" / "store.py"
    statements = [s for migration in MIGRATIONS for s in migration]
    text = source.read_text(encoding="utf-8").split("def _migrate", 1)[1]
    for word in ("AUTOINCREMENT", "INSERT OR", "rowid", "REPLACE INTO", "GLOB", "IFNULL"):
        assert all(word.lower() not in s.lower() for s in statements), word
        assert word.lower() not in text.lower(), word
    assert all("PRAGMA" not in s for s in statements)


def test_an_unreachable_postgresql_server_is_named_without_its_password() -> None:
    with pytest.raises(StoreError) as refused:
        Store("postgresql://judge:s3cret@127.0.0.1:1/adjudicator")
    assert "judge@127.0.0.1:1/adjudicator" in str(refused.value) and "s3cret" not in str(refused.value)


def mail_from(sender: str, number: int) -> bytes:
    return f"From: {sender}\r\nMessage-ID: <{number}@x.test>\r\n\r\nbody {number}\r\n".encode()


def test_a_claimed_mail_is_held_by_one_instance_until_its_lease_ends(database_target: Path | str) -> None:
    one, two = Store(database_target), Store(database_target)
    mail, _ = one.save_inbound(MAIL, "pipe:1", "2026-11-30T10:00:00+00:00")
    assert one.claimable_inbound("2026-11-30T10:00:01") == [mail.id]
    assert one.claim_inbound_lease(mail.id, "a", "2026-11-30T10:00:01", "2026-11-30T10:05:00") == 1
    assert two.claimable_inbound("2026-11-30T10:00:02") == []
    assert two.claim_inbound_lease(mail.id, "b", "2026-11-30T10:00:02", "2026-11-30T10:05:00") is None
    assert [(h, u) for _, h, u in two.claimed_inbound("2026-11-30T10:00:02")] == [("a", "2026-11-30T10:05:00")]
    # instance a died: after its lease the mail is taken over, the attempts counted on
    assert two.claim_inbound_lease(mail.id, "b", "2026-11-30T10:05:00", "2026-11-30T10:10:00") == 2
    with two.transaction() as db:
        two.finish_inbound(db, mail.id, "done")
    assert one.claim_inbound_lease(mail.id, "a", "2026-11-30T11:00:00", "2026-11-30T11:05:00") is None
    assert one.claimable_inbound("2026-11-30T11:00:00") == [] and one.inbound_counts() == {"done": 1}


def test_mails_of_one_sender_are_claimable_in_their_order_of_arrival(store: Store) -> None:
    first, _ = store.save_inbound(mail_from("Spieler <A@x.test>", 1), "pipe:1", "2026-11-30T10:00:00")
    second, _ = store.save_inbound(mail_from("a@x.test", 2), "pipe:2", "2026-11-30T10:00:01")
    other, _ = store.save_inbound(mail_from("b@x.test", 3), "pipe:3", "2026-11-30T10:00:02")
    assert store.claimable_inbound("2026-11-30T10:01:00") == [first.id, other.id]
    store.claim_inbound_lease(first.id, "a", "2026-11-30T10:01:00", "2026-11-30T10:06:00")
    assert store.claimable_inbound("2026-11-30T10:01:00") == [other.id]  # the second waits for the first
    with store.transaction() as db:
        store.finish_inbound(db, first.id, "done")
    assert store.claimable_inbound("2026-11-30T10:01:00") == [second.id, other.id]
    assert store.oldest_pending_arrival() == "2026-11-30T10:00:01"


def test_a_lease_is_held_by_one_holder_and_keeps_its_mark(database_target: Path | str) -> None:
    one, two = Store(database_target), Store(database_target)
    assert one.take_lease("intake", "a", "2026-11-30T10:00:00", "2026-11-30T10:05:00")
    assert one.take_lease("intake", "a", "2026-11-30T10:01:00", "2026-11-30T10:06:00")  # renewed
    assert not two.take_lease("intake", "b", "2026-11-30T10:02:00", "2026-11-30T10:07:00")
    one.end_lease("intake", "a", mark="2026-11-30T10:00:00")
    assert two.take_lease("intake", "b", "2026-11-30T10:02:00", "2026-11-30T10:07:00")
    assert two.lease("intake") == ("b", "2026-11-30T10:07:00", "2026-11-30T10:00:00")
    assert not one.take_lease("intake", "a", "2026-11-30T10:03:00", "2026-11-30T10:08:00")
    assert one.take_lease("intake", "a", "2026-11-30T10:07:00", "2026-11-30T10:12:00")  # b's lease ran out
    two.instance_seen("b", "host1", 42, "2026-11-30T10:00:00")
    two.instance_seen("b", "host1", 42, "2026-11-30T10:01:00")
    one.instance_stopped("a", "2026-11-30T10:02:00")  # an instance never seen: nothing to stop but its lease
    assert one.lease("intake") is not None and one.lease("intake")[1] == ""  # type: ignore[index]
    assert two.instances() == [("b", "host1", 42, "2026-11-30T10:00:00", "2026-11-30T10:01:00", None)]


def test_work_on_one_game_waits_for_the_game_lock(database_target: Path | str) -> None:
    one, two = Store(database_target), Store(database_target)
    with one.transaction() as db:
        assert one.game("Spiel1") is None  # reading a game inside a transaction takes its lock
        assert one.try_game_lock(db, "Spiel1")
        with (two.transaction() if one.backend == "postgresql" else contextlib.nullcontext()) as other:
            if other is not None:  # SQLite: the write transaction already keeps every other writer out
                assert not two.try_game_lock(other, "spiel1") and two.try_game_lock(other, "spiel2")


def test_a_lost_postgresql_connection_is_opened_again_outside_a_transaction(postgres_server: PostgresServer) -> None:
    store = Store(postgres_server.new_database())
    other = Store(str(store.target))

    def cut() -> None:
        pid = store.connection.execute("SELECT pg_backend_pid()").fetchone()[0]
        other.connection.execute("SELECT pg_terminate_backend(?)", (pid,))

    import psycopg

    cut()
    store.save_inbound(MAIL, "pipe:1", "now")  # the server dropped the connection: it is opened again
    with pytest.raises(psycopg.OperationalError):
        with store.transaction() as db:
            store.queue_mail(db, ("a@example.org",), b"reply", "now")
            cut()
            store.finish_inbound(db, content_hash(MAIL), "done")  # inside the transaction: lost, not repeated
    assert store.unsent_mail() == [] and [m.source for m in store.pending_inbound()] == ["pipe:1"]


def test_an_outbox_mail_is_claimed_by_one_sender_until_its_lease_ends(database_target: Path | str) -> None:
    one, two = Store(database_target), Store(database_target)
    with one.transaction() as db:
        mail = one.queue_mail(db, ("a@example.org",), b"report", "2026-11-30T10:00:00")
    assert one.claim_outbound(mail, "2026-11-30T10:00:00", "2026-11-30T10:10:00", "a")
    assert not two.claim_outbound(mail, "2026-11-30T10:00:01", "2026-11-30T10:10:01", "b")
    assert two.due_mail("2026-11-30T10:00:01") == []  # claimed: not due for anyone else
    assert two.holders("2026-11-30T10:00:01") == {"a"}
    two.instance_stopped("a", "2026-11-30T10:00:02")  # a stopped: its claim ends at once
    assert two.claim_outbound(mail, "2026-11-30T10:00:02", "2026-11-30T10:10:02", "b")
    two.mark_sent(mail, "2026-11-30T10:00:03")
    assert not one.claim_outbound(mail, "2026-11-30T11:00:00", "2026-11-30T11:10:00", "a")  # sent: never again


def test_mails_sharing_a_body_store_it_once_and_read_back_whole(database_target: Path | str) -> None:
    store = Store(database_target)
    body = b"Bericht\r\n" * 2000
    heads = [b"To: a@example.org\r\nMessage-ID: <1@pbem.test>\r\n\r\n", b"To: b@example.org\r\nMessage-ID: <2@pbem.test>\r\n\r\n"]
    with store.transaction() as db:
        ids = store.queue_shared(db, [(("a@example.org",), heads[0]), (("b@example.org",), heads[1])], body,
                                 "2026-11-30T10:00:00+00:00")
        again = store.queue_shared(db, [(("a@example.org",), heads[0])], body, "2026-11-30T10:00:00+00:00")
        whole = store.queue_mail(db, ("c@example.org",), MAIL, "2026-11-30T10:00:00+00:00")
        queued = store.queued_after(db, 0)
    assert again == ids[:1] and ids == [content_hash(head + body) for head in heads]
    assert [m.message for m in store.unsent_mail()] == [heads[0] + body, heads[1] + body, MAIL]
    assert queued == [(heads[0] + body, ("a@example.org",)), (heads[1] + body, ("b@example.org",)),
                      (MAIL, ("c@example.org",))]
    assert store.connection.execute("SELECT COUNT(*) FROM outbox_bodies").fetchone() == (1,)
    # retention: a body goes with the last mail that shares it
    store.mark_sent(ids[0], "2026-11-30T10:00:00+00:00")
    store.mark_sent(whole, "2026-11-30T10:00:00+00:00")
    assert store.purge("2026-12-01T00:00:00+00:00")[1] == 2
    assert store.outbound(ids[1]).message == heads[1] + body
    store.mark_sent(ids[1], "2026-11-30T10:00:00+00:00")
    store.purge("2026-12-01T00:00:00+00:00")
    assert store.connection.execute("SELECT COUNT(*) FROM outbox_bodies").fetchone() == (0,)


def test_a_database_from_before_shared_bodies_keeps_its_mails_when_migrated(database_target: Path | str) -> None:
    shared = next(number for number, migration in enumerate(MIGRATIONS) if any("outbox_bodies" in s for s in migration))
    old = Store(database_target, migrate=False)
    with old.transaction() as db:  # the schema as the judge before S40 left it, with a mail waiting
        db.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        for version, statements in enumerate(MIGRATIONS[:shared], start=1):
            for statement in statements:
                db.execute(statement)
            db.execute("INSERT INTO schema_version (version) VALUES (?)", (version,))
        db.execute("INSERT INTO outbox (id, seq, recipients, message, queued_at, next_try) VALUES (?, 1, ?, ?, ?, ?)",
                   (content_hash(MAIL), "a@example.org", MAIL, "2026-11-30T10:00:00+00:00", "2026-11-30T10:00:00+00:00"))
    assert old.schema_version == shared
    old.close()
    store = Store(database_target)
    assert store.schema_version == len(MIGRATIONS)
    assert [(m.id, m.message, m.recipients) for m in store.unsent_mail()] == [(content_hash(MAIL), MAIL, ("a@example.org",))]


def test_a_transaction_reads_each_game_once_until_it_writes_one(database_target: Path | str) -> None:
    """Inside a transaction a game's row is read once (issue 20) and each
    read still gets a record of its own; after a game is written (which a
    savepoint may take back) every read goes to the database again."""
    from adjudicator.records import replace

    from adjudicator.service.store import GameRecord

    store = Store(database_target)
    game = GameRecord("Spiel1", "standard", {}, "de", "UTC", None, "active", "S1901M", {"phase": "S1901M"}, None,
                      {}, "", "now", {"press": "white"})
    with store.transaction() as db:
        store.create_game(db, game, ("England",))
    statements: list[str] = []
    trace = getattr(store.connection, "_db")
    if store.backend == "sqlite":
        trace.set_trace_callback(statements.append)
    with store.transaction() as db:
        first, second, typed = store.game("Spiel1"), store.game("Spiel1"), store.game("SPIEL1")
        assert first == second == typed == game and first is not second and first.state is not second.state
        if store.backend == "sqlite":
            assert sum("FROM games" in s for s in statements) == 2  # once per name as asked
        db.execute("SAVEPOINT probe")
        store.update_game(db, replace(game, phase="F1901M"))
        assert store.game("Spiel1").phase == "F1901M"
        db.execute("ROLLBACK TO SAVEPOINT probe")
        assert store.game("Spiel1").phase == "S1901M"
        store.update_game(db, replace(game, status="paused"))
        assert store.game("spiel1").status == "paused"
    assert store.game("Spiel1").status == "paused"


def test_a_games_phases_after_a_sequence_number_are_only_the_later_ones(database_target: Path | str) -> None:
    """``phases(game, after=n)`` gives the phases recorded after the n-th,
    oldest first, and nothing of another game (a turn-based game's digest
    reads only what a seat has not seen); without it, all of them."""
    from adjudicator.service.store import GameRecord, PhaseRecord

    store = Store(database_target)
    with store.transaction() as db:
        for name in ("Spiel1", "Spiel2"):
            store.create_game(db, GameRecord(name, "standard", {}, "de", "UTC", None, "active", "S1901M",
                                             {"phase": "S1901M"}, None, {}, "", "now", {}), ("England",))
        for phase in ("S1901M", "F1901M", "W1901A", "S1902M"):
            store.add_phase(db, PhaseRecord("Spiel1", phase, {"phase": phase}, {}, {}, phase, "deadline", "now"))
        store.add_phase(db, PhaseRecord("Spiel2", "S1901M", {}, {}, {}, "other", "deadline", "now"))
    every = store.phases("Spiel1")
    assert [p.phase for p in every] == ["S1901M", "F1901M", "W1901A", "S1902M"] and [p.seq for p in every] == [1, 2, 3, 4]
    later = store.phases("Spiel1", after=2)
    assert [p.phase for p in later] == ["W1901A", "S1902M"] and later[0].state == {"phase": "W1901A"}
    assert store.phases("Spiel1", after=4) == [] and [p.report_text for p in store.phases("Spiel2", after=0)] == ["other"]
    store.close()


def test_processes_opening_a_new_sqlite_file_at_once_all_get_it_in_wal_mode(tmp_path: Path) -> None:
    # Several connections switching a new file to WAL at the same moment:
    # SQLite tells all but one "database is locked" at once, without its
    # busy timeout (two judge processes of test_hardening met it; two
    # `receive` runs from procmail could).  Each round: six threads, one
    # fresh file.
    import threading

    from adjudicator.service.backend import SqliteConnection

    for round_number in range(60):
        path = tmp_path / f"judge-{round_number}.sqlite3"
        start = threading.Barrier(6)
        errors: list[str] = []

        def open_it() -> None:
            start.wait()
            try:
                SqliteConnection(path)
            except Exception as error:  # noqa: BLE001 (any failure is the finding)
                errors.append(repr(error))

        threads = [threading.Thread(target=open_it) for _ in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert errors == [], (round_number, errors)
        assert sqlite3.connect(path).execute("PRAGMA journal_mode").fetchone() == ("wal",)
