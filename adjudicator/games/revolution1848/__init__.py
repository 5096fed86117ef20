"""1848 – Die Revolution (Gerhard H. Kuhlmann), a two-player card game with
sealed plays, as the judge's variant ``1848``.

Modules: ``cards`` (the card data and the game master's supplements),
``state`` (the game as immutable values and JSON), ``evaluation`` (who is
ahead, mode by mode), ``actions`` (phase 4), ``military`` (the military
rule), ``flow`` (rounds, flow cards, the end), ``orders``/``parse`` (the
orders by mail), ``wording``/``report`` (the reports) and ``module`` (the
``GameModule`` the service talks to).  docs/games/1848.md documents the
rules as implemented and every ruling.

``VARIANT`` and ``Revolution1848`` are loaded from ``module`` when first
asked for, so that the card file (``cardfile``: ``adjudicator data
template 1848``) is read without the rules and the order grammar
(issue 20).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from adjudicator.games.revolution1848.module import VARIANT, Revolution1848

__all__ = ["VARIANT", "Revolution1848"]


def __getattr__(name: str) -> Any:
    """``VARIANT`` and ``Revolution1848`` from ``module`` (imported on first use)."""
    if name in __all__:
        from adjudicator.games.revolution1848 import module

        return getattr(module, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
