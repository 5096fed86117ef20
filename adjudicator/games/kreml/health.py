"""Phase 4: health of every Politburo member (W20 on the data's tables).

Pure steps over the working copy a ``flow.play`` made (see ``flow.py``).
"""

from __future__ import annotations

from adjudicator.games.kreml.effects import game_data, go_to, log_event, move_to, roll_d20
from adjudicator.games.kreml.rules import DEATH_AT, JSON, WALL, members


def p4(s: JSON, _: JSON) -> None:
    """Phase 4: a health roll for every Politburo member; the dead go to the wall."""
    data = game_data(s)
    for name in members(s):
        entry = s["pol"][name]
        results = data.health(entry["age"], entry["cure"])
        roll = roll_d20(s, f"W20 health {name} (age {entry['age']}{', in cure' if entry['cure'] else ''})")
        result = results[roll - 1]
        change = {"G": -1, "-": 0, "K": 1, "A": 2, "T": DEATH_AT}[result]
        entry["ill"] = max(0, entry["ill"] + change)
        dead = result == "T" or entry["ill"] >= DEATH_AT
        log_event(s, "health", name=name, roll=roll, result=result, ill=entry["ill"], dead=dead,
               cure=entry["cure"], age=entry["age"])
        if dead:
            move_to(s, name, WALL)
    go_to(s, "p5")
