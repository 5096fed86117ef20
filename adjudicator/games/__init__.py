"""Game modules: one package per game, reached through the registry.

The service talks to every game through the ``GameModule`` interface of
``adjudicator.games.base`` (state as JSON data, order checking, phase
resolution, report data, pictures) and finds modules by variant name with
``game_module`` from ``adjudicator.games.registry``.  ``diplomacy/`` holds
Diplomacy and its variants, ``revolution1848/`` the sealed-play card game;
``pictures/`` the drawing primitives games share.
"""

from __future__ import annotations

from adjudicator.games.base import GameModule, UnknownGame
from adjudicator.games.registry import game_module

__all__ = ["GameModule", "UnknownGame", "game_module"]
