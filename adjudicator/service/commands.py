"""The player command language of order mails.

A mail is read line by line.  A line whose first word is a command keyword
(``SIGNON``, ``ANMELDEN``, ``READY``, ...; English or German, any case) is
a command and is read with the grammar ``grammars/commands.lark``; every
other non-blank line is an order of the game the player signed on to and is
only collected here, with its line number, for the game's own grammar.

``parse_mail`` turns a mail text (already stripped of quotes and signature
by ``adjudicator.mail.body``) into ``Item`` values in mail order: a command,
a run of order lines (``OrderLines``), or a malformed command
(``CommandError``, with line, column, message and a hint showing the
syntax).  It never raises.  ``SIGNOFF`` ends the mail: nothing after it is
read, as in njudge, and the ``SignOff`` item says how many lines that was.

``COMMANDS`` describes every command once (keywords, syntax, description in
English and German); the grammar, the error hints and ``help_text`` all
agree with it, so HELP is generated, never written by hand.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from typing import Literal, TypeAlias

from lark import Lark, Token, Tree, UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from adjudicator.games.base import Note
from adjudicator.parsers import lalr_parser

Language: TypeAlias = Literal["en", "de"]
"""The languages of the command language: English and German."""

LANGUAGES: tuple[Language, ...] = ("en", "de")
"""Every language ``help_text`` and ``CommandSpec.syntax`` accept."""


# --- The commands ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SignOn:
    """``SIGNON <power> <game> <password>``: sign on to ``game`` as ``power``.

    ``power`` is the words before the last two, joined by single spaces
    (``Vereinigte Niederlande``, ``Braunschweig-Lüneburg``); ``game`` and
    ``password`` are single words of printable characters, as written.
    """

    power: str
    game: str
    password: str


@dataclass(frozen=True, slots=True)
class SignOff:
    """``SIGNOFF``: the end of the mail; nothing after it is read.

    ``ignored_lines`` is how many non-blank lines followed it (and were
    not read); 0 when built by hand.
    """

    ignored_lines: int = 0


@dataclass(frozen=True, slots=True)
class Ready:
    """``READY``: the player's orders for this phase are final."""


@dataclass(frozen=True, slots=True)
class Wait:
    """``WAIT``: do not process the phase early for this player."""


@dataclass(frozen=True, slots=True)
class ListGames:
    """``LIST [game]``: list all games (``game`` is ``None``) or one game."""

    game: str | None


@dataclass(frozen=True, slots=True)
class History:
    """``HISTORY <game> [phase]``: the results of ``game``, of one phase or
    (``phase`` is ``None``) of all phases; ``phase`` is one word, as written."""

    game: str
    phase: str | None


@dataclass(frozen=True, slots=True)
class ChangePassword:
    """``PASSWORD <new>``: set the password of the signed-on power to ``new``
    (one word of printable characters)."""

    new: str


@dataclass(frozen=True, slots=True)
class Resign:
    """``RESIGN``: the signed-on power leaves the game."""


@dataclass(frozen=True, slots=True)
class Draw:
    """``DRAW``: vote for a draw."""


@dataclass(frozen=True, slots=True)
class NoDraw:
    """``NODRAW`` / ``NO DRAW``: withdraw the vote for a draw."""


@dataclass(frozen=True, slots=True)
class Concede:
    """``CONCEDE <power>``: vote to concede the game to ``power`` (its words
    joined by single spaces)."""

    power: str


@dataclass(frozen=True, slots=True)
class NoConcede:
    """``NOCONCEDE`` / ``NO CONCEDE``: withdraw the vote to concede."""


@dataclass(frozen=True, slots=True)
class Help:
    """``HELP``: send the player the command help (see ``help_text``)."""


@dataclass(frozen=True, slots=True)
class GameMaster:
    """``GAMEMASTER <game> <password>``: sign on as the game master of ``game``."""

    game: str
    password: str


@dataclass(frozen=True, slots=True)
class Admin:
    """``ADMIN <password>``: sign on as the judge's administrator."""

    password: str


@dataclass(frozen=True, slots=True)
class GmCommand:
    """``GM <command...>``: a game master's command, the words after the
    keyword as written (read by ``adjudicator.service.gm``)."""

    text: str


@dataclass(frozen=True, slots=True)
class Press:
    """``PRESS [ANON] [TO] <powers, ...>``: a press message to powers (or
    ``ALL``); its text is the lines that follow, up to the next command."""

    recipients: str


@dataclass(frozen=True, slots=True)
class Summary:
    """``SUMMARY [game]``: a summary of a game (the one signed on to when
    ``game`` is None): phase, deadline, centres and units per power."""

    game: str | None


@dataclass(frozen=True, slots=True)
class ShowOrders:
    """``ORDERS``: the orders stored for the signed-on power this phase,
    answered to that player only."""


