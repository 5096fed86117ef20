"""The military rule of 1848 ("Militärregel"): armies, generals,
interventions, risings, the parliamentary army (A12), the oath (A15), the
question of power (A24/A25).

An army's strength is the sum of the Kreuz numbers of its army cards,
generals and Z15; its morale is the number of all its cards (conquered
intervention and flow cards count for morale only).  Every function is
pure: it takes a ``Game`` and returns a new one with notes of what
happened (JSON-ready dicts for the report).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from adjudicator.games.revolution1848.cards import CardData
from adjudicator.games.revolution1848.orders import Attack, General, Military, NoAction, PlaceArmy, Remove, Swear
from adjudicator.games.revolution1848.state import PLAYERS, Army, Game, other

Note = dict[str, Any]
PARLIAMENT_ARMY, REPUBLIC, OATH = "A12", "A13", "A15"


# --- Properties of armies ----------------------------------------------------------------


def is_army_card(data: CardData, card: str) -> bool:
    """True for an army card (Z28-Z34)."""
    extra = data.extras.get(card)
    return extra is not None and extra.military is not None and extra.military.kind == "army"


def is_leader(data: CardData, card: str) -> bool:
    """True for a general or a reinforcement card (Z15)."""
    person = data.persons.get(card)
    if person is not None:
        return person.general != "none"
    extra = data.extras.get(card)
    return extra is not None and extra.military is not None and extra.military.kind == "reinforce"


def leader_nation(data: CardData, card: str) -> str:
    """``austria``, ``prussia`` or ``revolution`` for a general or Z15."""
    person = data.persons.get(card)
    if person is not None:
        return person.general
    extra = data.extras[card]
    assert extra.military is not None
    return extra.military.nation


def card_nation(data: CardData, card: str) -> str:
    """The nation of an army card."""
    military = data.extras[card].military
    assert military is not None
    return military.nation


def nation(data: CardData, army: Army) -> str:
    """``austria`` or ``prussia`` when all army cards are of that flag,
    ``mixed`` otherwise (merged armies at A12 or under a revolutionary
    general), ``""`` without army cards."""
    flags = {card_nation(data, c) for c in army.cards if is_army_card(data, c)}
    return flags.pop() if len(flags) == 1 else "mixed" if flags else ""


def strength(data: CardData, army: Army) -> int:
    """The army's military strength (Kreuz numbers of army cards, generals, Z15)."""
    return sum(data.strength_of(c) for c in army.cards)


def morale(army: Army) -> int:
    """The army's morale: the number of its cards."""
    return len(army.cards)


def has_revolutionary(data: CardData, army: Army) -> bool:
    """True when a revolutionary general leads the army."""
    return any(data.persons[c].general == "revolution" for c in army.cards if c in data.persons)


def has_national(data: CardData, army: Army) -> bool:
    """True when an Austrian or Prussian general leads the army."""
    return any(data.persons[c].general in ("austria", "prussia") for c in army.cards if c in data.persons)


def find_army(game: Game, player: str, ref: str) -> Army | None:
    """``player``'s army named by ``ref``: a card in it, or A04/A12/A15
    when he has exactly one army there."""
    own = [a for a in game.armies if a.owner == player]
    by_card = [a for a in own if ref in a.cards]
    if by_card:
        return by_card[0]
    at = [a for a in own if a.at == ref]
    return at[0] if len(at) == 1 else None


def canonical_ref(army: Army) -> str:
    """The canonical name of an army: its first card."""
    return army.cards[0]


def can_strike(data: CardData, army: Army) -> bool:
    """True when the army may march against an intervention card or a
    rising: from A04, free, or from A15 under a national general only."""
    if army.at in ("A04", "free"):
        return True
    return army.at == OATH and has_national(data, army) and not has_revolutionary(data, army)


def hinderers(game: Game, data: CardData, card: str) -> list[str]:
    """The flow cards on the table that make ``card``'s conquest harder."""
    return [flow for flow in game.lying if any(t in (card, "all") for t, _ in data.flows[flow].hinders)]


def threshold(game: Game, data: CardData, card: str) -> int:
    """The strength an army must exceed to conquer the intervention card
    ``card``: its Kreuz number plus what decisions lying on the table add
    ("Die Möglichkeit zur Intervention kann durch bestimmte politische
    Entscheidungen erschwert werden"; card data ``hinders``)."""
    extra = data.extras[card].military
    assert extra is not None
    return extra.strength + sum(n for flow in game.lying for t, n in data.flows[flow].hinders if t in (card, "all"))


