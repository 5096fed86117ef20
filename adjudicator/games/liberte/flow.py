"""The course of a round: turns, the end of the actions, the battle, the
election (province by province, with sealed tie-break plays), government
and opposition, victory points, and the early ends.

``after_turn`` follows a player's action and ``after_bid`` a round of
sealed plays; both run the round on (``run``) until players must act
again (``step`` ``refill``, ``action`` or ``bid``) or the game is over.
Every function returns a changed copy of the game with its events and
random events; the argument is never changed.
"""

from __future__ import annotations

from typing import Any

from adjudicator.games.liberte.data import FACTIONS, GameData
from adjudicator.games.liberte.state import (
    COUNTER_REVOLUTION, GOVERNMENT_PRIZES, LANDSLIDE, OPPOSITION_PRIZES, PARIS_BIDS, ROUNDS, G, clear, copy,
    cr_controlled, faction_count, own_stack, remove_blocks, stacks,
)

Events = list[dict[str, Any]]
Randoms = list[dict[str, Any]]


def phase_name(g: G) -> str:
    """The phase's name: round and number (``R2-031``), ``END`` at the end."""
    return "END" if g["step"] == "over" else f"R{g['round']}-{g['seq']:03d}"


def _next_phase(g: G, step: str) -> None:
    g["step"] = step
    g["seq"] += 1


def current_seat(g: G) -> str:
    """Whose turn it is in a ``refill`` or ``action`` step."""
    return str(g["order"][g["turn"]])


def after_turn(g: G, data: GameData, passed: bool, events: Events, randoms: Randoms,
               options: dict[str, Any]) -> G:
    """After an action of the current seat: the counter-revolution is
    checked at once; the actions end when a faction's blocks are used up
    (or every player has passed in a row); else the next seat's turn."""
    g = copy(g)
    g["passes"] = g["passes"] + 1 if passed else 0
    if _counter_revolution(g, data, events):
        return g
    exhausted = [f for f in FACTIONS if g["supply"][f] <= 0]
    if exhausted or g["passes"] >= len(g["players"]):
        events.append({"key": "lib_ev_actions_end_blocks" if exhausted else "lib_ev_actions_end_passes",
                       "faction": exhausted[0] if exhausted else ""})
        g["stage"] = "battle"
        return run(g, data, events, randoms, options)
    g["turn"] = (g["turn"] + 1) % len(g["order"])
    _next_phase(g, "action")
    return g


def after_refill(g: G, data: GameData, events: Events, randoms: Randoms, options: dict[str, Any]) -> G:
    """After a seat's new cards: the next seat, or the actions begin."""
    g = copy(g)
    if g["turn"] + 1 < len(g["order"]):
        g["turn"] += 1
        _next_phase(g, "refill")
        return g
    return _begin_actions(g, data, events, randoms, options)


def _begin_actions(g: G, data: GameData, events: Events, randoms: Randoms, options: dict[str, Any]) -> G:
    g["turn"], g["passes"] = 0, 0
    if any(g["supply"][f] <= 0 for f in FACTIONS):
        # A faction has no block left before the first action: no actions this round.
        events.append({"key": "lib_ev_actions_end_blocks", "faction": next(f for f in FACTIONS if g["supply"][f] <= 0)})
        g["stage"] = "battle"
        return run(g, data, events, randoms, options)
    g["stage"] = "actions"
    _next_phase(g, "action")
    return g


def _over(g: G, kind: str, counts: dict[str, int], events: Events) -> None:
    best = max(counts.values()) if counts else 0
    winners = [s for s in g["players"] if counts.get(s, 0) == best]
    g["result"] = {"kind": kind, "winners": winners, "counts": counts}
    g["step"] = "over"
    g["stage"] = "over"
    events.append({"key": f"lib_ev_end_{kind}", "winners": " ".join(winners), "counts": counts})


