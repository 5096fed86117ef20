"""Diplomacy and its variants (standard, 30JK) as one game package.

``core/`` is the pure rules core (map data, orders, notation, legality,
the DATC resolver), ``variants/`` the named hooks of a variant (30JK's
calendar, rivers and confessions), ``drawing/`` the map pictures,
``contract`` the JSON case of ``adjudicator adjudicate`` and ``module``
the adapter to the judge's game interface.
"""

from __future__ import annotations

from adjudicator.games.diplomacy.module import DiplomacyGame

__all__ = ["DiplomacyGame"]
