"""The board picture of Liberté as a ``Scene`` (SVG and PNG by the shared
writers): the provinces as cells around their data positions, coloured by
region, with CR, Paris and extra-VP marks; each stack as a block of its
faction's colour with its height and its owner's letter on the owner's
colour; beside the map the battle box, the votes of the election under
way (or the last one), government and opposition, and the victory points.
"""

from __future__ import annotations

from typing import Any

from adjudicator.games.liberte.data import FACTIONS, GameData
from adjudicator.games.liberte.wording import faction, text
from adjudicator.games.pictures.geometry import voronoi_cells
from adjudicator.games.pictures.scene import Circle, Group, Polygon, Scene, Shape, Style, Text

WIDTH, HEIGHT, MAP = 1180, 900, 860
FACTION_COLOURS = {"red": "#c62828", "blue": "#1e4fa3", "white": "#f4f4f4"}
SEAT_COLOURS = {"A": "#2e7d32", "B": "#f9a825", "C": "#6a1b9a", "D": "#ef6c00", "E": "#5d4037", "F": "#212121"}
INK = "#1a1a1a"


def _scale(value: float) -> float:
    return 20 + value * (MAP - 40) / 1000


def board_scene(data: GameData, view: dict[str, Any], *, game_name: str, language: str) -> Scene:
    """The picture of the position ``view`` (``report.picture_view``)."""
    order = data.election_order
    sites = [(_scale(data.provinces[p].x), _scale(data.provinces[p].y)) for p in order]
    cells = voronoi_cells(sites, (10, 10, MAP - 10, MAP - 10), rims=[95.0] * len(sites))
    region_colour = {pid: r.colour for r in data.regions for pid in r.provinces}
    shapes: list[Shape] = []
    for pid, cell in zip(order, cells):
        province = data.provinces[pid]
        shapes.append(Polygon(cell.corners, Style(region_colour[pid], "#555555", 1.5), "province",
                              (("province", pid), ("region", province.region))))
    for pid, (x, y) in zip(order, sites):
        shapes.append(_province(data, view, pid, x, y))
    shapes += _panel(data, view, language)
    title = text("lib_picture_title", language, game=game_name, phase=view["phase"])
    shapes.append(Text((MAP + 150, 30), title, 17, INK, bold=True, cls="title"))
    if data.standin:
        shapes.append(Text((MAP + 150, 56), text("lib_picture_standin", language), 13, "#b71c1c", bold=True,
                           cls="standin"))
    return Scene(WIDTH, HEIGHT, "#f3efe4", title, tuple(shapes))


def _province(data: GameData, view: dict[str, Any], pid: str, x: float, y: float) -> Group:
    province = data.provinces[pid]
    marks = ("CR " if province.cr else "") + " ".join(f"R{r}:{v}" for r, v in province.vp)
    parts: list[Shape] = [Text((x, y - 30), province.name, 13, INK, bold=province.paris, cls="name")]
    if marks.strip():
        parts.append(Text((x, y - 16), marks.strip(), 10, "#7a1f1f", cls="marks"))
    stacks = view["board"].get(pid, [])
    for index, (owner, colour, blocks) in enumerate(stacks):
        left = x - 36 + index * 26
        box = ((left, y - 6), (left + 22, y - 6), (left + 22, y + 16), (left, y + 16))
        parts.append(Polygon(box, Style(FACTION_COLOURS[colour], INK, 1.2), "stack",
                             (("owner", owner), ("faction", colour), ("blocks", str(blocks)))))
        parts.append(Text((left + 11, y + 5), str(blocks), 12, INK if colour == "white" else "#ffffff", bold=True))
        parts.append(Circle((left + 11, y + 26), 8, Style(SEAT_COLOURS.get(owner, "#777777"), INK, 1), "marker",
                            (("owner", owner),)))
        parts.append(Text((left + 11, y + 26), owner, 9, "#ffffff", bold=True))
    return Group(tuple(parts), "place", (("province", pid),))


def _panel(data: GameData, view: dict[str, Any], language: str) -> list[Shape]:
    left = MAP + 20
    shapes: list[Shape] = []
    y = 90.0
    shapes.append(Text((left, y), text("lib_picture_round", language, round=view["round"]), 15, INK, "start", True))
    y += 34
    shapes.append(Text((left, y), text("lib_picture_box", language), 14, INK, "start", True))
    for seat in view["players"]:
        y += 22
        count = int(view["box"].get(seat, 0))
        shapes.append(Circle((left + 8, y), 7, Style(SEAT_COLOURS[seat], INK, 1), "box", (("owner", seat),)))
        shapes.append(Text((left + 22, y), f"{seat}: {count}", 12, INK, "start"))
    y += 36
    shapes.append(Text((left, y), text("lib_picture_votes", language), 14, INK, "start", True))
    votes = view.get("votes") or {}
    for name in FACTIONS:
        y += 24
        count = int(votes.get(name, 0))
        bar = ((left, y - 8), (left + 8 * count + 2, y - 8), (left + 8 * count + 2, y + 8), (left, y + 8))
        shapes.append(Polygon(bar, Style(FACTION_COLOURS[name], INK, 1), "votes", (("faction", name),)))
        shapes.append(Text((left + 8 * count + 10, y), str(count), 12, INK, "start"))
    y += 30
    for key in ("government", "opposition"):
        shapes.append(Text((left, y), text(f"lib_picture_{key}", language, faction=faction(view.get(key), language)),
                           12, INK, "start"))
        y += 20
    y += 20
    shapes.append(Text((left, y), text("lib_picture_vp", language), 14, INK, "start", True))
    for seat in view["players"]:
        y += 22
        shapes.append(Circle((left + 8, y), 7, Style(SEAT_COLOURS[seat], INK, 1), "vp", (("owner", seat),)))
        shapes.append(Text((left + 22, y), f"{seat}: {view['vp'][seat]}", 12, INK, "start"))
    return shapes
