"""Reading one order line with a game's Lark grammar: the syntax errors
every card game reports the same way.

``parse_tree`` returns the tree of a line or raises ``ParseError`` with
the 1-based column of the first character it could not read, the kind of
error (``incomplete``, ``unreadable``, ``unexpected``), the word there and
an English message; a game may word the kind in the player's language.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # Lark comes with the first line parsed (S49)
    from lark import Lark, Tree, UnexpectedToken


class ParseError(ValueError):
    """A line that is no order: ``column`` (1-based), ``kind``, ``word``
    and what is wrong (``message``)."""

    def __init__(self, column: int, message: str, kind: str = "unreadable", word: str = "") -> None:
        super().__init__(message)
        self.column = column
        self.message = message
        self.kind = kind
        self.word = word


def _word_at(text: str, column: int) -> str:
    rest = text[column - 1:]
    return rest.split()[0] if rest.split() else rest


def _expected(error: UnexpectedToken, names: Mapping[str, str] | None, first_word: bool) -> str:
    """``; expected X or Y`` for the terminals ``names`` describes (nothing at the line's first word)."""
    if not names or first_word:
        return ""
    wanted = sorted({names[name] for name in error.expected if name in names and name != "$END"})
    return f"; expected {' or '.join(wanted)}" if wanted else ""


def parse_tree(parser: Lark, text: str, expected: Mapping[str, str] | None = None) -> Tree[Any]:
    """The tree of ``text`` (``ParseError`` when the grammar cannot read it).
    With ``expected`` (terminal name -> words) an unexpected or missing
    word's message also says what was expected there."""
    from lark import Token, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

    try:
        tree = parser.parse(text)
    except UnexpectedEOF:
        raise ParseError(len(text) + 1, "the order is incomplete", "incomplete") from None
    except UnexpectedCharacters as error:
        word = _word_at(text, error.column)
        raise ParseError(error.column, f"cannot read {word!r} here", "unreadable", word) from None
    except UnexpectedToken as error:
        if error.token.type == "$END":
            raise ParseError(len(text.rstrip()) + 1, "the order is incomplete" + _expected(error, expected, False),
                             "incomplete") from None
        word = str(error.token)
        first_word = (error.token.start_pos or 0) <= len(text) - len(text.lstrip())
        raise ParseError(error.column, f"did not expect {word!r} here" + _expected(error, expected, first_word),
                         "unexpected", word) from None
    except UnexpectedInput as error:  # pragma: no cover - every kind is handled above
        raise ParseError(getattr(error, "column", 1), "cannot read the order") from None
    if isinstance(tree, Token):  # pragma: no cover - a grammar's start rule always yields a tree
        raise ParseError(1, "cannot read the order")
    return tree
