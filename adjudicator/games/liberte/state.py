"""The state of a game of Liberté: plain JSON data and small pure helpers.

A game (``g``) is a dict: ``players`` (seats in clockwise order),
``round`` 1-4, ``step`` (``refill``, ``action``, ``bid``, ``over``),
``seq`` (the number of the phase), ``order`` (this round's player order)
and ``turn`` (whose turn in it), ``hands``/``displays`` (card ids per
seat), ``deck`` (top first), ``open`` (the three open cards),
``discard``, ``supply`` and ``track`` (blocks per faction), ``board``
(province -> stacks ``[owner, faction, blocks]``), ``box`` (control
markers in the battle box per seat), ``vp``, ``acquired`` (blocks won in
the current election per seat and faction), ``passes`` (consecutive
passes), ``lost_battles``, ``government``/``opposition``, ``election``
and ``bid`` (the election and sealed tie-break under way), ``seed`` and
``counter`` (the verifiable randomness), ``result`` (the end).

Functions here never change their argument: ``copy`` gives the working
copy a rule changes and returns.
"""

from __future__ import annotations

import json
from typing import Any

from adjudicator.games import randomness
from adjudicator.games.liberte.data import FACTIONS, GameData

G = dict[str, Any]
MARKERS = 20          # control markers per player [S]
HAND = 7              # cards in hand after dealing and refilling [S]
TAKE_LIMIT = 9        # "weniger als 9 Karten ... kann eine Karte nehmen" [S]
DISPLAY = 4           # "maximal 4 Karten", a Sans-Culotte card as the fifth [S]
OPEN_CARDS = 3        # "jeweils 3 offene Karten" [S]
STACK = 3             # rule 1: at most 3 blocks of a colour (a stack) [S]
STACKS = 3            # rule 2: at most 3 stacks in a province [S]
ROUNDS = 4
LANDSLIDE = 17        # red votes in an election that end the game [S]
COUNTER_REVOLUTION = 7  # CR provinces controlled by white [S]
GOVERNMENT_PRIZES = (5, 2)
OPPOSITION_PRIZES = (3,)
PARIS_BIDS = 4        # "bis zu 4 Karten in aufeinanderfolgenden Runden" [S]


def copy(g: G) -> G:
    """A deep copy of a game (JSON data) to change and return."""
    result: G = json.loads(json.dumps(g))
    return result


def stacks(g: G, province: str) -> list[list[Any]]:
    """The stacks ``[owner, faction, blocks]`` in a province."""
    found: list[list[Any]] = g["board"].get(province, [])
    return found


def own_stack(g: G, province: str, seat: str) -> list[Any] | None:
    """``seat``'s stack in a province, or None."""
    return next((s for s in stacks(g, province) if s[0] == seat), None)


def free_markers(g: G, seat: str) -> int:
    """Control markers ``seat`` has not placed (on a stack or in the battle box)."""
    placed = sum(1 for province in g["board"].values() for s in province if s[0] == seat)
    return MARKERS - placed - int(g["box"].get(seat, 0))


def remove_blocks(g: G, province: str, seat: str, count: int, to_supply: bool = True) -> int:
    """Take up to ``count`` blocks off ``seat``'s stack in ``province`` (back
    to the supply unless ``to_supply`` is False); the marker of an emptied
    stack comes back.  Returns how many were taken.  Changes ``g``."""
    stack = own_stack(g, province, seat)
    if stack is None:
        return 0
    taken = min(count, int(stack[2]))
    stack[2] -= taken
    if to_supply:
        g["supply"][stack[1]] += taken
    if stack[2] == 0:
        g["board"][province] = [s for s in stacks(g, province) if s[0] != seat]
    return taken


def clear(g: G, province: str) -> None:
    """Every block of a province back to the supply (markers back). Changes ``g``."""
    for owner, faction, blocks in stacks(g, province):
        g["supply"][faction] += blocks
    g["board"][province] = []


def random_event(g: G, kind: str, items: list[str], label: str) -> randomness.RandomEvent:
    """The next random event of the game (``shuffle`` or ``choice``);
    advances the counter and keeps the whole event in ``random_log``.
    Changes ``g``."""
    counter = int(g["counter"])
    g["counter"] = counter + 1
    if kind == "shuffle":
        event = randomness.shuffle(g["seed"], counter, items, label)
    else:
        event = randomness.choose(g["seed"], counter, items, label)
    g.setdefault("random_log", []).append(event.to_json())
    return event


