"""Maps as data: the standard map's facts, consistency of every map in
maps/, and clear errors for broken map files."""

from __future__ import annotations

from pathlib import Path

import pytest

from adjudicator.games.diplomacy.core.mapdata import MapError, build_map, check_map, load_map, load_map_file, normalise_name
from adjudicator.games.diplomacy.core.model import UnitType
from adjudicator.resources import data_dir

MAPS = sorted(p.stem for p in data_dir("maps").glob("*.toml"))


@pytest.mark.parametrize("name", MAPS)
def test_every_map_is_consistent(name: str) -> None:
    assert check_map(load_map(name)) == []


def test_standard_map_facts() -> None:
    game_map = load_map("standard")
    assert len(game_map.provinces) == 75
    assert len(game_map.supply_centres) == 34
    assert sum(1 for p in game_map.provinces.values() if p.terrain == "sea") == 19
    assert list(game_map.powers) == ["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"]
    assert game_map.victory_centres == 18 and game_map.start_year == 1901
    assert sum(len(p.start_units) for p in game_map.powers.values()) == 22
    assert game_map.home_centres("Russia") == ("MOS", "SEV", "STP", "WAR")
    assert game_map.provinces["STP"].coasts == ("NC", "SC")
    assert game_map.provinces["SPA"].coasts == ("NC", "SC")
    assert game_map.provinces["BUL"].coasts == ("EC", "SC")


@pytest.mark.parametrize(
    "written, key",
    [
        ("St. Petersburg", "STP"), ("Sankt Petersburg", "STP"), ("GOL", "LYO"), ("Gulf of Lyon", "LYO"),
        ("MID", "MAO"), ("Mid-Atlantic Ocean", "MAO"), ("NAT", "NAO"), ("NRG", "NWG"), ("GOB", "BOT"),
        ("Helgoland Bight", "HEL"), ("Heligoland Bight", "HEL"), ("München", "MUN"), ("muenchen", "MUN"),
        ("Ärmelkanal", "ENG"), ("tys", "TYS"), ("WES", "WES"), ("EAS", "EAS"), ("North Africa", "NAF"),
    ],
)
def test_names_players_write(written: str, key: str) -> None:
    assert load_map("standard").lookup_place(written) == key


def test_adjacency_subtleties() -> None:
    game_map = load_map("standard")
    assert game_map.fleet_can_move("KIE", "BAL") and game_map.fleet_can_move("KIE", "HOL")
    assert game_map.fleet_can_move("CON", "BUL/EC") and game_map.fleet_can_move("CON", "BUL/SC")
    assert not game_map.fleet_can_move("ROM", "VEN") and game_map.army_can_move("ROM", "VEN")
    assert not game_map.fleet_can_move("SPA/NC", "LYO") and game_map.fleet_can_move("SPA/SC", "LYO")
    assert game_map.can_stand(UnitType.FLEET, "STP/NC") and not game_map.can_stand(UnitType.FLEET, "STP")
    assert not game_map.can_stand(UnitType.ARMY, "NTH")


def _minimal(**changes: object) -> dict:
    data: dict = {
        "format": 1,
        "variant": {"name": "mini", "title": "Mini", "start_year": 1901, "victory_centres": 1},
        "powers": {"Red": {"start_units": ["A AAA"]}},
        "provinces": {
            "AAA": {"name": "Aland", "terrain": "coast", "centre": True, "home": "Red", "army": ["BBB"], "fleet": ["SEA"]},
            "BBB": {"name": "Bland", "terrain": "land", "army": ["AAA"]},
            "SEA": {"name": "Sea", "terrain": "sea", "fleet": ["AAA"]},
        },
    }
    data.update(changes)
    return data


def test_minimal_map_builds_and_is_consistent() -> None:
    assert check_map(build_map(_minimal())) == []


@pytest.mark.parametrize(
    "change, message",
    [
        ({"format": 2}, "format: expected 1"),
        ({"colour": "red"}, "unknown key(s) colour"),
        ({"powers": {"Red": {"start_units": ["X AAA"]}}}, "start unit 'X AAA'"),
    ],
)
def test_broken_map_files_name_the_key(change: dict, message: str) -> None:
    with pytest.raises(MapError) as caught:
        build_map(_minimal(**change))
    assert message in str(caught.value)


def test_broken_province_entries_name_the_key() -> None:
    data = _minimal()
    data["provinces"]["BBB"]["army"] = ["AAA", "ZZZ"]
    with pytest.raises(MapError, match=r"provinces\.BBB\.army: unknown province 'ZZZ'"):
        build_map(data)
    data = _minimal()
    data["provinces"]["BBB"]["terrain"] = "swamp"
    with pytest.raises(MapError, match=r"provinces\.BBB\.terrain: 'swamp' is not one of"):
        build_map(data)
    data = _minimal()
    data["provinces"]["BBB"]["aliases"] = ["Aland"]
    with pytest.raises(MapError, match="name 'Aland' is also used by AAA"):
        build_map(data)


def test_check_map_finds_inconsistencies() -> None:
    data = _minimal()
    data["provinces"]["BBB"]["army"] = []
    data["provinces"]["SEA"]["fleet"] = []
    data["variant"]["victory_centres"] = 5
    problems = check_map(build_map(data))
    assert "army adjacency AAA -> BBB is not listed back" in problems
    assert "fleet adjacency AAA -> SEA is not listed back" in problems
    assert "SEA is sea but has no fleet neighbours" in problems
    assert "victory threshold 5 is not within 1..1 centres" in problems


