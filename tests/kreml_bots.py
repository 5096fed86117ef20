"""Bots for Kreml: players choosing random legal orders through the game
module's interface, and a driver that plays a whole game with them."""

from __future__ import annotations

import random
from typing import Any

from adjudicator.games.base import Resolution
from adjudicator.games.kreml.module import KremlGame

NESTOR = "Nestor Aparatschik"


def bot_lines(module: KremlGame, state: dict[str, Any], power: str, rng: random.Random,
              brief: float = 0.0) -> list[str]:
    """The mail lines a bot sends now: its step order (from
    ``legal_orders``) when it is a seat, sometimes a reveal; with
    probability ``brief`` it ends a running action (END) when it may."""
    turn = module.turn(state)
    if turn is None:
        return []
    if state["step"]["kind"] == "notes":
        names = [p for p in state["pol"] if p != NESTOR]
        return [f"NOTIZ {name} {points}" for points, name in enumerate(rng.sample(names, 10), start=1)]
    options = module.legal_orders(state, power)
    lines = []
    if power in turn.seats:
        acts = [o for o in options if o.verb not in ("REVEAL", "EVENT")]
        assert acts, (power, state["step"])
        ending = [o for o in acts if o.verb == "END"]
        lines.append(str(ending[0] if ending and rng.random() < brief else rng.choice(acts)))
    reveals = [o for o in options if o.verb == "REVEAL"]
    if reveals and rng.random() < 0.3:
        lines.append(str(rng.choice(reveals)))
    plays = [o for o in options if o.verb == "EVENT"]
    if plays and rng.random() < 0.2:
        lines.append(str(rng.choice(plays)))
    return lines


def play_game(module: KremlGame, options: dict[str, Any], seed: int, limit: int = 3000) -> tuple[dict[str, Any],
                                                                                                 list[Resolution]]:
    """A whole game of bots; every order a bot gives must be accepted."""
    rng = random.Random(seed)
    state = module.start({"data": "standin", **options}, seed)
    resolutions: list[Resolution] = []
    while module.turn(state) is not None:
        assert len(resolutions) < limit, "the game does not end"
        orders: dict[str, list[str]] = {}
        for power in module.powers():
            lines = bot_lines(module, state, power, rng)
            if not lines:
                continue
            check = module.check_orders(state, power, list(enumerate(lines, start=1)))
            assert not check.problems, (lines, check.problems, state["step"])
            orders[power] = [a.canonical for a in check.accepted]
        resolution = module.resolve(state, orders)
        resolutions.append(resolution)
        state = resolution.state
    return state, resolutions
