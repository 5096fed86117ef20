"""The running judge: one step per job, as in a mail server's runners.

- ``poll``: take new mail in (store first), handle every stored mail not
  yet handled, resolve games whose players are all ready or whose
  deadline passed;
- ``send``: hand due outbox mail to SMTP (or into the outgoing Maildir);
- one APScheduler date job per active game at its deadline.

All state lives in the database, so a restart continues where the last run
stopped: the mailbox is read first, unhandled mail is handled in order of
arrival, a deadline that passed while the judge was down is processed
between the mail that arrived before it and the mail after it, unsent mail
is sent.  One bad mail never stops the judge: a mail whose handling fails
is tried once more, then set aside (``shunted``) and the administrator
told; a mail that runs out of time is answered "too complex".
"""

from __future__ import annotations

import asyncio
import logging
import mailbox
import os
import signal
import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future
from concurrent.futures import wait as wait_for_futures
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from apscheduler.schedulers.asyncio import AsyncIOScheduler

from adjudicator.config import Config
from adjudicator.service.ahead import ReadAhead
from adjudicator.service.coordination import Coordinator
from adjudicator.service.budget import MailTimeout, time_budget
from adjudicator.service.handler import answer_too_complex, handle_mail, shunt
from adjudicator.service.imap import Backoff, ImapIntake, ImapSettings, MailboxUnavailable
from adjudicator.service.intake import MaildirIntake, Transport, make_maildir, take_in
from adjudicator.service.reminders import send_pause_notices, send_reminders
from adjudicator.service.reader import InlineReader, Reader, ReaderProcess
from adjudicator.service.outbox import BATCH, SendSummary, SmtpSettings, send_due
from adjudicator.service.pool import InlinePreparer, PoolPreparer, Preparer
from adjudicator.service.notify import queue, queue_notice
from adjudicator.service.render import Texts
from adjudicator.service.sender import SenderThread
from adjudicator.service.store import AlreadyHandled, InboundMail, Store
from adjudicator.service.turnplay import flush_digests
from adjudicator.service.turns import PhaseWork, deadline_passed, due_deadlines, everyone_ready, process_phase

log = logging.getLogger("adjudicator")

CRASH_ENV = "ADJUDICATOR_CRASH_AT"
CRASH_WAIT = 10.0

UNFINISHED_GRACE = 2
"""Attempts beyond ``limits.mail_attempts`` a mail gets when earlier ones
did not finish (the judge holding it died): a judge is also killed for
reasons that have nothing to do with the mail (issue 19's storms)."""


SENDING = threading.RLock()
"""Held by a sending round from its first claim to its last sent-mark."""


def crash_point(name: str) -> None:
    """Kill the process with SIGKILL at the named point when the environment
    variable ADJUDICATOR_CRASH_AT names it (crash-safety tests); otherwise
    do nothing.  The kill waits (at most ``CRASH_WAIT`` seconds) for a
    sending round of the sender thread to end: a kill inside an SMTP
    conversation may send a mail twice by the nature of SMTP (S10), which
    is not what the named point tests."""
    if os.environ.get(CRASH_ENV) == name:
        SENDING.acquire(timeout=CRASH_WAIT)
        os.kill(os.getpid(), signal.SIGKILL)


def utc_now() -> datetime:
    """The current time in UTC (the service shell's only clock)."""
    return datetime.now(timezone.utc)


def make_transport(config: Config) -> Transport:
    """The intake transport the configuration names."""
    if config.mailbox.kind == "imap":
        box = config.mailbox
        return ImapIntake(ImapSettings(box.host, box.port, box.tls, box.user, box.password, box.folder))
    return MaildirIntake(config.mailbox.path)


def smtp_settings(config: Config) -> SmtpSettings:
    """The SMTP settings of an ``smtp.kind = "smtp"`` configuration."""
    smtp = config.smtp
    return SmtpSettings(smtp.host, smtp.port, smtp.tls, config.address, smtp.user or None, smtp.password or None)


