"""The colours of map pictures: terrain, lines, and one colour per power.

Powers get the palette's colours in the map's power order, so on the
standard map Austria is red, England navy, France violet blue, Germany
charcoal, Italy green, Russia pink and Turkey yellow.  Every colour, and
the pale tint owned land is filled with, stays clearly apart from the sea
and the land (``colour_distance``, checked by tests/test_drawing.py): a
light blue France would look like sea.
"""

from __future__ import annotations

from adjudicator.games.diplomacy.core.mapdata import GameMap

PALETTE = (
    "#d0312d",  # red
    "#1a2a6c",  # navy
    "#7e57c2",  # violet blue
    "#3c4650",  # charcoal
    "#2e9e4f",  # green
    "#e0609a",  # pink
    "#e8c21a",  # yellow
    "#ee7f1b",  # orange
    "#8c5a2b",  # brown
    "#00897b",  # teal
    "#8e24aa",  # magenta
    "#6b8e23",  # olive
)

REGION_SHARE = 0.55
"""How much of its owner's colour an owned province is filled with."""

BACKGROUND = "#d9dcd6"
LAND = "#f1e9d2"
SEA = "#bcd5ea"
COAST_LINE = "#4f6f8a"
LAND_LINE = "#a89c83"
SEA_LINE = "#9fbfd8"
RIVER = "#3a7cc7"
INK = "#222222"
PAPER = "#ffffff"
FAILED = "#b3141b"
FAILED_LIGHT = "#d98a8d"
SUPPORT = "#333333"
PANEL = "#fbfaf6"


def power_colours(game_map: GameMap) -> dict[str, str]:
    """Each power's colour (the palette in map order, repeated if needed)."""
    return {power: PALETTE[index % len(PALETTE)] for index, power in enumerate(game_map.powers)}


def tint(colour: str, share: float) -> str:
    """``colour`` mixed with white: ``share`` of the colour, the rest white."""
    value = colour.lstrip("#")
    channels = [int(value[k:k + 2], 16) for k in (0, 2, 4)]
    mixed = [round(c * share + 255 * (1 - share)) for c in channels]
    return "#" + "".join(f"{c:02x}" for c in mixed)


def readable_on(colour: str) -> str:
    """Black or white, whichever reads better on ``colour``."""
    value = colour.lstrip("#")
    r, g, b = (int(value[k:k + 2], 16) for k in (0, 2, 4))
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 150 else PAPER


def _lab(colour: str) -> tuple[float, float, float]:
    """CIE L*a*b* (D65) of an sRGB ``#rrggbb`` colour."""
    value = colour.lstrip("#")
    linear = []
    for k in (0, 2, 4):
        channel = int(value[k:k + 2], 16) / 255
        linear.append(((channel + 0.055) / 1.055) ** 2.4 if channel > 0.04045 else channel / 12.92)
    r, g, b = linear
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def colour_distance(first: str, second: str) -> float:
    """How far apart two colours look: the CIE76 colour difference ΔE
    (about 2 is just noticeable, above 20 clearly different colours)."""
    a, b = _lab(first), _lab(second)
    return float(sum((p - q) ** 2 for p, q in zip(a, b)) ** 0.5)
