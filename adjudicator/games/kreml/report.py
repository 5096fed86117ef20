"""The public report of one Kreml resolution: what happened (in German
and English), every die roll, the votes, the position (offices, ages,
illness, cures, investigations, candidates, people, Siberia, the Kremlin
wall), the influence revealed per player, the parades, and at the end the
secret notes.  Nothing secret is in it before its time."""

from __future__ import annotations

from typing import Any

from adjudicator.games.kreml import events as cards
from adjudicator.games.kreml import words
from adjudicator.games.kreml.flow import seats
from adjudicator.games.kreml.legal import describe_in
from adjudicator.games.kreml.rules import (
    CANDIDATE, FIRST_YEAR, JSON, OFFICES, OUT, PEOPLE, SIBERIA, WALL, at, holder, leader, oldest, shown,
)


def position(state: JSON) -> JSON:
    """The public position: each office with its holder, the other places."""
    def person(name: str) -> JSON:
        entry = state["pol"][name]
        led = leader(state, name)
        return {"name": name, "age": entry["age"], "ill": entry["ill"], "cure": entry["cure"],
                "inv": FIRST_YEAR - 1 + entry["inv"] if entry["inv"] is not None else None,
                "leader": led or "", "shown": shown(state, name) if led else 0,
                "parades": state["parades"].get(name, 0)}
    offices = []
    for office in OFFICES:
        name = holder(state, office)
        offices.append({"office": office, "office_name": {l: words.office(office, l) for l in words.LANGUAGES},
                        "holder": person(name) if name else None})
    places = {place: [person(n) for n in oldest(state, at(state, place))]
              for place in (CANDIDATE, PEOPLE, SIBERIA, WALL, OUT)}
    return {"offices": offices, **places}


def revealed(state: JSON) -> dict[str, list[list[Any]]]:
    """Per player the politicians he leads and the points he shows."""
    found: dict[str, list[list[Any]]] = {p: [] for p in state["players"]}
    for name, (player, points) in state["leaders"].items():
        if leader(state, name) == player:
            found[player].append([name, points])
    return found


def build(before: JSON, after: JSON) -> JSON:
    """The report of the resolution from ``before`` to ``after``."""
    events = [{l: words.event_text(e, l) for l in words.LANGUAGES} for e in after["events"]]
    # a secret draw (a note chosen for a player) is shown sealed: the judge's verify leaves it out
    rolls = [{**{k: v for k, v in r.items() if k != "secret"}, **({"sealed": True} if r.get("secret") else {})}
             for r in after["rolls"]]
    votes = [e["args"] for e in after["events"] if e["key"] == "vote"]
    report: JSON = {
        "standin": bool(after["data"]["standin"]),
        "standin_text": words.both("standin"),
        "year": FIRST_YEAR - 1 + max(after["year"], 0),
        "phase": before["phase"], "next_phase": after["phase"] if after["result"] is None else None,
        "events": events, "random_events": rolls, "votes": votes,
        "position": position(after), "revealed": revealed(after),
        "extra": {p: dict(v) for p, v in after["extra"].items() if v},
        "waiting": seats(after), "hands": {p: cards.hand(after, p) for p in after["players"]},
        "result": after["result"], "notes": {},
    }
    if after["result"] is not None:
        report["notes"] = {p: sorted(((n, pts) for n, pts in note.items()), key=lambda x: -x[1])
                           for p, note in after["notes"].items()}
    report["years"] = [{"year": FIRST_YEAR - 1 + c["year"],
                        "events": [{l: words.event_text(e, l) for l in words.LANGUAGES} for e in c["events"]]}
                       for c in after.get("closed", [])]
    return report


def status(state: JSON, language: str) -> tuple[str, ...]:
    """The public position in a few lines (for "your turn" mails and STATUS)."""
    lines = [words.say("standin_short", language)] if state["data"]["standin"] else []
    year = FIRST_YEAR - 1 + max(state["year"], 0)
    lines.append(words.say("s_now", language, year=year, step=describe_in(state, language)))
    for entry in position(state)["offices"]:
        holder_ = entry["holder"]
        text = words.say("r_vacant", language)
        if holder_:
            text = words.say("r_person", language, name=holder_["name"], age=holder_["age"])
            if holder_["ill"]:
                text += ", " + words.say("r_ill", language, marks="+" * holder_["ill"])
            if holder_["cure"]:
                text += ", " + words.say("r_cure", language)
            if holder_["inv"]:
                text += ", " + words.say("r_inv", language, year=holder_["inv"])
            if holder_["leader"]:
                text += ", " + words.say("r_led", language, player=words.player(holder_["leader"], language),
                                         points=holder_["shown"])
        lines.append(words.say("s_office", language, office=entry["office_name"][language], holder=text))
    names = {place: ", ".join(p["name"] for p in people) or "-" for place, people in position(state).items()
             if place != "offices"}
    lines.append(words.say("s_places", language, candidate=names[CANDIDATE], siberia=names[SIBERIA],
                           wall=names[WALL]))
    led = "; ".join(f"{words.player(p, language)}: " + ", ".join(f"{n} {pts}" for n, pts in items)
                    for p, items in revealed(state).items() if items)
    if led:
        lines.append(words.say("s_revealed", language, revealed=led))
    if cards.enabled(state):
        hands = "; ".join(f"{words.player(p, language)}: " + (", ".join(cards.hand(state, p)) or "-")
                          for p in state["players"])
        lines.append(words.say("s_hands", language, hands=hands, supply=", ".join(cards.supply(state)) or "-"))
    if state["parades"]:
        lines.append(words.say("s_parades", language,
                               parades=", ".join(f"{n} {c}" for n, c in state["parades"].items())))
    return tuple(lines)
