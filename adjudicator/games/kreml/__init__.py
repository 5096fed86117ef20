"""Kreml (Urs Hostettler, Fata Morgana 1986) for 3 to 6 players, as the
judge's variants ``kreml3`` .. ``kreml6`` (German ``kreml``, English
``kremlin``; without a number four players).

Modules: ``data`` (politicians and health tables: the GM's data file, the
stand-in set), ``rules`` (offices, numbers, options, state helpers),
``influence`` (notes, reveals, the winner), ``flow`` (one resolution: the
steps up to the next one that needs a player; the steps in ``yearly``,
``cures``, ``purges``, ``spy``, ``votes``, ``health``, ``succession``,
``replacements``, ``parade``, ``ending``, their effects in ``effects``),
``legal`` (the orders open now), ``orders`` / ``parse`` (orders by mail,
``grammars/kreml.lark``), ``words`` / ``report`` / ``picture`` (reports),
``module`` (the ``GameModule``). docs/games/kreml.md documents the rules as
implemented and every ruling.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from adjudicator.games.kreml.module import KremlGame, kreml3, kreml4, kreml5, kreml6

__all__ = ["KremlGame", "kreml3", "kreml4", "kreml5", "kreml6"]


def __getattr__(name: str) -> Any:
    """The names of ``__all__`` from ``module``, imported on first use: the
    data file (``data``) is read without the rules and grammar (issue 20)."""
    if name in __all__:
        from adjudicator.games.kreml import module

        return getattr(module, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
