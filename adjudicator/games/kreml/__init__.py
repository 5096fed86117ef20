"""Kreml (Urs Hostettler, Fata Morgana 1986) for 3 to 6 players, as the
judge's variants ``kreml3`` .. ``kreml6`` (German ``kreml``, English
``kremlin``; without a number four players).

Modules: ``data`` (politicians and health tables: the GM's data file, the
stand-in set), ``rules`` (offices, numbers, options, state helpers),
``influence`` (notes, reveals, the winner), ``flow`` (the eight phases of
a year as pure steps), ``legal`` (the orders open now), ``orders`` /
``parse`` (orders by mail, ``grammars/kreml.lark``), ``words`` /
``report`` / ``picture`` (reports), ``module`` (the ``GameModule``).
docs/games/kreml.md documents the rules as implemented and every ruling.
"""

from adjudicator.games.kreml.module import KremlGame, kreml3, kreml4, kreml5, kreml6

__all__ = ["KremlGame", "kreml3", "kreml4", "kreml5", "kreml6"]
