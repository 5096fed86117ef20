"""Reading one order line of 1848 with ``grammars/1848.lark``.

``parse_line`` turns a line into an order value (``orders.py``) or raises
``ParseError`` with the 1-based column of the first character it could
not read and a hint showing the orders' forms.  Only the syntax is read
here; whether the order is allowed in the game is the rules' business.
"""

from __future__ import annotations

import re
from functools import cache
from typing import TYPE_CHECKING

from adjudicator.games.revolution1848.orders import (
    Attack, Decide, Discard, Faction, Forecast, Join, General, Keep, Lose, NoAction, Order, Pass, PlaceArmy, Play, Remove, Stand,
    Swear, Withdraw,
)
from adjudicator.games.lines import ParseError, parse_tree
from adjudicator.parsers import lalr_parser

if TYPE_CHECKING:  # Lark comes with the first line parsed: creating a game needs none (S49)
    from lark import Lark, Token, Transformer

__all__ = ["HINT", "ParseError", "card_id", "colour_of", "in_language", "parse_line", "party_code"]

HINT = ("orders: PLAY PE12 | PLAY Z19 ON PE24 | PLAY PE42 AS Democrat | PASS | KEEP PE12 Z03 | KEEP NOTHING | "
        "DISCARD PE05 | DECIDE RED | FACTION RIGHT | JOIN ALL | FORECAST B | WITHDRAW | STAND | ARMY Z28 TO A04 | GENERAL PE34 TO Z28 | "
        "REMOVE PE34 | ATTACK Z28 ON Z13 | SWEAR Z28 | NONE | LOSE Z29 (German: SPIELE, AUF, ALS, PASSE, "
        "BEHALTE, NICHTS, ABWERFEN, ENTSCHEIDUNG ROT/BLAU, FRAKTION RECHTE/LINKE/BEIDE, UNTERSTELLE ALLE/KEINE, PROGNOSE, ZURUECKNEHMEN, BEIBEHALTEN, ARMEE ... AN, "
        "HEERFUEHRER ... ZU, ENTFERNE, ANGRIFF ... AUF, VEREIDIGE, KEINE, VERLIERE)")


_GERMAN = {"PLAY": "SPIELE", "ON": "AUF", "AS": "ALS", "PASS": "PASSE", "KEEP": "BEHALTE", "NOTHING": "NICHTS",
           "DISCARD": "ABWERFEN", "DECIDE": "ENTSCHEIDUNG", "RED": "ROT", "BLUE": "BLAU", "FACTION": "FRAKTION",
           "RIGHT": "RECHTE", "LEFT": "LINKE", "BOTH": "BEIDE", "JOIN": "UNTERSTELLE", "ALL": "ALLE", "NONE": "KEINE",
           "FORECAST": "PROGNOSE", "WITHDRAW": "ZURUECKNEHMEN", "STAND": "BEIBEHALTEN", "ARMY": "ARMEE",
           "GENERAL": "HEERFUEHRER", "REMOVE": "ENTFERNE", "ATTACK": "ANGRIFF", "SWEAR": "VEREIDIGE", "LOSE": "VERLIERE"}
"""The grammar's German keyword for each English keyword of a canonical order."""


def in_language(order: str, language: str) -> str:
    """A canonical (English) order written with the keywords of
    ``language``: ``ARMY Z28 TO A04`` is ``ARMEE Z28 AN A04`` in German
    (``GENERAL PE34 ZU Z28``); card ids, parties and letters stay.  The
    grammar reads the German form as the same order."""
    if language != "de":
        return order
    words = order.split()
    head = words[0] if words else ""
    out = [_GERMAN.get(w, w) if w != "TO" else ("ZU" if head == "GENERAL" else "AN") for w in words]
    return " ".join(out)


@cache
def _parser() -> Lark:
    return lalr_parser("1848", lexer="contextual")


def card_id(text: str) -> str:
    """The canonical id of a card as written (``pe5`` -> ``PE05``, ``z 7`` -> ``Z07``)."""
    match = re.fullmatch(r"\s*(pe|z|a)\s?(\d{1,2})\s*", text, flags=re.IGNORECASE)
    if match is None:
        raise ValueError(f"not a card: {text!r}")
    return f"{match.group(1).upper()}{int(match.group(2)):02d}"


_ABBREVIATIONS = {"l": "LIB", "d": "DEM", "dl": "DEM", "rr": "REP", "r": "REA"}
"""Short party names (ruling 41: the basic game's example writes L, DL, RR
and R for Liberals, Democrats, Republicans and Reactionaries)."""


def party_code(text: str) -> str:
    """``LIB``, ``DEM``, ``REP`` or ``REA`` for a party word in either
    language, or an abbreviation (``L``, ``D``, ``DL``, ``RR``, ``R``, ``Reak``)."""
    word = text.lower()
    if word in _ABBREVIATIONS:
        return _ABBREVIATIONS[word]
    for prefix, code in (("lib", "LIB"), ("dem", "DEM"), ("rep", "REP"), ("rea", "REA"), ("kon", "REA"),
                         ("con", "REA")):
        if word.startswith(prefix):
            return code
    raise ValueError(f"not a party: {text!r}")


