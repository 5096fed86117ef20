"""The course of a game of 1848: rounds, the flow cards and the end.

A round about a flow card that is played for runs through the steps
``keep`` (phases 7 and 2: hand cards put back, the cards that stay on
each side; not in the first round), ``play`` (phase 4, the actions; the
hands are refilled first, phase 3), then the evaluation (phase 5): a
stalemate starts the round again from phase 2; otherwise the leader wins
the card, ``vote`` lets him take the decision when he has a choice, and
``military`` (phase 6, from A06 on) gives the winner and then the other a
military action (``loss`` when an army was defeated).  Flow cards that
are not played for are carried out on the way: A04 (armies), A05 (the
sealed ``forecast``), A11 (``withdraw`` the forecast, the last winner
first), A15 (the oath), A24/A25 (the question of power) and A26.

``new_game`` deals; ``advance`` carries out one step with the players'
orders.  Both are pure: shuffles are the game's verifiable random events
(``adjudicator.games.randomness``, key the game's seed, counter the
number of shuffles so far; each kept in ``random_log``), so the state alone
replays the game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from adjudicator.games import randomness
from adjudicator.games.randomness import RandomEvent
from adjudicator.games.revolution1848 import actions, military
from adjudicator.games.revolution1848.cards import CardData, condition_holds
from adjudicator.games.revolution1848.evaluation import Evaluation, evaluate, faction_of, liberal_factions
from adjudicator.games.revolution1848.orders import (
    MILITARY_ORDERS, Decide, Discard, Faction, Forecast, Join, Keep, Lose, Military, NoAction, Order, Pass, Play, Stand, Withdraw,
)
from adjudicator.games.revolution1848.state import PLAYERS, Game, Side, other

Note = dict[str, Any]


def shuffle_event(cards: Sequence[str], seed: int, number: int, label: str) -> RandomEvent:
    """The ``number``-th shuffle of a game with ``seed`` (the game's
    verifiable randomness: key ``str(seed)``, counter ``number``)."""
    return randomness.shuffle(randomness.seed_text(seed), number, list(cards), label)


def shuffled(cards: Sequence[str], seed: int, number: int) -> tuple[str, ...]:
    """``cards`` in the order of the ``number``-th shuffle of a game with ``seed``."""
    return tuple(shuffle_event(cards, seed, number, "").result)


def new_game(data: CardData, seed: int) -> tuple[Game, list[Note]]:
    """The first state: both decks shuffled, A01 revealed, the hands dealt."""
    persons = shuffle_event(sorted(data.persons), seed, 0, "1848 person deck")
    extras = shuffle_event(sorted(data.extras), seed, 1, "1848 extra deck")
    game = Game(
        seed=seed, shuffles=2, round=0, flow="A01", step="", tag="", actors=(), sides=(Side(), Side()),
        person_deck=tuple(persons.result), extra_deck=tuple(extras.result),
        random_log=(persons.to_json(), extras.to_json()),
    )
    return enter(game, data, "A01")


def table_evaluation(game: Game, data: CardData) -> Evaluation:
    """The evaluation of the current table for the current flow card (with
    the Liberal faction as chosen, when it was)."""
    tables = {p: game.side(p).table for p in PLAYERS}
    return evaluate(data, data.flows[game.flow], tables, game.radical, game.faction)


def faction_choices(game: Game, data: CardData) -> tuple[str | None, tuple[str, ...]]:
    """Who chooses the Liberal faction at the end of a National Assembly
    round and the factions open to him (``RLIB``, ``LLIB``, ``BOTH``);
    (None, ()) when nobody has a choice."""
    if data.flows[game.flow].mode != "nationalversammlung":
        return None, ()
    chooser, ways = liberal_factions(data, {p: game.side(p).table for p in PLAYERS})
    if chooser is None or len(ways) < 2:
        return None, ()
    return chooser, tuple(dict.fromkeys(faction_of(w, chooser) for w in ways))


def default_faction(game: Game, data: CardData) -> str:
    """The faction taken without an order: the one the evaluation found
    best for the chooser, as the reports of the round showed it (ruling
    1848-40)."""
    chooser, open_factions = faction_choices(game, data)
    if chooser is None:
        return ""
    result = table_evaluation(replace(game, faction=""), data)
    best = faction_of(result.lines[0].factions, chooser) if result.lines else ""
    return best if best in open_factions else open_factions[0]


# --- Drawing -------------------------------------------------------------------------------


def _draw(game: Game, kind: str) -> tuple[Game, str | None]:
    persons = kind == "person"
    deck = game.person_deck if persons else game.extra_deck
    if not deck:
        pile = game.person_discard if persons else game.extra_discard
        if not pile:
            return game, None
        event = shuffle_event(pile, game.seed, game.shuffles, f"1848 {kind} discard pile")
        deck = tuple(event.result)
        game = replace(game, shuffles=game.shuffles + 1, random_log=(*game.random_log, event.to_json()))
        game = replace(game, person_discard=()) if persons else replace(game, extra_discard=())
    card, rest = deck[0], deck[1:]
    game = replace(game, person_deck=rest) if persons else replace(game, extra_deck=rest)
    return game, card


def refill(game: Game, data: CardData) -> Game:
    """Phase 3: each hand (A first) is filled up to the hand size in
    persons and in extras, reshuffling a used-up deck's discard pile."""
    for player in PLAYERS:
        for kind, size in (("person", data.rules.hand_persons), ("extra", data.rules.hand_extras)):
            while sum(1 for c in game.side(player).hand if (c in data.persons) == (kind == "person")) < size:
                game, card = _draw(game, kind)
                if card is None:
                    break
                side = game.side(player)
                game = game.with_side(player, replace(side, hand=side.hand + (card,)))
    return game


