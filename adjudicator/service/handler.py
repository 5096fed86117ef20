"""Handling one stored incoming mail: read it, carry out its commands in
order, and queue one threaded acknowledgement — all in one transaction
with marking the mail done, so each mail is handled exactly once.

Mail that must never be answered (automatic mail, bounces, the judge's own
mail) is marked ``ignored`` with the reason.  A mail without a usable
sender is ignored too.  Everything else gets an answer, also when it is
garbled: the answer says what could not be read.
"""

from __future__ import annotations

import logging
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from email import message_from_bytes, policy
from email.message import EmailMessage, Message
from email.utils import getaddresses
from typing import Any

from adjudicator.config import Config, is_address
from adjudicator.records import replace
from adjudicator.service.pictures import report_images
from adjudicator.games import game_module
from adjudicator.games.base import GameModule, Note, OrderCheck, OrdersBetweenSteps
from adjudicator.mail.compose import Attachment, check_address
from adjudicator.mail.loops import why_not_answered
from adjudicator.service import commands as cmd
from adjudicator.service import gm
from adjudicator.service import guard, turn_commands
from adjudicator.service.auth import check_admin_password, check_password, hash_password
from adjudicator.service.budget import bounded_head, masked_raw, quotes_answer, read_head, read_message, scrub
from adjudicator.service.gamedata import Attached, attachments, awaiting
from adjudicator.service.logwording import detail_text, log_line
from adjudicator.service.notes import note_text
from adjudicator.service.notify import queue, queue_notice, reply_subject
from adjudicator.service.press import read_request, send_press
from adjudicator.service.reader import Reading, read_body
from adjudicator.service.render import Texts, catalogue, render
from adjudicator.service.store import Connection, GameRecord, InboundMail, PlayerRecord, Store, Submission
from adjudicator.service.turns import ACTIVE, FINISHED, FORMING, end_by_agreement, start_game

log = logging.getLogger(__name__)

RANDOM_POWER_WORDS = ("any", "random", "zufall", "beliebig")
MAX_ORDER_LIKE = 20
"""Only the last this many lines of a press text are checked for orders."""
MAX_SHOWN = 1000
"""Each line of an acknowledgement is cut to this many characters, so that
whatever a mail holds (a 1 MB line, a 1 MB word) the answer stays small."""


@dataclass
class Section:
    """The answer to one command of a mail: the command as echoed (with
    any password hidden) and the answer's lines."""

    echo: str
    lines: list[str] = field(default_factory=list)


@dataclass
class _SignedOn:
    game: GameRecord
    player: PlayerRecord
    module: GameModule
    lines: list[tuple[int, str]] = field(default_factory=list)


@dataclass(frozen=True)
class HandledMail:
    """What became of a mail: its final state and the games that may now
    be ready to resolve early."""

    state: str
    note: str
    games_to_check: tuple[str, ...] = ()


def sender_of(message: Message) -> str | None:
    """The address a mail comes from: its From, when that holds exactly one
    plausible address; None otherwise.  Reply-To is never used to choose
    where an answer goes: an address named only there would let anyone
    send the judge's answers to a third party."""
    addresses = _addresses(message, "From")
    if len(addresses) == 1 and is_address(addresses[0]) and addresses[0].isascii() and _sendable(addresses[0]):
        return addresses[0]
    return None


def _addresses(message: Message, header: str) -> list[str]:
    try:
        values = message.get_all(header) or []
        return [a for _, a in getaddresses([str(v) for v in values]) if a]
    except Exception:  # a header too broken to parse counts as absent
        return []


def _sendable(address: str) -> bool:
    """True when a reply can be composed to ``address`` (``a@[127.0.0.1]``
    passes ``is_address`` but not the composer)."""
    try:
        check_address(address)
    except ValueError:
        return False
    return True


def bounded_lines(lines: list[str], max_pieces: int, max_chars: int) -> tuple[list[str], int, list[int]]:
    """The lines of a mail as far as they are read: at most ``max_pieces``
    pieces, where a line counts once plus once for each ``;`` (which
    separates orders), a line cut at the piece where the budget ends; a
    line longer than ``max_chars`` is left blank (line numbers stay).
    Returns (lines read, pieces in the whole mail, numbers of the blanked
    lines).  Linear in the text."""
    kept: list[str] = []
    too_long: list[int] = []
    total = 0
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            if total < max_pieces:
                kept.append(line)
            continue
        pieces = 1 + line.count(";")
        room = max_pieces - total
        total += pieces
        if room <= 0:
            continue
        if len(line) > max_chars:
            too_long.append(number)
            kept.append("")
            continue
        kept.append(line if pieces <= room else ";".join(line.split(";")[:room]))
    return kept, total, too_long


def shown(text: str, limit: int = MAX_SHOWN) -> str:
    """``text`` as an acknowledgement may show it: cut to ``limit``
    characters, control characters (NUL, ESC, ...) as visible symbols, one
    character each so that columns still match; tabs stay."""
    if len(text) > limit:
        text = text[: limit - 1] + "\u2026"
    return _CONTROL.sub(lambda found: _visible(found.group()), text)


_CONTROL = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f]")
"""The control characters (Unicode category Cc) but the tab."""


def _visible(char: str) -> str:
    if char == "\t" or unicodedata.category(char) != "Cc":
        return char
    code = ord(char)
    return chr(0x2400 + code) if code < 0x20 else "\u2421" if code == 0x7F else "\ufffd"


def handle_mail(store: Store, config: Config, mail: InboundMail, now: datetime,
                reading: Reading | None = None) -> HandledMail:
    """Handle one stored mail completely (see the module docstring).
    ``reading`` is what its body says (``reader.read_body``, read here when
    not given: the judge reads it in a worker with a hard time bound, S37);
    only the headers are parsed here.  ``AlreadyHandled`` (and nothing
    written) when another process handled the mail first."""
    limits = config.limits
    if reading is None:
        reading = read_body(mail.raw, limits)
    problem = reading.problem
    message, sender, reason = answered_sender(store, config, mail.raw, now)
    if reason is not None or sender is None:
        return _ignore(store, mail, reason or "no usable sender address")
    with store.transaction() as db:
        session = _Session(store, db, config, sender, now)
        if mail.size > len(mail.raw):
            session.sections.append(Section(session.texts("too_long_echo"), [session.texts(
                "mail_too_large", size=mail.size, limit=limits.stored_bytes)]))
        elif problem is not None:
            session.sections.append(Section(session.texts("unreadable_echo"),
                                            [session.texts("unreadable_body", error=problem)]))
        else:
            session.run(message, reading, mail.raw)
        if session.looped:
            store.replace_inbound_raw(db, mail.id, masked_raw(mail.raw, session.secrets, session.read),
                                      now.isoformat())
            store.finish_inbound(db, mail.id, "ignored", "quotes the judge's last answer to this address")
            return HandledMail("ignored", "quotes the judge's last answer to this address")
        session.private_sections()
        recipient = session.answer_to or sender
        sections = [Section(shown(s.echo), [shown(line) for line in s.lines]) for s in session.sections]
        text = render(
            "ack.txt.j2", session.texts, session.power_name, judge=config.address,
            games=session.game_lines(), sections=sections,
        )
        budget = limits.answer_bytes if session.authenticated else limits.stranger_answer_bytes
        text, attachments = _fit(session, scrub(text, session.secrets | session.generated), session.attachments,
                                 budget)
        message_id = _header(message, "Message-ID")
        references = _header(message, "References").split() if _header(message, "References") else []
        subject = scrub(reply_subject(_header(message, "Subject")), session.secrets | session.generated)
        queue(
            store, db, config, recipient, subject, text, now,
            in_reply_to=message_id or None, references=references, attachments=attachments,
        )
        store.record_answer(db, recipient, now.isoformat(), session.succeeded, text, session.authenticated)
        store.replace_inbound_raw(db, mail.id, masked_raw(mail.raw, session.secrets, session.read), now.isoformat())
        store.finish_inbound(db, mail.id, "done", f"answered {recipient}")
    return HandledMail("done", f"answered {recipient}", tuple(sorted(session.touched)))


