"""Typical report scenes of the standard map and 30JK (an opening turn with
moves, supports, bounces and holds), the overlap counts the map tests
assert on, and the pictures in ``docs/maps/``.

``python -m tests.map_scenes docs/maps`` draws the pictures again (run from
the repository root after a change to the drawing or to seats)."""

from __future__ import annotations

import sys
from itertools import combinations
from pathlib import Path
from typing import Any

from adjudicator.games import game_module
from adjudicator.games.diplomacy.core.mapdata import load_map
from adjudicator.games.diplomacy.core.model import province_of
from adjudicator.games.diplomacy.drawing import labels
from adjudicator.games.pictures.scene import Circle, Group, Polygon, Polyline, Scene, Text, walk
from adjudicator.service.render import Texts

STANDARD_ORDERS = {
    "Austria": ["A Vie - Gal", "A Bud - Ser", "F Tri - Alb"],
    "England": ["F Lon - ENG", "F Edi - NWG", "A Lvp - Yor"],
    "France": ["F Bre - MAO", "A Par - Bur", "A Mar S A Par - Bur"],
    "Germany": ["F Kie - Den", "A Ber - Kie", "A Mun - Ruh"],
    "Italy": ["A Ven H", "A Rom - Apu", "F Nap - ION"],
    "Russia": ["A War - Gal", "A Mos - Ukr", "F Sev - Bla", "F StP/SC - Bot"],
    "Turkey": ["F Ank - Bla", "A Con - Bul", "A Smy - Arm"],
}
"""S1901M: the usual openings, with bounces in Galicia and the Black Sea."""

def unit_orders(variant: str, units: dict[str, list[str]]) -> dict[str, list[str]]:
    """Orders for every unit: two of three units move to a neighbour (the
    n-th in the map's list, so some bounce), the third supports the move of
    the unit before it when it can reach the target, else holds."""
    game_map = load_map(variant)
    orders: dict[str, list[str]] = {}
    n = 0
    for power, texts in units.items():
        mine: list[str] = []
        last: tuple[str, str] | None = None
        for text in texts:
            kind, location = text.split()
            province = game_map.provinces[province_of(location)]
            reach = sorted(province.army) if kind == "A" else sorted(province.fleet.get(location, ()))
            if n % 3 == 2 and last is not None and province_of(last[1]) in {province_of(r) for r in reach}:
                mine.append(f"{text} S {last[0]} - {last[1]}")
            elif n % 3 == 2 or not reach:
                mine.append(f"{text} H")
            else:
                target = reach[n % len(reach)]
                mine.append(f"{text} - {target}")
                last = (text, target)
            n += 1
        orders[power] = mine
    return orders


def crowded_state(variant: str) -> dict[str, Any]:
    """The start position with an army of some power (in turn) on every
    free land province next to a unit: a crowded middle game."""
    module = game_module(variant)
    state = module.start({}, 1)
    game_map = load_map(variant)
    units = {power: list(texts) for power, texts in state["units"].items()}
    taken = {province_of(t.split()[1]) for texts in units.values() for t in texts}
    powers = list(units)
    for index, (key, province) in enumerate(sorted(game_map.provinces.items())):
        if key not in taken and province.terrain != "sea" and any(n in taken for n in province.army):
            units[powers[index % len(powers)]].append(f"A {key}")
    for texts in units.values():
        taken.update(province_of(t.split()[1]) for t in texts)
    return {**state, "units": units}


def report_scene(variant: str, language: str = "en", crowded: bool = False) -> Scene:
    """The picture of a movement phase of ``variant`` resolved as a report
    mail carries it: the opening (standard: the usual opening orders), or
    with ``crowded`` the ``crowded_state`` with ``unit_orders``."""
    module = game_module(variant)
    state = crowded_state(variant) if crowded else module.start({}, 1)
    if variant == "standard" and not crowded:
        orders = STANDARD_ORDERS
    else:
        orders = unit_orders(variant, state["units"])
    report = module.resolve(state, orders).report
    drawn = module.picture(state, report, game_name="spiel1", language=language, texts=Texts(language))
    assert drawn is not None
    return drawn


def _groups(drawn: Scene, cls: str) -> list[Group]:
    return [s for s in walk(drawn.shapes) if isinstance(s, Group) and cls in s.cls.split()]


def overlaps(drawn: Scene) -> dict[str, int]:
    """How many label/label, label/unit and label/arrow overlaps the scene
    has: pairs of province labels whose boxes meet, (label, unit symbol)
    pairs and (label, order line or arrow head) pairs."""
    texts = [s for s in walk(drawn.shapes) if isinstance(s, Text) and s.cls == "label"]
    boxes = [labels.text_box(t.at, t.text, t.size) for t in texts]
    units = [labels.circle_box(s.centre, s.radius) if isinstance(s, Circle) else labels.points_box(s.points)
             for g in _groups(drawn, "unit") for s in g.children if isinstance(s, Circle | Polygon)]
    lines = [s.points for kind in ("arrow", "hold") for g in _groups(drawn, kind)
             for s in walk(g.children) if isinstance(s, Polyline | Polygon)]
    return {
        "label/label": sum(labels.boxes_meet(a, b) for a, b in combinations(boxes, 2)),
        "label/unit": sum(labels.boxes_meet(b, u) for b in boxes for u in units),
        "label/arrow": sum(any(labels.line_meets_box(points, b) for points in lines) for b in boxes),
    }


def main(folder: str) -> None:
    """Write ``standard-S1901M.png`` and ``30jk-1618M.png`` into ``folder``
    and print each scene's overlap counts."""
    from adjudicator.games.pictures.png import to_png

    for variant, phase in (("standard", "S1901M"), ("30jk", "1618M")):
        drawn = report_scene(variant, "de")
        Path(folder, f"{variant}-{phase}.png").write_bytes(to_png(drawn))
        print(variant, overlaps(drawn), "crowded:", overlaps(report_scene(variant, crowded=True)))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "docs/maps")
