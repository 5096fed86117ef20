"""Reading one order line of Kreml with ``grammars/kreml.lark``, then the
politicians and offices it names.

``parse_line`` reads the syntax (``ParseError`` with the 1-based column
and a hint); ``resolve`` turns the names written into the game's
politicians and office keys (``NameError_`` when a name is unknown or
ambiguous, with the candidates).  Whether the order is allowed now is the
rules' business (``legal.py``).
"""

from __future__ import annotations

import unicodedata
from dataclasses import replace
from functools import cache
from typing import TYPE_CHECKING


from adjudicator.games.kreml.orders import Order
from adjudicator.games.kreml.reasons import Reason, reason
from adjudicator.games.kreml.words import OFFICE_NAMES
from adjudicator.games.kreml.rules import CANDIDATE, OFFICES
from adjudicator.parsers import lalr_parser

if TYPE_CHECKING:  # Lark comes with the first line parsed: creating a game needs none (S49)
    from lark import Lark

HINT = ("orders: NOTE <politician> <1-10> | REVEAL <politician> <points> | CONTINUE | CURE | STAY | "
        "PURGE <p> | INVESTIGATE <p> | CLOSE <p> | ACCUSE <p> | DEPORT <p> | NOMINATE <p> | "
        "VOTE [<p>] FOR|AGAINST|ABSTAIN | PROMOTE <p> [TO <office>] | DEMOTE <p> [TO <office>] | "
        "MOVE <p> TO <office> | SWAP <p> WITH <p> | REHABILITATE <p> | ADD <p> | TAKE <card> | "
        "EVENT <card> <p> | END (German: NOTIZ, "
        "OFFENLEGEN, WEITER, KUR, BLEIBEN, SAEUBERN, UNTERSUCHEN, EINSTELLEN, ANKLAGEN, DEPORTIEREN, "
        "NOMINIEREN, STIMME DAFUER/DAGEGEN/ENTHALTUNG, BEFOERDERN, DEGRADIEREN, VERSCHIEBEN ... ZU, "
        "TAUSCHEN ... MIT, REHABILITIEREN, NACHSETZEN, NEHMEN, EREIGNIS, KEINE)")

_CHOICES = {"dafür": "FOR", "dafuer": "FOR", "ja": "FOR", "for": "FOR", "yes": "FOR", "dagegen": "AGAINST",
            "nein": "AGAINST", "against": "AGAINST", "no": "AGAINST", "enthaltung": "ABSTAIN", "abstain": "ABSTAIN"}
_OFFICE_ALIASES = {"kgb": "kgb", "kgbchef": "kgb", "kgbchief": "kgb", "headofthekgb": "kgb", "kgbhead": "kgb",
                   "defense": "defence", "defenseminister": "defence", "ideologe": "ideology",
                   "ideologie": "ideology", "ideologychief": "ideology", "economy": "agriculture",
                   "economyminister": "agriculture", "wirtschaft": "agriculture", "sports": "sport",
                   "kandidaten": CANDIDATE, "candidates": CANDIDATE, "aussen": "foreign"}


class ParseError(ValueError):
    """A line that is no order: ``column`` (1-based) and what is wrong."""

    def __init__(self, column: int, why: Reason) -> None:
        super().__init__(str(why))
        self.column = column
        self.why = why
        self.message = str(why)


class NameProblem(ValueError):
    """A name in an order that fits no politician or office, or several."""

    def __init__(self, why: Reason) -> None:
        super().__init__(str(why))
        self.why = why


@cache
def _parser() -> Lark:
    return lalr_parser("kreml", lexer="contextual")


@cache
def fold(text: str) -> str:
    """A name for comparing: lower case, umlauts as ae/oe/ue, ß as ss,
    other accents dropped, only letters and digits kept."""
    text = text.casefold().replace("ä", "ae").replace("ö", "oe").replace("ü", "ue").replace("ß", "ss")
    text = unicodedata.normalize("NFKD", text)
    return "".join(c for c in text if c.isalnum() and not unicodedata.combining(c))


def parse_line(text: str) -> Order:
    """The order a line states, names as written (``ParseError`` if none)."""
    from lark import Token, Tree, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

    cleaned = text.strip().rstrip(".;!")
    try:
        tree = _parser().parse(cleaned)
    except UnexpectedInput as error:
        column = getattr(error, "column", 1) or 1
        if isinstance(error, UnexpectedEOF):
            raise ParseError(len(cleaned) + 1, reason("ends_early")) from None
        if isinstance(error, UnexpectedToken) and error.token.type == "$END":
            raise ParseError(len(cleaned) + 1, reason("ends_early")) from None
        if isinstance(error, (UnexpectedCharacters, UnexpectedToken)):
            raise ParseError(int(column), reason("cannot_read", text=repr(cleaned[int(column) - 1:][:20]))) from None
        raise ParseError(1, reason("not_an_order")) from None
    assert isinstance(tree, Tree)
    verb = str(tree.data).upper()
    names = tuple(" ".join(str(t) for t in child.children) for child in tree.children if isinstance(child, Tree))
    tokens = [c for c in tree.children if isinstance(c, Token)]
    points = next((int(t) for t in tokens if t.type == "INT"), None)
    vote = next((_CHOICES[fold(str(t))] for t in tokens if t.type == "CHOICE"), None)
    if verb == "TAKE":
        return Order(verb, card=names[0].split()[0].casefold())
    if verb == "EVENT":
        card, *target = names[0].split()
        return Order(verb, (" ".join(target),) if target else (), card=card.casefold())
    if verb in ("PROMOTE", "DEMOTE", "MOVE") and len(names) == 2:
        return Order(verb, names[:1], office=names[1])
    return Order(verb, names, points=points, vote=vote)


def office_key(text: str) -> str:
    """The office key of an office's German or English name, key or alias."""
    wanted = fold(text)
    for key, (german, english) in OFFICE_NAMES.items():
        if wanted in (fold(key), fold(german), fold(english)):
            return key
    if wanted in _OFFICE_ALIASES:
        return _OFFICE_ALIASES[wanted]
    raise NameProblem(reason("no_office", text=repr(text), offices=", ".join(OFFICES)))


def politician(text: str, politicians: list[str]) -> str:
    """The politician ``text`` names: the full name, the surname, or an
    unambiguous beginning of either (``NameProblem`` otherwise)."""
    wanted = fold(text)
    if not wanted:
        raise NameProblem(reason("no_name"))
    folded = _folded(tuple(politicians))
    exact = [p for p, full, last in folded if wanted in (full, last)]
    if len(exact) == 1:
        return exact[0]
    found = [p for p, full, last in folded if full.startswith(wanted) or last.startswith(wanted)]
    if len(found) == 1:
        return found[0]
    if not found:
        raise NameProblem(reason("no_politician", text=repr(text)))
    raise NameProblem(reason("ambiguous", text=repr(text), found=" / ".join(found)))


@cache
def _folded(politicians: tuple[str, ...]) -> tuple[tuple[str, str, str], ...]:
    return tuple((p, fold(p), fold(p.split()[-1])) for p in politicians)


def resolve(order: Order, politicians: list[str]) -> Order:
    """``order`` with the game's politicians and office keys for the names written."""
    names = tuple(politician(n, politicians) for n in order.names)
    office = office_key(order.office) if order.office is not None else None
    return replace(order, names=names, office=office)
