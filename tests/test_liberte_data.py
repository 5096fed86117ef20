"""Liberté's data files: the template holds the known facts and marks the
rest unknown, the checker names every problem, the stand-in set is
complete and consistent with every fact, and the module offers the data
file to the game master (``data_files``)."""

from __future__ import annotations

import tomllib

from adjudicator.games.liberte import liberte4
from adjudicator.games.liberte.data import (
    CARDS, CR_PROVINCES, SUPPLY, VP_PROVINCES, problems, standin, standin_text, template,
)


def test_the_template_keeps_the_facts_and_marks_the_unknown() -> None:
    raw = tomllib.loads(template())
    assert raw["supply"] == SUPPLY == {"red": 30, "blue": 28, "white": 24} and sum(SUPPLY.values()) == 82
    assert raw["battles"]["2"] == {"name": "Valmy", "vp": 2}
    assert len(raw["regions"]) == 6 and all(len(r["provinces"]) == 5 for r in raw["regions"])
    assert len(raw["cards"]) == CARDS == 110
    found = problems(template())
    assert "battles.3.name is unknown" in found and any("regions[1].provinces[1].cr is unknown" in p for p in found)
    for source in ("globetrotter-games.com", "grognard.com", "goblins.net", "the rule text"):
        assert source in template()


def test_the_stand_in_set_is_complete_and_consistent() -> None:
    data = standin()
    assert problems(standin_text()) == () and data.standin
    assert len(data.cards) == 110 and {c.deck for c in data.cards.values()} == {"A", "B"}
    assert sum(p.cr for p in data.provinces.values()) == CR_PROVINCES
    assert sum(bool(p.vp) for p in data.provinces.values()) == VP_PROVINCES
    assert data.paris == "PARIS" and data.battles[2] == ("Valmy", 2)
    assert all(c.blocks == 1 for c in data.cards.values() if c.kind == "club")
    assert "NOT THE ORIGINAL" in standin_text()


def test_the_checker_names_each_broken_fact() -> None:
    text = standin_text()
    assert problems(text.replace("white = 24", "white = 20", 1)) == (
        "supply: the game has {'red': 30, 'blue': 28, 'white': 24} faction blocks, not "
        "{'red': 30, 'blue': 28, 'white': 20}",)
    assert any("a region has 5 provinces, not 4" in p for p in problems(
        text.replace('  { id = "FOIX", name = "Foix", cr = false, x = 370, y = 880 },\n', "")))
    assert any("cards.A01.kind" in p for p in problems(text.replace('kind = "person"', 'kind = "hero"', 1)))
    assert problems("this is [not toml")[0].startswith("not TOML")


def test_the_module_offers_its_data_file() -> None:
    (entry,) = liberte4().data_files()
    assert entry.name == "liberte" and entry.required
    assert entry.template() == template() and entry.check(standin_text()) == ()
    assert entry.check(template())
