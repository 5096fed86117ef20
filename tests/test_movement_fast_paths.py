"""The boundaries of the resolver's short cuts (issue 20): a move by land
into an empty province nobody else enters is settled at set-up, supported
or not; the outcome pass looks only at the units whose order may not have
simply succeeded; head-to-head pairs are found in the set-up pass.  Each
case states the position, the orders and the outcome the general rules
give (DATC 5.B), on both sides of the short cut."""

from __future__ import annotations

import pytest

from adjudicator.games.diplomacy.core.engine import PhaseResult, adjudicate
from adjudicator.games.diplomacy.core.mapdata import load_map
from adjudicator.games.diplomacy.core.model import ARMY, FLEET, Phase, Position, Unit


def _play(units: list[tuple[str, str]], orders: dict[str, list[str]]) -> PhaseResult:
    game_map = load_map("standard")
    placed = tuple(
        Unit(power, ARMY if text[0] == "A" else FLEET, text[2:]) for power, text in units
    )
    return adjudicate(game_map, Position(Phase.parse("S1902M"), placed, game_map.initial_centres()), orders)


def _results(result: PhaseResult) -> dict[str, tuple[str, str]]:
    return {report.order: (report.result, report.reason) for report in result.reports}


def _where(result: PhaseResult) -> list[str]:
    return [str(unit) for unit in result.position.units]


def test_a_supported_move_into_an_empty_uncontested_province_succeeds_and_so_does_its_support() -> None:
    result = _play(
        [("Austria", "A TRI"), ("Austria", "A SER")],
        {"Austria": ["A TRI - ALB", "A SER S A TRI - ALB"]},
    )
    assert _results(result) == {"A TRI - ALB": ("succeeds", ""), "A SER S A TRI - ALB": ("succeeds", "")}
    assert _where(result) == ["A ALB", "A SER"]


def test_two_moves_into_the_same_empty_province_bounce_and_leave_a_standoff() -> None:
    result = _play(
        [("Austria", "A VIE"), ("Russia", "A WAR")],
        {"Austria": ["A VIE - GAL"], "Russia": ["A WAR - GAL"]},
    )
    assert _results(result) == {"A VIE - GAL": ("fails", "bounced"), "A WAR - GAL": ("fails", "bounced")}
    assert result.standoffs == frozenset({"GAL"})
    assert _where(result) == ["A VIE", "A WAR"]


def test_a_supported_move_into_an_empty_province_beats_an_unsupported_one() -> None:
    result = _play(
        [("Austria", "A VIE"), ("Austria", "A BUD"), ("Russia", "A WAR")],
        {"Austria": ["A VIE - GAL", "A BUD S A VIE - GAL"], "Russia": ["A WAR - GAL"]},
    )
    assert _results(result)["A VIE - GAL"] == ("succeeds", "")
    assert _results(result)["A WAR - GAL"] == ("fails", "bounced")
    assert result.standoffs == frozenset()
    assert _where(result) == ["A GAL", "A BUD", "A WAR"]


def test_a_move_into_a_province_whose_unit_moves_away_succeeds() -> None:
    result = _play(
        [("Austria", "A BUD"), ("Austria", "A VIE")],
        {"Austria": ["A BUD - VIE", "A VIE - GAL"]},
    )
    assert _results(result) == {"A BUD - VIE": ("succeeds", ""), "A VIE - GAL": ("succeeds", "")}
    assert _where(result) == ["A VIE", "A GAL"]


def test_a_move_into_a_province_whose_unit_fails_to_move_away_fails() -> None:
    result = _play(
        [("Austria", "A BUD"), ("Austria", "A VIE"), ("Russia", "A WAR")],
        {"Austria": ["A BUD - VIE", "A VIE - GAL"], "Russia": ["A WAR - GAL"]},
    )
    assert _results(result)["A BUD - VIE"] == ("fails", "cannot dislodge a unit of its own power")
    assert _results(result)["A VIE - GAL"] == ("fails", "bounced")
    assert _where(result) == ["A BUD", "A VIE", "A WAR"]


