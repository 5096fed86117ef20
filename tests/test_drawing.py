"""Map pictures (issue 7): every map in maps/ drawn from its data, one
region per province and one symbol per unit, every kind of order drawn
with its result, SVG that parses back and PNG of the stated size, the
same bytes every time, and the PNG attachment of a turn report mail."""

from __future__ import annotations

import email
import email.policy
import functools
import io
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from datetime import datetime, timezone
from pathlib import Path
import tomllib
import zlib
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from adjudicator.games.diplomacy.core.mapdata import build_map, load_map
from adjudicator.games.diplomacy.drawing import draw, draw_phase, to_png, to_svg
from adjudicator.games.pictures.geometry import BOX, area, contains, distance, voronoi_cells
from adjudicator.games.diplomacy.drawing.layout import map_layout
from adjudicator.games.diplomacy.drawing.legend import WORDS
from adjudicator.games.diplomacy.drawing.legend import legend_words
from adjudicator.service.pictures import content_id, report_images
from adjudicator.games.pictures.scene import Scene
from adjudicator.games.diplomacy.drawing.view import start_view
from adjudicator.games import game_module
from adjudicator.games.base import JSON
from adjudicator.games.diplomacy import DiplomacyGame
from adjudicator.mail.compose import compose
from adjudicator.service.render import Texts, catalogue
from tests.test_reports import SCRIPT_1618_1620

ROOT = Path(__file__).resolve().parent.parent
SVG = "{http://www.w3.org/2000/svg}"
STANDARD = DiplomacyGame.for_variant("standard")
THIRTY = DiplomacyGame.for_variant("30jk")


def parse(scene: Scene) -> ET.Element:
    """The scene's SVG, parsed back (fails on anything that is not XML)."""
    root = ET.fromstring(to_svg(scene))
    assert root.tag == f"{SVG}svg"
    assert (root.get("width"), root.get("height")) == (str(scene.width), str(scene.height))
    return root


def named(root: ET.Element, *classes: str) -> list[ET.Element]:
    """Elements whose class attribute holds all of ``classes``."""
    return [e for e in root.iter() if set(classes) <= set((e.get("class") or "").split())]


def png_size(data: bytes) -> tuple[int, int]:
    with Image.open(io.BytesIO(data)) as image:
        assert image.format == "PNG"
        image.load()
        return image.size


# --- start positions ---------------------------------------------------------------


@pytest.mark.parametrize("variant", ["standard", "30jk"])
def test_the_start_position_has_one_region_per_province_and_one_symbol_per_unit(variant: str) -> None:
    module = DiplomacyGame.for_variant(variant)
    game_map = module.game_map
    scene = draw(module.start({}, 1))
    root = parse(scene)
    regions = named(root, "region")
    assert sorted(r.get("data-province") or "" for r in regions) == sorted(game_map.provinces)
    seas = {r.get("data-province") for r in regions if r.get("data-terrain") == "sea"}
    assert seas == {k for k, p in game_map.provinces.items() if p.terrain == "sea"}
    units = sorted(u.get("data-unit") or "" for u in named(root, "unit"))
    assert units == sorted(str(u) for p in game_map.powers.values() for u in p.start_units)
    assert len(named(root, "centre")) == len(game_map.supply_centres)
    owned = {r.get("data-province"): r.get("data-owner") for r in regions if r.get("data-owner")}
    assert owned == game_map.initial_centres()
    labels = {t.text for t in named(root, "label")}
    assert labels == set(game_map.provinces)
    assert sorted(r.get("data-river") or "" for r in named(root, "river")) == sorted(r.name for r in game_map.rivers)
    assert len(named(root, "flow")) == 3 * len(game_map.rivers)
    split = sorted(loc for p in game_map.provinces.values() for loc in p.fleet if "/" in loc)
    assert sorted(c.get("data-coast") or "" for c in named(root, "coast")) == split
    assert not named(root, "arrow")
    assert len(named(root, "legend-power")) == len(game_map.powers)
    assert png_size(to_png(scene)) == (scene.width, scene.height)


def test_regions_of_the_maps_do_not_overlap_and_hold_their_seat() -> None:
    for variant in ("standard", "30jk"):
        layout = map_layout(load_map(variant))
        for key, region in layout.regions.items():
            assert contains(region.outline, region.seat), (variant, key)
            for other, neighbour in layout.regions.items():
                if other != key:
                    assert not contains(neighbour.outline, region.seat), (variant, key, other)


