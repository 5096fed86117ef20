"""A pure driver of Liberté through its game module, as the judge would
run a turn-based game: ask who acts, send each seat's lines through
``check_orders``, resolve when every acting seat has answered."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, Callable

from adjudicator.games.base import Resolution
from adjudicator.games.liberte import Liberte
from adjudicator.games.liberte.data import FACTIONS, standin
from adjudicator.games.liberte.state import every_card

Chooser = Callable[[dict[str, Any], str, list[str]], list[str]]


def start(players: int = 4, seed: int = 1, **options: Any) -> tuple[Liberte, dict[str, Any]]:
    """A module and a first state with the stand-in data."""
    module = Liberte(players, f"liberte{players}")
    return module, module.start({"data": "standin", **options}, seed)


def step(module: Liberte, state: dict[str, Any], orders: dict[str, list[str]]) -> Resolution:
    """Check every acting seat's lines (all must be accepted) and resolve."""
    accepted: dict[str, list[str]] = {}
    for seat in module.must_act(state):
        lines = list(enumerate(orders.get(seat, []), start=1))
        check = module.check_orders(state, seat, lines)
        assert not check.problems, (seat, lines, [p.message for p in check.problems])
        accepted[seat] = [a.canonical for a in check.accepted]
    return module.resolve(state, accepted)


def random_chooser(rng: random.Random) -> Chooser:
    """A bot that picks one of the legal orders at random (plays most often)."""
    def choose(state: dict[str, Any], seat: str, legal: list[str]) -> list[str]:
        plays = [o for o in legal if o.startswith(("PLAY", "SPECIAL"))]
        if plays and rng.random() < 0.8:
            return [rng.choice(plays)]
        return [rng.choice(legal)]
    return choose


def leaning_chooser(rng: random.Random, faction: str) -> Chooser:
    """A bot that favours one faction: red spreads red blocks over empty
    provinces and takes red cards rather than play others (it drives
    radical landslides); white aims at the CR provinces (counter-revolutions)."""
    data = standin()

    def choose(state: dict[str, Any], seat: str, legal: list[str]) -> list[str]:
        plays = [o for o in legal if o.startswith("PLAY") and " BATTLE" not in o]
        favoured = [o for o in plays if data.cards[o.split()[1]].faction == faction]
        board = state["game"]["board"]
        if faction == "red":
            spread = [o for o in favoured if len(set(o.split()[2:-1])) == len(o.split()[2:-1])
                      and all(not board.get(w) for w in o.split()[2:-1])]
            favoured = spread or favoured
        else:
            favoured = [o for o in favoured if any(w in data.provinces and data.provinces[w].cr
                                                   for w in o.split()[2:-1])] or favoured
        if favoured and rng.random() < 0.9:
            return [rng.choice(favoured)]
        if faction == "red":
            takes = [o for o in legal if o.startswith("TAKE") and o.split()[1] != "DECK"
                     and data.cards[o.split()[1]].faction == "red"] or [o for o in legal if o.startswith("TAKE")]
            if takes:
                return [rng.choice(takes)]
        if plays and rng.random() < 0.7:
            return [rng.choice(plays)]
        return [rng.choice(legal)]
    return choose


def check_invariants(state: dict[str, Any]) -> None:
    """No card lost or doubled, no block made or lost, markers within 20."""
    g = state["game"]
    data = standin()
    cards = Counter(every_card(g))
    assert cards == Counter(list(data.cards)), "cards lost or doubled"
    for faction in FACTIONS:
        on_board = sum(s[2] for province in g["board"].values() for s in province if s[1] == faction)
        acquired = sum(g["acquired"][p][faction] for p in g["players"])
        total = on_board + acquired + g["supply"][faction] + g["track"][faction]
        assert total == data.supply[faction], (faction, total)
    for province in g["board"].values():
        assert len(province) <= 3 and all(1 <= s[2] <= 3 for s in province)
        assert len({s[0] for s in province}) == len(province)


def play(module: Liberte, state: dict[str, Any], choose: Chooser, limit: int = 5000
         ) -> tuple[dict[str, Any], list[Resolution]]:
    """Play to the end; returns the last state and every resolution."""
    done: list[Resolution] = []
    for _ in range(limit):
        acting = module.must_act(state)
        if not acting:
            break
        orders = {seat: choose(state, seat, module.legal_orders(state, seat)) for seat in acting}
        resolution = step(module, state, orders)
        done.append(resolution)
        state = resolution.state
        check_invariants(state)
        if resolution.next_phase is None:
            break
    return state, done
