"""The orders of 1847 AE as values; ``str`` of an order is its canonical
English form (as acknowledged and as kept in the game's log)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class BuyPrivate:
    """Buy an item of the start packet (``BUY K``)."""
    private: str

    def __str__(self) -> str:
        return f"BUY {self.private}"


@dataclass(frozen=True)
class BuyShare:
    """Buy one certificate of ``company`` from the IPO or the open market."""
    company: str
    source: str   # IPO or MARKET

    def __str__(self) -> str:
        return f"BUY {self.company} {self.source}"


@dataclass(frozen=True)
class Par:
    """Start a company: buy its director's certificate at its par price."""
    company: str
    price: int

    def __str__(self) -> str:
        return f"PAR {self.company} {self.price}"


@dataclass(frozen=True)
class Sell:
    """Sell ``count`` tenths of ``company`` (LFK: its certificate) to the market."""
    count: int
    company: str

    def __str__(self) -> str:
        return f"SELL {self.count} {self.company}"


@dataclass(frozen=True)
class Exchange:
    """Exchange an investor private for its investor share."""
    private: str

    def __str__(self) -> str:
        return f"EXCHANGE {self.private}"


@dataclass(frozen=True)
class Nationalize:
    """Buy every share ``player`` holds of ``company`` at 150% (with 70%)."""
    company: str
    player: str

    def __str__(self) -> str:
        return f"NATIONALIZE {self.company} FROM {self.player}"


@dataclass(frozen=True)
class Lay:
    """Lay (or upgrade to) ``tile`` on ``hex`` turned ``rotation`` sixths;
    ``private`` K or H: the quarry's free yellow tile on a mountain."""
    tile: str
    hex: str
    rotation: int
    private: str = ""

    def __str__(self) -> str:
        extra = f" WITH {self.private}" if self.private else ""
        return f"LAY {self.tile} {self.hex} ROT {self.rotation}{extra}"


@dataclass(frozen=True)
class Station:
    """Place a station on the city of ``hex`` (``private`` W: half price)."""
    hex: str
    private: str = ""

    def __str__(self) -> str:
        return f"STATION {self.hex}" + (f" WITH {self.private}" if self.private else "")


@dataclass(frozen=True)
class Run:
    """Run a train of type ``train`` over the stops ``hexes``."""
    train: str
    hexes: tuple[str, ...]

    def __str__(self) -> str:
        return f"RUN {self.train}: {'-'.join(self.hexes)}"


@dataclass(frozen=True)
class RunBest:
    """Run every train on the best routes the judge finds."""

    def __str__(self) -> str:
        return "RUN BEST"


@dataclass(frozen=True)
class Payout:
    """Pay the revenue out (``DIVIDEND``) or keep it (``WITHHOLD``)."""
    pay: bool

    def __str__(self) -> str:
        return "DIVIDEND" if self.pay else "WITHHOLD"


@dataclass(frozen=True)
class BuyTrain:
    """Buy a train from the bank, or from company ``seller`` for ``price``."""
    train: str
    seller: str = ""
    price: int = 0

    def __str__(self) -> str:
        return f"BUY TRAIN {self.train}" + (f" FROM {self.seller} {self.price}" if self.seller else "")


@dataclass(frozen=True)
class CompanyBuysPrivate:
    """The operating company buys a quarry from a player (its director
    at once, another player when he accepts)."""
    private: str
    price: int

    def __str__(self) -> str:
        return f"BUY PRIVATE {self.private} {self.price}"


@dataclass(frozen=True)
class Accept:
    """Accept the offer made to oneself (a train or a quarry for a price)."""

    def __str__(self) -> str:
        return "ACCEPT"


@dataclass(frozen=True)
class Decline:
    """Decline the offer made to oneself."""

    def __str__(self) -> str:
        return "DECLINE"


@dataclass(frozen=True)
class Discard:
    """Give a train of type ``train`` over the train limit to the pool."""
    train: str

    def __str__(self) -> str:
        return f"DISCARD {self.train}"


@dataclass(frozen=True)
class Pass:
    """Pass: in a stock round the turn, in an operating turn the current step."""

    def __str__(self) -> str:
        return "PASS"


@dataclass(frozen=True)
class Done:
    """End the company's operating turn (best routes paid out, a train
    bought when the company must have one)."""

    def __str__(self) -> str:
        return "DONE"


@dataclass(frozen=True)
class Undo:
    """Take back one's own last action (before anyone else has acted)."""

    def __str__(self) -> str:
        return "UNDO"


Order = (BuyPrivate | BuyShare | Par | Sell | Exchange | Nationalize | Lay | Station | Run | RunBest | Payout
         | BuyTrain | CompanyBuysPrivate | Accept | Decline | Discard | Pass | Done | Undo)
