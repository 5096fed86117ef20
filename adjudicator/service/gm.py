"""Game-master commands (``GM ...`` / ``SL ...`` lines, grammars/gm.lark).

A game master signs on with ``GAMEMASTER <game> <password>``; the judge's
administrator with ``ADMIN <password>`` (only the administrator may
``CREATE`` games).  Each command is carried out inside the mail's
transaction, checked against the game's state (a command that does not fit
says why and changes nothing), and recorded in the game's audit trail,
which the next turn report and ``HISTORY`` show.  ``DRYRUN <command>``
carries the command out, collects what it would change and mail, and
rolls it all back: the game master gets the would-be result, nothing else
happens.  Addresses and passwords never go into the audit trail.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from email import message_from_bytes, policy
from functools import cache
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from lark import Lark, Token, Tree, UnexpectedInput

from adjudicator.config import Config, format_duration, is_address, parse_duration
from adjudicator.mail.compose import check_address
from adjudicator.games import UnknownGame, game_module
from adjudicator.games.base import STANDIN, Finding, GameModule, GameSetupError, PositionEdits
from adjudicator.parsers import lalr_parser
from adjudicator.mail.compose import Attachment
from adjudicator.records import replace
from adjudicator.service import gamedata
from adjudicator.service.auth import hash_password
from adjudicator.service.pictures import report_images
from adjudicator.service.notify import queue_notice
from adjudicator.service.notes import note_text
from adjudicator.service.logwording import detail_text
from adjudicator.service.render import Texts
from adjudicator.service.store import Connection, GameRecord, PlayerRecord, Store, Submission
from adjudicator.service.turns import (
    ACTIVE,
    FINISHED,
    FORMING,
    WEEKDAY_NAMES,
    GameError,
    create_game,
    deadline_after,
    phase_of,
    end_by_agreement,
    recipients,
    resolve_phase,
    start_game,
    weekday,
)

PAUSED = "paused"
_ADDRESS = re.compile(r"[^\s@<>]+@[^\s@<>]+")


@dataclass(frozen=True)
class GmSpec:
    """One game-master command: its rule in gm.lark, its syntax and
    description in English and German, and the game states it is allowed
    in (``admin``: only the administrator, with no game)."""

    rule: str
    syntax_en: str
    syntax_de: str
    description_en: str
    description_de: str
    allowed: tuple[str, ...]


_SETUP = (FORMING,)
_RUNNING = (ACTIVE, PAUSED)
_ANY = (FORMING, ACTIVE, PAUSED)

GM_COMMANDS: tuple[GmSpec, ...] = (
    GmSpec("create", "GM CREATE <game> <variant> [<gm-address>]", "SL ANLEGEN <spiel> <variante> [<sl-adresse>]",
           "Create a game and name its GM (default: you), who gets the GM password by mail; data files the "
           "game needs may be attached (1848: the card file).",
           "Ein Spiel anlegen und seinen Spielleiter benennen (sonst: du); er bekommt das Passwort per Mail; "
           "Datendateien des Spiels können anhängen (1848: die Kartendatei).", ("admin",)),
    GmSpec("data", "GM DATA [<name>] [<file>] | GM CARDS [<file>]", "SL DATEN [<name>] [<datei>] | SL KARTEN [<datei>]",
           "Supply a data file the game needs (1848: cards) as the TOML attachment of this mail, or a file of the "
           "judge's data folder by its plain name; it is checked, problems come back with line and field.",
           "Eine Datendatei des Spiels (1848: cards) liefern: als TOML-Anhang dieser Mail oder als Datei aus dem "
           "Datenordner des Schiedsrichters (nur ihr Name); sie wird geprüft, Fehler kommen mit Zeile und Feld zurück.",
           _SETUP),
    GmSpec("missed", "GM MISSED PASS | EXTEND [<duration>]", "SL VERPASST PASSEN | VERLÄNGERN [<dauer>]",
           "What a deadline does to a missing play: PASS (the rules' default at once) or EXTEND: one automatic "
           "extension per phase (default: the phase's deadline length), with a reminder to the silent player.",
           "Was eine Frist mit einem fehlenden Zug macht: PASSEN (sofort die Vorgabe der Regel) oder VERLÄNGERN: "
           "eine automatische Verlängerung je Phase (sonst: die Fristlänge der Phase), mit Erinnerung an den "
           "Säumigen.", _ANY),
    GmSpec("template", "GM TEMPLATE [<variant>] [<name>]", "SL VORLAGE [<variante>] [<name>]",
           "Mail me the template of a data file (every unknown value marked) as an attachment.",
           "Mir die Vorlage einer Datendatei (jeder unbekannte Wert markiert) als Anhang schicken.",
           _ANY + (FINISHED, "admin")),
    GmSpec("password", "GM PASSWORD <new>", "SL PASSWORT <neu>",
           "Change the GM password of the game.", "Das Spielleiter-Passwort ändern.", _ANY + (FINISHED,)),
    GmSpec("option", "GM OPTION <key> <value>", "SL OPTION <schlüssel> <wert>",
           "Set a variant option before the start; the value may have spaces (30JK: confessions "
           "random|chosen|historical; data standin: the stand-in data set). No option names a server file.",
           "Eine Option der Variante vor dem Start setzen; der Wert darf Leerzeichen haben (30JK: confessions "
           "random|chosen|historical; data standin: der Ersatzdatensatz). Keine Option nennt eine Datei des Servers.",
           _SETUP),
    GmSpec("schedule", "GM SCHEDULE <72h> | <Sun 20:00> [...]", "SL ZEITPLAN <72h> | <So 20:00> [...]",
           "Deadlines of movement phases: a fixed interval, or weekly times in the game's time zone.",
           "Fristen der Bewegungsphasen: ein fester Abstand oder wöchentliche Zeiten in der Zeitzone des Spiels.",
           _ANY),
    GmSpec("timezone", "GM TIMEZONE <zone>", "SL ZEITZONE <zone>",
           "The game's time zone (e.g. Europe/Berlin).", "Die Zeitzone des Spiels (z. B. Europe/Berlin).", _ANY),
    GmSpec("language", "GM LANGUAGE de|en", "SL SPRACHE de|en",
           "The language of the game's mails.", "Die Sprache der Mails des Spiels.", _ANY),
    GmSpec("grace", "GM GRACE <duration>", "SL NACHFRIST <dauer>",
           "Grace period after a deadline for late powers (0s: none).",
           "Nachfrist nach einer Frist für säumige Mächte (0s: keine).", _ANY),
    GmSpec("late", "GM LATE <excused> <missed>", "SL VERSPÄTUNG <entschuldigt> <verpasst>",
           "Late turns excused per power (each waits for the grace period); missed turns in a row before "
           "civil disorder (0: never).",
           "Entschuldigte Verspätungen je Macht (jede wartet die Nachfrist ab); verpasste Züge in Folge bis zur "
           "Anarchie (0: nie).", _ANY),
    GmSpec("reminders", "GM REMINDERS <24h> [<2h> ...] | OFF", "SL ERINNERUNGEN <24h> [<2h> ...] | AUS",
           "Remind powers without orders this long before each deadline.",
           "Mächte ohne Befehle so lange vor jeder Frist erinnern.", _ANY),
    GmSpec("press_setting", "GM PRESS WHITE|GREY|NONE [MOVEMENT]", "SL PRESSE WEISS|GRAU|KEINE [BEWEGUNG]",
           "Press: the sender always named, may stay anonymous, or no press; MOVEMENT: none in retreats and "
           "adjustments.",
           "Presse: Absender immer genannt, darf anonym bleiben, oder keine Presse; BEWEGUNG: nicht in Rückzügen "
           "und Anpassungen.", _ANY),
    GmSpec("assign", "GM ASSIGN <power> <address>", "SL ZUWEISEN <macht> <adresse>",
           "Give a power to a player, who gets a password by mail.",
           "Eine Macht einem Spieler geben; er bekommt ein Passwort per Mail.", _SETUP),
    GmSpec("random", "GM RANDOM ON|OFF", "SL ZUFALL AN|AUS",
           "Random powers: players sign on with SIGNON ANY <game> <password>.",
           "Mächte per Zufall: Spieler melden sich mit ANMELDEN ZUFALL <spiel> <passwort> an.", _SETUP),
    GmSpec("min_password", "GM MINPASSWORD <n>", "SL MINDESTPASSWORT <n>",
           "Seat passwords need at least n characters (default 8).",
           "Passwörter der Plätze brauchen mindestens n Zeichen (Vorgabe 8).", _SETUP),
    GmSpec("seats", "GM SEATS <n>", "SL PLÄTZE <n>",
           "How many seats one mail address may take (default 1).",
           "Wie viele Plätze eine Mailadresse belegen darf (Vorgabe 1).", _SETUP),
    GmSpec("approval", "GM APPROVAL ON|OFF", "SL FREIGABE AN|AUS",
           "Sign-ons wait for the GM's approval (GM APPROVE / GM REJECT).",
           "Anmeldungen warten auf die Freigabe des Spielleiters (SL FREIGEBEN / SL ABLEHNEN).", _SETUP),
    GmSpec("approve", "GM APPROVE <power>", "SL FREIGEBEN <macht>",
           "Approve the sign-on waiting for a power.", "Die wartende Anmeldung für eine Macht freigeben.", _SETUP),
    GmSpec("reject", "GM REJECT <power>", "SL ABLEHNEN <macht>",
           "Refuse the sign-on waiting for a power; the seat is open again.",
           "Die wartende Anmeldung für eine Macht ablehnen; der Platz ist wieder frei.", _SETUP),
    GmSpec("start", "GM START", "SL START",
           "Start the game now; open powers go into civil disorder.",
           "Das Spiel jetzt beginnen; freie Mächte sind in Anarchie.", _SETUP),
    GmSpec("deadline", "GM DEADLINE <YYYY-MM-DD> <HH:MM> | +<duration>", "SL FRIST <JJJJ-MM-TT> <HH:MM> | +<dauer>",
           "Set the current deadline (in the game's time zone) or extend it.",
           "Die laufende Frist setzen (in der Zeitzone des Spiels) oder verlängern.", (ACTIVE,)),
    GmSpec("pause", "GM PAUSE", "SL PAUSE",
           "Stop the clock; everyone is told, and reminded every day while it lasts.",
           "Die Uhr anhalten; alle werden benachrichtigt und täglich erinnert, solange die Pause dauert.", (ACTIVE,)),
    GmSpec("resume", "GM RESUME", "SL WEITER",
           "Restart the clock with the time that was left.", "Die Uhr mit der verbliebenen Zeit weiterlaufen lassen.",
           (PAUSED,)),
    GmSpec("process", "GM PROCESS <phase>", "SL AUSWERTEN <phase>",
           "Resolve the named phase now (only if the game is still in it).",
           "Die genannte Phase jetzt auswerten (nur wenn das Spiel noch in ihr ist).", (ACTIVE,)),
    GmSpec("preview", "GM PREVIEW", "SL VORSCHAU",
           "Mail the GM the would-be result of the orders received so far.",
           "Dem Spielleiter das Ergebnis der bisher eingegangenen Befehle schicken, ohne auszuwerten.", _RUNNING),
    GmSpec("rollback", "GM ROLLBACK <phase>", "SL ZURÜCK <phase>",
           "Return to a resolved phase; its orders reopen.",
           "Zu einer ausgewerteten Phase zurückkehren; ihre Befehle sind wieder offen.", _RUNNING + (FINISHED,)),
    GmSpec("unit_add", "GM UNIT ADD A|F <location> <power>", "SL EINHEIT NEU A|F <ort> <macht>",
           "Put a unit on the board.", "Eine Einheit aufs Brett stellen.", _RUNNING),
    GmSpec("unit_remove", "GM UNIT REMOVE [A|F] <location>", "SL EINHEIT WEG [A|F] <ort>",
           "Take a unit off the board.", "Eine Einheit vom Brett nehmen.", _RUNNING),
    GmSpec("unit_move", "GM UNIT MOVE [A|F] <from> <to>", "SL EINHEIT VERSETZEN [A|F] <von> <nach>",
           "Move a unit elsewhere.", "Eine Einheit woandershin stellen.", _RUNNING),
    GmSpec("centre", "GM CENTRE <province> <power>|NONE", "SL ZENTRUM <provinz> <macht>|KEINER",
           "Set a supply centre's owner.", "Den Besitzer eines Versorgungszentrums setzen.", _RUNNING),
    GmSpec("confession", "GM CONFESSION <power> <state> [<year>]", "SL KONFESSION <macht> <stand> [<jahr>]",
           "Set a power's confession (30JK), an ex-state with its last year.",
           "Die Konfession einer Macht setzen (30JK), einen Ex-Stand mit seinem letzten Jahr.", _RUNNING),
    GmSpec("incapacitate", "GM INCAPACITATE [A|F] <location>", "SL LÄHMEN [A|F] <ort>",
           "Mark a unit incapacitated for this turn (30JK).", "Eine Einheit für diesen Zug lähmen (30JK).",
           _RUNNING),
    GmSpec("orders", "GM ORDERS <power>", "SL BEFEHLE <macht>",
           "Enter orders for a power: the order lines follow.",
           "Befehle für eine Macht eingeben: die Befehlszeilen folgen.", _RUNNING),
    GmSpec("replace", "GM REPLACE <power> <address>", "SL ERSETZEN <macht> <adresse>",
           "Give a power to a new player (new password by mail; the old player is told).",
           "Eine Macht einem neuen Spieler geben (neues Passwort per Mail; der alte Spieler wird benachrichtigt).",
           _ANY),
    GmSpec("eject", "GM EJECT <power>", "SL ENTFERNEN <macht>",
           "Remove a player; the power goes into civil disorder.",
           "Einen Spieler entfernen; die Macht ist in Anarchie.", _RUNNING),
    GmSpec("end_draw", "GM END DRAW", "SL ENDE REMIS",
           "End the game as a draw of the surviving powers.", "Das Spiel als Remis der verbliebenen Mächte beenden.",
           _RUNNING),
    GmSpec("end_concede", "GM END CONCEDE <power>", "SL ENDE KAPITULATION <macht>",
           "End the game: everyone concedes to a power.", "Das Spiel beenden: alle kapitulieren vor einer Macht.",
           _RUNNING),
    GmSpec("end_solo", "GM END SOLO <power>", "SL ENDE SIEG <macht>",
           "End the game with a power's solo victory.", "Das Spiel mit dem Alleinsieg einer Macht beenden.",
           _RUNNING),
    GmSpec("help", "GM HELP", "SL HILFE", "List the GM commands.", "Die Spielleiter-Befehle auflisten.",
           _ANY + (FINISHED, "admin")),
    GmSpec("dryrun", "GM DRYRUN <command>", "SL PROBE <befehl>",
           "Show what a command would do, without doing it.", "Zeigen, was ein Befehl täte, ohne ihn auszuführen.",
           _ANY + (FINISHED, "admin")),
)
"""Every game-master command; ``gm_help`` is generated from this table."""

_SPECS = {spec.rule: spec for spec in GM_COMMANDS}


_PASSWORD_WORDS = ("password", "passwort")


def secret_words(text: str) -> list[str]:
    """The words of a GM line that may be a password: every word after a
    ``PASSWORD`` keyword (also under ``DRYRUN``)."""
    words = text.split()
    for index, word in enumerate(words):
        if word.lower() in _PASSWORD_WORDS:
            return words[index + 1:]
    return []


def masked(text: str) -> str:
    """A GM line as it may be echoed: every word after ``PASSWORD`` hidden."""
    words = text.split()
    hidden = secret_words(text)
    if not hidden:
        return text
    return " ".join(words[: len(words) - len(hidden)] + ["****"])


def gm_help(language: str) -> list[str]:
    """The game-master help in ``language`` (de/en), from ``GM_COMMANDS``."""
    lines = []
    for spec in GM_COMMANDS:
        lines.append(spec.syntax_de if language == "de" else spec.syntax_en)
        lines.append("    " + (spec.description_de if language == "de" else spec.description_en))
    return lines


@cache
def _parser() -> Lark:
    return lalr_parser("gm", start="gm_command")


class GmRefused(Exception):
    """A game-master command that cannot be carried out; the message says why."""


@dataclass
class GmContext:
    """What a game-master command works with: the mail's transaction, the
    signed-on role (``gm`` of ``game``, or ``admin``), the reply lines and
    the hook for order lines that follow (``GM ORDERS``)."""

    store: Store
    db: Connection
    config: Config
    now: datetime
    actor: str
    role: str
    game: GameRecord | None
    texts: Texts
    lines: list[str] = field(default_factory=list)
    expect_orders: str | None = None
    notices: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    """Notices to the players of this mail's commands, by address: sent as
    one mail per player when the mail is done (``send_notices``)."""
    attachments: list[Attachment] = field(default_factory=list)
    """Pictures for the GM's answer (the map of a PREVIEW)."""
    secrets: set[str] = field(default_factory=set)
    """Passwords the commands made (never shown in the answer)."""
    players_signed: set[str] = field(default_factory=set)
    """Games the same mail signed on to as a player."""
    mail_files: tuple[gamedata.Attached, ...] = ()
    """The files attached to the mail (data files a GM supplies)."""


