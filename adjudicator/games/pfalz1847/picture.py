"""The picture of an 1847 AE position: the hex map (tiles, track, cities,
towns, stations, off-boards with their revenues, terrain costs, the
states' colours, each company's last routes) and below it the stock
market with every company's marker, as a ``Scene`` (SVG and PNG)."""

from __future__ import annotations

import math
from typing import Any

from adjudicator.games.pfalz1847 import engine
from adjudicator.games.pfalz1847.board import split
from adjudicator.games.pfalz1847.data import GameData
from adjudicator.games.pictures.geometry import Point, smooth
from adjudicator.games.pictures.scene import Circle, Group, Polygon, Polyline, Scene, Shape, Style, Text

SIZE = 34.0
W = math.sqrt(3) * SIZE
MARGIN = 40.0
COLOURS = {"white": "#f4f1e6", "yellow": "#f6df4a", "green": "#7cc26b", "brown": "#c08850", "gray": "#b8b8b8",
           "red": "#d9534f"}
STATE_TINTS = {"B": "#dbe8f7", "P": "#f7dbe6", "H": "#dcf2d8"}
COMPANY_COLOURS = {"L": "#4682b4", "Saar": "#ff4040", "HLB": "#dda0dd", "NDB": "#61b229", "M": "#d4c217",
                   "N": "#ffa500", "RNB": "#e07b9a", "LFK": "#777777"}


def centre(at: str) -> Point:
    """The pixel centre of hex ``at``."""
    row, col = split(at)
    return (MARGIN + col * W / 2, MARGIN + row * 1.5 * SIZE)


def _corners(at: str) -> tuple[Point, ...]:
    x, y = centre(at)
    return tuple((x + SIZE * math.cos(math.radians(-90 + 60 * k)), y + SIZE * math.sin(math.radians(-90 + 60 * k)))
                 for k in range(6))


_SIDE_ANGLE = {0: 120.0, 1: 180.0, 2: 240.0, 3: 300.0, 4: 0.0, 5: 60.0}


def _side(at: str, side: int, inset: float = 1.0) -> Point:
    x, y = centre(at)
    r = SIZE * math.sqrt(3) / 2 * inset
    a = math.radians(_SIDE_ANGLE[side])
    return (x + r * math.cos(a), y + r * math.sin(a))


def _node_point(at: str, index: int, count: int) -> Point:
    x, y = centre(at)
    if count < 2:
        return (x, y)
    return (x + (-10 if index == 0 else 10), y)


