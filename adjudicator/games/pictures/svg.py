"""Writing a ``Scene`` as SVG text.

The output is a standalone SVG 1.1 document with no scripts, no external
references and no time stamps: the same scene always gives the same
characters.  Coordinates are written with one decimal; every group and
shape carries its ``class`` and ``data-*`` attributes.
"""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

from adjudicator.games.pictures.scene import Circle, Group, Polygon, Polyline, Scene, Shape, Style, Text
from adjudicator.games.pictures.geometry import Point

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"


def _number(value: float) -> str:
    text = f"{value:.1f}"
    if text.endswith(".0"):
        text = text[:-2]
    return "0" if text == "-0" else text


def _points(points: tuple[Point, ...]) -> str:
    return " ".join(f"{_number(x)},{_number(y)}" for x, y in points)


def _names(cls: str, data: tuple[tuple[str, str], ...]) -> str:
    parts = [f" class={quoteattr(cls)}"] if cls else []
    parts.extend(f" data-{name}={quoteattr(value)}" for name, value in data)
    return "".join(parts)


def _style(style: Style, fill_default: str = "none") -> str:
    parts = [f' fill="{style.fill or fill_default}"']
    if style.stroke is not None:
        parts.append(f' stroke="{style.stroke}" stroke-width="{_number(style.width)}"')
        parts.append(' stroke-linejoin="round" stroke-linecap="round"')
        if style.dash:
            parts.append(f' stroke-dasharray="{" ".join(_number(d) for d in style.dash)}"')
    return "".join(parts)


def _shape(shape: Shape, indent: str) -> list[str]:
    if isinstance(shape, Group):
        lines = [f"{indent}<g{_names(shape.cls, shape.data)}>"]
        for child in shape.children:
            lines.extend(_shape(child, indent + " "))
        lines.append(f"{indent}</g>")
        return lines
    names = _names(shape.cls, shape.data)
    if isinstance(shape, Polygon):
        return [f'{indent}<polygon{names} points="{_points(shape.points)}"{_style(shape.style)}/>']
    if isinstance(shape, Polyline):
        return [f'{indent}<polyline{names} points="{_points(shape.points)}"{_style(shape.style)}/>']
    if isinstance(shape, Circle):
        x, y = shape.centre
        return [
            f'{indent}<circle{names} cx="{_number(x)}" cy="{_number(y)}" r="{_number(shape.radius)}"'
            f"{_style(shape.style)}/>"
        ]
    x, y = shape.at
    weight = ' font-weight="bold"' if shape.bold else ""
    return [
        f'{indent}<text{names} x="{_number(x)}" y="{_number(y)}" font-size="{_number(shape.size)}"'
        f' text-anchor="{shape.anchor}" dominant-baseline="central" fill="{shape.fill}"{weight}>'
        f"{escape(shape.text)}</text>"
    ]


def to_svg(scene: Scene) -> str:
    """The scene as an SVG document (UTF-8 text ending in a newline):
    width and height in pixels, a ``<title>``, the background, then every
    shape in drawing order.  Deterministic: equal scenes give equal text."""
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{scene.width}" height="{scene.height}"'
        f' viewBox="0 0 {scene.width} {scene.height}" font-family="{FONT}">',
        f" <title>{escape(scene.title)}</title>",
        f' <rect class="background" x="0" y="0" width="{scene.width}" height="{scene.height}"'
        f' fill="{scene.background}"/>',
    ]
    for shape in scene.shapes:
        lines.extend(_shape(shape, " "))
    lines.append("</svg>")
    return "\n".join(lines) + "\n"
