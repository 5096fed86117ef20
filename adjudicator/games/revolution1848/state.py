"""The state of a game of 1848 as immutable values, and its JSON form.

``Game`` holds everything: the hands and the table of both players, the
decks, the flow cards lying in the middle, the armies, whose turn it is
(``step`` and ``actors``) and the sealed forecasts.  ``to_json`` and
``from_json`` are exact inverses; the service stores the JSON form per
phase and never looks inside it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Mapping

PLAYERS = ("A", "B")


def other(player: str) -> str:
    """The opponent of ``player``."""
    return "B" if player == "A" else "A"


@dataclass(frozen=True)
class Placed:
    """A card lying on a player's side: a person with its current party,
    or an extra card (``party`` empty)."""

    card: str
    party: str = ""


@dataclass(frozen=True)
class Side:
    """One player's cards: hand, table (in the order played), flow cards
    won, whether he has passed in this round, and his sealed forecast."""

    hand: tuple[str, ...] = ()
    table: tuple[Placed, ...] = ()
    won: tuple[str, ...] = ()
    passed: bool = False
    forecast: str = ""
    withdrawn: bool = False

    def lying(self, card: str) -> Placed | None:
        """The entry of ``card`` on this side, or None."""
        return next((p for p in self.table if p.card == card), None)


@dataclass(frozen=True)
class Army:
    """An army: its owner, where it stands (``A04``, ``free``, ``A12``,
    ``A15``) and its cards (army cards, generals, Z15, conquered cards)."""

    id: int
    owner: str
    at: str
    cards: tuple[str, ...]


@dataclass(frozen=True)
class Game:
    """The whole state of one game (see the module docstring).

    ``step`` is ``keep``, ``play``, ``faction``, ``vote``, ``military``, ``loss``,
    ``forecast``, ``withdraw`` or ``over``; ``actors`` are the players who
    act in it; ``tag`` names the step in the phase name."""

    seed: int
    shuffles: int
    round: int
    flow: str
    step: str
    tag: str
    actors: tuple[str, ...]
    sides: tuple[Side, Side]
    person_deck: tuple[str, ...] = ()
    extra_deck: tuple[str, ...] = ()
    person_discard: tuple[str, ...] = ()
    extra_discard: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    lying: tuple[str, ...] = ()
    armies: tuple[Army, ...] = ()
    next_army: int = 1
    radical: bool = False
    last_winner: str = ""
    winner: str = ""
    decisions: tuple[str, ...] = ()
    pending_next: str = ""
    military_queue: tuple[str, ...] = ()
    loss_army: int = 0
    ended: str = ""
    scores: Mapping[str, int] = field(default_factory=dict)
    random_log: tuple[Mapping[str, Any], ...] = ()
    """Every shuffle so far as a verifiable event (``RandomEvent.to_json()``)."""
    faction: str = ""
    """The Liberal faction chosen at the end of a National Assembly round
    (``RLIB``, ``LLIB``, ``BOTH``; "" before the choice)."""

    @property
    def phase(self) -> str:
        """The stable phase name, e.g. ``R03A06-2`` (round 3, card A06, action 2)."""
        if self.step == "over":
            return f"R{self.round:02d}{self.flow}-END"
        return f"R{self.round:02d}{self.flow}-{self.tag}"

    def side(self, player: str) -> Side:
        """``player``'s side."""
        return self.sides[PLAYERS.index(player)]

    def with_side(self, player: str, side: Side) -> Game:
        """The game with ``player``'s side replaced."""
        sides = (side, self.sides[1]) if player == "A" else (self.sides[0], side)
        return replace(self, sides=sides)

    def army(self, number: int) -> Army | None:
        """The army with id ``number``, or None."""
        return next((a for a in self.armies if a.id == number), None)

    def owner_of(self, card: str) -> str | None:
        """The player on whose side ``card`` lies (political table), or None."""
        for player in PLAYERS:
            if self.side(player).lying(card) is not None:
                return player
        return None


def to_json(game: Game) -> dict[str, Any]:
    """The JSON form of ``game`` (lists for tuples; ``from_json`` inverts it)."""
    return {
        "seed": game.seed, "shuffles": game.shuffles, "round": game.round, "flow": game.flow,
        "step": game.step, "tag": game.tag, "actors": list(game.actors),
        "sides": {player: _side_json(game.side(player)) for player in PLAYERS},
        "person_deck": list(game.person_deck), "extra_deck": list(game.extra_deck),
        "person_discard": list(game.person_discard), "extra_discard": list(game.extra_discard),
        "removed": list(game.removed), "lying": list(game.lying),
        "armies": [{"id": a.id, "owner": a.owner, "at": a.at, "cards": list(a.cards)} for a in game.armies],
        "next_army": game.next_army, "radical": game.radical, "last_winner": game.last_winner,
        "winner": game.winner, "decisions": list(game.decisions), "pending_next": game.pending_next,
        "military_queue": list(game.military_queue), "loss_army": game.loss_army, "ended": game.ended,
        "scores": dict(game.scores), "random_log": [dict(e) for e in game.random_log], "faction": game.faction,
    }


def _side_json(side: Side) -> dict[str, Any]:
    return {
        "hand": list(side.hand), "table": [{"card": p.card, "party": p.party} for p in side.table],
        "won": list(side.won), "passed": side.passed, "forecast": side.forecast, "withdrawn": side.withdrawn,
    }


def _side(data: Mapping[str, Any]) -> Side:
    return Side(
        tuple(data["hand"]), tuple(Placed(p["card"], p["party"]) for p in data["table"]), tuple(data["won"]),
        bool(data["passed"]), str(data["forecast"]), bool(data["withdrawn"]),
    )


def from_json(data: Mapping[str, Any]) -> Game:
    """The ``Game`` of a JSON form made by ``to_json`` (``KeyError`` or
    ``TypeError`` for anything else)."""
    return Game(
        int(data["seed"]), int(data["shuffles"]), int(data["round"]), str(data["flow"]), str(data["step"]),
        str(data["tag"]), tuple(data["actors"]), (_side(data["sides"]["A"]), _side(data["sides"]["B"])),
        tuple(data["person_deck"]), tuple(data["extra_deck"]), tuple(data["person_discard"]),
        tuple(data["extra_discard"]), tuple(data["removed"]), tuple(data["lying"]),
        tuple(Army(int(a["id"]), str(a["owner"]), str(a["at"]), tuple(a["cards"])) for a in data["armies"]),
        int(data["next_army"]), bool(data["radical"]), str(data["last_winner"]), str(data["winner"]),
        tuple(data["decisions"]), str(data["pending_next"]), tuple(data["military_queue"]), int(data["loss_army"]),
        str(data["ended"]), {str(k): int(v) for k, v in data["scores"].items()},
        tuple(dict(e) for e in data.get("random_log", ())), str(data.get("faction", "")),
    )
