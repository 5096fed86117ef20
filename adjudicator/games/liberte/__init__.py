"""Liberté (Martin Wallace, Warfrog 2001) for 3 to 6 players by mail.

``Liberte`` is the game module; ``liberte3`` .. ``liberte6`` build it for
a number of players (the registry's variants).  See docs/games/liberte.md.
"""

from __future__ import annotations

from adjudicator.games.liberte.module import Liberte


def liberte3() -> Liberte:
    """Liberté for 3 players (variant ``liberte3``)."""
    return Liberte(3, "liberte3")


def liberte4() -> Liberte:
    """Liberté for 4 players (variant ``liberte4``; also ``liberte``, ``liberté``)."""
    return Liberte(4, "liberte4")


def liberte5() -> Liberte:
    """Liberté for 5 players (variant ``liberte5``)."""
    return Liberte(5, "liberte5")


def liberte6() -> Liberte:
    """Liberté for 6 players (variant ``liberte6``)."""
    return Liberte(6, "liberte6")


__all__ = ["Liberte", "liberte3", "liberte4", "liberte5", "liberte6"]