def test_unreadable_map_file(tmp_path: Path) -> None:
    path = tmp_path / "broken.toml"
    path.write_text("format = 1\n[variant\n", encoding="utf-8")
    with pytest.raises(MapError, match="broken.toml"):
        load_map_file(path)


def test_unknown_map_name() -> None:
    with pytest.raises(MapError, match="unknown variant 'atlantis'"):
        load_map("atlantis")


def test_name_folding() -> None:
    assert normalise_name("  St.  Petersburg ") == normalise_name("st petersburg") == "st petersburg"
    assert normalise_name("Mid-Atlantic") == normalise_name("mid atlantic")
    assert normalise_name("Böhmen") == normalise_name("Boehmen")


# --- the checker catches each class of error (issue: map check) ------------


def _problems(mutate: object) -> list[str]:
    data = _minimal()
    data["provinces"]["CCC"] = {"name": "Cland", "terrain": "coast", "army": ["BBB"], "fleet": ["SEA"]}
    data["provinces"]["BBB"]["army"] = ["AAA", "CCC"]
    data["provinces"]["SEA"]["fleet"] = ["AAA", "CCC"]
    data["rivers"] = [{"name": "Fluss", "mouth": "SEA", "course": [["CCC", "left"], ["AAA", "right"]]}]
    data["provinces"]["AAA"]["fleet"] = ["CCC", "SEA"]
    data["provinces"]["CCC"]["fleet"] = ["AAA", "SEA"]
    assert check_map(build_map(data)) == [], "the unbroken test map must be consistent"
    mutate(data)  # type: ignore[operator]
    return check_map(build_map(data))


def test_checker_catches_asymmetric_army_adjacency() -> None:
    assert _problems(lambda d: d["provinces"]["CCC"]["army"].remove("BBB")) == [
        "army adjacency BBB -> CCC is not listed back"
    ]


def test_checker_catches_asymmetric_fleet_adjacency() -> None:
    assert "fleet adjacency SEA -> CCC is not listed back" in _problems(
        lambda d: d["provinces"]["CCC"].update(fleet=["AAA"])
    )


def test_checker_catches_a_coast_without_sea_or_river() -> None:
    def cut(d: dict) -> None:
        d["provinces"]["CCC"]["fleet"] = []
        d["provinces"]["AAA"]["fleet"] = ["SEA"]
        d["provinces"]["SEA"]["fleet"] = ["AAA"]
        d["rivers"] = []

    assert _problems(cut) == ["CCC is coast but has no fleet neighbours"]


def test_checker_catches_a_river_province_not_on_a_coast() -> None:
    def inland(d: dict) -> None:
        d["rivers"][0]["course"].insert(0, ["BBB", "left"])

    problems = _problems(inland)
    assert "river Fluss: BBB lies on the river but is not on a coast" in problems
    assert "river Fluss: no fleet move from BBB down to CCC" in problems


def test_checker_catches_a_river_that_does_not_reach_its_mouth() -> None:
    def elsewhere(d: dict) -> None:
        d["provinces"]["LAKE"] = {"name": "Lake", "terrain": "sea", "fleet": []}
        d["rivers"][0]["mouth"] = "LAKE"

    assert "river Fluss: no fleet move from AAA into its mouth LAKE" in _problems(elsewhere)


def test_checker_catches_a_missing_home_centre() -> None:
    def homeless(d: dict) -> None:
        d["powers"]["Blue"] = {"start_units": ["A CCC"]}

    problems = _problems(homeless)
    assert "Blue has no home centre" in problems
    assert "start unit A CCC of Blue is not on one of its home centres" in problems


def test_checker_catches_a_start_unit_on_wrong_terrain() -> None:
    assert _problems(lambda d: d["powers"]["Red"].update(start_units=["F BBB"])) == [
        "start unit F BBB of Red cannot stand there"
    ]


def test_checker_catches_an_unknown_province_in_a_start_position() -> None:
    assert _problems(lambda d: d["powers"]["Red"].update(start_units=["A ZZZ"])) == [
        "start unit A ZZZ of Red: unknown province ZZZ"
    ]


def test_checker_catches_a_wrong_supply_centre_count() -> None:
    assert _problems(lambda d: d["variant"].update(supply_centres=2)) == [
        "1 supply centres, but the variant declares 2"
    ]


def test_checker_catches_a_home_centre_that_is_no_centre() -> None:
    assert "AAA is a home centre of Red but not a supply centre" in _problems(
        lambda d: d["provinces"]["AAA"].update(centre=False)
    )


def test_the_checker_flags_colliding_aliases() -> None:
    data = _minimal()
    data["powers"]["Blue"] = {"aliases": ["Crimson", "S"]}
    data["powers"]["Red"]["aliases"] = ["Crimson"]
    data["provinces"]["BBB"]["aliases"] = ["to"]
    problems = check_map(build_map(data))
    assert "power name 'Crimson' of Red is also a name of Blue" in problems or \
        "power name 'Crimson' of Blue is also a name of Red" in problems
    assert "power name 'S' of Blue is an order keyword" in problems
    assert "place name 'to' of BBB is an order keyword" in problems


def test_the_shipped_maps_have_no_colliding_aliases() -> None:
    for variant in ("standard", "30jk"):
        assert check_map(load_map(variant)) == []