def deliver_to_maildir(store: Store, path: Any, now: datetime, holder: str = "", lease: float = 600.0) -> SendSummary:
    """``smtp.kind = "maildir"``: write every due mail into the Maildir at
    ``path`` and mark it sent (the judge then needs no mail server); the
    mails are claimed first, as ``send_due`` does, ``BATCH`` at a time, and
    written as they are (with Unix line ends), one in memory at a time."""
    make_maildir(Path(path))
    box = mailbox.Maildir(path, create=False)
    sent, after = 0, 0
    stamp, until = now.isoformat(), (now + timedelta(seconds=lease)).isoformat()
    while heads := store.due_mail_heads(stamp, after, BATCH):
        after = heads[-1][1]
        written = []
        for mail_id in store.claim_outbound_many([mail_id for mail_id, _, _ in heads], stamp, until, holder):
            box.add(store.outbound(mail_id).message.replace(b"\r\n", b"\n"))
            written.append(mail_id)
        store.mark_sent_many(written, stamp)
        sent += len(written)
    return SendSummary(sent, 0, ())


def _arrival(mail: InboundMail) -> datetime | None:
    """When a stored mail reached the mailbox (UTC), None when unknown."""
    try:
        when = datetime.fromisoformat(mail.received_at)
    except ValueError:
        return None
    return when if when.tzinfo is not None else when.replace(tzinfo=timezone.utc)


