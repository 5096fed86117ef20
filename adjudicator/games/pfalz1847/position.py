"""Reading and changing an 1847 AE position: who holds what, prices,
whose turn it is, money moves (bank, players, companies: the sum never
changes), market moves, certificates changing hands, directors, floats.

A position is JSON data (see ``engine.new_game``); the rule modules work
on a private copy made by ``engine.apply``.
"""

from __future__ import annotations

from typing import Any

from adjudicator.games.pfalz1847 import market
from adjudicator.games.pfalz1847.board import Board, board_of
from adjudicator.games.pfalz1847.data import GameData, Train
from adjudicator.games.pfalz1847.orders import Pass

JSON = dict[str, Any]
STEPS = ("track", "station", "run", "dividend", "trains")
COLOURS = ("yellow", "green", "brown")


class Refusal(ValueError):
    """An order the rules do not allow now: catalogue ``key`` and fields."""

    def __init__(self, key: str, **fields: Any) -> None:
        super().__init__(key)
        self.key = key
        self.fields = fields


def _clone(value: Any) -> Any:
    """A deep copy of JSON data (dicts, lists, scalars)."""
    if isinstance(value, dict):
        return {k: _clone(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_clone(v) for v in value]
    return value


def seats(players: int) -> tuple[str, ...]:
    """The seats of a game of ``players`` players: ``S1`` .. ``Sn``."""
    return tuple(f"S{i}" for i in range(1, players + 1))


def board(data: GameData, g: JSON) -> Board:
    """The track and stations of the position."""
    return board_of(data, g["tiles"], g["stations"])


def phase(data: GameData, g: JSON) -> Any:
    """The current phase's data."""
    return data.phase(g["phase"])


def colour_index(data: GameData, g: JSON) -> int:
    """0 yellow, 1 green, 2 brown: the off-boards' revenue column."""
    return len(phase(data, g).colours) - 1


def percent(g: JSON, player: str, cid: str) -> int:
    """The percentage of ``cid`` that ``player`` holds (director's certificate included)."""
    own = 20 if g["director"].get(cid) == player and cid != "LFK" else 0
    if cid == "LFK" and g["director"].get("LFK") == player:
        own = 100
    return own + sum(int(c) for c in g["certs"][player].get(cid, []))


def cert_count(data: GameData, g: JSON, player: str) -> int:
    """Certificates counting towards ``player``'s limit: shares, director's
    certificates, LFK and open privates."""
    count = sum(len(v) for v in g["certs"][player].values())
    count += sum(1 for cid, d in g["director"].items() if d == player)
    count += sum(1 for p in g["privates"].values() if p["owner"] == player and not p["closed"])
    return count


def sold_percent(data: GameData, g: JSON, cid: str) -> int:
    """How much of ``cid`` is sold (investor shares count as sold)."""
    in_ipo = sum(int(c) for c in g["ipo"][cid]) + (0 if g["director"][cid] is not None or _started(g, cid) else
                                   data.company(cid).certificates[0])
    return 100 - in_ipo


def _started(g: JSON, cid: str) -> bool:
    return bool(g.get("started", {}).get(cid)) or g["director"][cid] is not None


def price(data: GameData, g: JSON, cid: str) -> int:
    """The market price of ``cid`` (0 before it has one)."""
    cell = g["price"][cid]
    return data.price_at((cell[0], cell[1])) if cell else 0


def money_total(g: JSON) -> int:
    """The bank's money plus every player's and company's (constant)."""
    return int(g["bank"]) + sum(int(v) for v in g["cash"].values())


def actor(data: GameData, g: JSON) -> str | None:
    """The seat to act now (None when the game is over)."""
    if g["over"]:
        return None
    asks = g.get("asks")
    if asks:
        return str(asks[0]["to"])
    r = g["round"]
    if r["kind"] == "OR":
        return str(g["director"][r["order"][r["index"]]])
    return str(g["players"][_turn_seat(g)])


def operating(g: JSON) -> str | None:
    """The company whose operating turn it is, if any."""
    r = g["round"]
    return str(r["order"][r["index"]]) if r["kind"] == "OR" else None


def round_label(g: JSON) -> str:
    """``SR2``, ``OR2.1`` (stock round 2's first operating round), ``D1.OR1`` ..."""
    r = g["round"]
    if r["kind"] == "OR":
        return f"{r['parent']}.OR{r['or_number']}" if r.get("parent", "").startswith("D") else \
            f"OR{r['sr']}.{r['or_number']}"
    return f"SR{r['number']}"


def _turn_seat(g: JSON) -> int:
    r = g["round"]
    n = len(g["players"])
    t = int(r["turn"])
    if r["kind"] == "draft" or (r["kind"] == "SR" and r["number"] == 1):
        return n - 1 - t if t < n else (t - n) % n
    return (int(r["start"]) + t) % n


def packet(data: GameData, g: JSON) -> list[str]:
    """The start packet items nobody has bought yet."""
    return [p.id for p in data.privates if g["privates"][p.id]["owner"] is None and not g["privates"][p.id]["closed"]]


def _pay(g: JSON, source: str, target: str, amount: int) -> None:
    """Move ``amount`` from ``source`` to ``target`` (``bank`` or a cash holder)."""
    if amount == 0:
        return
    if source == "bank":
        g["bank"] -= amount
        if g["bank"] < 0 and not g["bank_broken"]:
            g["bank_broken"] = True
            g["log"].append({"event": "bank_broken"})
    else:
        g["cash"][source] -= amount
    if target == "bank":
        g["bank"] += amount
    else:
        g["cash"][target] += amount


def _place(data: GameData, g: JSON, cid: str, cell: tuple[int, int]) -> None:
    g["marker"] += 1
    g["price"][cid] = [cell[0], cell[1]]
    g["seq"][cid] = g["marker"]


def _move(data: GameData, g: JSON, cid: str, how: str) -> None:
    cell = g["price"][cid]
    if not cell:
        return
    here = (cell[0], cell[1])
    there = {"left": market.left, "right": market.right, "up": market.up, "down": market.down}[how](data, here)
    if there != here:
        _place(data, g, cid, there)
    g["log"].append({"event": "price", "company": cid, "move": how, "from": data.price_at(here),
                     "to": data.price_at(there)})


def _take(certs: list[int], units: int) -> list[int] | None:
    """Certificates from ``certs`` worth exactly ``units`` tenths (tens first)."""
    tens = [c for c in certs if c == 10]
    twenties = [c for c in certs if c == 20]
    for doubles in range(0, len(twenties) + 1):
        singles = units - 2 * doubles
        if 0 <= singles <= len(tens):
            return [20] * doubles + [10] * singles
    return None


def _remove(certs: list[int], taken: list[int]) -> None:
    for c in taken:
        certs.remove(c)


def _check_director(data: GameData, g: JSON, cid: str, seller: str | None = None) -> None:
    """Pass the director's certificate to the player holding more than
    the director (ties: the first after the director in seat order)."""
    if cid == "LFK":
        return
    director = g["director"][cid]
    if director is None:
        return
    players = g["players"]
    start = players.index(director)
    order = [players[(start + i) % len(players)] for i in range(1, len(players))]
    mine = percent(g, director, cid)
    best = max(order, key=lambda p: (percent(g, p, cid), -order.index(p)))
    if percent(g, best, cid) <= mine:
        return
    handed = _take(g["certs"][best].get(cid, []), 2)
    if handed is None:  # pragma: no cover - someone with more than 20% always holds two tenths
        return
    _remove(g["certs"][best][cid], handed)
    g["certs"][director].setdefault(cid, []).extend(handed)
    g["director"][cid] = best
    g["log"].append({"event": "director", "company": cid, "from": director, "to": best})


def _float_check(data: GameData, g: JSON, cid: str) -> None:
    company = data.company(cid)
    if g["floated"][cid] or sold_percent(data, g, cid) < company.float_percent:
        return
    g["floated"][cid] = True
    if cid == "LFK":
        g["log"].append({"event": "float", "company": cid, "capital": 0})
        return
    capital = company.par * sold_percent(data, g, cid) // 10
    _pay(g, "bank", cid, capital)
    for home in company.home:
        g["stations"].setdefault(home, []).append(cid)
    g["stations_used"][cid] = len(company.home)
    g["log"].append({"event": "float", "company": cid, "capital": capital})


def _private_id(data: GameData, text: str) -> str:
    aliases = {"L": "PLP", "LFK": "LFKC", "KRAUSS": "LFKC", "SAAR": "SPR"}
    upper = text.upper()
    for p in data.privates:
        if p.id.upper() == upper:
            return p.id
    return aliases.get(upper, upper)


def company_id(data: GameData, text: str) -> str:
    """The canonical id of a company as written (any case), or the text."""
    for c in data.companies:
        if c.id.upper() == text.upper():
            return c.id
    return text


def score(data: GameData, g: JSON, seat: str) -> int:
    """Money plus every share at its market price (LFK: its price)."""
    total = int(g["cash"][seat])
    for company in data.companies:
        held = percent(g, seat, company.id)
        if company.id == "LFK":
            total += price(data, g, "LFK") if held else 0
        else:
            total += price(data, g, company.id) * held // 10
    return total


def _hand_over(data: GameData, g: JSON, cid: str, seat: str) -> None:
    """The selling director's certificate goes to the next holder with the
    most; he hands the seller certificates worth 20% in exchange."""
    players = g["players"]
    start = players.index(seat)
    order = [players[(start + i) % len(players)] for i in range(1, len(players))]
    best = max(order, key=lambda p: (percent(g, p, cid), -order.index(p)))
    handed = _take(g["certs"][best].get(cid, []), 2)
    if handed is None:
        raise Refusal("p47_director_stays", company=cid)
    _remove(g["certs"][best][cid], handed)
    g["certs"][seat].setdefault(cid, []).extend(handed)
    g["director"][cid] = best
    g["log"].append({"event": "director", "company": cid, "from": seat, "to": best})


def company_trains(data: GameData, g: JSON, cid: str) -> list[Train]:
    """The trains of ``cid``."""
    return [data.train(t) for t in g["trains"][cid]]


def next_train(data: GameData, g: JSON) -> Train | None:
    """The train the bank sells now (None when none is left)."""
    for t in data.trains:
        if g["depot"][t.name] > 0:
            return t
    return None


def _cheapest(data: GameData, g: JSON) -> int | None:
    prices = [data.train(t).price for t in g["pool"]]
    offered = next_train(data, g)
    if offered is not None:
        prices.append(offered.price)
    return min(prices) if prices else None


def _phase_reached(data: GameData, g: JSON, name: str) -> bool:
    order = [p.name for p in data.phases]
    return order.index(g["phase"]) >= order.index(name)