@dataclass(frozen=True, slots=True)
class WhoGame:
    """``WHOGAME [game]`` / ``WHOIS [game]``: the public seat list of a
    game (who plays which power is public; addresses only where the game
    allows it)."""

    game: str | None


@dataclass(frozen=True, slots=True)
class SetOption:
    """``SET <words>``: njudge's settings; ``SET WAIT`` and ``SET NOWAIT``
    mean WAIT and READY, others are answered with what is known."""

    words: str


@dataclass(frozen=True, slots=True)
class Clear:
    """``CLEAR``: drop the orders stored for this phase (the rules' default
    applies again)."""


@dataclass(frozen=True, slots=True)
class PhaseInfo:
    """``PHASE [game]``: the current phase and its deadline."""

    game: str | None


@dataclass(frozen=True, slots=True)
class EndPress:
    """``ENDPRESS`` (``ENDE PRESSE``; ``ENDE`` right after a press text):
    the press text above ends here; the lines after it are read as
    commands and orders again."""


@dataclass(frozen=True, slots=True)
class Broadcast:
    """``BROADCAST [ANON]``: a press message to every power."""

    flag: str | None


@dataclass(frozen=True, slots=True)
class Absent:
    """``ABSENT <first day> <last day>``: announce an absence (YYYY-MM-DD)."""

    first_day: str
    last_day: str


@dataclass(frozen=True, slots=True)
class PassRound:
    """``PASS ROUND``: in a turn-based game, pass every turn for the rest
    of the round (a standing order, kept secret)."""


@dataclass(frozen=True, slots=True)
class Cancel:
    """``CANCEL``: drop the queued orders and a standing PASS."""


@dataclass(frozen=True, slots=True)
class Undo:
    """``UNDO``: take back the last action while nothing follows it."""


@dataclass(frozen=True, slots=True)
class Status:
    """``STATUS``: the current position of the game signed on to."""


Command: TypeAlias = (
    SignOn | SignOff | Ready | Wait | ListGames | History | ChangePassword | Resign | Draw | NoDraw | Concede
    | NoConcede | Help | GameMaster | Admin | GmCommand | Press | Broadcast | Absent | EndPress | Summary
    | ShowOrders | WhoGame | SetOption | Clear | PhaseInfo
    | PassRound | Cancel | Undo | Status
)
"""Any command a player can give in a mail."""


@dataclass(frozen=True, slots=True)
class OrderLines:
    """A run of consecutive non-command lines: the game orders.

    Each entry is ``(line number, text)``: the 1-based line of the mail and
    the line with surrounding whitespace stripped, never empty.  Blank
    lines do not end a run and are not included; a command does.
    """

    lines: tuple[tuple[int, str], ...]


@dataclass(frozen=True, slots=True)
class Courtesy:
    """Greeting lines before the first command or order (``Hallo Schiri,``)
    or closing lines after the last one (``Viele Grüße`` / ``Paul``): not
    read as orders, shown in the answer as ignored.  ``closing`` tells
    which of the two; ``lines`` are ``(line number, text)``."""

    lines: tuple[tuple[int, str], ...]
    closing: bool


@dataclass(frozen=True, slots=True)
class CommandError:
    """A line starting with a command keyword that is otherwise malformed.

    ``line`` and ``column`` are 1-based and point into the original mail
    line (at the offending character or word, or just past the end of the
    line when something is missing).  ``message`` says what is wrong and
    ``hint`` is the correct syntax (``SIGNON <power> <game> <password>``),
    both in the language of the keyword the player used.
    """

    line: int
    column: int
    message: str
    hint: str

    def __str__(self) -> str:
        return f"line {self.line}, column {self.column}: {self.message} ({self.hint})"


@dataclass(frozen=True, slots=True)
class SignOnInitial:
    """``SIGNON <initial><game> <password>`` as njudge players write it
    (``SIGNON Estd1 geheim``: England in std1).  Only the judge can tell it
    from a ``SIGNON <power> <game>`` missing its password, so ``error`` is
    the answer when no game and power fit."""

    code: str
    password: str
    error: CommandError


@dataclass(frozen=True, slots=True)
class Item:
    """One thing a mail says, at the 1-based ``line`` where it starts (for
    ``OrderLines``, the line of its first order)."""

    line: int
    value: Command | OrderLines | CommandError | Courtesy | SignOnInitial


# --- The registry ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Parameter:
    """One argument of a command, named in both languages.

    ``optional`` arguments may be left out (they are written ``[name]`` in
    the syntax, the others ``<name>``); a ``several_words`` argument (a
    power name) takes all words not needed by the arguments after it.
    """

    english: str
    german: str
    optional: bool = False
    several_words: bool = False

    def name(self, language: Language) -> str:
        """The argument's name in ``language``."""
        return self.english if language == "en" else self.german

    def shown(self, language: Language) -> str:
        """The argument as the syntax writes it: ``<name>`` or ``[name]``."""
        name = self.name(language)
        return f"[{name}]" if self.optional else f"<{name}>"


