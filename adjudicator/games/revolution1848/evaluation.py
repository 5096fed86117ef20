"""Evaluating the table: who is ahead, in the steps the rule text uses.

``evaluate(data, flow, tables, radical)`` is a pure function of the cards
lying on both sides.  Step 2 (``standings``): the value each player
reaches for each party with his person and extra cards, and who controls
the party (the higher value; equal values: nobody).  Then, by the flow
card's mode:

* ``stich`` (A01-A03): the strongest party (both players' values added)
  wins for its controller.
* ``buendnis`` (A09, A10, A16): the parties of the red and of the blue
  side add up; the stronger side wins for the player who controls it
  (for an alliance of several parties: the player whose controlled
  parties add up to more of it).
* ``vorparlament`` (A06-A08): person cards activate the parties' seats
  on A05; the strongest activated party wins for its controller; two
  equally strong strongest parties are a stalemate (Patt).
* ``nationalversammlung`` (A12-A14, A21, A22): the seats on A11, the
  Liberals split into Right and Left Liberals, and the activated parties
  vote red or blue; all parties voting alike form one bloc.  The player
  with the choice of the Liberal faction commits first, the other
  answers; the larger bloc wins for its controller (see
  docs/games/1848.md for the rulings).
* ``gesamtwert``: the total of all cards on each side.

The result names the leader (``None``: nobody is ahead, a Patt) and the
decisions (red/blue) the leader may take when the round ends like this.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import product

from adjudicator.games.revolution1848.cards import ASSEMBLY_PARTIES, PARLIAMENT_OF, PARTIES, CardData, Flow
from adjudicator.games.revolution1848.state import PLAYERS, Placed, other

Tables = Mapping[str, Sequence[Placed]]


@dataclass(frozen=True)
class Standing:
    """Step 2 for one party: each player's value (``None``: no person of
    the party on his side), both added, and the controlling player."""

    party: str
    values: Mapping[str, int | None]
    total: int
    controller: str | None


@dataclass(frozen=True)
class Bloc:
    """A side of a Bündnis round or a voting bloc of a parliament: its
    colour, parties, value, each player's share and the controller."""

    colour: str
    parties: tuple[str, ...]
    value: int
    shares: Mapping[str, int]
    controller: str | None


@dataclass(frozen=True)
class Line:
    """A Nationalversammlung line of play: the first mover's choice of
    faction and votes, the other's best answer, and the resulting blocs."""

    first: str
    factions: Mapping[str, str]
    votes: Mapping[str, str]
    blocs: tuple[Bloc, Bloc]
    winner: str | None
    control: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Evaluation:
    """Who is ahead after an action (or at the end of a round), with the
    steps that lead there (see the module docstring)."""

    mode: str
    standings: tuple[Standing, ...]
    leader: str | None
    decisions: tuple[str, ...] = ()
    strongest: tuple[str, ...] = ()
    activated: Mapping[str, int] = field(default_factory=dict)
    control: Mapping[str, str | None] = field(default_factory=dict)
    blocs: tuple[Bloc, ...] = ()
    first: str | None = None
    lines: tuple[Line, ...] = ()
    totals: Mapping[str, int] = field(default_factory=dict)

    def standing(self, party: str) -> Standing:
        """The step-2 standing of ``party``."""
        return next(s for s in self.standings if s.party == party)


# --- Step 2: values and control ---------------------------------------------------------


def side_value(data: CardData, table: Sequence[Placed], party: str) -> int | None:
    """The value of ``party`` on one side: its persons' values plus the
    boosts and minus the weakenings lying on that side; ``None`` when no
    person of the party lies there (extra cards alone have no value)."""
    persons = [p for p in table if p.party == party and data.is_person(p.card)]
    if not persons:
        return None
    total = sum(data.value_of(p.card) for p in persons)
    for placed in table:
        extra = data.extras.get(placed.card)
        if extra is None:
            continue
        for boost in extra.boosts:
            if boost.party == party:
                total += boost.amount * (len(persons) if boost.each else 1)
        for weaken in extra.weakens:
            if weaken.party == party:
                total -= weaken.amount * (len(persons) if weaken.each else 1)
    return total


