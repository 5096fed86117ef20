"""Small effects on the working copy of a Kreml state: events, private
notices, die rolls, stress and ageing, moving a politician, the next step.

Pure steps over the working copy a ``flow.play`` made (see ``flow.py``).
"""

from __future__ import annotations

from typing import Any

from adjudicator.games import randomness
from adjudicator.games.kreml.data import KremlData
from adjudicator.games.kreml.rules import FIRST_YEAR, GUILLOTINE, JSON, LEVEL, OUT, SIBERIA, WALL


def log_event(s: JSON, key: str, **args: Any) -> None:
    """Record a public event of this resolution."""
    s["events"].append({"key": key, "args": args})


def tell(s: JSON, player: str, key: str, **args: Any) -> None:
    """Record a private notice for ``player`` alone (stamped with the year)."""
    s["notices"].setdefault(player, []).append({"key": key, "args": {**args, "year": s["year"]}})


def roll_d20(s: JSON, label: str) -> int:
    """A W20 from the game's seed, recorded as a random event."""
    event = randomness.roll(s["seed"], s["counter"], 20, label)
    s["counter"] += 1
    s["rolls"].append(event.to_json())
    return int(event.result[0])


def game_data(s: JSON) -> KremlData:
    """The game data (politicians, tables) the state carries."""
    return KremlData.from_json(s["data"])


def add_stress(s: JSON, name: str, points: int, why: str) -> None:
    """Age ``name`` by ``points``; with the guillotine (Zusatzregel 1) he
    leaves the game at 95."""
    if points <= 0:
        return
    entry = s["pol"][name]
    entry["age"] += points
    log_event(s, "stress", name=name, points=points, why=why, age=entry["age"])
    if s["rules"]["zr1"] and entry["age"] >= GUILLOTINE and entry["where"] not in (WALL, OUT):
        log_event(s, "guillotine", name=name, age=entry["age"])
        move_to(s, name, OUT)


def move_to(s: JSON, name: str, place: str) -> None:
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


def go_to(s: JSON, to: str, **fields: Any) -> None:
    """The next step is ``to``, run by the judge without a player."""
    s["step"] = {"kind": "goto", "to": to, **fields}


def wait_for(s: JSON, kind: str, phase: int, **fields: Any) -> None:
    """The game waits for a player's ``kind`` step in ``phase`` (a new step name)."""
    s["step"] = {"kind": kind, "p": phase, **fields}
    rename_step(s)


def rename_step(s: JSON) -> None:
    """The same step under a new name (a new turn of the same seat)."""
    s["seq"] += 1
    s["phase"] = f"{FIRST_YEAR - 1 + s['year']}-{s['step']['p']}-{s['seq']:03d}"

def start_vote(s: JSON, phase: int, motion: str, actor: str, subject: str, voters: list[str], round_: int) -> None:
    """A vote of ``voters`` on ``motion``; they stay locked until it is counted."""
    s["lock"] = sorted(set(s["lock"]) | set(voters))
    wait_for(s, "vote", phase, motion=motion, actor=actor, subject=subject, voters=voters, round=round_, votes={})
