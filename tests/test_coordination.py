"""How judge instances share the work on one database (docs/deploy.md):
the mailbox lease and its mark, claims of stored mails, when a deadline may
run, and taking over what a dead instance left.  Every test runs on SQLite
and on a real PostgreSQL server."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path

from adjudicator.service.coordination import Coordinator
from adjudicator.service.store import InboundMail, Store

T0 = datetime(2026, 12, 1, 10, 0, tzinfo=timezone.utc)
DEAD_PID = 4194303  # above Linux's default pid_max: never a live process


def mail(sender: str, number: int) -> bytes:
    return f"From: {sender}\r\nMessage-ID: <{number}@x.test>\r\n\r\nbody {number}\r\n".encode()


class Clock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> datetime:
        return self.now


def test_one_instance_reads_the_mailbox_at_a_time_and_marks_when_a_read_began(database_target: Path | str) -> None:
    clock = Clock()
    one, two = Coordinator(Store(database_target), clock), Coordinator(Store(database_target), clock)
    assert not one.mailbox_read_since(T0)
    assert one.begin_intake() and not two.begin_intake()
    one.end_intake(T0)
    assert two.mailbox_read_since(T0) and not two.mailbox_read_since(T0 + timedelta(seconds=1))
    clock.now = T0 + timedelta(seconds=5)
    assert two.begin_intake()
    two.end_intake(None)  # the read failed: the last complete read stays the mark
    assert one.mailbox_read_since(T0) and not one.mailbox_read_since(clock.now)
    assert one.begin_intake()
    clock.now += timedelta(seconds=250)
    one.renew_intake()  # a long read keeps its lease
    clock.now += timedelta(seconds=250)
    assert not two.begin_intake()


def test_a_deadline_waits_for_a_read_after_it_and_for_the_mail_before_it(database_target: Path | str) -> None:
    clock = Clock()
    store = Store(database_target)
    peers = Coordinator(store, clock, lease=60)
    deadline = T0 + timedelta(minutes=1)
    store.save_inbound(mail("a@x.test", 1), "pipe:1", T0.isoformat())  # arrived before the deadline
    clock.now = deadline + timedelta(seconds=10)
    assert not peers.deadline_may_run(deadline, mailbox_wait=60)  # no read of the mailbox since the deadline
    assert peers.begin_intake()
    peers.end_intake(clock.now)
    assert not peers.deadline_may_run(deadline, mailbox_wait=60)  # the mail that came in time waits
    [(claimed, attempts)] = list(peers.claimed_mails())
    assert attempts == 1
    with store.transaction() as db:
        store.finish_inbound(db, claimed.id, "done")
    assert peers.deadline_may_run(deadline, mailbox_wait=60)
    store.save_inbound(mail("b@x.test", 2), "pipe:2", clock.now.isoformat())  # after the deadline: no hold-up
    assert peers.deadline_may_run(deadline, mailbox_wait=60)


def test_an_unreadable_mailbox_holds_a_deadline_back_only_for_a_while(database_target: Path | str) -> None:
    clock = Clock()
    peers = Coordinator(Store(database_target), clock)
    clock.now = T0 + timedelta(seconds=30)
    assert not peers.deadline_may_run(T0, mailbox_wait=60)
    clock.now = T0 + timedelta(seconds=60)
    assert peers.deadline_may_run(T0, mailbox_wait=60)


def test_two_instances_never_claim_one_mail_and_keep_a_senders_order(database_target: Path | str) -> None:
    clock = Clock()
    one, two = Coordinator(Store(database_target), clock), Coordinator(Store(database_target), clock)
    store = one.store
    first, _ = store.save_inbound(mail("a@x.test", 1), "pipe:1", T0.isoformat())
    second, _ = store.save_inbound(mail("a@x.test", 2), "pipe:2", (T0 + timedelta(seconds=1)).isoformat())
    other, _ = store.save_inbound(mail("b@x.test", 3), "pipe:3", (T0 + timedelta(seconds=2)).isoformat())
    taking = one.claimed_mails()
    assert next(taking)[0].id == first.id
    assert [m.id for m, _ in two.claimed_mails()] == [other.id]  # the second of a@ waits for the first
    with store.transaction() as db:
        store.finish_inbound(db, first.id, "done")
    assert [m.id for m, _ in taking] == [second.id]


def test_what_a_dead_instance_held_is_taken_over_at_once(database_target: Path | str) -> None:
    clock = Clock()
    store = Store(database_target)
    peers = Coordinator(store, clock)
    dead, elsewhere = f"{socket.gethostname()}:{DEAD_PID}:abc", f"other-host.example:{DEAD_PID}:def"
    stored = [store.save_inbound(mail(f"p{n}@x.test", n), f"pipe:{n}", T0.isoformat())[0] for n in (1, 2)]
    until = (T0 + timedelta(minutes=5)).isoformat()
    store.claim_inbound_lease(stored[0].id, dead, T0.isoformat(), until)
    store.claim_inbound_lease(stored[1].id, elsewhere, T0.isoformat(), until)
    assert store.take_lease("intake", dead, T0.isoformat(), until)
    assert peers.recover() == [dead]  # its process is gone from this host
    assert peers.begin_intake() and [m.id for m, _ in peers.claimed_mails()] == [stored[0].id]
    assert peers.recover() == []  # the other host's instance keeps its claim until its lease ends
    assert peers.recover(everyone=True) == [elsewhere]  # SQLite's only judge takes everything over
    assert [(m.id, attempts) for m, attempts in peers.claimed_mails()] == [(stored[1].id, 2)]


def test_the_first_heartbeat_on_sqlite_takes_over_every_claim(database_target: Path | str) -> None:
    clock = Clock()
    store = Store(database_target)
    stored, _ = store.save_inbound(mail("p@x.test", 1), "pipe:1", T0.isoformat())
    elsewhere = f"other-host.example:{DEAD_PID}:def"
    store.claim_inbound_lease(stored.id, elsewhere, T0.isoformat(), (T0 + timedelta(minutes=5)).isoformat())
    Coordinator(store, clock).heartbeat()
    left = {holder for _, holder, _ in store.claimed_inbound(T0.isoformat())}
    assert left == (set() if store.backend == "sqlite" else {elsewhere})  # PostgreSQL: the other host's lease runs



def _waiting(database_target: Path | str, count: int) -> tuple[Store, list[InboundMail], Iterator[tuple[InboundMail, int]]]:
    """A store with ``count`` mails of as many senders, and one instance's claiming of them (not begun)."""
    store = Store(database_target)
    stored = [store.save_inbound(mail(f"p{n}@x.test", n), f"pipe:{n}", T0.isoformat())[0] for n in range(1, count + 1)]
    return store, stored, Coordinator(store, Clock()).claimed_mails()

