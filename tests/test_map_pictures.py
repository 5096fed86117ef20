"""The map as players see it in a mail (issue 13 point 11), tested on the
scene: colours apart from sea and land, labels off the units, readable
coast marks, a legend for every symbol, failed builds drawn as failed,
short arrows between neighbours, and the archive's current page.  The
pictures in docs/maps come from the same scenes (``python -m
tests.map_scenes docs/maps``)."""

from __future__ import annotations

import math
import statistics
from dataclasses import replace
from itertools import combinations
from typing import Any

import pytest

from adjudicator.games import game_module
from adjudicator.games.diplomacy.core.mapdata import load_map
from adjudicator.games.diplomacy.drawing import board, labels
from adjudicator.games.diplomacy.drawing import colours as c
from adjudicator.games.diplomacy.drawing.layout import map_layout
from adjudicator.games.pictures.scene import Circle, Group, Scene, Text, walk
from adjudicator.service.render import Texts
from tests.map_scenes import overlaps, report_scene


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


OVERLAPS = {
    # (variant, crowded): the most label/label, label/unit, label/arrow overlaps
    ("standard", False): {"label/label": 0, "label/unit": 0, "label/arrow": 0},  # were 1, 0, 10 (labels off units only)
    ("30jk", False): {"label/label": 0, "label/unit": 0, "label/arrow": 0},  # were 5, 1, 10
    ("standard", True): {"label/label": 0, "label/unit": 0, "label/arrow": 0},  # 50 units
    ("30jk", True): {"label/label": 0, "label/unit": 0, "label/arrow": 0},  # 105 units
}


@pytest.mark.parametrize(("variant", "crowded"), sorted(OVERLAPS))
def test_labels_keep_off_units_arrows_and_each_other_in_a_report_scene(variant: str, crowded: bool) -> None:
    drawn = report_scene(variant, crowded=crowded)
    labels_drawn = [s for s in walk(drawn.shapes) if isinstance(s, Text) and s.cls == "label"]
    assert len(labels_drawn) == len(load_map(variant).provinces)
    assert len(groups(drawn, "arrow")) >= 15 and len(groups(drawn, "unit")) >= 22  # the scene has orders
    counts = overlaps(drawn)
    for kind, most in OVERLAPS[(variant, crowded)].items():
        assert counts[kind] <= most, (kind, counts)


@pytest.mark.parametrize("variant", ["standard", "30jk"])
def test_the_overlap_count_finds_labels_left_on_or_below_their_seats(variant: str) -> None:
    drawn = report_scene(variant)
    layout = map_layout(load_map(variant))

    def moved(shape: Any, down: float) -> Any:
        if isinstance(shape, Group):
            return replace(shape, children=tuple(moved(child, down) for child in shape.children))
        if isinstance(shape, Text) and shape.cls == "label":
            x, y = layout.regions[shape.text].seat
            return replace(shape, at=(x, y + down))
        return shape

    on_seat = overlaps(replace(drawn, shapes=tuple(moved(s, 0.0) for s in drawn.shapes)))
    below = overlaps(replace(drawn, shapes=tuple(moved(s, board.UNIT_RADIUS + 6) for s in drawn.shapes)))
    assert on_seat["label/unit"] >= 20 and below["label/arrow"] > 5, (on_seat, below)


def test_the_segment_box_test() -> None:
    box = (0.0, 0.0, 10.0, 10.0)
    assert labels.segment_meets_box((-5, 5), (15, 5), box)  # straight through
    assert labels.segment_meets_box((5, 5), (6, 6), box)  # inside
    assert not labels.segment_meets_box((-5, -1), (15, -1), box)  # above
    assert not labels.segment_meets_box((11, -5), (20, 5), box)  # beside, pointing away
    assert labels.segment_meets_box((-2, 8), (8, -2), box)  # across a corner
    assert not labels.segment_meets_box((-3, 8), (3, 14), box)  # past a corner


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


@pytest.mark.parametrize("variant", ["standard", "30jk"])
def test_every_arrow_between_neighbours_is_short(variant: str) -> None:
    """Bound: no two neighbours' seats further apart than a fifth of the
    board's width, nor than 2.25 times the median distance between
    neighbours' seats.  An arrow then spans at most about two provinces
    (the standard map's NAO-MAO was 352 px, 37 % of its width; NWG-BAR
    456 px before that; 30JK's NSee-Pic 490 px)."""
    game_map = load_map(variant)
    layout = map_layout(game_map)

    def apart(a: str, b: str) -> float:
        return math.dist(layout.regions[a].seat, layout.regions[b].seat)

    pairs = {tuple(sorted((key, other))) for key, p in game_map.provinces.items()
             for other in p.army | {t.split("/")[0] for ts in p.fleet.values() for t in ts}}
    typical = statistics.median(apart(a, b) for a, b in pairs)
    too_long = sorted((round(apart(a, b)), a, b) for a, b in pairs
                      if apart(a, b) > min(0.2 * layout.width, 2.25 * typical))
    assert too_long == []
    if variant == "standard":
        assert apart("NAO", "MAO") < 0.2 * layout.width and apart("NWG", "BAR") < 0.2 * layout.width


def test_seats_keep_room_for_a_unit_and_its_label() -> None:
    for variant in ("standard", "30jk"):
        layout = map_layout(load_map(variant))
        seats = [r.seat for r in layout.regions.values()]
        closest = min(math.dist(p, q) for p, q in combinations(seats, 2))
        assert closest > 3 * board.UNIT_RADIUS, (variant, closest)


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
