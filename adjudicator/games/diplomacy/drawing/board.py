"""The map itself as scene shapes: regions coloured by terrain and owner,
borders and coastlines, rivers with their flow, supply centres, split
coasts and province abbreviations."""

from __future__ import annotations

from functools import lru_cache
from typing import Mapping

from adjudicator.games.diplomacy.core.mapdata import GameMap
from adjudicator.games.diplomacy.core.model import coast_of
from adjudicator.games.diplomacy.drawing import colours as c
from adjudicator.games.pictures.geometry import arrow_head, point_at
from adjudicator.games.diplomacy.drawing.layout import Border, MapLayout, RiverLine
from adjudicator.games.pictures.scene import Circle, Group, Polygon, Polyline, Shape, Style, Text

LABEL_SIZE = 10.0
UNIT_RADIUS = 9.0


def region_shapes(game_map: GameMap, layout: MapLayout, owners: Mapping[str, str],
                  colours: Mapping[str, str]) -> list[Shape]:
    """One polygon per province (``class="region"``, ``data-province``,
    ``data-terrain``, ``data-owner`` for an owned centre): sea blue, land
    beige, an owned supply centre tinted in its owner's colour."""
    shapes: list[Shape] = []
    for key, region in layout.regions.items():
        province = game_map.provinces[key]
        data = [("province", key), ("terrain", province.terrain)]
        fill = c.SEA if region.sea else c.LAND
        owner = owners.get(key)
        if owner is not None and owner in colours:
            fill = c.tint(colours[owner], c.REGION_SHARE)
            data.append(("owner", owner))
        shapes.append(Polygon(region.outline, Style(fill=fill), "region", tuple(data)))
    return shapes


def border_shapes(layout: MapLayout) -> list[Shape]:
    """Borders between regions (``class="border"``, ``data-kind``): land
    and sea borders thin, coastlines darker and thicker (drawn last, on top)."""
    return list(_border_shapes(layout.borders))


@lru_cache(maxsize=8)
def _border_shapes(borders: tuple[Border, ...]) -> tuple[Shape, ...]:
    """``border_shapes`` of a map's borders, made once per map (they never change)."""
    styles = {
        "sea": Style(stroke=c.SEA_LINE, width=0.8),
        "edge": Style(stroke=c.SEA_LINE, width=0.8),
        "land": Style(stroke=c.LAND_LINE, width=0.9),
        "coast": Style(stroke=c.COAST_LINE, width=1.6),
    }
    shapes: list[Shape] = []
    for kind in ("sea", "edge", "land", "coast"):
        for border in borders:
            if border.kind == kind:
                shapes.append(Polyline((border.start, border.end), styles[kind], "border", (("kind", kind),)))
    return tuple(shapes)


def river_shapes(layout: MapLayout) -> list[Shape]:
    """Each river as a blue line (``class="river"``, ``data-river``) with
    small arrow heads pointing downstream (``class="flow"``)."""
    return list(_river_shapes(layout.rivers))


@lru_cache(maxsize=8)
def _river_shapes(rivers: tuple[RiverLine, ...]) -> tuple[Shape, ...]:
    """``river_shapes`` of a map's rivers, made once per map."""
    shapes: list[Shape] = []
    for river in rivers:
        if len(river.points) < 2:
            continue
        parts: list[Shape] = [Polyline(river.points, Style(stroke=c.RIVER, width=2.4), "river-line")]
        for fraction in (0.2, 0.5, 0.8):
            at, (dx, dy) = point_at(river.points, fraction)
            tail = (at[0] - dx * 6, at[1] - dy * 6)
            parts.append(Polygon(arrow_head(at, tail, 6.0, 6.0), Style(fill=c.RIVER), "flow"))
        shapes.append(Group(tuple(parts), "river", (("river", river.name),)))
    return tuple(shapes)


COAST_MARK = 8.0
"""The radius of a split coast's mark: its code (NC, SC, EC) stays
readable at the size a mail shows the map."""
COAST_TEXT = 8.5


def coast_shapes(layout: MapLayout) -> list[Shape]:
    """A small mark with the coast's code at every split coast
    (``class="coast"``, ``data-coast="STP/NC"``)."""
    shapes: list[Shape] = []
    for region in layout.regions.values():
        for location, point in region.coasts.items():
            code = coast_of(location) or ""
            shapes.append(Group((
                Circle(point, COAST_MARK, Style(fill=c.PAPER, stroke=c.COAST_LINE, width=1.6), ""),
                Text(point, code.upper(), COAST_TEXT, c.COAST_LINE, bold=True),
            ), "coast", (("coast", location),)))
    return shapes


def centre_point(layout: MapLayout, key: str) -> tuple[float, float]:
    """Where a province's supply-centre mark is drawn (above its seat)."""
    x, y = layout.regions[key].seat
    return x, y - UNIT_RADIUS - 7


def centre_shapes(game_map: GameMap, layout: MapLayout, owners: Mapping[str, str],
                  colours: Mapping[str, str]) -> list[Shape]:
    """A ring per supply centre (``class="centre"``, ``data-province``),
    filled with its owner's colour, white when neutral."""
    shapes: list[Shape] = []
    for key in game_map.supply_centres:
        owner = owners.get(key)
        fill = colours.get(owner, c.PAPER) if owner else c.PAPER
        data = (("province", key),) + ((("owner", owner),) if owner else ())
        shapes.append(Circle(centre_point(layout, key), 4.2, Style(fill=fill, stroke=c.INK, width=1.2), "centre", data))
    return shapes
