"""Positions for the rules tests: a started stand-in game changed to the
position a test states (hands, displays, board, supply, step)."""

from __future__ import annotations

import copy
from typing import Any

from adjudicator.games.liberte import Liberte
from adjudicator.games.liberte.data import FACTIONS, standin
from adjudicator.games.liberte.state import every_card

DATA = standin()


def cards(kind: str, *, faction: str = "", region: str = "", deck: str = "", **wanted: Any) -> list[str]:
    """Card ids of the stand-in data with the given properties."""
    found = []
    for card in DATA.cards.values():
        if card.kind != kind or (faction and card.faction != faction) or (region and card.region != region):
            continue
        if deck and card.deck != deck:
            continue
        if all(getattr(card, k) == v for k, v in wanted.items()):
            found.append(card.id)
    return found


def position(players: int = 4, *, hands: dict[str, list[str]] | None = None,
             displays: dict[str, list[str]] | None = None, board: dict[str, list[list[Any]]] | None = None,
             turn: str = "A", seed: int = 7, **game: Any) -> tuple[Liberte, dict[str, Any]]:
    """A state in the action step with ``turn`` to act and the given parts
    of the position; every card not placed lies in the deck, the blocks
    on the board come out of the supply."""
    module = Liberte(players, f"liberte{players}")
    state = module.start({"data": "standin"}, seed)
    g = copy.deepcopy(state["game"])
    seats = g["players"]
    g["order"] = list(seats)
    g["turn"] = seats.index(turn)
    given = [c for part in (hands or {}, displays or {}) for held in part.values() for c in held]
    g["hands"] = {s: list(hands.get(s, [])) if hands is not None else [c for c in g["hands"][s] if c not in given]
                  for s in seats}
    g["displays"] = {s: list((displays or {}).get(s, [])) for s in seats}
    placed = [c for s in seats for c in g["hands"][s] + g["displays"][s]]
    g["open"] = [c for c in g["open"] if c not in placed]
    g["deck"] = [c for c in DATA.cards if c not in placed and c not in g["open"]]
    g["discard"] = []
    if board is not None:
        g["board"] = {pid: [] for pid in DATA.election_order}
        for pid, here in board.items():
            g["board"][pid] = [list(s) for s in here]
    g["supply"] = {f: DATA.supply[f] - DATA.track[f] for f in FACTIONS}
    for here in g["board"].values():
        for _, faction, blocks in here:
            g["supply"][faction] -= blocks
    g.update(game)
    assert sorted(every_card(g)) == sorted(DATA.cards)
    return module, {**state, "game": g, "phase": f"R{g['round']}-{g['seq']:03d}"}


def lines(*texts: str) -> list[tuple[int, str]]:
    """Mail lines numbered from 1."""
    return list(enumerate(texts, start=1))