def intervention_cards(game: Game, data: CardData) -> list[tuple[str, str]]:
    """Every intervention card lying on a side, with the side's owner."""
    found = []
    for player in PLAYERS:
        for placed in game.side(player).table:
            extra = data.extras.get(placed.card)
            if extra is not None and extra.military is not None and extra.military.kind == "intervention":
                found.append((player, placed.card))
    return found


def _rank(data: CardData, army: Army) -> tuple[int, int]:
    return morale(army), strength(data, army)


def may_put_down(game: Game, data: CardData, army: Army, rising: str) -> bool:
    """True when ``army`` can conquer the rising ``rising`` lying on the
    table: the right flag, enough morale, and no army with a better claim
    (higher morale, then strength) that could do it too (ruling 1848-19)."""
    flow = data.flows[rising]
    if rising not in game.lying or not flow.conquest_nations:
        return False

    def able(candidate: Army) -> bool:
        return (can_strike(data, candidate) and nation(data, candidate) in flow.conquest_nations
                and morale(candidate) >= flow.conquest_morale)

    if not able(army):
        return False
    return all(_rank(data, a) <= _rank(data, army) for a in game.armies if able(a))


# --- Checking and enumerating actions -------------------------------------------------------


def problem(game: Game, data: CardData, player: str, order: Military) -> str | None:
    """Why ``player`` may not take the military action ``order`` now, or None."""
    hand = game.side(player).hand
    if isinstance(order, NoAction):
        return None
    if isinstance(order, PlaceArmy):
        if order.card not in hand:
            return f"{order.card} is not in your hand"
        if not is_army_card(data, order.card):
            return f"{order.card} is no army card"
        if order.to in ("A04", OATH):
            return None if order.to in game.lying else f"{order.to} does not lie on the table"
        army = find_army(game, player, order.to)
        if army is None:
            return f"you have no army {order.to}"
        flag = card_nation(data, order.card)
        if army.at == "free" and nation(data, army) == flag:
            return None
        if army.at == OATH and (nation(data, army) == flag or has_revolutionary(data, army)):
            return None
        return f"{order.card} cannot join that army (flag or place)"
    if isinstance(order, General):
        if order.card not in hand:
            return f"{order.card} is not in your hand"
        if not is_leader(data, order.card):
            return f"{order.card} is no general"
        army = find_army(game, player, order.to)
        if army is None:
            return f"you have no army {order.to}"
        kind = leader_nation(data, order.card)
        if kind == "revolution":
            if army.at == PARLIAMENT_ARMY and nation(data, army):
                return None
            if army.at == OATH and not has_national(data, army):
                return None
            return "a revolutionary general leads only the army at A12 or an army at A15 without a national general"
        if army.at in ("A04", "free", OATH) and nation(data, army) == kind and not has_revolutionary(data, army):
            return None
        return f"{order.card} leads only {kind} armies at A04, free or at A15 (without a revolutionary general)"
    if isinstance(order, Remove):
        army = next((a for a in game.armies if a.owner == player and order.card in a.cards), None)
        if army is None:
            return f"{order.card} is in none of your armies"
        if not (is_army_card(data, order.card) or is_leader(data, order.card)):
            return f"{order.card} was conquered and stays with the army"
        if army.at == PARLIAMENT_ARMY and is_army_card(data, order.card) and has_revolutionary(data, army):
            return "no army card leaves A12 while a revolutionary general leads it"
        return None
    if isinstance(order, Swear):
        army = find_army(game, player, order.army)
        if army is None:
            return f"you have no army {order.army}"
        if OATH not in game.lying:
            return "A15 does not lie on the table"
        return None if army.at in ("A04", "free") else "only a free army or one at A04 can be sworn in"
    return _attack_problem(game, data, player, order)


def _attack_problem(game: Game, data: CardData, player: str, order: Attack) -> str | None:
    army = find_army(game, player, order.army)
    if army is None:
        return f"you have no army {order.army}"
    target = order.target
    if any(card == target for _, card in intervention_cards(game, data)):
        if not can_strike(data, army):
            return "this army cannot march out (A12, or A15 without a national general)"
        military = data.extras[target].military
        assert military is not None
        if military.nation not in ("any", nation(data, army)):
            return f"only a {military.nation} army can conquer {target}"
        needed = threshold(game, data, target)
        if strength(data, army) <= needed:
            hindered = f" ({military.strength} made harder by {', '.join(hinderers(game, data, target))})" \
                if needed != military.strength else ""
            return f"the army's strength {strength(data, army)} does not exceed {needed}{hindered}"
        return None
    if target in data.flows:
        if target not in game.lying or not data.flows[target].conquest_nations:
            return f"{target} is no rising lying on the table"
        return None if may_put_down(game, data, army, target) else f"this army cannot put down {target}"
    enemy = find_army(game, other(player), target)
    if enemy is None:
        return f"{target} is no intervention card, rising or army of your opponent"
    if (army.at, enemy.at) not in data.rules.army_attacks:
        return f"an army {army.at} cannot attack one {enemy.at}"
    if strength(data, army) <= strength(data, enemy):
        return f"the army's strength {strength(data, army)} does not exceed {strength(data, enemy)}"
    return None


