"""Several judge instances on one database: who reads the mailbox, who
handles which mail, when a deadline may run.

Each running judge is an *instance* with an id of its own (host, process,
a random part), recorded in the store with the time it was last seen.
Work is shared through the database only:

- the **mailbox** is read by one instance at a time, under the lease
  ``intake``; whoever finishes a complete read records when it began (the
  lease's mark), so every instance knows how recent the last read is;
- a stored **mail** is claimed by one instance for ``lease`` seconds (a
  conditional update), the mails of one sender in their order of arrival;
  a claim whose instance died runs out and another instance takes the mail
  over (its attempts counted on, so a mail that kills every judge is
  eventually set aside);
- **work on one game** is serialised by the game's lock, taken whenever a
  game is read inside a transaction (``Store.game``);
- a **deadline** runs only once the mailbox has been read completely after
  it and no mail that arrived before it waits; it is taken with a
  non-waiting game lock, so in a storm each instance resolves other games,
  and re-checked under that lock (the deadline may have moved).

On SQLite there is one instance (a second ``serve`` is refused); the same
rules then simply always find everything free.
"""

from __future__ import annotations

import logging
import os
import secrets
import socket
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta, timezone
from functools import partial

from adjudicator.service.budget import MailTimeout
from adjudicator.service.store import Connection, InboundMail, Rider, Store

log = logging.getLogger("adjudicator")

_NOT_CLAIMED = object()
"""An early claim that failed (the mail is claimed on its own)."""

INTAKE_LEASE = "intake"


