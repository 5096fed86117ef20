"""The map as players see it in a mail (issue 13 point 11), tested on the
scene: colours apart from sea and land, labels off the units, readable
coast marks, a legend for every symbol, failed builds drawn as failed,
short arrows between neighbours, and the archive's current page."""

from __future__ import annotations

import math
from itertools import combinations
from typing import Any

import pytest

from adjudicator.games import game_module
from adjudicator.games.diplomacy.core.mapdata import load_map
from adjudicator.games.diplomacy.drawing import board
from adjudicator.games.diplomacy.drawing import colours as c
from adjudicator.games.diplomacy.drawing.layout import map_layout
from adjudicator.games.pictures.scene import Circle, Group, Scene, Text, walk
from adjudicator.service.render import Texts


def scene(variant: str, state: dict[str, Any] | None = None, report: dict[str, Any] | None = None,
          language: str = "en") -> Scene:
    module = game_module(variant)
    drawn = module.picture(state or module.start({}, 1), report, game_name="spiel1", language=language,
                           texts=Texts(language))
    assert drawn is not None
    return drawn


def groups(drawn: Scene, cls: str) -> list[Group]:
    return [s for s in walk(drawn.shapes) if isinstance(s, Group) and cls in s.cls.split()]


def test_no_power_colour_is_close_to_sea_or_land() -> None:
    for colour in c.PALETTE:
        assert c.colour_distance(colour, c.SEA) >= 30 and c.colour_distance(colour, c.LAND) >= 30, colour
        owned = c.tint(colour, c.REGION_SHARE)
        for ground in (c.SEA, c.LAND, c.BACKGROUND):
            assert c.colour_distance(owned, ground) >= 15, (colour, owned, ground)
    for first, second in combinations(c.PALETTE[:7], 2):  # the seven standard powers tell apart
        assert c.colour_distance(first, second) >= 20, (first, second)
    assert c.colour_distance("#4fa3e0", c.SEA) < 35  # the old light blue France was sea-like


def test_the_distance_is_the_cie76_difference() -> None:
    assert c.colour_distance("#ffffff", "#ffffff") == 0
    assert round(c.colour_distance("#000000", "#ffffff")) == 100


@pytest.mark.parametrize("variant", ["standard", "30jk"])
def test_no_label_sits_under_a_unit(variant: str) -> None:
    drawn = scene(variant)
    units = [s for g in groups(drawn, "unit") for s in walk(g.children) if isinstance(s, Circle | Text)]
    centres = {(round(s.at[0]), round(s.at[1])) for s in units if isinstance(s, Text)}  # unit letters at seats
    labels = [s for s in walk(drawn.shapes) if isinstance(s, Text) and s.cls == "label"]
    assert len(labels) == len(load_map(variant).provinces)
    assert len(centres) >= 20  # the units are found
    old = [label.text for label in labels for at in centres  # the former place, below the seat, is often taken
           if board.covers(board.label_box(board.label_point(map_layout(load_map(variant)), label.text), label.text),
                           at, board.UNIT_RADIUS)]
    assert old, "the check finds labels under units when they stay below the seat"
    overlaps = [label.text for label in labels for at in centres
                if board.covers(board.label_box(label.at, label.text), at, board.UNIT_RADIUS)]
    assert overlaps == []


def test_coast_marks_are_readable_at_mail_size() -> None:
    drawn = scene("standard")
    marks = groups(drawn, "coast")
    assert {dict(g.data)["coast"] for g in marks} >= {"STP/NC", "STP/SC", "SPA/NC", "SPA/SC", "BUL/EC", "BUL/SC"}
    for mark in marks:
        circle = next(s for s in mark.children if isinstance(s, Circle))
        text = next(s for s in mark.children if isinstance(s, Text))
        assert circle.radius >= 7 and text.size >= 8 and text.text in ("NC", "SC", "EC")


def test_the_legend_explains_every_symbol_it_uses() -> None:
    keys = {dict(g.data)["key"] for g in groups(scene("standard"), "legend-key")}
    assert {"hold", "centre", "centre_neutral", "coast", "move", "failed", "support", "convoy", "dislodged",
            "standoff"} <= keys
    german = [s.text for g in groups(scene("standard", language="de"), "legend-key") for s in g.children
              if isinstance(s, Text)]
    assert "neutrales Versorgungszentrum" in german and "Versorgungszentrum (Farbe des Besitzers)" in german


def _adjustment() -> tuple[dict[str, Any], dict[str, Any]]:
    """W1901A: England (A YOR, F NTH on EDI, LON, LVP) has one build and sends two."""
    module = game_module("standard")
    state = module.start({}, 1)
    state = {**state, "phase": "W1901A",
             "units": {**state["units"], "England": ["F NTH", "A YOR"]}}
    report = module.resolve(state, {"England": ["Build F Lon", "Build A Lvp"]}).report
    return state, report


def test_a_failed_build_is_drawn_distinctly_and_explained() -> None:
    state, report = _adjustment()
    entries = {e["order"]: e["result"] for group in report["orders"] for e in group["entries"]}
    assert entries == {"BUILD F LON": "succeeds", "BUILD A LVP": "fails"}
    drawn = scene("standard", state, report)
    built = groups(drawn, "build")
    failed = [g for g in built if "failed" in g.cls.split()]
    assert len(built) == 2 and len(failed) == 1 and dict(failed[0].data)["location"] == "LVP"
    assert not any(isinstance(s, Text) and s.text == "+" for s in walk(failed[0].children))
    keys = {dict(g.data)["key"] for g in groups(drawn, "legend-key")}
    assert {"build", "build_failed", "remove", "remove_failed"} <= keys


def test_neighbours_seats_are_close_so_arrows_stay_short() -> None:
    game_map = load_map("standard")
    layout = map_layout(game_map)

    def apart(a: str, b: str) -> float:
        return math.dist(layout.regions[a].seat, layout.regions[b].seat)

    assert apart("NWG", "BAR") < 260  # was 456: F NWG - BAR crossed the board
    longest = max(apart(key, other) for key, p in game_map.provinces.items()
                  for other in p.army | {t.split("/")[0] for ts in p.fleet.values() for t in ts})
    assert longest < 360


def test_the_archive_current_page_shows_units_centres_and_deadline(tmp_path: Any) -> None:
    from tests.test_service_commands import Table
    from adjudicator.service.archive import archive_files

    table = Table(tmp_path)
    table.create(language="de")
    table.seat_everyone()
    game = table.store.game("spiel1")
    assert game is not None
    page = archive_files(game, [])["now.html"].decode()
    assert "Frist: Freitag, 4. Dezember 2026, 11:00 Uhr" in page
    assert "<tr><td>England</td><td>3</td><td>F LON, F EDI, A LVP</td></tr>" in page
    assert "<tr><td>Russland</td><td>4</td>" in page
    table.store.close()
