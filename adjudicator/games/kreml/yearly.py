"""Setup, the secret notes, the start and the end of a year (the reveal
window, Zusatzregel 3's open additions).

Pure steps over the working copy a ``flow.play`` made (see ``flow.py``).
"""

from __future__ import annotations

from typing import Any

from adjudicator.games import randomness
from adjudicator.games.kreml import influence
from adjudicator.games.kreml.data import NESTOR, KremlData
from adjudicator.games.kreml.events import supply, take
from adjudicator.games.kreml.effects import go_to, log_event, tell, wait_for
from adjudicator.games.kreml.orders import Order
from adjudicator.games.kreml.rules import CANDIDATE, CANDIDATE_PLACES, CHIEF, FIRST_YEAR, JSON, OFFICES, PEOPLE


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
        "hands": {p: [] for p in players}, "plays": [],
        "parades": {}, "lock": [], "step": {"kind": "notes", "p": 0}, "events": [], "rolls": [event.to_json()],
        "year_log": [], "result": None,
    }
    return state

def take_notes(s: JSON, orders: dict[str, list[Order]]) -> None:
    """Every player's note (a drawn one, told only to him, where none is valid); then the first year."""
    names = [p for p in s["pol"] if p != NESTOR]
    for player in s["players"]:
        note = {o.names[0]: int(o.points or 0) for o in orders.get(player, []) if o.verb == "NOTE"}
        if influence.note_problem(note, names) is not None:
            event = randomness.choose(s["seed"], s["counter"], names, f"note of {player} (none given)", 10)
            s["counter"] += 1
            note = {name: 10 - index for index, name in enumerate(event.result)}
            tell(s, player, "note_random")
            s["rolls"].append({**event.to_json(), "items": [], "result": ["(secret)"] * 10, "secret": True})
        s["notes"][player] = note
    log_event(s, "notes_taken")
    go_to(s, "picks")


def begin_year(s: JSON, _: JSON) -> None:
    """A new year: cures and purge attempts reset, the reveal window or phase 1."""
    if s["year"] > 0:
        s["closed"].append({"year": s["year"], "events": s["year_log"] + s["events"][s["mark"]:]})
    s["mark"] = len(s["events"])
    s["year"] += 1
    s["year_log"] = []
    for entry in s["pol"].values():
        entry["cure"], entry["tried"] = False, False
    log_event(s, "year_begins", year=FIRST_YEAR - 1 + s["year"])
    if s["rules"]["window"]:
        wait_for(s, "window", 0)
    else:
        go_to(s, "p1")


def end_of_year(s: JSON, _: JSON) -> None:
    """After phase 8: Zusatzregel 3's additions after every third year, else the next year."""
    if s["rules"]["zr3"] and s["year"] % 3 == 0:
        wait_for(s, "topup", 9, queue=influence.topup_order(s))
    else:
        go_to(s, "year")


def act_topup(s: JSON, player: str, order: Order) -> None:
    """``player`` adds two open points on a politician (or none); then the next player or year."""
    queue = list(s["step"]["queue"])[1:]
    if order.verb == "TAKE" and order.card in supply(s):  # instead of adding (the event cards' rule)
        take(s, player, str(order.card))
    if order.verb == "ADD":
        name = order.names[0]
        s["extra"][player][name] = s["extra"][player].get(name, 0) + 2
        log_event(s, "topup", player=player, name=name)
    if queue:
        wait_for(s, "topup", 9, queue=queue)
    else:
        go_to(s, "year")
