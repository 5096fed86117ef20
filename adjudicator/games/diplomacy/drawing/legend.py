"""The legend beside the map: the phase, each power's colour, centres
(before and after the phase), units and confession, and a key to the
symbols used.

Words come from a mapping (``ENGLISH`` here; the judge fills it from the
catalogue ``templates/texts.toml``, keys ``map_<word>``), power names from
a function, so the legend speaks the game's language.
"""

from __future__ import annotations

from typing import Callable, Mapping

from adjudicator.games.diplomacy.core.model import PhaseKind, UnitType
from adjudicator.games.diplomacy.drawing import colours as c
from adjudicator.games.diplomacy.drawing.pieces import burst, confession_badge, cross, unit_symbol
from adjudicator.games.pictures.scene import Circle, Group, Polygon, Polyline, Shape, Style, Text
from adjudicator.games.pictures.geometry import arrow_head
from adjudicator.games.diplomacy.drawing.view import PhaseView

LEGEND_WIDTH = 300
"""The width in pixels of the legend panel."""

WORDS = (
    "centres", "units", "move", "failed", "support", "convoy", "dislodged", "standoff", "build", "remove",
    "centre", "centre_neutral", "coast", "build_failed", "remove_failed", "hold",
    "transform", "confession", "disbanded", "defected", "river", "catholic", "protestant", "ex-catholic",
    "ex-protestant",
)
"""Every word the legend uses (the keys of a words mapping)."""

ENGLISH: Mapping[str, str] = {
    "centres": "centres", "units": "units", "move": "move", "failed": "failed", "support": "support",
    "convoy": "convoy", "dislodged": "dislodged", "standoff": "bounce (standoff)", "build": "build",
    "remove": "removed / disbanded", "transform": "transform", "confession": "change of confession",
    "disbanded": "religious warfare: disbanded", "defected": "religious warfare: defected", "river": "river",
    "catholic": "catholic", "protestant": "protestant", "ex-catholic": "leaving the catholic faith",
    "ex-protestant": "leaving the protestant faith",
    "centre": "supply centre (owner's colour)", "centre_neutral": "neutral supply centre",
    "coast": "coast (NC, SC, EC)", "build_failed": "build that failed",
    "remove_failed": "removal that failed", "hold": "unit (A army, F fleet)",
}
"""The legend's words in English."""


def _wrap(text: str, size: float, width: float) -> list[str]:
    """``text`` broken at spaces into lines of about ``width`` pixels."""
    most = max(8, int(width / (size * 0.56)))
    lines: list[str] = []
    for word in text.split():
        if lines and len(lines[-1]) + 1 + len(word) <= most:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines or [""]


def _fit(text: str, size: float, width: float) -> str:
    most = max(4, int(width / (size * 0.56)))
    return text if len(text) <= most else text[: most - 1] + "\u2026"


def legend_height(view: PhaseView) -> int:
    """The height in pixels the legend of ``view`` needs."""
    confessions = any(s.confession for s in view.standings)
    rows = len(view.standings) * (36 if confessions else 22)
    return 110 + rows + 30 + 19 * len(_key_items(view)) + 20


def _key_items(view: PhaseView) -> list[str]:
    """The symbols this picture may show, each explained once."""
    items = ["hold", "centre", "centre_neutral"]
    if any(len(view.game_map.fleet_locations(key)) > 1 for key in view.game_map.provinces):
        items.append("coast")
    items += ["move", "failed", "support", "convoy", "dislodged", "standoff"]
    if view.kind is PhaseKind.ADJUSTMENT:
        items += ["build", "build_failed", "remove", "remove_failed"]
    elif view.kind is PhaseKind.RETREAT:
        items += ["remove"]
    if any(p.confession for p in view.game_map.powers.values()):
        items += ["transform", "confession", "disbanded", "defected"]
    if view.game_map.rivers:
        items.append("river")
    return items