def run(context: GmContext, text: str) -> None:
    """Carry out one ``GM`` line (the words after the keyword); answers go
    to ``context.lines``.  Never raises for a bad command."""
    try:
        tree = _parser().parse(text)
    except UnexpectedInput as error:
        column = getattr(error, "column", 1)
        context.lines.append(context.texts("gm_syntax", column=column, text=masked(text)[:80]))
        return
    assert isinstance(tree, Tree)
    context.db.execute("SAVEPOINT gm_command")
    try:
        if tree.data == "dryrun":
            _dry_run(context, tree.children[1], text)
        else:
            _carry_out(context, tree, text)
    except GmRefused as refusal:
        context.db.execute("ROLLBACK TO SAVEPOINT gm_command")
        context.lines.append(context.texts("gm_refused", reason=str(refusal)))
    except (ValueError, KeyError, LookupError, GameSetupError, GameError) as error:
        # a malformed argument the checks above missed: answered, nothing kept
        context.db.execute("ROLLBACK TO SAVEPOINT gm_command")
        context.lines.append(context.texts("gm_refused", reason=context.texts("gm_bad_argument",
                                                                              error=type(error).__name__)))
    context.db.execute("RELEASE SAVEPOINT gm_command")


def _words(tree: Tree[Any], *types: str) -> list[str]:
    return [str(t) for t in tree.children if isinstance(t, Token) and (not types or t.type in types)]


