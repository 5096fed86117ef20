"""Verifiable randomness: every die roll and shuffle of a game, derived
from the game's secret seed and a counter.

A game's seed is a secret whole number the judge draws at creation (128
bits); its text ``seed_text(seed)`` (the decimal digits) is the HMAC key.
The judge publishes ``seed_digest`` (the SHA-256 of that text) in the
start mail and the seed itself when the game ends.  Event number
``counter`` is computed from HMAC-SHA256(key, "<counter>:<kind>:<parameters>#<block>")
alone, so anyone with the seed and the published events can recompute
each one (``recompute``, ``check_events``; ``adjudicator verify GAME``).

Game modules are pure: ``start(options, seed)`` keeps ``seed_text(seed)``
and the next counter (from 0) in the state; each random event is
``roll``/``shuffle``/``choose`` with the next counter, and its record
(``event.to_json()``) goes into the phase's report under ``random_events``
(events drawn by ``start`` itself: ``opening_events``).  Counters are
never reused, so taking an action back and resolving it again draws the
same numbers: an UNDO or a rollback cannot re-roll a die.  The judge's
own draws (random powers) use the key ``judge_key(seed)``.
"""

from __future__ import annotations

from typing import Any, Sequence

from adjudicator.records import Record

REPORT_KEY = "random_events"


def seed_text(seed: int | str) -> str:
    """The HMAC key of a game's seed: its decimal digits."""
    return str(seed)


def judge_key(seed: int | str) -> str:
    """The key of the judge's own draws (random powers) in a game."""
    return f"{seed_text(seed)}/judge"


def seed_digest(seed: int | str) -> str:
    """The SHA-256 of a seed's text (hex), as published in the start mail."""
    import hashlib  # on first use: creating a game draws no event and loads no OpenSSL (issue 20)

    return hashlib.sha256(seed_text(seed).encode("utf-8")).hexdigest()


def _stream(seed: str, label: str) -> Any:
    """An endless supply of 64-bit numbers for one event."""
    import hashlib
    import hmac

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


class RandomEvent(Record):
    """One random event: its counter, kind (``die``, ``shuffle``,
    ``choice``), what it was for (``label``, e.g. ``W20 health Breschnow``),
    its parameters and its result."""

    __slots__ = ("counter", "kind", "label", "sides", "count", "items", "result")
    counter: int
    kind: str
    label: str
    sides: int
    count: int
    items: tuple[str, ...]
    result: tuple[Any, ...]

    def __init__(self, counter: int, kind: str, label: str, sides: int = 0, count: int = 1,
                 items: tuple[str, ...] = (), result: tuple[Any, ...] = ()) -> None:
        _set = object.__setattr__
        _set(self, "counter", counter)
        _set(self, "kind", kind)
        _set(self, "label", label)
        _set(self, "sides", sides)
        _set(self, "count", count)
        _set(self, "items", items)
        _set(self, "result", result)

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


def check_events(key: str, events: Sequence[RandomEvent], *, where: Sequence[str] = (),
                 sealed: Sequence[int] = ()) -> tuple[str, ...]:
    """What is wrong with a game's published events drawn with ``key``
    (empty: every one is genuine): an event the key does not give, a
    counter used for two different events, a counter missing between 0 and
    the highest.  The same event published twice (a final report that
    lists every event again) is no problem; ``sealed`` are counters whose
    result is not published yet (a shuffled hidden deck).  ``where`` names
    each event's place (a phase) for the messages."""
    problems = []
    seen: dict[int, tuple[str, RandomEvent]] = {}
    for index, event in enumerate(events):
        place = where[index] if index < len(where) else f"event {index + 1}"
        if event.counter in seen:
            if seen[event.counter][1] != event:
                problems.append(f"{place}: #{event.counter} differs from the event of that number in "
                                f"{seen[event.counter][0]}")
            continue
        seen[event.counter] = (place, event)
        try:
            genuine = recompute(key, event)
        except ValueError as error:
            problems.append(f"{place}: {error}")
            continue
        if genuine.result != event.result:
            problems.append(f"{place}: #{event.counter} {event.label}: published {list(event.result)}, "
                            f"the seed gives {list(genuine.result)}")
    used = set(seen) | set(sealed)
    missing = sorted(set(range(max(used, default=-1) + 1)) - used)
    if missing:
        problems.append("counters never published: " + ", ".join(f"#{n}" for n in missing))
    return tuple(problems)