# --- Entering flow cards ---------------------------------------------------------------------


def enter(game: Game, data: CardData, flow: str) -> tuple[Game, list[Note]]:
    """Reveal ``flow`` and carry out flow cards that are not played for
    until a step needs the players (or the game is over)."""
    notes: list[Note] = []
    while True:
        game = replace(game, flow=flow, round=game.round + 1, winner="", decisions=(), military_queue=(), faction="")
        card = data.flows[flow]
        notes.append({"kind": "flow", "card": flow})
        if card.played_for:
            if game.round == 1:
                game, more = _start_actions(game, data)
                return game, notes + more
            return replace(game, step="keep", tag="K", actors=PLAYERS), notes
        if flow not in game.lying:
            game = replace(game, lying=game.lying + (flow,))
        special = card.special
        if special == "preparliament":
            return replace(game, step="forecast", tag="P", actors=PLAYERS, pending_next=card.next), notes
        if special == "assembly":
            first = game.last_winner or "A"
            return replace(game, step="withdraw", tag="X1", actors=(first,), pending_next=card.next), notes
        if special == "oath":
            if military.PARLIAMENT_ARMY in game.lying:
                game = replace(game, lying=tuple(c for c in game.lying if c != flow))
                notes.append({"kind": "oath_skipped"})
                flow = card.next_skipped
                continue
            game, sworn = military.take_oath(game)
            notes += sworn or [{"kind": "oath_none"}]
            flow = card.next_sworn if sworn else card.next
            continue
        if special in ("power", "campaign"):
            revolution = military.power(game, data, data.rules.revolution)
            reaction = military.power(game, data, data.rules.reaction)
            bonus = card.bonus if card.bonus_if and card.bonus_if in game.lying else 0
            notes.append({"kind": "power", "revolution": revolution, "bonus": bonus, "reaction": reaction})
            if special == "power":
                flow = card.next_revolution if revolution > reaction else card.next_reaction
                continue
            if reaction > revolution + bonus:
                return finish(game, data, flow), notes
            flow = card.next_revolution
            continue
        if special == "victory":
            return finish(game, data, flow), notes
        flow = card.next


def _start_actions(game: Game, data: CardData) -> tuple[Game, list[Note]]:
    """Phase 3 and the first action of phase 4."""
    game = refill(game, data)
    for player in PLAYERS:
        game = game.with_side(player, replace(game.side(player), passed=False))
    notes: list[Note] = []
    for player in PLAYERS:
        if not actions.legal_plays(game, data, player):
            game = game.with_side(player, replace(game.side(player), passed=True))
            notes.append({"kind": "pass", "player": player, "default": True, "forced": True})
    return _next_action(game, data, 1, notes)


def _next_action(game: Game, data: CardData, number: int, notes: list[Note]) -> tuple[Game, list[Note]]:
    acting = tuple(p for p in PLAYERS if not game.side(p).passed)
    if not acting:
        game, more = end_round(game, data)
        return game, notes + more
    return replace(game, step="play", tag=str(number), actors=acting), notes


# --- The steps --------------------------------------------------------------------------------


