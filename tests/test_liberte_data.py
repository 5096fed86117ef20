"""Liberté's data files: the template holds the known facts and marks the
rest unknown, the checker names every problem, the stand-in set is
complete and consistent with every fact, and the module offers the data
file to the game master (``data_files``)."""

from __future__ import annotations

import tomllib

from adjudicator.games.liberte import liberte4
from adjudicator.games.liberte.data import (
    CARDS, CR_PROVINCES, SUPPLY, VP_PROVINCES, standin, standin_text, template,
)
from adjudicator.games.liberte.data import problems as findings


def problems(text: str) -> tuple[str, ...]:
    """The checker's findings as their English texts (what ``data check`` prints)."""
    return tuple(str(finding) for finding in findings(text))


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


def test_every_effect_kind_can_be_entered_and_the_stand_in_uses_each() -> None:
    from adjudicator.games.liberte.data import DECKS, EFFECTS

    data = standin()
    specials = [c for c in data.cards.values() if c.kind == "special"]
    assert {c.effect for c in specials} == set(EFFECTS) == {
        "remove", "clear", "battle", "unbattle", "draw", "place", "move"}
    assert all(c.count >= 1 for c in specials)
    assert {d: sum(c.deck == d for c in data.cards.values()) for d in "AB"} == DECKS == {"A": 57, "B": 53}
    assert "STAND-IN EFFECTS" in standin_text()
    for source in ("bdml.free.fr", "fr-academic.com", "jedisjeux.net", "pevans.co.uk"):
        assert source in template()


def test_a_special_card_effect_unknown_or_malformed_is_refused() -> None:
    from adjudicator.games.base import GameSetupError
    import pytest

    text = standin_text()
    head = '[cards.A49]\ndeck = "A"\nkind = "special"\nname = "Special A49 (stand-in)"\neffect = "remove"\ncount = 1\n'
    assert head in text
    unknown = text.replace(head, head.replace('effect = "remove"', 'effect = "unknown"'))
    assert problems(unknown) == ("cards.A49.effect is unknown",)
    with pytest.raises(GameSetupError, match=r"cards\.A49\.effect is unknown"):
        liberte4().start({"data.liberte": unknown}, 1)
    assert problems(text.replace(head, head.replace('"remove"', '"swap"'))) == (
        "cards.A49.effect: expected one of remove, clear, battle, unbattle, draw, place, move, got 'swap'",)
    assert problems(text.replace(head, head.replace("count = 1", "count = 9"))) == (
        "cards.A49.count: expected a whole number 1..5, got 9",)
    assert problems(text.replace(head, head + 'region = "ATLANTIS"\n')) == ("cards.A49.region: 'ATLANTIS' is no region",)
    assert problems(text.replace(head, head.replace('"remove"', '"place"'))) == (
        "cards.A49.faction: a place card names the faction it places",)
    moved = text.replace('[cards.A56]\ndeck = "A"', '[cards.B56]\ndeck = "B"')
    assert "cards: deck A has 57 cards, not 56" in problems(moved)


def test_a_refused_start_is_worded_in_the_games_language() -> None:
    from adjudicator.games.base import GameSetupError
    from adjudicator.service.notes import note_text
    from adjudicator.service.render import Texts
    import pytest

    for options, german in (({}, "die Spieldaten fehlen: Datei liberte schicken"),
                            ({"data.liberte": template()}, "die Spieldatei liberte ist nicht verwendbar"),
                            ({"data": "standin", "extra_vp": "never"}, "Option extra_vp: erwartet during oder after")):
        with pytest.raises(GameSetupError) as caught:
            liberte4().start(options, 1)
        assert caught.value.note is not None
        assert note_text(caught.value.note, Texts("de"), str).startswith(german)