def card_values(data: CardData, table: Sequence[Placed], party: str) -> list[int]:
    """Each person card of ``party`` on one side with the boosts and
    weakenings given per card ("jeweils"); once-per-party amounts are not
    part of a single card's value (ruling 1848-7)."""
    persons = [p for p in table if p.party == party and data.is_person(p.card)]
    result = []
    for person in persons:
        value = data.value_of(person.card)
        for placed in table:
            extra = data.extras.get(placed.card)
            if extra is None:
                continue
            value += sum(b.amount for b in extra.boosts if b.party == party and b.each)
            value -= sum(w.amount for w in extra.weakens if w.party == party and w.each)
        result.append(value)
    return result


def controller(values: Mapping[str, int | None]) -> str | None:
    """The player with the higher value among those with a value; None on
    equal values or when nobody has one."""
    present = {p: v for p, v in values.items() if v is not None}
    if not present:
        return None
    best = max(present.values())
    leaders = [p for p, v in present.items() if v == best]
    return leaders[0] if len(leaders) == 1 else None


def standings(data: CardData, tables: Tables) -> tuple[Standing, ...]:
    """Step 2 for every party."""
    result = []
    for party in PARTIES:
        values = {player: side_value(data, tables[player], party) for player in PLAYERS}
        total = sum(v for v in values.values() if v is not None)
        result.append(Standing(party, values, total, controller(values)))
    return tuple(result)


# --- The modes -----------------------------------------------------------------------------


def evaluate(data: CardData, flow: Flow, tables: Tables, radical: bool, faction: str = "") -> Evaluation:
    """Evaluate ``tables`` for the round about ``flow`` (see the module
    docstring); ``radical`` is true after a successful A09; ``faction`` is
    the Liberal faction chosen in the National Assembly (``RLIB``,
    ``LLIB``, ``BOTH``; "": not yet chosen, every choice is weighed)."""
    steps = standings(data, tables)
    if flow.mode == "stich":
        return _stich(steps)
    if flow.mode == "buendnis":
        return _buendnis(steps, flow, radical)
    if flow.mode == "vorparlament":
        return _preparliament(steps, flow, data.flows[PARLIAMENT_OF["vorparlament"]], radical)
    if flow.mode == "nationalversammlung":
        return _assembly(data, steps, tables, flow, data.flows[PARLIAMENT_OF["nationalversammlung"]], radical,
                         faction)
    if flow.mode == "gesamtwert":
        totals = {player: sum(v for s in steps if (v := s.values[player]) is not None) for player in PLAYERS}
        leader = controller(dict(totals))
        return Evaluation("gesamtwert", steps, leader, ("red", "blue") if leader else (), totals=totals)
    raise ValueError(f"{flow.id} is not played for")


def _stich(steps: tuple[Standing, ...]) -> Evaluation:
    present = [s for s in steps if any(v is not None for v in s.values.values())]
    if not present:
        return Evaluation("stich", steps, None)
    best = max(s.total for s in present)
    strongest = tuple(s.party for s in present if s.total == best)
    leader = next(s for s in present if s.party == strongest[0]).controller if len(strongest) == 1 else None
    return Evaluation("stich", steps, leader, strongest=strongest)


def _bloc(colour: str, parties: Sequence[str], worth: Mapping[str, int], control: Mapping[str, str | None]) -> Bloc:
    shares = {player: sum(worth[p] for p in parties if control.get(p) == player) for player in PLAYERS}
    return Bloc(colour, tuple(parties), sum(worth[p] for p in parties), shares, controller(dict(shares)))


def _buendnis(steps: tuple[Standing, ...], flow: Flow, radical: bool) -> Evaluation:
    present = [s for s in steps if any(v is not None for v in s.values.values())]
    worth = {s.party: s.total for s in present}
    control = {s.party: s.controller for s in present}
    sides = []
    for colour in ("red", "blue"):
        parties = [s.party for s in present if flow.votes_of(s.party, radical) == (colour,)]
        sides.append(_bloc(colour, parties, worth, control))
    red, blue = sides
    leader: str | None = None
    decisions: tuple[str, ...] = ()
    if red.value != blue.value:
        stronger = red if red.value > blue.value else blue
        leader = stronger.controller
        decisions = (stronger.colour,) if leader else ()
    return Evaluation("buendnis", steps, leader, decisions, control=control, blocs=(red, blue))