def _carry_out(context: GmContext, tree: Tree[Any], text: str) -> None:
    rule = str(tree.data)
    spec = _SPECS[rule]
    game = context.game
    if context.role == "admin" and "admin" not in spec.allowed and game is None:
        raise GmRefused(context.texts("gm_needs_game"))
    if context.role != "admin" and spec.allowed == ("admin",):
        raise GmRefused(context.texts("gm_needs_admin"))
    if game is not None:
        game = context.store.game(game.name) or game
        context.game = game
        if rule != "help" and game.status not in spec.allowed:
            raise GmRefused(context.texts("gm_wrong_state", status=context.texts(game.status)))
    handler = _HANDLERS[rule]
    detail = handler(context, tree)
    if detail and context.game is not None and rule not in ("help", "password"):
        shown = _ADDRESS.sub("<address>", " ".join(text.split()))
        context.store.add_audit(context.db, context.game.name, context.now.isoformat(), context.role, shown, detail)
    if detail and rule == "password" and context.game is not None:
        context.store.add_audit(context.db, context.game.name, context.now.isoformat(), context.role,
                                "PASSWORD ****", detail)


def _dry_run(context: GmContext, inner: Tree[Any] | Token, text: str) -> None:
    """Carry out ``inner`` inside a savepoint, report its answer and the
    mails it would send, then undo everything."""
    if not isinstance(inner, Tree):  # pragma: no cover - the grammar nests a command
        raise GmRefused("DRYRUN needs a command")
    _not_a_player(context)
    before = context.db.execute("SELECT COALESCE(MAX(seq), 0) FROM outbox").fetchone()[0]
    context.db.execute("SAVEPOINT gm_dry_run")
    answer: list[str] = []
    try:
        trial = replace(context, lines=answer, notices={}, attachments=[])
        _carry_out(trial, inner, " ".join(text.split()[1:]))
        send_notices(trial)
        mails = context.store.queued_after(context.db, before)
    except GmRefused as refusal:
        answer.append(context.texts("gm_refused", reason=str(refusal)))
        mails = []
    finally:
        context.db.execute("ROLLBACK TO SAVEPOINT gm_dry_run")
        context.db.execute("RELEASE SAVEPOINT gm_dry_run")
    context.lines.append(context.texts("gm_dry_run"))
    context.lines.extend(answer)
    distinct: dict[tuple[str, str], list[str]] = {}  # (subject, text) -> recipients: each mail shown once
    sealed = context.game is not None and _keeps_secrets(_module(context), context.game.state)
    for raw, to in mails:
        message = message_from_bytes(raw, policy=policy.default)
        body = message.get_body(preferencelist=("plain",))
        content = str(body.get_content()) if body is not None else ""
        content = "\n".join(line for line in content.splitlines() if not line.startswith(":: Power:"))
        distinct.setdefault((str(message["Subject"]), content), []).extend(to)
    for (subject, content), addresses in distinct.items():
        context.lines.append(context.texts("gm_would_mail", to=", ".join(addresses), subject=subject))
        if sealed:  # a report or a hand would show sealed plays before they are revealed
            context.lines.append("    " + context.texts("gm_sealed_hidden"))
        else:
            context.lines.extend("    " + line for line in content.splitlines()[:200])
    if context.game is not None:
        context.store.add_audit(context.db, context.game.name, context.now.isoformat(), context.role,
                                masked(" ".join(text.split())), "dry run, nothing changed")


# --- helpers -------------------------------------------------------------------


def _module(context: GmContext) -> GameModule:
    assert context.game is not None
    return game_module(context.game.variant)


def _power(context: GmContext, words: list[str]) -> str:
    name = " ".join(words)
    power = _module(context).lookup_power(name)
    if power is None:
        raise GmRefused(context.texts("gm_unknown_power", power=name))
    return power


def _seat(context: GmContext, power: str) -> PlayerRecord:
    assert context.game is not None
    return next(p for p in context.store.players(context.game.name) if p.power == power)


