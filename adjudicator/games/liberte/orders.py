"""The orders of Liberté as values; ``str`` of each is its canonical line.

A target is a province with, optionally, the seat whose stack is meant
(``PARIS/B``), or the battle box (``BATTLE``).  Province words are kept as
written here; the rules resolve them against the board.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

BATTLE = "BATTLE"


@dataclass(frozen=True)
class Target:
    """Where a block goes or a special card aims: a province (and a stack's
    owner), or the battle box when ``province`` is ``BATTLE``."""

    province: str
    owner: str = ""

    def __str__(self) -> str:
        return f"{self.province}/{self.owner}" if self.owner else self.province


@dataclass(frozen=True)
class Play:
    """Play a person or club card: its blocks to ``targets`` (one target per
    block) or, for a cannon card, a control marker to the battle box; then
    ``keep`` it in the display or discard it."""

    card: str
    targets: tuple[Target, ...]
    keep: bool = False

    def __str__(self) -> str:
        return f"PLAY {self.card} {' '.join(str(t) for t in self.targets)} {'KEEP' if self.keep else 'DISCARD'}"


@dataclass(frozen=True)
class Special:
    """Play a special card (alone or with a ``Play``); ``targets`` for an
    effect that needs them: a stack (``PARIS/C``), a player's markers in
    the battle box (``BATTLE/C``), provinces to place in, or a stack and
    the province it moves to."""

    card: str
    targets: tuple[Target, ...] = ()

    @property
    def target(self) -> Target | None:
        """The first target, or None."""
        return self.targets[0] if self.targets else None

    def __str__(self) -> str:
        return " ".join([f"SPECIAL {self.card}", *(str(t) for t in self.targets)])


@dataclass(frozen=True)
class Take:
    """Take the top card of the deck (``card`` empty) or an open card,
    after discarding ``discard`` (two cards when the hand holds 9 or more)."""

    card: str = ""
    discard: tuple[str, ...] = ()

    def __str__(self) -> str:
        text = f"TAKE {self.card or 'DECK'}"
        return text + (f" DISCARD {' '.join(self.discard)}" if self.discard else "")


@dataclass(frozen=True)
class Pass:
    """Do nothing this turn (a later turn may act again)."""

    def __str__(self) -> str:
        return "PASS"


@dataclass(frozen=True)
class Refill:
    """New cards at a round's start: take ``back`` from the display (or
    every card with ``back_all``), discard ``discard``, then fill the hand
    to 7 with the open cards ``open`` (in this order) and the deck."""

    back: tuple[str, ...] = ()
    back_all: bool = False
    discard: tuple[str, ...] = ()
    open: tuple[str, ...] = ()

    def __str__(self) -> str:
        parts = ["REFILL"]
        if self.back_all:
            parts.append("BACK ALL")
        elif self.back:
            parts.append("BACK " + " ".join(self.back))
        if self.discard:
            parts.append("DISCARD " + " ".join(self.discard))
        if self.open:
            parts.append("OPEN " + " ".join(self.open))
        return " ".join(parts)


@dataclass(frozen=True)
class Bid:
    """A sealed tie-break play: a card of the display, or none."""

    card: str = ""

    def __str__(self) -> str:
        return f"BID {self.card or 'NONE'}"


Order = Union[Play, Special, Take, Pass, Refill, Bid]
