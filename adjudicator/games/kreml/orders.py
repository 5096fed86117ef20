"""Kreml's orders as values: a verb and its arguments.  ``str`` of an
order is its canonical (English) text, which ``parse.parse_line`` reads
back to the same value."""

from __future__ import annotations

from dataclasses import dataclass

VERBS = ("NOTE", "REVEAL", "CONTINUE", "CURE", "STAY", "PURGE", "INVESTIGATE", "CLOSE", "ACCUSE", "DEPORT",
         "NOMINATE", "VOTE", "PROMOTE", "DEMOTE", "MOVE", "SWAP", "REHABILITATE", "ADD", "END", "TAKE", "EVENT")
VOTES = ("FOR", "AGAINST", "ABSTAIN")


@dataclass(frozen=True)
class Order:
    """One order line: ``verb`` (one of ``VERBS``), the politicians it
    names, a number (points), an office key, a vote (``VOTES``) and an
    event card's key."""

    verb: str
    names: tuple[str, ...] = ()
    points: int | None = None
    office: str | None = None
    vote: str | None = None
    card: str | None = None
    """An event card's key (``TAKE``, ``EVENT``)."""

    def __str__(self) -> str:
        parts = [self.verb]
        if self.card is not None:
            parts.append(self.card)
        if self.verb == "SWAP":
            return f"SWAP {self.names[0]} WITH {self.names[1]}"
        parts += list(self.names)
        if self.points is not None:
            parts.append(str(self.points))
        if self.office is not None:
            parts += ["TO", self.office]
        if self.vote is not None:
            parts.append(self.vote)
        return " ".join(parts)