def default_keep(game: Game, data: CardData, player: str) -> Keep:
    """What stays without a keep order: the first cards of the side in
    the order played, as many as allowed, never a card that weakens the
    side (ruling 1848-14)."""
    allowed = data.flows[game.flow].keep
    keepable = [p.card for p in game.side(player).table
                if p.card not in data.rules.always_stay
                and not (p.card in data.extras and data.extras[p.card].weakens)]
    return Keep(tuple(keepable[:allowed]))


def keep(game: Game, data: CardData, orders: Mapping[str, Sequence[Keep | Discard]]) -> tuple[Game, list[Note]]:
    """Phases 7 and 2: each player's hand cards put back and side cards kept
    (the green number at most; Z11-Z14, Z18 always stay and do not count),
    then the hands are refilled and the first action begins."""
    notes: list[Note] = []
    for player in PLAYERS:
        given = orders.get(player, ())
        keeps = [o for o in given if isinstance(o, Keep)]
        kept = set(keeps[-1].cards if keeps else default_keep(game, data, player).cards)
        discards = {c for o in given if isinstance(o, Discard) for c in o.cards}
        side = game.side(player)
        stay = tuple(p for p in side.table if p.card in data.rules.always_stay or p.card in kept)
        gone = tuple(p.card for p in side.table if p not in stay)
        hand = tuple(c for c in side.hand if c not in discards)
        game = military.discard(game, data, gone + tuple(c for c in side.hand if c in discards))
        game = game.with_side(player, replace(side, table=stay, hand=hand))
        notes.append({"kind": "keep", "player": player, "kept": [p.card for p in stay], "gone": list(gone),
                      "discarded": len(side.hand) - len(hand), "default": not keeps})
    game, more = _start_actions(game, data)
    return game, notes + more


def play(game: Game, data: CardData, plays: Mapping[str, Play | Pass]) -> tuple[Game, list[Note]]:
    """One action (phase 4); the round ends when both players have passed."""
    game, notes = actions.resolve(game, data, plays)
    return _next_action(game, data, int(game.tag) + 1, notes)


def end_round(game: Game, data: CardData) -> tuple[Game, list[Note]]:
    """Phase 5: the evaluation decides who wins the card; a stalemate
    starts the round again from phase 2."""
    chooser, open_factions = faction_choices(game, data)
    if chooser is not None and game.faction not in open_factions:
        return replace(game, step="faction", tag="F", actors=(chooser,)), []
    result = table_evaluation(game, data)
    if result.leader is None:
        notes: list[Note] = [{"kind": "stalemate", "card": game.flow}]
        game = replace(game, round=game.round + 1, step="keep", tag="K", actors=PLAYERS, faction="")
        return game, notes
    winner = result.leader
    side = game.side(winner)
    game = game.with_side(winner, replace(side, won=side.won + (game.flow,)))
    game = replace(game, winner=winner, last_winner=winner, decisions=result.decisions)
    notes = [{"kind": "won", "player": winner, "card": game.flow}]
    if len(result.decisions) > 1:
        return replace(game, step="vote", tag="V", actors=(winner,)), notes
    game, more = decide(game, data, result.decisions[0] if result.decisions else "")
    return game, notes + more


def decide(game: Game, data: CardData, colour: str) -> tuple[Game, list[Note]]:
    """The decision of the card won (``""`` for a card without one): the
    card may stay on the table, A09 may radicalise the revolution, A12 may
    form the parliamentary army; then the military actions, then the next card."""
    card = data.flows[game.flow]
    notes: list[Note] = []
    if colour:
        notes.append({"kind": "decision", "player": game.winner, "card": game.flow, "colour": colour})
        if card.stays == colour and game.flow not in game.lying:
            game = replace(game, lying=game.lying + (game.flow,))
            notes.append({"kind": "stays", "card": game.flow})
        if game.flow == data.rules.radicalise_on and colour == "red" and not game.radical:
            game = replace(game, radical=True)
            notes.append({"kind": "radical"})
    following = card.option(colour).next if colour else card.next
    game = replace(game, pending_next=following, decisions=())
    if colour and game.flow == military.PARLIAMENT_ARMY and game.flow in game.lying:
        joiners = tuple(p for p in PLAYERS if military.parliament_candidates(game, data, p))
        if joiners:  # ruling 42: the armies "können sich dem Parlament unterstellen"
            return replace(game, step="join", tag="J", actors=joiners), notes
    game, more = _after_decision(game, data)
    return game, notes + more


