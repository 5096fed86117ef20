"""Phase 3: investigations, at most one accusation and one deportation.

Pure steps over the working copy a ``flow.play`` made (see ``flow.py``).
"""

from __future__ import annotations

from adjudicator.games.kreml.effects import add_stress, game_data, go_to, log_event, move_to, start_vote, wait_for
from adjudicator.games.kreml.purges import substitute
from adjudicator.games.kreml.orders import Order
from adjudicator.games.kreml.rules import (
    CANDIDATE, INVESTIGATORS, JSON, OUT, SIBERIA, STRESS, WALL, at, in_politburo, leader, members, office_of, present,
)


def p3(s: JSON, _: JSON) -> None:
    """Phase 3 begins: the investigator by substitution, or the phase lapses (pending stress still applies)."""
    actor = substitute(s, INVESTIGATORS, s["rules"]["hr5"] == 2)
    if actor is None or leader(s, actor) is None:
        log_event(s, "lapses_unled" if actor else "lapses", phase=3, name=actor or "")
        pending_stress(s)
        go_to(s, "p4")
        return
    s["lock"] = [actor]
    s["step"] = {"kind": "investigate", "actor": actor}
    if investigation_targets(s) or closable(s):
        wait_for(s, "investigate", 3, actor=actor)
    else:
        after_investigations(s)


def investigation_targets(s: JSON) -> list[str]:
    """Politburo members without a pending investigation, the actor aside."""
    actor = s["step"].get("actor")
    return [n for n in members(s) if n != actor and s["pol"][n]["inv"] is None]


def closable(s: JSON) -> list[str]:
    """Politicians whose investigation began in an earlier year."""
    return [n for n, e in s["pol"].items() if e["inv"] is not None and e["inv"] < s["year"]]


def accusable(s: JSON) -> list[str]:
    """Politburo members under investigation since an earlier year."""
    return [n for n in members(s) if s["pol"][n]["inv"] is not None and s["pol"][n]["inv"] < s["year"]]


def act_investigate(s: JSON, order: Order) -> None:
    """An investigation opened or closed, or the investigations end."""
    actor = s["step"]["actor"]
    if order.verb == "INVESTIGATE":
        s["pol"][order.names[0]]["inv"] = s["year"]
        log_event(s, "investigation", actor=actor, name=order.names[0])
        add_stress(s, actor, STRESS["investigate"], "investigate")
    elif order.verb == "CLOSE":
        s["pol"][order.names[0]]["inv"] = None
        log_event(s, "investigation_closed", actor=actor, name=order.names[0])
    if order.verb != "END" and present(s, actor) and (investigation_targets(s) or closable(s)):
        wait_for(s, "investigate", 3, actor=actor)
        return
    after_investigations(s)


def pending_stress(s: JSON) -> None:
    """1 stress for everyone with a pending investigation (Hausregel 7:
    variant 1 only Politburo members; Zusatzregel 2: not in the favoured office)."""
    for name, entry in list(s["pol"].items()):
        if entry["inv"] is None or entry["where"] in (WALL, OUT):
            continue
        if s["rules"]["hr7"] == 1 and not in_politburo(s, name):
            continue
        if s["rules"]["zr2"] and office_of(s, name) == game_data(s).politician(name).favoured:
            log_event(s, "favoured_no_stress", name=name)
            continue
        add_stress(s, name, STRESS["pending"], "pending")


def after_investigations(s: JSON) -> None:
    """The pending-investigation stress, then the accusation if one is possible."""
    pending_stress(s)
    actor = s["step"]["actor"]
    if present(s, actor) and leader(s, actor) is not None and accusable(s):
        wait_for(s, "accuse", 3, actor=actor)
    else:
        to_deport(s)


def act_accuse(s: JSON, order: Order) -> None:
    """An accusation and its vote, or none."""
    actor = s["step"]["actor"]
    if order.verb != "ACCUSE":
        to_deport(s)
        return
    voters = [n for n in members(s) if present(s, n)]
    log_event(s, "accusation", actor=actor, name=order.names[0])
    start_vote(s, 3, "accuse", actor, order.names[0], voters, 1)


def to_deport(s: JSON) -> None:
    """The deportation step if the actor can still act and there are candidates."""
    actor = s["step"]["actor"]
    if present(s, actor) and leader(s, actor) is not None and at(s, CANDIDATE):
        wait_for(s, "deport", 3, actor=actor)
    else:
        end_p3(s)


def act_deport(s: JSON, order: Order) -> None:
    """A candidate deported to Siberia (Hausregel 8), or none; phase 3 ends."""
    actor = s["step"]["actor"]
    if order.verb == "DEPORT":
        target = order.names[0]
        inv = s["pol"][target]["inv"]
        move_to(s, target, SIBERIA)
        if s["rules"]["hr8"] == 2:
            s["pol"][target]["inv"] = inv
        log_event(s, "deported", actor=actor, name=target)
        add_stress(s, actor, STRESS["deport"], "deport")
    end_p3(s)


def end_p3(s: JSON) -> None:
    """Phase 3 is over: on to phase 4."""
    s["lock"] = []
    go_to(s, "p4")