def test_a_move_into_a_province_whose_own_power_unit_stays_cannot_dislodge_it() -> None:
    result = _play(
        [("Austria", "A BUD"), ("Austria", "A VIE"), ("Austria", "A TRI")],
        {"Austria": ["A BUD - VIE", "A TRI S A BUD - VIE", "A VIE H"]},
    )
    assert _results(result)["A BUD - VIE"] == ("fails", "cannot dislodge a unit of its own power")


def test_a_head_to_head_battle_is_found_whichever_unit_comes_first() -> None:
    for first, second in ((("France", "A BUR"), ("Germany", "A MUN")), (("Germany", "A MUN"), ("France", "A BUR"))):
        result = _play(
            [first, second, ("Germany", "A RUH")],
            {"France": ["A BUR - MUN"], "Germany": ["A MUN - BUR", "A RUH S A MUN - BUR"]},
        )
        assert _results(result)["A MUN - BUR"] == ("succeeds", "")
        assert _results(result)["A BUR - MUN"] == ("fails", "bounced")
        assert [d.unit for d in result.dislodged] == [Unit("France", ARMY, "BUR")]
        assert result.dislodged[0].attacker_from == "MUN"
        assert "MUN" not in result.dislodged[0].retreats  # the province the attacker came from
        assert result.standoffs == frozenset()


def test_a_convoyed_attack_cuts_a_support_so_the_supported_move_fails() -> None:
    result = _play(
        [("England", "A YOR"), ("England", "F NTH"), ("Germany", "A BEL"), ("Germany", "A RUH"),
         ("France", "A BUR")],
        {
            "England": ["A YOR - BEL", "F NTH C A YOR - BEL"],
            "Germany": ["A BEL S A RUH - BUR", "A RUH - BUR"],
            "France": ["A BUR H"],
        },
    )
    assert _results(result)["A BEL S A RUH - BUR"] == ("fails", "cut")
    assert _results(result)["A RUH - BUR"] == ("fails", "bounced")
    assert _results(result)["A YOR - BEL"] == ("fails", "bounced")
    assert _results(result)["F NTH C A YOR - BEL"] == ("fails", "the convoyed army did not arrive")
    assert result.dislodged == ()


def test_without_the_convoy_the_support_holds_and_the_supported_move_dislodges() -> None:
    result = _play(
        [("England", "A YOR"), ("Germany", "A BEL"), ("Germany", "A RUH"), ("France", "A BUR")],
        {"Germany": ["A BEL S A RUH - BUR", "A RUH - BUR"], "France": ["A BUR H"]},
    )
    assert _results(result)["A BEL S A RUH - BUR"] == ("succeeds", "")
    assert _results(result)["A RUH - BUR"] == ("succeeds", "")
    assert [d.unit for d in result.dislodged] == [Unit("France", ARMY, "BUR")]
    assert _where(result) == ["A YOR", "A BEL", "A BUR"]  # the board's order, the dislodged unit gone


@pytest.mark.parametrize("order", ["A VIE H", "A VIE S A BUD", "A VIE - BOH"])
def test_units_nobody_attacks_need_no_outcome_and_keep_their_place_in_the_position(order: str) -> None:
    result = _play(
        [("Austria", "A VIE"), ("Austria", "A BUD"), ("Russia", "A WAR")],
        {"Austria": [order, "A BUD H"], "Russia": ["A WAR H"]},
    )
    assert _results(result)[order] == ("succeeds", "")
    assert _where(result) == ["A BOH" if order.endswith("BOH") else "A VIE", "A BUD", "A WAR"]


def test_dislodged_units_are_listed_in_the_board_order() -> None:
    result = _play(
        [("Austria", "A GAL"), ("Austria", "A BOH"), ("Russia", "A WAR"), ("Russia", "A UKR"),
         ("Germany", "A MUN"), ("Germany", "A SIL")],
        {
            "Russia": ["A WAR - GAL", "A UKR S A WAR - GAL"],
            "Germany": ["A MUN - BOH", "A SIL S A MUN - BOH"],
        },
    )
    assert [d.unit.province for d in result.dislodged] == ["GAL", "BOH"]
    assert _where(result) == ["A GAL", "A UKR", "A BOH", "A SIL"]
