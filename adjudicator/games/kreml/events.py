"""The event cards (the rule summary's "Ereigniskarten", rule book pages
15f): after the notes every player takes one card of his choice, the
oldest player first (``pick``); with Zusatzregel 3 a player may take
another instead of adding points; a card is played at any time by mail
(``EVENT <card> <politician>``), takes effect at the start of the first
step in one of the card's phases (never on a politician in the middle of
his own actions or of a vote), and is given back then, to be chosen
again.  Which cards a player holds is public; a play is secret until it
takes effect (rulings 29-33).

State fields: ``hands`` (player -> card keys held, public) and ``plays``
(``[player, card, politician]`` not yet in effect, secret).
"""

from __future__ import annotations

from typing import Any

from adjudicator.games.kreml.data import EventCard
from adjudicator.games.kreml.effects import add_stress, game_data, go_to, log_event, move_to, tell, wait_for
from adjudicator.games.kreml.orders import Order
from adjudicator.games.kreml.reasons import Reason, reason
from adjudicator.games.kreml.rules import CANDIDATE, JSON, OUT, PEOPLE, SIBERIA, WALL, in_politburo, where

STEP_PHASE = {"year": 0, "p1": 1, "cure": 1, "p2": 2, "p3": 3, "p4": 4, "p5": 5, "p6": 6, "promote": 6, "p7": 7,
              "rehab": 7, "p8": 8, "end_of_year": 9, "picks": 0}
"""The phase of the year a step the judge runs alone belongs to."""


def enabled(state: JSON) -> bool:
    """True when the game plays with event cards (option ``events``)."""
    return bool(state["rules"].get("events", 0)) and state["data"].get("events") is not None


def cards(state: JSON) -> tuple[EventCard, ...]:
    """The game's event cards in data-file order (none when unknown)."""
    return game_data(state).events or ()


def hand(state: JSON, player: str) -> list[str]:
    """The card keys ``player`` holds (public)."""
    return [str(k) for k in state.get("hands", {}).get(player, [])]


def supply(state: JSON) -> list[str]:
    """The card keys that can be taken now: the copies nobody holds."""
    held = [k for keys in state.get("hands", {}).values() for k in keys]
    return [c.key for c in cards(state) if c.count > held.count(c.key)]


def phase_now(state: JSON) -> int:
    """The phase (0 before phase 1, 9 after phase 8) of the step about to start or waiting."""
    step = state["step"]
    if step["kind"] == "goto":
        return STEP_PHASE.get(str(step["to"]), 0)
    return int(step.get("p", 0))


def target_problem(state: JSON, card: EventCard, name: str | None) -> Reason | None:
    """Why ``card`` cannot act on ``name`` now (None: it can)."""
    if name is None:
        return reason("card_needs_target", card=card.key)
    entry = state["pol"][name]
    if entry["where"] in (WALL, OUT):
        return reason("card_target_gone", name=name)
    effect = card.effect
    if effect == "heal" and entry["ill"] == 0:
        return reason("card_heal_target", name=name)
    if effect == "sicken" and not in_politburo(state, name):
        return reason("card_politburo_target", name=name)
    if effect == "stress" and not (in_politburo(state, name) or where(state, name) == CANDIDATE):
        return reason("card_stress_target", name=name)
    if effect == "rehabilitate" and entry["where"] != SIBERIA:
        return reason("card_siberia_target", name=name)
    if effect == "clear" and entry["inv"] is None:
        return reason("card_clear_target", name=name)
    return None


def play_problem(state: JSON, player: str, key: str | None, name: str | None) -> Reason | None:
    """Why ``player`` cannot play card ``key`` on ``name`` now (None: he can)."""
    if not enabled(state):
        return reason("no_events")
    card = game_data(state).card(key or "")
    if card is None:
        return reason("no_card", card=key or "-", cards=", ".join(c.key for c in cards(state)))
    reserved = [p for p in state.get("plays", []) if p[0] == player and p[1] == card.key]
    if hand(state, player).count(card.key) <= len(reserved):
        return reason("card_not_held", card=card.key, held=", ".join(hand(state, player)) or "-")
    return target_problem(state, card, name)


def plays_open(state: JSON, player: str) -> list[Order]:
    """Every card play ``player`` could send now (each held card on each fitting politician)."""
    found: list[Order] = []
    for key in dict.fromkeys(hand(state, player)):
        for name in state["pol"]:
            if play_problem(state, player, key, name) is None:
                found.append(Order("EVENT", (name,), card=key))
    return found


def take_orders(state: JSON) -> list[Order]:
    """The cards that can be taken now, one ``TAKE`` each."""
    return [Order("TAKE", card=key) for key in dict.fromkeys(supply(state))]


def start_picks(s: JSON, _: JSON) -> None:
    """After the notes: every player takes a card, the oldest first (without event cards: the first year)."""
    if enabled(s):
        s.setdefault("hands", {p: [] for p in s["players"]})
        pick_next(s, {"queue": list(s["seniority"])})
    else:
        go_to(s, "year")


def pick_next(s: JSON, step: JSON) -> None:
    """The next player's choice, or the first year when everyone has one."""
    queue = list(step["queue"])
    while queue and not supply(s):
        log_event(s, "card_none_left", player=queue.pop(0))
    if queue:
        wait_for(s, "pick", 0, queue=queue)
    else:
        go_to(s, "year")


def take(s: JSON, player: str, key: str) -> None:
    """``player`` takes card ``key`` from the supply (public)."""
    card = game_data(s).card(key)
    assert card is not None and key in supply(s)
    s.setdefault("hands", {}).setdefault(player, []).append(card.key)
    log_event(s, "card_taken", player=player, card_de=card.name_de, card_en=card.name_en, code=card.key)


def act_pick(s: JSON, player: str, order: Order) -> None:
    """``player`` takes the card he named (the rules' default: the first one left); then the next player."""
    key = order.card if order.verb == "TAKE" and order.card in supply(s) else supply(s)[0]
    take(s, player, str(key))
    pick_next(s, {"queue": list(s["step"]["queue"])[1:]})


def apply_plays(s: JSON) -> None:
    """Put every waiting card play into effect that may take effect now: in
    one of its card's phases and not on a locked politician; a play whose
    politician no longer fits lapses (the card stays in its player's hand)
    and only its player is told."""
    keep: list[list[Any]] = []
    phase = phase_now(s)
    for player, key, name in s.get("plays", []):
        card = game_data(s).card(str(key))
        if card is None or phase not in card.phases or name in s["lock"]:
            keep.append([player, key, name])
            continue
        problem = target_problem(s, card, name)
        if problem is not None:
            tell(s, player, "card_lapsed", card=card.key, name=name, reason=problem.both())
            continue
        s["hands"][player].remove(card.key)
        _effect(s, card, str(name))
        log_event(s, "card_played", player=player, card_de=card.name_de, card_en=card.name_en, name=name,
                  effect=card.effect, value=card.value, phase=phase)
    s["plays"] = keep


def _effect(s: JSON, card: EventCard, name: str) -> None:
    entry = s["pol"][name]
    if card.effect == "heal":
        entry["ill"] = max(0, int(entry["ill"]) - card.value)
    elif card.effect == "sicken":
        entry["ill"] = int(entry["ill"]) + card.value
    elif card.effect == "stress":
        add_stress(s, name, card.value, "event")
    elif card.effect == "rehabilitate":
        move_to(s, name, PEOPLE)
    else:
        entry["inv"] = None
