"""The movement resolver's short cuts answer as the full guess algorithm
does (issue 20).

``resolve_movement`` takes the decisions without the guess algorithm's
bookkeeping until it meets a cycle, then starts again with the full
algorithm (DATC 5.F); and it gives a failed move's reason from what that
quick pass met instead of working it out again.  Here the resolver is
made to guess from its first decision on, and every answer (results,
reasons, units, retreats, standoffs) must be the same as without: over
the DATC cases (circular movements and convoy paradoxes among them) and
seeded random phases on both maps.  The set-up's own short cuts (the
supports nobody attacks, the moves into an empty province whose supports
are all settled) are pinned case by case at the end.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar
from unittest import mock

import pytest

from adjudicator.games.diplomacy.core import movement
from adjudicator.games.diplomacy.core.board import Board
from adjudicator.games.diplomacy.core.engine import adjudicate
from adjudicator.games.diplomacy.core.mapdata import load_map
from adjudicator.games.diplomacy.core.model import ARMY, FLEET, Phase, Position, Unit
from adjudicator.games.diplomacy.core.orders import Order
from tests.test_datc import _cases, play
from tests.test_random_phases import _orders, _position

T = TypeVar("T")
PHASES = 150  # per map


@contextmanager
def _guessing_throughout() -> Iterator[None]:
    """Every resolver made meanwhile guesses from its first decision on."""
    made = movement._Resolver.__init__

    def guessing(self: movement._Resolver, board: Board, orders: dict[str, Order]) -> None:
        made(self, board, orders)
        self._start_guessing()

    with mock.patch.object(movement._Resolver, "__init__", guessing):
        yield


def _both(run: Callable[[], T]) -> tuple[T, T]:
    quick = run()
    with _guessing_throughout():
        return quick, run()


@pytest.mark.parametrize("case", _cases())
def test_a_datc_case_gives_the_same_answers_guessing_throughout(case: dict[str, Any]) -> None:
    quick, guessing = _both(lambda: play(case))
    assert quick == guessing


def test_random_phases_give_the_same_answers_guessing_throughout() -> None:
    for name in ("standard", "30jk"):
        game_map = load_map(name)
        rng = random.Random(f"resolver equivalence {name}")
        phases = [(p, _orders(rng, game_map, p)) for p in (_position(rng, game_map) for _ in range(PHASES))]
        quick, guessing = _both(lambda: [adjudicate(game_map, position, orders) for position, orders in phases])
        for (_, orders), one, other in zip(phases, quick, guessing):
            assert one == other, orders


# The set-up's short cuts, each with the answer the general rules give
# (DATC 5.B): (units, orders, {order: (result, reason)}, standoffs).
SHORT_CUTS = {
    "equally supported moves into an empty province all bounce": (
        ["Austria A VIE", "Austria A BUD", "Russia A WAR", "Russia A UKR"],
        {"Austria": ["A VIE - GAL", "A BUD S A VIE - GAL"], "Russia": ["A WAR - GAL", "A UKR S A WAR - GAL"]},
        {"A VIE - GAL": ("fails", "bounced"), "A WAR - GAL": ("fails", "bounced")},
        {"GAL"},
    ),
    "the one strongest of three moves into an empty province gets in": (
        ["Austria A VIE", "Austria A BUD", "Russia A WAR", "Germany A SIL"],
        {"Austria": ["A BUD - GAL", "A VIE S A BUD - GAL"], "Russia": ["A WAR - GAL"], "Germany": ["A SIL - GAL"]},
        {"A BUD - GAL": ("succeeds", ""), "A WAR - GAL": ("fails", "bounced"), "A SIL - GAL": ("fails", "bounced")},
        set(),
    ),
    "a support cut by a move by land does not count": (
        ["Austria A VIE", "Austria A BUD", "Russia A WAR", "Russia A RUM"],
        {"Austria": ["A VIE - GAL", "A BUD S A VIE - GAL"], "Russia": ["A WAR - GAL", "A RUM - BUD"]},
        {"A BUD S A VIE - GAL": ("fails", "cut"), "A VIE - GAL": ("fails", "bounced")},
        {"GAL"},
    ),
    "a support attacked only by its own power is given": (
        ["Austria A VIE", "Austria A BUD", "Austria A SER", "Russia A WAR"],
        {"Austria": ["A VIE - GAL", "A BUD S A VIE - GAL", "A SER - BUD"], "Russia": ["A WAR - GAL"]},
        {
            "A BUD S A VIE - GAL": ("succeeds", ""),
            "A VIE - GAL": ("succeeds", ""),
            "A SER - BUD": ("fails", "cannot dislodge a unit of its own power"),
        },
        set(),
    ),
    "a support from the attacked unit's power does not count against it": (
        ["Austria A VIE", "Russia A GAL", "Russia A WAR"],
        {"Austria": ["A VIE - GAL"], "Russia": ["A WAR S A VIE - GAL", "A GAL H"]},
        {"A VIE - GAL": ("fails", "bounced"), "A WAR S A VIE - GAL": ("succeeds", "")},
        set(),
    ),
}


@pytest.mark.parametrize("name", SHORT_CUTS)
def test_a_set_up_short_cut_gives_the_general_answer(name: str) -> None:
    units, orders, expected, standoffs = SHORT_CUTS[name]
    game_map = load_map("standard")
    placed = tuple(
        Unit(power, ARMY if kind == "A" else FLEET, location) for power, kind, location in map(str.split, units)
    )
    result = adjudicate(game_map, Position(Phase.parse("S1902M"), placed, game_map.initial_centres()), orders)
    results = {report.order: (report.result, report.reason) for report in result.reports}
    assert {order: results[order] for order in expected} == expected
    assert result.standoffs == frozenset(standoffs)
    assert result.dislodged == ()
