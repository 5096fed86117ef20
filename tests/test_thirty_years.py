"""30JK rules (seed 004) on the reconstructed 1618 map: scenario tests,
each with position, orders and expected outcome (docs/rulings.md)."""

from __future__ import annotations

from typing import Any

import pytest

from adjudicator.contract import CaseError, run_case
from adjudicator.core.mapdata import load_map

JK = load_map("30jk")
START_UNITS = {name: [str(u) for u in power.start_units] for name, power in JK.powers.items()}


def play(phase: str, orders: dict[str, list[str]], **position: Any) -> dict[str, Any]:
    case: dict[str, Any] = {"variant": "30jk", "phase": phase, "units": START_UNITS, "orders": orders}
    case.update(position)
    return run_case(case)


def test_r25_one_movement_turn_a_year_adjustments_after_odd_years() -> None:
    output = play("1618M", {"Bayern": ["A FAns - RsNu"]})
    assert output["next_phase"] == "1619M"  # 1618 is even: no adjustments
    output = play("1619M", {"Bayern": ["A FAns - RsNu"]})
    assert output["next_phase"] == "1619A"  # Bayern may build on FAns
    after = play("1619A", {"Bayern": ["Build A FAns"]}, units=output["units"], centers=output["centers"])
    assert after["next_phase"] == "1620M"
    assert "A FAns" in after["units"]["Bayern"]


@pytest.mark.parametrize("phase", ["S1618M", "W1619A", "1618A"])
def test_r25_phase_names_of_the_30jk_calendar(phase: str) -> None:
    with pytest.raises(CaseError, match="phase: "):
        play(phase, {})


def test_r25_standard_phases_keep_their_seasons() -> None:
    with pytest.raises(CaseError, match="has no season"):
        run_case({"phase": "1901M"})


def test_r26_centres_change_owner_only_at_the_end_of_odd_years() -> None:
    even = play("1618M", {"Bayern": ["A FAns - RsNu"]})
    assert "RsNu" not in even["centers"]["Bayern"]
    odd = play("1619M", {"Bayern": ["A FAns - RsNu"]})
    assert "RsNu" in odd["centers"]["Bayern"]


def test_r26_solo_victory_only_at_the_end_of_an_odd_year() -> None:
    centres = sorted(JK.supply_centres)
    mine = [c for c in centres if c != "RsNu"][:26]
    units = {"Bayern": ["A FAns"]}
    even = play("1620M", {"Bayern": ["A FAns - RsNu"]}, units=units, centers={"Bayern": mine})
    assert even["winner"] is None and even["next_phase"] == "1621M"
    odd = play("1621M", {"Bayern": ["A FAns - RsNu"]}, units=units, centers={"Bayern": mine})
    assert odd["winner"] == "Bayern" and odd["next_phase"] is None
    assert len(odd["centers"]["Bayern"]) == 27


def result(output: dict[str, Any], text: str) -> tuple[str, str]:
    (entry,) = [o for o in output["orders"] if o["text"] == text]
    return entry["result"], entry["reason"]


def test_r27_a_fleet_on_a_river_convoys() -> None:
    output = play("1618M", {"Rheinbistümer": ["F EbKo C A EbTr - HBer", "A EbTr - HBer"]})
    assert result(output, "A EbTr - HBer") == ("succeeds", "")
    assert result(output, "F EbKo C A EbTr - HBer") == ("succeeds", "")
    assert "A HBer" in output["units"]["Rheinbistümer"]


def test_r27_the_same_convoy_is_illegal_on_the_standard_map() -> None:
    output = run_case(
        {"phase": "S1901M", "units": {"Germany": ["F KIE", "A HOL"]}, "orders": {"Germany": ["F Kie C A Hol - Ber"]}}
    )
    assert output["orders"][0]["result"] == "invalid"


def test_r27_a_convoy_goes_only_where_the_fleet_could_move_itself() -> None:
    # F Tor reaches Grh, Lei, Mei, Wit along the Elbe; Anh lies one more step
    # downstream, which the fleet could reach only with a double move.
    assert "Anh" not in {t for t in JK.fleet_targets("Tor")}
    output = play("1618M", {"Sachsen": ["F Tor C A Lei - Anh", "A Lei - Anh"]})
    assert result(output, "F Tor C A Lei - Anh")[0] == "invalid"
    output = play("1618M", {"Sachsen": ["F Tor C A Mei - Wit", "A Mei - Wit"]})
    assert result(output, "A Mei - Wit") == ("succeeds", "")
