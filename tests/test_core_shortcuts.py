"""The rules core's short cuts of issue 20's last round give the answers of
the code they replaced: an order's canonical text kept on the order, the
convoy route search over a fixed set of fleets, the convoying fleet next
to the army that needs no chain search, the adjustment check told the
occupied provinces, and the orders handed to the resolver as written
rather than in the board's order."""

from __future__ import annotations

import copy
import dataclasses
import pickle
import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from unittest import mock

import pytest

from adjudicator.games.diplomacy.core import engine
from adjudicator.games.diplomacy.core.board import Board, route_exists
from adjudicator.games.diplomacy.core.engine import adjudicate, initial_position
from adjudicator.games.diplomacy.core.errors import Illegal
from adjudicator.games.diplomacy.core.legality import check_movement_order
from adjudicator.games.diplomacy.core.mapdata import load_map
from adjudicator.games.diplomacy.core.model import ARMY, FLEET, MOVEMENT, Phase, Position, Unit
from adjudicator.games.diplomacy.core.movement import MovementOutcome, resolve_movement
from adjudicator.games.diplomacy.core.orders import (
    Build, ConfessionChange, Convoy, Disband, Hold, Move, Order, Remove, Retreat, SupportHold, SupportMove, Transform,
    Waive,
)
from adjudicator.games.diplomacy.core.tally import needs_adjustment, tables
from adjudicator.games.diplomacy.variants import rules_for
from tests.test_datc import _cases, play
from tests.test_random_phases import _orders, _position

ORDERS: dict[Order, str] = {
    Hold(ARMY, "VIE"): "A VIE H",
    Move(ARMY, "VIE", "GAL"): "A VIE - GAL",
    Move(ARMY, "LON", "NWY", True): "A LON - NWY VIA CONVOY",
    Move(FLEET, "RHE", "MAI", False, ("KOE",)): "F RHE - KOE - MAI",
    SupportHold(ARMY, "BUD", FLEET, "TRI"): "A BUD S F TRI",
    SupportMove(FLEET, "NTH", ARMY, "LON", "NWY"): "F NTH S A LON - NWY",
    Convoy(FLEET, "NTH", ARMY, "LON", "NWY"): "F NTH C A LON - NWY",
    Retreat(FLEET, "STP/SC", "BOT"): "F STP/SC - BOT",
    Disband(None, "VIE"): "VIE DISBAND",
    Build(FLEET, "STP/NC"): "BUILD F STP/NC",
    Remove(ARMY, "PAR"): "REMOVE A PAR",
    Transform(ARMY, "SIN", FLEET, "NC"): "A SIN T F/NC",
    ConfessionChange("protestant"): "CONFESSION PROTESTANT",
    Waive(): "WAIVE",
}


@pytest.mark.parametrize("order", list(ORDERS), ids=list(ORDERS.values()))
def test_an_order_keeps_its_text_once_made_and_is_the_same_value(order: Order) -> None:
    fresh = dataclasses.replace(order)  # a new value equal to it, its text not yet made
    text = ORDERS[order]
    assert fresh.kept_text is None
    assert str(fresh) == text
    assert fresh.kept_text == text
    assert str(fresh) == text  # the kept text, asked again
    made = dataclasses.replace(fresh)
    # The kept text is neither compared, hashed, shown nor a field of __init__.
    assert made == fresh and hash(made) == hash(fresh) and made.kept_text is None
    assert "kept_text" not in repr(fresh)
    assert pickle.loads(pickle.dumps(fresh)) == fresh
    assert str(copy.deepcopy(fresh)) == text
    with pytest.raises(dataclasses.FrozenInstanceError):
        fresh.kept_text = "A VIE - BOH"


def test_a_changed_order_composes_its_own_text() -> None:
    order = Move(ARMY, "VIE", "GAL")
    assert str(order) == "A VIE - GAL"
    assert str(dataclasses.replace(order, destination="BOH")) == "A VIE - BOH"


def _random_board(rng: random.Random, map_name: str) -> Board:
    game_map = load_map(map_name)
    units = []
    for province in sorted(game_map.provinces.values(), key=lambda p: p.key):
        if rng.random() < 0.45:
            if province.terrain != "sea" and (not province.fleet or rng.random() < 0.5):
                units.append(Unit("England", ARMY, province.key))
            elif province.fleet:
                units.append(Unit("France", FLEET, rng.choice(sorted(province.fleet))))
    return Board(game_map, rules_for(game_map), units)


@pytest.mark.parametrize("map_name", ["standard", "30jk"])
def test_the_convoy_route_search_answers_as_the_general_search(map_name: str) -> None:
    """``convoy_route_possible`` (fleets picked out by set intersection)
    against ``route_exists`` asked fleet by fleet, for every pair of
    coastal provinces of random boards, with and without a fleet left out."""
    rng = random.Random(f"routes {map_name}")
    checked = found = 0
    for _ in range(12):
        board = _random_board(rng, map_name)
        coasts = sorted(board.coasts)
        fleets = board.convoy_fleets
        for origin in rng.sample(coasts, 12):
            for destination in rng.sample(coasts, 12):
                if origin == destination:
                    continue
                for excluded in (None, *sorted(fleets)[:2]):
                    usable = fleets - {excluded} if excluded else fleets
                    expected = route_exists(origin, destination, usable.__contains__, board)
                    assert board.convoy_route_possible(origin, destination, excluded) is expected
                    checked += 1
                    found += expected
    assert found and found < checked  # both answers occur


