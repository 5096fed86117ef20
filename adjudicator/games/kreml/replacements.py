"""Phase 6: replacements by the chief, then levels 1 and 2, and the
automatic filling by the oldest (Hausregel 9).

Pure steps over the working copy a ``flow.play`` made (see ``flow.py``).
"""

from __future__ import annotations

from adjudicator.games.kreml.effects import add_stress, go_to, log_event, move_to, wait_for
from adjudicator.games.kreml.ending import finish
from adjudicator.games.kreml.orders import Order
from adjudicator.games.kreml.rules import (
    CANDIDATE, CANDIDATE_PLACES, CHIEF, CHIEF_CHANGES, JSON, LEVEL, LEVEL1, LEVEL2, PEOPLE, STRESS, at, holder,
    leader, level_of, oldest, present, where,
)


def p6(s: JSON, _: JSON) -> None:
    """Phase 6 begins: the chief's changes, or the automatic filling when he cannot act."""
    chief = holder(s, CHIEF)
    if chief is not None and present(s, chief) and leader(s, chief) is not None:
        s["lock"] = [chief]
        wait_for(s, "chief", 6, actor=chief, changes=0)
    else:
        log_event(s, "lapses_unled" if chief else "lapses", phase=6, name=chief or "")
        after_chief(s)


def after_chief(s: JSON) -> None:
    """The chief is done: level 1 filled by the oldest, then the level-1 promotions."""
    s["lock"] = []
    sources = [LEVEL2, (CANDIDATE,)] + ([(PEOPLE,)] if s["rules"]["hr9"] == 2 else [])
    fill(s, LEVEL1, sources)
    go_to(s, "promote", level=1, queue=list(LEVEL1))


def fill(s: JSON, offices: tuple[str, ...], sources: list[tuple[str, ...]]) -> None:
    """Fill vacant ``offices`` in order with the oldest politician of the
    first source that has one."""
    for office in offices:
        if holder(s, office) is not None:
            continue
        for source in sources:
            pool = [n for place in source for n in ([holder(s, place)] if place in LEVEL else at(s, place)) if n]
            if pool:
                name = oldest(s, pool)[0]
                move_to(s, name, office)
                log_event(s, "filled", name=name, office=office)
                break


def promotions(s: JSON, actor: str, level: int) -> list[Order]:
    """The promotions a level-1 (candidates to free level-2 offices, the
    people to free candidate places) or level-2 member (the people to
    candidate places) may make now."""
    found: list[Order] = []
    if level == 1:
        free = [o for o in LEVEL2 if holder(s, o) is None]
        found += [Order("PROMOTE", (n,), office=o) for n in at(s, CANDIDATE) for o in free]
    if len(at(s, CANDIDATE)) < CANDIDATE_PLACES:
        found += [Order("PROMOTE", (n,)) for n in at(s, PEOPLE)]
    return found


def promote_next(s: JSON, step: JSON) -> None:
    """The next promoter of the level, or the filling of the level below (and the draw check)."""
    queue, level = list(step["queue"]), step["level"]
    while queue:
        name = holder(s, queue.pop(0))
        if name is not None and present(s, name) and leader(s, name) is not None and promotions(s, name, level):
            s["lock"] = [name]
            wait_for(s, "promote", 6, actor=name, level=level, queue=queue)
            return
    s["lock"] = []
    if level == 1:
        fill(s, LEVEL2, [(CANDIDATE,), (PEOPLE,)])
        go_to(s, "promote", level=2, queue=list(LEVEL2))
        return
    fill_candidates(s)
    if any(holder(s, o) is None for o in LEVEL1 + LEVEL2):  # the chief comes in phase 5 (ruling 20)
        finish(s, None, "politburo_incomplete")
        return
    go_to(s, "p7")


def fill_candidates(s: JSON) -> None:
    """The candidate places filled by the oldest of the people."""
    while len(at(s, CANDIDATE)) < CANDIDATE_PLACES and at(s, PEOPLE):
        name = oldest(s, at(s, PEOPLE))[0]
        move_to(s, name, CANDIDATE)
        log_event(s, "filled", name=name, office=CANDIDATE)


