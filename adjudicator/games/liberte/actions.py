"""The actions of a player's turn (play, special card, take, pass) and the
new cards at a round's start: legality and effect.

``problem_*`` return None for a legal order or an ``Illegal`` naming the
catalogue key of the reason and its fields (so the reason reads in German
and English); ``apply_*`` return the changed copy of the game and its
events.  Placement rules 1-5 of the text:

1. at most 3 blocks of a colour in a stack (a province's stack), 2. at most
3 stacks in a province, 3. one stack per player in a province, 4. one
colour per stack, 5. only the owner adds to a stack.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from typing import Any

from adjudicator.games.liberte.data import GameData
from adjudicator.games.liberte.orders import BATTLE, Order, Pass, Play, Refill, Special, Take, Target
from adjudicator.games.liberte.state import (
    DISPLAY, HAND, STACK, STACKS, TAKE_LIMIT, G, copy, draw, free_markers, own_stack, refill_open, remove_blocks,
    stacks,
)

Events = list[dict[str, Any]]


@dataclass(frozen=True)
class Illegal:
    """Why an order is not allowed: a catalogue key and its fields."""

    key: str
    fields: dict[str, Any] = field(default_factory=dict)


def _fold(text: str) -> str:
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return "".join(ch for ch in plain.upper() if ch.isalnum())


_NAMES: dict[int, tuple[GameData, dict[str, str]]] = {}


def province_id(data: GameData, word: str) -> str | None:
    """The province a word names (its id or name, any case, accents and
    hyphens ignored), or None."""
    if word in data.provinces:
        return word
    known = _NAMES.get(id(data))
    if known is None or known[0] is not data:
        known = (data, {_fold(name): pid for pid, p in data.provinces.items() for name in (pid, p.name)})
        _NAMES[id(data)] = known
    return known[1].get(_fold(word))


def resolve_target(data: GameData, target: Target) -> Target | Illegal:
    """The target with its province as an id, or why it names none."""
    if target.province == BATTLE:
        return target
    pid = province_id(data, target.province)
    if pid is None:
        return Illegal("lib_err_province", {"word": target.province})
    return Target(pid, target.owner)


def canonical(data: GameData, order: Order) -> Order | Illegal:
    """The order with province words replaced by ids."""
    if isinstance(order, Play):
        targets = [resolve_target(data, t) for t in order.targets]
        bad = next((t for t in targets if isinstance(t, Illegal)), None)
        if bad is not None:
            return bad
        return Play(order.card, tuple(t for t in targets if isinstance(t, Target)), order.keep)
    if isinstance(order, Special) and order.targets:
        resolved = [t if t.province.upper() != BATTLE and t.province.upper() != "SCHLACHT" else Target(BATTLE, t.owner)
                    for t in order.targets]
        found = [resolve_target(data, t) for t in resolved]
        bad = next((t for t in found if isinstance(t, Illegal)), None)
        return bad if bad is not None else Special(order.card, tuple(t for t in found if isinstance(t, Target)))
    return order


def _held(g: G, data: GameData, seat: str, cid: str) -> Illegal | None:
    """Why ``cid`` is not a card in ``seat``'s hand (None: it is)."""
    if cid not in data.cards:
        return Illegal("lib_err_no_card", {"card": cid})
    if cid not in g["hands"][seat]:
        return Illegal("lib_err_not_in_hand", {"card": cid})
    return None


def problem_play(g: G, data: GameData, seat: str, play: Play) -> Illegal | None:
    """Why ``seat`` may not make ``play`` now (None: it may)."""
    missing = _held(g, data, seat, play.card)
    if missing:
        return missing
    card = data.cards[play.card]
    if card.kind == "special":
        return Illegal("lib_err_special_as_play", {"card": play.card})
    if play.keep:
        display = g["displays"][seat]
        if len(display) >= DISPLAY + 1 or (len(display) == DISPLAY and not card.sans_culotte):
            return Illegal("lib_err_display_full", {"card": play.card})
    if any(t.province == BATTLE for t in play.targets):
        if len(play.targets) != 1:
            return Illegal("lib_err_battle_alone", {})
        if not card.cannon:
            return Illegal("lib_err_no_cannon", {"card": play.card})
        if free_markers(g, seat) < 1:
            return Illegal("lib_err_no_marker", {})
        return None
    if not 1 <= len(play.targets) <= card.blocks:
        return Illegal("lib_err_block_count", {"card": play.card, "blocks": card.blocks, "given": len(play.targets)})
    return _placement(g, data, seat, play.card, card.faction, card.region if card.kind == "person" else "",
                      play.targets)


