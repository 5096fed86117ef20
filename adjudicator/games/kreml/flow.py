"""The course of a Kreml game: one resolution (``play``), who it waits for
(``seats``) and the rules' default order; the steps themselves live in
``yearly`` (setup, notes, the year), ``cures``, ``purges``, ``spy``,
``votes``, ``health``, ``succession``, ``replacements``, ``parade`` (phases
7 and 8) and ``ending``, their small effects in ``effects``. Pure:
``new_game`` and ``play`` return new states and never change the state they
were given; every die roll comes from the game's seed (``randomness.py``)
and is recorded.

State fields (JSON): ``players`` (seats), ``seniority`` (oldest player
first, Hausregel 3), ``rules`` (options), ``data`` (``KremlData``),
``seed``/``counter``, ``year`` (1 = 1951), ``seq`` (steps so far),
``phase`` (the step's name), ``pol`` (per politician: ``where``, ``age``,
``ill``, ``inv`` (year an investigation began), ``cure``, ``tried``),
``leaders`` (politician -> [player, points shown]), ``notes`` (player ->
politician -> points, secret), ``extra`` (Zusatzregel 3, public),
``pending`` (reveals not yet in effect, secret), ``hands`` / ``plays``
(event cards held, public; played and not yet in effect, secret: see
``events``), ``notices`` (player ->
private messages), ``parades``, ``lock`` (politicians whose running action
or vote no reveal may interrupt), ``step`` (what the game waits for),
``events``/``rolls`` (of the last resolution), ``year_log``, ``result``;
``halt`` (optional) names a step at which ``play`` stops, for scenarios
that test one phase.
"""

from __future__ import annotations

import json
from typing import Any, Callable

from adjudicator.games.kreml import influence
from adjudicator.games.kreml.cures import act_cure, cure_next, p1
from adjudicator.games.kreml.effects import go_to, log_event, rename_step, tell
from adjudicator.games.kreml.events import act_pick, apply_plays, start_picks, supply
from adjudicator.games.kreml.health import p4
from adjudicator.games.kreml.orders import Order
from adjudicator.games.kreml.parade import act_rehab, p7, p8, rehab_next
from adjudicator.games.kreml.purges import act_purge, end_purge, p2, purge_need, purge_targets, substitute
from adjudicator.games.kreml.replacements import (
    act_chief, act_promote, after_chief, chief_orders, p6, promote_next, promotions,
)
from adjudicator.games.kreml.rules import JSON, leader, oldest
from adjudicator.games.kreml.spy import (
    accusable, act_accuse, act_deport, act_investigate, after_investigations, closable, end_p3, investigation_targets,
    p3, to_deport,
)
from adjudicator.games.kreml.succession import nominate, nominees, p5
from adjudicator.games.kreml.votes import count, take_votes
from adjudicator.games.kreml.yearly import act_topup, begin_year, end_of_year, new_game, take_notes

WAITING = ("notes", "window", "cure", "purge", "investigate", "accuse", "vote", "deport", "nominate", "chief",
           "promote", "rehab", "topup", "pick")
ANYTIME = ("REVEAL", "EVENT")
"""Orders any player may send at any time after the notes (they take effect at a step's start)."""


# --- the public entry: one resolution ---------------------------------------------------------


def play(state: JSON, orders: dict[str, list[Order]]) -> JSON:
    """The state after the current step with each player's orders (the
    step's own orders of its seats; ``REVEAL`` and ``EVENT`` orders of anyone) and every
    step after it that needs no player, up to the next step that does or
    the end.  Missing orders take the defaults (``default_order``)."""
    from adjudicator.games.kreml import legal

    s: JSON = json.loads(json.dumps(state))
    s["events"], s["rolls"], s["closed"], s["mark"] = [], [], [], 0
    step = s["step"]
    kind = step["kind"]
    seat: str | None = None
    rest: list[Order] = []
    running: tuple[Any, Any] = (None, None)
    if kind == "notes":
        take_notes(s, orders)
    elif kind == "vote":
        take_votes(s, orders)
    elif kind == "window":
        go_to(s, "p1")
    elif kind == "goto":
        pass
    elif kind == "topup":
        player = step["queue"][0]
        chosen = [o for o in orders.get(player, []) if o.verb in ("ADD", "END", "TAKE")]
        _act(s, player, chosen[0] if chosen else Order("END"))
    elif kind == "pick":
        player = step["queue"][0]
        chosen = [o for o in orders.get(player, []) if o.verb == "TAKE"]
        act_pick(s, player, chosen[0] if chosen else default_order(s))
    else:
        seat = seats(s)[0] if seats(s) else None
        running = (step.get("p"), step.get("actor"))
        given = orders.get(seat, []) if seat else []
        lines = [o for o in given if o.verb not in ANYTIME]
        if given and not lines:  # reveals (card plays) only: the step waits again (rulings 28, 31)
            rename_step(s)
        else:
            lines = lines or [default_order(s)]
            _act(s, str(seat), lines[0])
            rest = lines[1:]
    if kind != "notes":
        for player in s["seniority"]:
            for order in orders.get(player, []):
                if order.verb == "REVEAL":
                    s["pending"].append([player, order.names[0], order.points])
                elif order.verb == "EVENT":
                    s.setdefault("plays", []).append([player, order.card, order.names[0] if order.names else None])
    _advance(s)
    for order in rest:
        now = s["step"]
        if s["result"] is not None or seats(s) != [seat] or (now.get("p"), now.get("actor")) != running \
                or now["kind"] in ("vote", "window", "topup", "goto", "pick"):
            tell(s, str(seat), "order_unused", order=str(order))
            continue
        problem = legal.problem(s, str(seat), order)
        if problem is not None:
            tell(s, str(seat), "order_skipped", order=str(order), reason=problem.both())
            continue
        _act(s, str(seat), legal.canonical(s, order))
        _advance(s)
    s["year_log"].extend(s["events"][s["mark"]:])
    if s["result"] is not None:
        s["closed"].append({"year": s["year"], "events": s["year_log"]})
    return s


