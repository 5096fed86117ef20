"""A picture as pure data: a list of primitives that both writers draw.

A ``Scene`` is what the SVG writer and the PNG writer share: polygons,
polylines, circles and texts, in drawing order (later ones on top), with
colours as ``#rrggbb`` and lengths in pixels of the final picture.
``cls`` and ``data`` are names for machines (the SVG ``class`` and
``data-*`` attributes); the PNG writer ignores them.  A ``Group`` bundles
the primitives of one thing (a unit, an order) under one name.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from adjudicator.games.pictures.geometry import Point

Data = tuple[tuple[str, str], ...]
"""``data-*`` attributes as (name without ``data-``, value) pairs."""


@dataclass(frozen=True, slots=True)
class Style:
    """How a shape is painted: ``fill`` and ``stroke`` colours (``None``:
    not painted), stroke ``width`` and a ``dash`` pattern (lengths of
    drawn and left gaps; empty: solid)."""

    fill: str | None = None
    stroke: str | None = None
    width: float = 1.0
    dash: tuple[float, ...] = ()


@dataclass(frozen=True, slots=True)
class Polygon:
    """A closed shape through ``points``."""

    points: tuple[Point, ...]
    style: Style
    cls: str = ""
    data: Data = ()


@dataclass(frozen=True, slots=True)
class Polyline:
    """An open line through ``points`` (only its stroke is painted)."""

    points: tuple[Point, ...]
    style: Style
    cls: str = ""
    data: Data = ()


@dataclass(frozen=True, slots=True)
class Circle:
    """A circle of ``radius`` around ``centre``."""

    centre: Point
    radius: float
    style: Style
    cls: str = ""
    data: Data = ()


@dataclass(frozen=True, slots=True)
class Text:
    """One line of text; ``at`` is the middle of its baseline region:
    ``anchor`` ``middle`` centres the text on ``at``, ``start`` begins it
    there; vertically the text is centred on ``at``."""

    at: Point
    text: str
    size: float
    fill: str
    anchor: str = "middle"
    bold: bool = False
    cls: str = ""
    data: Data = ()


@dataclass(frozen=True, slots=True)
class Group:
    """Primitives that belong together (one unit, one order)."""

    children: tuple["Shape", ...]
    cls: str = ""
    data: Data = ()


Shape = Union[Polygon, Polyline, Circle, Text, Group]


@dataclass(frozen=True, slots=True)
class Scene:
    """A whole picture: its size in pixels, background colour, title and
    shapes in drawing order."""

    width: int
    height: int
    background: str
    title: str
    shapes: tuple[Shape, ...]


def walk(shapes: tuple[Shape, ...]) -> list[Shape]:
    """Every shape with the children of groups, in drawing order (a group
    comes before its children)."""
    found: list[Shape] = []
    for shape in shapes:
        found.append(shape)
        if isinstance(shape, Group):
            found.extend(walk(shape.children))
    return found
