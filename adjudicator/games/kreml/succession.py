"""Phase 5: a new party chief (nominations, votes, the silent election,
the gerontocracy rule).

Pure steps over the working copy a ``flow.play`` made (see ``flow.py``).
"""

from __future__ import annotations

from adjudicator.games.kreml.effects import go_to, log_event, move_to, start_vote, wait_for
from adjudicator.games.kreml.purges import substitute
from adjudicator.games.kreml.ending import finish
from adjudicator.games.kreml.rules import (
    CHIEF, JSON, LAST_YEAR, LEVEL1, LEVEL2, NOMINATORS, holder, in_politburo, leader, members, oldest, present,
)


def nominees(s: JSON) -> list[str]:
    """Whom the nominator may nominate now: first round a level-1 holder
    (none: level 2; nobody else at all: himself), second round one who
    voted against."""
    step = s["step"]
    actor = step["actor"]
    if step.get("round", 1) == 2:
        return [n for n in step["rebels"] if in_politburo(s, n)] or [actor]
    for level in (LEVEL1, LEVEL2):
        found = [h for o in level if (h := holder(s, o)) is not None and h != actor]
        if found:
            return found
    return [actor]


def p5(s: JSON, _: JSON) -> None:
    """Phase 5 begins when the chief's office is vacant: the nominator by substitution."""
    if holder(s, CHIEF) is not None:
        end_p5(s)
        return
    actor = substitute(s, NOMINATORS, True)
    if actor is None:
        log_event(s, "lapses", phase=5)
        end_p5(s)
        return
    s["lock"] = [actor]
    s["step"] = {"kind": "nominate", "actor": actor, "round": 1, "rebels": []}
    start_nomination(s)


def start_nomination(s: JSON) -> None:
    """The nominator's turn, or the gerontocracy rule's oldest nominee for an unled one."""
    step = s["step"]
    actor = step["actor"]
    if leader(s, actor) is None:  # the gerontocracy rule: the oldest eligible
        log_event(s, "gerontocracy", name=actor)
        nominate(s, oldest(s, nominees(s))[0])
    else:
        wait_for(s, "nominate", 5, actor=actor, round=step["round"], rebels=step["rebels"])


def nominate(s: JSON, nominee: str) -> None:
    """A nomination and its vote (a self-nomination elects at once)."""
    step = s["step"]
    actor = step["actor"]
    log_event(s, "nomination", actor=actor, name=nominee, round=step["round"])
    if nominee == actor:
        elect(s, actor)
        return
    voters = [n for n in members(s) if present(s, n) and n != actor]
    start_vote(s, 5, "elect", actor, nominee, voters, step["round"])


def elect(s: JSON, name: str) -> None:
    """``name`` becomes party chief; phase 5 ends."""
    move_to(s, name, CHIEF)
    log_event(s, "elected", name=name)
    end_p5(s)


def end_p5(s: JSON) -> None:
    """Phase 5 is over: in 1961 the game ends, else phase 6."""
    s["lock"] = []
    if s["year"] >= LAST_YEAR:
        chief = holder(s, CHIEF)
        if chief is None:
            finish(s, None, "no_chief")
        else:
            finish(s, chief, "year11")
        return
    go_to(s, "p6")
