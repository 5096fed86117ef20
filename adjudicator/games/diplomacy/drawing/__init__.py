"""Map pictures of Diplomacy variants, drawn from the map data alone.

``draw(state, report)`` gives a ``Scene`` (pure data: polygons, lines,
circles, texts) of one phase: the regions of the map coloured by terrain
and owner, rivers, coasts, supply centres, units, order arrows with their
results and a legend.  ``to_svg`` and ``to_png`` write a scene as SVG text
or PNG bytes; both are deterministic.  ``report_images`` makes the PNG
attachment of a turn report mail.
"""

from __future__ import annotations

from adjudicator.games.diplomacy.drawing.picture import draw, draw_phase
from adjudicator.games.pictures.png import to_png
from adjudicator.games.pictures.scene import Scene
from adjudicator.games.pictures.svg import to_svg
from adjudicator.games.diplomacy.drawing.view import PhaseView, phase_view

__all__ = ["PhaseView", "Scene", "draw", "draw_phase", "phase_view", "to_png", "to_svg"]
