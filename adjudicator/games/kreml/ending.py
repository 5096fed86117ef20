"""The end of a game: a draw, or a chief's win and the winning player.

Pure steps over the working copy a ``flow.play`` made (see ``flow.py``).
"""

from __future__ import annotations

from adjudicator.games.kreml import influence
from adjudicator.games.kreml.effects import log_event, roll_d20
from adjudicator.games.kreml.rules import FIRST_YEAR, JSON


def finish(s: JSON, chief: str | None, why: str) -> None:
    """The game ends: a draw, or ``chief`` wins and the notes decide the player."""
    s["phase"] = f"{FIRST_YEAR - 1 + s['year']}-end"
    if chief is None:
        s["result"] = {"why": why, "chief": None, "winner": None, "draw": why, "scores": {}}
        log_event(s, "draw", why=why)
        return
    winner, scores, how = influence.winner(s, chief, roll_d20)
    s["result"] = {"why": why, "chief": chief, "winner": winner, "draw": None if winner else "tie",
                   "scores": scores, "how": how}
    log_event(s, "won", name=chief, why=why, player=winner or "", how=how)