@dataclass(frozen=True, slots=True)
class CommandSpec:
    """One command of the language, described once for both languages.

    ``rule`` is its rule in ``grammars/commands.lark`` and ``rule.upper()``
    the terminal of its keywords; ``english`` and ``german`` are its
    keywords as the help writes them (upper case, the first one preferred);
    ``kind`` is the class ``build`` returns; ``build`` makes the command from
    its argument values in parameter order (optional ones left out when
    not given).
    """

    rule: str
    kind: type[Command]
    english: tuple[str, ...]
    german: tuple[str, ...]
    parameters: tuple[Parameter, ...]
    description_en: str
    description_de: str
    build: Callable[[tuple[str, ...]], Command]

    @property
    def terminal(self) -> str:
        """The grammar terminal of this command's keywords."""
        return self.rule.upper()

    def keywords(self, language: Language) -> tuple[str, ...]:
        """The keywords in ``language``, preferred first."""
        return self.english if language == "en" else self.german

    def description(self, language: Language) -> str:
        """The one-line description in ``language``."""
        return self.description_en if language == "en" else self.description_de

    def usage(self, keyword: str) -> str:
        """The syntax written with ``keyword`` and argument names in that
        keyword's language (``ANMELDEN <macht> <spiel> <passwort>``)."""
        language: Language = "de" if keyword in self.german else "en"
        return " ".join([keyword, *(p.shown(language) for p in self.parameters)])

    def syntax(self, language: Language) -> str:
        """The syntax in ``language`` with its preferred keyword
        (``SIGNON <power> <game> <password>``)."""
        return self.usage(self.keywords(language)[0])

    @property
    def required(self) -> int:
        """How many words the command needs at least."""
        return sum(1 for p in self.parameters if not p.optional)

    @property
    def maximum(self) -> int | None:
        """How many words it takes at most (``None``: no limit)."""
        if any(p.several_words for p in self.parameters):
            return None
        return len(self.parameters)


_POWER = Parameter("power", "macht", several_words=True)
_GAME = Parameter("game", "spiel")

COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec(
        "signon", SignOn, ("SIGNON",), ("ANMELDEN",),
        (_POWER, _GAME, Parameter("password", "passwort")),
        "Sign on to a game as a power (the power may be several words).",
        "Als Macht an einem Spiel anmelden (die Macht darf mehrere Wörter haben).",
        lambda a: SignOn(a[0], a[1], a[2]),
    ),
    CommandSpec(
        "signoff", SignOff, ("SIGNOFF",), ("ABMELDEN", "ENDE"), (),
        "End of the mail: nothing after this line is read.",
        "Ende der Mail: nichts nach dieser Zeile wird gelesen.",
        lambda a: SignOff(),
    ),
    CommandSpec(
        "ready", Ready, ("READY",), ("BEREIT",), (),
        "Your orders for this phase are final.",
        "Deine Befehle für diese Phase sind endgültig.",
        lambda a: Ready(),
    ),
    CommandSpec(
        "wait", Wait, ("WAIT",), ("WARTEN",), (),
        "Do not process the phase early; wait for the deadline.",
        "Die Phase nicht vorzeitig auswerten; bis zum Termin warten.",
        lambda a: Wait(),
    ),
    CommandSpec(
        "list", ListGames, ("LIST",), ("LISTE",), (Parameter("game", "spiel", optional=True),),
        "List all games, or the details of one game.",
        "Alle Spiele auflisten, oder die Einzelheiten eines Spiels.",
        lambda a: ListGames(a[0] if a else None),
    ),
    CommandSpec(
        "history", History, ("HISTORY",), ("VERLAUF",), (_GAME, Parameter("phase", "phase", optional=True)),
        "Send the results of a game, of all phases or of one phase.",
        "Die Ergebnisse eines Spiels schicken, aller Phasen oder einer Phase.",
        lambda a: History(a[0], a[1] if len(a) > 1 else None),
    ),
    CommandSpec(
        "password", ChangePassword, ("PASSWORD",), ("PASSWORT",), (Parameter("new", "neu"),),
        "Change your password (one word).",
        "Dein Passwort ändern (ein Wort).",
        lambda a: ChangePassword(a[0]),
    ),
    CommandSpec(
        "resign", Resign, ("RESIGN",), ("AUFGEBEN",), (),
        "Leave the game you signed on to.",
        "Das Spiel verlassen, bei dem du angemeldet bist.",
        lambda a: Resign(),
    ),
    CommandSpec(
        "draw", Draw, ("DRAW",), ("REMIS",), (),
        "Vote for a draw.",
        "Für ein Remis stimmen.",
        lambda a: Draw(),
    ),
    CommandSpec(
        "nodraw", NoDraw, ("NODRAW", "NO DRAW"), ("KEIN REMIS",), (),
        "Withdraw your vote for a draw.",
        "Die Stimme für ein Remis zurücknehmen.",
        lambda a: NoDraw(),
    ),
    CommandSpec(
        "concede", Concede, ("CONCEDE",), ("KAPITULIEREN",), (_POWER,),
        "Vote to concede the game to a power.",
        "Dafür stimmen, vor einer Macht zu kapitulieren.",
        lambda a: Concede(a[0]),
    ),
    CommandSpec(
        "noconcede", NoConcede, ("NOCONCEDE", "NO CONCEDE"), ("KEINE KAPITULATION",), (),
        "Withdraw your vote to concede.",
        "Die Stimme für die Kapitulation zurücknehmen.",
        lambda a: NoConcede(),
    ),
    CommandSpec(
        "help", Help, ("HELP",), ("HILFE",), (),
        "Send this help.",
        "Diese Hilfe schicken.",
        lambda a: Help(),
    ),
    CommandSpec(
        "press", Press, ("PRESS",), ("PRESSE",), (Parameter("powers", "mächte", several_words=True),),
        "Send a press message to powers (comma-separated, or ALL; ANON first for grey press); the text follows.",
        "Eine Pressemeldung an Mächte schicken (mit Komma getrennt, oder ALLE; ANONYM vorweg bei grauer Presse); "
        "der Text folgt.",
        lambda a: Press(a[0]),
    ),
    CommandSpec(
        "summary", Summary, ("SUMMARY",), ("ÜBERSICHT", "UEBERSICHT", "ZUSAMMENFASSUNG"),
        (Parameter("game", "spiel", optional=True),),
        "A summary of a game: phase, deadline, supply centres and units per power.",
        "Eine Übersicht eines Spiels: Phase, Frist, Versorgungszentren und Einheiten je Macht.",
        lambda a: Summary(a[0] if a else None),
    ),
    CommandSpec(
        "orders", ShowOrders, ("ORDERS",), ("BEFEHLE", "ZÜGE", "ZUEGE"), (),
        "The orders stored for you in this phase (sent only to you).",
        "Die für dich in dieser Phase gespeicherten Befehle (nur an dich).",
        lambda a: ShowOrders(),
    ),
    CommandSpec(
        "whogame", WhoGame, ("WHOGAME", "WHOIS"), ("WERSPIELT", "SPIELER"), (Parameter("game", "spiel", optional=True),),
        "Who plays which power in a game (no addresses).",
        "Wer in einem Spiel welche Macht spielt (ohne Adressen).",
        lambda a: WhoGame(a[0] if a else None),
    ),
    CommandSpec(
        "set", SetOption, ("SET",), ("SETZE",), (Parameter("setting", "einstellung", several_words=True),),
        "njudge settings: SET WAIT is WAIT, SET NOWAIT is READY; turn-based games: SET DIGEST ROUND|NONE|<N>h "
        "(the others' actions once per round, after every action, or at most every N hours).",
        "Einstellungen wie bei njudge: SETZE WARTEN ist WARTEN, SETZE NICHTWARTEN ist BEREIT; Spiele mit Zügen: "
        "SETZE ZUSAMMENFASSUNG RUNDE|KEINE|<N>h (die Züge der anderen je Runde, nach jedem Zug oder höchstens alle "
        "N Stunden).",
        lambda a: SetOption(a[0]),
    ),
    CommandSpec(
        "clear", Clear, ("CLEAR",), ("LÖSCHEN", "LOESCHEN"), (),
        "Drop the orders stored for you in this phase.",
        "Die für dich in dieser Phase gespeicherten Befehle löschen.",
        lambda a: Clear(),
    ),
    CommandSpec(
        "phase", PhaseInfo, ("PHASE",), ("SPIELPHASE",), (Parameter("game", "spiel", optional=True),),
        "The current phase of a game and its deadline.",
        "Die laufende Phase eines Spiels und ihre Frist.",
        lambda a: PhaseInfo(a[0] if a else None),
    ),
    CommandSpec(
        "endpress", EndPress, ("ENDPRESS", "END PRESS"), ("ENDE PRESSE", "PRESSEENDE"), (),
        "End of a press text: the lines after it are commands and orders again (ENDE right after a press "
        "text does the same).",
        "Ende eines Pressetexts: die Zeilen danach sind wieder Befehle und Züge (ENDE direkt nach einem "
        "Pressetext ebenso).",
        lambda a: EndPress(),
    ),
    CommandSpec(
        "broadcast", Broadcast, ("BROADCAST",), ("RUNDSCHREIBEN",), (Parameter("anon", "anonym", optional=True),),
        "Send a press message to every power; the text follows.",
        "Eine Pressemeldung an alle Mächte schicken; der Text folgt.",
        lambda a: Broadcast(a[0] if a else None),
    ),
    CommandSpec(
        "absent", Absent, ("ABSENT",), ("ABWESEND",),
        (Parameter("first-day", "erster-tag"), Parameter("last-day", "letzter-tag")),
        "Tell your game master you will be away (days as YYYY-MM-DD).",
        "Dem Spielleiter eine Abwesenheit melden (Tage als JJJJ-MM-TT).",
        lambda a: Absent(a[0], a[1]),
    ),
    CommandSpec(
        "pass_round", PassRound, ("PASS ROUND",), ("RUNDE PASSEN",), (),
        "Turn-based games: pass every turn for the rest of this round (kept secret).",
        "Spiele mit Zügen: für den Rest dieser Runde bei jedem Zug passen (bleibt geheim).",
        lambda a: PassRound(),
    ),
    CommandSpec(
        "cancel", Cancel, ("CANCEL",), ("STORNO",), (),
        "Turn-based games: drop your queued orders and a standing PASS ROUND.",
        "Spiele mit Zügen: die vorgemerkten Züge und ein RUNDE PASSEN verwerfen.",
        lambda a: Cancel(),
    ),
    CommandSpec(
        "undo", Undo, ("UNDO",), ("ZURÜCKNEHMEN", "ZURUECKNEHMEN"), (),
        "Turn-based games: take back your last action (only while nobody acted after it and it revealed nothing).",
        "Spiele mit Zügen: den letzten eigenen Zug zurücknehmen (nur solange niemand danach gezogen hat und er "
        "nichts aufgedeckt hat).",
        lambda a: Undo(),
    ),
    CommandSpec(
        "status", Status, ("STATUS",), ("LAGE",), (),
        "The position of the game you signed on to, now.",
        "Der Stand des Spiels, bei dem du angemeldet bist, jetzt.",
        lambda a: Status(),
    ),
    CommandSpec(
        "gamemaster", GameMaster, ("GAMEMASTER",), ("SPIELLEITER",),
        (_GAME, Parameter("password", "passwort")),
        "Sign on as the game master of a game (see the GM guide).",
        "Als Spielleiter eines Spiels anmelden (siehe die Spielleiter-Anleitung).",
        lambda a: GameMaster(a[0], a[1]),
    ),
    CommandSpec(
        "gm", GmCommand, ("GM",), ("SL",), (Parameter("command", "befehl", several_words=True),),
        "A game master's command, after GAMEMASTER or ADMIN (GM HELP lists them).",
        "Ein Befehl des Spielleiters, nach SPIELLEITER oder ADMIN (SL HILFE listet sie).",
        lambda a: GmCommand(a[0]),
    ),
    CommandSpec(
        "admin", Admin, ("ADMIN",), ("VERWALTER",), (Parameter("password", "passwort"),),
        "Sign on as the judge's administrator (to create games).",
        "Als Verwalter des Schiedsrichters anmelden (um Spiele anzulegen).",
        lambda a: Admin(a[0]),
    ),
)
"""Every command, in the order the help lists them; one entry per command
class, and every keyword of the grammar is in exactly one entry."""

