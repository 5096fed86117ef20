"""Reading orders as players write them: the syntax layer.

``parse_order`` turns one order text into an order value, resolving place
names against a map; ``parse_orders`` splits a whole mail body (one order
per line, or several separated by ``;``) and never raises: every line gets
either an order or an ``OrderSyntaxError`` naming line, column and what was
expected or unknown.  Whether an order is legal in a position is decided
later, by the rules (``adjudicator.games.diplomacy.core.legality``).
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any, cast

from lark import Lark, Token, Transformer, UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from adjudicator.games.diplomacy.core.mapdata import GameMap, normalise_name
from adjudicator.games.diplomacy.core.model import ADJUSTMENT, ARMY, FLEET, MOVEMENT, RETREAT, PhaseKind, UnitType
from adjudicator.games.diplomacy.core.orders import (
    Build,
    ConfessionChange,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
    Transform,
    Waive,
)
from adjudicator.parsers import lalr_parser


@dataclass(frozen=True, slots=True)
class OrderSyntaxError(Exception):
    """An order text that cannot be read; ``column`` is 1-based."""

    line: int
    column: int
    message: str

    def __str__(self) -> str:
        return f"line {self.line}, column {self.column}: {self.message}"


@dataclass(frozen=True, slots=True)
class ParsedLine:
    """One order text of a mail with where it stood and what it became."""

    line: int
    column: int
    text: str
    order: Order | None
    error: OrderSyntaxError | None


_TERMINAL_WORDS = {
    "_MOVE": "'-'",
    "HOLD": "'H'",
    "_SUPPORT": "'S'",
    "_CONVOY": "'C'",
    "VIA": "'VIA CONVOY'",
    "BY": "'BY CONVOY'",
    "DISBAND": "'DISBAND'",
    "BUILD": "'BUILD'",
    "REMOVE": "'REMOVE'",
    "WAIVE": "'WAIVE'",
    "_TRANSFORM": "'T'",
    "_CONFESSION": "'CONFESSION'",
    "UNIT_TYPE": "'A' or 'F'",
    "NAME": "a province",
    "SLASH": "'/'",
    "LPAR": "'('",
    "RPAR": "')'",
    "$END": "the end of the order",
}


class _UnknownName(Exception):
    def __init__(self, token: Token, message: str) -> None:
        super().__init__(message)
        self.token = token
        self.message = message


_UNIT_TYPES = {
    "a": ARMY,
    "army": ARMY,
    "armee": ARMY,
    "f": FLEET,
    "fleet": FLEET,
    "flotte": FLEET,
}


_CONFESSIONS = {
    word: confession
    for confession, words in {
        "catholic": ("catholic", "cath", "kath", "katholisch", "katholik"),
        "protestant": ("protestant", "prot", "protestantisch", "evangelisch", "ev", "lutherisch"),
    }.items()
    for word in words
}


@dataclass(frozen=True, slots=True)
class _Unit:
    kind: UnitType | None
    location: str


class _OrderBuilder(Transformer[Token, Order]):
    """Builds order values from the parse tree, resolving names on a map."""

    def __init__(self, game_map: GameMap) -> None:
        super().__init__()
        self.game_map = game_map

    def place(self, tokens: list[Token]) -> tuple[list[Token], str | None]:
        return tokens, None

    def coast(self, tokens: list[Token]) -> tuple[Token, str]:
        code = self.game_map.lookup_coast(" ".join(tokens))
        if code is None:
            raise _UnknownName(tokens[0], f"unknown coast {' '.join(tokens)!r}")
        return tokens[0], code

    def location(self, children: list[Any]) -> str:
        words, _ = children[0]
        coast = children[1][1] if len(children) > 1 else None
        lookup = self.game_map.lookup_place
        province = lookup(" ".join(words))
        if province is None and coast is None:
            # "stp sc", "Spain north coast": trailing words may be the coast.
            for cut in (1, 2):
                if len(words) > cut:
                    trailing = self.game_map.lookup_coast(" ".join(words[-cut:]))
                    head = lookup(" ".join(words[:-cut]))
                    if trailing and head:
                        province, coast = head, trailing
                        break
        if province is None:
            raise _UnknownName(words[0], f"unknown province {' '.join(words)!r}{_hint(self.game_map, words)}")
        return province if coast is None else f"{province}/{coast}"

    def nationality(self, tokens: list[Token]) -> None:
        if self.game_map.lookup_power(tokens[0]) is None:
            raise _UnknownName(tokens[0], f"unknown power {str(tokens[0])!r}")
        return None

    def unit(self, children: list[Any]) -> _Unit:
        kind = None
        for child in children:
            if isinstance(child, Token) and child.type == "UNIT_TYPE":
                kind = _UNIT_TYPES[child.lower()]
        return _Unit(kind, children[-1])

    def hold(self, children: list[Any]) -> Hold:
        return Hold(children[0].kind, children[0].location)

    def move(self, children: list[Any]) -> Move:
        unit = children[0]
        via = len(children) > 1 and children[-1] == "via"
        legs = [c for c in children[1:] if isinstance(c, str) and c != "via"]
        return Move(unit.kind, unit.location, legs[-1], via, tuple(legs[:-1]))

    def via_convoy(self, _children: list[Any]) -> str:
        return "via"

    def support_hold(self, children: list[Any]) -> SupportHold:
        unit, target = children[0], children[1]
        return SupportHold(unit.kind, unit.location, target.kind, target.location)

    def support_move(self, children: list[Any]) -> SupportMove:
        unit, target, destination = children
        return SupportMove(unit.kind, unit.location, target.kind, target.location, destination)

    def convoy(self, children: list[Any]) -> Convoy:
        unit, target, destination = children
        return Convoy(unit.kind, unit.location, target.kind, target.location, destination)

    def _the_unit(self, children: list[Any]) -> _Unit:
        return next(c for c in children if isinstance(c, _Unit))

    def disband(self, children: list[Any]) -> Disband:
        unit = self._the_unit(children)
        return Disband(unit.kind, unit.location)

    def build(self, children: list[Any]) -> Build:
        unit = self._the_unit(children)
        return Build(unit.kind, unit.location)

    def remove(self, children: list[Any]) -> Remove:
        unit = self._the_unit(children)
        return Remove(unit.kind, unit.location)

    def waive(self, _children: list[Any]) -> Waive:
        return Waive()

    def confession_change(self, children: list[Any]) -> ConfessionChange:
        word = children[0]
        confession = _CONFESSIONS.get(normalise_name(word))
        if confession is None:
            raise _UnknownName(word, f"unknown confession {str(word)!r} (catholic or protestant)")
        return ConfessionChange(confession)

    def transform_order(self, children: list[Any]) -> Transform:
        unit, kind = children[0], _UNIT_TYPES[children[1].lower()]
        coast = children[2][1] if len(children) > 2 else None
        return Transform(unit.kind, unit.location, kind, coast)


_HINT_WORDS = 6
_HINT_CHARS = 60


def _hint(game_map: GameMap, words: list[Token]) -> str:
    """A hint for an unknown place name: a missing move sign between two
    known provinces, or the names it is close to.  Only names of a few
    words are looked at, so the work does not grow with a long line."""
    if len(words) > 2 * _HINT_WORDS:
        return ""
    for cut in range(1, len(words)):
        head, tail = " ".join(words[:cut]), " ".join(words[cut:])
        if game_map.lookup_place(head) and game_map.lookup_place(tail):
            return f" (a '-' missing between {head} and {tail}?)"
    written = normalise_name(" ".join(words))
    if len(written) < 4 or len(written) > _HINT_CHARS:
        return ""
    close = difflib.get_close_matches(written, list(game_map.place_index), n=3, cutoff=0.75)
    keys = list(dict.fromkeys(game_map.place_index[name] for name in close))
    if not keys:
        return ""
    named = ", ".join(f"{k} ({game_map.provinces[k].name})" for k in keys)
    return f" (did you mean {named}?)"


@cache
def _parser(game_map: GameMap) -> Lark:
    return lalr_parser("diplomacy", start="order", transformer=_OrderBuilder(game_map), maybe_placeholders=False)


@cache
def _hyphen_pattern(game_map: GameMap) -> re.Pattern[str] | None:
    words = game_map.hyphenated_words()
    if not words:
        return None
    alternatives = "|".join(re.escape(w) for w in words)
    return re.compile(rf"(?<![\w\u2011])(?:{alternatives})(?![\w\u2011])", re.IGNORECASE)


def _protect_hyphens(text: str, game_map: GameMap) -> str:
    """Turn the hyphen inside known names (Mid-Atlantic) into U+2011; same length."""
    pattern = _hyphen_pattern(game_map)
    if pattern is None or "-" not in text:
        return text
    return pattern.sub(lambda m: m.group(0).replace("-", "\u2011"), text)


def _for_phase(order: Order, phase_kind: PhaseKind) -> Order:
    """Read an order as the phase means it: a move in a retreat phase is a
    retreat; a disband in an adjustment phase is a removal."""
    if phase_kind is RETREAT and isinstance(order, Move) and not order.waypoints and not order.via_convoy:
        return Retreat(order.unit, order.location, order.destination)
    if phase_kind is ADJUSTMENT and isinstance(order, Disband):
        return Remove(order.unit, order.location)
    return order


def _expected(error: UnexpectedInput) -> str:
    expected = getattr(error, "expected", None) or getattr(error, "allowed", None) or set()
    words = sorted({_TERMINAL_WORDS.get(name, name) for name in expected})
    return ", ".join(words)


def parse_order(
    text: str, game_map: GameMap, phase_kind: PhaseKind = MOVEMENT, line: int = 1, column: int = 1
) -> Order:
    """Parse one order text; raise ``OrderSyntaxError`` with line and column.

    ``column`` is where ``text`` starts in its line (1-based), so error
    columns point into the original line.  The result's ``str`` is the
    canonical text, and parsing that text again gives an equal order.
    The last ``PARSED_KEPT`` texts read are remembered by map and phase
    kind (issue 20: the same orders come again and again, in every mail
    of a power that sends its whole set anew): an order is a frozen value
    and a text's error depends on nothing but the text and where it stands.
    """
    read = _read_order(text, game_map, phase_kind)
    if isinstance(read, tuple):
        offset, message = read
        raise OrderSyntaxError(line, column + offset, message)
    return read


PARSED_KEPT = 4096
"""Order texts whose parse (or syntax error) is remembered, per process."""


@lru_cache(maxsize=PARSED_KEPT)
def _read_order(text: str, game_map: GameMap, phase_kind: PhaseKind) -> Order | tuple[int, str]:
    """The order ``text`` reads as, or (its error's column counted from the
    text's first character as 0, the error's message)."""
    source = _protect_hyphens(text, game_map)
    try:
        order = cast(Order, _parser(game_map).parse(source))
    except _UnknownName as error:
        return (error.token.column or 1) - 1, error.message
    except UnexpectedToken as error:
        token = error.token
        if token.type == "$END":
            return len(text.rstrip()), f"order ends too early: expected {_expected(error)}"
        return token.column - 1, f"unexpected {str(token)!r}: expected {_expected(error)}"
    except UnexpectedCharacters as error:
        return error.column - 1, f"unexpected character {text[error.column - 1]!r}"
    except UnexpectedInput as error:  # pragma: no cover - other Lark errors
        return 0, str(error).splitlines()[0]
    return _for_phase(order, phase_kind)


_SPLIT = re.compile(r"[^;]+")


def parse_orders(
    text: str, game_map: GameMap, phase_kind: PhaseKind = MOVEMENT
) -> list[ParsedLine]:
    """Parse every order in ``text``: one per line, or several per line
    separated by ``;``.  Blank pieces are skipped; nothing raises."""
    parsed: list[ParsedLine] = []
    for line_number, line in enumerate(text.splitlines(), start=1):
        for piece in _SPLIT.finditer(line):
            chunk = piece.group(0)
            stripped = chunk.strip()
            if not stripped:
                continue
            column = piece.start() + (len(chunk) - len(chunk.lstrip())) + 1
            try:
                order = parse_order(stripped, game_map, phase_kind, line_number, column)
            except OrderSyntaxError as error:
                parsed.append(ParsedLine(line_number, column, stripped, None, error))
            else:
                parsed.append(ParsedLine(line_number, column, stripped, order, None))
    return parsed
