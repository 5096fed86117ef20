"""The Diplomacy game module of the service: orders checked per power with
mail line numbers and hints, who has to act in each phase kind, names."""

from __future__ import annotations

import pytest

from adjudicator.games import UnknownGame, game_module
from adjudicator.games.base import GameSetupError

STANDARD = game_module("standard")
THIRTY = game_module("30jk")


def test_orders_are_checked_with_mail_line_numbers_hints_and_missing_units() -> None:
    state = STANDARD.start({}, 1)
    check = STANDARD.check_orders(state, "France", [(4, "A Par - Burgundi"), (5, "A Mar - Spa"), (7, "A Vie H")])
    assert [(a.line, a.canonical) for a in check.accepted] == [(5, "A MAR - SPA")]
    first, second = check.problems
    assert (first.line, first.column, first.message, first.hint) == (
        4, 9, "unknown province 'Burgundi'", "did you mean BUR (Burgundy)?")
    assert second.line == 7 and "VIE" in second.message
    assert check.missing == ("F BRE", "A PAR")


def test_who_has_to_act_in_movement_retreat_and_adjustment() -> None:
    state = STANDARD.start({}, 1)
    assert STANDARD.must_act(state) == STANDARD.powers() and STANDARD.phase_kind(state) == "movement"
    state = STANDARD.resolve(state, {"Russia": ["A War - Gal"], "Germany": ["F Kie - Den"]}).state
    state = STANDARD.resolve(state, {"Austria": ["A Vie - Gal", "A Bud S A Vie - Gal"]}).state
    assert STANDARD.phase(state) == "F1901R" and STANDARD.phase_kind(state) == "retreat"
    assert STANDARD.must_act(state) == ("Russia",)
    state = STANDARD.resolve(state, {"Russia": ["A Gal - War"]}).state
    assert STANDARD.phase(state) == "W1901A" and STANDARD.must_act(state) == ("Germany",)
    assert STANDARD.standings(state)["Germany"] == 4


def test_power_names_by_language_and_variant() -> None:
    assert STANDARD.power_name("Austria", "de") == "Österreich" and STANDARD.power_name("England", "en") == "England"
    assert THIRTY.power_name("Bayern", "en") == "Bavaria" and THIRTY.power_name("Bayern", "de") == "Bayern"
    assert THIRTY.lookup_power("Vereinigte Niederlande") == "Vereinigte Niederlande"
    assert THIRTY.lookup_power("Kurbayern") == "Bayern" and THIRTY.lookup_power("Atlantis") is None


def test_random_confessions_are_drawn_from_the_seed_and_kept_in_the_state() -> None:
    first, again = THIRTY.start({"confessions": "random"}, 7), THIRTY.start({"confessions": "random"}, 7)
    assert first["confessions"] == again["confessions"] and first["options"]["seed"] == 7
    states = [c["state"] for c in first["confessions"].values()]
    assert states.count("catholic") >= 3 and states.count("protestant") >= 3
    with pytest.raises(GameSetupError, match="unknown option"):
        THIRTY.start({"colour": "blue"}, 1)
    with pytest.raises(UnknownGame, match="atlantis"):
        game_module("atlantis")
