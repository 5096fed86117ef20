"""The course of a Kreml game: setup, the eight phases of each year, the
end.  Pure: ``new_game`` and ``play`` return new states and never change
the state they were given; every die roll comes from the game's seed
(``randomness.py``) and is recorded.

State fields (JSON): ``players`` (seats), ``seniority`` (oldest player
first, Hausregel 3), ``rules`` (options), ``data`` (``KremlData``),
``seed``/``counter``, ``year`` (1 = 1951), ``seq`` (steps so far),
``phase`` (the step's name), ``pol`` (per politician: ``where``, ``age``,
``ill``, ``inv`` (year an investigation began), ``cure``, ``tried``),
``leaders`` (politician -> [player, points shown]), ``notes`` (player ->
politician -> points, secret), ``extra`` (Zusatzregel 3, public),
``pending`` (reveals not yet in effect, secret), ``notices`` (player ->
private messages), ``parades``, ``lock`` (politicians whose running action
or vote no reveal may interrupt), ``step`` (what the game waits for),
``events``/``rolls`` (of the last resolution), ``year_log``, ``result``;
``halt`` (optional) names a step at which ``play`` stops, for scenarios
that test one phase.
"""

from __future__ import annotations

import json
from typing import Any, Callable

from adjudicator.games import randomness
from adjudicator.games.kreml import influence
from adjudicator.games.kreml.data import NESTOR, KremlData
from adjudicator.games.kreml.orders import Order
from adjudicator.games.kreml.rules import (
    ACCUSATION_FAILS_AT, CANDIDATE, CANDIDATE_PLACES, CHIEF, CHIEF_CHANGES, CURE_BONUS, DEATH_AT, ELECTION_FAILS_AT,
    FIRST_YEAR, GUILLOTINE, INVESTIGATORS, JSON, LAST_YEAR, LEVEL, LEVEL1, LEVEL2, NOMINATORS, OFFICES, OUT,
    PARADE_ROLL, PARADE_YEAR, PEOPLE, PURGE_NEED, PURGERS, SIBERIA, STRESS, WALL, WINNING_PARADES, at, holder,
    in_politburo, leader, level_of, members, office_of, oldest, present, where,
)

WAITING = ("notes", "window", "cure", "purge", "investigate", "accuse", "vote", "deport", "nominate", "chief",
           "promote", "rehab", "topup")


# --- setup -------------------------------------------------------------------------------


def new_game(data: KremlData, players: tuple[str, ...], seniority: tuple[str, ...], rules: dict[str, int],
             seed: str) -> JSON:
    """The state before the secret notes: Nestor party chief with one
    illness marker, the other seven offices and the five candidate places
    drawn from the seed, everyone else among the people."""
    others = [p.name for p in data.politicians if p.name != NESTOR]
    event = randomness.shuffle(seed, 0, others, "setup: offices and candidates")
    drawn = list(event.result)
    pol: dict[str, Any] = {}
    for card in data.politicians:
        pol[card.name] = {"where": PEOPLE, "age": card.age, "ill": 0, "inv": None, "cure": False, "tried": False}
    pol[NESTOR]["where"], pol[NESTOR]["ill"] = CHIEF, 1
    for office, name in zip(OFFICES[1:], drawn):
        pol[name]["where"] = office
    for name in drawn[7:7 + CANDIDATE_PLACES]:
        pol[name]["where"] = CANDIDATE
    state: JSON = {
        "players": list(players), "seniority": list(seniority), "rules": dict(rules), "data": data.to_json(),
        "seed": seed, "counter": 1, "year": 0, "seq": 0, "phase": f"{FIRST_YEAR - 1}-notes", "pol": pol,
        "leaders": {}, "notes": {}, "extra": {p: {} for p in players}, "pending": [], "notices": {p: [] for p in players},
        "parades": {}, "lock": [], "step": {"kind": "notes", "p": 0}, "events": [], "rolls": [event.to_json()],
        "year_log": [], "result": None,
    }
    return state


# --- the public entry: one resolution ---------------------------------------------------------


