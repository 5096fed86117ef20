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
    if isinstance(order, Special) and order.target is not None:
        target = resolve_target(data, order.target)
        return target if isinstance(target, Illegal) else Special(order.card, target)
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
    if g["supply"][card.faction] < len(play.targets):
        return Illegal("lib_err_supply", {"faction": card.faction, "left": g["supply"][card.faction]})
    heights: dict[str, int] = {}
    new: set[str] = set()
    markers = free_markers(g, seat)
    for target in play.targets:
        province = data.provinces[target.province]
        if card.kind == "person" and province.region != card.region:
            return Illegal("lib_err_region", {"card": play.card, "province": province.name,
                                              "region": _region_name(data, card.region)})
        if target.owner and target.owner != seat:
            return Illegal("lib_err_rule5", {"province": province.name, "seat": target.owner})
        mine = own_stack(g, target.province, seat)
        if mine is not None and mine[1] != card.faction:
            key = "lib_err_rule4" if target.owner else "lib_err_rule3"
            return Illegal(key, {"province": province.name, "colour": mine[1], "faction": card.faction})
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
            return Illegal("lib_err_rule1", {"province": province.name, "faction": card.faction})
    return None


def _region_name(data: GameData, rid: str) -> str:
    return next((r.name for r in data.regions if r.id == rid), rid)


def problem_special(g: G, data: GameData, seat: str, special: Special) -> Illegal | None:
    """Why ``seat`` may not play the special card now (None: it may)."""
    missing = _held(g, data, seat, special.card)
    if missing:
        return missing
    card = data.cards[special.card]
    if card.kind != "special":
        return Illegal("lib_err_not_special", {"card": special.card})
    if card.effect == "remove":
        target = special.target
        if target is None or target.province == BATTLE or not target.owner:
            return Illegal("lib_err_remove_target", {"card": special.card})
        if own_stack(g, target.province, target.owner) is None:
            return Illegal("lib_err_no_stack", {"province": data.provinces[target.province].name,
                                                "seat": target.owner})
    elif special.target is not None:
        return Illegal("lib_err_no_target", {"card": special.card})
    if card.effect == "battle" and free_markers(g, seat) < 1:
        return Illegal("lib_err_no_marker", {})
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
    if card.effect == "remove" and special.target is not None:
        target = special.target
        faction = own_stack(g, target.province, target.owner)
        colour = faction[1] if faction else ""
        remove_blocks(g, target.province, target.owner, 1)
        events.append({"key": "lib_ev_removed", "province": data.provinces[target.province].name,
                       "owner": target.owner, "faction": colour})
    elif card.effect == "battle":
        g["box"][seat] += 1
        events.append({"key": "lib_ev_battle_marker", "seat": seat})
    elif card.effect == "draw":
        drawn = draw(g, 2, randoms)
        g["hands"][seat] += drawn
        events.append({"key": "lib_ev_drew", "seat": seat, "count": len(drawn)})
    return g, events


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
    placed: dict[str, int] = {}
    for target in play.targets:
        mine = own_stack(g, target.province, seat)
        if mine is None:
            g["board"][target.province].append([seat, card.faction, 1])
        else:
            mine[2] += 1
        g["supply"][card.faction] -= 1
        placed[target.province] = placed.get(target.province, 0) + 1
    where = ", ".join(f"{data.provinces[p].name} {n}" for p, n in placed.items())
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
            for special in _specials(g, data, cid):
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


def _specials(g: G, data: GameData, cid: str) -> list[Special]:
    if data.cards[cid].effect != "remove":
        return [Special(cid)]
    return [Special(cid, Target(pid, s[0])) for pid in data.election_order for s in stacks(g, pid)]