def _preparliament(steps: tuple[Standing, ...], flow: Flow, parliament: Flow, radical: bool) -> Evaluation:
    activated = {s.party: parliament.parliament[s.party] for s in steps
                 if s.party in parliament.parliament and any(v is not None for v in s.values.values())}
    control = {party: next(s.controller for s in steps if s.party == party) for party in activated}
    if not activated:
        return Evaluation("vorparlament", steps, None, activated=activated, control=control)
    best = max(activated.values())
    strongest = tuple(p for p, v in activated.items() if v == best)
    leader = control[strongest[0]] if len(strongest) == 1 else None
    decisions = flow.votes_of(strongest[0], radical) if leader else ()
    return Evaluation("vorparlament", steps, leader, decisions, strongest, activated, control)


# --- Nationalversammlung -----------------------------------------------------------------


def liberal_factions(data: CardData, tables: Tables) -> tuple[str | None, list[dict[str, str]]]:
    """Who chooses the Liberal factions first, and the ways the factions
    (RLIB, LLIB) can be held: the player with the higher Liberal value
    picks one faction and the other player gets the other; a player whose
    every Liberal card beats all of the other's together, or who alone
    has two or more Liberal cards, may hold one faction or both; alone
    with one card, he picks one (rulings 1848-7 and 1848-8).  Level
    Liberals or none: nobody chooses and no faction takes part."""
    values = {p: side_value(data, tables[p], "LIB") for p in PLAYERS}
    chooser = controller(values)
    if chooser is None:
        return None, [{}]
    cards = card_values(data, tables[chooser], "LIB")
    rival = other(chooser)
    rival_value = values[rival]
    alone = rival_value is None
    dominates = rival_value is not None and all(v > rival_value for v in cards)
    single = [{"RLIB": chooser}, {"LLIB": chooser}]
    if (alone and len(cards) >= 2) or dominates:
        return chooser, single + [{"RLIB": chooser, "LLIB": chooser}]
    if alone:
        return chooser, single
    return chooser, [{"RLIB": chooser, "LLIB": rival}, {"LLIB": chooser, "RLIB": rival}]


@dataclass(frozen=True)
class _Choice:
    factions: Mapping[str, str]   # RLIB/LLIB -> controlling player
    first: str | None


def faction_of(way: Mapping[str, str], chooser: str) -> str:
    """The word of a way to hold the factions for its chooser: ``RLIB``,
    ``LLIB`` or ``BOTH``."""
    held = [p for p in ("RLIB", "LLIB") if way.get(p) == chooser]
    return "BOTH" if len(held) == 2 else held[0] if held else ""


def _assembly(data: CardData, steps: tuple[Standing, ...], tables: Tables, flow: Flow, parliament: Flow,
              radical: bool, faction: str = "") -> Evaluation:
    seats = parliament.parliament
    fixed_control = {s.party: s.controller for s in steps
                     if s.party != "LIB" and s.party in seats and s.controller is not None}
    chooser, ways = liberal_factions(data, tables)
    if faction and chooser is not None:
        ways = [w for w in ways if faction_of(w, chooser) == faction] or ways
    choices = [_Choice(way, chooser) for way in ways]
    firsts = [chooser] if chooser else list(PLAYERS)
    results = [_solve(first, [c for c in choices], fixed_control, seats, flow, radical) for first in firsts]
    winners = {r[0] for r in results}
    leader = results[0][0] if len(winners) == 1 else None
    decisions: tuple[str, ...] = ()
    if leader is not None:
        colours = set().union(*(r[1] for r in results))
        decisions = tuple(c for c in ("red", "blue") if c in colours)
    lines = tuple(line for r in results for line in r[2])
    principal = lines[0] if lines else None
    activated = {p: seats[p] for p in ASSEMBLY_PARTIES if p in seats and (
        p in fixed_control or (principal is not None and p in principal.factions))}
    control = dict(fixed_control)
    if principal is not None:
        control.update(principal.factions)
    return Evaluation("nationalversammlung", steps, leader, decisions, activated=activated, control=control,
                      blocs=principal.blocs if principal else (), first=choices[0].first, lines=lines)


