"""Votes: the sealed votes of the leaders of the voters and the count
(accusation in phase 3, election in phase 5).

Pure steps over the working copy a ``flow.play`` made (see ``flow.py``).
"""

from __future__ import annotations

from adjudicator.games.kreml.effects import add_stress, log_event, move_to
from adjudicator.games.kreml.spy import to_deport
from adjudicator.games.kreml.succession import elect, end_p5, start_nomination
from adjudicator.games.kreml.orders import Order
from adjudicator.games.kreml.rules import (
    ACCUSATION_FAILS_AT, ELECTION_FAILS_AT, JSON, SIBERIA, STRESS, in_politburo, leader,
)


def take_votes(s: JSON, orders: dict[str, list[Order]]) -> None:
    """Each voter's vote from his leader's orders (unled or silent: abstain); then the count."""
    step = s["step"]
    for name in step["voters"]:
        player = leader(s, name)
        if player is None:
            continue
        general = [o.vote for o in orders.get(player, []) if o.verb == "VOTE" and not o.names]
        own = [o.vote for o in orders.get(player, []) if o.verb == "VOTE" and o.names == (name,)]
        step["votes"][name] = (own or general or ["ABSTAIN"])[-1]
    count(s)


def count(s: JSON) -> None:
    """The count of a vote and its effects (accusation or election)."""
    step = s["step"]
    votes = {n: step["votes"].get(n, "ABSTAIN") for n in step["voters"]}
    against = [n for n, v in votes.items() if v == "AGAINST"]
    s["lock"] = [step["actor"]]
    actor, subject = step["actor"], step["subject"]
    if step["motion"] == "accuse":
        failed = len(against) >= ACCUSATION_FAILS_AT
        log_event(s, "vote", motion="accuse", name=subject, votes=votes, failed=failed)
        s["pol"][subject]["inv"] = None
        if failed:
            add_stress(s, actor, STRESS["accusation_failed"], "accusation_failed")
        else:
            move_to(s, subject, SIBERIA)
        s["step"] = {"kind": "accuse", "actor": actor}
        to_deport(s)
        return
    failed = len(against) >= ELECTION_FAILS_AT
    log_event(s, "vote", motion="elect", name=subject, votes=votes, failed=failed)
    if not failed:
        elect(s, subject)
        return
    add_stress(s, actor, STRESS["nomination_failed"], "nomination_failed")
    if not in_politburo(s, actor):
        end_p5(s)
    elif step["round"] == 1 and against:
        s["step"] = {"kind": "nominate", "actor": actor, "round": 2, "rebels": against}
        start_nomination(s)
    else:
        log_event(s, "silent_election", name=actor)
        elect(s, actor)