def _save(context: GmContext, game: GameRecord) -> None:
    context.store.update_game(context.db, game)
    context.game = game


def whole_minute(moment: datetime) -> datetime:
    """``moment`` rounded to the nearest whole minute (a paused game's
    deadline does not come back as 19:59:59.6)."""
    return (moment + timedelta(seconds=30)).replace(second=0, microsecond=0)


def _tell_everyone(context: GmContext, subject_key: str, text: str) -> None:
    """Collect a notice for every player; ``send_notices`` mails them."""
    assert context.game is not None
    game = context.game
    for address in recipients(context.store, game):
        context.notices.setdefault(address, []).append((context.texts(subject_key, game=game.name), text))


def send_notices(context: GmContext) -> None:
    """Queue what the GM's commands of one mail told the players: one mail
    per player, however many commands there were (several notices are
    joined under one subject)."""
    game = context.game
    if game is None:
        context.notices.clear()
        return
    for address, notices in context.notices.items():
        subject = notices[0][0] if len(notices) == 1 else context.texts("gm_changes_subject", game=game.name)
        text = "\n\n".join(text for _, text in notices)
        queue_notice(context.store, context.db, context.config, game, address, subject, text, context.now)
    context.notices.clear()


def _check_address(context: GmContext, address: str) -> None:
    """A mail address a GM named must be one the judge can write to."""
    try:
        check_address(address)
        usable = is_address(address) and address.isascii()
    except ValueError:
        usable = False
    if not usable:
        raise GmRefused(context.texts("gm_bad_address", address=address[:80]))


def _new_password(context: GmContext) -> str:
    password = secrets.token_urlsafe(9)
    context.secrets.add(password)
    return password


def _send_password(context: GmContext, address: str, power: str, password: str) -> None:
    assert context.game is not None
    game = context.game
    name = _module(context).power_name(power, game.language)
    queue_notice(context.store, context.db, context.config, game, address,
                 context.texts("seat_subject", game=game.name), context.texts("seat_mail", game=game.name, power=name, canonical=power, password=password,
                        judge=context.config.address), context.now)


# --- the commands ------------------------------------------------------------------


def _create(context: GmContext, tree: Tree[Any]) -> str:
    name, variant, *addresses = _words(tree, "WORD", "ADDRESS")
    address = addresses[0] if addresses else context.actor
    _check_address(context, address)
    password = _new_password(context)
    try:
        game = create_game(context.store, context.config, name, variant, {}, context.now, gm=address,
                           db=context.db, settings={"gm_password_hash": hash_password(password)})
    except GameSetupError as error:
        raise GmRefused(_setup_reason(context, error)) from None
    except (GameError, ValueError) as error:
        raise GmRefused(str(error)) from None
    context.game = game
    queue_notice(context.store, context.db, context.config, game, address,
                 context.texts("gm_created_subject", game=name), context.texts("gm_created_mail", game=name, variant=game.variant, password=password,
                        judge=context.config.address), context.now)
    context.lines.append(context.texts("gm_created", game=name, variant=game.variant))
    module = _module(context)
    for data_name, attached in gamedata.matching(gamedata.files_of(module), context.mail_files).items():
        data_file = gamedata.find(module, data_name)
        assert data_file is not None
        _supply_attached(context, data_file, attached)
    _tell_data_state(context)
    return f"created ({game.variant})"


# --- game data (DataFile): templates, attachments, the data folder ---------------------------


def _restart_with(context: GmContext, options: dict[str, Any]) -> None:
    """The forming game with new options: its first state computed again
    (or waiting for data still missing)."""
    assert context.game is not None
    game = context.game
    try:
        state = gamedata.start_or_wait(_module(context), options, int(game.settings.get("seed", 0)))
    except GameSetupError as error:
        raise GmRefused(_setup_reason(context, error)) from None
    from adjudicator.service.verify import OPENING, opening_events_of

    opening = [] if gamedata.awaiting(state) else opening_events_of(game.variant, state)
    _save(context, replace(game, options=dict(state.get("options", options)), state=state,
                           phase=phase_of(_module(context), state), settings={**game.settings, OPENING: opening}))


def _supply_attached(context: GmContext, data_file: Any, attached: gamedata.Attached) -> bool:
    """Check an attached data file and store it; the answer says what was
    wrong (line and field) when it cannot be used.  True when stored."""
    where = attached.filename[:80]
    if attached.too_large:
        return _data_problems(context, data_file.name, (context.texts(
            "data_too_large", file=where, limit=context.config.data_max_bytes),))
    return _supply(context, data_file, attached.data, where)


def _supply(context: GmContext, data_file: Any, raw: bytes, where: str) -> bool:
    assert context.game is not None
    try:
        text = gamedata.checked(data_file, gamedata.decoded(raw, where, context.config.data_max_bytes), where)
    except gamedata.DataRefused as refused:
        return _data_problems(context, data_file.name, refused.problems)
    _restart_with(context, gamedata.supplied(context.game.options, data_file, text))
    context.lines.append(context.texts("data_stored", name=data_file.name, file=where, size=len(raw)))
    return True


_MAX_PROBLEM_LINES = 100


def _data_problems(context: GmContext, name: str, problems: Sequence[str | Finding]) -> bool:
    """The answer to a data file that is not taken: every problem, those a
    game words from the catalogue as a table (line, card, field, what is
    allowed) in the game's language, the others as their text."""
    shown = problems[:_MAX_PROBLEM_LINES]
    if any(isinstance(p, Finding) and p.key for p in problems):
        context.lines.append(context.texts("data_refused_table", name=name, count=len(problems)))
        context.lines.append("    " + context.texts("data_finding_head"))
        context.lines.extend("    " + _finding_row(context, p)[:240] for p in shown)
    else:
        context.lines.append(context.texts("data_refused", name=name, count=len(problems)))
        context.lines.extend("    " + str(p)[:200] for p in shown)
    if len(problems) > _MAX_PROBLEM_LINES:
        context.lines.append(context.texts("data_more_problems", count=len(problems) - _MAX_PROBLEM_LINES))
    return False


def _finding_row(context: GmContext, problem: str | Finding) -> str:
    """One row of the table of a data file's problems: line | card |
    field | what is allowed (``-`` where a finding names none; a plain
    text or a finding without a key in the last column as it is)."""
    if not isinstance(problem, Finding) or not problem.key:
        return f"- | - | - | {problem}"
    allowed = context.texts(problem.key, **dict(problem.fields))
    return f"{problem.line or '-'} | {problem.card or '-'} | {problem.field or '-'} | {allowed}"


_MAX_UNKNOWN_LINES = 150


def _tell_data_state(context: GmContext, standin_note: bool = True) -> None:
    """What a forming game still needs before it can start, as a table
    pointing to the data commands (and, with ``standin_note``, that it
    plays with the stand-in set)."""
    assert context.game is not None
    game = context.game
    module = _module(context)
    if standin_note and gamedata.uses_standin(game.options) and gamedata.files_of(module):
        context.lines.append(context.texts("data_standin_chosen"))
    waiting = [f for f in gamedata.files_of(module) if f.name in gamedata.awaiting(game.state)]
    if not waiting:
        return
    context.lines.append(context.texts("data_missing_head", game=game.name))
    for data_file in waiting:
        title = data_file.title_de if context.texts.language == "de" else data_file.title_en
        context.lines.append(context.texts("data_missing_file", name=data_file.name, title=title or data_file.name))
        unknown = data_file.unknown(None) if data_file.unknown is not None else ()
        context.lines.extend("    " + line[:200] for line in unknown[:_MAX_UNKNOWN_LINES])
        if len(unknown) > _MAX_UNKNOWN_LINES:
            context.lines.append(context.texts("data_more_unknown", count=len(unknown) - _MAX_UNKNOWN_LINES))
    names = " | ".join(f.name for f in waiting)
    context.lines.append(context.texts("data_how_template", names=names))
    context.lines.append(context.texts("data_how_attach", names=names))
    if context.config.data_folder is not None:
        context.lines.append(context.texts("data_how_folder", names=names))
    context.lines.append(context.texts("data_how_standin"))