def act_promote(s: JSON, order: Order) -> None:
    """A level-1 or level-2 promotion into a free place, or the promoter's end."""
    step = s["step"]
    actor = step["actor"]
    if order.verb == "PROMOTE":
        name = order.names[0]
        target = order.office or (CANDIDATE if where(s, name) == PEOPLE else
                                  next(o for o in LEVEL2 if holder(s, o) is None))
        move_to(s, name, target)
        log_event(s, "promoted", actor=actor, name=name, office=target)
        add_stress(s, actor, STRESS["promote"], "promote")
        if present(s, actor) and promotions(s, actor, step["level"]):
            wait_for(s, "promote", 6, actor=actor, level=step["level"], queue=step["queue"])
            return
    go_to(s, "promote", level=step["level"], queue=step["queue"])


def chief_orders(s: JSON) -> list[Order]:
    """Every move, swap, promotion and demotion the chief may make now
    (within his limit of changes)."""
    step = s["step"]
    chief = step["actor"]
    left = CHIEF_CHANGES - int(step.get("changes", 0))
    found: list[Order] = []
    levels: dict[int, list[str]] = {1: [], 2: [], 3: at(s, CANDIDATE), 4: at(s, PEOPLE)}
    for office in LEVEL1 + LEVEL2:
        if (h := holder(s, office)) is not None:
            levels[LEVEL[office]].append(h)
    free = {1: [o for o in LEVEL1 if holder(s, o) is None], 2: [o for o in LEVEL2 if holder(s, o) is None]}
    candidate_room = len(levels[3]) < CANDIDATE_PLACES
    if left >= 1:
        for level in (1, 2):
            for name in levels[level]:
                found += [Order("MOVE", (name,), office=o) for o in free[level]]
            found += [Order("SWAP", (a, b)) for i, a in enumerate(levels[level]) for b in levels[level][i + 1:]]
        found += [Order("PROMOTE", (n,), office=o) for n in levels[2] for o in free[1]]
        found += [Order("PROMOTE", (n,), office=o) for n in levels[3] for o in free[2]]
        if candidate_room:
            found += [Order("PROMOTE", (n,)) for n in levels[4]]
        found += [Order("DEMOTE", (n,), office=o) for n in levels[1] for o in free[2]]
        if candidate_room:
            found += [Order("DEMOTE", (n,)) for n in levels[2]]
        found += [Order("DEMOTE", (n,)) for n in levels[3]]
    if left >= 2:
        for upper in (1, 2, 3):
            found += [Order("SWAP", (a, b)) for a in levels[upper] for b in levels[upper + 1]]
    return [o for o in found if chief not in o.names]


def act_chief(s: JSON, order: Order) -> None:
    """One change by the chief (move, swap, promotion, demotion) or his end."""
    step = s["step"]
    chief = step["actor"]
    if order.verb == "END":
        after_chief(s)
        return
    changes, stress = 1, 1
    if order.verb == "MOVE":
        stress = 0
        move_to(s, order.names[0], str(order.office))
        log_event(s, "moved", actor=chief, name=order.names[0], office=order.office)
    elif order.verb == "SWAP":
        first, second = order.names
        one, two = where(s, first), where(s, second)
        same = level_of(s, first) == level_of(s, second) and level_of(s, first) in (1, 2)
        move_to(s, first, two)
        move_to(s, second, one)
        changes, stress = (1, 0) if same else (2, 2)
        log_event(s, "swapped", actor=chief, name=first, other=second)
    else:
        name = order.names[0]
        place = where(s, name)
        if order.verb == "PROMOTE":
            target = order.office or CANDIDATE
        else:
            target = order.office or (CANDIDATE if place in LEVEL2 else PEOPLE)
        move_to(s, name, target)
        log_event(s, "promoted" if order.verb == "PROMOTE" else "demoted", actor=chief, name=name, office=target)
    step["changes"] = int(step.get("changes", 0)) + changes
    add_stress(s, chief, stress, "chief_changes")
    if present(s, chief) and leader(s, chief) is not None and chief_orders(s):
        wait_for(s, "chief", 6, actor=chief, changes=step["changes"])
    else:
        after_chief(s)