def new_instance_id() -> str:
    """A fresh instance id: ``host:pid:random``."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"


class Coordinator:
    """One instance's side of the rules above."""

    def __init__(self, store: Store, clock: Callable[[], datetime], lease: float = 300.0,
                 instance: str | None = None) -> None:
        self.store, self.clock, self.lease = store, clock, timedelta(seconds=lease)
        self.instance = instance or new_instance_id()
        self._beating = False

    def _stamps(self) -> tuple[str, str]:
        now = self.clock()
        return now.isoformat(), (now + self.lease).isoformat()

    def heartbeat(self) -> None:
        """Record that this instance is alive (``db status`` lists it) and
        take over what dead instances on this host left (``recover``); the
        first time on SQLite, whose one judge is this one, everything any
        other instance held."""
        self.store.instance_seen(self.instance, socket.gethostname(), os.getpid(), self.clock().isoformat())
        self.recover(everyone=not self._beating and self.store.backend == "sqlite")
        self._beating = True

    def recover(self, everyone: bool = False) -> list[str]:
        """End the claims and leases of instances on this host whose process
        is gone (killed, crashed), so their work is taken over at once
        rather than when their leases run out; returns those instances.
        Instances on other hosts are left to their leases, unless
        ``everyone``: at the start of the only judge of an SQLite database
        every other holder is gone."""
        host, gone = socket.gethostname(), []
        for holder in sorted(self.store.holders(self.clock().isoformat())):
            if holder == self.instance:
                continue
            name, _, rest = holder.partition(":")
            pid = rest.partition(":")[0]
            local = name == host and pid.isdigit() and int(pid) != os.getpid() and not _alive(int(pid))
            if everyone or local:
                self.store.instance_stopped(holder, self.clock().isoformat())
                gone.append(holder)
        return gone

    def stopped(self) -> None:
        """This instance stops: its claims and leases end at once."""
        self.store.instance_stopped(self.instance, self.clock().isoformat())

    # --- the mailbox -------------------------------------------------------------

    def begin_intake(self) -> bool:
        """Take the mailbox lease; False while another instance reads the mailbox."""
        now, until = self._stamps()
        return self.store.take_lease(INTAKE_LEASE, self.instance, now, until)

    def renew_intake(self) -> None:
        """Hold the mailbox lease a while longer (a long read renews it after each mail)."""
        now, until = self._stamps()
        self.store.take_lease(INTAKE_LEASE, self.instance, now, until)

    def end_intake(self, read_from: datetime | None) -> None:
        """Give the mailbox lease back; ``read_from`` is when a complete
        read began (None: the read failed, the last mark stays)."""
        self.store.end_lease(INTAKE_LEASE, self.instance, None if read_from is None else read_from.isoformat())

    def mailbox_read_since(self, moment: datetime) -> bool:
        """True when a complete read of the mailbox began at or after ``moment``."""
        lease = self.store.lease(INTAKE_LEASE)
        mark = _moment(lease[2]) if lease is not None else None
        return mark is not None and mark >= moment

    # --- mail --------------------------------------------------------------------

    def claimed_mails(self) -> Iterator[tuple[InboundMail, int]]:
        """Claim the stored mails one at a time, oldest first (per sender in
        order of arrival), each with the number of attempts at it so far
        including this one; mails another instance holds are left to it.
        The next mail is claimed only when the caller asks for it, or, with
        the same effect and no commit of its own (issue 20), in the
        transaction that handles the mail before it: each mail's attempt
        is counted in a committed transaction before its handling begins."""
        skipped: set[str] = set()
        early: tuple[str, Rider] | None = None
        try:
            while True:
                waiting = [i for i in self.store.claimable_inbound(self.clock().isoformat()) if i not in skipped]
                if not waiting:
                    return
                for index, mail_id in enumerate(waiting):
                    skipped.add(mail_id)  # whatever becomes of it, not twice in one round
                    if early is not None and early[0] == mail_id and early[1].committed \
                            and early[1].result is not _NOT_CLAIMED:
                        attempts = early[1].result
                    else:
                        now, until = self._stamps()
                        attempts = self.store.claim_inbound_lease(mail_id, self.instance, now, until)
                    early = None
                    if attempts is None:
                        continue  # another instance was quicker
                    mail = self.store.inbound(mail_id)
                    if mail.state == "new":
                        following = waiting[index + 1] if index + 1 < len(waiting) else None
                        if following is not None:
                            early = (following, self.store.ride_along(partial(self._claim_in, following)))
                        yield mail, attempts
                        if early is not None:
                            self.store.drop_rider(early[1])
        finally:
            if early is not None:
                self.store.drop_rider(early[1])
                if early[1].committed and isinstance(early[1].result, int):  # claimed, never handed out
                    self.store.release_inbound(early[0], self.instance)

    def _claim_in(self, mail_id: str, db: Connection) -> int | None | object:
        """Claim ``mail_id`` inside the transaction ``db``: its attempts, None
        when another instance holds it, ``_NOT_CLAIMED`` on an error (then
        it is claimed on its own when its turn comes).  The mail's time
        running out is not caught: it ends the handling as it would anyway.
        The claim runs in a savepoint, so a failed claim is undone alone and
        never spoils the handling it rides with (on PostgreSQL an error
        would otherwise turn that transaction's COMMIT into a rollback)."""
        now, until = self._stamps()
        db.execute("SAVEPOINT early_claim")
        try:
            claimed = self.store.claim_inbound_in(db, mail_id, self.instance, now, until)
        except MailTimeout:
            raise
        except Exception:
            log.warning("mail %s could not be claimed early", mail_id[:12], exc_info=True)
            db.execute("ROLLBACK TO SAVEPOINT early_claim")
            db.execute("RELEASE SAVEPOINT early_claim")
            return _NOT_CLAIMED
        db.execute("RELEASE SAVEPOINT early_claim")
        return claimed

    # --- deadlines ---------------------------------------------------------------

    def deadline_may_run(self, deadline: datetime, mailbox_wait: float) -> bool:
        """True when a deadline at ``deadline`` may be processed now: the
        mailbox was read completely after it (or could not be read for
        ``mailbox_wait`` seconds after it) and no mail that arrived before
        it is still waiting to be handled."""
        if not self.mailbox_read_since(deadline) and self.clock() < deadline + timedelta(seconds=mailbox_wait):
            return False
        oldest = _moment(self.store.oldest_pending_arrival())
        return oldest is None or oldest >= deadline


def _alive(pid: int) -> bool:
    """True when a process ``pid`` exists on this host."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # it exists, under another user
    return True


def _moment(text: str | None) -> datetime | None:
    """An ISO-8601 time as stored (UTC when it names no zone); None when absent or unreadable."""
    if not text:
        return None
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=timezone.utc)