def _counter_revolution(g: G, data: GameData, events: Events) -> bool:
    held = cr_controlled(g, data)
    if len(held) < COUNTER_REVOLUTION:
        return False
    events.append({"key": "lib_ev_counter_revolution", "provinces": ", ".join(data.provinces[p].name for p in held)})
    _over(g, "counter_revolution", {s: faction_count(g, data, s, "white") for s in g["players"]}, events)
    return True


def run(g: G, data: GameData, events: Events, randoms: Randoms, options: dict[str, Any]) -> G:
    """Run the round on from ``g["stage"]`` until players must act or the
    game ends (``g`` is the caller's working copy and is changed)."""
    while g["step"] != "over":
        stage = g["stage"]
        if stage == "battle":
            g["stage"] = "election"
            g["election"] = {"index": 0, "votes": {f: 0 for f in FACTIONS}, "pos": 0, "announced": False}
            if g["round"] >= 2 and _battle(g, data, events):
                return g
        elif stage == "election":
            if _provinces(g, data, events, options):
                return g
            if g["step"] == "over":
                return g
            for winner, extra, name in g["election"].get("extra", []):
                g["vp"][winner] += extra
                events.append({"key": "lib_ev_extra_vp", "seat": winner, "extra": extra, "province": name})
            votes = g["election"]["votes"]
            events.append({"key": "lib_ev_votes", "red": votes["red"], "blue": votes["blue"], "white": votes["white"]})
            if votes["red"] >= LANDSLIDE:
                events.append({"key": "lib_ev_landslide", "votes": votes["red"]})
                _over(g, "landslide", {s: faction_count(g, data, s, "red") for s in g["players"]}, events)
                return g
            g["stage"] = "government"
        elif stage == "government":
            g["stage"] = "score_gov"
            if _government(g, data, events):
                return g
        elif stage in ("score_gov", "score_opp"):
            if _score(g, data, events):
                return g
            g["stage"] = "score_opp" if stage == "score_gov" else "round_end"
            g["election"]["pos"] = 0
        elif stage == "round_end":
            _round_end(g, data, events, randoms, options)
            if g["step"] in ("refill", "action", "bid"):
                return g
        else:  # pragma: no cover - every stage is handled above
            raise AssertionError(f"unknown stage {stage}")
    return g


def _round_end(g: G, data: GameData, events: Events, randoms: Randoms, options: dict[str, Any]) -> None:
    for seat in g["players"]:
        for faction in FACTIONS:
            g["supply"][faction] += g["acquired"][seat][faction]
            g["acquired"][seat][faction] = 0
    g["election"] = None
    if g["round"] >= ROUNDS:
        _over(g, "points", dict(g["vp"]), events)
        return
    g["round"] += 1
    if g["round"] == 2:
        for faction in FACTIONS:
            g["supply"][faction] += g["track"][faction]
            g["track"][faction] = 0
        events.append({"key": "lib_ev_track_blocks"})
    previous = list(g["order"])
    g["order"] = sorted(previous, key=lambda s: (-g["vp"][s], previous.index(s)))
    events.append({"key": "lib_ev_round", "round": g["round"], "order": list(g["order"])})
    g["turn"] = 0
    g["stage"] = "refill"
    _next_phase(g, "refill")


# --- Sealed tie-break plays ---------------------------------------------------------------


def bid_value(data: GameData, purpose: str, card: str) -> int:
    """What a played card counts: a general's strength in a battle, else its number."""
    return data.cards[card].general if purpose == "battle" else data.cards[card].value


def bid_cards(g: G, data: GameData, seat: str) -> list[str]:
    """The display cards ``seat`` may play in the sealed play under way."""
    bid = g.get("bid")
    if not bid:
        return []
    found = []
    for cid in g["displays"][seat]:
        card = data.cards[cid]
        if card.kind not in ("person", "club"):
            continue
        if bid["purpose"] == "battle":
            ok = card.general > 0 and seat in bid["sides"]
        elif bid["purpose"] == "government":
            ok = card.faction in bid["sides"]
        else:
            ok = seat in bid["sides"] and card.faction in bid["allowed"].get(seat, [])
        if ok:
            found.append(cid)
    return found