def _data(context: GmContext, tree: Tree[Any]) -> str:
    assert context.game is not None
    (keyword,) = _words(tree, "DATA")
    words = _words(tree, "WORD")
    module = _module(context)
    if keyword.casefold() in ("cards", "karten"):
        name: str | None = "cards"
    else:
        # one word: a data file's name, or (with a dot) a file of the data folder for the game's only data file
        named = words and (len(words) > 1 or gamedata.find(module, words[0]) is not None or "." not in words[0])
        name = words.pop(0) if named else None
    data_file = gamedata.find(module, name)
    if data_file is None:
        known = ", ".join(f.name for f in gamedata.files_of(module)) or "-"
        raise GmRefused(context.texts("data_no_such_file", name=name or "?", variant=module.variant, known=known))
    if words:
        filename = words[0]
        try:
            raw = gamedata.from_folder(context.config.data_folder, filename, context.config.data_max_bytes)
        except gamedata.DataRefused as refused:
            _data_problems(context, data_file.name, refused.problems)
            return ""
        stored = _supply(context, data_file, raw, filename)
    else:
        attached = gamedata.matching((data_file,), context.mail_files).get(data_file.name)
        if attached is None:
            raise GmRefused(context.texts("data_attach_it", name=data_file.name))
        filename = attached.filename[:80]
        stored = _supply_attached(context, data_file, attached)
    if not stored:
        return ""
    _tell_data_state(context)
    _start_if_full(context)
    return f"data file {data_file.name} supplied ({filename})"


def _start_if_full(context: GmContext) -> None:
    """Start a forming game that no longer waits for data once every seat is taken."""
    assert context.game is not None
    game = context.game
    if game.status == FORMING and not gamedata.awaiting(game.state) and \
            all(p.status != "open" for p in context.store.players(game.name)):
        context.game = start_game(context.store, context.db, context.config, game, context.now)
        context.lines.append(context.texts("game_started", game=game.name, phase=context.game.phase))


def _missed(context: GmContext, tree: Tree[Any]) -> str:
    assert context.game is not None
    (mode,) = _words(tree, "MISSMODE")
    policy = "pass" if mode.casefold().startswith("pass") else "extend"
    durations = _words(tree, "DURATION")
    settings = {k: v for k, v in context.game.settings.items() if k != "missed_extension"}
    settings["missed"] = policy
    if durations and policy == "extend":
        settings["missed_extension"] = parse_duration(durations[0])
    _save(context, replace(context.game, settings=settings))
    what = "missed plays: " + ("the rules' default at the deadline" if policy == "pass" else
                               "one extension" + (f" of {format_duration(settings['missed_extension'])}"
                                                  if "missed_extension" in settings else ""))
    context.lines.append(context.texts("gm_done", what=what))
    return what


def _template(context: GmContext, tree: Tree[Any]) -> str:
    words = _words(tree, "WORD")
    module: GameModule | None = _module(context) if context.game is not None else None
    if words:
        try:
            module = game_module(words[0])
            words.pop(0)
        except UnknownGame:
            pass
    if module is None:
        raise GmRefused(context.texts("data_template_variant"))
    data_file = gamedata.find(module, words[0] if words else None)
    if data_file is None:
        known = ", ".join(f.name for f in gamedata.files_of(module)) or "-"
        raise GmRefused(context.texts("data_no_such_file", name=words[0] if words else "?", variant=module.variant,
                                      known=known))
    filename = f"{module.variant}-{data_file.name}.toml"
    context.attachments.append(Attachment(filename, "text/plain", data_file.template().encode("utf-8")))
    context.lines.append(context.texts("data_template_attached", name=data_file.name, file=filename))
    return ""


def _password(context: GmContext, tree: Tree[Any]) -> str:
    assert context.game is not None
    (new,) = _words(tree, "WORD")
    _save(context, replace(context.game, settings={**context.game.settings, "gm_password_hash": hash_password(new)}))
    context.lines.append(context.texts("password_changed"))
    return "GM password changed"


def _option(context: GmContext, tree: Tree[Any]) -> str:
    assert context.game is not None
    words = _words(tree, "WORD")
    key, _, first = words[0].partition("=")
    value = " ".join(([first] if first else []) + words[1:])
    if not key or not value:
        raise GmRefused(context.texts("gm_option_value", option=key or words[0]))
    if gamedata.path_option(key):
        raise GmRefused(context.texts("data_no_paths", option=key))
    if key.casefold() == "data" and value.casefold() != STANDIN:
        raise GmRefused(context.texts("data_option_values", value=value))
    typed: Any = int(value) if value.isdigit() else STANDIN if key.casefold() == "data" else value
    _restart_with(context, {**context.game.options, key: typed})
    context.lines.append(_done(context, f"{key} = {value}"))
    _tell_data_state(context, standin_note=key.casefold() == "data")
    _start_if_full(context)
    return f"{key} = {value}"


def _schedule(context: GmContext, tree: Tree[Any]) -> str:
    assert context.game is not None
    game = context.game
    durations = _words(tree, "DURATION")
    if durations:
        seconds = parse_duration(durations[0])
        _save(context, replace(game, deadlines={**game.deadlines, "movement": seconds},
                               settings={**game.settings, "weekly": []}))
        what = f"movement {format_duration(seconds)}"
    else:
        times = []
        for weekly in tree.children:
            if isinstance(weekly, Tree):
                day, clock = _words(weekly)
                day_index = weekday(day)
                if day_index is None:
                    raise GmRefused(context.texts("gm_bad_day", day=day))
                hour, minute = (int(x) for x in clock.split(":"))
                if hour > 23 or minute > 59:
                    raise GmRefused(context.texts("gm_bad_time", time=clock))
                times.append(f"{WEEKDAY_NAMES[day_index]} {hour:02d}:{minute:02d}")
        _save(context, replace(game, settings={**game.settings, "weekly": times}))
        what = "weekly " + ", ".join(times)
    context.lines.append(_done(context, what))
    return what


def _timezone(context: GmContext, tree: Tree[Any]) -> str:
    assert context.game is not None
    (zone,) = _words(tree, "WORD")
    try:
        ZoneInfo(zone)
    except (ZoneInfoNotFoundError, ValueError):
        raise GmRefused(context.texts("gm_bad_zone", zone=zone)) from None
    _save(context, replace(context.game, time_zone=zone))
    context.lines.append(_done(context, zone))
    return zone


def _language(context: GmContext, tree: Tree[Any]) -> str:
    assert context.game is not None
    (language,) = _words(tree, "WORD")
    if language.lower() not in ("de", "en"):
        raise GmRefused(context.texts("gm_bad_language", language=language))
    _save(context, replace(context.game, language=language.lower()))
    context.lines.append(_done(context, language.lower()))
    return language.lower()