def public(event: randomness.RandomEvent) -> dict[str, Any]:
    """The event as a report may show it while the game runs: a shuffle of
    hidden cards without its result (the order of the deck stays secret;
    the final report lists every event whole, to be recomputed with the
    seed published then)."""
    shown = event.to_json()
    if event.kind == "shuffle":
        shown["result"] = []
        shown["sealed"] = True
    return shown


def draw(g: G, count: int, randoms: list[dict[str, Any]]) -> list[str]:
    """Up to ``count`` cards off the deck; an empty deck is made anew from
    the shuffled discard pile (a recorded random event).  Changes ``g``."""
    drawn: list[str] = []
    for _ in range(count):
        if not g["deck"] and g["discard"]:
            event = random_event(g, "shuffle", sorted(g["discard"]), f"R{g['round']} new deck from the discard pile")
            randoms.append(public(event))
            g["deck"], g["discard"] = list(event.result), []
        if not g["deck"]:
            break
        drawn.append(g["deck"].pop(0))
    return drawn


def refill_open(g: G, randoms: list[dict[str, Any]]) -> None:
    """Fill the open cards up to three from the deck.  Changes ``g``."""
    missing = OPEN_CARDS - len(g["open"])
    if missing > 0:
        g["open"] += draw(g, missing, randoms)


def cr_controlled(g: G, data: GameData) -> list[str]:
    """The CR provinces where a white stack is higher than every other stack."""
    found = []
    for pid, province in data.provinces.items():
        if not province.cr:
            continue
        here = stacks(g, pid)
        for index, stack in enumerate(here):
            others = [s[2] for j, s in enumerate(here) if j != index]
            if stack[1] == "white" and all(stack[2] > other for other in others):
                found.append(pid)
                break
    return found


def faction_count(g: G, data: GameData, seat: str, faction: str) -> int:
    """What an early end counts for ``seat``: its blocks of ``faction`` on
    the board and in front of it, and its person and club cards of that
    faction in display and hand (a special card has no colour of its own)."""
    board = sum(s[2] for province in g["board"].values() for s in province if s[0] == seat and s[1] == faction)
    cards = [c for c in g["hands"][seat] + g["displays"][seat]
             if data.cards[c].faction == faction and data.cards[c].kind != "special"]
    return int(board) + int(g["acquired"][seat][faction]) + len(cards)


def every_card(g: G) -> list[str]:
    """Every card wherever it is (for checks that none is lost or doubled)."""
    found = list(g["deck"]) + list(g["open"]) + list(g["discard"])
    for seat in g["players"]:
        found += g["hands"][seat] + g["displays"][seat]
    if g.get("bid"):
        found += [c for c in g["bid"].get("pending", {}).values() if c]
    return found


def new_game(data: GameData, players: tuple[str, ...], seed: str) -> tuple[G, list[dict[str, Any]], list[dict[str, Any]]]:
    """The first state: decks A and B shuffled, A on top of B; seven cards
    to each player; three open cards; the start player drawn by lot (the
    others follow clockwise); the round track's blocks set aside.  Returns
    the game, its events and its random events."""
    g: G = {
        "players": list(players), "round": 1, "step": "action", "seq": 1, "order": [], "turn": 0,
        "hands": {p: [] for p in players}, "displays": {p: [] for p in players},
        "deck": [], "open": [], "discard": [],
        "supply": {f: data.supply[f] - data.track[f] for f in FACTIONS}, "track": dict(data.track),
        "board": {pid: [] for pid in data.election_order}, "box": {p: 0 for p in players},
        "vp": {p: 0 for p in players}, "acquired": {p: {f: 0 for f in FACTIONS} for p in players},
        "passes": 0, "lost_battles": 0, "government": None, "opposition": None,
        "election": None, "bid": None, "seed": seed, "counter": 0, "result": None, "battles": [],
        "random_log": [],
    }
    randoms: list[dict[str, Any]] = []
    deck: list[str] = []
    for letter in ("A", "B"):
        event = random_event(g, "shuffle", list(data.deck(letter)), f"shuffle of deck {letter}")
        randoms.append(public(event))
        deck += list(event.result)
    g["deck"] = deck
    for seat in players:
        g["hands"][seat] = draw(g, HAND, randoms)
    refill_open(g, randoms)
    event = random_event(g, "choice", list(players), "start player of round 1")
    randoms.append(event.to_json())
    first = players.index(str(event.result[0]))
    g["order"] = list(players[first:] + players[:first])
    events = [{"key": "lib_ev_start_player", "seat": g["order"][0], "order": list(g["order"])}]
    return g, events, randoms