def join(game: Game, data: CardData, choices: Mapping[str, Join]) -> tuple[Game, list[Note]]:
    """A12: the armies each player puts under the parliament (without an
    order: all of them, ruling 42), then the military actions and the next card."""
    wanted = {p: (None if o.every else o.armies) for p, o in choices.items()}
    game, notes = military.form_parliament_army(game, data, wanted)
    for player in game.actors:
        if not any(n["player"] == player for n in notes):
            notes.append({"kind": "parliament_declined", "player": player})
    game, more = _after_decision(game, data)
    return game, notes + more


def _after_decision(game: Game, data: CardData) -> tuple[Game, list[Note]]:
    """After a card's decision: the military actions (from A06 on), then the next card."""
    following = game.pending_next
    notes: list[Note] = []
    if _index(game.flow) >= _index(data.rules.military_from):
        game = replace(game, military_queue=(game.winner, other(game.winner)))
        game, more = _military_turn(game, data)
        return game, notes + more
    game, more = enter(game, data, following)
    return game, notes + more


def _index(flow: str) -> int:
    return int(flow[1:]) if flow[1:].isdigit() else 0


def _military_turn(game: Game, data: CardData) -> tuple[Game, list[Note]]:
    notes: list[Note] = []
    while game.military_queue:
        player = game.military_queue[0]
        if military.legal_actions(game, data, player):
            tag = "M1" if player == game.winner else "M2"
            return replace(game, step="military", tag=tag, actors=(player,)), notes
        notes.append({"kind": "no_military", "player": player, "forced": True})
        game = replace(game, military_queue=game.military_queue[1:])
    game, more = enter(game, data, game.pending_next)
    return game, notes + more


def act(game: Game, data: CardData, order: Military) -> tuple[Game, list[Note]]:
    """The military action of the player whose turn it is."""
    player = game.actors[0]
    if military.problem(game, data, player, order) is not None:
        order = NoAction()
    game, notes = military.apply(game, data, player, order)
    if game.loss_army:
        defender = game.army(game.loss_army)
        assert defender is not None
        tag = "D1" if game.tag == "M1" else "D2"
        return replace(game, step="loss", tag=tag, actors=(defender.owner,)), notes
    game = replace(game, military_queue=game.military_queue[1:])
    game, more = _military_turn(game, data)
    return game, notes + more


def default_loss(game: Game, data: CardData) -> Lose:
    """Without a choice the attacked army loses its weakest card (the
    last of equally weak ones; ruling 1848-21)."""
    army = game.army(game.loss_army)
    assert army is not None
    cards = military.losable(data, army)
    weakest = min(data.strength_of(c) for c in cards)
    return Lose([c for c in cards if data.strength_of(c) == weakest][-1])


def lose(game: Game, data: CardData, order: Lose | None) -> tuple[Game, list[Note]]:
    """The attacked army gives up one card of its owner's choice."""
    army = game.army(game.loss_army)
    assert army is not None
    if order is None or order.card not in military.losable(data, army):
        order = default_loss(game, data)
    game = military.take_card(game, data, army, order.card)
    notes: list[Note] = [{"kind": "lost", "player": army.owner, "card": order.card}]
    game = replace(game, loss_army=0, military_queue=game.military_queue[1:])
    game, more = _military_turn(game, data)
    return game, notes + more


def forecast(game: Game, data: CardData, letters: Mapping[str, str]) -> tuple[Game, list[Note]]:
    """A05: both forecasts are laid down sealed; the notes say only who gave one."""
    notes: list[Note] = []
    for player in PLAYERS:
        letter = letters.get(player, "")
        game = game.with_side(player, replace(game.side(player), forecast=letter))
        notes.append({"kind": "forecast", "player": player, "given": bool(letter)})
    game, more = enter(game, data, game.pending_next)
    return game, notes + more


def withdraw(game: Game, data: CardData, taken_back: bool) -> tuple[Game, list[Note]]:
    """A11: the player whose turn it is withdraws his forecast or lets it stand."""
    player = game.actors[0]
    game = game.with_side(player, replace(game.side(player), withdrawn=taken_back))
    notes: list[Note] = [{"kind": "withdraw", "player": player, "withdrawn": taken_back}]
    if game.tag == "X1":
        return replace(game, tag="X2", actors=(other(player),)), notes
    game, more = enter(game, data, game.pending_next)
    return game, notes + more


