"""Shared helpers of the 1847 AE tests: the game data, a position
driver that checks money after every order, and the seed's example as a
script."""

from __future__ import annotations

import random
from typing import Any

from adjudicator.games.pfalz1847 import bots, engine
from adjudicator.games.pfalz1847.data import GameData, game_data
from adjudicator.games.pfalz1847.parse import parse_line

DATA: GameData = game_data()

# The seed's "Eine Round Schritt für Schritt": 4 players with 390M; the
# purchases of the others are one order of buying "the rest" that leaves
# S1 unable to buy with 83M (the example names only what they buy).
EXAMPLE_SR1 = [
    ("S4", "BUY SCR"), ("S3", "BUY VIW"), ("S2", "BUY MNR"),
    ("S1", "BUY PLP"), ("S1", "BUY W"),
    ("S2", "BUY K"), ("S3", "BUY LFKC"), ("S4", "BUY R"),
    ("S1", "PASS"), ("S2", "BUY SPR"), ("S3", "BUY H"),
    ("S4", "PASS"), ("S1", "PASS"), ("S2", "PASS"), ("S3", "PASS"),
]


class Table:
    """A game position that orders are applied to; money is checked
    after every order."""

    def __init__(self, players: int = 4, g: dict[str, Any] | None = None, data: GameData = DATA) -> None:
        self.data = data
        self.g = g if g is not None else engine.new_game(data, players)
        self.total = engine.money_total(self.g)

    def do(self, seat: str, line: str) -> "Table":
        """Apply one order line of ``seat``."""
        self.g = engine.apply(self.data, self.g, seat, parse_line(line))
        assert engine.money_total(self.g) == self.total
        return self

    def script(self, steps: list[tuple[str, str]]) -> "Table":
        """Apply several orders."""
        for seat, line in steps:
            self.do(seat, line)
        return self

    def refused(self, seat: str, line: str) -> engine.Refusal:
        """The refusal of an order (the position stays as it was)."""
        before = self.g
        try:
            engine.apply(self.data, self.g, seat, parse_line(line))
        except engine.Refusal as refusal:
            assert self.g == before
            return refusal
        raise AssertionError(f"{line} was accepted")

    def cash(self, who: str) -> int:
        return int(self.g["cash"][who])

    def price(self, company: str) -> int:
        return engine.price(self.data, self.g, company)

    @property
    def seat(self) -> str | None:
        return engine.actor(self.data, self.g)


def quick_bot_order(data: GameData, g: dict[str, Any], rng: random.Random) -> Any:
    """A random legal order (``bots.random_order``)."""
    return bots.random_order(data, g, rng)


def random_game(seed: int, players: int, max_steps: int = 5000, steady: bool = False) -> tuple[dict[str, Any], int]:
    """A seeded bots' game on the game data, money checked after every order."""
    return bots.random_game(DATA, seed, players, max_steps, steady)
