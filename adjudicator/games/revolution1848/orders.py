"""The orders of 1848 by mail as values.

Each order is a frozen dataclass whose ``str`` is its canonical text (the
English form of ``grammars/1848.lark``); parsing that text gives the same
value back.  Which orders a step accepts is ``STEP_ORDERS``.
"""

from __future__ import annotations

from dataclasses import dataclass

PARTY_WORDS = {"LIB": "Liberal", "DEM": "Democrat", "REP": "Republican", "REA": "Reactionary"}


@dataclass(frozen=True)
class Play:
    """``PLAY <card> [ON <target>] [AS <party>]``: play a hand card in an action."""

    card: str
    target: str = ""
    party: str = ""

    def __str__(self) -> str:
        text = f"PLAY {self.card}"
        if self.target:
            text += f" ON {self.target}"
        if self.party:
            text += f" AS {PARTY_WORDS[self.party]}"
        return text


@dataclass(frozen=True)
class Pass:
    """``PASS``: play the pass card."""

    def __str__(self) -> str:
        return "PASS"


@dataclass(frozen=True)
class Keep:
    """``KEEP <card>...`` / ``KEEP NOTHING``: the cards of one's side that
    stay on the table (phase 2)."""

    cards: tuple[str, ...]

    def __str__(self) -> str:
        return "KEEP " + (" ".join(self.cards) if self.cards else "NOTHING")


@dataclass(frozen=True)
class Discard:
    """``DISCARD <card>...``: hand cards put back on the discard piles (phase 7)."""

    cards: tuple[str, ...]

    def __str__(self) -> str:
        return "DISCARD " + " ".join(self.cards)


@dataclass(frozen=True)
class Decide:
    """``DECIDE RED|BLUE``: the winner's decision of the flow card."""

    colour: str

    def __str__(self) -> str:
        return f"DECIDE {self.colour.upper()}"


@dataclass(frozen=True)
class Join:
    """``JOIN ALL`` / ``JOIN NONE`` / ``JOIN <army>...``: which of one's
    armies put themselves under the parliament when A12 is decided for a
    parliamentary army (armies named by a card in them)."""

    armies: tuple[str, ...] = ()
    every: bool = False

    def __str__(self) -> str:
        if self.every:
            return "JOIN ALL"
        return "JOIN " + (" ".join(self.armies) if self.armies else "NONE")


FACTION_WORDS = {"RLIB": "RIGHT", "LLIB": "LEFT", "BOTH": "BOTH"}


@dataclass(frozen=True)
class Faction:
    """``FACTION RIGHT|LEFT|BOTH``: the Liberal faction the player with the
    Liberals' choice takes in the National Assembly (``RLIB``, ``LLIB`` or
    ``BOTH``)."""

    faction: str

    def __str__(self) -> str:
        return f"FACTION {FACTION_WORDS[self.faction]}"


@dataclass(frozen=True)
class Forecast:
    """``FORECAST <letter>``: the sealed forecast under A05."""

    letter: str

    def __str__(self) -> str:
        return f"FORECAST {self.letter}"


@dataclass(frozen=True)
class Withdraw:
    """``WITHDRAW``: take the forecast back at A11 (it becomes E)."""

    def __str__(self) -> str:
        return "WITHDRAW"


@dataclass(frozen=True)
class Stand:
    """``STAND``: keep the forecast at A11."""

    def __str__(self) -> str:
        return "STAND"


@dataclass(frozen=True)
class PlaceArmy:
    """``ARMY <card> TO <A04|A15|army>``: put an army card from the hand at
    A04, at A15 or into one of one's armies (named by a card in it)."""

    card: str
    to: str

    def __str__(self) -> str:
        return f"ARMY {self.card} TO {self.to}"


@dataclass(frozen=True)
class General:
    """``GENERAL <card> TO <army>``: assign a general (or Z15) from the hand."""

    card: str
    to: str

    def __str__(self) -> str:
        return f"GENERAL {self.card} TO {self.to}"


@dataclass(frozen=True)
class Remove:
    """``REMOVE <card>``: take an army card, general or Z15 out of one's army."""

    card: str

    def __str__(self) -> str:
        return f"REMOVE {self.card}"


@dataclass(frozen=True)
class Attack:
    """``ATTACK <army> ON <target>``: an army attacks an intervention card, a
    rising (A17-A20) or the opponent's army (named by a card in it)."""

    army: str
    target: str

    def __str__(self) -> str:
        return f"ATTACK {self.army} ON {self.target}"


@dataclass(frozen=True)
class Swear:
    """``SWEAR <army>``: move a free army or one at A04 to A15 (the oath)."""

    army: str

    def __str__(self) -> str:
        return f"SWEAR {self.army}"


@dataclass(frozen=True)
class NoAction:
    """``NONE``: no military action this round."""

    def __str__(self) -> str:
        return "NONE"


@dataclass(frozen=True)
class Lose:
    """``LOSE <card>``: the card an attacked army gives up."""

    card: str

    def __str__(self) -> str:
        return f"LOSE {self.card}"


Military = PlaceArmy | General | Remove | Attack | Swear | NoAction
MILITARY_ORDERS = (PlaceArmy, General, Remove, Attack, Swear, NoAction)
Order = Play | Pass | Keep | Discard | Decide | Faction | Join | Forecast | Withdraw | Stand | Military | Lose

STEP_ORDERS: dict[str, tuple[type, ...]] = {
    "keep": (Keep, Discard),
    "play": (Play, Pass),
    "vote": (Decide,),
    "faction": (Faction,),
    "join": (Join,),
    "military": (PlaceArmy, General, Remove, Attack, Swear, NoAction),
    "loss": (Lose,),
    "forecast": (Forecast,),
    "withdraw": (Withdraw, Stand),
    "over": (),
}
"""The order kinds each step accepts."""
