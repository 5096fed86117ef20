"""Bots for 1847 AE that choose random legal orders (for the seeded
random games of the tests and benchmarks); the randomness is a
``random.Random`` seeded by the caller, never part of a real game."""

from __future__ import annotations

import random
from typing import Any

from adjudicator.games.pfalz1847 import engine
from adjudicator.games.pfalz1847.data import GameData
from adjudicator.games.pfalz1847.orders import Order


def random_order(data: GameData, g: dict[str, Any], rng: random.Random) -> Order:
    """A random legal order for the seat on turn, found by trying the
    candidates in random order (acting four times as often as passing)."""
    seat = engine.actor(data, g)
    candidates = engine.candidate_orders(data, g, limit_lays=30)
    rng.shuffle(candidates)
    passing = [o for o in candidates if str(o) in ("PASS", "DONE")]
    acting = [o for o in candidates if str(o) not in ("PASS", "DONE")]
    for order in (acting + passing if rng.random() < 0.8 else passing + acting):
        try:
            engine.apply(data, g, seat or "", order)
        except engine.Refusal:
            continue
        return order
    raise AssertionError("no legal order")  # pragma: no cover - PASS or DONE is always legal


def random_game(data: GameData, seed: int, players: int, max_steps: int = 5000,
                steady: bool = False) -> tuple[dict[str, Any], int]:
    """A game of bots to its end (or ``max_steps`` orders): random legal
    orders, or with ``steady`` those of ``steady_order``; raises
    ``AssertionError`` the moment the money does not add up."""
    rng = random.Random(seed)
    g = engine.new_game(data, players)
    total = engine.money_total(g)
    steps = 0
    while not g["over"] and steps < max_steps:
        seat = engine.actor(data, g)
        assert seat is not None
        g = engine.apply(data, g, seat, (steady_order if steady else random_order)(data, g, rng))
        if engine.money_total(g) != total:
            raise AssertionError(f"money changed at order {steps}: {engine.money_total(g)} != {total}")
        steps += 1
    return g, steps


def steady_order(data: GameData, g: dict[str, Any], rng: random.Random) -> Order:
    """A random legal order of a bot that plays on: it buys shares but
    never sells, lays track often, runs its best routes, pays out and
    buys a train whenever its company can."""
    seat = engine.actor(data, g)
    candidates = engine.candidate_orders(data, g, limit_lays=30)
    rng.shuffle(candidates)
    kind = g["round"]["kind"]

    def legal(order: Order) -> bool:
        try:
            engine.apply(data, g, seat or "", order)
        except engine.Refusal:
            return False
        return True

    if kind == "OR":
        step = g["round"]["step"]
        wanted = {"track": ("LAY",), "station": ("STATION",), "run": ("DIVIDEND",), "dividend": ("DIVIDEND",),
                  "trains": ("BUY TRAIN",)}[step]
        chance = {"track": 0.8, "station": 0.4, "run": 1.0, "dividend": 1.0, "trains": 0.9}[step]
        if rng.random() < chance:
            for order in candidates:
                text = str(order)
                if text.startswith(wanted) and " FROM " not in text and legal(order):
                    return order
        for order in candidates:
            if str(order) == ("DONE" if step == "trains" else "PASS") and legal(order):
                return order
    elif rng.random() < 0.7:
        for order in candidates:
            if str(order).startswith(("BUY", "PAR", "EXCHANGE")) and legal(order):
                return order
    return random_order(data, g, rng) if kind == "OR" else next(o for o in candidates if str(o) == "PASS")