def _start_bid(g: G, data: GameData, purpose: str, sides: list[str], allowed: dict[str, list[str]], rounds: int,
               context: dict[str, Any], events: Events) -> bool:
    """Open a sealed play; False when nobody holds a card to play."""
    g["bid"] = {"purpose": purpose, "sides": list(sides), "group": list(sides), "allowed": allowed, "round": 1,
                "max": rounds, "totals": {s: 0 for s in sides}, "history": [], "context": context, "seats": []}
    seats = [s for s in g["players"] if bid_cards(g, data, s)]
    if not seats:
        g["bid"] = None
        return False
    g["bid"]["seats"] = seats
    events.append({"key": f"lib_ev_bid_{purpose}", "sides": " ".join(sides), "seats": " ".join(seats),
                   **{k: v for k, v in context.items() if isinstance(v, (str, int))}})
    _next_phase(g, "bid")
    return True


def after_bid(g: G, data: GameData, plays: dict[str, str], events: Events, randoms: Randoms,
              options: dict[str, Any]) -> G:
    """One round of sealed plays revealed: the cards go to the discard pile,
    their values count for their sides; a single leader wins, otherwise
    another round (Paris, government and victory points: up to four), else
    the tie stands.  Then the round runs on."""
    g = copy(g)
    bid = g["bid"]
    revealed = {}
    for seat in bid["seats"]:
        card = plays.get(seat, "")
        if card and card in bid_cards(g, data, seat):
            g["displays"][seat].remove(card)
            g["discard"].append(card)
            side = data.cards[card].faction if bid["purpose"] == "government" else seat
            bid["totals"][side] += bid_value(data, bid["purpose"], card)
            revealed[seat] = card
        else:
            revealed[seat] = ""
    bid["history"].append(revealed)
    events.append({"key": "lib_ev_bids", "round": bid["round"],
                   "plays": ", ".join(f"{s}: {c + ' (' + str(bid_value(data, bid['purpose'], c)) + ')' if c else '-'}"
                                      for s, c in revealed.items()),
                   "totals": ", ".join(f"{s} {v}" for s, v in bid["totals"].items())})
    top = max(bid["totals"][s] for s in bid["sides"])
    leaders = [s for s in bid["sides"] if bid["totals"][s] == top]
    if len(leaders) > 1 and bid["round"] < bid["max"]:
        bid["sides"], bid["round"] = leaders, bid["round"] + 1
        seats = [s for s in g["players"] if bid_cards(g, data, s)]
        if seats:
            bid["seats"] = seats
            _next_phase(g, "bid")
            return g
    g["bid"] = None
    _finish_bid(g, data, bid, leaders, events)
    if g["step"] != "over":
        run(g, data, events, randoms, options)
    return g


def _finish_bid(g: G, data: GameData, bid: dict[str, Any], leaders: list[str], events: Events) -> None:
    winner = leaders[0] if len(leaders) == 1 else None
    purpose, context = bid["purpose"], bid["context"]
    if purpose in ("province", "paris"):
        _province_result(g, data, context["province"], winner, True, events)
        g["election"]["index"] += 1
        _counter_revolution(g, data, events)
    elif purpose == "battle":
        _battle_result(g, winner, events)
    elif purpose == "government":
        order = sorted(bid["group"], key=lambda f: (-bid["totals"][f], FACTIONS.index(f)))
        _set_government(g, order, context["place"], events)
    elif purpose == "score":
        _award_group(g, bid["group"], bid["totals"], context, events)
        g["election"]["pos"] = int(context["place"]) + len(bid["group"])


# --- The battle ---------------------------------------------------------------------------


