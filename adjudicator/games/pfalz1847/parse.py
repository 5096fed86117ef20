"""Reading one order line of 1847 AE with ``grammars/pfalz1847.lark``.

``parse_line`` turns a line into an order value (``orders.py``) or raises
``ParseError`` with the 1-based column of the first character it could
not read.  Only the syntax is read here; the rules judge the rest.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from adjudicator.games.pfalz1847.orders import (
    Accept, BuyPrivate, BuyShare, BuyTrain, CompanyBuysPrivate, Decline, Discard, Done, Exchange, Lay, Nationalize,
    Order, Par, Pass, Payout, Run, RunBest, Sell, Station, Undo,
)
from adjudicator.parsers import lalr_parser

if TYPE_CHECKING:  # Lark comes with the first line parsed: creating a game needs none (S49)
    from lark import Lark, Token

HINT = ("BUY K | BUY L IPO | BUY L MARKET | PAR HLB 80 | SELL 2 L | EXCHANGE MNR | NATIONALIZE L FROM S2 | "
        "LAY 58 G17 ROT 1 | STATION G15 | RUN 3: F18-G17-G15 | RUN BEST | DIVIDEND | WITHHOLD | BUY TRAIN 3 | "
        "BUY TRAIN 3+3 FROM SAAR 200 | BUY PRIVATE W 50 | ACCEPT | DECLINE | DISCARD 3 | PASS | DONE | UNDO "
        "(deutsch: KAUFE, GRUENDE, VERKAUFE, TAUSCHE, VERSTAATLICHE ... VON, LEGE ... DREHUNG, BAHNHOF, FAHRE, "
        "FAHRE BESTE, AUSSCHUETTEN, EINBEHALTEN, KAUFE ZUG, ANNEHMEN, ABLEHNEN, ABGEBEN, PASSE, FERTIG, ZURUECK)")

MAX_LINE = 200


class ParseError(ValueError):
    """A line that is no order: ``column`` (1-based) and what is wrong."""

    def __init__(self, column: int, message: str, key: str = "", **fields: str) -> None:
        super().__init__(message)
        self.column = column
        self.message = message
        self.key = key
        """The catalogue entry (``templates/texts/pfalz1847.toml``) that says
        ``message`` in the game's language, filled with ``fields``."""
        self.fields = fields


@cache
def _parser() -> Lark:
    return lalr_parser("pfalz1847", lexer="contextual")


_SOURCES = {"ipo": "IPO", "kasse": "IPO", "market": "MARKET", "markt": "MARKET", "pool": "MARKET", "bank": "MARKET"}


def _name(token: Token) -> str:
    return str(token)


def train_name(text: str) -> str:
    """The canonical train type (``6e`` -> ``6E``)."""
    return text.upper()


def parse_line(text: str) -> Order:
    """The order written on ``text``; raises ``ParseError``."""
    if len(text) > MAX_LINE:
        raise ParseError(MAX_LINE, f"line longer than {MAX_LINE} characters", "p47_line_too_long", limit=str(MAX_LINE))
    from lark import Token, Tree, UnexpectedInput

    try:
        tree = _parser().parse(text)
    except UnexpectedInput as error:
        column = getattr(error, "column", 1)
        return _fail(column if isinstance(column, int) and column > 0 else 1, text)
    assert isinstance(tree, Tree)
    parts = [t for t in tree.children if isinstance(t, Token)]
    words = {t.type: t for t in parts}
    kind = str(tree.data)
    if kind == "buy_train":
        seller = [p for p in parts if p.type == "NAME"]
        numbers = [p for p in parts if p.type == "NUMBER"]
        return BuyTrain(train_name(words["TRAINNAME"]), seller[0].upper() if seller else "",
                        int(numbers[0]) if numbers else 0)
    if kind == "buy_private_company":
        return CompanyBuysPrivate(words["NAME"].upper(), int(words["NUMBER"]))
    if kind == "buy":
        name = words["NAME"].upper()
        if "SOURCE" in words:
            return BuyShare(name, _SOURCES[str(words["SOURCE"]).lower()])
        return BuyPrivate(name)
    if kind == "par":
        return Par(words["NAME"].upper(), int(words["NUMBER"]))
    if kind == "sell":
        return Sell(int(words["NUMBER"]), words["NAME"].upper())
    if kind == "exchange":
        return Exchange(words["NAME"].upper())
    if kind == "nationalize":
        names = [p for p in parts if p.type == "NAME"]
        return Nationalize(names[0].upper(), names[1].upper())
    if kind == "lay":
        names = [p for p in parts if p.type == "NAME"]
        return Lay(str(words["TILE"]), words["HEX"].upper(), int(words["NUMBER"]) % 6, names[0].upper() if names else "")
    if kind == "station":
        return Station(words["HEX"].upper(), words["NAME"].upper() if "NAME" in words else "")
    if kind == "run_best":
        return RunBest()
    if kind == "run":
        return Run(train_name(words["TRAINNAME"]), tuple(p.upper() for p in parts if p.type == "HEX"))
    if kind == "payout":
        return Payout(parts[0].type == "DIVIDEND")
    if kind == "accept":
        return Accept()
    if kind == "decline":
        return Decline()
    if kind == "discard":
        return Discard(train_name(words["TRAINNAME"]))
    if kind == "pass_":
        return Pass()
    if kind == "done":
        return Done()
    if kind == "undo":
        return Undo()
    return _fail(1, text)  # pragma: no cover - every rule is handled above


def _fail(column: int, text: str) -> Order:
    rest = repr(text[max(0, column - 1):][:30])
    raise ParseError(column, f"cannot read this as an order at column {column}: {rest}", "p47_unreadable",
                     at=str(column), rest=rest)
