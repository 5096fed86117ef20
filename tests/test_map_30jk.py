"""The reconstructed 30JK map (maps/30jk.toml) holds every fact that the
rule text (seed 004, sections 2, 4 and 5) states."""

from __future__ import annotations

import pytest

from adjudicator.games.diplomacy.contract import run_case
from adjudicator.games.diplomacy.core.mapdata import GameMap, check_map, load_map
from adjudicator.games.diplomacy.core.model import province_of


@pytest.fixture(scope="module")
def jk() -> GameMap:
    return load_map("30jk")


# Section 2: power - confession - start units.
POWERS = {
    "Bayern": ("catholic", ["A Aug", "A BFre", "A FAns"]),
    "Braunschweig-Lüneburg": ("protestant", ["A Bra", "A NLHe", "F Lun"]),
    "Dänemark": ("protestant", ["F Aero", "A Ham", "F HSle/WC"]),
    "Frankreich": ("catholic", ["A GCha", "A Met", "A Vun"]),
    "Österreich": ("catholic", ["A EbSa", "F Lin", "A MOla", "A Pra"]),
    "Pfalz": ("protestant", ["A Mai", "A Hei", "A NOpf"]),
    "Rheinbistümer": ("catholic", ["A BMun", "F EbKo", "A EbTr"]),
    "Sachsen": ("protestant", ["A Mei", "A Lei", "F Tor"]),
    "Schweden": ("protestant", ["A Ros", "F Hpo", "A Ber"]),
    "Spanien": ("catholic", ["A FGBu", "A GHen", "F GFla"]),
    "Vereinigte Niederlande": ("protestant", ["F HGro", "F GHol", "A Utr"]),
}


def test_map_is_consistent(jk: GameMap) -> None:
    assert check_map(jk) == []


def test_section_2_powers_confessions_and_start_units(jk: GameMap) -> None:
    assert set(jk.powers) == set(POWERS)
    for name, (confession, units) in POWERS.items():
        power = jk.powers[name]
        assert power.confession == confession, name
        assert sorted(str(u).upper() for u in power.start_units) == sorted(u.upper() for u in units), name
        assert sorted(power.home_centres) == sorted(u.split()[1].split("/")[0] for u in units), name


def test_section_10_centres_and_victory(jk: GameMap) -> None:
    assert len(jk.supply_centres) == 52
    assert sum(len(p.home_centres) for p in jk.powers.values()) == 34
    assert jk.victory_centres == 27
    assert jk.start_year == 1618


@pytest.mark.parametrize("key", ["FAns", "HSle", "Utr", "Sin"])
def test_section_5_two_coasts(jk: GameMap, key: str) -> None:
    assert len(jk.provinces[key].coasts) == 2


def _rivers_of(jk: GameMap, key: str) -> dict[str, str]:
    return {river.name: bank for river in jk.rivers for province, bank in river.course if province == key}


@pytest.mark.parametrize("key", ["Blut", "BWur", "Tor", "Pas"])
def test_section_5_rivers_flow_through(jk: GameMap, key: str) -> None:
    banks = _rivers_of(jk, key)
    assert "both" in banks.values(), f"{key}: {banks}"
    province = jk.provinces[key]
    assert len(province.fleet) == 1, "one coastline, like Kiel"
    for river in jk.rivers:
        course = river.provinces
        if key in course:
            index = course.index(key)
            for neighbour in course[max(0, index - 1) : index + 2]:
                if neighbour != key:
                    assert jk.fleet_reaches_province(key, neighbour), f"{key} -> {neighbour} along the {river.name}"


@pytest.mark.parametrize("key", ["Hei", "HJul", "NHBb", "SGNa"])
def test_section_5_provinces_on_two_rivers(jk: GameMap, key: str) -> None:
    assert len(_rivers_of(jk, key)) >= 2, f"{key} lies on {_rivers_of(jk, key)}"


@pytest.mark.parametrize("key", ["Hei", "HJul"])
def test_section_5_confluence_is_one_coastline(jk: GameMap, key: str) -> None:
    assert len(jk.provinces[key].fleet) == 1


def test_section_5_example_liege_juelich_cologne(jk: GameMap) -> None:
    assert jk.fleet_reaches_province("Blut", "HJul")
    assert jk.fleet_reaches_province("HJul", "EbKo")


@pytest.mark.parametrize("key", ["Hel", "Sel", "Aero"])
def test_section_5_islands_are_land_for_fleets_and_convoyed_armies(jk: GameMap, key: str) -> None:
    province = jk.provinces[key]
    assert province.terrain == "coast"
    assert province.fleet and any(province.fleet.values())


@pytest.mark.parametrize("key", ["RheM", "ElbM", "OdM", "RugS", "NWat"])
def test_section_5_pure_sea_provinces(jk: GameMap, key: str) -> None:
    assert jk.provinces[key].terrain == "sea"


def test_section_4_the_seven_rivers_and_their_mouths(jk: GameMap) -> None:
    rivers = {river.name: river for river in jk.rivers}
    assert set(rivers) == {"Rhein", "Main", "Regnitz", "Donau", "Elbe", "Maas", "Oder"}
    assert rivers["Rhein"].mouth == "RheM"
    assert rivers["Elbe"].mouth == "ElbM"
    assert rivers["Oder"].mouth == "OdM"
    assert rivers["Main"].joins == "Rhein"
    assert rivers["Regnitz"].joins == "Main"


def test_section_4_every_river_province_is_coastal(jk: GameMap) -> None:
    for river in jk.rivers:
        for key in river.provinces:
            assert jk.provinces[key].terrain == "coast", f"{key} on the {river.name}"


def test_seats_for_drawing(jk: GameMap) -> None:
    for key, province in jk.provinces.items():
        assert province.seat is not None, key
        latitude, longitude = province.seat
        assert 45.5 <= latitude <= 56.5 and 1.5 <= longitude <= 17.5, f"{key} at {province.seat}"


def test_start_position_holds_unchanged_through_adjudicate(jk: GameMap) -> None:
    units = {name: [str(u) for u in power.start_units] for name, power in jk.powers.items()}
    orders = {name: [f"{u} H" for u in listed] for name, listed in units.items()}
    output = run_case({"variant": "30jk", "phase": "1618M", "units": units, "orders": orders})
    assert output["units"] == units
    assert all(o["result"] == "succeeds" for o in output["orders"])
    assert output["dislodged"] == {} and output["standoffs"] == []
    assert {p: sorted(c) for p, c in output["centers"].items()} == {
        name: sorted(province_of(u.split()[1]) for u in listed) for name, listed in units.items()
    }
