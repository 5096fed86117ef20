"""Game modules: one package per game, reached through the registry.

The service talks to every game through the ``GameModule`` interface of
``adjudicator.games.base`` (state as JSON data, order checking, phase
resolution, report data, pictures) and finds modules by variant name with
``game_module`` from ``adjudicator.games.registry``.  ``diplomacy/`` holds
Diplomacy and its variants, ``revolution1848/`` the sealed-play card game;
``pictures/`` the drawing primitives games share.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from adjudicator.games.base import GameModule, UnknownGame
    from adjudicator.games.registry import game_module

__all__ = ["GameModule", "UnknownGame", "game_module"]


def __getattr__(name: str) -> Any:
    """``GameModule``, ``UnknownGame`` and ``game_module``, imported when
    first asked for: importing a module of this package (the registry, the
    randomness) loads neither the interface nor any game (issue 20)."""
    if name in ("GameModule", "UnknownGame"):
        from adjudicator.games import base

        return getattr(base, name)
    if name == "game_module":
        from adjudicator.games.registry import game_module

        return game_module
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