def _battle(g: G, data: GameData, events: Events) -> bool:
    """The round's battle; True when a sealed play of generals is needed."""
    name, vp = data.battles[g["round"]]
    g["battle"] = {"name": name, "vp": vp}
    with_general = [s for s in g["players"]
                    if g["box"][s] > 0 and any(data.cards[c].general > 0 for c in g["displays"][s])]
    events.append({"key": "lib_ev_battle", "name": name, "vp": vp,
                   "box": ", ".join(f"{s} {g['box'][s]}" for s in g["players"] if g["box"][s]) or "-",
                   "generals": " ".join(with_general) or "-"})
    if not with_general:
        _battle_result(g, None, events, fought=False)
        return False
    most = max(g["box"][s] for s in with_general)
    leaders = [s for s in with_general if g["box"][s] == most]
    if len(leaders) == 1:
        _battle_result(g, leaders[0], events)
        return False
    if _start_bid(g, data, "battle", leaders, {s: ["general"] for s in leaders}, 1, {"battle": name}, events):
        return True
    _battle_result(g, None, events)  # pragma: no cover - a leader always has a general
    return False


def _battle_result(g: G, winner: str | None, events: Events, fought: bool = True) -> None:
    battle = g.get("battle") or {"name": "", "vp": 0}
    if winner is not None:
        g["vp"][winner] += battle["vp"]
        events.append({"key": "lib_ev_battle_won", "seat": winner, "name": battle["name"], "vp": battle["vp"]})
    elif fought:
        g["lost_battles"] += 1
        events.append({"key": "lib_ev_battle_lost", "name": battle["name"]})
    else:
        events.append({"key": "lib_ev_battle_no_leader", "name": battle["name"]})
    g["battles"].append({"round": g["round"], "name": battle["name"], "winner": winner or "",
                         "lost": winner is None and fought})
    g["box"] = {s: 0 for s in g["players"]}


# --- The election -------------------------------------------------------------------------


def _provinces(g: G, data: GameData, events: Events, options: dict[str, Any]) -> bool:
    """Count the provinces in election order; True when a sealed play is needed."""
    order = data.election_order
    if not g["election"]["announced"]:
        g["election"]["announced"] = True
        events.append({"key": "lib_ev_election_begins", "round": g["round"]})
    while g["election"]["index"] < len(order):
        pid = order[g["election"]["index"]]
        here = stacks(g, pid)
        if not here:
            g["election"]["index"] += 1
            continue
        height = max(s[2] for s in here)
        top = [s for s in here if s[2] == height]
        if len(top) == 1:
            _province_result(g, data, pid, str(top[0][0]), False, events)
        else:
            paris = data.provinces[pid].paris
            allowed = {str(s[0]): [str(s[1])] for s in here}
            events.append({"key": "lib_ev_province_tie", "province": data.provinces[pid].name,
                           "stacks": _stacks_text(here)})
            if _start_bid(g, data, "paris" if paris else "province", list(allowed), allowed,
                          PARIS_BIDS if paris else 1, {"province": pid, "name": data.provinces[pid].name}, events):
                return True
            _province_result(g, data, pid, None, True, events)
        g["election"]["index"] += 1
        if _counter_revolution(g, data, events):
            return False
    return False


def _stacks_text(here: list[list[Any]]) -> str:
    return ", ".join(f"{s[0]} {s[1]} {s[2]}" for s in here)


