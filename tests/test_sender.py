"""Issue 20: the outbox is sent from a thread of its own, over its own
database connection, when woken and at the end."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from adjudicator.service.sender import SenderThread
from adjudicator.service.store import Store, StoreError


def test_the_sender_thread_sends_when_woken_over_its_own_connection(tmp_path: Path) -> None:
    """A round runs in another thread, with a store of its own on the same
    database; it sees what the main thread queued; stopping runs one more."""
    main = Store(tmp_path / "judge.sqlite3")
    rounds: list[tuple[int, int]] = []
    seen = threading.Event()

    async def send_round(store: Store) -> None:
        assert store is not main and store.target == main.target
        rounds.append((threading.get_ident(), len(store.unsent_mail())))
        seen.set()

    sender = SenderThread(main.target, send_round, every=3600)
    sender.start()
    with main.transaction() as db:
        main.queue_mail(db, ("a@example.org",), b"Subject: x\r\n\r\nhello\r\n", "2026-12-01T10:00:00+00:00")
    sender.wake()
    assert seen.wait(10)
    sender.stop()
    assert len(rounds) == 2 and rounds[0] == (rounds[0][0], 1)
    assert all(ident != threading.get_ident() for ident, _ in rounds)
    main.close()


def test_a_failing_round_does_not_end_the_thread(tmp_path: Path) -> None:
    """A round that raises is logged; the next one runs."""
    Store(tmp_path / "judge.sqlite3").close()
    calls: list[float] = []

    async def send_round(store: Store) -> None:
        calls.append(time.monotonic())
        if len(calls) == 1:
            raise RuntimeError("SMTP trouble")

    sender = SenderThread(tmp_path / "judge.sqlite3", send_round, every=0.05)
    sender.start()
    deadline = time.monotonic() + 10
    while len(calls) < 3 and time.monotonic() < deadline:
        time.sleep(0.02)
    sender.stop()
    assert len(calls) >= 3


def test_an_unusable_database_is_named_at_start(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")

    async def send_round(store: Store) -> None:
        raise AssertionError("never")

    with pytest.raises(StoreError, match="file"):
        SenderThread(tmp_path / "file" / "judge.sqlite3", send_round, every=1).start()


def test_a_second_connection_in_one_process_keeps_the_first_ones_writes_visible(tmp_path: Path) -> None:
    """Opening a second connection (the sender thread's) must not take the
    first one's SQLite locks away: otherwise another process closing its
    connection checkpoints and deletes the WAL file the first still writes
    to, and what it writes afterwards is lost to everyone else."""
    import subprocess
    import sys

    path = tmp_path / "judge.sqlite3"
    first = Store(path)
    second = Store(path, migrate=False)
    peek = ("import sqlite3, sys; db = sqlite3.connect(sys.argv[1]);"
            " print(db.execute('SELECT COUNT(*) FROM outbox').fetchone()[0]); db.close()")

    def others_see() -> int:
        return int(subprocess.run([sys.executable, "-c", peek, str(path)], capture_output=True, text=True,
                                  check=True).stdout)

    for n in range(3):
        with first.transaction() as db:
            first.queue_mail(db, ("a@example.org",), f"Subject: {n}\r\n\r\nx\r\n".encode(), "2026-12-01T10:00:00+00:00")
        assert others_see() == n + 1
    second.close()
    first.close()


def test_the_main_thread_makes_way_for_the_senders_pending_write(tmp_path: Path) -> None:
    """``make_way`` returns only once the sender's announced write has been
    committed (so that on SQLite a storm of resolutions cannot starve the sender)."""
    from adjudicator.service.sender import _Gate, _GatedStore

    main = Store(tmp_path / "judge.sqlite3")
    gate = _Gate()
    inside = threading.Event()

    def write() -> None:
        store = _GatedStore(tmp_path / "judge.sqlite3", gate)
        with store.transaction() as db:
            inside.set()
            time.sleep(0.2)
            store.queue_mail(db, ("a@example.org",), b"Subject: x\r\n\r\ny\r\n", "2026-12-01T10:00:00+00:00")
        store.close()

    writer = threading.Thread(target=write)
    writer.start()
    assert inside.wait(10)
    gate.make_way(30)
    assert len(main.unsent_mail()) == 1
    writer.join()
    main.close()
