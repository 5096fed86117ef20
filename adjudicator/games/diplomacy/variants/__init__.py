"""The registry of rules hooks, one ``Rules`` object per variant name.

A map names its rules with ``variant.rules``; ``rules_for`` finds them.
"""

from __future__ import annotations

from adjudicator.games.diplomacy.core.mapdata import GameMap
from adjudicator.games.diplomacy.core.model import Position
from adjudicator.games.diplomacy.core.rules import STANDARD, Rules
from adjudicator.games.diplomacy.variants.thirty_years import THIRTY_YEARS

RULES: dict[str, Rules] = {rules.name: rules for rules in (STANDARD, THIRTY_YEARS)}


def rules_for(game_map: GameMap) -> Rules:
    """The rules hooks a map names (``KeyError`` naming the unknown rules)."""
    try:
        return RULES[game_map.rules]
    except KeyError:
        raise KeyError(f"map {game_map.name!r} names unknown rules {game_map.rules!r}") from None


def initial_position(game_map: GameMap) -> Position:
    """The start position of a map: start units, home centres owned, the
    first phase its rules give (here, not in the engine, so that a game's
    start loads no resolver: issue 20; ``engine`` exports it too)."""
    rules = rules_for(game_map)
    units = tuple(u for p in game_map.powers.values() for u in p.start_units)
    return Position(rules.first_phase(game_map), units, game_map.initial_centres())