def draw(data: GameData, g: dict[str, Any], *, game_name: str, phase: str, language: str, standin: bool) -> Scene:
    """The map and market of position ``g``."""
    board = engine.board(data, g)
    shapes: list[Shape] = []
    colour_index = engine.colour_index(data, g)
    for at, printed in sorted(data.hexes.items()):
        shape = board.shape(at)
        fill = COLOURS[shape.colour]
        if shape.colour == "white" and printed.states:
            fill = STATE_TINTS.get(printed.states[0], fill)
        parts: list[Shape] = [Polygon(_corners(at), Style(fill, "#555555", 1.0))]
        if printed.states and shape.colour != "red":
            parts.append(Text((centre(at)[0], centre(at)[1] - SIZE * 0.6), printed.states, 7, "#555555"))
        for a, b in shape.paths:
            points = [_end(at, a, len(shape.nodes)), centre(at), _end(at, b, len(shape.nodes))]
            if not a.startswith("_") and not b.startswith("_"):
                points = smooth(points, 3)
            else:
                points = [_end(at, a, len(shape.nodes)), _end(at, b, len(shape.nodes))]
            parts.append(Polyline(tuple(points), Style(None, "#222222", 4.0)))
        for index, node in enumerate(shape.nodes):
            point = _node_point(at, index, len(shape.nodes))
            if node.kind == "town" and shape.paths:
                parts.append(Circle(point, 4.5, Style("#222222", "#222222")))
            elif node.kind == "city":
                tokens = g["stations"].get(at, [])
                for slot in range(node.slots):
                    sx = point[0] + (slot - (node.slots - 1) / 2) * 14
                    owner = tokens[slot] if slot < len(tokens) else None
                    parts.append(Circle((sx, point[1]), 7.5, Style(COMPANY_COLOURS.get(owner or "", "#ffffff"),
                                                                   "#222222", 1.5)))
                    if owner:
                        parts.append(Text((sx, point[1] + 3), owner[:3], 7, "#000000", bold=True))
        if shape.colour == "red":
            revenue = "/".join(str(v) for v in printed.offboard)
            parts.append(Text((centre(at)[0], centre(at)[1] - 6), revenue, 9, "#ffffff", bold=True))
            current = printed.offboard[colour_index]
            parts.append(Text((centre(at)[0], centre(at)[1] + 16), f"{printed.shape.label} {current}".strip(), 9,
                              "#ffffff", bold=True))
        revenues = [n.revenue for n in shape.nodes if n.kind != "offboard" and shape.paths]
        if revenues and shape.colour != "red":
            parts.append(Text((centre(at)[0] + SIZE * 0.55, centre(at)[1] + SIZE * 0.55),
                              "/".join(str(v) for v in revenues), 8, "#000000", bold=True))
        if printed.cost and at not in g["tiles"]:
            mark = "▲" if printed.terrain == "mountain" else "≈"
            parts.append(Text((centre(at)[0] - SIZE * 0.5, centre(at)[1] + SIZE * 0.55), f"{mark}{printed.cost}", 7,
                              "#333333"))
        laid = g["tiles"].get(at)
        label = at + (f" #{laid[0]}" if laid else "")
        parts.append(Text((centre(at)[0], centre(at)[1] + SIZE * 0.8), label, 7, "#333333"))
        if printed.name:
            parts.append(Text((centre(at)[0], centre(at)[1] - SIZE * 0.35), printed.name[:14], 7, "#111111"))
        shapes.append(Group(tuple(parts), cls="hex", data=(("hex", at),)))
    shapes += _routes(data, g)
    width = int(MARGIN * 2 + 23 * W / 2)
    top = MARGIN + 10 * 1.5 * SIZE + 20
    market, height = _market(data, g, top)
    shapes += market
    title = f"1847 AE {game_name} {phase}" + (" (STAND-IN DATA)" if standin else "")
    shapes.insert(0, Text((MARGIN, 18), title, 14, "#000000", anchor="start", bold=True))
    return Scene(width, int(height), "#ffffff", title, tuple(shapes))


def _end(at: str, end: str, nodes: int) -> Point:
    if end.startswith("_"):
        return _node_point(at, int(end[1:]), nodes)
    return _side(at, int(end))


def _routes(data: GameData, g: dict[str, Any]) -> list[Shape]:
    found: list[Shape] = []
    for offset, (cid, entries) in enumerate(sorted(g["routes"].items())):
        for number, entry in enumerate(entries):
            shift = (offset * 3 + number * 2) - 6
            points = tuple((centre(at)[0] + shift, centre(at)[1] + shift) for at, _ in entry["stops"])
            if len(points) > 1:
                found.append(Polyline(points, Style(None, COMPANY_COLOURS.get(cid, "#000000"), 3.0, (6.0, 3.0)),
                                      cls="route", data=(("company", cid), ("train", str(entry["train"])))))
    return found


def _market(data: GameData, g: dict[str, Any], top: float) -> tuple[list[Shape], float]:
    cell_w, cell_h = 44.0, 30.0
    shapes: list[Shape] = []
    for r, row in enumerate(data.market):
        for c, code in enumerate(row):
            if not code:
                continue
            x, y = MARGIN + c * cell_w, top + r * cell_h
            fill = "#ffe9a8" if code.endswith("p") else "#ffffff"
            shapes.append(Polygon(((x, y), (x + cell_w, y), (x + cell_w, y + cell_h), (x, y + cell_h)),
                                  Style(fill, "#888888", 1.0)))
            shapes.append(Text((x + 4, y + 11), code.rstrip("p"), 9, "#000000", anchor="start", bold=True))
            here = sorted((cid for cid, cell in g["price"].items() if cell and cell[0] == r and cell[1] == c),
                          key=lambda cid: g["seq"][cid])
            for k, cid in enumerate(here):
                shapes.append(Text((x + 4 + 20 * (k % 2), y + 22 + 8 * (k // 2)), cid[:4], 7,
                                   COMPANY_COLOURS.get(cid, "#000000"), anchor="start", bold=True))
    return shapes, top + len(data.market) * cell_h + MARGIN
