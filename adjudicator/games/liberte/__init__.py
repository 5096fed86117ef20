"""Liberté (Martin Wallace, Warfrog 2001) for 3 to 6 players by mail.

``Liberte`` is the game module; ``liberte3`` .. ``liberte6`` build it for
a number of players (the registry's variants).  See docs/games/liberte.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from adjudicator.games.liberte.module import Liberte


def _game(players: int) -> Liberte:
    from adjudicator.games.liberte.module import Liberte  # on first use (see ``__getattr__``)

    return Liberte(players, f"liberte{players}")


def liberte3() -> Liberte:
    """Liberté for 3 players (variant ``liberte3``)."""
    return _game(3)


def liberte4() -> Liberte:
    """Liberté for 4 players (variant ``liberte4``; also ``liberte``, ``liberté``)."""
    return _game(4)


def liberte5() -> Liberte:
    """Liberté for 5 players (variant ``liberte5``)."""
    return _game(5)


def liberte6() -> Liberte:
    """Liberté for 6 players (variant ``liberte6``)."""
    return _game(6)


__all__ = ["Liberte", "liberte3", "liberte4", "liberte5", "liberte6"]


def __getattr__(name: str) -> Any:
    """``Liberte`` from ``module``, imported on first use: the data file is
    read without the rules and grammar (issue 20)."""
    if name == "Liberte":
        from adjudicator.games.liberte.module import Liberte

        return Liberte
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
