"""The next mails of a poll read ahead, and their password checks started
in threads while the judge handles the mail before them (issue 20).

Mails are still handled one at a time, in order, each in its own
transaction: what is done ahead only reads.  A mail is read ahead through
the same reader (the worker with its hard time bound, S37) as it would
be read when its turn comes, and its reading is used only when the
stored bytes are still the same.  A password check started ahead is the
very check ``auth.check_password`` makes (the same pair of password and
stored hash, the same answer; the slow hash paid once, in another
thread); a changed seat or password makes another pair, checked then.
Nothing is started ahead for a mail that would not be answered, or whose
sender or target is locked out (``guard``): a locked-out sender's mails
cost no slow hash, ahead or not.  At most ``limits.auth_lines_per_mail``
lines of a mail are looked at, as the handler tries no more.

With the reading worker (``ReaderProcess``, the judge's) the mails ahead
are read by one thread of this module, so the worker reads the next mails
while the judge handles this one (two cores at work, issue 20); every
reading goes through that thread, one at a time, each with the worker's
hard bound.  The in-process reader (its bound an alarm of the main
thread) reads in the caller's thread.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from datetime import datetime

from adjudicator.config import Config
from adjudicator.service import commands as cmd
from adjudicator.service import guard
from adjudicator.service.auth import check_ahead, forget_ahead, is_remembered
from adjudicator.service.budget import MailTimeout
from adjudicator.service.handler import answered_sender, auth_target
from adjudicator.service.reader import Reader, ReaderProcess, Reading
from adjudicator.service.store import InboundMail, Store

log = logging.getLogger("adjudicator")

AHEAD = 4
"""How many of the next waiting mails are read ahead (their checks then
run while the mails before them are handled: two cores at work)."""


class ReadAhead:
    """One poll's readings, made ahead of the mails' turns."""

    def __init__(self, store: Store, config: Config, reader: Reader, clock: Callable[[], datetime]) -> None:
        self.store, self.config, self.reader, self.clock = store, config, reader, clock
        self._waiting: list[str] = []
        self._read: dict[str, tuple[InboundMail, Future[Reading | MailTimeout]]] = {}
        self._checked: set[str] = set()
        """Mails read ahead whose checks were started (or found not wanted)."""
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="mail-reading") \
            if isinstance(reader, ReaderProcess) else None
        self.started = 0
        """How many password checks were started ahead."""

    def reading(self, mail: InboundMail) -> Reading:
        """What ``mail``'s body says (read ahead, or now, by the reader;
        ``MailTimeout`` when reading it ran out of time); then the next
        ``AHEAD`` waiting mails are read (or sent to be read) and their
        checks started once read."""
        kept = self._read.pop(mail.id, None)
        result = self._result(kept[1]) if kept is not None and kept[0].raw == mail.raw else None
        if result is None:
            result = self._read_now(mail)
            self._start_checks(mail, result)
        elif mail.id not in self._checked:
            self._start_checks(mail, result)
        self._checked.discard(mail.id)
        try:
            self._look_ahead(mail.id)
        except Exception:  # what is not read ahead is read at its turn; this mail goes on
            log.warning("the mails after %s could not be read ahead", mail.id[:12], exc_info=True)
        if isinstance(result, MailTimeout):
            raise result
        return result

    def close(self) -> None:
        """Forget what was read ahead and the checks nobody asked for (a
        reading under way ends within its bound first)."""
        for _, future in self._read.values():
            future.cancel()
        if self._thread is not None:
            self._thread.shutdown(wait=True)
            self._thread = None
        self._read.clear()
        self._checked.clear()
        forget_ahead()

    @staticmethod
    def _result(future: Future[Reading | MailTimeout]) -> Reading | MailTimeout | None:
        """A reading sent ahead, waited for; None when the reader failed on it (then it is read again)."""
        try:
            return future.result()
        except Exception:
            return None

    def _read_now(self, mail: InboundMail) -> Reading | MailTimeout:
        if self._thread is not None:  # behind the readings sent ahead: one user of the worker at a time
            return self._thread.submit(self._read_here, mail.raw).result()
        return self._read_here(mail.raw)

    def _read_here(self, raw: bytes) -> Reading | MailTimeout:
        limits = self.config.limits
        try:
            return self.reader.read(raw, limits, limits.mail_seconds)
        except MailTimeout as error:
            return error

    def _sent(self, raw: bytes) -> Future[Reading | MailTimeout]:
        """The reading of ``raw``: sent to the reading thread, or made now."""
        if self._thread is not None:
            return self._thread.submit(self._read_here, raw)
        done: Future[Reading | MailTimeout] = Future()
        try:
            done.set_result(self._read_here(raw))
        except Exception as error:  # the reader failed (not the mail's time): read again at its turn
            done.set_exception(error)
        return done

    def _look_ahead(self, current: str) -> None:
        """Read the next waiting mails after ``current`` (the list of
        waiting mails is read again when it holds no more after it), and
        start the checks of those read by now."""
        if current not in self._waiting or self._waiting[-1] == current:
            self._waiting = self.store.claimable_inbound(self.clock().isoformat())
        position = self._waiting.index(current) if current in self._waiting else -1
        upcoming = self._waiting[position + 1:position + 1 + AHEAD]
        for mail_id in [m for m in self._read if m not in upcoming]:
            self._read.pop(mail_id)[1].cancel()
            self._checked.discard(mail_id)
        for mail_id in upcoming:
            if mail_id in self._read:
                continue
            try:
                mail = self.store.inbound(mail_id)
            except KeyError:
                continue
            if mail.state != "new" or mail.seal_error:
                continue
            self._read[mail_id] = (mail, self._sent(mail.raw))
        for mail_id, (mail, future) in self._read.items():
            if mail_id in self._checked or not future.done():
                continue
            self._checked.add(mail_id)
            reading = self._result(future)
            if reading is not None:
                self._start_checks(mail, reading)

    def _start_checks(self, mail: InboundMail, reading: Reading | MailTimeout) -> None:
        """``_checks``; a failure starts nothing (the checks are then made at the mail's turn)."""
        try:
            self._checks(mail, reading)
        except Exception:
            log.warning("the checks of mail %s could not be started ahead", mail.id[:12], exc_info=True)

    def _checks(self, mail: InboundMail, reading: Reading | MailTimeout) -> None:
        """Start the checks of the mail's sign-on lines that the handler
        will make, unless remembered; none for a mail not answered or
        a locked-out sender or target."""
        if isinstance(reading, MailTimeout) or reading.found is None or mail.size > len(mail.raw):
            return
        lines = [i.value for i in reading.items if isinstance(i.value, (cmd.SignOn, cmd.GameMaster, cmd.Admin,
                                                                        cmd.SignOnInitial))]
        wanted = [v for v in lines[:self.config.limits.auth_lines_per_mail] if isinstance(v, (cmd.SignOn,
                                                                                              cmd.GameMaster))]
        targets = [t for t in (auth_target(self.store, self.config, v) for v in wanted)
                   if t.pair is not None and not is_remembered(*t.pair)]
        if not targets:
            return
        now = self.clock()
        _, sender, reason = answered_sender(self.store, self.config, mail.raw, now)
        if reason is not None or sender is None or guard.locked(self.store, guard.sender_key(sender), now):
            return
        self.started += check_ahead(
            t.pair for t in targets if t.pair is not None
            and ((t.owner or "").lower() == sender.lower() or not guard.locked(self.store, t.key, now)))
