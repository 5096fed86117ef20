"""What a player may order now: the legal orders of the current step, why
an order is not among them, and the reveals open to a player.

Everything here reads only what the player may know: the public position,
his own note and his own waiting reveals; never another player's note.
"""

from __future__ import annotations

from adjudicator.games.kreml import events, flow, influence, words
from adjudicator.games.kreml.orders import Order
from adjudicator.games.kreml.reasons import Reason, reason
from adjudicator.games.kreml.rules import (
    CANDIDATE, CHIEF_CHANGES, JSON, LEVEL2, OFFICES, PEOPLE, SIBERIA, at, holder, in_politburo, leader, members, present, shown,
)

STEP_VERBS = {
    "notes": ("NOTE",), "window": ("CONTINUE",), "cure": ("CURE", "STAY"), "purge": ("PURGE", "END"),
    "investigate": ("INVESTIGATE", "CLOSE", "END"), "accuse": ("ACCUSE", "END"), "deport": ("DEPORT", "END"),
    "vote": ("VOTE",), "nominate": ("NOMINATE",), "chief": ("MOVE", "SWAP", "PROMOTE", "DEMOTE", "END"),
    "promote": ("PROMOTE", "END"), "rehab": ("REHABILITATE", "END"), "topup": ("ADD", "END", "TAKE"),
    "pick": ("TAKE",),
}
LATER_VERBS = {"investigate": ("ACCUSE", "DEPORT"), "accuse": ("DEPORT",), "purge": (), "chief": (), "promote": (),
               "rehab": ()}
"""Orders a seat may queue behind its current one in the same running action."""


def step_orders(state: JSON) -> list[Order]:
    """The legal orders of the current step's seat (votes: see ``vote_orders``)."""
    step = state["step"]
    kind = step["kind"]
    actor = step.get("actor", "")
    if kind == "cure":
        return [Order("CURE"), Order("STAY")]
    if kind == "purge":
        return [Order("PURGE", (n,)) for n in flow.purge_targets(state)] + [Order("END")]
    if kind == "investigate":
        return ([Order("INVESTIGATE", (n,)) for n in flow.investigation_targets(state)]
                + [Order("CLOSE", (n,)) for n in flow.closable(state)] + [Order("END")])
    if kind == "accuse":
        return [Order("ACCUSE", (n,)) for n in flow.accusable(state)] + [Order("END")]
    if kind == "deport":
        return [Order("DEPORT", (n,)) for n in at(state, CANDIDATE)] + [Order("END")]
    if kind == "nominate":
        return [Order("NOMINATE", (n,)) for n in flow.nominees(state)]
    if kind == "chief":
        return flow.chief_orders(state) + [Order("END")]
    if kind == "promote":
        return flow.promotions(state, actor, step["level"]) + [Order("END")]
    if kind == "rehab":
        return [Order("REHABILITATE", (n,)) for n in at(state, SIBERIA)] + [Order("END")]
    if kind == "topup":
        names = [n for n in state["pol"] if n != "Nestor Aparatschik" and state["pol"][n]["where"] not in ("wall", "out")]
        return [Order("ADD", (n,)) for n in names] + events.take_orders(state) + [Order("END")]
    if kind == "pick":
        return events.take_orders(state)
    if kind == "window":
        return [Order("CONTINUE")]
    return []


def voters_of(state: JSON, player: str) -> list[str]:
    """The voters of the running vote that ``player`` leads."""
    step = state["step"]
    if step["kind"] != "vote":
        return []
    return [v for v in step["voters"] if leader(state, v) == player]


def vote_orders(state: JSON, player: str) -> list[Order]:
    """The vote orders ``player`` may give: for all his voters or one by one."""
    mine = voters_of(state, player)
    if not mine:
        return []
    found = [Order("VOTE", vote=v) for v in ("FOR", "AGAINST", "ABSTAIN")]
    if len(mine) > 1:
        found += [Order("VOTE", (n,), vote=v) for n in mine for v in ("FOR", "AGAINST", "ABSTAIN")]
    return found


