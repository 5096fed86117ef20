"""Phase 2: purges by the KGB chief or his substitutes (W20 18/14/10/6,
+3 in cure; Hausregel 5 and 6).

Pure steps over the working copy a ``flow.play`` made (see ``flow.py``).
"""

from __future__ import annotations

from adjudicator.games.kreml.effects import add_stress, go_to, log_event, move_to, roll_d20, wait_for
from adjudicator.games.kreml.orders import Order
from adjudicator.games.kreml.rules import (
    CANDIDATE, CURE_BONUS, JSON, PURGE_NEED, PURGERS, SIBERIA, STRESS, at, holder, leader, level_of, members, present,
)


def substitute(s: JSON, offices: tuple[str, ...], vacant_counts: bool) -> str | None:
    """The first present holder of ``offices``; a holder in cure is
    skipped; a vacant office is skipped only when ``vacant_counts``
    (Hausregel 5 variant 2), otherwise the action lapses (None)."""
    for office in offices:
        name = holder(s, office)
        if name is None:
            if vacant_counts:
                continue
            return None
        if s["pol"][name]["cure"]:
            continue
        return name
    return None


def purge_targets(s: JSON) -> list[str]:
    """Whom the purger may purge now: Politburo members and candidates but
    himself, each once a year (Hausregel 6 variant 1)."""
    actor = s["step"].get("actor")
    found = members(s) + at(s, CANDIDATE)
    once = s["rules"]["hr6"] == 1
    return [n for n in found if n != actor and not (once and s["pol"][n]["tried"])]


def p2(s: JSON, _: JSON) -> None:
    """Phase 2 begins: the purger by substitution, or the phase lapses."""
    actor = substitute(s, PURGERS, s["rules"]["hr5"] == 2)
    if actor is None:
        log_event(s, "lapses", phase=2)
        go_to(s, "p3")
    elif leader(s, actor) is None:
        log_event(s, "lapses_unled", phase=2, name=actor)
        go_to(s, "p3")
    else:
        s["step"] = {"kind": "purge", "actor": actor}
        if not purge_targets(s):
            go_to(s, "p3")
            return
        s["lock"] = [actor]
        wait_for(s, "purge", 2, actor=actor)


def purge_need(s: JSON, target: str) -> int:
    """The W20 a purge of ``target`` needs (3 less for one in cure)."""
    need = PURGE_NEED[level_of(s, target)]
    return need - CURE_BONUS if s["pol"][target]["cure"] else need


def act_purge(s: JSON, order: Order) -> None:
    """One purge attempt (W20) or the purger's end; a failure ends the purges."""
    actor = s["step"]["actor"]
    if order.verb != "PURGE":
        end_purge(s)
        return
    target = order.names[0]
    s["pol"][target]["tried"] = True
    need = purge_need(s, target)
    roll = roll_d20(s, f"W20 purge of {target} by {actor} (needs {need})")
    if roll >= need:
        log_event(s, "purged", actor=actor, name=target, roll=roll, need=need)
        move_to(s, target, SIBERIA)
        add_stress(s, actor, STRESS["purge_ok"], "purge_ok")
        if present(s, actor) and purge_targets(s):
            wait_for(s, "purge", 2, actor=actor)
            return
    else:
        log_event(s, "purge_failed", actor=actor, name=target, roll=roll, need=need)
        add_stress(s, actor, STRESS["purge_failed"], "purge_failed")
    end_purge(s)


def end_purge(s: JSON) -> None:
    """The purges are over: on to phase 3."""
    s["lock"] = []
    go_to(s, "p3")