_BY_TERMINAL = {spec.terminal: spec for spec in COMMANDS}

SECRET_RULES = frozenset({"signon", "gamemaster", "admin", "password"})
"""Commands whose words may hold a password: their error messages never
quote a word of the line."""


# --- Help -----------------------------------------------------------------

_HELP_FRAME: dict[Language, tuple[str, str, str, str]] = {
    "en": (
        "Commands (one per line, in upper or lower case, in English or German):",
        "also",
        "in German",
        "Any other line is read as an order of the game you signed on to.",
    ),
    "de": (
        "Befehle (einer pro Zeile, groß oder klein geschrieben, deutsch oder englisch):",
        "auch",
        "englisch",
        "Jede andere Zeile wird als Zug des Spiels gelesen, bei dem du angemeldet bist.",
    ),
}


def help_text(language: str) -> str:
    """The command help in ``language`` (``"en"`` or ``"de"``), generated
    from ``COMMANDS``: for every command its syntax and description in that
    language and its other keywords in both languages, then the rule that
    any other line is an order.  Raises ``ValueError`` for another
    language."""
    if language not in LANGUAGES:
        raise ValueError(f"unknown help language {language!r} (en or de)")
    lang: Language = "en" if language == "en" else "de"
    other: Language = "de" if lang == "en" else "en"
    title, also, other_name, orders = _HELP_FRAME[lang]
    lines = [title, ""]
    for spec in COMMANDS:
        lines.append(spec.syntax(lang))
        lines.append(f"    {spec.description(lang)}")
        aliases = [f"{also}: {', '.join(spec.keywords(lang)[1:])}"] if len(spec.keywords(lang)) > 1 else []
        aliases.append(f"{other_name}: {', '.join(spec.keywords(other))}")
        lines.append(f"    ({'; '.join(aliases)})")
    lines += ["", orders]
    return "\n".join(lines) + "\n"


