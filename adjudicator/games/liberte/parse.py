"""Reading one order line of Liberté with ``grammars/liberte.lark``.

``parse_line`` turns a line into an order value (``orders.py``) or raises
``ParseError`` with the 1-based column of the first character it could not
read.  Only the syntax is read here; whether the order is allowed now is
the rules' business (``actions.py``).
"""

from __future__ import annotations

import re
from functools import cache, lru_cache
from typing import TYPE_CHECKING

from adjudicator.games.liberte.orders import BATTLE, Bid, Order, Pass, Play, Refill, Special, Take, Target
from adjudicator.games.lines import ParseError, parse_tree
from adjudicator.parsers import lalr_parser

if TYPE_CHECKING:  # Lark comes with the first line parsed: creating a game needs none (S49)
    from lark import Lark, Token, Transformer

__all__ = ["ParseError", "card_id", "parse_line"]


@cache
def _parser() -> Lark:
    return lalr_parser("liberte", lexer="contextual")


def card_id(text: str) -> str:
    """The canonical id of a card as written (``a5`` -> ``A05``, ``b 112`` -> ``B112``)."""
    match = re.fullmatch(r"\s*([ab])\s?(\d{1,3})\s*", text, flags=re.IGNORECASE)
    if match is None:
        raise ValueError(f"not a card: {text!r}")
    return f"{match.group(1).upper()}{int(match.group(2)):02d}"


def _cards(items: list[Token], after: str, stop: tuple[str, ...] = ()) -> tuple[str, ...]:
    found: list[str] = []
    inside = False
    for token in items:
        if token.type == after:
            inside = True
        elif token.type in stop:
            inside = False
        elif inside and token.type == "CARD":
            found.append(card_id(token))
    return tuple(found)


@cache
def _orders() -> type[Transformer[Token, Order]]:
    """The transformer of a parsed line into its order: its class is made
    on the first line read, so importing the rules loads no Lark (S49)."""
    from lark import Token, Transformer

    class _Orders(Transformer[Token, Order]):
        def target(self, items: list[Token]) -> Target:
            seat = next((str(t).upper() for t in items if t.type == "SEAT"), "")
            return Target(str(items[0]), seat)

        def play(self, items: list[Token | Target]) -> Play:
            card = card_id(str(items[1]))
            targets = tuple(t for t in items if isinstance(t, Target))
            if any(isinstance(t, Token) and t.type == "BATTLE" for t in items):
                targets = (Target(BATTLE),)
            keep = any(isinstance(t, Token) and t.type == "KEEP" for t in items)
            return Play(card, targets, keep)

        def special(self, items: list[Token | Target]) -> Special:
            return Special(card_id(str(items[1])), tuple(t for t in items if isinstance(t, Target)))

        def take(self, items: list[Token]) -> Take:
            card = card_id(items[1]) if items[1].type == "CARD" else ""
            return Take(card, _cards(items, "DISCARD"))

        def pass_(self, items: list[Token]) -> Pass:
            return Pass()

        def refill(self, items: list[Token]) -> Refill:
            back_all = any(t.type == "ALL" for t in items)
            return Refill(_cards(items, "BACK", ("DISCARD", "OPEN")), back_all, _cards(items, "DISCARD", ("OPEN",)),
                          _cards(items, "OPEN"))

        def bid(self, items: list[Token]) -> Bid:
            return Bid(card_id(items[1]) if items[1].type == "CARD" else "")

    return _Orders


@lru_cache(maxsize=4096)
def parse_line(text: str) -> Order:
    """The order written on one line (``ParseError`` when it is none);
    orders are immutable values, so a line read once is remembered."""
    tree = parse_tree(_parser(), text)
    if tree.data == "pass":
        return Pass()
    return _orders()().transform(tree)
