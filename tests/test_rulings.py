"""Rulings that the DATC cases do not already state (docs/rulings.md).

Each test names its ruling and states position, orders and outcome."""

from __future__ import annotations

from typing import Any

from adjudicator.games.diplomacy.contract import run_case


def entries(output: dict[str, Any], text: str) -> list[dict[str, Any]]:
    return [o for o in output["orders"] if o["text"] == text]


def result_of(output: dict[str, Any], text: str) -> tuple[str, str]:
    (entry,) = entries(output, text)
    return entry["result"], entry["reason"]


def test_r05_last_legal_order_counts_earlier_ones_superseded() -> None:
    output = run_case(
        {
            "phase": "S1901M",
            "units": {"Austria": ["A VIE", "A BUD"]},
            "orders": {"Austria": ["A Vie - Gal", "A Vie - Boh", "A Vie - Lon", "A Bud H", "A Bud - Vie"]},
        }
    )
    assert result_of(output, "A Vie - Gal") == ("invalid", "superseded")
    assert result_of(output, "A Vie - Boh") == ("succeeds", "")
    assert result_of(output, "A Vie - Lon")[0] == "invalid"  # illegal: does not supersede
    assert result_of(output, "A Bud H") == ("invalid", "superseded")
    assert output["units"]["Austria"] == ["A BOH", "A VIE"]


def test_r07_army_move_naming_a_path_is_a_convoyed_move() -> None:
    output = run_case(
        {
            "phase": "S1901M",
            "units": {"England": ["A YOR", "F NTH"]},
            "orders": {"England": ["A Yor - Nth - Bel", "F Nth C A Yor - Bel"]},
        }
    )
    (move,) = entries(output, "A Yor - Nth - Bel")
    assert move["order"] == "A YOR - BEL VIA CONVOY" and move["result"] == "succeeds"
    assert result_of(output, "F Nth C A Yor - Bel") == ("succeeds", "")


def test_r07_fleet_cannot_name_a_path_in_the_standard_game() -> None:
    output = run_case({"phase": "S1901M", "units": {"England": ["F LON"]}, "orders": {"England": ["F Lon - Eng - Mao"]}})
    assert result_of(output, "F Lon - Eng - Mao") == ("invalid", "a fleet moves one province per turn")


def test_r14_army_move_without_any_possible_convoy_is_invalid() -> None:
    output = run_case(
        {"phase": "S1901M", "units": {"England": ["A LON"]}, "orders": {"England": ["A Lon - Bel", "A Lon - Mun"]}}
    )
    assert output["orders"][0]["result"] == "invalid"
    assert "no convoy route is possible" in output["orders"][0]["reason"]


def test_r14_coastal_fleet_cannot_convoy() -> None:
    output = run_case(
        {
            "phase": "S1901M",
            "units": {"England": ["A LVP", "F WAL"]},
            "orders": {"England": ["F Wal C A Lvp - Lon", "A Lvp - Lon"]},
        }
    )
    assert result_of(output, "F Wal C A Lvp - Lon")[0] == "invalid"


def test_r22_centres_change_only_after_the_fall_turn() -> None:
    spring = run_case({"phase": "S1901M", "units": {"Germany": ["A KIE"]}, "orders": {"Germany": ["A Kie - Hol"]}})
    assert "HOL" not in spring["centers"]["Germany"]
    fall = run_case(
        {"phase": "F1901M", "units": {"Germany": ["A HOL", "A MUN"]}, "centers": {"Germany": ["BER", "KIE", "MUN"]},
         "orders": {"Germany": ["A Hol H", "A Mun - Ber"]}}
    )
    assert fall["centers"]["Germany"] == ["BER", "HOL", "KIE", "MUN"]  # MUN stays German though empty
    assert fall["next_phase"] == "W1901A"


def test_r22_centres_change_after_fall_retreats() -> None:
    movement = run_case(
        {
            "phase": "F1901M",
            "units": {"France": ["A PAR", "A BUR"], "Germany": ["A MUN"]},
            "centers": {"France": ["PAR", "BRE", "MAR"], "Germany": ["MUN", "BER", "KIE"]},
            "orders": {"France": ["A Par - Pic", "A Bur H"], "Germany": ["A Mun - Bur"]},
        }
    )
    assert movement["next_phase"] == "W1901A"  # no dislodgement, so no retreat phase
    dislodging = run_case(
        {
            "phase": "F1901M",
            "units": {"France": ["A BUR", "A PAR"], "Germany": ["A MUN", "A RUH"]},
            "centers": {"France": ["PAR", "BRE", "MAR"], "Germany": ["MUN", "BER", "KIE"]},
            "orders": {"Germany": ["A Mun - Bur", "A Ruh S A Mun - Bur"], "France": ["A Par H"]},
        }
    )
    assert dislodging["next_phase"] == "F1901R"
    assert dislodging["centers"]["France"] == ["BRE", "MAR", "PAR"]
    retreat = run_case(
        {
            "phase": "F1901R",
            "units": dislodging["units"],
            "dislodged": dislodging["dislodged"],
            "centers": dislodging["centers"],
            "orders": {"France": ["A Bur - Bel"]},
        }
    )
    assert result_of(retreat, "A Bur - Bel") == ("succeeds", "")
    assert retreat["centers"]["France"] == ["BEL", "BRE", "MAR", "PAR"]