def _grace(context: GmContext, tree: Tree[Any]) -> str:
    assert context.game is not None
    (duration,) = _words(tree, "DURATION")
    seconds = parse_duration(duration, allow_zero=True)
    _save(context, replace(context.game, settings={**context.game.settings, "grace": seconds}))
    what = f"grace {format_duration(seconds)}" if seconds else "no grace period"
    context.lines.append(_done(context, what))
    return what


def _late(context: GmContext, tree: Tree[Any]) -> str:
    assert context.game is not None
    excused, missed = (int(x) for x in _words(tree, "INT"))
    _save(context, replace(context.game, settings={**context.game.settings, "excused": excused,
                                                   "disorder_after": missed}))
    what = f"excused {excused}, civil disorder after {missed} missed"
    context.lines.append(_done(context, what))
    return what


def _reminders(context: GmContext, tree: Tree[Any]) -> str:
    assert context.game is not None
    durations = [parse_duration(d) for d in _words(tree, "DURATION")]
    _save(context, replace(context.game, settings={**context.game.settings, "reminders": sorted(durations, reverse=True)}))
    what = "reminders " + (" ".join(format_duration(d) for d in sorted(durations, reverse=True)) or "off")
    context.lines.append(_done(context, what))
    return what


_PRESS_MODES = {"white": "white", "weiss": "white", "weiß": "white", "grey": "grey", "gray": "grey", "grau": "grey",
                "none": "none", "keine": "none"}


def _press_setting(context: GmContext, tree: Tree[Any]) -> str:
    assert context.game is not None
    (mode,) = _words(tree, "PRESSMODE")
    movement_only = bool(_words(tree, "MOVEMENT"))
    press = _PRESS_MODES[mode.lower()]
    _save(context, replace(context.game, settings={**context.game.settings, "press": press,
                                                   "press_movement_only": movement_only}))
    what = f"press {press}" + (" (movement phases only)" if movement_only else "")
    context.lines.append(_done(context, what))
    return what


def _assign(context: GmContext, tree: Tree[Any]) -> str:
    assert context.game is not None
    power = _power(context, _words(tree, "WORD"))
    (address,) = _words(tree, "ADDRESS")
    _check_address(context, address)
    seat = _seat(context, power)
    if seat.status != "open":
        raise GmRefused(context.texts("gm_seat_taken", power=_name(context, power)))
    password = _new_password(context)
    context.store.update_player(context.db, replace(seat, address=address, password_hash=hash_password(password),
                                                    status="playing", joined_at=context.now.isoformat()))
    _send_password(context, address, power, password)
    context.lines.append(context.texts("gm_assigned", power=_name(context, power)))
    if gamedata.awaiting(context.game.state):
        if all(p.status != "open" for p in context.store.players(context.game.name)):
            context.lines.append(context.texts("data_game_waits", game=context.game.name))
    else:
        _start_if_full(context)
    return f"{power} assigned"


def _random(context: GmContext, tree: Tree[Any]) -> str:
    assert context.game is not None
    (switch,) = _words(tree, "ONOFF")
    on = switch.lower() in ("on", "an")
    _save(context, replace(context.game, settings={**context.game.settings, "random": on}))
    what = "random powers " + ("on" if on else "off")
    context.lines.append(_done(context, what))
    return what


def _setting(context: GmContext, key: str, value: Any, what: str) -> str:
    assert context.game is not None
    _save(context, replace(context.game, settings={**context.game.settings, key: value}))
    context.lines.append(context.texts("gm_done", what=what))
    return what


def _min_password(context: GmContext, tree: Tree[Any]) -> str:
    (count,) = _words(tree, "INT")
    if not 1 <= int(count) <= 64:
        raise GmRefused(context.texts("gm_bad_number", number=count, low=1, high=64))
    return _setting(context, "password_min", int(count), f"seat passwords at least {int(count)} characters")


def _seats(context: GmContext, tree: Tree[Any]) -> str:
    (count,) = _words(tree, "INT")
    if not 1 <= int(count) <= 50:
        raise GmRefused(context.texts("gm_bad_number", number=count, low=1, high=50))
    return _setting(context, "seats_per_address", int(count), f"{int(count)} seat(s) per address")


def _approval(context: GmContext, tree: Tree[Any]) -> str:
    (switch,) = _words(tree, "ONOFF")
    on = switch.lower() in ("on", "an")
    return _setting(context, "approval", on, "sign-ons need approval" if on else "sign-ons need no approval")


def _waiting_seat(context: GmContext, tree: Tree[Any]) -> PlayerRecord:
    seat = _seat(context, _power(context, _words(tree, "WORD")))
    if seat.status != "waiting":
        raise GmRefused(context.texts("gm_nothing_waiting", power=seat.power))
    return seat


def _approve(context: GmContext, tree: Tree[Any]) -> str:
    assert context.game is not None
    seat = _waiting_seat(context, tree)
    context.store.update_player(context.db, replace(seat, status="playing", joined_at=context.now.isoformat()))
    context.store.log(context.db, context.game.name, context.now.isoformat(), "joined", seat.power)
    if seat.address:
        queue_notice(context.store, context.db, context.config, context.game, seat.address,
                     context.texts("approved_subject", game=context.game.name),
                     context.texts("approved_mail", game=context.game.name, power=seat.power), context.now)
    context.lines.append(context.texts("gm_done", what=f"{seat.power} approved"))
    game = context.game
    if all(p.status not in ("open", "waiting") for p in context.store.players(game.name)):
        context.game = start_game(context.store, context.db, context.config, game, context.now)
        context.lines.append(context.texts("game_started", game=game.name, phase=context.game.phase))
    return f"{seat.power} approved"


def _reject(context: GmContext, tree: Tree[Any]) -> str:
    assert context.game is not None
    seat = _waiting_seat(context, tree)
    context.store.update_player(context.db, replace(seat, status="open", address=None, password_hash=None,
                                                    joined_at=None))
    if seat.address:
        queue_notice(context.store, context.db, context.config, context.game, seat.address,
                     context.texts("rejected_subject", game=context.game.name),
                     context.texts("rejected_mail", game=context.game.name, power=seat.power), context.now)
    context.lines.append(context.texts("gm_done", what=f"{seat.power} rejected"))
    return f"{seat.power} rejected"


def _start(context: GmContext, tree: Tree[Any]) -> str:
    assert context.game is not None
    if gamedata.awaiting(context.game.state):
        _tell_data_state(context)
        raise GmRefused(context.texts("data_game_waits", game=context.game.name))
    try:
        game = start_game(context.store, context.db, context.config, context.game, context.now)
    except GameError as error:
        raise GmRefused(str(error)) from None
    context.game = game
    disorder = [p.power for p in context.store.players(game.name) if p.status == "disorder"]
    if disorder:  # never "all powers are taken" when some were not
        context.lines.append(context.texts("gm_started_open", game=game.name, phase=game.phase,
                                           powers=", ".join(_name(context, p) for p in disorder)))
    else:
        context.lines.append(context.texts("game_started", game=game.name, phase=game.phase))
    return "started" + (f"; in civil disorder: {', '.join(disorder)}" if disorder else "")


def _deadline(context: GmContext, tree: Tree[Any]) -> str:
    assert context.game is not None
    game = context.game
    extension = _words(tree, "EXTENSION")
    if extension:
        current = datetime.fromisoformat(game.deadline) if game.deadline else context.now
        deadline = current + timedelta(seconds=parse_duration(extension[0].lstrip("+")))
    else:
        day, clock = _words(tree, "DATE", "CLOCK")
        try:
            local = datetime.fromisoformat(f"{day}T{clock.zfill(5)}").replace(tzinfo=ZoneInfo(game.time_zone))
        except ValueError:
            raise GmRefused(context.texts("gm_bad_date", date=f"{day} {clock}")) from None
        deadline = local.astimezone(timezone.utc)
    if deadline <= context.now:
        raise GmRefused(context.texts("gm_past_deadline", deadline=context.texts.when(deadline)))
    _save(context, replace(game, deadline=deadline.isoformat()))
    when = context.texts.when(deadline)
    _tell_everyone(context, "deadline_subject", context.texts("deadline_mail", game=game.name, phase=game.phase,
                                                              deadline=when))
    context.lines.append(_done(context, when))
    return f"deadline {context.texts.machine_time(deadline)}"


