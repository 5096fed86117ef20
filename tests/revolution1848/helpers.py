"""Positions and plays of 1848 for the tests: the complete test card data,
a position built from the cards on the table and in the hands (the rest
in the decks), one action played from order lines, the evaluation of the
round's card."""

from __future__ import annotations

from adjudicator.games.revolution1848.cards import CardData, card_data
from adjudicator.games.revolution1848.evaluation import Evaluation, evaluate
from adjudicator.games.revolution1848.flow import Note, play
from adjudicator.games.revolution1848.orders import Pass, Play
from adjudicator.games.revolution1848.parse import parse_line
from adjudicator.games.revolution1848.state import PLAYERS, Game, Placed, Side
from adjudicator.records import replace

COMPLETE = {"data": "standin"}
"""The options of a game with the stand-in card set (cards/1848-standin.toml)."""


def complete_data() -> CardData:
    """The card data with every unknown value filled by the stand-in set."""
    return card_data(COMPLETE)


def position(data: CardData, flow: str, tables: dict[str, list[str]], hands: dict[str, list[str]],
             lying: tuple[str, ...] = ("A04", "A05"), radical: bool = False) -> Game:
    """Action 1 of the round about ``flow``: ``tables`` lists each side's
    cards (a person as ``PE42:DEM`` to give its party), ``hands`` each hand."""
    sides = []
    used: set[str] = set()
    for player in PLAYERS:
        table = []
        for entry in tables.get(player, []):
            card, _, party = entry.partition(":")
            if not party and card in data.persons:
                party = data.persons[card].parties[0]
            table.append(Placed(card, party))
            used.add(card)
        used.update(hands.get(player, []))
        sides.append(Side(hand=tuple(hands.get(player, [])), table=tuple(table)))
    return Game(
        seed=1, shuffles=2, round=10, flow=flow, step="play", tag="1", actors=PLAYERS, sides=(sides[0], sides[1]),
        person_deck=tuple(c for c in sorted(data.persons) if c not in used),
        extra_deck=tuple(c for c in sorted(data.extras) if c not in used), lying=lying, radical=radical,
        last_winner="A",
    )


def act(game: Game, data: CardData, a: str | None, b: str | None) -> tuple[Game, list[Note]]:
    """One action: A's and B's order lines (None: the player does not act)."""
    plays: dict[str, Play | Pass] = {}
    for player, line in (("A", a), ("B", b)):
        if line is not None:
            order = parse_line(line)
            assert isinstance(order, (Play, Pass)), line
            plays[player] = order
    return play(game, data, plays)


def judged(game: Game, data: CardData, flow: str) -> Evaluation:
    """The evaluation of the table for the round about ``flow``."""
    return evaluate(data, data.flows[flow], {p: game.side(p).table for p in PLAYERS}, game.radical)


def without(game: Game, player: str, card: str) -> Game:
    """``game`` with ``card`` taken off ``player``'s side (for the notes' "what if")."""
    side = game.side(player)
    return game.with_side(player, replace(side, table=tuple(p for p in side.table if p.card != card)))
