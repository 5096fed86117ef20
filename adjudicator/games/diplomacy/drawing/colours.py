"""The colours of map pictures: terrain, lines, and one colour per power.

Powers get the palette's colours in the map's power order, so on the
standard map Austria is red, England dark blue, France light blue,
Germany grey, Italy green, Russia purple and Turkey yellow.
"""

from __future__ import annotations

from adjudicator.games.diplomacy.core.mapdata import GameMap

PALETTE = (
    "#d0312d",  # red
    "#243f8f",  # dark blue
    "#4fa3e0",  # light blue
    "#5f6a72",  # grey
    "#2e9e4f",  # green
    "#8a4fb0",  # purple
    "#e8c21a",  # yellow
    "#ee7f1b",  # orange
    "#8c5a2b",  # brown
    "#17a2a0",  # teal
    "#e0609a",  # pink
    "#6b8e23",  # olive
)

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