def _placement(g: G, data: GameData, seat: str, cid: str, faction: str, region: str,
               targets: tuple[Target, ...]) -> Illegal | None:
    """Why ``seat`` may not place one block of ``faction`` per target
    (limited to ``region`` unless it is empty) under rules 1-5."""
    if g["supply"][faction] < len(targets):
        return Illegal("lib_err_supply", {"faction": faction, "left": g["supply"][faction]})
    heights: dict[str, int] = {}
    new: set[str] = set()
    markers = free_markers(g, seat)
    for target in targets:
        if target.province == BATTLE:
            return Illegal("lib_err_place_target", {"card": cid})
        province = data.provinces[target.province]
        if region and province.region != region:
            return Illegal("lib_err_region", {"card": cid, "province": province.name,
                                              "region": _region_name(data, region)})
        if target.owner and target.owner != seat:
            return Illegal("lib_err_rule5", {"province": province.name, "seat": target.owner})
        mine = own_stack(g, target.province, seat)
        if mine is not None and mine[1] != faction:
            key = "lib_err_rule4" if target.owner else "lib_err_rule3"
            return Illegal(key, {"province": province.name, "colour": mine[1], "faction": faction})
        if mine is None and target.owner:
            return Illegal("lib_err_no_own_stack", {"province": province.name})
        if mine is None and target.province not in new:
            if len(stacks(g, target.province)) >= STACKS:
                return Illegal("lib_err_rule2", {"province": province.name})
            if markers < 1:
                return Illegal("lib_err_no_marker", {})
            markers -= 1
            new.add(target.province)
        heights[target.province] = heights.get(target.province, mine[2] if mine else 0) + 1
        if heights[target.province] > STACK:
            return Illegal("lib_err_rule1", {"province": province.name, "faction": faction})
    return None


def _region_name(data: GameData, rid: str) -> str:
    return next((r.name for r in data.regions if r.id == rid), rid)


def problem_special(g: G, data: GameData, seat: str, special: Special) -> Illegal | None:
    """Why ``seat`` may not play the special card now (None: it may): the
    targets its effect needs (rulings 15, 34-37)."""
    missing = _held(g, data, seat, special.card)
    if missing:
        return missing
    card = data.cards[special.card]
    if card.kind != "special":
        return Illegal("lib_err_not_special", {"card": special.card})
    targets, effect = special.targets, card.effect
    if effect in ("battle", "draw"):
        if targets:
            return Illegal("lib_err_no_target", {"card": special.card})
        if effect == "battle" and free_markers(g, seat) < 1:
            return Illegal("lib_err_no_marker", {})
        return None
    if effect == "unbattle":
        if len(targets) != 1 or targets[0].province != BATTLE or not targets[0].owner:
            return Illegal("lib_err_unbattle_target", {"card": special.card})
        if targets[0].owner == seat or int(g["box"].get(targets[0].owner, 0)) < 1:
            return Illegal("lib_err_no_box_markers", {"seat": targets[0].owner})
        return None
    if effect == "place":
        if not 1 <= len(targets) <= card.count:
            return Illegal("lib_err_block_count", {"card": special.card, "blocks": card.count,
                                                   "given": len(targets)})
        return _placement(g, data, seat, special.card, card.faction, card.scope, targets)
    wanted = 2 if effect == "move" else 1
    if len(targets) != wanted or targets[0].province == BATTLE or not targets[0].owner:
        return Illegal(f"lib_err_{effect}_target", {"card": special.card})
    source = targets[0]
    stack = own_stack(g, source.province, source.owner)
    province = data.provinces[source.province]
    if stack is None:
        return Illegal("lib_err_no_stack", {"province": province.name, "seat": source.owner})
    if card.faction and stack[1] != card.faction:
        return Illegal("lib_err_special_faction", {"card": special.card, "faction": card.faction})
    if card.scope and province.region != card.scope:
        return Illegal("lib_err_special_region", {"card": special.card, "province": province.name,
                                                  "region": _region_name(data, card.scope)})
    return _move_problem(g, data, special, stack) if effect == "move" else None