def keywords() -> tuple[str, ...]:
    """Every keyword of every command, in both languages."""
    return tuple(k for spec in COMMANDS for k in (*spec.english, *spec.german))


def with_suggestion(note: Note) -> Note:
    """A game's "unknown command or order" note (key ``why_unknown_line``,
    field ``word``) with the nearest command keyword as ``suggest``; any
    other note unchanged."""
    if note.key != "why_unknown_line":
        return note
    fields = dict(note.fields)
    close = difflib.get_close_matches(fields.get("word", "").upper(), keywords(), n=1, cutoff=0.8)
    if close:
        fields["suggest"] = close[0]
    return Note(note.key, tuple(sorted(fields.items())))


# --- Reading a command line -----------------------------------------------


@cache
def _parser() -> Lark:
    return lalr_parser("commands", start="command", maybe_placeholders=False)


@cache
def _keyword_at() -> re.Pattern[str]:
    """One pattern of every keyword terminal of the grammar, as its lexer
    matches them (issue 20): a line where none matches at its first
    non-space character fails on its first token, so it is no command,
    and Lark need not be asked (most lines of an order mail are orders)."""
    keywords = [t.pattern.to_regexp() for t in _parser().terminals if t.name in _BY_TERMINAL]
    return re.compile("|".join(f"(?:{pattern})" for pattern in keywords))


_MESSAGES: dict[Language, dict[str, str]] = {
    "en": {
        "missing": "{keyword} is missing {names}",
        "missing_many": "{keyword} is missing {names}",
        "and": " and ",
        "extra": "unexpected {word!r}: {keyword} takes {allowed}",
        "none": "nothing after it",
        "one": "one word after it",
        "at_most_one": "at most one word after it",
        "at_most": "at most {count} words after it",
        "unprintable": "unprintable character U+{code:04X} in {word!r}",
        "character": "unexpected character {char!r}",
    },
    "de": {
        "missing": "bei {keyword} fehlt {names}",
        "missing_many": "bei {keyword} fehlen {names}",
        "and": " und ",
        "extra": "unerwartet {word!r}: nach {keyword} steht {allowed}",
        "none": "nichts mehr",
        "one": "genau ein Wort",
        "at_most_one": "höchstens ein Wort",
        "at_most": "höchstens {count} Wörter",
        "unprintable": "nicht druckbares Zeichen U+{code:04X} in {word!r}",
        "character": "unerwartetes Zeichen {char!r}",
    },
}


def _short(word: str, limit: int = 40) -> str:
    """A word as an error message quotes it: at most ``limit`` characters."""
    return word if len(word) <= limit else word[: limit - 3] + "..."


@dataclass(frozen=True, slots=True)
class _Reader:
    """A command line being read: its number, text and keyword."""

    number: int
    text: str
    spec: CommandSpec
    keyword: str
    language: Language

    def error(self, column: int, key: str, **values: object) -> CommandError:
        words = _MESSAGES[self.language]
        message = words[key].format(keyword=self.keyword, **values)
        return CommandError(self.number, column, message, self.spec.usage(self.keyword))

    def end_column(self) -> int:
        return len(self.text.rstrip()) + 1

    def check(self, words: list[tuple[str, int]]) -> Command | CommandError | SignOnInitial:
        """The command from its argument words (text, 0-based position), or
        what is wrong with them."""
        spec, messages = self.spec, _MESSAGES[self.language]
        secret = spec.rule in SECRET_RULES
        for word, position in words:
            for offset, char in enumerate(word):
                if not char.isprintable():
                    return self.error(position + offset + 1, "unprintable", code=ord(char),
                                      word="****" if secret else _short(word))
        if spec.kind is SignOn and len(words) == 2 and len(words[0][0]) > 1 and words[0][0][0].isalpha():
            error = self.error(self.end_column(), "missing", names=spec.parameters[2].shown(self.language))
            return SignOnInitial(words[0][0], words[1][0], error)
        if len(words) < spec.required:
            needed = [p for p in spec.parameters if not p.optional][len(words):]
            names = [p.shown(self.language) for p in needed]
            joined = names[0] if len(names) == 1 else ", ".join(names[:-1]) + messages["and"] + names[-1]
            key = "missing" if len(names) == 1 else "missing_many"
            return self.error(self.end_column(), key, names=joined)
        maximum = spec.maximum
        if maximum is not None and len(words) > maximum:
            word, position = words[maximum]
            if maximum == 0:
                allowed = messages["none"]
            elif maximum == 1:
                allowed = messages["one" if spec.required == 1 else "at_most_one"]
            else:
                allowed = messages["at_most"].format(count=maximum)
            return self.error(position + 1, "extra", word="****" if secret else _short(word), allowed=allowed)
        texts = [word for word, _ in words]
        values: list[str] = []
        for index, parameter in enumerate(spec.parameters):
            if not texts:
                break
            if parameter.several_words:
                take = len(texts) - (len(spec.parameters) - index - 1)
                values.append(" ".join(texts[:take]))
                texts = texts[take:]
            else:
                values.append(texts.pop(0))
        return spec.build(tuple(values))