_PARENTHESES = re.compile(r"\(([^()\n]*)\)")
_PARTY_WORD = re.compile(r"(liberale[rn]?|liberals?|lib|demokrat(en)?|democrats?|dem|dl|republikaner[ns]?|"
                         r"republicans?|rep|reaktion(ä|ae)r(e|en)?|reactionar(y|ies)|reakt?|rea|r|rr|"
                         r"konservative[rn]?|conservatives?)", re.IGNORECASE)
_TRAILING = re.compile(r"[.,;:!?]+\s*$")


def tidy(text: str) -> str:
    """What people write around an order turned into blanks, every column
    kept: commas, ``:`` after a word, punctuation at the end, a name in
    parentheses (a party word in parentheses stays, without them)."""
    def parenthesis(match: re.Match[str]) -> str:
        inner = match.group(1)
        if _PARTY_WORD.fullmatch(inner.strip()):
            return " " + inner + " "
        return " " * len(match.group(0))

    text = _PARENTHESES.sub(parenthesis, text)
    text = _TRAILING.sub(lambda m: " " * len(m.group(0)), text)
    return re.sub(r"[,:]", " ", text)


_EXPECTED = {"CARD": "a card (PE12, Z03, A06)", "PARTY": "a party (Liberal, Democrat, Republican, Reactionary)",
             "ON": "ON (AUF)", "AS": "AS (ALS)", "TO": "TO (AN, ZU)", "NONE": "NOTHING (NICHTS)",
             "WORD": "a word", "$END": "the end of the line"}


def colour_of(words: str) -> str:
    """``red``/``blue`` for ``rot``/``red``/``blau``/``blue``; else the words as written."""
    return {"rot": "red", "red": "red", "blau": "blue", "blue": "blue"}.get(words.lower(), words)


@cache
def _orders() -> type[Transformer[Token, Order]]:
    """The transformer of a parsed line into its order: its class is made
    on the first line read, so importing the rules loads no Lark (S49)."""
    from lark import Token, Transformer

    class _Orders(Transformer[Token, Order]):
        def play(self, items: list[Token]) -> Play:
            cards = [card_id(t) for t in items if t.type == "CARD"]
            party = next((party_code(t) for t in items if t.type == "PARTY"), "")
            return Play(cards[0], cards[1] if len(cards) > 1 else "", party)

        def pass_(self, items: list[Token]) -> Pass:
            return Pass()

        def keep(self, items: list[Token]) -> Keep:
            return Keep(tuple(card_id(t) for t in items if t.type == "CARD"))

        def discard(self, items: list[Token]) -> Discard:
            return Discard(tuple(card_id(t) for t in items if t.type == "CARD"))

        def decide(self, items: list[Token]) -> Decide:
            return Decide(colour_of(" ".join(str(t) for t in items[1:])))

        def faction(self, items: list[Token]) -> Faction:
            words = " ".join(str(t) for t in items[1:]).casefold()
            for code, starts in (("RLIB", ("recht", "right", "rlib")), ("LLIB", ("link", "left", "llib")),
                                 ("BOTH", ("beide", "both"))):
                if words.startswith(starts):
                    return Faction(code)
            column = (items[1].column or 1) if len(items) > 1 and isinstance(items[1], Token) else 1
            raise ParseError(column, "expected RIGHT, LEFT or BOTH (German: RECHTE, LINKE, BEIDE)")

        def join(self, items: list[Token]) -> Join:
            if any(t.type == "ALL" for t in items):
                return Join((), True)
            return Join(tuple(card_id(t) for t in items if t.type == "CARD"))

        def forecast(self, items: list[Token]) -> Forecast:
            return Forecast(str(items[1]).upper())

        def withdraw(self, items: list[Token]) -> Withdraw:
            return Withdraw()

        def stand(self, items: list[Token]) -> Stand:
            return Stand()

        def army(self, items: list[Token]) -> PlaceArmy:
            return PlaceArmy(card_id(items[1]), card_id(items[3]))

        def general(self, items: list[Token]) -> General:
            return General(card_id(items[1]), card_id(items[3]))

        def remove(self, items: list[Token]) -> Remove:
            return Remove(card_id(items[1]))

        def attack(self, items: list[Token]) -> Attack:
            return Attack(card_id(items[1]), card_id(items[3]))

        def swear(self, items: list[Token]) -> Swear:
            return Swear(card_id(items[1]))

        def none(self, items: list[Token]) -> NoAction:
            return NoAction()

        def lose(self, items: list[Token]) -> Lose:
            return Lose(card_id(items[1]))

    return _Orders


def parse_line(text: str) -> Order:
    """The order written on one line (``ParseError`` when it is none,
    naming what was expected there); see ``tidy`` for what is read as blank."""
    tree = parse_tree(_parser(), tidy(text), _EXPECTED)
    if tree.data == "pass":
        return Pass()
    from lark.exceptions import VisitError

    try:
        return _orders()().transform(tree)
    except VisitError as error:
        if isinstance(error.orig_exc, ParseError):
            raise error.orig_exc from None
        raise