def _move_problem(g: G, data: GameData, special: Special, stack: list[Any]) -> Illegal | None:
    """Why the stack cannot move where ``special`` says (ruling 36): the
    blocks stay their owner's, rules 1-3 hold for him at the destination."""
    card = data.cards[special.card]
    source, goal = special.targets
    if goal.province == BATTLE or goal.province == source.province or (goal.owner and goal.owner != source.owner):
        return Illegal("lib_err_move_target", {"card": special.card})
    province = data.provinces[goal.province]
    if card.scope and province.region != card.scope:
        return Illegal("lib_err_special_region", {"card": special.card, "province": province.name,
                                                  "region": _region_name(data, card.scope)})
    owner, moved = str(source.owner), min(card.count, int(stack[2]))
    there = own_stack(g, goal.province, owner)
    if there is not None and there[1] != stack[1]:
        return Illegal("lib_err_move_colour", {"province": province.name, "seat": owner, "colour": there[1]})
    if there is None:
        if len(stacks(g, goal.province)) >= STACKS:
            return Illegal("lib_err_rule2", {"province": province.name})
        if moved < int(stack[2]) and free_markers(g, owner) < 1:
            return Illegal("lib_err_no_marker_of", {"seat": owner})
    if (int(there[2]) if there else 0) + moved > STACK:
        return Illegal("lib_err_rule1", {"province": province.name, "faction": stack[1]})
    return None


def problem_take(g: G, data: GameData, seat: str, take: Take) -> Illegal | None:
    """Why ``seat`` may not take a card now (None: it may)."""
    hand = g["hands"][seat]
    if take.card and take.card not in g["open"]:
        return Illegal("lib_err_not_open", {"card": take.card})
    if not take.card and not g["deck"] and not g["discard"]:
        return Illegal("lib_err_deck_empty", {})
    if len(hand) >= TAKE_LIMIT:
        if len(set(take.discard)) != 2:
            return Illegal("lib_err_discard_two", {"cards": len(hand)})
    elif take.discard:
        return Illegal("lib_err_no_discard", {"cards": len(hand)})
    for cid in take.discard:
        if cid not in hand:
            return Illegal("lib_err_not_in_hand", {"card": cid})
    return None


def problem_refill(g: G, data: GameData, seat: str, refill: Refill) -> Illegal | None:
    """Why ``seat`` may not take its new cards so (None: it may)."""
    display = g["displays"][seat]
    back = list(display) if refill.back_all else list(refill.back)
    for cid in back:
        if cid not in display:
            return Illegal("lib_err_not_in_display", {"card": cid})
    hand = g["hands"][seat] + back
    for cid in refill.discard:
        if cid not in hand:
            return Illegal("lib_err_not_in_hand", {"card": cid})
    room = HAND - (len(hand) - len(set(refill.discard)))
    if len(refill.open) > max(room, 0):
        return Illegal("lib_err_open_too_many", {"room": max(room, 0)})
    for cid in refill.open:
        if cid not in g["open"]:
            return Illegal("lib_err_not_open", {"card": cid})
    if len(set(refill.open)) != len(refill.open):
        return Illegal("lib_err_not_open", {"card": refill.open[0]})
    return None