def _province_result(g: G, data: GameData, pid: str, winner: str | None, tied: bool, events: Events) -> None:
    """The vote of a province: the winner's faction gets it (Paris: one vote
    per block of that faction there), the winner takes a block off his
    stack (Paris: all of them); a tied province is cleared in any case."""
    province = data.provinces[pid]
    here = stacks(g, pid)
    if winner is None:
        events.append({"key": "lib_ev_province_none", "province": province.name})
        clear(g, pid)
        return
    stack = own_stack(g, pid, winner)
    assert stack is not None
    faction = str(stack[1])
    votes = sum(int(s[2]) for s in here if s[1] == faction) if province.paris else 1
    taken = remove_blocks(g, pid, winner, int(stack[2]) if province.paris else 1, to_supply=False)
    g["acquired"][winner][faction] += taken
    g["election"]["votes"][faction] += votes
    extra = province.extra_vp(g["round"])
    if g.get("extra_vp", "during") == "after" and extra:
        g["election"].setdefault("extra", []).append([winner, extra, province.name])
    else:
        g["vp"][winner] += extra
    events.append({"key": "lib_ev_province", "province": province.name, "faction": faction, "seat": winner,
                   "votes": votes, "blocks": taken, "extra": extra})
    if tied:
        clear(g, pid)


# --- Government, opposition, victory points ------------------------------------------------


def _government(g: G, data: GameData, events: Events) -> bool:
    votes = g["election"]["votes"]
    ranked = sorted(FACTIONS, key=lambda f: (-votes[f], FACTIONS.index(f)))
    top = [f for f in FACTIONS if votes[f] == votes[ranked[0]]]
    if len(top) > 1:
        if _start_bid(g, data, "government", top, {}, PARIS_BIDS, {"place": "government"}, events):
            return True
        _set_government(g, sorted(top, key=FACTIONS.index), "government", events)
        return False
    g["government"] = ranked[0]
    rest = [f for f in FACTIONS if f != ranked[0]]
    second = [f for f in rest if votes[f] == max(votes[r] for r in rest)]
    if len(second) > 1:
        if _start_bid(g, data, "government", second, {}, PARIS_BIDS, {"place": "opposition"}, events):
            return True
    _set_government(g, sorted(second, key=FACTIONS.index), "opposition", events)
    return False


def _set_government(g: G, order: list[str], place: str, events: Events) -> None:
    if place == "government":
        g["government"], g["opposition"] = order[0], order[1]
    else:
        g["opposition"] = order[0]
    events.append({"key": "lib_ev_government", "government": g["government"], "opposition": g["opposition"]})


def _score(g: G, data: GameData, events: Events) -> bool:
    """Victory points for the government's (5, 2) or the opposition's (3)
    colour; True when a sealed play must break a tie."""
    colour = g["government"] if g["stage"] == "score_gov" else g["opposition"]
    prizes = GOVERNMENT_PRIZES if g["stage"] == "score_gov" else OPPOSITION_PRIZES
    counts = {s: int(g["acquired"][s][colour]) for s in g["players"] if g["acquired"][s][colour] > 0}
    place = 0
    for count in sorted(set(counts.values()), reverse=True):
        group = [s for s in g["players"] if counts.get(s) == count]
        if place >= len(prizes):
            break
        if place >= g["election"]["pos"]:
            context = {"colour": colour, "place": place, "prizes": list(prizes)}
            if len(group) > 1 and _start_bid(g, data, "score", group, {s: [colour] for s in group}, PARIS_BIDS,
                                             context, events):
                return True
            _award_group(g, group, {s: 0 for s in group}, context, events)
            g["election"]["pos"] = place + len(group)
        place += len(group)
    return False


def _award_group(g: G, group: list[str], totals: dict[str, int], context: dict[str, Any], events: Events) -> None:
    """Points of the places ``group`` takes from ``context["place"]`` on;
    players level after the sealed plays share their places' points
    (rounded down)."""
    place, prizes = int(context["place"]), list(context["prizes"])
    for total in sorted({totals[s] for s in group}, reverse=True):
        level = [s for s in group if totals[s] == total]
        points = sum(prizes[place:place + len(level)]) // len(level)
        for seat in (level if points else []):
            g["vp"][seat] += points
            events.append({"key": "lib_ev_points", "seat": seat, "points": points, "colour": context["colour"],
                           "shared": len(level) > 1})
        place += len(level)
