"""Secret influence: the notes, revealing points, leadership, Zusatzregel
3's open additions and who wins at the end.

A player's note holds ten politicians (never Nestor Aparatschik) with the
points 1 to 10, each once.  A reveal names a Politburo member and the
points the player now shows on him: never more than noted (plus open
additions), and, when someone else leads him, at least one more than the
leader shows (no one can take over a politician shown with 10 or more).
Reveals take effect at the start of the next step, in the players'
seniority (Hausregel 3), except on a politician in the middle of his own
actions or of a vote (``lock``): those wait until it is over.
"""

from __future__ import annotations

from typing import Any, Callable

from adjudicator.games.kreml.data import NESTOR
from adjudicator.games.kreml.reasons import Reason, reason
from adjudicator.games.kreml.rules import (
    CANDIDATE, JSON, LEVEL1, LEVEL2, OFFICES, PEOPLE, SIBERIA, at, holder, in_politburo, leader, members, shown,
)

NOTE_SIZE = 10
MAX_SHOWN = 10


def note_problem(note: dict[str, int], names: list[str]) -> Reason | None:
    """Why a note cannot be used (None: it can): ten different politicians
    of the game, Nestor excluded, the points 1..10 each once."""
    unknown = [n for n in note if n not in names]
    if NESTOR in note:
        return reason("nestor", name=NESTOR)
    if unknown:
        return reason("not_politicians", names=", ".join(unknown))
    if len(note) != NOTE_SIZE:
        return reason("note_size", size=NOTE_SIZE, count=len(note))
    if sorted(note.values()) != list(range(1, NOTE_SIZE + 1)):
        twice = sorted({p for p in note.values() if list(note.values()).count(p) > 1})
        missing = [p for p in range(1, NOTE_SIZE + 1) if p not in note.values()]
        return reason("note_points", twice=", ".join(map(str, twice)) or "-",
                      missing=", ".join(map(str, missing)) or "-")
    return None


def limit(state: JSON, player: str, name: str) -> int:
    """The most points ``player`` can show on ``name`` (noted plus added)."""
    return int(state["notes"].get(player, {}).get(name, 0)) + int(state["extra"].get(player, {}).get(name, 0))


def reveal_problem(state: JSON, player: str, name: str, points: int) -> Reason | None:
    """Why ``player`` cannot show ``points`` on ``name`` now (None: he can)."""
    if name == NESTOR:
        return reason("nestor", name=NESTOR)
    if not in_politburo(state, name):
        return reason("not_in_politburo", name=name)
    most = limit(state, player, name)
    if most == 0:
        return reason("no_points", name=name)
    if points < 1 or points > most:
        return reason("points_range", name=name, most=most, points=points)
    who, now = leader(state, name), shown(state, name)
    if who == player and points <= now:
        return reason("already_lead", name=name, now=now)
    if who is not None and who != player:
        if now >= MAX_SHOWN:
            return reason("locked_ten", name=name, now=now)
        if points <= now:
            return reason("takeover", name=name, now=now, need=now + 1)
    return None


def apply_pending(state: JSON, event: Callable[..., None], notice: Callable[..., None]) -> None:
    """Put every waiting reveal into effect that may take effect now (not
    on a locked politician), in the order they were queued; a reveal that
    no longer takes over lapses and only its sender is told."""
    keep: list[list[Any]] = []
    for player, name, points in state["pending"]:
        if name in state["lock"]:
            keep.append([player, name, points])
            continue
        problem = reveal_problem(state, player, name, int(points))
        if problem is not None:
            notice(state, player, "reveal_lapsed", name=name, points=points, reason=problem.both())
            continue
        before = leader(state, name)
        state["leaders"][name] = [player, int(points)]
        event(state, "revealed", player=player, name=name, points=int(points), before=before or "")
    state["pending"] = keep


def pending_of(state: JSON, player: str) -> list[tuple[str, int]]:
    """``player``'s reveals that have not yet taken effect."""
    return [(str(n), int(p)) for who, n, p in state["pending"] if who == player]


def topup_order(state: JSON) -> list[str]:
    """Who adds points under Zusatzregel 3, first to last: the player
    leading the highest living office holder sets last (none: the oldest
    player), the one after him in seat order first, then round the table."""
    players = list(state["players"])
    last = None
    for office in OFFICES:
        name = holder(state, office)
        if name is not None:
            last = leader(state, name)
            break
    last = last or state["seniority"][0]
    start = players.index(last) + 1
    return players[start:] + players[:start]


def winner(state: JSON, chief: str, roll: Callable[[JSON, str], int]) -> tuple[str | None, dict[str, int], str]:
    """The winning player once ``chief`` has won (None: a draw), the points
    each player had on him, and how the tie was broken (``points``,
    ``not_leader``, ``hr1_<group>``, ``die``, ``tie``)."""
    players = list(state["players"])
    scores = {p: limit(state, p, chief) for p in players}
    best = max(scores.values())
    tied = [p for p in players if scores[p] == best]
    if len(tied) == 1:
        return tied[0], scores, "points"
    who = state["leaders"].get(chief, [None])[0]
    if who in tied:
        tied.remove(who)
        if len(tied) == 1:
            return tied[0], scores, "not_leader"
    variant = state["rules"]["hr1"]
    if variant == 1:
        groups = [("level1", [h for o in LEVEL1 if (h := holder(state, o))]),
                  ("level2", [h for o in LEVEL2 if (h := holder(state, o))]),
                  ("candidates", at(state, CANDIDATE)), ("people", at(state, PEOPLE)), ("siberia", at(state, SIBERIA))]
        totals = {p: scores[p] for p in tied}
        for label, names in groups:
            for p in tied:
                totals[p] += sum(limit(state, p, n) for n in names)
            top = max(totals[p] for p in tied)
            tied = [p for p in tied if totals[p] == top]
            if len(tied) == 1:
                return tied[0], scores, f"hr1_{label}"
        return None, scores, "tie"
    if variant == 3:
        while len(tied) > 1:
            rolls = {p: roll(state, f"W20 tie-break {p}") for p in tied}
            top = max(rolls.values())
            tied = [p for p in tied if rolls[p] == top]
        return tied[0], scores, "die"
    return None, scores, "tie"


__all__ = ["apply_pending", "limit", "members", "note_problem", "pending_of", "reveal_problem", "topup_order",
           "winner"]