def apply_special(g: G, data: GameData, seat: str, special: Special, randoms: list[dict[str, Any]]) -> tuple[G, Events]:
    """The special card's effect, then the card to the discard pile."""
    g = copy(g)
    card = data.cards[special.card]
    g["hands"][seat].remove(special.card)
    g["discard"].append(special.card)
    events: Events = [{"key": "lib_ev_special", "seat": seat, "card": special.card, "name": card.name,
                       "effect": card.effect}]
    targets = special.targets
    if card.effect in ("remove", "clear") and targets:
        target = targets[0]
        stack = own_stack(g, target.province, target.owner)
        colour = str(stack[1]) if stack else ""
        taken = remove_blocks(g, target.province, target.owner, card.count if card.effect == "remove" else STACK)
        events.append({"key": "lib_ev_removed", "province": data.provinces[target.province].name,
                       "owner": target.owner, "faction": colour, "count": taken})
    elif card.effect == "battle":
        placed = min(max(card.count, 1), free_markers(g, seat))
        g["box"][seat] += placed
        events.append({"key": "lib_ev_battle_marker", "seat": seat, "count": placed})
    elif card.effect == "unbattle" and targets:
        owner = str(targets[0].owner)
        back = min(max(card.count, 1), int(g["box"][owner]))
        g["box"][owner] -= back
        events.append({"key": "lib_ev_battle_marker_back", "seat": seat, "owner": owner, "count": back})
    elif card.effect == "draw":
        drawn = draw(g, max(card.count, 1), randoms)
        g["hands"][seat] += drawn
        events.append({"key": "lib_ev_drew", "seat": seat, "count": len(drawn)})
    elif card.effect == "place" and targets:
        events.append({"key": "lib_ev_placed", "seat": seat, "faction": card.faction,
                       "where": _place(g, data, seat, card.faction, targets)})
    elif card.effect == "move" and len(targets) == 2:
        events.append(_move(g, data, card.count, targets[0], targets[1]))
    return g, events


def _place(g: G, data: GameData, seat: str, faction: str, targets: tuple[Target, ...]) -> str:
    """One block of ``faction`` per target onto ``seat``'s stacks (new ones
    where it has none); the places as text.  Changes ``g``."""
    placed: dict[str, int] = {}
    for target in targets:
        mine = own_stack(g, target.province, seat)
        if mine is None:
            g["board"][target.province].append([seat, faction, 1])
        else:
            mine[2] += 1
        g["supply"][faction] -= 1
        placed[target.province] = placed.get(target.province, 0) + 1
    return ", ".join(f"{data.provinces[p].name} {n}" for p, n in placed.items())


def _move(g: G, data: GameData, count: int, source: Target, goal: Target) -> dict[str, Any]:
    """Up to ``count`` blocks of the source stack onto its owner's stack at
    the goal (a new one where he has none).  Changes ``g``."""
    owner = str(source.owner)
    stack = own_stack(g, source.province, owner)
    assert stack is not None
    faction, moved = str(stack[1]), min(max(count, 1), int(stack[2]))
    remove_blocks(g, source.province, owner, moved, to_supply=False)
    there = own_stack(g, goal.province, owner)
    if there is None:
        g["board"][goal.province].append([owner, faction, moved])
    else:
        there[2] += moved
    return {"key": "lib_ev_moved", "owner": owner, "faction": faction, "count": moved,
            "source": data.provinces[source.province].name, "goal": data.provinces[goal.province].name}


def apply_play(g: G, data: GameData, seat: str, play: Play) -> tuple[G, Events]:
    """The card's blocks on the board (or its marker in the battle box),
    then the card into the display or onto the discard pile."""
    g = copy(g)
    card = data.cards[play.card]
    g["hands"][seat].remove(play.card)
    (g["displays"][seat] if play.keep else g["discard"]).append(play.card)
    if play.targets[0].province == BATTLE:
        g["box"][seat] += 1
        return g, [{"key": "lib_ev_cannon", "seat": seat, "card": play.card, "name": card.name, "keep": play.keep}]
    where = _place(g, data, seat, card.faction, play.targets)
    return g, [{"key": "lib_ev_play", "seat": seat, "card": play.card, "name": card.name, "faction": card.faction,
                "where": where, "keep": play.keep}]


def apply_take(g: G, data: GameData, seat: str, take: Take, randoms: list[dict[str, Any]]) -> tuple[G, Events]:
    """The discards, then the open card (replaced from the deck) or the top card."""
    g = copy(g)
    for cid in take.discard:
        g["hands"][seat].remove(cid)
        g["discard"].append(cid)
    if take.card:
        g["open"].remove(take.card)
        g["hands"][seat].append(take.card)
        refill_open(g, randoms)
        event = {"key": "lib_ev_take_open", "seat": seat, "card": take.card, "name": data.cards[take.card].name}
    else:
        g["hands"][seat] += draw(g, 1, randoms)
        event = {"key": "lib_ev_take_deck", "seat": seat}
    events: Events = [event]
    if take.discard:
        events.append({"key": "lib_ev_discarded", "seat": seat, "cards": " ".join(take.discard)})
    return g, events


