"""Phase 4 of a round: the actions (both players reveal one card at once).

``problem`` says why a play is not allowed now; ``legal_plays`` lists
every allowed play of a hand; ``resolve`` carries out one action: the
cards are placed, then the attacks take effect (eliminations and
devaluations before party switches), protections (press cards) ward
attacks off, a player who had passed re-enters when the other attacks
his side, and a player left without a playable card passes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from adjudicator.games.revolution1848.cards import CardData
from adjudicator.games.revolution1848.orders import Pass, Play
from adjudicator.games.revolution1848.state import PLAYERS, Game, Placed, Side, other

Note = dict[str, Any]


def targets(game: Game, data: CardData, card: str) -> list[str]:
    """The cards the attack card ``card`` may be played on now (cards
    lying on either side before the action, in table order)."""
    extra = data.extras[card]
    attack = extra.attack
    if attack is None:
        return []
    found = []
    for player in PLAYERS:
        for placed in game.side(player).table:
            if data.is_person(placed.card):
                if attack.action == "switch" and placed.party != attack.switch_from:
                    continue
                if "person" in attack.targets:
                    found.append(placed.card)
            elif "extra" in attack.targets and placed.card not in data.rules.always_stay:
                found.append(placed.card)
    return found


def problem(game: Game, data: CardData, player: str, play: Play) -> str | None:
    """Why ``player`` may not make ``play`` in this action, or None."""
    if play.card not in game.side(player).hand:
        return f"{play.card} is not in your hand"
    person = data.persons.get(play.card)
    if person is not None:
        if play.target:
            return f"{play.card} is a person and takes no target"
        if len(person.parties) > 1 and not play.party:
            return f"{play.card} is {' or '.join(person.parties)}: add AS <party>"
        if play.party and play.party not in person.parties:
            return f"{play.card} cannot be {play.party}, only {' or '.join(person.parties)}"
        return None
    extra = data.extras[play.card]
    if play.party:
        return f"{play.card} is no person and takes no party"
    if not extra.political:
        return f"{play.card} is an army card: it is used in a military action, not played"
    if extra.attack is None:
        return f"{play.card} takes no target" if play.target else None
    if not play.target:
        return f"{play.card} attacks a card: add ON <card>"
    if game.owner_of(play.target) is None:
        return f"{play.target} is not on the table"
    if play.target not in targets(game, data, play.card):
        if play.target in data.rules.always_stay:
            return f"{play.target} cannot be attacked: only an army conquers an intervention card"
        if data.is_person(play.target):
            return f"{play.card} cannot attack {play.target} (its party is not {extra.attack.switch_from})"
        return f"{play.card} attacks persons only"
    return None


def legal_plays(game: Game, data: CardData, player: str) -> list[Play]:
    """Every play ``player`` may make now (the pass excluded), canonical."""
    found: list[Play] = []
    for card in game.side(player).hand:
        person = data.persons.get(card)
        if person is not None:
            found += [Play(card, party=p if len(person.parties) > 1 else "") for p in person.parties]
            continue
        extra = data.extras[card]
        if extra.attack is not None:
            found += [Play(card, target=t) for t in targets(game, data, card)]
        elif extra.political:
            found.append(Play(card))
    return found


def _remove(side: Side, card: str) -> Side:
    return replace(side, table=tuple(p for p in side.table if p.card != card))


def resolve(game: Game, data: CardData, plays: Mapping[str, Play | Pass]) -> tuple[Game, list[Note]]:
    """Carry out one action: ``plays`` holds the play of each player who
    acts (a missing one is a pass).  Returns the game after the action
    (still in the play step; ``passed`` set on the sides) and the notes
    of what happened, in order."""
    notes: list[Note] = []
    attacks: list[tuple[str, Play]] = []
    attacked: set[str] = set()
    acting = set(game.actors)
    for player in PLAYERS:
        if player not in acting:
            continue
        play = plays.get(player, Pass())
        side = game.side(player)
        if isinstance(play, Pass) or problem(game, data, player, play) is not None:
            game = game.with_side(player, replace(side, passed=True))
            notes.append({"kind": "pass", "player": player, "default": player not in plays})
            continue
        hand = list(side.hand)
        hand.remove(play.card)
        game = game.with_side(player, replace(side, hand=tuple(hand)))
        notes.append({"kind": "play", "player": player, "order": str(play), "card": play.card,
                      "target": play.target, "party": play.party})
        person = data.persons.get(play.card)
        extra = data.extras.get(play.card)
        if person is not None:
            party = play.party or person.parties[0]
            side = game.side(player)
            game = game.with_side(player, replace(side, table=side.table + (Placed(play.card, party),)))
        elif extra is not None and extra.attack is not None:
            attacks.append((player, play))
            owner = game.owner_of(play.target)
            if owner is not None and owner != player:
                attacked.add(owner)
        elif extra is not None and extra.weakens:
            rival = other(player)
            side = game.side(rival)
            game = game.with_side(rival, replace(side, table=side.table + (Placed(play.card),)))
            attacked.add(rival)
            notes.append({"kind": "weakened", "player": player, "card": play.card, "side": rival})
        else:
            side = game.side(player)
            game = game.with_side(player, replace(side, table=side.table + (Placed(play.card),)))
    for player, play in sorted(attacks, key=lambda item: _switch_last(data, item[1])):
        game, note = _attack(game, data, player, play)
        notes.append(note)
    for player in PLAYERS:
        side = game.side(player)
        if side.passed and player in attacked:
            game = game.with_side(player, replace(side, passed=False))
            notes.append({"kind": "reenter", "player": player})
    for player in PLAYERS:
        side = game.side(player)
        if not side.passed and not legal_plays(game, data, player):
            game = game.with_side(player, replace(side, passed=True))
            notes.append({"kind": "pass", "player": player, "default": True, "forced": True})
    return game, notes


def _attack(game: Game, data: CardData, player: str, play: Play) -> tuple[Game, Note]:
    attack = data.extras[play.card].attack
    assert attack is not None
    note: Note = {"kind": "attack", "player": player, "card": play.card, "target": play.target}
    owner = game.owner_of(play.target)
    if owner is None:
        game = replace(game, extra_discard=game.extra_discard + (play.card,))
        return game, {**note, "result": "gone"}
    side = game.side(owner)
    placed = side.lying(play.target)
    assert placed is not None
    note["side"] = owner
    if data.is_person(placed.card):
        if attack.action == "switch" and placed.party != attack.switch_from:
            game = replace(game, extra_discard=game.extra_discard + (play.card,))
            return game, {**note, "result": "gone"}
        guard = _guard(data, side, placed.party, attack.category)
        if guard is not None:
            game = game.with_side(owner, _remove(side, guard))
            game = replace(game, extra_discard=game.extra_discard + (play.card, guard))
            return game, {**note, "result": "blocked", "guard": guard}
        if attack.action == "switch":
            table = tuple(Placed(p.card, attack.switch_to) if p.card == placed.card else p for p in side.table)
            game = game.with_side(owner, replace(side, table=table))
            game = replace(game, extra_discard=game.extra_discard + (play.card,))
            return game, {**note, "result": "switched", "party": attack.switch_to, "was": placed.party}
        game = game.with_side(owner, _remove(side, placed.card))
        game = replace(game, removed=game.removed + (placed.card,), extra_discard=game.extra_discard + (play.card,))
        return game, {**note, "result": "eliminated"}
    game = game.with_side(owner, _remove(side, placed.card))
    game = replace(game, extra_discard=game.extra_discard + (play.card, placed.card))
    return game, {**note, "result": "devalued"}


def _switch_last(data: CardData, play: Play) -> bool:
    attack = data.extras[play.card].attack
    return attack is not None and attack.action == "switch"


def _guard(data: CardData, side: Side, party: str, category: str) -> str | None:
    """The first card on ``side`` protecting ``party`` against ``category``."""
    for placed in side.table:
        extra = data.extras.get(placed.card)
        if extra is not None and any(p.party == party and category in p.against for p in extra.protects):
            return placed.card
    return None
