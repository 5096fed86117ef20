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
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime

from adjudicator.config import Config
from adjudicator.service import commands as cmd
from adjudicator.service import guard
from adjudicator.service.auth import check_ahead, forget_ahead, is_remembered
from adjudicator.service.budget import MailTimeout
from adjudicator.service.handler import answered_sender, auth_target
from adjudicator.service.reader import Reader, Reading
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
        self._read: dict[str, tuple[bytes, Reading | MailTimeout]] = {}
        self.started = 0
        """How many password checks were started ahead."""

    def reading(self, mail: InboundMail) -> Reading:
        """What ``mail``'s body says (read ahead, or now, by the reader;
        ``MailTimeout`` when reading it ran out of time); then the next
        ``AHEAD`` waiting mails are read and their checks started."""
        kept = self._read.pop(mail.id, None)
        if kept is None or kept[0] != mail.raw:
            kept = (mail.raw, self._read_now(mail))
            self._start_checks(mail, kept[1])
        try:
            self._look_ahead(mail.id)
        except Exception:  # what is not read ahead is read at its turn; this mail goes on
            log.warning("the mails after %s could not be read ahead", mail.id[:12], exc_info=True)
        if isinstance(kept[1], MailTimeout):
            raise kept[1]
        return kept[1]

    def close(self) -> None:
        """Forget what was read ahead and the checks nobody asked for."""
        self._read.clear()
        forget_ahead()

    def _read_now(self, mail: InboundMail) -> Reading | MailTimeout:
        limits = self.config.limits
        try:
            return self.reader.read(mail.raw, limits, limits.mail_seconds)
        except MailTimeout as error:
            return error

    def _look_ahead(self, current: str) -> None:
        """Read the next waiting mails after ``current`` (the list of
        waiting mails is read again when it holds no more after it)."""
        if current not in self._waiting or self._waiting[-1] == current:
            self._waiting = self.store.claimable_inbound(self.clock().isoformat())
        position = self._waiting.index(current) if current in self._waiting else -1
        upcoming = self._waiting[position + 1:position + 1 + AHEAD]
        for mail_id in [m for m in self._read if m not in upcoming]:
            del self._read[mail_id]
        for mail_id in upcoming:
            if mail_id in self._read:
                continue
            try:
                mail = self.store.inbound(mail_id)
            except KeyError:
                continue
            if mail.state != "new" or mail.seal_error:
                continue
            try:
                reading = self._read_now(mail)
            except Exception:  # the reader failed (not the mail's time): read again at its turn
                continue
            self._read[mail_id] = (mail.raw, reading)
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
