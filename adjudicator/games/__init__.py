"""Game modules: what the judge service knows about a game.

The service talks to every game through the ``GameModule`` interface of
``adjudicator.games.base`` (state as JSON data, order checking, phase
resolution, report data).  Diplomacy variants share one module class fed by
a map; sealed-play card games add their own module beside it.
"""

from __future__ import annotations

from adjudicator.core.mapdata import MapError
from adjudicator.games.base import GameModule, UnknownGame
from adjudicator.games.diplomacy import DiplomacyGame
from adjudicator.games.revolution1848 import VARIANT as REVOLUTION1848, Revolution1848

__all__ = ["DiplomacyGame", "GameModule", "Revolution1848", "UnknownGame", "game_module"]


def game_module(variant: str) -> GameModule:
    """The module for ``variant`` (``1848``, or a map name such as
    ``standard`` or ``30jk``); raises ``UnknownGame`` naming the variant
    otherwise."""
    if variant == REVOLUTION1848:
        return Revolution1848()
    try:
        return DiplomacyGame.for_variant(variant)
    except MapError as error:
        raise UnknownGame(str(error)) from None
