"""One phase as a picture: the map, the units, the orders and the legend
in one ``Scene``.

``draw_phase`` is pure: the scene depends only on the view, the names and
the words given, so a phase drawn twice gives the same SVG and PNG bytes.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from adjudicator.games.diplomacy.drawing import board
from adjudicator.games.diplomacy.drawing import colours as c
from adjudicator.games.diplomacy.drawing.labels import label_shapes
from adjudicator.games.diplomacy.drawing.layout import map_layout
from adjudicator.games.diplomacy.drawing.legend import ENGLISH, LEGEND_WIDTH, legend_height, legend_shapes
from adjudicator.games.diplomacy.drawing.pieces import piece_shapes
from adjudicator.games.pictures.scene import Group, Scene, Shape
from adjudicator.games.diplomacy.drawing.view import PhaseView, phase_view


def draw_phase(view: PhaseView, *, power_name: Callable[[str], str] = str,
               words: Mapping[str, str] = ENGLISH, title: str | None = None) -> Scene:
    """The picture of one phase: provinces (one ``region`` per province,
    coloured by terrain and centre owner), borders, rivers, split coasts,
    supply centres, abbreviations, then bounces, supports and convoys,
    the units (one ``unit`` each), moves and retreats (one ``arrow move``
    or ``arrow retreat`` each), markers, and the legend to the right.
    ``title`` heads the legend (default: the map's title)."""
    game_map = view.game_map
    layout = map_layout(game_map)
    colours = c.power_colours(game_map)
    owners = view.owners
    height = max(layout.height, legend_height(view))
    marks = [*board.coast_shapes(layout), *board.centre_shapes(game_map, layout, owners, colours)]
    under, units, over = piece_shapes(view, layout, colours)
    base: list[Shape] = [
        *board.region_shapes(game_map, layout, owners, colours),
        *board.border_shapes(layout),
        *board.river_shapes(layout),
        *marks,
        *label_shapes(game_map, [*marks, *under, *units, *over]),
    ]
    legend = legend_shapes(view, layout.width, height, colours, power_name, words, title or game_map.title)
    shapes = (
        Group(tuple(base), "map", (("variant", game_map.name),)),
        Group(tuple(under), "orders-under"),
        Group(tuple(units), "units"),
        Group(tuple(over), "orders"),
        Group(tuple(legend), "legend"),
    )
    label = f"{title or game_map.title} {view.phase}"
    return Scene(layout.width + LEGEND_WIDTH, height, c.BACKGROUND, label, shapes)


def draw(state: Mapping[str, Any], report: Mapping[str, Any] | None = None, *,
         power_name: Callable[[str], str] = str, words: Mapping[str, str] = ENGLISH,
         title: str | None = None) -> Scene:
    """``draw_phase`` of ``phase_view(state, report)``: the phase ``state``
    is in, with the orders and results of ``report`` when given."""
    return draw_phase(phase_view(state, report), power_name=power_name, words=words, title=title)
