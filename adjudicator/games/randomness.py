"""Verifiable randomness: every die roll and shuffle of a game, derived
from the game's secret seed and a counter.

A game's seed is a secret string (the service makes it, keeps it, and
publishes its SHA-256 in the start mail and the seed itself when the game
ends).  Event number ``counter`` of a game is computed from
HMAC-SHA256(seed, "<counter>:<kind>:<parameters>") alone, so anyone with the
seed and the published events can recompute each one (``verify``).  Game
modules are pure: they keep the seed and the next counter in their state,
call ``roll``/``shuffle``/``choose`` and put the returned ``RandomEvent``
records (as ``event.to_json()``) under the report key ``random_events``.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from typing import Any, Sequence

REPORT_KEY = "random_events"


def seed_digest(seed: str) -> str:
    """The SHA-256 of a seed (hex), as published in the start mail."""
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


def _stream(seed: str, label: str) -> Any:
    """An endless supply of 64-bit numbers for one event."""
    block = 0
    while True:
        digest = hmac.new(seed.encode("utf-8"), f"{label}#{block}".encode("utf-8"), hashlib.sha256).digest()
        for start in range(0, 32, 8):
            yield int.from_bytes(digest[start:start + 8], "big")
        block += 1


def _below(numbers: Any, bound: int) -> int:
    """A uniform number in ``range(bound)`` (rejection sampling, no bias)."""
    limit = (1 << 64) - (1 << 64) % bound
    for value in numbers:
        if value < limit:
            return int(value % bound)
    raise AssertionError("unreachable")  # pragma: no cover


@dataclass(frozen=True)
class RandomEvent:
    """One random event: its counter, kind (``die``, ``shuffle``,
    ``choice``), what it was for (``label``, e.g. ``W20 health Breschnow``),
    its parameters and its result."""

    counter: int
    kind: str
    label: str
    sides: int = 0
    count: int = 1
    items: tuple[str, ...] = ()
    result: tuple[Any, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The event as report data (``from_json`` reads it back)."""
        return {"counter": self.counter, "kind": self.kind, "label": self.label, "sides": self.sides,
                "count": self.count, "items": list(self.items), "result": list(self.result)}

    @staticmethod
    def from_json(data: dict[str, Any]) -> "RandomEvent":
        """The event ``to_json`` wrote."""
        return RandomEvent(int(data["counter"]), str(data["kind"]), str(data.get("label", "")),
                           int(data.get("sides", 0)), int(data.get("count", 1)),
                           tuple(str(i) for i in data.get("items", ())), tuple(data.get("result", ())))


def roll(seed: str, counter: int, sides: int, label: str = "", count: int = 1) -> RandomEvent:
    """``count`` dice of ``sides`` sides (each 1..sides) as event ``counter``."""
    if sides < 1 or count < 1:
        raise ValueError("a die needs at least one side and one throw")
    numbers = _stream(seed, f"{counter}:die:{sides}:{count}")
    return RandomEvent(counter, "die", label, sides=sides, count=count,
                       result=tuple(_below(numbers, sides) + 1 for _ in range(count)))


def shuffle(seed: str, counter: int, items: Sequence[str], label: str = "") -> RandomEvent:
    """``items`` in a uniformly random order (Fisher-Yates) as event ``counter``."""
    order = list(items)
    numbers = _stream(seed, f"{counter}:shuffle:{len(order)}")
    for index in range(len(order) - 1, 0, -1):
        other = _below(numbers, index + 1)
        order[index], order[other] = order[other], order[index]
    return RandomEvent(counter, "shuffle", label, items=tuple(items), result=tuple(order))


def choose(seed: str, counter: int, items: Sequence[str], label: str = "", count: int = 1) -> RandomEvent:
    """``count`` different elements of ``items`` chosen at random as event ``counter``."""
    if not 0 < count <= len(items):
        raise ValueError("cannot choose more than there is")
    mixed = shuffle(seed, counter, items, label).result
    return RandomEvent(counter, "choice", label, count=count, items=tuple(items), result=mixed[:count])


def recompute(seed: str, event: RandomEvent) -> RandomEvent:
    """The event as the seed gives it (equal to ``event`` when it is genuine)."""
    if event.kind == "die":
        return roll(seed, event.counter, event.sides, event.label, event.count)
    if event.kind == "shuffle":
        return shuffle(seed, event.counter, event.items, event.label)
    if event.kind == "choice":
        return choose(seed, event.counter, event.items, event.label, event.count)
    raise ValueError(f"unknown kind of random event {event.kind!r}")