def _reader(number: int, text: str, keyword: Token) -> _Reader | None:
    spec = _BY_TERMINAL.get(keyword.type)
    if spec is None:  # pragma: no cover - the grammar's first token is a keyword
        return None
    written = " ".join(str(keyword).split()).upper()
    for language in LANGUAGES:
        if written in spec.keywords(language):
            return _Reader(number, text, spec, written, language)
    return _Reader(number, text, spec, spec.english[0], "en")  # pragma: no cover - grammar and registry agree


def _first_token(text: str) -> Token | None:
    """The first token of ``text`` as the grammar's lexer sees it."""
    try:
        return next(iter(_parser().lex(text)), None)
    except UnexpectedInput:  # pragma: no cover - every non-space run is a WORD
        return None


_WORDS = re.compile(r"\S+")


def _failed_on_first_token(error: UnexpectedInput, start: int) -> bool:
    if isinstance(error, UnexpectedToken):
        # The end token borrows the position of the last token read, so
        # running out of input is never a failure on the first token.
        return error.token.type != "$END" and (error.token.start_pos or 0) <= start
    if isinstance(error, UnexpectedCharacters):
        return (error.pos_in_stream or 0) <= start
    return False  # pragma: no cover - LALR raises only the two above


def parse_command(text: str, number: int = 1) -> Command | CommandError | SignOnInitial | None:
    """Read one mail line (``text``, without its line break) as a command.

    Returns ``None`` when the line is not a command (blank, or the command
    grammar fails on its first token: the first word is no keyword), the
    command when it is well-formed, and a ``CommandError`` (with 1-based
    ``column`` into ``text`` and ``number`` as its line) when it starts
    with a keyword but is malformed.  Never raises.
    """
    start = len(text) - len(text.lstrip())
    if start == len(text) or _keyword_at().match(text, start) is None:
        return None
    try:
        tree = _parser().parse(text)
    except UnexpectedInput as error:
        if _failed_on_first_token(error, start):
            return None
        keyword = _first_token(text)
        reader = _reader(number, text, keyword) if keyword is not None else None
        if reader is None or keyword is None or keyword.end_pos is None:  # pragma: no cover
            return CommandError(number, start + 1, "unreadable command", "HELP")
        words = [(m.group(), m.start()) for m in _WORDS.finditer(text, keyword.end_pos)]
        result = reader.check(words)
        if isinstance(result, (CommandError, SignOnInitial)):
            return result
        # The registry accepted what the grammar did not: report the grammar.
        return _grammar_error(reader, error)  # pragma: no cover
    assert isinstance(tree, Tree)
    keyword, *rest = (child for child in tree.children if isinstance(child, Token))
    reader = _reader(number, text, keyword)
    if reader is None:  # pragma: no cover
        return CommandError(number, start + 1, "unreadable command", "HELP")
    return reader.check([(str(word), word.start_pos or 0) for word in rest])


def _grammar_error(reader: _Reader, error: UnexpectedInput) -> CommandError:  # pragma: no cover
    if isinstance(error, UnexpectedToken) and error.token.type != "$END":
        return reader.error(error.column, "extra", word=_short(str(error.token)), allowed=_MESSAGES[reader.language]["none"])
    if isinstance(error, UnexpectedCharacters):
        return reader.error(error.column, "character", char=reader.text[error.pos_in_stream or 0])
    return reader.error(reader.end_column(), "missing", names="?")


# --- Reading a mail -------------------------------------------------------

_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def mail_lines(text: str) -> list[str]:
    """The lines of a mail text, split at ``\\r\\n``, ``\\r`` and ``\\n`` only
    (form feeds and other Unicode separators stay inside their line, so
    line numbers are those a mail reader shows); a leading byte-order mark
    is dropped."""
    return _LINE_BREAK.split(text.removeprefix("\ufeff"))