def test_the_next_mail_is_claimed_in_the_transaction_that_handles_the_one_before(database_target: Path | str) -> None:
    store, stored, taking = _waiting(database_target, 3)
    first, attempts = next(taking)
    assert (first.id, attempts) == (stored[0].id, 1)
    assert {mail_id for mail_id, _, _ in store.claimed_inbound(T0.isoformat())} == {stored[0].id}
    with store.transaction() as db:  # the first mail's handling
        store.finish_inbound(db, first.id, "done")
    # committed with it: the second mail's claim and attempt, before it is asked for
    assert {mail_id for mail_id, _, _ in store.claimed_inbound(T0.isoformat())} == {stored[1].id}
    assert store.inbound(stored[1].id).attempts == 1
    second, attempts = next(taking)
    assert (second.id, attempts) == (stored[1].id, 1)  # not claimed twice
    with store.transaction() as db:
        store.finish_inbound(db, second.id, "done")
    third, attempts = next(taking)
    assert (third.id, attempts) == (stored[2].id, 1)
    with store.transaction() as db:
        store.finish_inbound(db, third.id, "done")
    assert list(taking) == []
    assert [store.inbound(m.id).attempts for m in stored] == [1, 1, 1]


def test_a_failed_handling_takes_the_next_claim_along_and_the_next_mail_is_claimed_on_its_own(
        database_target: Path | str) -> None:
    store, stored, taking = _waiting(database_target, 2)
    first, _ = next(taking)
    try:
        with store.transaction() as db:
            store.finish_inbound(db, first.id, "done")
            raise RuntimeError("the handling failed")
    except RuntimeError:
        pass
    assert store.inbound(stored[1].id).attempts == 0 and store.inbound(first.id).state == "new"
    second, attempts = next(taking)
    assert (second.id, attempts) == (stored[1].id, 1)
    assert store.inbound(stored[1].id).attempts == 1


def test_a_mail_claimed_early_and_never_handed_out_is_given_back(database_target: Path | str) -> None:
    store, stored, taking = _waiting(database_target, 2)
    first, _ = next(taking)
    with store.transaction() as db:
        store.finish_inbound(db, first.id, "done")
    assert {mail_id for mail_id, _, _ in store.claimed_inbound(T0.isoformat())} == {stored[1].id}
    taking.close()  # the judge stops handling (an error outside the mails)
    assert store.claimed_inbound(T0.isoformat()) == [] and store.claimable_inbound(T0.isoformat()) == [stored[1].id]
    with store.transaction():
        pass  # no claim is left to ride along
    assert store.claimed_inbound(T0.isoformat()) == []


class _FailingClaims(Store):
    """A store whose first claim of the mail ``fail_for`` fails with a database error."""

    fail_for = ""

    def claim_inbound_in(self, db, mail_id, holder, now, until):  # type: ignore[no-untyped-def]
        if mail_id == self.fail_for:
            self.fail_for = ""
            db.execute("UPDATE no_such_table SET attempts = 1")
        return super().claim_inbound_in(db, mail_id, holder, now, until)


def test_an_early_claim_that_fails_leaves_the_handling_it_rode_with_committed(
        database_target: Path | str) -> None:
    store = _FailingClaims(database_target)
    stored = [store.save_inbound(mail(f"p{n}@x.test", n), f"pipe:{n}", T0.isoformat())[0] for n in (1, 2)]
    store.fail_for = stored[1].id
    taking = Coordinator(store, Clock()).claimed_mails()
    first, _ = next(taking)
    with store.transaction() as db:  # the first mail's handling; the second's claim fails inside it
        store.finish_inbound(db, first.id, "done")
    assert store.inbound(first.id).state == "done"  # the handling was committed, not rolled back
    assert store.inbound(stored[1].id).attempts == 0  # the failed claim left nothing
    second, attempts = next(taking)  # claimed on its own when its turn comes
    assert (second.id, attempts) == (stored[1].id, 1)