def _pause(context: GmContext, tree: Tree[Any]) -> str:
    assert context.game is not None
    game = context.game
    left = (datetime.fromisoformat(game.deadline) - context.now).total_seconds() if game.deadline else 0
    settings = {**game.settings, "paused_left": max(int(left), 3600), "paused_at": context.now.isoformat(),
                "pause_notice_at": context.now.isoformat()}
    _save(context, replace(game, status=PAUSED, deadline=None, settings=settings))
    _tell_everyone(context, "pause_subject", context.texts("pause_mail", game=game.name, phase=game.phase,
                                                           since=context.texts.when(context.now)))
    context.lines.append(_done(context, "paused"))
    return f"paused in {game.phase}"


def _resume(context: GmContext, tree: Tree[Any]) -> str:
    assert context.game is not None
    game = context.game
    deadline = whole_minute(context.now + timedelta(seconds=int(game.settings.get("paused_left", 3600))))
    settings = {k: v for k, v in game.settings.items() if k not in ("paused_left", "paused_at", "pause_notice_at")}
    _save(context, replace(game, status=ACTIVE, deadline=deadline.isoformat(), settings=settings))
    _tell_everyone(context, "resume_subject", context.texts("resume_mail", game=game.name, phase=game.phase,
                                                            deadline=context.texts.when(deadline)))
    context.lines.append(_done(context, context.texts.when(deadline)))
    return f"resumed, deadline {context.texts.machine_time(deadline)}"


def _process(context: GmContext, tree: Tree[Any]) -> str:
    assert context.game is not None
    (phase,) = _words(tree, "WORD")
    game = context.game
    if phase.upper() != game.phase.upper():
        raise GmRefused(context.texts("gm_not_that_phase", phase=phase, current=game.phase))
    # recorded before resolving, so that this phase's report lists it
    context.store.add_audit(context.db, game.name, context.now.isoformat(), context.role, f"PROCESS {game.phase}",
                            f"processed {game.phase} before its deadline")
    resolve_phase(context.store, context.db, context.config, game.name, game.phase, context.now, "gm")
    after = context.store.game(game.name) or game
    context.game = after
    context.lines.append(context.texts("gm_processed", phase=game.phase, next=after.phase))
    return ""


def _not_a_player(context: GmContext) -> None:
    """PREVIEW and DRYRUN are refused to a GM who also plays in the game."""
    game = context.game
    if game is None:
        return
    playing = game.name in context.players_signed or any(
        p.address and p.address.lower() == context.actor.lower() and p.status == "playing"
        for p in context.store.players(game.name))
    if playing:
        raise GmRefused(context.texts("gm_plays_too", game=game.name))


def _keeps_secrets(module: GameModule, state: dict[str, Any]) -> bool:
    """True when a game's mails may show what a GM must not see before it
    is revealed: sealed plays, a turn game's hidden hands, notes, queued
    orders or coming dice (so DRYRUN and PREVIEW show no contents)."""
    if module.submission_means_ready or module.turn(state) is not None:
        return True
    try:
        return any(module.private_lines(state, power, "en") for power in module.powers())
    except Exception:  # a state a module cannot show (a game still waiting for data) shows nothing
        return True


def _preview(context: GmContext, tree: Tree[Any]) -> str:
    assert context.game is not None
    game = context.game
    _not_a_player(context)
    module = _module(context)
    if _keeps_secrets(module, game.state):  # sealed plays stay sealed: only how many are in
        entries = context.store.submissions(game.name, game.phase)
        acting = module.must_act(game.state)
        played = sum(1 for p in acting if entries.get(p) is not None and entries[p].has_orders)
        context.lines.append(context.texts("gm_preview_sealed", phase=game.phase, played=played, total=len(acting)))
        return f"preview of {game.phase} ({played} of {len(acting)} plays in)"
    context.db.execute("SAVEPOINT gm_preview")
    try:
        if game.status == PAUSED:
            context.store.update_game(context.db, replace(game, status=ACTIVE))
        resolve_phase(context.store, context.db, context.config, game.name, game.phase, context.now, "preview")
        report = next((p for p in context.store.phases(game.name) if p.phase == game.phase), None)
    finally:
        context.db.execute("ROLLBACK TO SAVEPOINT gm_preview")
        context.db.execute("RELEASE SAVEPOINT gm_preview")
    context.lines.append(context.texts("gm_preview", phase=game.phase))
    if report is not None:
        context.lines.extend("    " + line for line in report.report_text.splitlines())
        context.attachments.extend(report_images(_module(context), game.name, report.state, report.report,
                                                 language=game.language, texts=context.texts))
    return f"preview of {game.phase}"


def _rollback(context: GmContext, tree: Tree[Any]) -> str:
    assert context.game is not None
    (phase,) = _words(tree, "WORD")
    game = context.game
    later = [p.phase for p in context.store.phases(game.name)]
    target = context.store.roll_back_phases(context.db, game.name, phase, context.now.isoformat())
    if target is None:
        raise GmRefused(context.texts("no_such_phase", game=game.name, phase=phase))
    later = later[later.index(target.phase):] + [game.phase]
    module = _module(context)
    rolled = replace(game, phase=target.phase, state=target.state, status=ACTIVE, outcome="",
                     deadline=deadline_after(game, module, target.state, context.now),
                     settings={k: v for k, v in game.settings.items() if k not in ("grace_phase", "paused_left")})
    _save(context, rolled)
    context.store.clear_ready(context.db, game.name, target.phase)
    _tell_everyone(context, "rollback_subject", context.texts("rollback_mail", game=game.name, phase=target.phase,
                                                              deadline=context.texts.when(rolled.deadline)))
    if module.turn(target.state) is not None:  # a turn game: the seat in turn is told again
        from adjudicator.service.turn_commands import after_rollback

        after_rollback(context.store, context.db, context.config, game.name, target, later, context.now)
    context.lines.append(_done(context, f"{target.phase}"))
    return f"rolled back to {target.phase}"


def _done(context: GmContext, what: str) -> str:
    """The "done" answer, the change worded in the game's language."""
    return context.texts("gm_done", what=detail_text(what, context.texts, lambda p: _name(context, p)))


def _name(context: GmContext, power: str) -> str:
    """A power's name in the game's language (the key without a game)."""
    if context.game is None:
        return power
    return game_module(context.game.variant).power_name(power, context.game.language)


def _setup_reason(context: GmContext, error: GameSetupError) -> str:
    """A game's refusal in the game's language (its catalogue note), or its
    message as written when the game gives no note."""
    if error.note is None:
        return str(error)
    return note_text(error.note, context.texts, lambda power: _name(context, power))


def _editor(context: GmContext) -> PositionEdits:
    editor = _module(context).position_edits()
    if editor is None:
        raise GmRefused(context.texts("gm_no_edits"))
    return editor


