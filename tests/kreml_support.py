"""Building Kreml positions for scenario tests: a placement of the
politicians, leaders, notes, illness and ages, a seed that gives the dice a
test needs, and a pure driver that plays a step with orders."""

from __future__ import annotations

import copy
from typing import Any, Callable

from adjudicator.games import randomness
from adjudicator.games.kreml import data, flow
from adjudicator.games.kreml.orders import Order
from adjudicator.games.kreml.parse import parse_line, resolve
from adjudicator.games.kreml.rules import DEFAULTS, JSON

NESTOR = "Nestor Aparatschik"
STANDARD = {"chief": NESTOR, "kgb": "Juri Kaderow", "foreign": "Michail Mandatow", "defence": "Grigori Direktiwin",
            "ideology": "Igor Ideolow", "industry": "Nikolai Normow", "agriculture": "Wassili Datschnik",
            "sport": "Viktor Wodkin",
            "candidate": ["Anatoli Apparatow", "Gennadi Genossow", "Oleg Orthodow", "Pjotr Plansoll", "Ruslan Resolutow"]}
PLAYERS = ("A", "B", "C", "D")


def dice(*wanted: int | Callable[[int], bool] | None, counter: int = 1) -> str:
    """A seed whose W20 rolls from event ``counter`` on are ``wanted``
    (a number, a test on the number, or None for any)."""
    for index in range(500000):
        seed = f"t{index}"
        ok = True
        for offset, want in enumerate(wanted):
            value = randomness.roll(seed, counter + offset, 20).result[0]
            if want is None:
                continue
            if (callable(want) and not want(value)) or (not callable(want) and value != want):
                ok = False
                break
        if ok:
            return seed
    raise AssertionError("no seed found")


def game(places: dict[str, Any] | None = None, *, rules: dict[str, int] | None = None,
         leaders: dict[str, tuple[str, int]] | None = None, notes: dict[str, dict[str, int]] | None = None,
         ill: dict[str, int] | None = None, ages: dict[str, int] | None = None, inv: dict[str, int] | None = None,
         cure: tuple[str, ...] = (), year: int = 1, seed: str = "t", players: tuple[str, ...] = PLAYERS,
         seniority: tuple[str, ...] | None = None) -> JSON:
    """A state in ``year`` before any phase: everyone at ``places`` (the
    rest among the people), with the leaders, notes (filled up to ten
    politicians each), illness, ages, investigations and cures given."""
    chosen = dict(DEFAULTS)
    chosen.update(rules or {})
    state = flow.new_game(data.standin(), players, seniority or players, chosen, seed)
    for entry in state["pol"].values():
        entry["where"], entry["ill"] = "people", 0
    for place, who in (places if places is not None else STANDARD).items():
        for name in ([who] if isinstance(who, str) else who):
            state["pol"][name]["where"] = place
    for name, value in (ill if ill is not None else {"Nestor Aparatschik": 1}).items():
        state["pol"][name]["ill"] = value
    for name, value in (ages or {}).items():
        state["pol"][name]["age"] = value
    for name, value in (inv or {}).items():
        state["pol"][name]["inv"] = value
    for name in cure:
        state["pol"][name]["cure"] = True
    state["leaders"] = {n: list(v) for n, v in (leaders or {}).items()}
    given = copy.deepcopy(notes or {})
    others = [n for n in state["pol"] if n != NESTOR]
    for player in players:
        note = given.setdefault(player, {})
        for name, (who, points) in (leaders or {}).items():
            if who == player and name not in note:
                note[name] = points
        free = [p for p in range(10, 0, -1) if p not in note.values()]
        for name in others:
            if len(note) >= 10:
                break
            if name not in note:
                note[name] = free.pop(0)
    state["notes"] = given
    state["year"], state["step"], state["phase"] = year, {"kind": "goto", "to": "p1"}, "test"
    state["counter"] = 1
    return state


def at_phase(state: JSON, phase: int, until: int | None = None) -> JSON:
    """Run ``state`` from the start of ``phase`` up to the first step that
    waits; the game stops before phase ``until + 1`` (default: ``phase``)."""
    state = copy.deepcopy(state)
    state["step"] = {"kind": "goto", "to": f"p{phase}"}
    last = until or phase
    state["halt"] = f"p{last + 1}" if last < 8 else "end_of_year"
    return flow.play(state, {})


def orders(**by_player: str | list[str]) -> dict[str, list[Order]]:
    """Orders as mail lines per player, read as the module reads them."""
    names = [p.name for p in data.standin().politicians]
    found: dict[str, list[Order]] = {}
    for player, lines in by_player.items():
        for line in [lines] if isinstance(lines, str) else lines:
            found.setdefault(player, []).append(resolve(parse_line(line), names))
    return found


def play(state: JSON, **by_player: str | list[str]) -> JSON:
    """``flow.play`` with mail lines per player."""
    return flow.play(state, orders(**by_player))


def keys(state: JSON) -> list[str]:
    """The event keys of the last resolution."""
    return [e["key"] for e in state["events"]]


def event(state: JSON, key: str) -> dict[str, Any]:
    """The arguments of the last resolution's first event ``key``."""
    return next(e["args"] for e in state["events"] if e["key"] == key)