def test_a_fleet_next_to_the_army_that_reaches_the_destination_may_convoy_it() -> None:
    """The short cut of the convoy check (no chain search) and the search
    agree.  F NTH, next to A YOR, reaches BEL: legal without a search.  F
    AEG is next to A SMY but does not reach TUN, and F ION is not next to
    it: both legal, on the chain AEG-ION.  F NWG next to A EDI does not
    reach BEL, and its chain through F NTH is not chordless (the army
    could board F NTH directly): illegal, as is F BAR, on no chain."""
    game_map = load_map("standard")
    board = Board(game_map, rules_for(game_map), [
        Unit("England", ARMY, "YOR"), Unit("England", ARMY, "EDI"), Unit("England", FLEET, "NTH"),
        Unit("England", FLEET, "NWG"), Unit("Russia", FLEET, "BAR"),
        Unit("Turkey", ARMY, "SMY"), Unit("Turkey", FLEET, "AEG"), Unit("Turkey", FLEET, "ION"),
    ])
    for power, order in [
        ("England", Convoy(FLEET, "NTH", ARMY, "YOR", "BEL")),
        ("Turkey", Convoy(FLEET, "AEG", ARMY, "SMY", "TUN")),
        ("Turkey", Convoy(FLEET, "ION", ARMY, "SMY", "TUN")),
    ]:
        assert check_movement_order(board, power, order) is order
    assert board.necessary_fleets("YOR", "BEL") == {"NTH"}
    assert board.necessary_fleets("SMY", "TUN") == {"AEG", "ION"}
    for power, order in [
        ("England", Convoy(FLEET, "NWG", ARMY, "EDI", "BEL")),
        ("Russia", Convoy(FLEET, "BAR", ARMY, "EDI", "BEL")),
    ]:
        with pytest.raises(Illegal, match="is not on any convoy route from EDI to BEL"):
            check_movement_order(board, power, order)


def test_the_adjustment_check_told_the_occupied_provinces_answers_as_without() -> None:
    game_map = load_map("standard")
    tally = tables(game_map)
    start = initial_position(game_map)
    rng = random.Random("adjustments")
    answers = set()
    for _ in range(200):
        units = tuple(rng.sample(start.units, rng.randrange(len(start.units) + 1)))
        centres = dict(rng.sample(sorted(start.centres.items()), rng.randrange(len(start.centres) + 1)))
        owners = sorted(centres.values())
        occupied = frozenset(unit.province for unit in units)
        answer = needs_adjustment(tally, centres, owners, units, occupied)
        assert answer is needs_adjustment(tally, centres, owners, units)
        answers.add(answer)
    assert answers == {True, False}


@pytest.mark.parametrize(("move", "next_phase"), [("A PIC - BEL", "W1901A"), ("A PIC - PAR", "S1902M")])
def test_the_end_of_a_fall_turn_counts_the_provinces_occupied_after_the_moves(move: str, next_phase: str) -> None:
    """France owns a centre more than it has units and its home PAR stands
    empty: it builds if PAR is still empty after the fall turn (A PIC -
    BEL), not if its army has just moved in (A PIC - PAR)."""
    game_map = load_map("standard")
    start = initial_position(game_map)
    units = tuple(u for u in start.units if u.province != "PAR") + (Unit("France", ARMY, "PIC"),)
    fall = Position(Phase(1901, "F", MOVEMENT), units, dict(start.centres, BEL="France"))
    result = adjudicate(game_map, fall, {"France": [move]})
    assert str(result.next_phase) == next_phase


@contextmanager
def _orders_in_other_orders(rng: random.Random) -> Iterator[list[str]]:
    """Every movement phase resolved meanwhile is resolved again with its
    orders reversed and shuffled, and must give the same outcome (results,
    reasons, units in the board's order, dislodged units, standoffs); the
    list yielded names each phase so checked."""
    resolve = resolve_movement
    checked: list[str] = []

    def in_other_orders(board: Board, orders: dict[str, Order]) -> MovementOutcome:
        outcome = resolve(board, orders)
        items = list(orders.items())
        for other in (items[::-1], rng.sample(items, len(items))):
            again = resolve(board, dict(other))
            assert again == outcome, [str(order) for order in orders.values()]
        checked.append(",".join(orders))
        return outcome

    with mock.patch.object(engine, "resolve_movement", in_other_orders):
        yield checked


@pytest.mark.parametrize("case", _cases())
def test_a_datc_case_resolves_alike_whatever_the_orders_order(case: dict[str, Any]) -> None:
    """The engine hands the resolver the orders as written when every unit
    has one (not in the board's order): the DATC cases, circular movements
    and convoy paradoxes among them, come out the same either way."""
    with _orders_in_other_orders(random.Random(case["id"])) as checked:
        outputs = play(case)
    assert len(checked) == sum(output["phase"].endswith("M") for output in outputs)


@pytest.mark.parametrize("map_name", ["standard", "30jk"])
def test_random_phases_resolve_alike_whatever_the_orders_order(map_name: str) -> None:
    game_map = load_map(map_name)
    rng = random.Random(f"orders' order {map_name}")
    with _orders_in_other_orders(rng) as checked:
        for _ in range(150):
            position = _position(rng, game_map)
            adjudicate(game_map, position, _orders(rng, game_map, position))
    assert len(checked) == 150