def _edit(context: GmContext, change: Callable[[PositionEdits, dict[str, Any]], dict[str, Any]], what: str) -> str:
    assert context.game is not None
    editor = _editor(context)
    try:
        state = change(editor, context.game.state)
    except GameSetupError as error:
        raise GmRefused(_setup_reason(context, error)) from None
    _save(context, replace(context.game, state=state))
    context.lines.append(_done(context, what))
    return what


def _unit_add(context: GmContext, tree: Tree[Any]) -> str:
    (kind,) = _words(tree, "UTYPE")
    location, *power = _words(tree, "WORD")
    owner = _power(context, power)
    return _edit(context, lambda e, s: e.add_unit(s, owner, kind, location), f"{owner}: {kind.upper()} {location} added")


def _unit_remove(context: GmContext, tree: Tree[Any]) -> str:
    (location,) = _words(tree, "WORD")
    return _edit(context, lambda e, s: e.remove_unit(s, location), f"unit in {location} removed")


def _unit_move(context: GmContext, tree: Tree[Any]) -> str:
    origin, destination = _words(tree, "WORD")
    return _edit(context, lambda e, s: e.move_unit(s, origin, destination), f"unit {origin} moved to {destination}")


def _centre(context: GmContext, tree: Tree[Any]) -> str:
    province, *owner = _words(tree, "WORD")
    nobody = len(owner) == 1 and owner[0].lower() in ("none", "keiner", "niemand", "neutral")
    power = None if nobody else _power(context, owner)
    assert context.game is not None
    shown_province = _editor(context).place_name(context.game.state, province)
    return _edit(context, lambda e, s: e.set_centre(s, province, power),
                 f"{shown_province} owned by {power or 'nobody'}")


def _confession(context: GmContext, tree: Tree[Any]) -> str:
    power = _power(context, _words(tree, "WORD"))
    (state,) = _words(tree, "CSTATE")
    years = _words(tree, "INT")
    until = int(years[0]) if years else None
    return _edit(context, lambda e, s: e.set_confession(s, power, state, until),
                 f"{power}: {state}" + (f" until {until}" if until else ""))


def _incapacitate(context: GmContext, tree: Tree[Any]) -> str:
    (location,) = _words(tree, "WORD")
    return _edit(context, lambda e, s: e.incapacitate(s, location), f"unit in {location} incapacitated")


def _orders(context: GmContext, tree: Tree[Any]) -> str:
    power = _power(context, _words(tree, "WORD"))
    context.expect_orders = power
    context.lines.append(context.texts("gm_orders_follow", power=_name(context, power)))
    return ""


def enter_orders(context: GmContext, power: str, lines: tuple[tuple[int, str], ...]) -> None:
    """The order lines after ``GM ORDERS <power>``: checked and stored as
    that power's order set for the current phase, and audited."""
    game = context.store.game(context.game.name) if context.game else None
    if game is None or game.status not in _RUNNING:
        context.lines.append(context.texts("gm_refused", reason=context.texts("gm_wrong_state",
                                                                              status=context.texts("finished"))))
        return
    module = game_module(game.variant)
    check = module.check_orders(game.state, power, lines)
    for accepted in check.accepted:
        context.lines.append(context.texts("order_ok", line=accepted.line, order=accepted.canonical))
    for problem in check.problems:
        message = (note_text(problem.note, context.texts, lambda p: _name(context, p)) if problem.note
                   else problem.message)
        context.lines.append(context.texts("order_error", line=problem.line, column=problem.column,
                                           text=problem.text[:80], message=message[:150]))
    existing = context.store.submissions(game.name, game.phase).get(power)
    entry = existing or Submission(game.name, game.phase, power, (), False, False, False, None, context.now.isoformat())
    context.store.save_submission(context.db, replace(entry, orders=tuple(a.canonical for a in check.accepted),
                                                      has_orders=True, updated_at=context.now.isoformat()))
    context.store.add_audit(context.db, game.name, context.now.isoformat(), context.role, f"ORDERS {power}",
                            f"{len(check.accepted)} orders entered for {power}")


def _replace(context: GmContext, tree: Tree[Any]) -> str:
    assert context.game is not None
    power = _power(context, _words(tree, "WORD"))
    (address,) = _words(tree, "ADDRESS")
    _check_address(context, address)
    seat = _seat(context, power)
    password = _new_password(context)
    if seat.address and seat.address.lower() != address.lower():
        game = context.game
        queue_notice(context.store, context.db, context.config, game, seat.address,
                     context.texts("replaced_subject", game=game.name),
              context.texts("replaced_mail", game=game.name, power=_name(context, power)), context.now)
    context.store.update_player(context.db, replace(seat, address=address, password_hash=hash_password(password),
                                                    status="playing", missed=0,
                                                    joined_at=context.now.isoformat()))
    _send_password(context, address, power, password)
    context.lines.append(context.texts("gm_replaced", power=_name(context, power)))
    return f"{power}: new player"


def _eject(context: GmContext, tree: Tree[Any]) -> str:
    assert context.game is not None
    power = _power(context, _words(tree, "WORD"))
    seat = _seat(context, power)
    if seat.address:
        queue_notice(context.store, context.db, context.config, context.game, seat.address,
                     context.texts("ejected_subject", game=context.game.name),
              context.texts("ejected_mail", game=context.game.name, power=_name(context, power)), context.now)
    context.store.update_player(context.db, replace(seat, status="disorder", address=None, password_hash=None))
    context.lines.append(context.texts("gm_ejected", power=_name(context, power)))
    return f"{power} ejected, civil disorder"


def _end(context: GmContext, outcome: str) -> str:
    assert context.game is not None
    context.game = end_by_agreement(context.store, context.db, context.config, context.game, outcome, context.now)
    context.lines.append(_done(context, outcome))
    return outcome


def _end_draw(context: GmContext, tree: Tree[Any]) -> str:
    assert context.game is not None
    module = _module(context)
    standings = module.standings(context.game.state)
    alive = [module.power_name(p, context.game.language) for p, n in standings.items() if n > 0]
    return _end(context, context.texts("outcome_gm_draw", powers=", ".join(alive)))


def _end_concede(context: GmContext, tree: Tree[Any]) -> str:
    assert context.game is not None
    power = _power(context, _words(tree, "WORD"))
    return _end(context, context.texts("outcome_concession", power=_module(context).power_name(power, context.game.language)))


def _end_solo(context: GmContext, tree: Tree[Any]) -> str:
    assert context.game is not None
    power = _power(context, _words(tree, "WORD"))
    return _end(context, context.texts("outcome_solo", power=_module(context).power_name(power, context.game.language)))


def _help(context: GmContext, tree: Tree[Any]) -> str:
    context.lines.extend(gm_help(context.texts.language))
    return ""


_HANDLERS: dict[str, Callable[[GmContext, Tree[Any]], str]] = {
    "create": _create, "password": _password, "option": _option, "data": _data, "template": _template, "missed": _missed, "schedule": _schedule, "timezone": _timezone,
    "language": _language, "grace": _grace, "late": _late, "reminders": _reminders, "press_setting": _press_setting,
    "assign": _assign, "random": _random, "start": _start, "min_password": _min_password, "seats": _seats,
    "approval": _approval, "approve": _approve, "reject": _reject, "deadline": _deadline, "pause": _pause, "resume": _resume,
    "process": _process, "preview": _preview, "rollback": _rollback, "unit_add": _unit_add,
    "unit_remove": _unit_remove, "unit_move": _unit_move, "centre": _centre, "confession": _confession,
    "incapacitate": _incapacitate, "orders": _orders, "replace": _replace, "eject": _eject, "end_draw": _end_draw,
    "end_concede": _end_concede, "end_solo": _end_solo, "help": _help,
}