def play(state: JSON, orders: dict[str, list[Order]]) -> JSON:
    """The state after the current step with each player's orders (the
    step's own orders of its seats; ``REVEAL`` orders of anyone) and every
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
        _take_notes(s, orders)
    elif kind == "vote":
        _take_votes(s, orders)
    elif kind == "window":
        _goto(s, "p1")
    elif kind == "goto":
        pass
    elif kind == "topup":
        player = step["queue"][0]
        chosen = [o for o in orders.get(player, []) if o.verb in ("ADD", "END")]
        _act(s, player, chosen[0] if chosen else Order("END"))
    else:
        seat = seats(s)[0] if seats(s) else None
        running = (step.get("p"), step.get("actor"))
        given = orders.get(seat, []) if seat else []
        lines = [o for o in given if o.verb != "REVEAL"]
        if given and not lines:  # reveals only: they take effect and the step waits again (ruling 28)
            _rename(s)
        else:
            lines = lines or [default_order(s)]
            _act(s, str(seat), lines[0])
            rest = lines[1:]
    if kind != "notes":
        for player in s["seniority"]:
            for order in orders.get(player, []):
                if order.verb == "REVEAL":
                    s["pending"].append([player, order.names[0], order.points])
    _advance(s)
    for order in rest:
        now = s["step"]
        if s["result"] is not None or seats(s) != [seat] or (now.get("p"), now.get("actor")) != running \
                or now["kind"] in ("vote", "window", "topup", "goto"):
            _notice(s, str(seat), "order_unused", order=str(order))
            continue
        problem = legal.problem(s, str(seat), order)
        if problem is not None:
            _notice(s, str(seat), "order_skipped", order=str(order), reason=problem.both())
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
    if kind == "topup":
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
    if kind == "vote":
        return Order("VOTE", vote="ABSTAIN")
    if kind == "window":
        return Order("CONTINUE")
    if kind == "nominate":
        return Order("NOMINATE", (oldest(state, nominees(state))[0],))
    return Order("END")


# --- small effects ------------------------------------------------------------------------------


def _event(s: JSON, key: str, **args: Any) -> None:
    s["events"].append({"key": key, "args": args})


def _notice(s: JSON, player: str, key: str, **args: Any) -> None:
    s["notices"].setdefault(player, []).append({"key": key, "args": {**args, "year": s["year"]}})


def _roll(s: JSON, label: str) -> int:
    event = randomness.roll(s["seed"], s["counter"], 20, label)
    s["counter"] += 1
    s["rolls"].append(event.to_json())
    return int(event.result[0])


def _data(s: JSON) -> KremlData:
    return KremlData.from_json(s["data"])


def _stress(s: JSON, name: str, points: int, why: str) -> None:
    """Age ``name`` by ``points``; with the guillotine (Zusatzregel 1) he
    leaves the game at 95."""
    if points <= 0:
        return
    entry = s["pol"][name]
    entry["age"] += points
    _event(s, "stress", name=name, points=points, why=why, age=entry["age"])
    if s["rules"]["zr1"] and entry["age"] >= GUILLOTINE and entry["where"] not in (WALL, OUT):
        _event(s, "guillotine", name=name, age=entry["age"])
        _move(s, name, OUT)


def _move(s: JSON, name: str, place: str) -> None:
    """Put ``name`` at ``place``; leaving the Politburo ends his cure and
    (Hausregel 2 variant 2, or death) his leadership; Siberia removes an
    investigation."""
    entry = s["pol"][name]
    was_member = entry["where"] in LEVEL
    entry["where"] = place
    if place not in LEVEL:
        entry["cure"] = False
        if was_member and (s["rules"]["hr2"] == 2 or place in (WALL, OUT)) and name in s["leaders"]:
            del s["leaders"][name]
        elif place in (WALL, OUT):
            s["leaders"].pop(name, None)
    if place == SIBERIA:
        entry["inv"] = None


def _goto(s: JSON, to: str, **fields: Any) -> None:
    s["step"] = {"kind": "goto", "to": to, **fields}


def _wait(s: JSON, kind: str, phase: int, **fields: Any) -> None:
    s["step"] = {"kind": kind, "p": phase, **fields}
    _rename(s)


def _rename(s: JSON) -> None:
    """The same step under a new name (a new turn of the same seat)."""
    s["seq"] += 1
    s["phase"] = f"{FIRST_YEAR - 1 + s['year']}-{s['step']['p']}-{s['seq']:03d}"


def _advance(s: JSON) -> None:
    """Run every step that needs nobody, applying reveals where the rules
    let them take effect, until a step waits for a player or the game ends."""
    while s["result"] is None:
        influence.apply_pending(s, _event, _notice)
        step = s["step"]
        if step["kind"] != "goto":
            if seats(s) or step["kind"] in ("notes", "window", "topup"):
                return
            if step["kind"] == "vote":
                _count(s)
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
    after = {"cure": lambda: _act_cure(s, Order("STAY")), "purge": lambda: _end_purge(s),
             "investigate": lambda: _after_investigations(s), "accuse": lambda: _to_deport(s),
             "deport": lambda: _end_p3(s), "nominate": lambda: _nominate(s, oldest(s, nominees(s))[0]),
             "chief": lambda: _after_chief(s), "promote": lambda: _goto(s, "promote", level=step["level"],
                                                                         queue=step["queue"]),
             "rehab": lambda: _goto(s, "rehab", queue=step["queue"])}
    after[step["kind"]]()


# --- the notes and the year ---------------------------------------------------------------------


def _take_notes(s: JSON, orders: dict[str, list[Order]]) -> None:
    names = [p for p in s["pol"] if p != NESTOR]
    for player in s["players"]:
        note = {o.names[0]: int(o.points or 0) for o in orders.get(player, []) if o.verb == "NOTE"}
        if influence.note_problem(note, names) is not None:
            event = randomness.choose(s["seed"], s["counter"], names, f"note of {player} (none given)", 10)
            s["counter"] += 1
            note = {name: 10 - index for index, name in enumerate(event.result)}
            _notice(s, player, "note_random")
            s["rolls"].append({**event.to_json(), "items": [], "result": ["(secret)"] * 10, "secret": True})
        s["notes"][player] = note
    _event(s, "notes_taken")
    _goto(s, "year")


def _year(s: JSON, _: JSON) -> None:
    if s["year"] > 0:
        s["closed"].append({"year": s["year"], "events": s["year_log"] + s["events"][s["mark"]:]})
    s["mark"] = len(s["events"])
    s["year"] += 1
    s["year_log"] = []
    for entry in s["pol"].values():
        entry["cure"], entry["tried"] = False, False
    _event(s, "year_begins", year=FIRST_YEAR - 1 + s["year"])
    if s["rules"]["window"]:
        _wait(s, "window", 0)
    else:
        _goto(s, "p1")


def _after_window(s: JSON, _: JSON) -> None:
    _goto(s, "p1")


# --- phase 1: cures -------------------------------------------------------------------------------


def _p1(s: JSON, _: JSON) -> None:
    queue = [o for o in OFFICES if (h := holder(s, o)) is not None and s["pol"][h]["ill"] > 0]
    _goto(s, "cure", queue=queue)


def _cure_next(s: JSON, step: JSON) -> None:
    queue = list(step["queue"])
    while queue:
        name = holder(s, queue.pop(0))
        if name is None or s["pol"][name]["ill"] == 0:
            continue
        if leader(s, name) is not None:
            _wait(s, "cure", 1, actor=name, queue=queue)
            return
        _event(s, "cure_unled", name=name)
        _stays_sick(s, name)
    _end_p1(s)


def _stays_sick(s: JSON, name: str) -> None:
    if s["rules"]["zr2"] and office_of(s, name) == _data(s).politician(name).favoured:
        _event(s, "favoured_no_stress", name=name)
    else:
        _stress(s, name, 1, "sick_stays")


def _act_cure(s: JSON, order: Order) -> None:
    step = s["step"]
    name = step["actor"]
    if order.verb == "CURE":
        s["pol"][name]["cure"] = True
        _event(s, "cure", name=name)
    else:
        _event(s, "stays", name=name)
        _stays_sick(s, name)
    _goto(s, "cure", queue=step["queue"])


def _end_p1(s: JSON) -> None:
    if s["rules"]["zr2"]:
        for name in members(s):
            entry = s["pol"][name]
            if entry["ill"] == 0 and not entry["cure"] and office_of(s, name) == _data(s).politician(name).hated:
                _stress(s, name, 1, "hated_office")
    chief = holder(s, CHIEF)
    if chief is not None:
        _stress(s, chief, 1, "chief")
    _goto(s, "p2")


# --- phase 2: purges ------------------------------------------------------------------------------


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


def _p2(s: JSON, _: JSON) -> None:
    actor = substitute(s, PURGERS, s["rules"]["hr5"] == 2)
    if actor is None:
        _event(s, "lapses", phase=2)
        _goto(s, "p3")
    elif leader(s, actor) is None:
        _event(s, "lapses_unled", phase=2, name=actor)
        _goto(s, "p3")
    else:
        s["step"] = {"kind": "purge", "actor": actor}
        if not purge_targets(s):
            _goto(s, "p3")
            return
        s["lock"] = [actor]
        _wait(s, "purge", 2, actor=actor)


def purge_need(s: JSON, target: str) -> int:
    """The W20 a purge of ``target`` needs (3 less for one in cure)."""
    need = PURGE_NEED[level_of(s, target)]
    return need - CURE_BONUS if s["pol"][target]["cure"] else need


def _act_purge(s: JSON, order: Order) -> None:
    actor = s["step"]["actor"]
    if order.verb != "PURGE":
        _end_purge(s)
        return
    target = order.names[0]
    s["pol"][target]["tried"] = True
    need = purge_need(s, target)
    roll = _roll(s, f"W20 purge of {target} by {actor} (needs {need})")
    if roll >= need:
        _event(s, "purged", actor=actor, name=target, roll=roll, need=need)
        _move(s, target, SIBERIA)
        _stress(s, actor, STRESS["purge_ok"], "purge_ok")
        if present(s, actor) and purge_targets(s):
            _wait(s, "purge", 2, actor=actor)
            return
    else:
        _event(s, "purge_failed", actor=actor, name=target, roll=roll, need=need)
        _stress(s, actor, STRESS["purge_failed"], "purge_failed")
    _end_purge(s)


def _end_purge(s: JSON) -> None:
    s["lock"] = []
    _goto(s, "p3")


# --- phase 3: investigations, accusation, deportation ------------------------------------------


def _p3(s: JSON, _: JSON) -> None:
    actor = substitute(s, INVESTIGATORS, s["rules"]["hr5"] == 2)
    if actor is None or leader(s, actor) is None:
        _event(s, "lapses_unled" if actor else "lapses", phase=3, name=actor or "")
        _pending_stress(s)
        _goto(s, "p4")
        return
    s["lock"] = [actor]
    s["step"] = {"kind": "investigate", "actor": actor}
    if investigation_targets(s) or closable(s):
        _wait(s, "investigate", 3, actor=actor)
    else:
        _after_investigations(s)


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


def _act_investigate(s: JSON, order: Order) -> None:
    actor = s["step"]["actor"]
    if order.verb == "INVESTIGATE":
        s["pol"][order.names[0]]["inv"] = s["year"]
        _event(s, "investigation", actor=actor, name=order.names[0])
        _stress(s, actor, STRESS["investigate"], "investigate")
    elif order.verb == "CLOSE":
        s["pol"][order.names[0]]["inv"] = None
        _event(s, "investigation_closed", actor=actor, name=order.names[0])
    if order.verb != "END" and present(s, actor) and (investigation_targets(s) or closable(s)):
        _wait(s, "investigate", 3, actor=actor)
        return
    _after_investigations(s)


def _pending_stress(s: JSON) -> None:
    """1 stress for everyone with a pending investigation (Hausregel 7:
    variant 1 only Politburo members; Zusatzregel 2: not in the favoured office)."""
    for name, entry in list(s["pol"].items()):
        if entry["inv"] is None or entry["where"] in (WALL, OUT):
            continue
        if s["rules"]["hr7"] == 1 and not in_politburo(s, name):
            continue
        if s["rules"]["zr2"] and office_of(s, name) == _data(s).politician(name).favoured:
            _event(s, "favoured_no_stress", name=name)
            continue
        _stress(s, name, STRESS["pending"], "pending")


def _after_investigations(s: JSON) -> None:
    _pending_stress(s)
    actor = s["step"]["actor"]
    if present(s, actor) and leader(s, actor) is not None and accusable(s):
        _wait(s, "accuse", 3, actor=actor)
    else:
        _to_deport(s)


def _act_accuse(s: JSON, order: Order) -> None:
    actor = s["step"]["actor"]
    if order.verb != "ACCUSE":
        _to_deport(s)
        return
    voters = [n for n in members(s) if present(s, n)]
    _event(s, "accusation", actor=actor, name=order.names[0])
    _start_vote(s, 3, "accuse", actor, order.names[0], voters, 1)


def _start_vote(s: JSON, phase: int, motion: str, actor: str, subject: str, voters: list[str], round_: int) -> None:
    s["lock"] = sorted(set(s["lock"]) | set(voters))
    _wait(s, "vote", phase, motion=motion, actor=actor, subject=subject, voters=voters, round=round_, votes={})


def _to_deport(s: JSON) -> None:
    actor = s["step"]["actor"]
    if present(s, actor) and leader(s, actor) is not None and at(s, CANDIDATE):
        _wait(s, "deport", 3, actor=actor)
    else:
        _end_p3(s)


def _act_deport(s: JSON, order: Order) -> None:
    actor = s["step"]["actor"]
    if order.verb == "DEPORT":
        target = order.names[0]
        inv = s["pol"][target]["inv"]
        _move(s, target, SIBERIA)
        if s["rules"]["hr8"] == 2:
            s["pol"][target]["inv"] = inv
        _event(s, "deported", actor=actor, name=target)
        _stress(s, actor, STRESS["deport"], "deport")
    _end_p3(s)


def _end_p3(s: JSON) -> None:
    s["lock"] = []
    _goto(s, "p4")


# --- votes -------------------------------------------------------------------------------------------


def _take_votes(s: JSON, orders: dict[str, list[Order]]) -> None:
    step = s["step"]
    for name in step["voters"]:
        player = leader(s, name)
        if player is None:
            continue
        general = [o.vote for o in orders.get(player, []) if o.verb == "VOTE" and not o.names]
        own = [o.vote for o in orders.get(player, []) if o.verb == "VOTE" and o.names == (name,)]
        step["votes"][name] = (own or general or ["ABSTAIN"])[-1]
    _count(s)


def _count(s: JSON) -> None:
    step = s["step"]
    votes = {n: step["votes"].get(n, "ABSTAIN") for n in step["voters"]}
    against = [n for n, v in votes.items() if v == "AGAINST"]
    s["lock"] = [step["actor"]]
    actor, subject = step["actor"], step["subject"]
    if step["motion"] == "accuse":
        failed = len(against) >= ACCUSATION_FAILS_AT
        _event(s, "vote", motion="accuse", name=subject, votes=votes, failed=failed)
        s["pol"][subject]["inv"] = None
        if failed:
            _stress(s, actor, STRESS["accusation_failed"], "accusation_failed")
        else:
            _move(s, subject, SIBERIA)
        s["step"] = {"kind": "accuse", "actor": actor}
        _to_deport(s)
        return
    failed = len(against) >= ELECTION_FAILS_AT
    _event(s, "vote", motion="elect", name=subject, votes=votes, failed=failed)
    if not failed:
        _elect(s, subject)
        return
    _stress(s, actor, STRESS["nomination_failed"], "nomination_failed")
    if not in_politburo(s, actor):
        _end_p5(s)
    elif step["round"] == 1 and against:
        s["step"] = {"kind": "nominate", "actor": actor, "round": 2, "rebels": against}
        _start_nomination(s)
    else:
        _event(s, "silent_election", name=actor)
        _elect(s, actor)


# --- phase 4: health ----------------------------------------------------------------------------------


def _p4(s: JSON, _: JSON) -> None:
    data = _data(s)
    for name in members(s):
        entry = s["pol"][name]
        results = data.health(entry["age"], entry["cure"])
        roll = _roll(s, f"W20 health {name} (age {entry['age']}{', in cure' if entry['cure'] else ''})")
        result = results[roll - 1]
        change = {"G": -1, "-": 0, "K": 1, "A": 2, "T": DEATH_AT}[result]
        entry["ill"] = max(0, entry["ill"] + change)
        dead = result == "T" or entry["ill"] >= DEATH_AT
        _event(s, "health", name=name, roll=roll, result=result, ill=entry["ill"], dead=dead,
               cure=entry["cure"], age=entry["age"])
        if dead:
            _move(s, name, WALL)
    _goto(s, "p5")


# --- phase 5: a new party chief -------------------------------------------------------------------------


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


def _p5(s: JSON, _: JSON) -> None:
    if holder(s, CHIEF) is not None:
        _end_p5(s)
        return
    actor = substitute(s, NOMINATORS, True)
    if actor is None:
        _event(s, "lapses", phase=5)
        _end_p5(s)
        return
    s["lock"] = [actor]
    s["step"] = {"kind": "nominate", "actor": actor, "round": 1, "rebels": []}
    _start_nomination(s)


def _start_nomination(s: JSON) -> None:
    step = s["step"]
    actor = step["actor"]
    if leader(s, actor) is None:  # the gerontocracy rule: the oldest eligible
        _event(s, "gerontocracy", name=actor)
        _nominate(s, oldest(s, nominees(s))[0])
    else:
        _wait(s, "nominate", 5, actor=actor, round=step["round"], rebels=step["rebels"])


def _nominate(s: JSON, nominee: str) -> None:
    step = s["step"]
    actor = step["actor"]
    _event(s, "nomination", actor=actor, name=nominee, round=step["round"])
    if nominee == actor:
        _elect(s, actor)
        return
    voters = [n for n in members(s) if present(s, n) and n != actor]
    _start_vote(s, 5, "elect", actor, nominee, voters, step["round"])


def _elect(s: JSON, name: str) -> None:
    _move(s, name, CHIEF)
    _event(s, "elected", name=name)
    _end_p5(s)


def _end_p5(s: JSON) -> None:
    s["lock"] = []
    if s["year"] >= LAST_YEAR:
        chief = holder(s, CHIEF)
        if chief is None:
            _finish(s, None, "no_chief")
        else:
            _finish(s, chief, "year11")
        return
    _goto(s, "p6")


# --- phase 6: replacements ----------------------------------------------------------------------------


def _p6(s: JSON, _: JSON) -> None:
    chief = holder(s, CHIEF)
    if chief is not None and present(s, chief) and leader(s, chief) is not None:
        s["lock"] = [chief]
        _wait(s, "chief", 6, actor=chief, changes=0)
    else:
        _event(s, "lapses_unled" if chief else "lapses", phase=6, name=chief or "")
        _after_chief(s)


def _after_chief(s: JSON) -> None:
    s["lock"] = []
    sources = [LEVEL2, (CANDIDATE,)] + ([(PEOPLE,)] if s["rules"]["hr9"] == 2 else [])
    _fill(s, LEVEL1, sources)
    _goto(s, "promote", level=1, queue=list(LEVEL1))


def _fill(s: JSON, offices: tuple[str, ...], sources: list[tuple[str, ...]]) -> None:
    """Fill vacant ``offices`` in order with the oldest politician of the
    first source that has one."""
    for office in offices:
        if holder(s, office) is not None:
            continue
        for source in sources:
            pool = [n for place in source for n in ([holder(s, place)] if place in LEVEL else at(s, place)) if n]
            if pool:
                name = oldest(s, pool)[0]
                _move(s, name, office)
                _event(s, "filled", name=name, office=office)
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


def _promote_next(s: JSON, step: JSON) -> None:
    queue, level = list(step["queue"]), step["level"]
    while queue:
        name = holder(s, queue.pop(0))
        if name is not None and present(s, name) and leader(s, name) is not None and promotions(s, name, level):
            s["lock"] = [name]
            _wait(s, "promote", 6, actor=name, level=level, queue=queue)
            return
    s["lock"] = []
    if level == 1:
        _fill(s, LEVEL2, [(CANDIDATE,), (PEOPLE,)])
        _goto(s, "promote", level=2, queue=list(LEVEL2))
        return
    _fill_candidates(s)
    if any(holder(s, o) is None for o in LEVEL1 + LEVEL2):  # the chief comes in phase 5 (ruling 20)
        _finish(s, None, "politburo_incomplete")
        return
    _goto(s, "p7")


def _fill_candidates(s: JSON) -> None:
    while len(at(s, CANDIDATE)) < CANDIDATE_PLACES and at(s, PEOPLE):
        name = oldest(s, at(s, PEOPLE))[0]
        _move(s, name, CANDIDATE)
        _event(s, "filled", name=name, office=CANDIDATE)


def _act_promote(s: JSON, order: Order) -> None:
    step = s["step"]
    actor = step["actor"]
    if order.verb == "PROMOTE":
        name = order.names[0]
        target = order.office or (CANDIDATE if where(s, name) == PEOPLE else
                                  next(o for o in LEVEL2 if holder(s, o) is None))
        _move(s, name, target)
        _event(s, "promoted", actor=actor, name=name, office=target)
        _stress(s, actor, STRESS["promote"], "promote")
        if present(s, actor) and promotions(s, actor, step["level"]):
            _wait(s, "promote", 6, actor=actor, level=step["level"], queue=step["queue"])
            return
    _goto(s, "promote", level=step["level"], queue=step["queue"])


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


def _act_chief(s: JSON, order: Order) -> None:
    step = s["step"]
    chief = step["actor"]
    if order.verb == "END":
        _after_chief(s)
        return
    changes, stress = 1, 1
    if order.verb == "MOVE":
        stress = 0
        _move(s, order.names[0], str(order.office))
        _event(s, "moved", actor=chief, name=order.names[0], office=order.office)
    elif order.verb == "SWAP":
        first, second = order.names
        one, two = where(s, first), where(s, second)
        same = level_of(s, first) == level_of(s, second) and level_of(s, first) in (1, 2)
        _move(s, first, two)
        _move(s, second, one)
        changes, stress = (1, 0) if same else (2, 2)
        _event(s, "swapped", actor=chief, name=first, other=second)
    else:
        name = order.names[0]
        place = where(s, name)
        if order.verb == "PROMOTE":
            target = order.office or CANDIDATE
        else:
            target = order.office or (CANDIDATE if place in LEVEL2 else PEOPLE)
        _move(s, name, target)
        _event(s, "promoted" if order.verb == "PROMOTE" else "demoted", actor=chief, name=name, office=target)
    step["changes"] = int(step.get("changes", 0)) + changes
    _stress(s, chief, stress, "chief_changes")
    if present(s, chief) and leader(s, chief) is not None and chief_orders(s):
        _wait(s, "chief", 6, actor=chief, changes=step["changes"])
    else:
        _after_chief(s)


# --- phase 7: rehabilitations --------------------------------------------------------------------------


def _p7(s: JSON, _: JSON) -> None:
    _goto(s, "rehab", queue=list(OFFICES))


def _rehab_next(s: JSON, step: JSON) -> None:
    queue = list(step["queue"])
    while queue and at(s, SIBERIA):
        name = holder(s, queue.pop(0))
        if name is not None and present(s, name) and leader(s, name) is not None:
            s["lock"] = [name]
            _wait(s, "rehab", 7, actor=name, queue=queue)
            return
    s["lock"] = []
    _goto(s, "p8")


def _act_rehab(s: JSON, order: Order) -> None:
    step = s["step"]
    actor = step["actor"]
    if order.verb == "REHABILITATE":
        _move(s, order.names[0], PEOPLE)
        _event(s, "rehabilitated", actor=actor, name=order.names[0])
        _stress(s, actor, STRESS["rehabilitate"], "rehabilitate")
        if present(s, actor) and at(s, SIBERIA):
            _wait(s, "rehab", 7, actor=actor, queue=step["queue"])
            return
    s["lock"] = []
    _goto(s, "rehab", queue=step["queue"])


# --- phase 8: the October parade, the year's end ---------------------------------------------------


def _p8(s: JSON, _: JSON) -> None:
    chief = holder(s, CHIEF)
    if chief is None or s["pol"][chief]["cure"]:
        _event(s, "no_parade", name=chief or "")
    elif leader(s, chief) is None and s["rules"]["hr10"] == 2:
        _event(s, "no_parade_unled", name=chief)
    else:
        ill = s["pol"][chief]["ill"]
        success = True
        if ill:
            _stress(s, chief, ill, "parade")
            if where(s, chief) != CHIEF:
                _goto(s, "end_of_year")
                return
            need = PARADE_ROLL[ill]
            roll = _roll(s, f"W20 October parade {chief} (needs {need})")
            success = roll >= need
            _event(s, "parade", name=chief, roll=roll, need=need, success=success)
        else:
            _event(s, "parade", name=chief, roll=0, need=0, success=True)
        if success:
            s["parades"][chief] = s["parades"].get(chief, 0) + 1
            if s["parades"][chief] >= WINNING_PARADES:
                _finish(s, chief, "three_parades")
                return
            if s["year"] == PARADE_YEAR:
                _finish(s, chief, "parade_year10")
                return
    _goto(s, "end_of_year")


def _end_of_year(s: JSON, _: JSON) -> None:
    if s["rules"]["zr3"] and s["year"] % 3 == 0:
        _wait(s, "topup", 9, queue=influence.topup_order(s))
    else:
        _goto(s, "year")


def _act_topup(s: JSON, player: str, order: Order) -> None:
    queue = list(s["step"]["queue"])[1:]
    if order.verb == "ADD":
        name = order.names[0]
        s["extra"][player][name] = s["extra"][player].get(name, 0) + 2
        _event(s, "topup", player=player, name=name)
    if queue:
        _wait(s, "topup", 9, queue=queue)
    else:
        _goto(s, "year")


# --- the end ------------------------------------------------------------------------------------------


def _finish(s: JSON, chief: str | None, why: str) -> None:
    s["phase"] = f"{FIRST_YEAR - 1 + s['year']}-end"
    if chief is None:
        s["result"] = {"why": why, "chief": None, "winner": None, "draw": why, "scores": {}}
        _event(s, "draw", why=why)
        return
    winner, scores, how = influence.winner(s, chief, _roll)
    s["result"] = {"why": why, "chief": chief, "winner": winner, "draw": None if winner else "tie",
                   "scores": scores, "how": how}
    _event(s, "won", name=chief, why=why, player=winner or "", how=how)


def _act(s: JSON, player: str, order: Order) -> None:
    kind = s["step"]["kind"]
    if kind == "topup":
        _act_topup(s, player, order)
        return
    handler: Callable[[JSON, Order], None] = {
        "cure": _act_cure, "purge": _act_purge, "investigate": _act_investigate, "accuse": _act_accuse,
        "deport": _act_deport, "chief": _act_chief, "promote": _act_promote, "rehab": _act_rehab,
        "nominate": lambda st, o: _nominate(st, o.names[0]),
    }[kind]
    handler(s, order)


_STEPS: dict[str, Callable[[JSON, JSON], None]] = {
    "year": _year, "p1": _p1, "cure": _cure_next, "p2": _p2, "p3": _p3, "p4": _p4, "p5": _p5, "p6": _p6,
    "promote": _promote_next, "p7": _p7, "rehab": _rehab_next, "p8": _p8, "end_of_year": _end_of_year,
}
