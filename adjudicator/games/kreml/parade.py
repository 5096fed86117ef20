"""Phase 7, rehabilitations, and phase 8, the October parade.

Pure steps over the working copy a ``flow.play`` made (see ``flow.py``).
"""

from __future__ import annotations

from adjudicator.games.kreml.effects import add_stress, go_to, log_event, move_to, roll_d20, wait_for
from adjudicator.games.kreml.ending import finish
from adjudicator.games.kreml.orders import Order
from adjudicator.games.kreml.rules import (
    CHIEF, JSON, OFFICES, PARADE_ROLL, PARADE_YEAR, PEOPLE, SIBERIA, STRESS, WINNING_PARADES, at, holder,
    leader, present, where,
)


def p7(s: JSON, _: JSON) -> None:
    """Phase 7 begins: every office holder in rank order may rehabilitate."""
    go_to(s, "rehab", queue=list(OFFICES))


def rehab_next(s: JSON, step: JSON) -> None:
    """The next led, present office holder while anyone is in Siberia; else phase 8."""
    queue = list(step["queue"])
    while queue and at(s, SIBERIA):
        name = holder(s, queue.pop(0))
        if name is not None and present(s, name) and leader(s, name) is not None:
            s["lock"] = [name]
            wait_for(s, "rehab", 7, actor=name, queue=queue)
            return
    s["lock"] = []
    go_to(s, "p8")


def act_rehab(s: JSON, order: Order) -> None:
    """A rehabilitation (5 stress) or the holder's end."""
    step = s["step"]
    actor = step["actor"]
    if order.verb == "REHABILITATE":
        move_to(s, order.names[0], PEOPLE)
        log_event(s, "rehabilitated", actor=actor, name=order.names[0])
        add_stress(s, actor, STRESS["rehabilitate"], "rehabilitate")
        if present(s, actor) and at(s, SIBERIA):
            wait_for(s, "rehab", 7, actor=actor, queue=step["queue"])
            return
    s["lock"] = []
    go_to(s, "rehab", queue=step["queue"])


def p8(s: JSON, _: JSON) -> None:
    """Phase 8: the October parade and its win conditions."""
    chief = holder(s, CHIEF)
    if chief is None or s["pol"][chief]["cure"]:
        log_event(s, "no_parade", name=chief or "")
    elif leader(s, chief) is None and s["rules"]["hr10"] == 2:
        log_event(s, "no_parade_unled", name=chief)
    else:
        ill = s["pol"][chief]["ill"]
        success = True
        if ill:
            add_stress(s, chief, ill, "parade")
            if where(s, chief) != CHIEF:
                go_to(s, "end_of_year")
                return
            need = PARADE_ROLL[ill]
            roll = roll_d20(s, f"W20 October parade {chief} (needs {need})")
            success = roll >= need
            log_event(s, "parade", name=chief, roll=roll, need=need, success=success)
        else:
            log_event(s, "parade", name=chief, roll=0, need=0, success=True)
        if success:
            s["parades"][chief] = s["parades"].get(chief, 0) + 1
            if s["parades"][chief] >= WINNING_PARADES:
                finish(s, chief, "three_parades")
                return
            if s["year"] == PARADE_YEAR:
                finish(s, chief, "parade_year10")
                return
    go_to(s, "end_of_year")