def legal_actions(game: Game, data: CardData, player: str) -> list[Military]:
    """Every military action ``player`` may take now (``NONE`` excluded), canonical."""
    found: list[Military] = []
    own = [a for a in game.armies if a.owner == player]
    refs = [canonical_ref(a) for a in own]
    for card in game.side(player).hand:
        if is_army_card(data, card):
            found += [PlaceArmy(card, to) for to in ["A04", OATH, *refs]]
        if is_leader(data, card):
            found += [General(card, ref) for ref in refs]
    for army in own:
        found += [Remove(card) for card in army.cards]
        found.append(Swear(canonical_ref(army)))
        targets = [card for _, card in intervention_cards(game, data)] + list(game.lying)
        targets += [canonical_ref(a) for a in game.armies if a.owner != player]
        found += [Attack(canonical_ref(army), t) for t in targets]
    return [order for order in dict.fromkeys(found) if problem(game, data, player, order) is None]


# --- Carrying out actions -------------------------------------------------------------------


def _replace_army(game: Game, army: Army) -> Game:
    return replace(game, armies=tuple(army if a.id == army.id else a for a in game.armies))


def _new_army(game: Game, owner: str, at: str, cards: tuple[str, ...]) -> tuple[Game, Army]:
    army = Army(game.next_army, owner, at, cards)
    return replace(game, armies=game.armies + (army,), next_army=game.next_army + 1), army


def _take_from_hand(game: Game, player: str, card: str) -> Game:
    side = game.side(player)
    hand = list(side.hand)
    hand.remove(card)
    return game.with_side(player, replace(side, hand=tuple(hand)))


def discard(game: Game, data: CardData, cards: tuple[str, ...]) -> Game:
    """``cards`` onto their discard piles (flow cards are never discarded)."""
    persons = tuple(c for c in cards if c in data.persons)
    extras = tuple(c for c in cards if c in data.extras)
    return replace(game, person_discard=game.person_discard + persons, extra_discard=game.extra_discard + extras)


def take_card(game: Game, data: CardData, army: Army, card: str) -> Game:
    """Remove ``card`` from ``army`` onto its discard pile; an army left
    without army cards dissolves (its other cards are discarded too, a
    conquered flow card stays won)."""
    remaining = tuple(c for c in army.cards if c != card)
    game = discard(game, data, (card,))
    if any(is_army_card(data, c) for c in remaining):
        return _replace_army(game, replace(army, cards=remaining))
    game = discard(game, data, tuple(c for c in remaining if c not in data.flows))
    return replace(game, armies=tuple(a for a in game.armies if a.id != army.id))


def apply(game: Game, data: CardData, player: str, order: Military) -> tuple[Game, list[Note]]:
    """Carry out a legal military action (``problem`` is None for it)."""
    note: Note = {"kind": "military", "player": player, "order": str(order)}
    if isinstance(order, NoAction):
        return game, [{"kind": "no_military", "player": player}]
    if isinstance(order, PlaceArmy):
        game = _take_from_hand(game, player, order.card)
        flag = card_nation(data, order.card)
        if order.to in ("A04", OATH):
            at = order.to
            existing = next((a for a in game.armies if a.owner == player and a.at == at and (
                nation(data, a) == flag or (at == OATH and has_revolutionary(data, a)))), None)
            if existing is None:
                game, created = _new_army(game, player, at, (order.card,))
                return game, [{**note, "army": created.id}]
            return _replace_army(game, replace(existing, cards=existing.cards + (order.card,))), [note]
        joining = find_army(game, player, order.to)
        assert joining is not None
        return _replace_army(game, replace(joining, cards=joining.cards + (order.card,))), [note]
    if isinstance(order, General):
        game = _take_from_hand(game, player, order.card)
        led = find_army(game, player, order.to)
        assert led is not None
        if leader_nation(data, order.card) == "revolution" and led.at == OATH:
            merged = [a for a in game.armies if a.owner == player and a.at == OATH and not has_national(data, a)]
            cards = tuple(c for a in merged for c in a.cards) + (order.card,)
            keep = tuple(a for a in game.armies if a not in merged)
            joined = replace(led, cards=cards)
            return replace(game, armies=keep + (joined,)), [{**note, "merged": len(merged)}]
        return _replace_army(game, replace(led, cards=led.cards + (order.card,))), [note]
    if isinstance(order, Remove):
        holder = next(a for a in game.armies if a.owner == player and order.card in a.cards)
        return take_card(game, data, holder, order.card), [note]
    if isinstance(order, Swear):
        sworn = find_army(game, player, order.army)
        assert sworn is not None
        return _replace_army(game, replace(sworn, at=OATH)), [note]
    return _attack(game, data, player, order, note)


