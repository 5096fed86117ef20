"""The map picture of a turn report mail.

``report_images`` draws a resolved phase (the state it was resolved from
and its report data) as a PNG and wraps it as an ``Attachment`` with a
content id, so the HTML part shows it inline (``<img src="cid:...">``)
and readers of the plain text find it attached.
"""

from __future__ import annotations

import logging
import re
from typing import Any, Callable, Mapping

from adjudicator.drawing.legend import WORDS
from adjudicator.drawing.picture import draw
from adjudicator.drawing.png import to_png
from adjudicator.games.diplomacy import DiplomacyGame
from adjudicator.mail.compose import Attachment

log = logging.getLogger(__name__)

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def legend_words(texts: Callable[..., str]) -> dict[str, str]:
    """The legend's words from the catalogue: ``map_<word>`` for every word
    of ``legend.WORDS`` (hyphens written as underscores)."""
    return {word: texts("map_" + word.replace("-", "_")) for word in WORDS}


def map_name(game: str, phase: str) -> str:
    """The file name stem of a phase's map: ``<game>-<phase>``, with
    anything but ASCII letters, digits, dots, hyphens and underscores
    written as ``-``."""
    return _UNSAFE.sub("-", f"{game}-{phase}").strip("-") or "map"


def content_id(game: str, phase: str) -> str:
    """The content id of a phase's map in a mail (without angle brackets)."""
    return f"map-{map_name(game, phase)}@adjudicator"


def report_images(module: object, game: str, state: Mapping[str, Any], report: Mapping[str, Any], *,
                  language: str, texts: Callable[..., str]) -> tuple[Attachment, ...]:
    """The attachments of a turn report: for a Diplomacy game, the map of
    the phase (the position it was resolved from, the orders with their
    results, the legend in ``language``) as ``image/png`` named
    ``<game>-<phase>.png`` with the content id ``content_id(game, phase)``;
    for any other game, none.  Never raises: a picture that cannot be
    drawn is logged and left out, so the report still goes out."""
    if not isinstance(module, DiplomacyGame):
        return ()
    phase = str(report.get("phase") or state.get("phase") or "")
    try:
        scene = draw(state, report, power_name=lambda p: module.power_name(p, language),
                     words=legend_words(texts), title=f"{game} \u2013 {module.game_map.title}")
        data = to_png(scene)
    except Exception:  # the report matters more than its picture
        log.exception("cannot draw the map of %s %s", game, phase)
        return ()
    return (Attachment(f"{map_name(game, phase)}.png", "image/png", data, content_id(game, phase)),)
