"""The Politburo as a picture: the chief on top, levels 1 and 2 below,
the candidates, then counts of the people, Siberia and the Kremlin wall;
each box shows the holder, his age, illness markers (+), a cure (K) and a
pending investigation (?), and the player leading him."""

from __future__ import annotations

from adjudicator.games.kreml import words
from adjudicator.games.kreml.rules import (
    CANDIDATE, CHIEF, JSON, LEVEL1, LEVEL2, PEOPLE, SIBERIA, WALL, at, holder, leader, oldest, shown,
)
from adjudicator.games.pictures.scene import Group, Polygon, Scene, Shape, Style, Text

WIDTH, BOX_W, BOX_H = 880, 200, 64


def _box(x: float, y: float, title: str, name: str | None, state: JSON, language: str) -> Group:
    fill = "#f4e7c5" if name else "#dddddd"
    shapes: list[Shape] = [Polygon(((x, y), (x + BOX_W, y), (x + BOX_W, y + BOX_H), (x, y + BOX_H)),
                                   Style(fill=fill, stroke="#7a1f1f", width=1.5)),
                           Text((x + BOX_W / 2, y + 15), title, 11, "#7a1f1f", bold=True)]
    if name:
        entry = state["pol"][name]
        marks = "+" * int(entry["ill"]) + (" K" if entry["cure"] else "") + (" ?" if entry["inv"] is not None else "")
        shapes.append(Text((x + BOX_W / 2, y + 33), name, 12, "#000000", bold=True))
        who = leader(state, name)
        led = f"{words.player(who, language)} {shown(state, name)}" if who else "-"
        shapes.append(Text((x + BOX_W / 2, y + 52), f"{entry['age']} {marks}   {led}", 11, "#333333"))
    return Group(tuple(shapes), cls="office", data=(("holder", name or ""),))


def politburo(state: JSON, game_name: str, language: str) -> Scene:
    """The picture of the position in ``state``."""
    shapes: list[Shape] = [Text((WIDTH / 2, 24), f"{game_name}: {words.say('politburo', language)}", 16,
                                "#7a1f1f", bold=True)]
    shapes.append(_box(WIDTH / 2 - BOX_W / 2, 40, words.office(CHIEF, language), holder(state, CHIEF), state, language))
    for row, offices in ((1, LEVEL1), (2, LEVEL2)):
        count = len(offices)
        start = WIDTH / 2 - (count * BOX_W + (count - 1) * 10) / 2
        for index, office in enumerate(offices):
            shapes.append(_box(start + index * (BOX_W + 10), 40 + row * (BOX_H + 16), words.office(office, language),
                               holder(state, office), state, language))
    y = 40 + 3 * (BOX_H + 16)
    candidates = oldest(state, at(state, CANDIDATE))
    shapes.append(Text((WIDTH / 2, y + 10), words.say("candidates", language) + ": " + ", ".join(candidates), 12,
                       "#000000"))
    counts = [(words.say("people", language), len(at(state, PEOPLE))),
              (words.say("siberia", language), len(at(state, SIBERIA))), (words.say("wall", language), len(at(state, WALL)))]
    shapes.append(Text((WIDTH / 2, y + 32), "   ".join(f"{label}: {n}" for label, n in counts), 12, "#333333"))
    if state["data"]["standin"]:
        shapes.append(Text((WIDTH / 2, y + 54), words.say("standin_short", language), 11, "#aa0000", bold=True))
    return Scene(WIDTH, int(y + 70), "#ffffff", game_name, tuple(shapes))