def apply_refill(g: G, data: GameData, seat: str, refill: Refill, randoms: list[dict[str, Any]]) -> tuple[G, Events]:
    """Display cards back to the hand, discards, open cards, then the deck up to seven."""
    g = copy(g)
    back = list(g["displays"][seat]) if refill.back_all else list(refill.back)
    for cid in back:
        g["displays"][seat].remove(cid)
        g["hands"][seat].append(cid)
    for cid in refill.discard:
        g["hands"][seat].remove(cid)
        g["discard"].append(cid)
    for cid in refill.open:
        g["open"].remove(cid)
        g["hands"][seat].append(cid)
        refill_open(g, randoms)
    before = len(g["hands"][seat])
    g["hands"][seat] += draw(g, max(0, HAND - before), randoms)
    return g, [{"key": "lib_ev_refill", "seat": seat, "back": len(back), "discarded": len(refill.discard),
                "open": " ".join(refill.open) or "-", "drawn": len(g["hands"][seat]) - before}]


def pass_event(seat: str) -> dict[str, Any]:
    """The event of a pass."""
    return {"key": "lib_ev_pass", "seat": seat}


def legal_actions(g: G, data: GameData, seat: str, limit: int = 200) -> list[Order]:
    """Legal orders of ``seat``'s turn (for "your turn" mails and bots):
    each hand card's plays into every province open to it (one block, or
    all of the card's blocks there; with KEEP once per card), cannon
    plays, special cards, takes and PASS.  Every order listed is legal;
    splitting a card's blocks over provinces is legal too but not listed."""
    found: list[Order] = []
    hand = g["hands"][seat]
    for cid in hand:
        card = data.cards[cid]
        if card.kind == "special":
            for special in _specials(g, data, seat, cid):
                if problem_special(g, data, seat, special) is None:
                    found.append(special)
            continue
        if card.cannon:
            for keep in (False, True):
                play = Play(cid, (Target(BATTLE),), keep)
                if problem_play(g, data, seat, play) is None:
                    found.append(play)
        provinces = [p for p in data.election_order if card.kind == "club" or data.provinces[p].region == card.region]
        kept = False
        for pid in provinces:
            for count in sorted({1, card.blocks}):
                play = Play(cid, (Target(pid),) * count)
                if problem_play(g, data, seat, play) is None:
                    found.append(play)
                    if not kept and problem_play(g, data, seat, Play(cid, play.targets, True)) is None:
                        found.append(Play(cid, play.targets, True))
                        kept = True
        if len(found) > limit:
            break
    if len(hand) < TAKE_LIMIT:
        found += [Take(c) for c in g["open"]] + ([Take()] if g["deck"] or g["discard"] else [])
    elif len(hand) >= 2:
        discard = tuple(hand[:2])
        found += [Take(c, discard) for c in g["open"]] + ([Take("", discard)] if g["deck"] or g["discard"] else [])
    found.append(Pass())
    return found


def _specials(g: G, data: GameData, seat: str, cid: str) -> list[Special]:
    """Candidate plays of a special card (the caller keeps the legal ones):
    each stack, each battle-box holder, each province to place in, and for
    a move up to three provinces per stack."""
    card = data.cards[cid]
    here = [(pid, str(s[0])) for pid in data.election_order for s in stacks(g, pid)]
    if card.effect in ("remove", "clear"):
        return [Special(cid, (Target(pid, owner),)) for pid, owner in here]
    if card.effect == "unbattle":
        return [Special(cid, (Target(BATTLE, s),)) for s in g["players"] if s != seat and g["box"].get(s, 0)]
    if card.effect == "place":
        return [Special(cid, (Target(pid),)) for pid in data.election_order]
    if card.effect == "move":
        found: list[Special] = []
        for pid, owner in here:
            moves = [Special(cid, (Target(pid, owner), Target(goal))) for goal in data.election_order if goal != pid]
            found += [m for m in moves if problem_special(g, data, seat, m) is None][:3]
        return found
    return [Special(cid)]