def seats(state: JSON) -> list[str]:
    """The players the current step waits for (seat order)."""
    step = state["step"]
    kind = step["kind"]
    if state["result"] is not None or kind not in WAITING:
        return []
    if kind in ("notes", "window"):
        return list(state["players"])
    if kind in ("topup", "pick"):
        return [step["queue"][0]]
    if kind == "vote":
        led = {leader(state, v) for v in step["voters"]}
        return [p for p in state["players"] if p in led]
    who = leader(state, step["actor"])
    return [who] if who else []


def default_order(state: JSON) -> Order:
    """The order a seat that says nothing gives (the rules' default)."""
    kind = state["step"]["kind"]
    if kind == "cure":
        return Order("STAY")
    if kind == "pick":  # ruling 30: the first card left
        return Order("TAKE", card=supply(state)[0])
    if kind == "vote":
        return Order("VOTE", vote="ABSTAIN")
    if kind == "window":
        return Order("CONTINUE")
    if kind == "nominate":
        return Order("NOMINATE", (oldest(state, nominees(state))[0],))
    return Order("END")



def _advance(s: JSON) -> None:
    """Run every step that needs nobody, applying reveals where the rules
    let them take effect, until a step waits for a player or the game ends."""
    while s["result"] is None:
        influence.apply_pending(s, log_event, tell)
        apply_plays(s)
        step = s["step"]
        if step["kind"] != "goto":
            if seats(s) or step["kind"] in ("notes", "window", "topup", "pick"):
                return
            if step["kind"] == "vote":
                count(s)
                continue
            if step["kind"] in WAITING:  # the acting politician lost his leader or left: his actions end
                _end_running(s)
                continue
        if step["to"] == s.get("halt"):  # a scenario's end (tests start and stop at a phase)
            return
        _STEPS[step["to"]](s, step)


def _end_running(s: JSON) -> None:
    """The current actor's running action ends (he is no longer led or present)."""
    step = s["step"]
    after = {"cure": lambda: act_cure(s, Order("STAY")), "purge": lambda: end_purge(s),
             "investigate": lambda: after_investigations(s), "accuse": lambda: to_deport(s),
             "deport": lambda: end_p3(s), "nominate": lambda: nominate(s, oldest(s, nominees(s))[0]),
             "chief": lambda: after_chief(s), "promote": lambda: go_to(s, "promote", level=step["level"],
                                                                         queue=step["queue"]),
             "rehab": lambda: go_to(s, "rehab", queue=step["queue"])}
    after[step["kind"]]()



def _act(s: JSON, player: str, order: Order) -> None:
    kind = s["step"]["kind"]
    if kind == "topup":
        act_topup(s, player, order)
        return
    handler: Callable[[JSON, Order], None] = {
        "cure": act_cure, "purge": act_purge, "investigate": act_investigate, "accuse": act_accuse,
        "deport": act_deport, "chief": act_chief, "promote": act_promote, "rehab": act_rehab,
        "nominate": lambda st, o: nominate(st, o.names[0]),
    }[kind]
    handler(s, order)


_STEPS: dict[str, Callable[[JSON, JSON], None]] = {
    "year": begin_year, "p1": p1, "cure": cure_next, "p2": p2, "p3": p3, "p4": p4, "p5": p5, "p6": p6,
    "promote": promote_next, "p7": p7, "rehab": rehab_next, "p8": p8, "end_of_year": end_of_year,
    "picks": start_picks,
}


__all__ = ["accusable", "chief_orders", "closable", "default_order", "investigation_targets", "new_game", "nominees",
           "play", "promotions", "purge_need", "purge_targets", "seats", "substitute"]