def test_a_map_without_seats_is_laid_out_from_its_adjacency() -> None:
    text = (ROOT / "docs" / "map-format.md").read_text(encoding="utf-8")
    example = text.split("## A complete small example", 1)[1].split("```toml", 1)[1].split("```", 1)[0]
    tiny = build_map(tomllib.loads(example), "tiny")
    assert all(p.seat is None for p in tiny.provinces.values())
    root = parse(draw_phase(start_view(tiny)))
    assert sorted(r.get("data-province") or "" for r in named(root, "region")) == ["HIL", "NSE", "POR"]
    assert [u.get("data-unit") for u in named(root, "unit")] == ["F POR/SC"]
    layout = map_layout(tiny)
    assert layout.point("POR/SC") != layout.point("POR/NC")


# --- phases with orders ---------------------------------------------------------------

MOVEMENT: JSON = {
    "variant": "standard", "phase": "F1901M",
    "units": {"England": ["F NTH", "A LON", "F ENG"], "France": ["A BEL", "A PIC", "F BRE"],
              "Germany": ["A HOL", "A RUH", "F KIE"], "Russia": ["A WAR", "A UKR"],
              "Austria": ["A GAL", "A BUD", "A VIE"], "Italy": ["A VEN"]},
}
MOVEMENT_ORDERS = {
    "England": ["F NTH C A LON - NWY", "A LON - NWY", "F ENG S F BRE"],
    "France": ["A PIC - BEL", "A BEL H", "F BRE H"],
    "Germany": ["A HOL - BEL", "A RUH S A HOL - BEL", "F KIE - DEN"],
    "Russia": ["A WAR - GAL", "A UKR S A WAR - GAL"],
    "Austria": ["A GAL H", "A BUD - RUM", "A VIE - TYR"],
    "Italy": ["A VEN - TYR"],
}


def movement() -> tuple[JSON, JSON, JSON]:
    """The movement phase above: its state, report and the next state."""
    state = {**MOVEMENT, "centers": {p: list(STANDARD.game_map.home_centres(p)) for p in STANDARD.powers()}}
    result = STANDARD.resolve(state, MOVEMENT_ORDERS)
    return state, result.report, result.state


def test_a_movement_phase_draws_moves_supports_convoys_holds_failures_dislodgements_and_bounces() -> None:
    state, report, _ = movement()
    root = parse(draw(state, report))
    moves = {m.get("data-order"): m for m in named(root, "arrow", "move")}
    assert sorted(moves) == ["A BUD - RUM", "A HOL - BEL", "A LON - NWY", "A PIC - BEL", "A VEN - TYR",
                             "A VIE - TYR", "A WAR - GAL", "F KIE - DEN"]
    failed = sorted(m.get("data-order") or "" for m in named(root, "arrow", "move", "failed"))
    assert failed == ["A PIC - BEL", "A VEN - TYR", "A VIE - TYR"]
    assert all(m.get("data-result") == "succeeds" for o, m in moves.items() if o not in failed)
    supports = {s.get("data-order"): s.get("data-kind") for s in named(root, "arrow", "support")}
    assert supports == {"F ENG S F BRE": "hold", "A RUH S A HOL - BEL": "move", "A UKR S A WAR - GAL": "move"}
    assert [c.get("data-order") for c in named(root, "arrow", "convoy")] == ["F NTH C A LON - NWY"]
    assert sorted(h.get("data-order") or "" for h in named(root, "hold")) == ["A BEL H", "A GAL H", "F BRE H"]
    dislodged = {d.get("data-province"): d.get("data-attacker") for d in named(root, "marker", "dislodged")}
    assert dislodged == {"BEL": "HOL", "GAL": "WAR"}
    assert sorted(u.get("data-unit") or "" for u in named(root, "unit", "dislodged")) == ["A BEL", "A GAL"]
    assert [s.get("data-province") for s in named(root, "marker", "standoff")] == ["TYR"]
    assert len(named(root, "unit")) == sum(len(v) for v in MOVEMENT["units"].values())