# --- The end --------------------------------------------------------------------------------


def final_forecast(game: Game, data: CardData, player: str) -> str:
    """The forecast that counts: E when none was given or it was withdrawn."""
    side = game.side(player)
    if side.withdrawn or side.forecast not in data.rules.forecasts:
        return data.rules.default_forecast
    return side.forecast


def score(game: Game, data: CardData, end: str) -> dict[str, dict[str, int]]:
    """Each player's points by kind: ``cards`` (flow cards won, 2 or 3
    each), ``armies`` (army cards of free armies at an end with A25, of
    armies at A12/A15 at an end with A26), ``forecast`` (won or lost), ``total``."""
    lying = frozenset(game.lying)
    result = {}
    for player in PLAYERS:
        cards = sum(data.flows[c].points for c in game.side(player).won)
        places, each = (("free",), data.rules.free_army_points) if end == "A25" else (
            ("A12", "A15"), data.rules.sworn_army_points)
        armies = each * sum(1 for a in game.armies if a.owner == player and a.at in places
                            for c in a.cards if military.is_army_card(data, c))
        letter = final_forecast(game, data, player)
        chosen = data.rules.forecasts[letter]
        predicted = chosen.correct if condition_holds(chosen.condition, end, lying) else -chosen.wrong
        result[player] = {"cards": cards, "armies": armies, "forecast": predicted,
                          "total": cards + armies + predicted}
    return result


def finish(game: Game, data: CardData, end: str) -> Game:
    """The game over with ``end`` (A25: the revolution failed; A26: it won)."""
    totals = {p: s["total"] for p, s in score(game, data, end).items()}
    return replace(game, step="over", tag="END", actors=(), ended=end, scores=totals)


# --- One step with the players' orders ---------------------------------------------------------


def advance(game: Game, data: CardData, orders: Mapping[str, Sequence[Order]]) -> tuple[Game, list[Note]]:
    """Carry out the current step with each acting player's orders (already
    checked; a player without a usable order gets the rules' default:
    keep per ``default_keep``, pass, the first decision, no military
    action, the weakest card, no forecast, the forecast stands)."""
    mine = {p: list(orders.get(p, ())) for p in game.actors}
    if game.step == "keep":
        return keep(game, data, {p: [o for o in os if isinstance(o, (Keep, Discard))] for p, os in mine.items()})
    if game.step == "play":
        plays: dict[str, Play | Pass] = {}
        for player, given in mine.items():
            usable = [o for o in given if isinstance(o, (Play, Pass))]
            if usable:
                plays[player] = usable[-1]
        return play(game, data, plays)
    if game.step == "join":
        joins = {p: [o for o in os if isinstance(o, Join)] for p, os in mine.items()}
        return join(game, data, {p: js[-1] for p, js in joins.items() if js})
    if game.step == "faction":
        chosen = [o.faction for o in mine.get(game.actors[0], []) if isinstance(o, Faction)]
        _, open_factions = faction_choices(game, data)
        faction = chosen[-1] if chosen and chosen[-1] in open_factions else default_faction(game, data)
        game = replace(game, faction=faction)
        notes: list[Note] = [{"kind": "faction", "player": game.actors[0], "faction": faction,
                              "default": not chosen}]
        game, more = end_round(game, data)
        return game, notes + more
    if game.step == "vote":
        votes = [o.colour for o in mine.get(game.winner, []) if isinstance(o, Decide) and o.colour in game.decisions]
        return decide(game, data, votes[-1] if votes else game.decisions[0])
    if game.step == "military":
        moves = [o for o in mine.get(game.actors[0], []) if isinstance(o, MILITARY_ORDERS)]
        return act(game, data, moves[-1] if moves else NoAction())
    if game.step == "loss":
        losses = [o for o in mine.get(game.actors[0], []) if isinstance(o, Lose)]
        return lose(game, data, losses[-1] if losses else None)
    if game.step == "forecast":
        letters = {p: [o.letter for o in os if isinstance(o, Forecast)] for p, os in mine.items()}
        return forecast(game, data, {p: ls[-1] for p, ls in letters.items() if ls})
    if game.step == "withdraw":
        choices = [o for o in mine.get(game.actors[0], []) if isinstance(o, (Withdraw, Stand))]
        return withdraw(game, data, bool(choices) and isinstance(choices[-1], Withdraw))
    raise ValueError(f"nothing to do in step {game.step!r}")