def _attack(game: Game, data: CardData, player: str, order: Attack, note: Note) -> tuple[Game, list[Note]]:
    army = find_army(game, player, order.army)
    assert army is not None
    target = order.target
    for owner, card in intervention_cards(game, data):
        if card == target:
            side = game.side(owner)
            game = game.with_side(owner, replace(side, table=tuple(p for p in side.table if p.card != card)))
            game = _replace_army(game, replace(army, at="free", cards=army.cards + (card,)))
            return game, [{**note, "result": "conquered"}]
    if target in data.flows:
        side = game.side(player)
        game = game.with_side(player, replace(side, won=side.won + (target,)))
        game = replace(game, lying=tuple(c for c in game.lying if c != target))
        game = _replace_army(game, replace(army, at="free", cards=army.cards + (target,)))
        return game, [{**note, "result": "put_down"}]
    enemy = find_army(game, other(player), target)
    assert enemy is not None
    return replace(game, loss_army=enemy.id), [{**note, "result": "defeated", "army": enemy.id}]


def losable(data: CardData, army: Army) -> list[str]:
    """The cards an attacked army may give up (all but conquered flow cards)."""
    return [c for c in army.cards if c not in data.flows]


# --- Automatic moves and the question of power -------------------------------------------------


def parliament_candidates(game: Game, data: CardData, player: str) -> list[Army]:
    """The armies of ``player`` that may put themselves under the
    parliament (A12): at A04 or free, without a general."""
    return [a for a in game.armies if a.owner == player and a.at in ("A04", "free")
            and not has_national(data, a) and not has_revolutionary(data, a)]


def form_parliament_army(game: Game, data: CardData,
                         choices: Mapping[str, tuple[str, ...] | None] | None = None) -> tuple[Game, list[Note]]:
    """A12 decided for a parliamentary army: the armies at A04 and the
    free armies without a general that their owners put under the
    parliament join the owner's army at A12 (one per side, flags no longer
    apart).  ``choices`` gives per player the armies (by a card in them)
    that join; a player not in it (or with None) puts all of them."""
    notes: list[Note] = []
    for player in PLAYERS:
        joining = parliament_candidates(game, data, player)
        chosen = (choices or {}).get(player)
        if chosen is not None:
            joining = [a for a in joining if any(c in a.cards for c in chosen)]
        if not joining:
            continue
        cards = tuple(c for a in joining for c in a.cards)
        existing = next((a for a in game.armies if a.owner == player and a.at == PARLIAMENT_ARMY), None)
        rest = tuple(a for a in game.armies if a not in joining and a is not existing)
        if existing is None:
            game = replace(game, armies=rest)
            game, _ = _new_army(game, player, PARLIAMENT_ARMY, cards)
        else:
            game = replace(game, armies=rest + (replace(existing, cards=existing.cards + cards),))
        notes.append({"kind": "parliament_army", "player": player, "cards": list(cards)})
    return game, notes


def take_oath(game: Game) -> tuple[Game, list[Note]]:
    """A15: every free army of 2 cards (of 2 or 3 when A13 does not lie)
    moves to A15, each army on its own."""
    sizes = (2,) if REPUBLIC in game.lying else (2, 3)
    notes: list[Note] = []
    armies = []
    for army in game.armies:
        if army.at == "free" and morale(army) in sizes:
            army = replace(army, at=OATH)
            notes.append({"kind": "sworn", "player": army.owner, "cards": list(army.cards)})
        armies.append(army)
    return replace(game, armies=tuple(armies)), notes


def power(game: Game, data: CardData, components: tuple[str, ...]) -> int:
    """The sum of the named components (``interventions``: Kreuz numbers of
    intervention cards still lying on a side; ``parliament_army``,
    ``sworn_armies``, ``a04_armies``, ``free_armies``: strengths of the
    armies at A12, at A15, at A04, free)."""
    places = {"parliament_army": PARLIAMENT_ARMY, "sworn_armies": OATH, "a04_armies": "A04", "free_armies": "free"}
    total = 0
    for component in components:
        if component == "interventions":
            for _, card in intervention_cards(game, data):
                military = data.extras[card].military
                assert military is not None
                total += military.strength
        else:
            total += sum(strength(data, a) for a in game.armies if a.at == places[component])
    return total