def reveals(state: JSON, player: str) -> list[tuple[str, int, int]]:
    """The Politburo members ``player`` can reveal on now, with the fewest
    and most points he may show."""
    found = []
    for name in members(state):
        most = influence.limit(state, player, name)
        if most == 0:
            continue
        who, now = leader(state, name), shown(state, name)
        least = 1 if who is None else now + 1
        if who is not None and who != player and now >= influence.MAX_SHOWN:
            continue
        if least <= most:
            found.append((name, least, most))
    return found


def canonical(state: JSON, order: Order) -> Order:
    """``order`` with what it leaves out filled in: the first free office
    for a promotion or demotion into the Politburo that names none."""
    if order.verb in ("PROMOTE", "DEMOTE") and order.office is None and order.names:
        options = [o for o in step_orders(state) if o.verb == order.verb and o.names == order.names]
        if options and all(o.office is not None for o in options):
            return options[0]
    return order


def problem(state: JSON, player: str, order: Order) -> Reason | None:
    """Why the seat ``player`` cannot give ``order`` now (None: it can)."""
    step = state["step"]
    kind = step["kind"]
    if order.verb == "REVEAL":
        return influence.reveal_problem(state, player, order.names[0], int(order.points or 0))
    if order.verb == "EVENT":
        return events.play_problem(state, player, order.card, order.names[0] if order.names else None)
    if kind == "vote":
        mine = voters_of(state, player)
        if order.verb != "VOTE":
            return reason("vote_running")
        if not mine:
            return reason("no_voters")
        if order.names and order.names[0] not in mine:
            return reason("not_your_voter", name=order.names[0], mine=", ".join(mine))
        return None
    if order.verb not in STEP_VERBS.get(kind, ()):
        return reason("wrong_step", verb=order.verb, allowed=", ".join(STEP_VERBS.get(kind, ())))
    legal = step_orders(state)
    if canonical(state, order) in legal:
        return None
    name = order.names[0] if order.names else ""
    if kind in ("pick", "topup") and order.verb == "TAKE":
        return reason("card_not_left", card=order.card or "-", left=", ".join(events.supply(state)) or "-")
    if name and kind == "purge":
        if state["rules"]["hr6"] == 1 and state["pol"][name]["tried"]:
            return reason("purge_tried", name=name)
        return reason("purge_target", name=name)
    targets = {"INVESTIGATE": "investigate_target", "CLOSE": "close_target", "ACCUSE": "accuse_target",
               "DEPORT": "deport_target", "REHABILITATE": "rehab_target"}
    if name and order.verb in targets:
        return reason(targets[order.verb], name=name)
    if name and kind == "nominate":
        return reason("nominate_target", name=name, allowed=", ".join(n for o in legal for n in o.names))
    if kind == "chief" and int(step.get("changes", 0)) >= CHIEF_CHANGES:
        return reason("chief_limit")
    return reason("not_legal")


def describe(state: JSON) -> str:
    """The current step in a few English words (for messages)."""
    step = state["step"]
    actor = step.get("actor")
    names = {"notes": "the secret notes", "window": "the reveals before the year", "cure": f"cure of {actor}",
             "purge": f"purges by {actor}", "investigate": f"investigations by {actor}",
             "accuse": f"an accusation by {actor}", "deport": f"a deportation by {actor}", "vote": "a vote",
             "nominate": f"the nomination by {actor}", "chief": f"replacements by the party chief {actor}",
             "promote": f"promotions by {actor}", "rehab": f"rehabilitations by {actor}",
             "topup": "the added influence points", "pick": "the choice of event cards"}
    return str(names.get(step["kind"], step["kind"]))


def describe_in(state: JSON, language: str) -> str:
    """The current step in ``language`` (from the catalogue)."""
    step = state["step"]
    if state["result"] is not None or step["kind"] not in STEP_VERBS:
        return "-"
    return words.say(f"step_{step['kind']}", language, actor=step.get("actor", ""))


def may_queue(state: JSON, order: Order) -> bool:
    """True when ``order`` may follow the seat's first order of this step
    (the same running action: more purges, then an accusation, ...)."""
    kind = state["step"]["kind"]
    return order.verb in STEP_VERBS.get(kind, ()) + LATER_VERBS.get(kind, ())


__all__ = ["CANDIDATE", "LEVEL2", "OFFICES", "PEOPLE", "canonical", "holder", "in_politburo", "present", "problem",
           "reveals", "step_orders", "vote_orders"]