_GREETING = re.compile(
    r"^(hallo|hello|hi|hey|moin|servus|salut|gr(ü|ue|u)(ß|ss) gott|liebe[rs]?|dear|guten (morgen|tag|abend)"
    r"|good (morning|afternoon|evening))\b[^\n]{0,60}$",
    re.IGNORECASE,
)
_CLOSING = re.compile(
    r"^((viele|beste|liebe|herzliche|schöne|schoene|freundliche) )?(gr(ü|ue|u)(ß|ss)e?|gruesse)\b[^\n]{0,40}$"
    r"|^(mit freundlichen gr(ü|ue|u)(ß|ss)en|lg|vg|mfg|bg|cheers|thanks|thank you|many thanks|danke|vielen dank"
    r"|regards|best regards|kind regards|best wishes|best|bye|ciao|tschüss|tschuess|servus|bis bald)"
    r"\b[^\n]{0,40}$",
    re.IGNORECASE,
)
_NAME_LINE = re.compile(r"^[^\W\d_][\w.'\u2011-]*(?:[ ,/]+[^\W\d_][\w.'\u2011-]*){0,3}[.!]?$")
_MAX_NAME_LINES = 2


def _courtesy(lines: list[tuple[int, str, Command | CommandError | SignOnInitial | None]]) -> tuple[set[int], set[int]]:
    """The line numbers of greeting lines at the start and of closing lines
    at the end of ``lines`` (the non-blank lines read, with what
    ``parse_command`` made of them).

    A greeting is a line like ``Hallo Schiri,`` before anything else; a
    closing is a line like ``Viele Grüße`` or ``Gruß, Dieter`` followed only
    by at most two short name lines (``Paul``).  Commands are never
    courtesy."""
    leading: set[int] = set()
    for number, text, value in lines:
        if value is not None or not _GREETING.match(text):
            break
        leading.add(number)
    rest = [entry for entry in lines if entry[0] not in leading]
    for back in range(min(len(rest), _MAX_NAME_LINES + 1)):
        number, text, value = rest[len(rest) - 1 - back]
        if value is not None:
            break
        if _CLOSING.match(text):
            return leading, {n for n, _, _ in rest[len(rest) - 1 - back:]}
        if not _NAME_LINE.match(text) or len(text) > 40:
            break
    return leading, set()


def parse_mail(text: str) -> tuple[Item, ...]:
    """Read a mail: its commands, order lines and malformed commands, in
    mail order.

    Every non-blank line up to a ``SIGNOFF`` is in exactly one item:
    consecutive non-command lines form one ``OrderLines`` item (blank lines
    do not end the run and are left out); each command line gives the command or a
    ``CommandError``; greeting lines before the first command or order and
    closing lines after the last one form ``Courtesy`` items.  ``ENDE``
    right after a press text ends the press text (an ``EndPress``), not the
    mail.  A ``SIGNOFF`` is the last item and records how many non-blank
    lines after it were ignored.  Line numbers are 1-based.  Never raises,
    whatever the text.
    """
    lines = mail_lines(text)
    read: list[tuple[int, str, Command | CommandError | SignOnInitial | None]] = []
    end: Item | None = None
    in_press = False
    for number, line in enumerate(lines, start=1):
        stripped = line.strip()
        if not stripped:
            continue
        value = parse_command(line, number)
        if isinstance(value, SignOff) and in_press and stripped.upper() == "ENDE":
            value = EndPress()
        if isinstance(value, SignOff):
            end = Item(number, SignOff(sum(1 for rest in lines[number:] if rest.strip())))
            break
        if value is not None:
            in_press = isinstance(value, (Press, Broadcast))
        read.append((number, stripped, value))
    leading, trailing = _courtesy(read)
    if in_press:  # a press text running to the end keeps its own greeting
        trailing = set()
    items: list[Item] = []
    run: list[tuple[int, str]] = []
    courtesy: list[tuple[int, str]] = []

    def flush() -> None:
        if run:
            items.append(Item(run[0][0], OrderLines(tuple(run))))
            run.clear()

    for number, stripped, value in read:
        group = leading if number in leading else trailing if number in trailing else None
        if group is not None:
            courtesy.append((number, stripped))
            if number == max(group):
                flush()
                items.append(Item(courtesy[0][0], Courtesy(tuple(courtesy), group is trailing)))
                courtesy = []
        elif value is None:
            run.append((number, stripped))
        else:
            flush()
            items.append(Item(number, value))
    flush()
    if end is not None:
        items.append(end)
    return tuple(items)


def is_secret_line(text: str) -> bool:
    """True when ``text`` starts with the keyword of a command that holds a
    password (``SECRET_RULES``), written well or not."""
    token = _first_token(text.strip())
    spec = _BY_TERMINAL.get(token.type) if token is not None else None
    return spec is not None and spec.rule in SECRET_RULES
