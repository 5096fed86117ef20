"""Whole games of 1848 played to the end through the game module.

Two players choose at random (seeded) among the orders open to them and
send them as mail lines through ``check_orders`` and ``resolve``, as the
judge does, until the game is over.  After every step no card has been
lost or doubled, every report renders in both languages, and at the end
the score is the one the final scoring computes.
"""

from __future__ import annotations

import random
from collections import Counter
from types import SimpleNamespace
from typing import Any

import pytest

from adjudicator.games.revolution1848 import Revolution1848
from adjudicator.games.revolution1848.cards import card_data_from_overlay
from adjudicator.games.revolution1848.flow import score
from adjudicator.games.revolution1848.state import PLAYERS, Game, from_json
from adjudicator.service.render import Texts, render
from tests.revolution1848.helpers import COMPLETE

MODULE = Revolution1848()


def cards_everywhere(game: Game) -> Counter[str]:
    """Every person and extra card of the game, wherever it is."""
    places: list[str] = [*game.person_deck, *game.extra_deck, *game.person_discard, *game.extra_discard,
                         *game.removed]
    for player in PLAYERS:
        side = game.side(player)
        places += [*side.hand, *(p.card for p in side.table)]
    places += [c for army in game.armies for c in army.cards if not c.startswith("A")]
    return Counter(places)


def rendered(state: dict[str, Any], report: dict[str, Any], phase: str, language: str) -> str:
    record = SimpleNamespace(name="spiel", status="finished" if report["next_phase"] is None else "active",
                             phase=state["phase"], deadline=None, outcome="over")
    texts = Texts(language, "Europe/Berlin")
    name = lambda p: MODULE.power_name(p, language)  # noqa: E731
    text = render("revolution1848_report.txt.j2", texts, name, judge="j@x", game=record, report=report, late=[],
                  phase=phase)
    render("revolution1848_report.html.j2", texts, name, judge="j@x", game=record, report=report, late=[],
           phase=phase)
    return text


def play_game(seed: int, rng_seed: int) -> tuple[dict[str, Any], list[str], Any]:
    rng = random.Random(rng_seed)
    state = MODULE.start(dict(COMPLETE), seed)
    data = card_data_from_overlay(state["overlay"])
    every = Counter(list(data.persons) + list(data.extras))
    phases: list[str] = []
    resolution = None
    for _ in range(5000):
        orders: dict[str, list[str]] = {}
        for player in MODULE.must_act(state):
            options = MODULE.legal_orders(state, player)
            if not options or rng.random() < 0.05:
                continue  # no mail: the rules' default
            choice = rng.choice(options)
            check = MODULE.check_orders(state, player, [(1, choice)])
            assert not check.problems and check.accepted[0].canonical == choice, (state["phase"], choice, check)
            orders[player] = [choice]
        resolution = MODULE.resolve(state, orders)
        phases.append(resolution.phase)
        state = resolution.state
        game = from_json(state["game"])
        assert cards_everywhere(game) == every, resolution.phase
        if len(phases) % 40 == 1 or resolution.next_phase is None:
            for language in ("de", "en"):
                rendered(state, resolution.report, resolution.phase, language)
        if resolution.next_phase is None:
            break
    return state, phases, resolution


@pytest.mark.parametrize(("seed", "rng_seed"), [(1, 1), (2, 7), (3, 11)])
def test_a_complete_game_is_played_to_its_end(seed: int, rng_seed: int) -> None:
    state, phases, resolution = play_game(seed, rng_seed)
    assert resolution is not None and resolution.next_phase is None, phases[-5:]
    game = from_json(state["game"])
    data = card_data_from_overlay(state["overlay"])
    assert game.step == "over" and game.ended in ("A25", "A26")
    totals = {p: s["total"] for p, s in score(game, data, game.ended).items()}
    assert MODULE.standings(state) == totals
    if totals["A"] == totals["B"]:
        assert resolution.winner is None and resolution.draw == f"{totals['A']}:{totals['B']}"
    else:
        assert resolution.winner == max(totals, key=lambda p: totals[p])
    # The phases have stable, unique names and the flow went past the parliaments.
    assert len(set(phases)) == len(phases)
    assert any("A05-P" in p for p in phases) and any("A11-X1" in p for p in phases)
    final = resolution.report["final"]
    assert final is not None and [row["total"] for row in final["rows"]] == [totals["A"], totals["B"]]
    text = rendered(state, resolution.report, resolution.phase, "en")
    assert "Final scoring:" in text and "forecast" in text


def test_the_same_seed_and_plays_replay_the_same_game() -> None:
    first, phases_1, _ = play_game(4, 5)
    second, phases_2, _ = play_game(4, 5)
    assert phases_1 == phases_2 and first == second


def test_the_seeded_games_go_through_every_kind_of_step() -> None:
    """Together the seeded games take the Liberal faction (F), put armies
    under the parliament (J) and play the stand-in's Kaiserwahl (A23, the
    total-value mode)."""
    tags = set()
    for seed, rng_seed in ((1, 1), (2, 7), (3, 11)):
        _, phases, _ = play_game(seed, rng_seed)
        tags |= {p.split("-")[-1] for p in phases}
        assert any(p.startswith(("R2", "R3")) and "A23-" in p for p in phases)
    assert {"K", "1", "V", "M1", "M2", "P", "X1", "X2", "F", "J"} <= tags
    assert card_data_from_overlay(MODULE.start(dict(COMPLETE), 1)["overlay"]).flows["A23"].mode == "gesamtwert"