class Judge:
    """The judge's jobs over one store, transport and configuration."""

    def __init__(self, config: Config, store: Store, transport: Transport,
                 clock: Callable[[], datetime] = utc_now) -> None:
        self.config, self.store, self.transport, self.clock = config, store, transport, clock
        self.backoff = Backoff(base=1.0, cap=300.0)
        self.mailbox_retry_at: datetime | None = None
        self.scheduler: AsyncIOScheduler | None = None
        self.peers = Coordinator(store, clock, lease=config.lease_seconds)
        self.reader: Reader = InlineReader()
        """Reads each mail's body: in this process, or (``serve``) in a worker killed at the limit."""
        self.preparer: Preparer = InlinePreparer()
        """Computes due games ahead of writing them: here, or (``serve``) in worker processes on every core."""
        self._sending: asyncio.Lock | None = None
        self._jobs: dict[str, tuple[str, str]] = {}
        self._resolving: asyncio.Lock | None = None
        self._due_again = False
        self._sender: SenderThread | None = None
        """Per game (name as stored) the (phase, deadline) its job was set for."""

    # --- one step each -----------------------------------------------------------

    def take_in(self, force: bool = False) -> int:
        """Store the mailbox's new mail (with its time of arrival, at most
        ``limits.stored_bytes`` of each); returns how many were new.  An
        unreachable mailbox is logged and retried after a growing pause;
        ``force`` (a deadline is due) tries it even inside that pause."""
        now = self.clock()
        if not force and self.mailbox_retry_at is not None and now < self.mailbox_retry_at:
            return 0
        if not self.peers.begin_intake():
            return 0  # another instance is reading the mailbox
        try:
            stored = take_in(self.store, self.transport, now.isoformat(), between=self._stored_one,
                             keep_bytes=self.config.limits.stored_bytes, skew=self.config.limits.clock_skew)
        except BaseException as error:
            self.peers.end_intake(None)
            if not isinstance(error, MailboxUnavailable):
                raise
            delay = self.backoff.failure()
            self.mailbox_retry_at = now + timedelta(seconds=delay)
            log.warning("%s; trying again in %.0f s", error, delay)
            return 0
        self.peers.end_intake(now)
        self.backoff.success()
        self.mailbox_retry_at = None
        crash_point("taken")
        return sum(1 for _, new in stored if new)

    def _stored_one(self) -> None:
        """After each batch of mail stored: the crash point, and the mailbox lease renewed."""
        crash_point("saved")
        self.peers.renew_intake()

    def handle_pending(self) -> list[str]:
        """Handle every stored, unhandled mail in arrival order (each claimed
        first: mails another instance holds are left to it); before each,
        resolve the games whose deadline passed before that mail arrived, so
        a mail counts for the phase open when it reached the mailbox.  Each
        mail is held to ``limits.mail_seconds`` (then answered "too
        complex") and set aside after ``limits.mail_attempts`` failed or
        unfinished attempts.  Returns the games whose players may all be
        ready now."""
        ahead = ReadAhead(self.store, self.config, self.reader, self.clock)
        try:
            return self._handle_claimed(ahead)
        finally:
            ahead.close()

    def _handle_claimed(self, ahead: ReadAhead) -> list[str]:
        """``handle_pending``'s loop; each mail read by ``ahead`` (the next
        ones read, and their password checks started, while it is handled)."""
        touched: list[str] = []
        limits = self.config.limits
        for mail, attempts in self.peers.claimed_mails():
            arrival = _arrival(mail)
            if arrival is not None:
                self._process_due_before(arrival)
            if mail.seal_error:  # stored by a judge with another mail key (S36)
                shunt(self.store, self.config, mail, self.clock(), mail.seal_error)
                continue
            if attempts > limits.mail_attempts + UNFINISHED_GRACE:  # judges also die for other reasons
                shunt(self.store, self.config, mail, self.clock(),
                      f"{attempts - 1} attempts did not finish (the judge stopped or failed during them)")
                continue
            try:
                # the body is read within the hard bound of the reader (a worker killed
                # at the limit, S37); the rest, over bounded data, under the alarm
                reading = ahead.reading(mail)
                with time_budget(limits.mail_seconds):
                    result = handle_mail(self.store, self.config, mail, self.clock(), reading)
            except AlreadyHandled:
                continue
            except MailTimeout:
                log.warning("mail %s: out of time after %s s", mail.id[:12], limits.mail_seconds)
                result = answer_too_complex(self.store, self.config, mail, self.clock())
            except Exception as error:  # one mail must never stop the judge
                log.exception("mail %s could not be handled (attempt %d)", mail.id, attempts)
                if attempts >= limits.mail_attempts:
                    shunt(self.store, self.config, self.store.inbound(mail.id), self.clock(),
                          f"{type(error).__name__}: {error}")
                else:
                    self.store.release_inbound(mail.id, self.peers.instance)  # tried again next round
                continue
            log.info("mail %s: %s (%s)", mail.id[:12], result.state, result.note)
            crash_point("handled")
            self._wake_sender()  # its answer leaves while the next mail is handled
            touched.extend(g for g in result.games_to_check if g not in touched)
        return touched

    def resolve_ready(self, names: list[str]) -> int:
        """Resolve the games among ``names`` whose acting players are all ready."""
        count = 0
        for name in names:
            game = self.store.game(name)
            if game is not None and everyone_ready(self.store, game):
                count += self.process(name, game.phase, "ready")
        return count

    def process_due(self) -> int:
        """Resolve every active game whose deadline has passed, once the
        mailbox has been read after that deadline (read here first when it
        has not, even inside the back-off after a failure) and no mail that
        arrived before it waits.  While the mailbox cannot be read a
        deadline waits, at most ``limits.mailbox_wait`` seconds, and the
        game's GM is told once."""
        self._read_before_due()
        return self._process_due_before(self.clock())

    async def process_due_sending(self) -> int:
        """``process_due``, with the mail of each resolved game sent before
        the next game is resolved: when many games fall due at once, the
        first reports leave right after their game, not after the last
        game (issue 20).  Returns how many games were resolved."""
        self._read_before_due()
        count = 0
        for done in self._resolutions_due(self.clock()):
            if isinstance(done, Future):  # a worker's game not done yet: other jobs run meanwhile
                await asyncio.wait([asyncio.wrap_future(done)])
                continue
            count += done
            if done:
                await self._queued()
        return count

    def _read_before_due(self) -> None:
        """Read the mailbox first when a deadline has passed since its last complete read."""
        due = due_deadlines(self.store, self.clock())
        if due and not self.peers.mailbox_read_since(min(deadline for _, _, deadline in due)):
            self.take_in_and_handle(force=True)

    def _process_due_before(self, moment: datetime) -> int:
        """Resolve the games whose deadline passed before ``moment`` and may run now."""
        count = 0
        for done in self._resolutions_due(moment):
            if isinstance(done, Future):
                wait_for_futures([done])
            else:
                count += done
        return count

    def _resolutions_due(self, moment: datetime) -> Iterator[int | Future[PhaseWork]]:
        """Resolve, one game per step, the games whose deadline passed
        before ``moment`` and may run now (1: it resolved); tell the GM of
        a game whose deadline waits for the mailbox.  Between two games it
        may give the future of the next game's work, to be waited for."""
        wait = self.config.limits.mailbox_wait
        runnable = []
        for name, phase, deadline in due_deadlines(self.store, moment):
            if self.peers.deadline_may_run(deadline, wait):
                runnable.append((name, phase))
            elif not self.peers.mailbox_read_since(deadline):
                self._tell_waiting(name, deadline + timedelta(seconds=wait))
        for item in self.preparer.prepared(self.store, self.config, runnable, self.clock):
            if isinstance(item, Future):
                yield item
            else:
                name, phase, now, work = item
                yield self.process(name, phase, "deadline", now=now, work=work)

    def _tell_waiting(self, name: str, latest: datetime) -> None:
        """Tell a game's GM once per phase that its deadline waits for the mailbox."""
        game = self.store.game(name)
        if game is None or self.store.reminder_sent(game.name, game.phase, "mailbox_wait"):
            return
        texts = Texts(game.language, game.time_zone)
        with self.store.transaction() as db:
            self.store.mark_reminder(db, game.name, game.phase, "mailbox_wait", self.clock().isoformat())
            if game.gm:
                queue_notice(self.store, db, self.config, game, game.gm, texts("mailbox_wait_subject"),
                             texts("mailbox_wait_mail", game=game.name, phase=game.phase, latest=texts.when(latest)),
                             self.clock())
        log.warning("game %s: deadline waits for the mailbox (at most until %s)", name, latest.isoformat())

    def process(self, name: str, phase: str, trigger: str, now: datetime | None = None,
                work: PhaseWork | None = None) -> int:
        """Resolve ``phase`` of ``name`` if still current (1 if it did); at a
        deadline the game's grace period may postpone it instead.  ``work``
        is the phase computed ahead from the game as read at ``now``."""
        try:
            if trigger == "deadline":
                done = deadline_passed(self.store, self.config, name, phase, now or self.clock(), work)
            else:
                done = process_phase(self.store, self.config, name, phase, self.clock(), trigger,
                                     between=lambda: crash_point("chained"))
        except Exception:  # a game that cannot be resolved must not stop the others
            log.exception("game %s, phase %s could not be resolved", name, phase)
            return 0
        if done:
            log.info("game %s: %s resolved (%s)", name, phase, trigger)
            crash_point("resolved")
        self.sync_deadlines([name])
        return int(done)

    def take_in_and_handle(self, force: bool = False) -> list[str]:
        """Take in and handle all mail that has arrived; returns the games
        that may be ready.  Runs before any deadline is processed, so a mail
        that reached the mailbox before the deadline is never late because
        the judge had not polled yet."""
        self.take_in(force=force)
        return self.handle_pending()

    def poll(self) -> None:
        """One intake round: take in, handle, resolve what is ready or due,
        send the reminders and pause notices that are due."""
        self._poll_intake()
        self.process_due()
        self._poll_notices()

    def _poll_intake(self) -> None:
        """A poll's first half: heartbeat, take in, handle, resolve what is ready."""
        self.peers.heartbeat()
        touched = self.take_in_and_handle(force=bool(due_deadlines(self.store, self.clock())))
        self.resolve_ready(touched)

    def _poll_notices(self) -> None:
        """A poll's last half: the deadline jobs, reminders, digests and pause notices."""
        self.sync_deadlines()
        send_reminders(self.store, self.config, self.clock())
        flush_digests(self.store, self.config, self.clock())
        send_pause_notices(self.store, self.config, self.clock())

    async def send(self) -> SendSummary:
        """Send the due outbox mail (SMTP or the outgoing Maildir); one
        round at a time (the last round at shutdown waits for a running one)."""
        if self._sending is None:
            self._sending = asyncio.Lock()
        async with self._sending:
            return await self.send_from(self.store)

    async def send_from(self, store: Store) -> SendSummary:
        """One sending round over ``store`` (the main connection, or the
        sender thread's own); refusals for good are told to the administrator."""
        with SENDING:
            return await self._send_round(store)

    async def _send_round(self, store: Store) -> SendSummary:
        now = self.clock()
        holder, lease = self.peers.instance, self.config.lease_seconds
        if self.config.smtp.kind == "maildir":
            return deliver_to_maildir(store, self.config.smtp.path, now, holder, lease)
        summary = await send_due(store, smtp_settings(self.config), now, base_delay=self.config.retry_base,
                                 holder=holder, lease=lease)
        for error in summary.errors:
            log.warning("outbox: %s", error)
        for mail_id in summary.refused:
            self._tell_refused(store, mail_id)
        return summary

    async def _queued(self) -> None:
        """Mail was queued: the sender thread is woken (serving), or the
        mail is sent now (no thread: a round of its own)."""
        if self._sender is not None:
            self._sender.wake()
            self._sender.make_way()
        else:
            await self.send()

    def _wake_sender(self) -> None:
        """Tell the sender thread (when serving) that mail may have been
        queued, and let it write what it waits to write."""
        if self._sender is not None:
            self._sender.wake()
            self._sender.make_way()

    def _tell_refused(self, store: Store, mail_id: str) -> None:
        """Tell the administrator (when configured, and the refused mail
        was not to them) that the SMTP server refused a mail for good."""
        mail = store.outbound(mail_id)
        log.error("outbox: mail %s to %s refused for good: %s", mail_id[:12], ", ".join(mail.recipients),
                  mail.last_error)
        admin = self.config.admin
        if not admin or admin.lower() in (r.lower() for r in mail.recipients):
            return
        texts = Texts(self.config.language, self.config.time_zone)
        body = texts("refused_mail", mail=mail_id[:16], to=", ".join(mail.recipients), error=mail.last_error)
        with store.transaction() as db:
            queue(store, db, self.config, admin, texts("refused_subject"),
                  f":: Judge: {self.config.address}\n:: Kind: notice\n\n{body}\n", self.clock())

    # --- scheduling --------------------------------------------------------------
    # Jobs are coroutines so that APScheduler runs them in the event loop's
    # thread, the only thread that uses the store's connection.

    # A poll and the deadline jobs never run at once: they share one lock,
    # and a deadline job that finds it taken leaves its game to the round
    # running (which looks again before it ends), so a thousand jobs due in
    # one minute make one round, not a thousand.

    def _round_lock(self) -> asyncio.Lock:
        if self._resolving is None:
            self._resolving = asyncio.Lock()
        return self._resolving

    async def _poll_job(self) -> None:
        lock = self._round_lock()
        if lock.locked():
            return  # a deadline round is running; the next poll comes soon
        async with lock:
            self._poll_intake()
            await self.process_due_sending()
            self._poll_notices()
            await self._catch_up()
        self._wake_sender()

    async def _deadline_job(self, name: str, phase: str) -> None:
        lock = self._round_lock()
        self._due_again = True
        if lock.locked():
            return  # the running round takes this game too
        async with lock:
            await self._catch_up()

    async def _catch_up(self) -> None:
        """Read and handle the mail, then resolve (and send) what is due, as
        long as deadline jobs came while a round ran (under the round lock)."""
        while self._due_again:
            self._due_again = False
            self.resolve_ready(self.take_in_and_handle(force=True))
            await self.process_due_sending()

    def sync_deadlines(self, names: Iterable[str] | None = None) -> None:
        """One scheduler job per active game at its stored deadline.  With
        ``names`` only those games are looked at (after a game changed:
        the cost does not grow with the number of games); without, every
        active game's deadline is read (no game state) and compared with
        the jobs set.  A job is set, moved or removed only when its game's
        phase or deadline differs from what it was set for."""
        if self.scheduler is None:
            return
        wanted: dict[str, tuple[str, str]] = {}
        if names is None:
            wanted = {name: (phase, deadline) for name, phase, deadline in self.store.deadlines()}
            stale = set(self._jobs) - set(wanted)
        else:
            stale = set()
            for name in names:
                found = self.store.deadline_of(name)
                if found is not None and found[1] == "active" and found[3]:
                    wanted[found[0]] = (found[2], found[3])
                else:
                    stale.add(found[0] if found is not None else name)
        for name in stale:
            if self._jobs.pop(name, None) is not None and self.scheduler.get_job(f"deadline:{name}") is not None:
                self.scheduler.remove_job(f"deadline:{name}")
        for name, (phase, deadline) in wanted.items():
            if self._jobs.get(name) == (phase, deadline):
                continue
            self.scheduler.add_job(
                self._deadline_job, "date", run_date=datetime.fromisoformat(deadline), args=(name, phase),
                id=f"deadline:{name}", replace_existing=True, misfire_grace_time=None,
            )
            self._jobs[name] = (phase, deadline)

    def start_up(self) -> None:
        """What a (re)start does first (S34): read the mailbox (even while an
        earlier failure's back-off lasts), handle all stored mail in order
        of arrival with each missed deadline resolved in between, then
        resolve what can go on or is due."""
        self._start_ready()
        self.process_due()
        self.sync_deadlines()

    def _start_ready(self) -> None:
        """``start_up`` up to the due games: read, handle, resolve what can go on."""
        self.peers.heartbeat()
        touched = self.take_in_and_handle(force=True)
        # a crash may have left games that can go on (every player READY,
        # or a turn phase whose seats have all answered)
        active = [g.name for g in self.store.games() if g.status == "active"]
        self.resolve_ready(touched + [name for name in active if name not in touched])

    async def serve(self, stop: asyncio.Event) -> None:
        """Run until ``stop`` is set: handle what a previous run left,
        process missed deadlines, then poll, send and wait for deadlines."""
        self.scheduler = AsyncIOScheduler(timezone=timezone.utc)
        self.scheduler.start()
        inline = self.reader
        if isinstance(inline, InlineReader):
            self.reader = ReaderProcess()
            self.reader.start()
        serial = self.preparer
        if isinstance(serial, InlinePreparer):
            pool = PoolPreparer()
            pool.start(self.store, self.config, self.clock())  # the workers load the code meanwhile
            self.preparer = pool
        self._sender = SenderThread(self.store.target, self.send_from, every=min(self.config.poll_interval, 5.0))
        self._sender.start()
        self._sender.wake()  # what a previous run left unsent
        try:
            async with self._round_lock():  # start_up, sending as the missed deadlines resolve
                self._start_ready()
                await self.process_due_sending()
                self.sync_deadlines()
                await self._catch_up()
            self.scheduler.add_job(self._poll_job, "interval", seconds=self.config.poll_interval, id="poll",
                                   next_run_time=self.clock(), max_instances=1, coalesce=True)
            await stop.wait()
        finally:
            self.scheduler.shutdown(wait=False)
            self.scheduler = None
            self._jobs.clear()
            if self._sender is not None:
                self._sender.stop()
                self._sender = None
            self.reader.close()
            self.reader = inline
            self.preparer.close()
            self.preparer = serial
            self.peers.stopped()