def answered_sender(store: Store, config: Config, raw: bytes, now: datetime) -> tuple[Message, str | None, str | None]:
    """(the mail's headers, its sender, why it is not answered): the
    reason is None exactly when the mail is answered (to the sender)."""
    try:
        message = read_head(raw, config.limits.header_bytes)
        reason = why_not_answered(message, config.loop_id)
        sender = sender_of(message)
    except Exception as error:  # the parser itself failed: nothing to answer to
        message, reason, sender = EmailMessage(), f"unreadable headers: {error}", None
    if reason is None and sender is None:
        reason = "no usable sender address"
    judge = config.address.lower()
    if reason is None and sender is not None and (
            sender.lower() == judge or judge in (a.lower() for a in _addresses(message, "Reply-To"))):
        reason = "sent from the judge's own address"
    if reason is None and sender is not None:
        reason = _answer_limit(store, config, sender, now)
    return message, sender, reason


@dataclass(frozen=True)
class AuthTarget:
    """What one authentication line is checked against."""

    key: str
    """The counting key of ``guard``."""
    owner: str | None
    """The address the target is registered to."""
    check: Callable[[], bool]
    """The check: one slow hash (True: the line is accepted)."""
    pair: tuple[str, str] | None = None
    """(password, stored hash) when ``check`` is ``check_password`` of them (it may then be started ahead)."""


def auth_target(store: Store, config: Config, value: cmd.SignOn | cmd.GameMaster | cmd.Admin) -> AuthTarget:
    """The target of one authentication line as the store says now; its
    check costs one slow hash whether or not the target exists."""
    if isinstance(value, cmd.Admin):
        return AuthTarget(guard.target_key("admin"), config.admin or None,
                          lambda: check_admin_password(value.password, config.admin_password))
    game = store.game(value.game)
    if isinstance(value, cmd.GameMaster):
        stored = game.settings.get("gm_password_hash") if game is not None else None
        gm_hash = stored if isinstance(stored, str) else None
        return AuthTarget(guard.target_key("gm", value.game), game.gm if game is not None else None,
                          lambda: check_password(value.password, gm_hash),
                          (value.password, gm_hash) if gm_hash is not None else None)
    module = game_module(game.variant) if game is not None else None
    power = module.lookup_power(value.power) if module is not None else None
    seat = next((p for p in store.players(game.name) if p.power == power), None) if game else None
    key = guard.target_key("seat", value.game, power or value.power)
    if game is None or seat is None:
        random_words = game is not None and value.power.lower() in RANDOM_POWER_WORDS
        if random_words and game is not None and game.status == FORMING and game.settings.get("random"):
            return AuthTarget(key, None, lambda: not check_password(value.password, None))
        return AuthTarget(key, None, lambda: check_password(value.password, None))
    if seat.status == "open" and game.status == FORMING:
        return AuthTarget(key, None, lambda: not check_password(value.password, None))
    stored_hash = seat.password_hash if seat.status == "playing" else None
    return AuthTarget(key, seat.address, lambda: check_password(value.password, stored_hash),
                      (value.password, stored_hash) if stored_hash is not None else None)


def answer_too_complex(store: Store, config: Config, mail: InboundMail, now: datetime) -> HandledMail:
    """A mail whose handling ran out of time: nothing it asked for is
    carried out; its sender (when it may be answered) is told so, and the
    mail is done."""
    try:
        message, _ = read_message(mail.raw, config.limits.header_bytes, 0)
        reason = why_not_answered(message, config.loop_id)
        sender = sender_of(message)
    except Exception as error:
        message, reason, sender = EmailMessage(), f"unreadable headers: {error}", None
    if reason is not None or sender is None or sender.lower() == config.address.lower():
        return _ignore(store, mail, f"too complex, not answered: {reason or 'no usable sender address'}",
                       state="failed")
    texts = Texts(config.language, config.time_zone)
    text = render("ack.txt.j2", texts, lambda p: p, judge=config.address, games=[],
                  sections=[Section(texts("unreadable_echo"), [texts("mail_too_complex")])])
    with store.transaction() as db:
        queue(store, db, config, sender, reply_subject(_header(message, "Subject"))[:200], text, now,
              in_reply_to=_header(message, "Message-ID") or None)
        store.record_answer(db, sender, now.isoformat(), False, text)
        store.replace_inbound_raw(db, mail.id, b"", now.isoformat())
        store.finish_inbound(db, mail.id, "done", f"too complex; answered {sender}")
    return HandledMail("done", f"too complex; answered {sender}")


def shunt(store: Store, config: Config, mail: InboundMail, now: datetime, reason: str) -> None:
    """Set a mail aside for a person after ``limits.mail_attempts`` failed
    or unfinished attempts (state ``shunted``, never tried again); the
    administrator, when the configuration names one, is told."""
    log.error("mail %s shunted after %d attempts: %s", mail.id, mail.attempts, reason)
    texts = Texts(config.language, config.time_zone)
    try:
        message, _ = read_message(mail.raw, config.limits.header_bytes, 0)
        sender = sender_of(message) or "?"
    except Exception:
        sender = "?"
    with store.transaction() as db:
        store.finish_inbound(db, mail.id, "shunted", reason[:500])
        if config.admin:
            body = texts("shunt_mail", mail=mail.id[:16], sender=sender, attempts=mail.attempts, reason=reason[:500])
            queue(store, db, config, config.admin, texts("shunt_subject"),
                  f":: Judge: {config.address}\n:: Kind: notice\n\n{body}\n", now)


def _ignore(store: Store, mail: InboundMail, reason: str, state: str = "ignored") -> HandledMail:
    log.info("mail %s not answered: %s", mail.id, reason)
    with store.transaction() as db:
        store.finish_inbound(db, mail.id, state, reason)
    return HandledMail(state, reason)


def _answer_limit(store: Store, config: Config, sender: str, now: datetime) -> str | None:
    """Why ``sender`` gets no answer now (too many answers to mails without
    a sign-on in the last hour; too many answers without a successful
    command: a loop), or None."""
    limits = config.limits
    total, idle = store.answers_since(sender, (now - timedelta(hours=1)).isoformat(),
                                      (now - timedelta(seconds=limits.loop_window)).isoformat())
    if total >= limits.answers_per_hour:
        return f"{total} answers to this address in the last hour without a sign-on (limits.answers_per_hour)"
    if idle >= limits.loop_answers:
        return f"{idle} answers without a successful command from this address (limits.loop_answers): a mail loop?"
    return None