def test_a_retreat_phase_draws_the_waiting_units_their_retreats_and_disbands() -> None:
    _, _, retreat_state = movement()
    assert retreat_state["phase"] == "F1901R"
    result = STANDARD.resolve(retreat_state, {"France": ["A BEL - BUR"], "Austria": ["A GAL DISBAND"]})
    root = parse(draw(retreat_state, result.report))
    waiting = sorted(u.get("data-unit") or "" for u in named(root, "unit") if u.get("data-dislodged") == "yes")
    assert waiting == ["A BEL", "A GAL"]
    assert [r.get("data-order") for r in named(root, "arrow", "retreat")] == ["A BEL - BUR"]
    assert not named(root, "arrow", "move")
    assert [d.get("data-order") for d in named(root, "marker", "disband")] == ["A GAL DISBAND"]


def test_an_adjustment_phase_draws_builds_and_removals() -> None:
    state = {
        "variant": "standard", "phase": "W1901A",
        "units": {"Austria": ["A SER", "A GAL", "F ALB"], "Russia": ["A UKR", "A MOS", "F SEV", "A WAR"]},
        "centers": {"Austria": ["VIE", "BUD", "TRI", "SER"], "Russia": ["MOS", "SEV", "STP"]},
    }
    result = STANDARD.resolve(state, {"Austria": ["Build A VIE"], "Russia": ["Remove A UKR"]})
    root = parse(draw(state, result.report))
    assert [(b.get("data-order"), b.get("data-location")) for b in named(root, "marker", "build")] == [
        ("BUILD A VIE", "VIE")]
    assert [r.get("data-order") for r in named(root, "marker", "remove")] == ["REMOVE A UKR"]
    legend = {g.get("data-power"): (g.get("data-centres"), g.get("data-units")) for g in named(root, "legend-power")}
    assert legend == {"Austria": ("4", "4"), "Russia": ("3", "3")}


def thirty_years() -> list[tuple[JSON, JSON]]:
    """30JK 1618M to 1620M (the scripted game of tests/test_reports.py):
    each phase's state and report."""
    phases = []
    state = THIRTY.start({}, 1)
    for orders in SCRIPT_1618_1620:
        result = THIRTY.resolve(state, orders)
        phases.append((state, result.report))
        state = result.state
    return phases


def test_30jk_draws_the_double_move_transform_confession_and_religious_warfare() -> None:
    phases = thirty_years()
    state, report = phases[0]
    root = parse(draw(state, report))
    double = [m for m in named(root, "arrow", "move") if m.get("data-order") == "F Tor - Wit - Anh"]
    assert len(double) == 1 and double[0].get("data-legs") == "2"
    assert len(double[0].findall(f"{SVG}circle[@class='waypoint']")) == 1
    assert [(t.get("data-order"), t.get("data-into")) for t in named(root, "marker", "transform")] == [
        ("F Lin T A", "A")]
    assert [d.get("data-event") for d in named(root, "marker", "disbanded")] == ["A NOpf"]

    state, report = phases[3]
    root = parse(draw(state, report, power_name=lambda p: THIRTY.power_name(p, "de")))
    assert [(c.get("data-power"), c.get("data-confession")) for c in named(root, "marker", "confession")] == [
        ("Braunschweig-Lüneburg", "catholic")]
    assert [(d.get("data-event"), d.get("data-to")) for d in named(root, "marker", "defected")] == [
        ("A Bra", "Sachsen")]
    legend_text = " ".join(t.text or "" for t in named(root, "legend")[0].iter(f"{SVG}text"))
    assert "Braunschweig-Lüneburg 3 2 catholic (!)" in legend_text


def test_the_legend_speaks_the_games_language() -> None:
    german = {word: Texts("de")("map_" + word.replace("-", "_")) for word in WORDS}
    assert all(german.values()) and all("map_" + w.replace("-", "_") in catalogue() for w in WORDS)
    state, report = thirty_years()[0]
    root = parse(draw(state, report, power_name=lambda p: THIRTY.power_name(p, "de"), words=german))
    texts = {t.text for t in named(root, "legend")[0].iter(f"{SVG}text")}
    assert {"Zentren", "Einheiten", "Österreich", "katholisch", "Fluss"} <= texts


# --- bytes ----------------------------------------------------------------------------


