"""Confessions and religious warfare of 30JK (seed 004, sections 8, 9, 11).

Pure functions over units and confession states: how long a change of
confession takes, which units religious warfare disbands or turns, and
how transitions end.  The 30JK rules hooks call them at the right moments.
"""

from __future__ import annotations

from collections import Counter
from typing import Iterable, Mapping, Sequence

from adjudicator.games.diplomacy.core.model import Confession, Unit, UnitEvent
from adjudicator.games.randomness import RandomEvent, roll

CONFESSIONS = ("catholic", "protestant")

# (most supply centres, years of transition): section 8's table.
_TRANSITION = ((2, 0), (5, 1), (10, 2), (16, 3))


def other_confession(confession: str) -> str:
    """The other of the two confessions."""
    return CONFESSIONS[1 - CONFESSIONS.index(confession)]


def transition_years(centres: int) -> int:
    """Years a change of confession takes for a power with ``centres``
    supply centres when it orders the change: 1-2 none, 3-5 one, 6-10 two,
    11-16 three, 17 or more four (a power without centres: none)."""
    for most, years in _TRANSITION:
        if centres <= most:
            return years
    return 4


def change_confession(current: Confession, new: str, centres: int, year: int) -> Confession:
    """The state after ordering a change to ``new`` in ``year``: at once for
    small powers, otherwise ``ex-<old>`` until the end of the last year of
    the transition (ruling R31)."""
    years = transition_years(centres)
    if years == 0 or current.settled is None:
        return Confession(new)
    return Confession(f"ex-{current.settled}", year + years - 1)


def end_transitions(confessions: Mapping[str, Confession], year: int) -> dict[str, Confession]:
    """Confessions after the end of ``year``: an ex-state whose last year it
    was becomes the other confession."""
    result = {}
    for power, confession in confessions.items():
        if confession.settled is None and confession.until is not None and confession.until <= year:
            result[power] = Confession(other_confession(confession.state[len("ex-") :]))
        else:
            result[power] = confession
    return result


def religious_warfare(
    units: Sequence[Unit],
    confessions: Mapping[str, Confession],
    incapacitated: Iterable[str],
    neighbours: Mapping[str, frozenset[str]],
) -> tuple[UnitEvent, ...]:
    """Judge every unit against its neighbours, all at once (section 9).

    A unit of a power with a settled confession is disbanded when at least
    two adjacent units are of the other confession and they outnumber the
    adjacent units of its own.  A unit of a power in transition from a
    confession defects when at least two adjacent units hold that former
    confession and outnumber those of the new one: to the power of the
    former confession with most adjacent units, or it is disbanded when
    several tie.  Units of powers in transition and ``incapacitated`` units
    count for nothing, and the latter are not judged.
    """
    at = {u.province: u for u in units}
    disabled = set(incapacitated)

    def held(unit: Unit) -> str | None:
        confession = confessions.get(unit.power)
        return None if unit.province in disabled or confession is None else confession.settled

    events = []
    for unit in units:
        confession = confessions.get(unit.power)
        if confession is None or unit.province in disabled:
            continue
        around = [at[p] for p in sorted(neighbours.get(unit.province, ())) if p in at]
        counts = Counter(held(u) for u in around)
        if confession.settled is not None:
            rival = other_confession(confession.settled)
            if counts[rival] >= 2 and counts[rival] > counts[confession.settled]:
                events.append(UnitEvent(unit, "disbanded"))
            continue
        former = confession.state[len("ex-") :]
        if counts[former] >= 2 and counts[former] > counts[other_confession(former)]:
            powers = Counter(u.power for u in around if held(u) == former)
            most = max(powers.values())
            leaders = sorted(p for p, n in powers.items() if n == most)
            if len(leaders) == 1:
                events.append(UnitEvent(unit, "defected", leaders[0]))
            else:
                events.append(UnitEvent(unit, "disbanded"))
    return tuple(events)


def random_confessions(powers: Sequence[str], key: str, minimum: int = 3) -> tuple[dict[str, str], list[RandomEvent]]:
    """Section 11's random start: each power gets a confession at random,
    every confession at least ``minimum`` times.  Each try is one roll of
    a die per power (one side per confession, powers in ``powers``' order)
    from the game's seed text ``key`` with counters 0, 1, ...; a try
    without every confession ``minimum`` times is drawn again.  Returns
    the draw and every try as a verifiable event."""
    if len(powers) < minimum * len(CONFESSIONS):
        raise ValueError(f"{len(powers)} powers cannot hold each confession {minimum} times")
    events: list[RandomEvent] = []
    while True:
        event = roll(key, len(events), len(CONFESSIONS), f"30JK confessions, try {len(events) + 1}",
                     count=len(powers))
        events.append(event)
        drawn = {power: CONFESSIONS[value - 1] for power, value in zip(powers, event.result)}
        if all(list(drawn.values()).count(c) >= minimum for c in CONFESSIONS):
            return drawn, events