def _fit(session: _Session, text: str, attachments: list[Attachment], budget: int) -> tuple[str, list[Attachment]]:
    """The answer within ``budget`` bytes: attachments (maps) that do not
    fit become a note, then the text is cut with a note."""
    kept: list[Attachment] = []
    used = len(text.encode("utf-8"))
    notes: list[str] = []
    for attachment in attachments:
        size = len(attachment.data) * 4 // 3  # base64
        if used + size > budget:
            notes.append(session.texts("attachment_left_out", name=attachment.filename))
            continue
        used += size
        kept.append(attachment)
    if len(text.encode("utf-8")) > budget:
        text = text.encode("utf-8")[:budget].decode("utf-8", errors="ignore").rsplit("\n", 1)[0]
        notes.append(session.texts("answer_cut", limit=budget))
    if notes:
        text = text.rstrip("\n") + "\n\n" + "\n".join(notes) + "\n"
    return text, kept


def _header(message: Message, name: str) -> str:
    try:
        value = message.get(name)
        return " ".join(str(value).split()) if value is not None else ""
    except Exception:
        return ""


class _Session:
    """The commands of one mail, carried out in order."""

    def __init__(self, store: Store, db: Connection, config: Config, sender: str, now: datetime) -> None:
        self.store, self.db, self.config, self.sender, self.now = store, db, config, sender, now
        self.texts = Texts(config.language, config.time_zone)
        self.sections: list[Section] = []
        self.current: _SignedOn | None = None
        self.signed: dict[str, _SignedOn] = {}
        self.touched: set[str] = set()
        self.pending: tuple[Section, set[int]] | None = None
        self.attachments: list[Attachment] = []
        self.staff: gm.GmContext | None = None
        self.block_for: Callable[[tuple[tuple[int, str], ...] | None], None] | None = None
        self.rejected: list[int] = []
        """Mail lines not accepted (order problems, malformed commands)."""
        self.readied: list[tuple[Section, Submission]] = []
        """READY commands of this mail: they count only if no line was rejected."""
        self.secrets: set[str] = set()
        self.lines: list[str] = []
        self.generated: set[str] = set()
        self.read = ""
        self.looped = False
        self.verdicts: dict[int, str] = {}
        self.answer_to: str | None = None
        self.authenticated = False
        self.succeeded = False
        self.expensive = 0
        self.pressed: set[str] = set()
        self.gm_told: set[str] = set()
        self.message: Message | None = None
        self.raw = b""
        self._attached: tuple[Attached, ...] | None = None

    def attached(self) -> tuple[Attached, ...]:
        """The files attached to the mail (read once, when a GM command needs them)."""
        if self._attached is None:
            whole = message_from_bytes(bounded_head(self.raw, self.config.limits.header_bytes),
                                       policy=policy.default) if self.raw else None
            self._attached = attachments(whole, self.config.data_max_bytes) if whole is not None else ()
        return self._attached

    def power_name(self, power: str) -> str:
        """A power's name in the mail's language (of the last sign-on)."""
        if self.current is None:
            return power
        return self.current.module.power_name(power, self.current.game.language)

    def game_lines(self) -> list[dict[str, Any]]:
        """The machine-readable header data of each game signed on to."""
        result = []
        for signed in self.signed.values():
            game = self.store.game(signed.game.name) or signed.game
            result.append({"game": game.name, "power": signed.player.power, "phase": game.phase,
                           "deadline": game.deadline, "status": game.status})
        if self.staff is not None and self.staff.game is not None and self.staff.game.name not in self.signed:
            game = self.store.game(self.staff.game.name) or self.staff.game
            result.append({"game": game.name, "power": "", "phase": game.phase, "deadline": game.deadline,
                           "status": game.status})
        return result

    def run(self, message: Message, reading: Reading, raw: bytes) -> None:
        """Carry out every command of the mail's body as ``reading`` read it
        (``message`` holds its headers, ``raw`` the whole for attachments)."""
        self.message, self.raw = message, raw
        limits = self.config.limits
        found = reading.found
        if found is None:  # a body no decoder can read is answered, not fatal
            self.sections.append(Section(self.texts("unreadable_echo"),
                                         [self.texts("unreadable_body", error=reading.error)]))
            return
        self.read = found.text
        if quotes_answer(self.store.last_answer(self.sender), found.text):
            self.looped = True
            return
        if found.cut:
            self.sections.append(Section(self.texts("too_long_echo"),
                                         [self.texts("text_cut", read=limits.text_bytes, total=found.total)]))
        lines, pieces, long_lines = list(reading.lines), reading.pieces, list(reading.long_lines)
        if pieces > limits.lines:
            self.sections.append(Section(self.texts("too_long_echo"),
                                         [self.texts("too_long", read=limits.lines, total=pieces)]))
        if long_lines:
            self.sections.append(Section(self.texts("too_long_echo"), [self.texts(
                "line_too_long", lines=", ".join(str(n) for n in long_lines[:20]), limit=limits.line_chars)]))
        items = reading.items
        self.lines = lines
        self._collect_secrets(items, lines)
        self._verify(items)
        if not any(not isinstance(i.value, cmd.SignOff) for i in items):
            self.sections.append(Section(self.texts("empty_echo"), [self.texts("empty_mail")]))
        for item in items:
            self._dispatch(item.line, item.value)
        if self.block_for is not None:
            self.block_for(None)
        self._finish_orders()
        self._refuse_ready()
        self._flush_staff()

    def _flush_staff(self) -> None:
        """One notice per player for all GM commands of the mail so far."""
        if self.staff is not None:
            gm.send_notices(self.staff)

    def _refuse_ready(self) -> None:
        """Take back every READY of this mail when a line was rejected."""
        if not self.rejected or not self.readied:
            return
        lines = ", ".join(str(n) for n in sorted(set(self.rejected)))
        for section, entry in self.readied:
            current = self.store.submissions(entry.game, entry.phase).get(entry.power) or entry
            self.store.save_submission(self.db, replace(current, ready=False, updated_at=self.now.isoformat()))
            section.lines[:] = [self.texts("ready_refused", lines=lines)]

    def _note(self, note: Note) -> str:
        """A game's note in the mail's language."""
        return note_text(note, self.texts, self.power_name)

    # --- authentication ------------------------------------------------------

    def _collect_secrets(self, items: tuple[cmd.Item, ...], lines: list[str]) -> None:
        """Every word of the mail that may be a password: never echoed,
        masked in the mail as kept."""
        for item in items:
            value = item.value
            if isinstance(value, (cmd.SignOn, cmd.GameMaster, cmd.Admin, cmd.SignOnInitial)):
                self.secrets.add(value.password)
            elif isinstance(value, cmd.ChangePassword):
                self.secrets.add(value.new)
            elif isinstance(value, cmd.GmCommand):
                self.secrets.update(gm.secret_words(value.text))
            elif isinstance(value, cmd.CommandError) and cmd.is_secret_line(lines[item.line - 1]):
                self._words_as_secrets(lines[item.line - 1])

    def _words_as_secrets(self, line: str) -> None:
        """Every word of a sign-on line that failed or could not be read may
        be a password (a password of two words, words in the wrong place):
        all are secrets but the keyword, the first word after it (a power)
        and the names of existing games."""
        words = line.split()
        start = 2 if len(words) > 1 and words[0].lower() in ("signon", "anmelden") else 1
        self.secrets.update(w for w in words[start:] if self.store.game(w) is None)

    def _verify(self, items: tuple[cmd.Item, ...]) -> None:
        """Check every authentication line of the mail before anything is
        carried out (S25): at most ``limits.auth_lines_per_mail`` are tried,
        each with one slow hash, none while its sender or target is locked
        out.  When any tried line fails, every authentication line of the
        mail fails alike, so the answer never says which guess was right;
        failures are counted for target and sender."""
        limits = self.config.limits
        tried: list[tuple[int, str, bool, str | None]] = []
        for item in items:
            value: Any = item.value
            if isinstance(value, cmd.SignOnInitial):
                value = self._as_sign_on(value)
            if not isinstance(value, (cmd.SignOn, cmd.GameMaster, cmd.Admin)):
                continue
            target, owner, check = self._target(value)
            sender_locked = guard.locked(self.store, guard.sender_key(self.sender), self.now)
            target_locked = (owner or "").lower() != self.sender.lower() and guard.locked(self.store, target,
                                                                                          self.now)
            if len(tried) >= limits.auth_lines_per_mail or sender_locked or target_locked:
                self.verdicts[item.line] = "not_tried"
                continue
            tried.append((item.line, target, check(), owner))
        failed = any(not ok for _, _, ok, _ in tried)
        for item in items:
            if self.verdicts.get(item.line, "ok") != "ok" or (failed and item.line in self.verdicts):
                self._words_as_secrets(self.lines[item.line - 1])
        for line, target, ok, _ in tried:
            self.verdicts[line] = "failed" if failed else "ok"
            if failed and not ok:
                guard.failed(self.store, self.db, limits, target, self.now)
            elif not failed:
                guard.succeeded(self.store, self.db, target)
        if failed:
            guard.failed(self.store, self.db, limits, guard.sender_key(self.sender), self.now)
        elif tried:
            guard.succeeded(self.store, self.db, guard.sender_key(self.sender))

    def _target(self, value: cmd.SignOn | cmd.GameMaster | cmd.Admin) -> tuple[str, str | None, Callable[[], bool]]:
        """(the counting key, the address the target is registered to, the
        check) of one authentication line; every check costs one slow hash."""
        target = auth_target(self.store, self.config, value)
        return target.key, target.owner, target.check

    def _auth_refused(self, line: int, section: Section, failure_key: str) -> bool:
        """Answer an authentication line that was not tried or failed;
        True when it was answered so (nothing more to do)."""
        verdict = self.verdicts.get(line, "failed")
        if verdict == "ok":
            return False
        section.lines.append(self.texts("auth_not_tried" if verdict == "not_tried" else failure_key))
        return True

    def _authenticated(self, address: str | None) -> None:
        self.authenticated = self.succeeded = True
        if self.answer_to is None:
            self.answer_to = address or self.sender

    # --- dispatch ------------------------------------------------------------

    def _dispatch(self, line: int, value: Any) -> None:
        if self.block_for is not None:
            consumer, self.block_for = self.block_for, None
            consumer(value.lines if isinstance(value, cmd.OrderLines) else None)
            if isinstance(value, cmd.OrderLines):
                return
        if isinstance(value, cmd.OrderLines):
            self._orders(value)
            return
        self._finish_orders()
        if isinstance(value, (cmd.GameMaster, cmd.Admin, cmd.GmCommand)):
            self._staff_command(line, value)
            return
        if isinstance(value, (cmd.Press, cmd.Broadcast)):
            self._press(value)
            return
        if isinstance(value, cmd.Absent):
            self._absent(value)
            return
        if isinstance(value, cmd.Courtesy):
            numbers = [n for n, _ in value.lines]
            self.sections.append(Section(self.texts("courtesy_echo", first=numbers[0], last=numbers[-1]),
                                         [self.texts("courtesy_ignored", text=text) for _, text in value.lines]))
            return
        if isinstance(value, cmd.EndPress):
            ended = bool(self.sections) and self.sections[-1].echo.startswith(("PRESS", "BROADCAST"))
            self.sections.append(Section("ENDPRESS", [self.texts("press_ended" if ended else "press_end_without_press")]))
            return
        if isinstance(value, cmd.CommandError):
            self.rejected.append(line)
            hint = f" {self.texts('hint', hint=value.hint)}" if value.hint else ""
            self.sections.append(Section(self.texts("line_echo", line=line),
                                         [self.texts("command_error", line=value.line, column=value.column,
                                                     message=value.message) + hint]))
        elif isinstance(value, cmd.SignOn):
            self._sign_on(line, value)
        elif isinstance(value, cmd.SignOnInitial):
            self._sign_on_initial(line, value)
        elif isinstance(value, (cmd.Summary, cmd.WhoGame, cmd.PhaseInfo)):
            self._game_info(value)
        elif isinstance(value, cmd.SetOption):
            self._set_option(line, value)
        elif isinstance(value, cmd.SignOff):
            self.sections.append(Section("SIGNOFF", [self.texts("signed_off", ignored=value.ignored_lines)]))
        elif isinstance(value, (cmd.Help, cmd.ListGames, cmd.History)):
            self._expensive(value)
        elif isinstance(value, (cmd.PassRound, cmd.Cancel, cmd.Undo, cmd.Status)):
            self._turn_command(value)
        else:
            self._player_command(value)

    def _expensive(self, value: cmd.Help | cmd.ListGames | cmd.History) -> None:
        """HELP, LIST and HISTORY; HELP and HISTORY of one phase (with its
        map) are costly: at most ``limits.expensive_per_mail`` per mail."""
        costly = isinstance(value, cmd.Help) or (isinstance(value, cmd.History) and value.phase is not None)
        self.expensive += int(costly)
        if costly and self.expensive > self.config.limits.expensive_per_mail:
            echo = "HELP" if isinstance(value, cmd.Help) else "HISTORY"
            self.sections.append(Section(echo, [self.texts("too_many_expensive",
                                                           limit=self.config.limits.expensive_per_mail)]))
            return
        self.succeeded = True
        if isinstance(value, cmd.Help):
            self.sections.append(Section("HELP", cmd.help_text(self.texts.language).splitlines()))
        elif isinstance(value, cmd.ListGames):
            self._list(value)
        else:
            self._history(value)

    def _sign_on(self, line: int, value: cmd.SignOn) -> None:
        section = Section("SIGNON ****")
        self.sections.append(section)
        self.current = None
        if self._auth_refused(line, section, "signon_failed"):
            return
        game = self.store.game(value.game)
        assert game is not None  # the sign-on was verified
        section.echo = f"SIGNON {value.power} {game.name} ****"
        if game.status == FORMING and game.settings.get("random"):
            if value.power.lower() in RANDOM_POWER_WORDS:
                self._apply_for_random_power(section, game, value.password)
            else:
                section.lines.append(self.texts("signon_random_only", game=game.name))
            return
        module = game_module(game.variant)
        power = module.lookup_power(value.power)
        seat = next(p for p in self.store.players(game.name) if p.power == power)
        if seat.status == "open" and game.status == FORMING:
            self.texts = Texts(game.language, game.time_zone)
            if not self._may_join(section, game, value.password):
                return
            if game.settings.get("approval"):
                self._ask_approval(section, game, module, seat, value.password)
                return
            seat = replace(seat, address=self.sender, password_hash=hash_password(value.password),
                           status="playing", joined_at=self.now.isoformat())
            self.store.update_player(self.db, seat)
            self.store.log(self.db, game.name, self.now.isoformat(), "joined", seat.power)
            section.lines.append(self.texts("signon_joined", power=module.power_name(seat.power, game.language),
                                            game=game.name))
            if all(p.status != "open" for p in self.store.players(game.name)):
                if awaiting(game.state):
                    section.lines.append(self.texts("data_game_waits", game=game.name))
                else:
                    game = start_game(self.store, self.db, self.config, game, self.now)
                    section.lines.append(self.texts("game_started", game=game.name, phase=game.phase))
        else:
            self.texts = Texts(game.language, game.time_zone)
            section.lines.append(self.texts("signon_ok", power=module.power_name(seat.power, game.language),
                                            game=game.name))
        self._authenticated(seat.address)
        self.current = _SignedOn(game, seat, module)
        self.signed[game.name] = self.current
        self._describe_phase(section)

    def _sign_on_initial(self, line: int, value: cmd.SignOnInitial) -> None:
        """njudge's ``SIGNON Estd1 geheim``: the power's initial and the game."""
        sign_on = self._as_sign_on(value)
        if sign_on is not None:
            self._sign_on(line, sign_on)
            return
        self._dispatch(line, value.error)

    def _as_sign_on(self, value: cmd.SignOnInitial) -> cmd.SignOn | None:
        """The sign-on ``SIGNON <initial><game>`` stands for, when exactly
        one power of that game has the initial."""
        game = self.store.game(value.code[1:])
        if game is None:
            return None
        initial = value.code[0].upper()
        fitting = [p for p in game_module(game.variant).powers() if p[:1].upper() == initial]
        return cmd.SignOn(fitting[0], game.name, value.password) if len(fitting) == 1 else None

    def _game_of(self, name: str | None, section: Section) -> GameRecord | None:
        """The game a command names, else the one signed on to (an answer
        line saying what is missing when neither is there)."""
        if name is None:
            if self.current is None:
                section.lines.append(self.texts("sign_on_or_name"))
                return None
            return self.store.game(self.current.game.name) or self.current.game
        game = self.store.game(name)
        if game is None:
            section.lines.append(self.texts("no_such_game", game=name))
        return game

    def _game_info(self, value: cmd.Summary | cmd.WhoGame | cmd.PhaseInfo) -> None:
        """SUMMARY, WHOGAME/WHOIS and PHASE: public facts of a game."""
        word = {cmd.Summary: "SUMMARY", cmd.WhoGame: "WHOGAME", cmd.PhaseInfo: "PHASE"}[type(value)]
        section = Section(f"{word} {value.game or ''}".strip())
        self.sections.append(section)
        game = self._game_of(value.game, section)
        if game is None:
            return
        module = game_module(game.variant)
        texts = Texts(game.language, game.time_zone)
        deadline = texts.when(game.deadline) if game.deadline else "-"
        section.lines.append(texts("info_phase", game=game.name, status=texts(game.status), phase=game.phase,
                                   deadline=deadline))
        if isinstance(value, cmd.PhaseInfo):
            return
        seats = self.store.players(game.name)
        if isinstance(value, cmd.WhoGame):
            public = bool(game.settings.get("public_addresses"))
            for seat in seats:
                name = module.power_name(seat.power, game.language)
                shown_address = seat.address if public and seat.address else texts("address_hidden")
                section.lines.append(texts("whogame_seat", power=name, status=texts(f"seat_{seat.status}"),
                                           address=shown_address))
            return
        standings = module.standings(game.state)
        submitted = self.store.submissions(game.name, game.phase) if game.status == ACTIVE else {}
        acting = set(module.must_act(game.state)) if game.status == ACTIVE else set()
        for seat in seats:
            state = (texts("summary_in" if submitted.get(seat.power) and submitted[seat.power].has_orders
                           else "summary_due") if seat.power in acting else texts("summary_nothing"))
            section.lines.append(texts("summary_seat", power=module.power_name(seat.power, game.language),
                                       status=texts(f"seat_{seat.status}"), score=standings.get(seat.power, 0),
                                       orders=state))
        phases = self.store.phases(game.name)
        if phases:
            section.lines.append(texts("summary_phases", phases=", ".join(e.phase for e in phases)))
        if game.outcome:
            section.lines.append(game.outcome)

    def _set_option(self, line: int, value: cmd.SetOption) -> None:
        """njudge's SET: SET WAIT is WAIT, SET NOWAIT is READY."""
        words = " ".join(value.words.upper().split())
        first, _, rest = words.partition(" ")
        if first in ("DIGEST", "ZUSAMMENFASSUNG") and rest:
            self._turn_command(" ".join(value.words.split()[1:]))
        elif words in ("WAIT", "WARTEN"):
            self._player_command(cmd.Wait())
        elif words in ("NOWAIT", "NO WAIT", "NICHTWARTEN", "NICHT WARTEN"):
            self._player_command(cmd.Ready())
        else:
            self.rejected.append(line)
            self.sections.append(Section(f"SET {shown(value.words, 60)}",
                                         [self.texts("set_unknown", setting=shown(value.words, 60))]))

    def _ask_approval(self, section: Section, game: GameRecord, module: GameModule, seat: PlayerRecord,
                      password: str) -> None:
        """A game whose GM approves sign-ons: the seat waits (S30), the GM
        is told once per mail."""
        self.store.update_player(self.db, replace(seat, address=self.sender, password_hash=hash_password(password),
                                                  status="waiting", joined_at=self.now.isoformat()))
        self.succeeded = True
        name = module.power_name(seat.power, game.language)
        section.lines.append(self.texts("signon_waiting", power=name, game=game.name))
        if game.gm and game.name not in self.gm_told:
            self.gm_told.add(game.name)
            queue_notice(self.store, self.db, self.config, game, game.gm,
                         self.texts("approval_subject", game=game.name),
                         self.texts("approval_mail", game=game.name, power=seat.power), self.now)

    def _may_join(self, section: Section, game: GameRecord, password: str) -> bool:
        """A new player may take a seat: the password is long enough, the
        address holds no other seat of the game (unless the GM allows
        more); otherwise the answer says why (S30)."""
        shortest = int(game.settings.get("password_min", self.config.limits.seat_password_min))
        if len(password) < shortest:
            section.lines.append(self.texts("password_too_short", minimum=shortest))
            return False
        allowed = int(game.settings.get("seats_per_address", 1))
        held = sum(1 for p in self.store.players(game.name)
                   if p.address and p.address.lower() == self.sender.lower() and p.status == "playing")
        held += sum(1 for a, _ in self.store.applicants(game.name) if a.lower() == self.sender.lower())
        if held >= allowed:
            section.lines.append(self.texts("seat_limit", game=game.name, allowed=allowed))
            return False
        return True

    def _apply_for_random_power(self, section: Section, game: GameRecord, password: str) -> None:
        """``SIGNON ANY <game> <password>`` in a game with random powers."""
        self.texts = Texts(game.language, game.time_zone)
        if not self._may_join(section, game, password):
            return
        self.succeeded = True
        self.store.add_applicant(self.db, game.name, self.sender, hash_password(password), self.now.isoformat())
        open_seats = sum(1 for p in self.store.players(game.name) if p.status == "open")
        missing = open_seats - len(self.store.applicants(game.name))
        section.lines.append(self.texts("random_applied", game=game.name, missing=max(missing, 0)))
        if missing <= 0 and awaiting(game.state):
            section.lines.append(self.texts("data_game_waits", game=game.name))
        elif missing <= 0:
            started = start_game(self.store, self.db, self.config, game, self.now)
            section.lines.append(self.texts("game_started", game=started.name, phase=started.phase))

    def _describe_phase(self, section: Section) -> None:
        assert self.current is not None
        game = self.store.game(self.current.game.name) or self.current.game
        if game.status == FINISHED:
            section.lines.append(self.texts("game_over", game=game.name, outcome=game.outcome))
        elif game.status == FORMING:
            open_seats = sum(1 for p in self.store.players(game.name) if p.status == "open")
            section.lines.append(self.texts("game_forming", open=open_seats))
        else:
            section.lines.append(self.texts("phase_line", phase=game.phase, deadline=self.texts.when(game.deadline)))

    # --- orders ----------------------------------------------------------------

    def _orders(self, value: cmd.OrderLines) -> None:
        first = value.lines[0][0]
        section = Section(self.texts("orders_echo", first=first, last=value.lines[-1][0]))
        self.sections.append(section)
        if self.current is None:
            section.lines.append(self.texts("sign_on_first"))
            return
        game = self.store.game(self.current.game.name) or self.current.game
        if game.status != ACTIVE:
            section.lines.append(self._not_running(game))
            return
        if self.current.player.power not in self.current.module.must_act(game.state) and \
                self.current.module.turn(game.state) is None:
            section.lines.append(self.texts("nothing_to_order", phase=game.phase))
            return
        self.current.lines.extend(value.lines)
        self.pending = (section, {number for number, _ in value.lines})

    def _finish_orders(self) -> None:
        """Check and store the order lines collected for the current sign-on
        (all order lines of one mail for one power form its new order set)."""
        signed, pending = self.current, self.pending
        if signed is None or pending is None:
            return
        section, block = pending
        self.pending = None
        game = self.store.game(signed.game.name) or signed.game
        power = signed.player.power
        turn = signed.module.turn(game.state)
        if turn is not None and power not in turn.seats:  # before its turn: queued, secret
            names = ", ".join(signed.module.power_name(p, game.language) for p in turn.seats)
            section.lines.append(self.texts("turn_not_yours", phase=game.phase, powers=names or "-"))
            rest = self._between_steps(section, game, signed.module, power, signed.lines, block)
            if rest:
                section.lines.extend(turn_commands.queue_orders(self.store, self.db, game, power,
                                                                [text for _, text in rest], self.texts))
            return
        check = signed.module.check_orders(game.state, power, signed.lines)
        self._echo(section, check, block)
        entry = self._submission(game, power)
        if not check.accepted and check.problems:
            # nothing readable: an earlier order set (or sealed play) stays as it was
            section.lines.append(self.texts("orders_kept", phase=game.phase) if entry.has_orders
                                 else self.texts("orders_none", phase=game.phase))
            return
        if signed.module.turn(game.state) is not None:
            self.store.save_submission(self.db, replace(
                entry, orders=tuple(a.canonical for a in check.accepted), has_orders=True,
                updated_at=self.now.isoformat()))
            section.lines.append(self.texts("turn_accepted", phase=game.phase))
            self.touched.add(game.name)
            return
        if signed.module.submission_means_ready:
            section.lines.append(self.texts("sealed_waiting"))
        elif check.missing:
            section.lines.append(self.texts("still_missing", units=", ".join(check.missing)))
        else:
            section.lines.append(self.texts("all_ordered"))
        self.store.save_submission(self.db, replace(
            entry, orders=tuple(a.canonical for a in check.accepted), has_orders=True, updated_at=self.now.isoformat()
        ))
        section.lines.append(self.texts("orders_replace", count=len(check.accepted), phase=game.phase))
        self.touched.add(game.name)

    def _echo(self, section: Section, check: OrderCheck, block: set[int]) -> None:
        """Each accepted and each refused line of ``block``, in mail order, then the check's notes."""
        echoed: list[tuple[int, str]] = []  # in mail order, errors between the orders
        for accepted in (a for a in check.accepted if a.line in block):
            echoed.append((accepted.line, self.texts("order_ok", line=accepted.line, order=accepted.canonical)))
            if accepted.note is not None:
                echoed.append((accepted.line, "  " + self._note(accepted.note)))
        for problem in (p for p in check.problems if p.line in block):
            self.rejected.append(problem.line)
            if problem.note is not None:
                message, hint = self._note(cmd.with_suggestion(problem.note)), ""
            else:
                message = problem.message
                hint = f" {self.texts('hint', hint=problem.hint)}" if problem.hint else ""
            echoed.append((problem.line, self.texts("order_error", line=problem.line, column=problem.column,
                                                    text=shown(problem.text, 80),
                                                    message=shown(message, 200)) + hint))
        section.lines.extend(text for _, text in sorted(echoed, key=lambda entry: entry[0]))
        section.lines.extend(self._note(note) for note in check.notes)

    def _between_steps(self, section: Section, game: GameRecord, module: GameModule, power: str,
                       lines: list[tuple[int, str]], block: set[int]) -> list[tuple[int, str]]:
        """The lines of a player who is not to act that the game takes at the
        start of its next phase, whoever acts then (``OrdersBetweenSteps``:
        Kreml's reveals), stored as his answer to the current phase (secret
        until it is resolved; a new mail replaces it), echoed and refused
        like orders; returns the other lines (queued for his own turn)."""
        if not isinstance(module, OrdersBetweenSteps):
            return lines
        check = module.between_steps(game.state, power, lines)
        taken = {a.line for a in check.accepted} | {p.line for p in check.problems}
        if not taken:
            return lines
        self._echo(section, check, block)
        if check.accepted:
            self.store.save_submission(self.db, replace(
                self._submission(game, power), orders=tuple(a.canonical for a in check.accepted), has_orders=True,
                updated_at=self.now.isoformat()))
            section.lines.append(self.texts("between_steps_taken", count=len(check.accepted), phase=game.phase))
        return [line for line in lines if line[0] not in taken]

    def private_sections(self) -> None:
        """For each game signed on to as a player: what only that power may
        see now (a card game's hand), as the answer's last section."""
        for signed in self.signed.values():
            game = self.store.game(signed.game.name) or signed.game
            if game.status not in (ACTIVE, "paused"):
                continue
            lines = signed.module.private_lines(game.state, signed.player.power, game.language)
            if lines:
                self.sections.append(Section(self.texts("private_echo", game=game.name), list(lines)))

    def _not_running(self, game: GameRecord) -> str:
        """Why nothing can be ordered in ``game``: not started, or over."""
        if game.status == FORMING:
            return self.texts("not_started", game=game.name)
        return self.texts("game_over", game=game.name, outcome=game.outcome)

    def _submission(self, game: GameRecord, power: str) -> Submission:
        existing = self.store.submissions(game.name, game.phase).get(power)
        return existing or Submission(game.name, game.phase, power, (), False, False, False, None, self.now.isoformat())

    # --- other commands ----------------------------------------------------------

    def _player_command(self, value: Any) -> None:
        echo = {cmd.Ready: "READY", cmd.Wait: "WAIT", cmd.ChangePassword: "PASSWORD ****", cmd.Resign: "RESIGN",
                cmd.Draw: "DRAW", cmd.NoDraw: "NODRAW", cmd.NoConcede: "NOCONCEDE", cmd.ShowOrders: "ORDERS",
                cmd.Clear: "CLEAR"}.get(type(value))
        if isinstance(value, cmd.Concede):
            echo = f"CONCEDE {value.power}"
        section = Section(echo or type(value).__name__.upper())
        self.sections.append(section)
        if self.current is None:
            section.lines.append(self.texts("sign_on_first"))
            return
        game = self.store.game(self.current.game.name) or self.current.game
        seat = self.current.player
        if isinstance(value, cmd.ChangePassword):
            shortest = int(game.settings.get("password_min", self.config.limits.seat_password_min))
            if len(value.new) < shortest:
                section.lines.append(self.texts("password_too_short", minimum=shortest))
                return
            seat = replace(seat, password_hash=hash_password(value.new))
            self.store.update_player(self.db, seat)
            self.current.player = seat
            section.lines.append(self.texts("password_changed"))
            return
        if game.status == FORMING and isinstance(value, cmd.Resign):
            self.store.update_player(self.db, replace(seat, address=None, password_hash=None, status="open",
                                                      joined_at=None))
            self.store.log(self.db, game.name, self.now.isoformat(), "left", seat.power)
            section.lines.append(self.texts("left_forming", game=game.name))
            self.current = None
            self.signed.pop(game.name, None)
            return
        if game.status != ACTIVE:
            section.lines.append(self._not_running(game))
            return
        if isinstance(value, cmd.Resign):
            self.store.update_player(self.db, replace(seat, status="resigned"))
            self.store.log(self.db, game.name, self.now.isoformat(), "resigned", seat.power)
            section.lines.append(self.texts("resigned", game=game.name))
            self.current = None
            self.signed.pop(game.name, None)
            self.touched.add(game.name)
            self._check_votes(game, section)  # the others may all have voted already
            return
        entry = self._submission(game, seat.power)
        if isinstance(value, cmd.ShowOrders):
            if entry.has_orders and entry.orders:
                section.lines.append(self.texts("stored_orders", phase=game.phase, count=len(entry.orders)))
                section.lines.extend(f"  {order}" for order in entry.orders)
            else:
                section.lines.append(self.texts("no_stored_orders", phase=game.phase))
            section.lines.append(self.texts("ready" if entry.ready else "waiting"))
            return
        if isinstance(value, cmd.Clear):
            self.store.save_submission(self.db, replace(entry, orders=(), has_orders=False,
                                                        updated_at=self.now.isoformat()))
            section.lines.append(self.texts("orders_cleared", phase=game.phase))
            self.touched.add(game.name)
            return
        if isinstance(value, (cmd.Ready, cmd.Wait)):
            entry = replace(entry, ready=isinstance(value, cmd.Ready))
            section.lines.append(self.texts("ready" if entry.ready else "waiting"))
            if entry.ready:
                self.readied.append((section, entry))
        elif isinstance(value, (cmd.Draw, cmd.NoDraw)):
            entry = replace(entry, draw_vote=isinstance(value, cmd.Draw))
            section.lines.append(self.texts("vote_recorded" if entry.draw_vote else "vote_withdrawn"))
        elif isinstance(value, cmd.Concede):
            winner = self.current.module.lookup_power(value.power)
            if winner is None or winner == seat.power:
                section.lines.append(self.texts("concede_unknown", power=value.power))
                return
            entry = replace(entry, concede_to=winner)
            section.lines.append(self.texts("vote_recorded"))
        else:
            entry = replace(entry, concede_to=None)
            section.lines.append(self.texts("vote_withdrawn"))
        self.store.save_submission(self.db, replace(entry, updated_at=self.now.isoformat()))
        self.touched.add(game.name)
        self._check_votes(game, section)

    def _turn_command(self, value: cmd.PassRound | cmd.Cancel | cmd.Undo | cmd.Status | str) -> None:
        """``PASS ROUND``, ``CANCEL``, ``UNDO``, ``SET DIGEST <choice>`` (a
        string: the choice; turn-based games) and ``STATUS`` (every game)
        for the seat signed on to."""
        if isinstance(value, str):
            echo = f"SET DIGEST {shown(value, 20)}"
        else:
            echo = {cmd.PassRound: "PASS ROUND", cmd.Cancel: "CANCEL", cmd.Undo: "UNDO"}.get(type(value), "STATUS")
        section = Section(echo)
        self.sections.append(section)
        if self.current is None:
            section.lines.append(self.texts("sign_on_first"))
            return
        game = self.store.game(self.current.game.name) or self.current.game
        module, power = self.current.module, self.current.player.power
        if isinstance(value, cmd.Status):
            section.lines.extend(turn_commands.status(self.store, game, module, power, self.texts))
            return
        if isinstance(value, str):
            section.lines.extend(turn_commands.set_digest(self.store, self.db, game, power, value, self.texts))
            return
        if game.status != ACTIVE:
            section.lines.append(self._not_running(game))
            return
        if isinstance(value, cmd.PassRound):
            section.lines.extend(turn_commands.pass_round(self.store, self.db, game, module, power, self.now,
                                                          self.texts))
            self.touched.add(game.name)
        elif isinstance(value, cmd.Cancel):
            section.lines.extend(turn_commands.cancel(self.store, self.db, game, power, self.texts))
        else:
            section.lines.extend(turn_commands.undo(self.store, self.db, self.config, game, module, power, self.now,
                                                    self.texts))

    def _check_votes(self, game: GameRecord, section: Section) -> None:
        module = self.current.module if self.current else game_module(game.variant)
        standings = module.standings(game.state)
        acting = set(module.must_act(game.state))
        alive = [p for p in self.store.players(game.name)
                 if p.status == "playing" and (standings.get(p.power, 0) > 0 or p.power in acting)]
        votes = self.store.submissions(game.name, game.phase)
        if not alive:
            return
        if all(votes.get(p.power) is not None and votes[p.power].draw_vote for p in alive):
            names = ", ".join(module.power_name(p.power, game.language) for p in alive)
            end_by_agreement(self.store, self.db, self.config, game, self.texts("outcome_draw", powers=names),
                             self.now)
            section.lines.append(self.texts("game_ended_now"))
            return
        for winner in {v.concede_to for v in votes.values() if v.concede_to}:
            others = [p for p in alive if p.power != winner]
            if others and all(votes.get(p.power) is not None and votes[p.power].concede_to == winner for p in others):
                name = module.power_name(winner, game.language)
                end_by_agreement(self.store, self.db, self.config, game, self.texts("outcome_concession", power=name),
                                 self.now)
                section.lines.append(self.texts("game_ended_now"))
                return

    def _list(self, value: cmd.ListGames) -> None:
        section = Section(f"LIST {value.game or ''}".strip())
        self.sections.append(section)
        games = self.store.games()
        if value.game is not None:
            game = self.store.game(value.game)
            if game is None:
                section.lines.append(self.texts("no_such_game", game=value.game))
                return
            games = [game]
        if not games:
            section.lines.append(self.texts("no_games"))
        for game in games:
            module = game_module(game.variant)
            texts = Texts(self.texts.language, game.time_zone)
            seats = self.store.players(game.name)
            open_seats = sum(1 for p in seats if p.status == "open")
            section.lines.append(texts("list_line", game=game.name, variant=game.variant, status=texts(game.status),
                                       phase=game.phase, open=open_seats,
                                       deadline=texts.when(game.deadline) if game.deadline else "-"))
            if value.game is not None:
                standings = {} if awaiting(game.state) else module.standings(game.state)
                seat_key = f"list_seat_{game.variant}" if f"list_seat_{game.variant}" in catalogue() else "list_seat"
                for seat in seats:
                    section.lines.append(texts(seat_key, power=module.power_name(seat.power, game.language),
                                               status=texts(f"seat_{seat.status}"),
                                               score=standings.get(seat.power, 0)))
                if game.outcome:
                    section.lines.append(game.outcome)

    def _history(self, value: cmd.History) -> None:
        section = Section(f"HISTORY {value.game} {value.phase or ''}".strip())
        self.sections.append(section)
        game = self.store.game(value.game)
        if game is None:
            section.lines.append(self.texts("no_such_game", game=value.game))
            return
        phases = self.store.phases(game.name)
        if value.phase is None:
            texts = Texts(game.language, game.time_zone)
            if not phases:
                section.lines.append(texts("no_history", game=game.name))
            module = game_module(game.variant)

            def name(power: str) -> str:
                return module.power_name(power, game.language)

            for entry in phases:
                section.lines.append(texts("history_line", phase=entry.phase, at=texts.when(entry.processed_at)))
            for at, kind, detail in self.store.game_log(game.name):
                if kind in ("created", "started", "resigned", "ended"):
                    section.lines.append(f"{texts.machine_time(at)} {log_line(kind, detail, texts, name)}")
            changes = self.store.audit(game.name)
            if changes:
                section.lines.append(texts("report_gm_changes") + ":")
            for change in changes:
                section.lines.append(texts("history_gm_change", at=texts.machine_time(change.at),
                                           command=change.command, detail=detail_text(change.detail, texts, name)))
            return
        wanted = next((e for e in phases if e.phase.upper() == value.phase.upper()), None)
        if wanted is None:
            section.lines.append(self.texts("no_such_phase", game=game.name, phase=value.phase))
            return
        section.lines.extend(wanted.report_text.splitlines())
        history_texts = Texts(game.language, game.time_zone)
        self.attachments.extend(report_images(game_module(game.variant), game.name, wanted.state, wanted.report,
                                              language=game.language, texts=history_texts))

    # --- game masters, press, absences -----------------------------------------------

    def _staff_command(self, line: int, value: cmd.GameMaster | cmd.Admin | cmd.GmCommand) -> None:
        if isinstance(value, cmd.GameMaster):
            section = Section("GAMEMASTER ****")
            self.sections.append(section)
            self._flush_staff()
            self.staff = None
            if self._auth_refused(line, section, "gm_signon_failed"):
                return
            game = self.store.game(value.game)
            assert game is not None  # the sign-on was verified
            section.echo = f"GAMEMASTER {game.name} ****"
            self.texts = Texts(game.language, game.time_zone)
            self._authenticated(game.gm)
            self.staff = gm.GmContext(self.store, self.db, self.config, self.now, self.sender, "gm", game, self.texts)
            section.lines.append(self.texts("gm_signon_ok", game=game.name, status=self.texts(game.status),
                                            phase=game.phase))
            return
        if isinstance(value, cmd.Admin):
            section = Section("ADMIN ****")
            self.sections.append(section)
            self._flush_staff()
            self.staff = None
            if self._auth_refused(line, section, "admin_signon_failed"):
                return
            self._authenticated(self.config.admin or None)
            self.staff = gm.GmContext(self.store, self.db, self.config, self.now, self.sender, "admin", None,
                                      self.texts)
            section.lines.append(self.texts("admin_signon_ok"))
            return
        section = Section(f"GM {shown(gm.masked(value.text), 120)}")
        self.sections.append(section)
        if self.staff is None:
            section.lines.append(self.texts("gm_sign_on_first"))
            return
        self.staff.lines = section.lines
        self.staff.texts = self.texts
        self.staff.players_signed = {name for name in self.signed}
        self.staff.mail_files = self.attached()
        gm.run(self.staff, value.text)
        self.attachments.extend(self.staff.attachments)
        self.staff.attachments.clear()
        self.generated.update(self.staff.secrets)
        if self.staff.game is not None:
            self.touched.add(self.staff.game.name)
        if self.staff.expect_orders is not None:
            power, context = self.staff.expect_orders, self.staff
            context.expect_orders = None

            def take(lines: tuple[tuple[int, str], ...] | None) -> None:
                context.lines = section.lines
                if lines is None:
                    section.lines.append(self.texts("gm_orders_missing", power=power))
                else:
                    gm.enter_orders(context, power, lines)

            self.block_for = take

    def _press(self, value: cmd.Press | cmd.Broadcast) -> None:
        words = value.recipients if isinstance(value, cmd.Press) else None
        flag = value.flag if isinstance(value, cmd.Broadcast) else None
        echo = f"PRESS {shown(words, 120)}" if words is not None else f"BROADCAST {flag or ''}".strip()
        section = Section(echo)
        self.sections.append(section)
        signed = self.current
        if signed is None:
            section.lines.append(self.texts("sign_on_first"))
            return
        recipients, anonymous, _ = read_request(words, flag)
        game = self.store.game(signed.game.name) or signed.game
        if game.status not in ("active", "paused"):
            section.lines.append(self._not_running(game))
            return
        power = signed.player.power

        def take(lines: tuple[tuple[int, str], ...] | None) -> None:
            body = [text for _, text in lines] if lines else []
            section.lines.extend(send_press(self.store, self.db, self.config, self.now, game, power, recipients,
                                            anonymous, body, self.texts, self.pressed))
            section.lines.extend(self._order_like(signed, lines or ()))

        self.block_for = take

    def _order_like(self, signed: _SignedOn, lines: tuple[tuple[int, str], ...]) -> list[str]:
        """Warnings for press lines that read as valid orders of the power
        (a press text not ended by ENDPRESS swallowed them)."""
        game = self.store.game(signed.game.name) or signed.game
        if game.status != ACTIVE or signed.player.power not in signed.module.must_act(game.state):
            return []
        warnings = []
        for number, text in lines[-MAX_ORDER_LIKE:]:
            check = signed.module.check_orders(game.state, signed.player.power, [(number, text)])
            if check.accepted and not check.problems:
                warnings.append(self.texts("press_order_like", line=number, text=shown(text, 80)))
        return warnings

    def _absent(self, value: cmd.Absent) -> None:
        section = Section(f"ABSENT {value.first_day} {value.last_day}")
        self.sections.append(section)
        signed = self.current
        if signed is None:
            section.lines.append(self.texts("sign_on_first"))
            return
        try:
            first, last = date.fromisoformat(value.first_day), date.fromisoformat(value.last_day)
        except ValueError:
            section.lines.append(self.texts("absent_bad_dates"))
            return
        if last < first:
            section.lines.append(self.texts("absent_bad_dates"))
            return
        game = signed.game
        power = signed.player.power
        self.store.add_absence(self.db, game.name, power, first.isoformat(), last.isoformat(), self.now.isoformat())
        self.store.log(self.db, game.name, self.now.isoformat(), "absence", f"{power} {first} to {last}")
        if game.gm and game.name not in self.gm_told:
            self.gm_told.add(game.name)  # one notice to the GM per mail
            queue_notice(self.store, self.db, self.config, game, game.gm,
                         self.texts("absent_gm_subject", game=game.name),
                  self.texts("absent_gm_mail", game=game.name, power=power, first=first.isoformat(),
                             last=last.isoformat()), self.now)
        section.lines.append(self.texts("absent_ok", first=first.isoformat(), last=last.isoformat()))

