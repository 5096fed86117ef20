"""The board picture of a turn report mail, for any game that draws one.

``report_images`` asks the game module for its picture of a resolved phase
(the state it was resolved from and its report data), writes it as a PNG
and wraps it as an ``Attachment`` with a content id, so the HTML part
shows it inline (``<img src="cid:...">``) and readers of the plain text
find it attached.
"""

from __future__ import annotations

import logging
import re
from typing import Any, Callable, Mapping

from adjudicator.games.base import GameModule
from adjudicator.mail.compose import Attachment

log = logging.getLogger(__name__)

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def map_name(game: str, phase: str) -> str:
    """The file name stem of a phase's map: ``<game>-<phase>``, with
    anything but ASCII letters, digits, dots, hyphens and underscores
    written as ``-``."""
    return _UNSAFE.sub("-", f"{game}-{phase}").strip("-") or "map"


def content_id(game: str, phase: str) -> str:
    """The content id of a phase's map in a mail (without angle brackets)."""
    return f"map-{map_name(game, phase)}@adjudicator"


def report_images(module: GameModule, game: str, state: Mapping[str, Any], report: Mapping[str, Any], *,
                  language: str, texts: Callable[..., str]) -> tuple[Attachment, ...]:
    """The attachments of a turn report: the game's picture of the phase
    as ``image/png`` named ``<game>-<phase>.png`` with the content id
    ``content_id(game, phase)``, or none for a game without a picture.
    Never raises: a picture that cannot be drawn is logged and left out,
    so the report still goes out."""
    phase = str(report.get("phase") or state.get("phase") or "")
    try:
        scene = module.picture(dict(state), dict(report), game_name=game, language=language, texts=texts)
        if scene is None:
            return ()
        from adjudicator.games.pictures.png import to_png

        data = to_png(scene)
    except Exception:  # the report matters more than its picture
        log.exception("cannot draw the map of %s %s", game, phase)
        return ()
    return (Attachment(f"{map_name(game, phase)}.png", "image/png", data, content_id(game, phase)),)
