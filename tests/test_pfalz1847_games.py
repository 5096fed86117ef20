"""Seeded random games of 1847 AE for 3, 4 and 5 players (bots choosing
random legal orders, and steadier ones that buy, build, run and pay)
run to their end (a bank break or a bankruptcy),
with the money checked after every order.  ``benchmarks/pfalz1847_games.py``
plays 200 of them and prints the figures."""

from __future__ import annotations

import pytest

from adjudicator.games.pfalz1847 import engine
from tests.pfalz1847_helpers import DATA, random_game


@pytest.mark.parametrize("seed", range(12))
def test_a_random_game_runs_to_its_end_with_money_conserved(seed: int) -> None:
    players = 3 + seed % 3
    g, steps = random_game(seed, players)
    assert g["over"], f"game {seed} did not end in {steps} orders"
    assert g["result"]["why"] in ("bank", "bankruptcy")
    assert engine.money_total(g) == DATA.bank_cash
    assert set(g["result"]["scores"]) == set(engine.seats(players))


@pytest.mark.parametrize("seed", range(3))
def test_a_steady_game_runs_to_a_bank_break_with_money_conserved(seed: int) -> None:
    players = 3 + seed % 3
    g, steps = random_game(seed, players, steady=True)
    assert g["over"] and g["result"]["why"] == "bank", f"game {seed}: {g['result']} after {steps} orders"
    assert g["bank_broken"] and g["bank"] < 0
    assert engine.money_total(g) == DATA.bank_cash
    scores = g["result"]["scores"]
    assert all(scores[p] == engine.score(DATA, g, p) for p in scores)