def _solve(first: str, choices: list[_Choice], fixed: Mapping[str, str], seats: Mapping[str, int], flow: Flow,
           radical: bool) -> tuple[str | None, set[str], list[Line]]:
    """Minimax with ``first`` committing first: the winner under best play
    (None: Patt), the colours the winner can win with on optimal lines,
    and the principal line (for the report)."""
    second = other(first)
    best_value = -2
    options: list[tuple[int, _Choice, dict[str, str], list[tuple[dict[str, str], Line]]]] = []
    for choice in choices:
        control = {**fixed, **choice.factions}
        votes_of = {p: flow.votes_of(p, radical) for p in control}
        mine = [p for p in control if control[p] == first and len(votes_of[p]) > 1]
        theirs = [p for p in control if control[p] == second and len(votes_of[p]) > 1]
        fixed_votes = {p: votes_of[p][0] for p in control if len(votes_of[p]) == 1}
        for my_votes in product(*(votes_of[p] for p in mine)):
            committed = {**fixed_votes, **dict(zip(mine, my_votes))}
            replies = []
            for their_votes in product(*(votes_of[p] for p in theirs)):
                votes = {**committed, **dict(zip(theirs, their_votes))}
                replies.append((votes, _leaf(first, control, votes, seats)))
            worst = min(_utility(first, line.winner) for _, line in replies)
            best_value = max(best_value, worst)
            options.append((worst, choice, committed, replies))
    optimal = [o for o in options if o[0] == best_value]
    winner = first if best_value == 1 else second if best_value == -1 else None
    colours: set[str] = set()
    principal: list[tuple[tuple[int, int], Line]] = []
    for worst, choice, committed, replies in optimal:
        answers = [line for _, line in replies if _utility(first, line.winner) == worst]
        for line in answers:
            if winner is not None and line.winner == winner:
                colours.add(_winning_bloc(line).colour)
        answer = min(answers, key=lambda line: _preference(second, line))
        principal.append((_preference(first, answer), answer))
    principal.sort(key=lambda item: item[0])
    return winner, colours, [principal[0][1]] if principal else []


def _leaf(first: str, control: Mapping[str, str], votes: Mapping[str, str], seats: Mapping[str, int]) -> Line:
    blocs = tuple(_bloc(colour, [p for p in ASSEMBLY_PARTIES if votes.get(p) == colour], seats, control)
                  for colour in ("red", "blue"))
    red, blue = blocs
    winner = None
    if red.value != blue.value:
        winner = (red if red.value > blue.value else blue).controller
    factions = {p: control[p] for p in ("RLIB", "LLIB") if p in control}
    return Line(first, factions, dict(votes), (red, blue), winner, dict(control))


def _winning_bloc(line: Line) -> Bloc:
    red, blue = line.blocs
    return red if red.value > blue.value else blue


def _utility(player: str, winner: str | None) -> int:
    return 0 if winner is None else 1 if winner == player else -1


def _preference(player: str, line: Line) -> tuple[int, int]:
    """How ``player`` ranks equally good lines for the report: first by
    how few of his parties sit in a bloc he does not control, then a
    winner by the smallest winning bloc, anyone else by his largest bloc
    (so the line is the one the rule text describes: each player allies
    the parties he controls)."""
    colour_of = {p: b.colour for b in line.blocs for p in b.parties}
    controller_of = {b.colour: b.controller for b in line.blocs}
    scattered = sum(1 for p, owner in line.control.items()
                    if owner == player and p in colour_of and controller_of[colour_of[p]] != player)
    if line.winner == player:
        return (scattered, _winning_bloc(line).value)
    own = max((b.value for b in line.blocs if b.controller == player), default=0)
    return (scattered, -own)