def test_the_same_phase_gives_the_same_svg_and_png_bytes_in_another_process(tmp_path: Path) -> None:
    state, report = thirty_years()[0]
    scene = draw(state, report)
    assert to_svg(scene) == to_svg(draw(state, report))
    assert to_png(scene) == to_png(draw(state, report))
    case = tmp_path / "case.json"
    case.write_text(json.dumps({**state, "orders": {
        "Sachsen": ["F Tor - Wit - Anh", "A Lei - EbMa", "A Mei - Lei"], "Österreich": ["F Lin T A", "A Pra - Pil"],
        "Bayern": ["A FAns - RsNu"]}}), encoding="utf-8")
    environment = {**os.environ, "PYTHONHASHSEED": "12345"}
    for suffix in ("svg", "png"):
        done = subprocess.run(
            [sys.executable, "-m", "adjudicator", "map", "draw", "30jk", "--position", str(case),
             "-o", str(tmp_path / f"out.{suffix}")], capture_output=True, text=True, cwd=ROOT, env=environment,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
    same = draw(state, report, power_name=lambda p: THIRTY.power_name(p, "en"), words=legend_words(Texts("en")),
                title=THIRTY.game_map.title)
    assert (tmp_path / "out.svg").read_text(encoding="utf-8") == to_svg(same)
    assert (tmp_path / "out.png").read_bytes() == to_png(same)


def test_a_maps_board_painted_once_and_coloured_per_phase_gives_the_pixels_painted_anew() -> None:
    from adjudicator.games.pictures import png

    adjustment = {"variant": "standard", "phase": "W1901A", "units": {"Austria": ["A SER"], "Russia": ["A UKR"]},
                  "centers": {"Austria": ["VIE", "BUD", "TRI", "SER"], "Russia": ["MOS", "SEV", "STP", "RUM"]}}
    scenes = [draw(*movement()[:2]), draw(movement()[2]), draw(adjustment),
              *(draw(state, report) for state, report in thirty_years()), draw(THIRTY.start({}, 1))]
    painted = {}
    for scene in scenes:
        board, _ = png._board(scene)
        entries = png._board_entries(scene.width, scene.height, png._plan(board))
        assert entries is not None  # the maps' boards fit a palette
        painted[id(entries[0])] = scene.width
        assert png._coloured_board(scene, board, entries).tobytes() == png._painted_board(scene, board).tobytes()
    assert sorted(painted.values()) == sorted({scene.width for scene in scenes})  # once per map


@pytest.mark.parametrize("variant", ["standard", "30jk"])
def test_the_png_of_a_phase_is_small_enough_for_mail(variant: str) -> None:
    module = DiplomacyGame.for_variant(variant)
    state, report = (movement()[:2] if variant == "standard" else thirty_years()[0])
    data = to_png(draw(state, report))
    assert len(data) < 200_000, f"{variant}: {len(data)} bytes"
    assert png_size(data)[0] >= 1000
    assert module.variant == variant


@pytest.mark.parametrize("variant", ["standard", "30jk"])
def test_a_maps_png_has_the_pixels_of_level_6_in_the_fast_strategy_when_small_enough(variant: str) -> None:
    from adjudicator.games.pictures import png

    state, report = (movement()[:2] if variant == "standard" else thirty_years()[0])
    painted = png.picture(draw(state, report))
    level_6 = io.BytesIO()
    painted.save(level_6, format="PNG", compress_level=6)  # what to_png wrote before Z_RLE
    data = png.to_png(draw(state, report))
    with Image.open(io.BytesIO(data)) as written, Image.open(level_6) as before:
        assert written.mode == before.mode == "P" and written.size == before.size
        assert written.tobytes() == before.tobytes() == painted.tobytes()
        assert written.getpalette() == before.getpalette() == painted.getpalette()
    assert len(data) <= 80_000
    scene = draw(state, report)
    board, _ = png._board(scene)
    entries = png._board_entries(scene.width, scene.height, png._plan(board))
    assert entries is not None
    runs = entries[2]  # the bare board's bytes at Z_RLE
    if variant == "standard":  # Z_RLE: under the limit, larger than level 6, a third of its CPU
        assert data != level_6.getvalue() and len(level_6.getvalue()) < len(data) <= png.FAST_BYTES
        assert runs <= png.FAST_BYTES // 2
    else:  # 30JK's board alone fills half the limit at Z_RLE: level 6 straight away, as before
        assert data == level_6.getvalue() and runs > png.FAST_BYTES // 2
        runs_only = io.BytesIO()
        painted.save(runs_only, format="PNG", compress_level=6, compress_type=zlib.Z_RLE)
        assert len(runs_only.getvalue()) > 80_000  # its picture at Z_RLE: over the limit for a report's map
    assert png.png_bytes(painted, fast=False) == level_6.getvalue()


# --- geometry -------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 399), st.integers(1, 299)), min_size=1, max_size=40, unique=True))
def test_voronoi_cells_tile_the_box_and_hold_their_sites(points: list[tuple[int, int]]) -> None:
    sites = [(float(x), float(y)) for x, y in points]
    cells = voronoi_cells(sites, (0.0, 0.0, 400.0, 300.0))
    assert abs(sum(area(c.corners) for c in cells) - 400 * 300) < 1e-3
    for index, (site, cell) in enumerate(zip(sites, cells)):
        assert contains(cell.corners, site)
        edges = zip(cell.corners, cell.corners[1:] + cell.corners[:1], cell.neighbours)
        for start, end, neighbour in edges:
            if neighbour != BOX and distance(start, end) > 1e-6:
                assert index in cells[neighbour].neighbours


# --- the report mail ------------------------------------------------------------------


def test_a_report_mail_carries_the_map_once_inline_with_its_file_name() -> None:
    state, report, _ = movement()
    images = report_images(STANDARD, "spiel1", state, report, language="en", texts=Texts("en"))
    assert [(i.filename, i.mime_type, i.content_id) for i in images] == [
        ("spiel1-F1901M.png", "image/png", content_id("spiel1", "F1901M"))]
    assert png_size(images[0].data)[0] > 1000
    html = f'<p><img src="cid:{images[0].content_id}"></p>'
    raw = compose(sender="judge@pbem.test", sender_name="Judge", to=["a@pbem.test"], subject="F1901M",
                  text="report", html=html, loop_id="judge@pbem.test", date=datetime.now(timezone.utc),
                  attachments=images)
    message = email.message_from_bytes(raw, policy=email.policy.default)
    related = [p for p in message.walk() if p.get_content_type() == "multipart/related"]
    assert len(related) == 1
    inline = [p for p in related[0].iter_parts() if p.get_content_type() == "image/png"]
    assert len(inline) == 1 and inline[0]["Content-ID"] == f"<{images[0].content_id}>"
    assert inline[0].get_filename() == "spiel1-F1901M.png" and inline[0].get_content() == images[0].data
    pictures = [p for p in message.walk() if p.get_content_type() == "image/png"]
    assert len(pictures) == 1  # once per mail (issue 13 point 11), not inline and attached again


def test_games_without_a_map_get_no_picture_and_a_broken_state_does_not_stop_the_report() -> None:
    assert report_images(game_module("1848"), "g", {}, {}, language="en", texts=Texts("en")) == ()
    broken: dict[str, Any] = {"variant": "standard", "phase": "S1901M", "units": {"Austria": ["A NTH"]}}
    assert report_images(game_module("standard"), "g", broken, {}, language="en", texts=Texts("en")) == ()


@functools.cache
def _movement_obstacles() -> Any:
    """The obstacle index of the movement scene's shapes (labels skip themselves)."""
    from adjudicator.games.diplomacy.drawing import labels

    return labels._Index(labels.obstacles(draw(*movement()[:2]).shapes))


@settings(max_examples=200, deadline=None)
@given(st.floats(0, 1200), st.floats(0, 880), st.floats(1, 120), st.floats(1, 60))
def test_a_label_places_weight_is_the_sum_over_the_obstacles_it_meets_each_once(
        left: float, top: float, width: float, height: float) -> None:
    from adjudicator.games.diplomacy.drawing import labels

    index = _movement_obstacles()
    box = (left, top, left + width, top + height)
    cells = tuple(labels._cells(box))
    unique = {id(item): item for cell in cells for item in index.cells.get(cell, ())}
    expected = sum(item.weight for item in unique.values() if item.meets(box))
    assert index.weight(box, cells) == expected
    assert index.weight(box, cells[:1]) == sum(item.weight for item in index.cells.get(cells[0], ()) if item.meets(box))