def test_r24_solo_victory_ends_the_game() -> None:
    centres = ["BUD", "TRI", "VIE", "SER", "GRE", "BUL", "RUM", "SEV", "WAR", "MOS", "VEN", "ROM", "NAP", "TUN",
               "MUN", "BER", "KIE"]
    output = run_case(
        {
            "phase": "F1910M",
            "units": {"Austria": ["A BOH"], "Turkey": ["A CON"]},
            "centers": {"Austria": centres},
            "orders": {"Austria": ["A Boh H"], "Turkey": ["A Con - Smy"]},
        }
    )
    assert output["winner"] is None  # 17 centres
    output = run_case(
        {
            "phase": "F1910M",
            "units": {"Austria": ["A SIL"]},
            "centers": {"Austria": centres},
            "orders": {"Austria": ["A Sil - Pru"]},
        }
    )
    assert output["winner"] is None  # Prussia is no centre
    output = run_case(
        {"phase": "F1910M", "units": {"Austria": ["A RUH"]}, "centers": {"Austria": centres},
         "orders": {"Austria": ["A Ruh - Hol"]}}
    )
    assert output["winner"] == "Austria" and output["next_phase"] is None
    assert len(output["centers"]["Austria"]) == 18


def test_r23_retreat_phase_skipped_when_nobody_can_retreat() -> None:
    output = run_case(
        {
            "phase": "S1901M",
            "units": {"England": ["F NWG", "F BAR", "F NTH"], "Russia": ["F NWY"], "Germany": ["A SWE"],
                      "France": ["A FIN"]},
            "centers": {"Russia": ["NWY", "MOS", "SEV", "WAR"]},
            "orders": {"England": ["F Nwg - Nwy", "F Bar S F Nwg - Nwy", "F Nth H"], "Russia": ["F Nwy H"]},
        }
    )
    assert output["dislodged"] == {
        "Russia": [{"unit": "F NWY", "attacker_from": "NWG", "retreats": ["SKA", "STP/NC"]}]
    }
    assert output["next_phase"] == "S1901R"
    output = run_case(
        {
            "phase": "S1901M",
            "units": {"England": ["F NWG", "F BAR", "F NTH", "F SKA"], "Russia": ["F NWY"], "Germany": ["A SWE"],
                      "France": ["A FIN", "A STP"]},
            "orders": {"England": ["F Nwg - Nwy", "F Bar S F Nwg - Nwy"], "Russia": ["F Nwy H"]},
        }
    )
    assert output["dislodged"] == {"Russia": [{"unit": "F NWY", "attacker_from": "NWG", "retreats": []}]}
    assert output["next_phase"] == "F1901M"
    assert "Russia" not in output["units"]


def test_r23_adjustment_phase_skipped_when_nobody_adjusts() -> None:
    output = run_case({"phase": "F1901M", "orders": {}})
    assert output["next_phase"] == "S1902M"


def test_r21_power_without_centres_loses_all_units_and_is_eliminated() -> None:
    output = run_case(
        {
            "phase": "W1905A",
            "units": {"Italy": ["A TUS", "F TYS"], "France": ["A ROM", "A VEN", "A NAP"]},
            "centers": {"France": ["ROM", "VEN", "NAP", "PAR", "BRE", "MAR"]},
            "orders": {"Italy": ["Remove A Tus"]},
        }
    )
    assert result_of(output, "Remove A Tus") == ("succeeds", "")
    assert [o["order"] for o in output["orders"] if o["text"] == ""] == ["REMOVE F TYS"]
    assert output["eliminated"] == ["Italy"]
    assert "Italy" not in output["units"]


def test_r13_build_without_unit_type() -> None:
    output = run_case(
        {
            "phase": "W1901A",
            "units": {"Russia": []},
            "centers": {"Russia": ["MOS", "STP", "SEV", "WAR"]},
            "orders": {"Russia": ["Build Mos", "Build StP/nc", "Build Sev"]},
        }
    )
    assert [o["order"] for o in output["orders"][:2]] == ["BUILD A MOS", "BUILD F STP/NC"]
    assert result_of(output, "Build Sev") == ("invalid", "say whether an army or a fleet is to be built in SEV")


def test_r20_waive_counts_as_a_build() -> None:
    output = run_case(
        {
            "phase": "W1901A",
            "units": {"Italy": ["F ION", "A APU"]},
            "centers": {"Italy": ["NAP", "ROM", "VEN", "TUN"]},
            "orders": {"Italy": ["waive", "Build A Ven", "Build A Rom"]},
        }
    )
    assert result_of(output, "waive") == ("succeeds", "")
    assert result_of(output, "Build A Ven") == ("succeeds", "")
    assert result_of(output, "Build A Rom") == ("fails", "Italy has no builds left")


def test_r17_illegal_retreat_disbands_the_unit() -> None:
    output = run_case(
        {
            "phase": "S1902R",
            "units": {"Germany": ["A MUN"]},
            "dislodged": {"France": [{"unit": "A BUR", "attacker_from": "MUN"}]},
            "orders": {"France": ["A Bur - Mun"]},
        }
    )
    assert result_of(output, "A Bur - Mun")[0] == "invalid"
    (disband,) = [o for o in output["orders"] if o["order"] == "A BUR DISBAND"]
    assert disband["text"] == "" and disband["result"] == "succeeds"
    assert "France" not in output["units"]