def _key_symbol(item: str, x: float, y: float) -> list[Shape]:
    left, right = (x - 14, y), (x + 14, y)
    if item in ("move", "failed"):
        dash = (5.0, 3.0) if item == "failed" else ()
        shapes: list[Shape] = [Polyline((left, (x + 7, y)), Style(stroke=c.INK, width=2.6, dash=dash)),
                               Polygon(arrow_head(right, left, 8, 7), Style(fill=c.INK))]
        if item == "failed":
            shapes.extend(cross((x + 2, y), 3.0, c.FAILED, 2.0))
        return shapes
    if item == "support":
        return [Polyline((left, right), Style(stroke=c.INK, width=2.0, dash=(5.0, 3.5)))]
    if item == "convoy":
        return [Polyline((left, right), Style(stroke=c.INK, width=1.8, dash=(1.5, 3.5)))]
    if item == "dislodged":
        return [Circle((x, y), 7.5, Style(stroke=c.FAILED, width=2.2))]
    if item == "standoff":
        return burst((x, y))
    if item == "build":
        return unit_symbol(UnitType.ARMY, (x, y), "#999999", ghost=True)
    if item == "hold":
        return unit_symbol(UnitType.ARMY, (x - 8, y), "#999999") + unit_symbol(UnitType.FLEET, (x + 8, y), "#999999")
    if item in ("centre", "centre_neutral"):
        fill = "#999999" if item == "centre" else c.PAPER
        return [Circle((x, y), 4.5, Style(fill=fill, stroke=c.INK, width=1.4))]
    if item == "coast":
        return [Circle((x, y), 8.0, Style(fill=c.PAPER, stroke=c.COAST_LINE, width=1.6)),
                Text((x, y), "NC", 8.5, c.COAST_LINE, bold=True)]
    if item == "build_failed":
        return [Circle((x, y), 8.0, Style(stroke=c.FAILED, width=1.8, dash=(3.0, 2.5))),
                *cross((x, y), 5.0, c.FAILED, 2.2)]
    if item == "remove_failed":
        return [Circle((x, y), 8.0, Style(stroke=c.FAILED_LIGHT, width=1.6, dash=(3.0, 2.5))),
                *cross((x, y), 4.5, c.FAILED_LIGHT, 1.6)]
    if item in ("remove", "disbanded"):
        return cross((x, y), 6.0, c.FAILED if item == "remove" else c.INK, 2.6)
    if item == "transform":
        return [Circle((x, y), 6.5, Style(fill=c.PAPER, stroke=c.INK, width=2.0)), Text((x, y), "F", 8.5, c.INK, bold=True)]
    if item == "confession":
        return confession_badge((x, y), "catholic")
    if item == "defected":
        return [Circle((x, y), 6.5, Style(fill="#999999", stroke=c.INK, width=1.5)),
                Text((x, y), "\u00bb", 9.0, c.PAPER, bold=True)]
    return [Polyline((left, right), Style(stroke=c.RIVER, width=2.4)),
            Polygon(arrow_head((x + 3, y), (x - 3, y), 6, 6), Style(fill=c.RIVER))]


def legend_shapes(view: PhaseView, left: float, height: float, colours: Mapping[str, str],
                  power_name: Callable[[str], str], words: Mapping[str, str], title: str) -> list[Shape]:
    """The legend panel's shapes, ``LEGEND_WIDTH`` wide from x = ``left``
    (``class="legend"``, one ``legend-power`` group per power with
    ``data-power``, ``data-centres`` and ``data-units``)."""

    def word(key: str) -> str:
        return words.get(key, ENGLISH[key])

    x0, inner = left + 14, LEGEND_WIDTH - 28
    shapes: list[Shape] = [
        Polygon(((left, 0.0), (left + LEGEND_WIDTH, 0.0), (left + LEGEND_WIDTH, height), (left, height)),
                Style(fill=c.PANEL)),
        Polyline(((left, 0.0), (left, height)), Style(stroke=c.COAST_LINE, width=1.5)),
    ]
    y = 22.0
    for line in _wrap(title, 13, inner):
        shapes.append(Text((x0, y), line, 13, c.INK, "start", True))
        y += 17
    phase = view.phase if view.next_phase is None else f"{view.phase} \u2192 {view.next_phase}"
    shapes.append(Text((x0, y + 8), phase, 18, c.INK, "start", True, "phase"))
    y += 40
    shapes.append(Text((left + LEGEND_WIDTH - 84, y), word("centres"), 10, "#555555", "end"))
    shapes.append(Text((left + LEGEND_WIDTH - 14, y), word("units"), 10, "#555555", "end"))
    y += 18
    for standing in view.standings:
        colour = colours.get(standing.power, "#999999")
        count = str(standing.centres_after) if standing.centres_after == standing.centres_before else \
            f"{standing.centres_before} \u2192 {standing.centres_after}"
        row: list[Shape] = [
            Circle((x0 + 6, y), 6.5, Style(fill=colour, stroke=c.INK, width=1.0)),
            Text((x0 + 18, y), _fit(power_name(standing.power), 11.5, inner - 120), 11.5, c.INK, "start"),
            Text((left + LEGEND_WIDTH - 84, y), count, 11.5, c.INK, "end", standing.centres_after != standing.centres_before),
            Text((left + LEGEND_WIDTH - 14, y), str(standing.units), 11.5, c.INK, "end"),
        ]
        step = 22.0
        if standing.confession:
            row.extend(confession_badge((x0 + 24, y + 15), standing.confession))
            text = word(standing.confession) if standing.confession in ENGLISH else standing.confession
            row.append(Text((x0 + 36, y + 15), text + (" (!)" if standing.confession_changed else ""), 10, "#444444",
                            "start", standing.confession_changed))
            step = 36.0
        shapes.append(Group(tuple(row), "legend-power", (
            ("power", standing.power), ("centres", str(standing.centres_after)), ("units", str(standing.units)),
        )))
        y += step
    y += 14
    shapes.append(Polyline(((x0, y), (left + LEGEND_WIDTH - 14, y)), Style(stroke="#cccccc", width=1.0)))
    y += 18
    for item in _key_items(view):
        shapes.append(Group((*_key_symbol(item, x0 + 16, y), Text((x0 + 40, y), word(item), 10.5, c.INK, "start")),
                            "legend-key", (("key", item),)))
        y += 19
    return shapes


def legend_words(texts: Callable[..., str]) -> dict[str, str]:
    """The legend's words from the catalogue: ``map_<word>`` for every word
    of ``WORDS`` (hyphens written as underscores)."""
    return {word: texts("map_" + word.replace("-", "_")) for word in WORDS}
