"""The rules of 1847 AE: a game position as JSON data and ``apply``, the
pure function from a position and one player's order to the next
position (or a ``Refusal`` saying why not).

The position (``new_game``) holds every player's and company's money, the
certificates wherever they lie (IPO, open market, players, investor
shares), the market prices, trains, tiles, stations, privates, the round
and whose turn it is, and a log of the orders applied.  Money only moves
between the bank, players and companies, so their sum never changes
(``money_total``).  ``apply`` never changes its argument.
"""

from __future__ import annotations

import math
from typing import Any

from adjudicator.games.pfalz1847 import market, routes
from adjudicator.games.pfalz1847.board import Board, board_of, neighbour, points_into, rotate
from adjudicator.games.pfalz1847.data import GameData, Shape, Train
from adjudicator.games.pfalz1847.orders import (
    BuyPrivate, BuyShare, BuyTrain, CompanyBuysPrivate, Done, Exchange, Lay, Nationalize, Order, Par, Pass, Payout,
    Run, RunBest, Sell, Station, Undo,
)

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


# --- The start ------------------------------------------------------------------------------

def seats(players: int) -> tuple[str, ...]:
    """The seats of a game of ``players`` players: ``S1`` .. ``Sn``."""
    return tuple(f"S{i}" for i in range(1, players + 1))


def new_game(data: GameData, players: int) -> JSON:
    """The position before the first order: start money paid out, L's,
    Saar's and LFK's markers on their par spaces, the packet on the table,
    the last player to act first."""
    if players not in data.start_cash:
        raise Refusal("p47_bad_players", players=players)
    names = seats(players)
    cash: dict[str, int] = {p: data.start_cash[players] for p in names}
    cash.update({c.id: 0 for c in data.companies})
    g: JSON = {
        "players": list(names),
        "bank": data.bank_cash - players * data.start_cash[players],
        "cash": cash,
        "certs": {p: {} for p in names},
        "director": {c.id: None for c in data.companies},
        "ipo": {},
        "investor": {c.id: c.investor for c in data.companies},
        "market": {c.id: [] for c in data.companies},
        "price": {c.id: None for c in data.companies},
        "seq": {c.id: 0 for c in data.companies},
        "floated": {c.id: False for c in data.companies},
        "trains": {c.id: [] for c in data.companies},
        "stations_used": {c.id: 0 for c in data.companies},
        "operated": {c.id: False for c in data.companies},
        "depot": {t.name: t.count for t in data.trains},
        "pool": [],
        "privates": {p.id: {"owner": None, "closed": False} for p in data.privates},
        "tiles": {},
        "stations": {},
        "phase": data.phases[0].name,
        "routes": {},
        "e9": False,
        "must_exchange": False,
        "bank_broken": False,
        "last_set": False,
        "over": False,
        "result": {},
        "marker": 0,
        "round": {"kind": "draft", "number": 1, "turn": 0, "passes": 0, "order": [], "last_actor": "",
                  "sold": {}, "acted": False, "sold_now": []},
        "log": [],
    }
    for company in data.companies:
        certificates = list(company.certificates[1:])
        for _ in range(company.investor):
            certificates.remove(10)
        g["ipo"][company.id] = certificates
    for cid in ("L", "Saar", "LFK"):
        _place(data, g, cid, data.par_cell(data.company(cid).par))
    return g


# --- Reading a position -----------------------------------------------------------------------

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


# --- Money ------------------------------------------------------------------------------------

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


# --- Certificates -----------------------------------------------------------------------------

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


# --- Applying an order --------------------------------------------------------------------------

def apply(data: GameData, g: JSON, seat: str, order: Order) -> JSON:
    """The position after ``seat``'s ``order``; raises ``Refusal``."""
    if g["over"]:
        raise Refusal("p47_over")
    if isinstance(order, Undo):
        raise Refusal("p47_undo_here")
    who = actor(data, g)
    if seat != who:
        raise Refusal("p47_not_your_turn", seat=who, company=f" ({operating(g)})" if operating(g) else "")
    new = {k: _clone(v) for k, v in g.items() if k != "log"}
    new["log"] = []
    kind = new["round"]["kind"]
    if kind == "draft":
        _draft(data, new, seat, order)
    elif kind == "SR":
        _stock(data, new, seat, order)
    else:
        _operate(data, new, seat, order)
    events = new["log"]
    new["log"] = g["log"] + [{"seat": seat, "order": str(order), "events": events}]
    return new


# --- The start packet ---------------------------------------------------------------------------

def _draft(data: GameData, g: JSON, seat: str, order: Order) -> None:
    r = g["round"]
    if isinstance(order, Pass):
        r["passes"] += 1
        r["turn"] += 1
        if r["passes"] >= len(g["players"]):
            _start_ors(data, g, short=True)
        return
    if not isinstance(order, BuyPrivate):
        raise Refusal("p47_draft_only")
    pid = _private_id(data, order.private)
    if pid not in packet(data, g):
        raise Refusal("p47_not_in_packet", item=order.private, items=", ".join(packet(data, g)))
    private = data.private(pid)
    if g["cash"][seat] < private.price:
        raise Refusal("p47_no_money", need=private.price, have=g["cash"][seat])
    if cert_count(data, g, seat) + 1 + len(private.shares) > data.cert_limit[len(g["players"])]:
        raise Refusal("p47_cert_limit", limit=data.cert_limit[len(g["players"])])
    _pay(g, seat, "bank", private.price)
    g["privates"][pid]["owner"] = seat
    g["log"].append({"event": "bought_private", "private": pid, "price": private.price})
    for cid, pct, is_director in private.shares:
        if is_director:
            g["director"][cid] = seat
            g.setdefault("started", {})[cid] = True
        else:
            taken = _take(g["ipo"][cid], pct // 10)
            assert taken is not None
            _remove(g["ipo"][cid], taken)
            g["certs"][seat].setdefault(cid, []).extend(taken)
        _check_director(data, g, cid)
        _float_check(data, g, cid)
    if private.kind in ("director", "krauss"):
        g["privates"][pid]["closed"] = True
    r["passes"] = 0
    r["turn"] += 1
    r["last_actor"] = seat
    if not packet(data, g):
        r["kind"] = "SR"
        r["passes"] = 0


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


# --- Stock rounds ------------------------------------------------------------------------------

def _stock(data: GameData, g: JSON, seat: str, order: Order) -> None:
    r = g["round"]
    if isinstance(order, Pass):
        if r["acted"]:
            r["acted"] = False
        else:
            r["passes"] += 1
        _next_stock_turn(data, g)
        return
    if isinstance(order, Sell):
        _sell(data, g, seat, order, emergency=False)
        r["acted"] = True
        r["last_actor"] = seat
        return
    if isinstance(order, BuyShare):
        _buy_share(data, g, seat, order)
    elif isinstance(order, Par):
        _par(data, g, seat, order)
    elif isinstance(order, Exchange):
        _exchange(data, g, seat, order)
    elif isinstance(order, Nationalize):
        _nationalize(data, g, seat, order)
    else:
        raise Refusal("p47_stock_only")
    r["passes"] = 0
    r["acted"] = False
    r["last_actor"] = seat
    _next_stock_turn(data, g)


def _next_stock_turn(data: GameData, g: JSON) -> None:
    r = g["round"]
    r["turn"] += 1
    r["sold_now"] = []
    if r["passes"] >= len(g["players"]):
        _end_stock_round(data, g)


def _end_stock_round(data: GameData, g: JSON) -> None:
    for company in data.companies:
        cid = company.id
        if cid == "LFK" or not g["floated"][cid]:
            continue
        if not g["ipo"][cid] and not g["market"][cid] and g["investor"][cid] == 0:
            _move(data, g, cid, "up")
    _start_ors(data, g, short=False)


def _can_buy_company(data: GameData, g: JSON, seat: str, cid: str, pct: int) -> None:
    r = g["round"]
    if cid in r["sold"].get(seat, []):
        raise Refusal("p47_sold_this_round", company=cid)
    if cert_count(data, g, seat) + 1 > data.cert_limit[len(g["players"])]:
        raise Refusal("p47_cert_limit", limit=data.cert_limit[len(g["players"])])
    if percent(g, seat, cid) + pct > 100:
        raise Refusal("p47_over_100", company=cid)


def _buy_share(data: GameData, g: JSON, seat: str, order: BuyShare) -> None:
    cid = company_id(data, order.company)
    if cid not in g["ipo"]:
        raise Refusal("p47_no_company", company=order.company, companies=", ".join(c.id for c in data.companies))
    if order.source == "IPO":
        if cid == "LFK" or not _started(g, cid):
            raise Refusal("p47_not_started", company=cid)
        if not g["ipo"][cid]:
            raise Refusal("p47_ipo_empty", company=cid)
        pct = g["ipo"][cid][0]
        cost = data.company(cid).par * pct // 10
        _can_buy_company(data, g, seat, cid, pct)
        if g["cash"][seat] < cost:
            raise Refusal("p47_no_money", need=cost, have=g["cash"][seat])
        g["ipo"][cid].pop(0)
        _pay(g, seat, cid if g["floated"][cid] else "bank", cost)
    else:
        if not g["market"][cid]:
            raise Refusal("p47_market_empty", company=cid)
        pct = min(g["market"][cid])
        cost = price(data, g, cid) * (1 if cid == "LFK" else pct // 10)
        _can_buy_company(data, g, seat, cid, pct)
        if g["cash"][seat] < cost:
            raise Refusal("p47_no_money", need=cost, have=g["cash"][seat])
        g["market"][cid].remove(pct)
        _pay(g, seat, "bank", cost)
        if cid == "LFK":
            g["director"]["LFK"] = seat
            g["log"].append({"event": "bought", "company": cid, "percent": 100, "price": cost, "from": "MARKET"})
            return
    g["certs"][seat].setdefault(cid, []).append(pct)
    g["log"].append({"event": "bought", "company": cid, "percent": pct, "price": cost, "from": order.source})
    _check_director(data, g, cid)
    _float_check(data, g, cid)


def _par(data: GameData, g: JSON, seat: str, order: Par) -> None:
    cid = company_id(data, order.company)
    if cid not in g["ipo"] or cid == "LFK":
        raise Refusal("p47_no_company", company=order.company, companies=", ".join(c.id for c in data.companies))
    company = data.company(cid)
    if _started(g, cid):
        raise Refusal("p47_started", company=cid)
    if cid in ("L", "Saar"):
        raise Refusal("p47_packet_director", company=cid)
    if company.after and not g["floated"][company.after]:
        raise Refusal("p47_after", company=cid, after=company.after)
    if order.price != company.par:
        raise Refusal("p47_par_price", company=cid, par=company.par)
    cost = company.par * company.certificates[0] // 10
    _can_buy_company(data, g, seat, cid, company.certificates[0])
    if g["cash"][seat] < cost:
        raise Refusal("p47_no_money", need=cost, have=g["cash"][seat])
    _pay(g, seat, "bank", cost)
    g["director"][cid] = seat
    g.setdefault("started", {})[cid] = True
    _place(data, g, cid, data.par_cell(company.par))
    g["log"].append({"event": "par", "company": cid, "price": cost})
    _check_director(data, g, cid)
    _float_check(data, g, cid)


def _exchange(data: GameData, g: JSON, seat: str, order: Exchange) -> None:
    pid = _private_id(data, order.private)
    state = g["privates"].get(pid)
    if state is None or data.private(pid).kind != "investor":
        raise Refusal("p47_not_investor", private=order.private)
    if state["owner"] != seat or state["closed"]:
        raise Refusal("p47_not_yours", private=pid)
    if "exchange" not in phase(data, g).flags:
        raise Refusal("p47_no_exchange_phase", phase=g["phase"])
    cid = data.private(pid).exchange
    if not g["floated"][cid]:
        raise Refusal("p47_not_floated", company=cid)
    _do_exchange(data, g, pid)


def _do_exchange(data: GameData, g: JSON, pid: str) -> None:
    cid = data.private(pid).exchange
    seat = g["privates"][pid]["owner"]
    g["privates"][pid]["closed"] = True
    g["investor"][cid] -= 1
    g["certs"][seat].setdefault(cid, []).append(10)
    g["log"].append({"event": "exchanged", "private": pid, "company": cid, "seat": seat})
    _check_director(data, g, cid)


def _nationalize(data: GameData, g: JSON, seat: str, order: Nationalize) -> None:
    cid = company_id(data, order.company)
    other = order.player.upper()
    if cid not in g["ipo"] or cid == "LFK":
        raise Refusal("p47_no_company", company=order.company, companies=", ".join(c.id for c in data.companies))
    if percent(g, seat, cid) < 70:
        raise Refusal("p47_nationalize_70", company=cid, have=percent(g, seat, cid))
    if other not in g["players"] or other == seat or not g["certs"][other].get(cid):
        raise Refusal("p47_nationalize_none", company=cid, player=other)
    if cid in g["round"]["sold"].get(seat, []):
        raise Refusal("p47_sold_this_round", company=cid)
    certs = g["certs"][other][cid]
    units = sum(certs) // 10
    cost = math.ceil(price(data, g, cid) * 1.5) * units
    if g["cash"][seat] < cost:
        raise Refusal("p47_no_money", need=cost, have=g["cash"][seat])
    if cert_count(data, g, seat) + len(certs) > data.cert_limit[len(g["players"])]:
        raise Refusal("p47_cert_limit", limit=data.cert_limit[len(g["players"])])
    _pay(g, seat, other, cost)
    g["certs"][seat].setdefault(cid, []).extend(certs)
    g["certs"][other][cid] = []
    g["log"].append({"event": "nationalized", "company": cid, "from": other, "price": cost, "percent": units * 10})


def _sell(data: GameData, g: JSON, seat: str, order: Sell, emergency: bool) -> None:
    cid = company_id(data, order.company)
    r = g["round"]
    if not emergency and r["kind"] == "SR" and r["number"] == 1:
        raise Refusal("p47_no_sales_first")
    if cid not in g["ipo"]:
        raise Refusal("p47_no_company", company=order.company, companies=", ".join(c.id for c in data.companies))
    if cid == "LFK":
        if g["director"]["LFK"] != seat:
            raise Refusal("p47_not_enough", company=cid, have=0)
        value = price(data, g, cid)
        g["director"]["LFK"] = None
        g["market"]["LFK"].append(100)
        _pay(g, "bank", seat, value)
        g["log"].append({"event": "sold", "company": cid, "percent": 100, "price": value})
    else:
        if not g["floated"][cid]:
            raise Refusal("p47_sell_unfloated", company=cid)
        units = order.count
        if units < 1 or percent(g, seat, cid) < units * 10:
            raise Refusal("p47_not_enough", company=cid, have=percent(g, seat, cid))
        if sum(g["market"][cid]) + units * 10 > data.market_limit:
            raise Refusal("p47_market_full", company=cid, limit=data.market_limit)
        if g["director"][cid] == seat:
            others = [p for p in g["players"] if p != seat]
            after = percent(g, seat, cid) - units * 10
            top = max(percent(g, p, cid) for p in others)
            plain = sum(g["certs"][seat].get(cid, []))
            if units * 10 > plain:
                if top < 20 or top <= after:
                    raise Refusal("p47_director_stays", company=cid)
                if emergency and cid == operating(g):
                    raise Refusal("p47_director_stays", company=cid)
                _hand_over(data, g, cid, seat)
        taken = _take(g["certs"][seat].get(cid, []), units)
        if taken is None:
            raise Refusal("p47_cert_split", company=cid)
        _remove(g["certs"][seat][cid], taken)
        g["market"][cid].extend(taken)
        value = price(data, g, cid) * units
        _pay(g, "bank", seat, value)
        g["log"].append({"event": "sold", "company": cid, "percent": units * 10, "price": value})
        _check_director(data, g, cid)
    r["sold"].setdefault(seat, [])
    if cid not in r["sold"][seat]:
        r["sold"][seat].append(cid)
    if cid not in r["sold_now"]:
        r["sold_now"].append(cid)
        _move(data, g, cid, "down")


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


# --- Operating rounds ---------------------------------------------------------------------------

def _operating_order(data: GameData, g: JSON) -> list[str]:
    floated = [c.id for c in data.companies if c.id != "LFK" and g["floated"][c.id]]
    return sorted(floated, key=lambda cid: (-price(data, g, cid), -g["price"][cid][1], g["seq"][cid]))


def _start_ors(data: GameData, g: JSON, short: bool) -> None:
    r = g["round"]
    parent = f"D{r['number']}" if short else f"SR{r['number']}"
    g["round"] = {"kind": "OR", "parent": parent, "sr": r["number"], "or_number": 1,
                  "ors": 1 if short else phase(data, g).ors, "short": short, "resume": r, "start": r.get("start", 0),
                  "last_actor": r.get("last_actor", ""), "order": [], "index": 0, "step": "track",
                  "lays": [], "station": False, "bought": [], "run": [], "train_from_bank": False,
                  "sold": {}, "sold_now": []}
    _begin_or(data, g)


def _begin_or(data: GameData, g: JSON) -> None:
    r = g["round"]
    for p in data.privates:
        state = g["privates"][p.id]
        owner = state["owner"]
        if owner is None or state["closed"] or p.income == 0:
            continue
        income = p.income_after_e9 if p.income_after_e9 and g["e9"] else p.income
        _pay(g, "bank", owner, income)
        g["log"].append({"event": "income", "private": p.id, "to": owner, "amount": income})
    r["order"] = _operating_order(data, g)
    r["index"] = 0
    r["train_from_bank"] = False
    if not r["order"]:
        _end_or(data, g)
    else:
        _begin_company(data, g)


def _begin_company(data: GameData, g: JSON) -> None:
    r = g["round"]
    r.update(step="track", lays=[], station=False, bought=[], run=[], revenue=None)
    g["company_turns"] = g.get("company_turns", 0) + 1
    g["routes"][r["order"][r["index"]]] = []


def _end_company(data: GameData, g: JSON) -> None:
    r = g["round"]
    cid = r["order"][r["index"]]
    g["operated"][cid] = True
    if g["over"]:
        return
    r["index"] += 1
    if r["index"] >= len(r["order"]):
        _end_or(data, g)
    else:
        _begin_company(data, g)


def _end_or(data: GameData, g: JSON) -> None:
    r = g["round"]
    if g["floated"]["LFK"] and not r["train_from_bank"]:
        _move(data, g, "LFK", "left")
    if r["or_number"] < r["ors"]:
        r["or_number"] += 1
        _begin_or(data, g)
        return
    if g["bank_broken"] and not r["short"]:
        _finish(data, g, "bank")
        return
    resume = r["resume"]
    if r["short"]:
        resume["passes"] = 0
        g["round"] = resume
        return
    players = g["players"]
    last = r["last_actor"]
    start = (players.index(last) + 1) % len(players) if last in players else 0
    g["round"] = {"kind": "SR", "number": r["sr"] + 1, "turn": 0, "start": start, "passes": 0,
                  "last_actor": "", "sold": {}, "acted": False, "sold_now": [], "order": []}
    if g["must_exchange"]:
        for p in data.privates:
            if p.kind == "investor" and g["privates"][p.id]["owner"] and not g["privates"][p.id]["closed"]:
                _do_exchange(data, g, p.id)
        g["must_exchange"] = False


def _finish(data: GameData, g: JSON, why: str) -> None:
    g["over"] = True
    scores = {p: score(data, g, p) for p in g["players"]}
    g["result"] = {"why": why, "scores": scores}
    g["log"].append({"event": "game_over", "why": why, "scores": scores})


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


def _operate(data: GameData, g: JSON, seat: str, order: Order) -> None:
    r = g["round"]
    cid = r["order"][r["index"]]
    if isinstance(order, Lay):
        _lay(data, g, cid, order)
    elif isinstance(order, Station):
        _station(data, g, cid, order)
    elif isinstance(order, (Run, RunBest)):
        _run(data, g, cid, order)
    elif isinstance(order, Payout):
        _payout(data, g, cid, order.pay)
    elif isinstance(order, BuyTrain):
        _buy_train(data, g, cid, order)
    elif isinstance(order, CompanyBuysPrivate):
        _company_buys_private(data, g, cid, seat, order)
    elif isinstance(order, Sell):
        if not _in_emergency(data, g, cid):
            raise Refusal("p47_sell_in_or")
        r["sold_now"] = []
        _sell(data, g, seat, order, emergency=True)
    elif isinstance(order, Pass):
        _pass_step(data, g, cid)
    elif isinstance(order, Done):
        turn = g["company_turns"]
        while not g["over"] and g["company_turns"] == turn and g["round"]["kind"] == "OR":
            _pass_step(data, g, cid)
    else:
        raise Refusal("p47_operate_only")


def _set_step(data: GameData, g: JSON, cid: str, step: str) -> None:
    r = g["round"]
    if STEPS.index(step) < STEPS.index(r["step"]):
        raise Refusal("p47_step_over", step=r["step"])
    r["step"] = step
    if step == "run" and not g["trains"][cid]:
        _payout(data, g, cid, False)


def _pass_step(data: GameData, g: JSON, cid: str) -> None:
    r = g["round"]
    step = r["step"]
    if step == "track":
        _set_step(data, g, cid, "station")
    elif step == "station":
        _set_step(data, g, cid, "run")
    elif step in ("run", "dividend"):
        _payout(data, g, cid, True)
    else:
        _finish_turn(data, g, cid)


# --- Track ----------------------------------------------------------------------------------------

def _lays_allowed(data: GameData, g: JSON, cid: str) -> tuple[int, bool]:
    """How many tiles the company may lay this turn and whether one may be an upgrade."""
    if "two_yellow" in phase(data, g).flags:
        return 2, False
    if not g["operated"][cid]:
        return 2, True
    return 1, True


def lay_problem(data: GameData, g: JSON, cid: str, order: Lay,
                reached: tuple[Board, set[tuple[str, int]]] | None = None) -> Refusal | None:
    """Why ``cid`` may not lay ``order`` now (None: it may); ``reached``
    (the board and the sides the company's track points into) saves
    recomputing them for many lays."""
    r = g["round"]
    at, tile = order.hex, order.tile
    if at not in data.hexes:
        return Refusal("p47_no_hex", hex=at)
    printed = data.hexes[at]
    if printed.colour in ("gray", "red"):
        return Refusal("p47_fixed_hex", hex=at)
    if at == "E9" and "e9" not in phase(data, g).flags:
        return Refusal("p47_e9")
    if tile not in data.shapes or data.tile_counts.get(tile, 0) == 0:
        return Refusal("p47_no_tile", tile=tile)
    used = sum(1 for v in g["tiles"].values() if v[0] == tile)
    if used >= data.tile_counts[tile]:
        return Refusal("p47_tile_gone", tile=tile)
    new = data.shapes[tile]
    if new.colour not in phase(data, g).colours:
        return Refusal("p47_colour", tile=tile, colour=new.colour, phase=g["phase"])
    b, sides = reached if reached is not None else _sides(data, g, cid)
    old = b.shape(at)
    upgrade = at in g["tiles"] or printed.colour == "yellow"
    free = order.private in ("K", "H")
    if free:
        pstate = g["privates"].get(order.private)
        if pstate is None or pstate["owner"] != cid or pstate["closed"]:
            return Refusal("p47_not_yours", private=order.private)
        if printed.terrain != "mountain" or upgrade or new.colour != "yellow":
            return Refusal("p47_quarry_lay", hex=at)
    else:
        if r["step"] != "track":
            return Refusal("p47_step_over", step=r["step"])
        count, upgrades = _lays_allowed(data, g, cid)
        done = r["lays"]
        if len(done) >= count:
            return Refusal("p47_no_more_lays", count=count)
        if at in [d["hex"] for d in done]:
            return Refusal("p47_same_hex", hex=at)
        if upgrade and (not upgrades or any(d["upgrade"] for d in done)):
            return Refusal("p47_no_upgrade_now")
    if "two_yellow" in phase(data, g).flags and data.company(cid).state not in printed.states:
        return Refusal("p47_state", hex=at, company=cid, state=data.company(cid).state)
    want = {"white": "yellow", "yellow": "green", "green": "brown"}.get(old.colour)
    if new.colour != want:
        return Refusal("p47_wrong_colour", tile=tile, hex=at, want=want or "-")
    if new.label != printed.shape.label:
        return Refusal("p47_label", tile=tile, hex=at, label=printed.shape.label or "-")
    turned = rotate(new, order.rotation)
    if old.upgrades_to:
        if tile not in old.upgrades_to:
            return Refusal("p47_no_upgrade_path", tile=tile, hex=at)
        if not _exits(old) <= _exits(turned):
            return Refusal("p47_keep_track", tile=tile, hex=at)
    else:
        if sorted(n.kind for n in new.nodes) != sorted(n.kind for n in old.nodes):
            return Refusal("p47_stops_differ", tile=tile, hex=at)
        if not _path_set(old) <= _path_set(turned):
            return Refusal("p47_keep_track", tile=tile, hex=at)
    for side in _exits(turned) - _exits(old):
        if neighbour(data, at, side) is None:
            return Refusal("p47_off_map", hex=at, side=side)
    if not _connected(g, sides, cid, at, turned):
        return Refusal("p47_not_connected", hex=at, company=cid)
    cost = 0 if free or (at in g["tiles"]) else printed.cost
    if g["cash"][cid] < cost:
        return Refusal("p47_no_money", need=cost, have=g["cash"][cid])
    return None


def _exits(shape: Shape) -> set[int]:
    return {int(e) for path in shape.paths for e in path if not e.startswith("_")}


def _path_set(shape: Shape) -> set[frozenset[str]]:
    return {frozenset(p) for p in shape.paths}


def _sides(data: GameData, g: JSON, cid: str) -> tuple[Board, set[tuple[str, int]]]:
    b = board(data, g)
    return b, b.reach(cid)[1]


def _connected(g: JSON, sides: set[tuple[str, int]], cid: str, at: str, turned: Shape) -> bool:
    if cid in g["stations"].get(at, []):
        return True
    for a, c in turned.paths:
        for end in (a, c):
            if not end.startswith("_") and points_into(sides, at, int(end)):
                return True
    return False


def _lay(data: GameData, g: JSON, cid: str, order: Lay) -> None:
    problem = lay_problem(data, g, cid, order)
    if problem is not None:
        raise problem
    r = g["round"]
    printed = data.hexes[order.hex]
    free = order.private in ("K", "H")
    cost = 0 if free or order.hex in g["tiles"] else printed.cost
    upgrade = order.hex in g["tiles"] or printed.colour == "yellow"
    _pay(g, cid, "bank", cost)
    g["tiles"][order.hex] = [order.tile, order.rotation]
    if free:
        g["privates"][order.private]["closed"] = True
    else:
        r["lays"].append({"hex": order.hex, "upgrade": upgrade})
    if order.hex == "E9":
        g["e9"] = True
    g["log"].append({"event": "lay", "company": cid, "tile": order.tile, "hex": order.hex, "rotation": order.rotation,
                     "cost": cost})
    count, _ = _lays_allowed(data, g, cid)
    if len(r["lays"]) >= count and not free:
        _set_step(data, g, cid, "station")


def station_problem(data: GameData, g: JSON, cid: str, order: Station) -> Refusal | None:
    """Why ``cid`` may not place a station as ordered (None: it may)."""
    r = g["round"]
    if STEPS.index(r["step"]) > STEPS.index("station") or r["station"]:
        return Refusal("p47_step_over", step=r["step"])
    company = data.company(cid)
    used = g["stations_used"][cid]
    if used >= len(company.stations):
        return Refusal("p47_no_stations", company=cid)
    at = order.hex
    if at not in data.hexes:
        return Refusal("p47_no_hex", hex=at)
    b = board(data, g)
    index = b.city_node(at)
    if index is None or not b.shape(at).paths:
        return Refusal("p47_no_city", hex=at)
    tokens = g["stations"].get(at, [])
    if cid in tokens:
        return Refusal("p47_has_station", hex=at, company=cid)
    if len(tokens) >= b.node((at, index)).slots:
        return Refusal("p47_city_full", hex=at)
    nodes, _ = b.reach(cid)
    if (at, index) not in nodes:
        return Refusal("p47_not_connected", hex=at, company=cid)
    cost = company.stations[used]
    if order.private:
        pstate = g["privates"].get(order.private)
        if order.private != "W" or pstate is None or pstate["owner"] != cid or pstate["closed"]:
            return Refusal("p47_not_yours", private=order.private)
        cost //= 2
    if g["cash"][cid] < cost:
        return Refusal("p47_no_money", need=cost, have=g["cash"][cid])
    return None


def _station(data: GameData, g: JSON, cid: str, order: Station) -> None:
    problem = station_problem(data, g, cid, order)
    if problem is not None:
        raise problem
    company = data.company(cid)
    cost = company.stations[g["stations_used"][cid]]
    if order.private:
        cost //= 2
        g["privates"]["W"]["closed"] = True
    _pay(g, cid, "bank", cost)
    g["stations"].setdefault(order.hex, []).append(cid)
    g["stations_used"][cid] += 1
    g["round"]["station"] = True
    g["log"].append({"event": "station", "company": cid, "hex": order.hex, "cost": cost})
    _set_step(data, g, cid, "run")


# --- Running trains -----------------------------------------------------------------------------------

def company_trains(data: GameData, g: JSON, cid: str) -> list[Train]:
    """The trains of ``cid``."""
    return [data.train(t) for t in g["trains"][cid]]


def _run(data: GameData, g: JSON, cid: str, order: Run | RunBest) -> None:
    r = g["round"]
    if not g["trains"][cid]:
        raise Refusal("p47_no_trains", company=cid)
    _set_step(data, g, cid, "run")
    if r["step"] != "run":
        raise Refusal("p47_step_over", step=r["step"])
    trains = company_trains(data, g, cid)
    b = board(data, g)
    colour = colour_index(data, g)
    if isinstance(order, RunBest):
        total, picks = routes.best(b, cid, trains, colour)
        r["run"] = [{"train": t.name, "slot": i, "stops": [list(s) for s in p.stops],
                     "paths": sorted([list(x) for x in p.paths]), "revenue": p.revenue}
                    for i, (t, p) in enumerate(zip(trains, picks)) if p is not None]
        return
    given = [entry for entry in r["run"]]
    free = [i for i, t in enumerate(trains) if t.name == order.train]
    taken = [e["slot"] for e in given if "slot" in e]
    slots = [i for i in free if i not in taken]
    if not free:
        raise Refusal("p47_no_such_train", train=order.train, trains=", ".join(t.name for t in trains) or "-")
    if not slots:
        raise Refusal("p47_train_ran", train=order.train)
    train = trains[slots[0]]
    used: frozenset[Any] = frozenset()
    for e in given:
        used = used | frozenset(tuple(p) for p in e["paths"])
    options = [m for m in routes.matching(b, cid, train, order.hexes, colour) if not (m.paths & used)]
    if not options:
        key, fields = routes.why_not(b, cid, train, order.hexes)
        raise Refusal("p47_bad_route", route="-".join(order.hexes), why=Refusal(key, **fields))
    pick = max(options, key=lambda m: m.revenue)
    r["run"].append({"train": train.name, "slot": slots[0], "stops": [list(s) for s in pick.stops],
                     "paths": sorted([list(p) for p in pick.paths]), "revenue": pick.revenue})


def _payout(data: GameData, g: JSON, cid: str, pay: bool) -> None:
    r = g["round"]
    if STEPS.index(r["step"]) > STEPS.index("dividend"):
        raise Refusal("p47_step_over", step=r["step"])
    if not r["run"] and g["trains"][cid]:
        _run(data, g, cid, RunBest())
    revenue = sum(int(e["revenue"]) for e in r["run"])
    g["routes"][cid] = [{"train": e["train"], "stops": e["stops"], "revenue": e["revenue"]} for e in r["run"]]
    r["step"] = "trains"
    if revenue == 0 or not pay:
        _pay(g, "bank", cid, revenue)
        g["log"].append({"event": "withheld", "company": cid, "revenue": revenue})
        _move(data, g, cid, "left")
        return
    per_share = revenue // 10
    paid = 0
    for p in g["players"]:
        tenths = percent(g, p, cid) // 10
        if tenths:
            _pay(g, "bank", p, per_share * tenths)
            paid += per_share * tenths
    market_tenths = sum(g["market"][cid]) // 10
    _pay(g, "bank", cid, per_share * market_tenths + (revenue - per_share * 10))
    g["log"].append({"event": "dividend", "company": cid, "revenue": revenue, "per_share": per_share,
                     "to_players": paid, "to_company": per_share * market_tenths})
    _move(data, g, cid, "right")


# --- Trains -------------------------------------------------------------------------------------------

def next_train(data: GameData, g: JSON) -> Train | None:
    """The train the bank sells now (None when none is left)."""
    for t in data.trains:
        if g["depot"][t.name] > 0:
            return t
    return None


def _buy_train(data: GameData, g: JSON, cid: str, order: BuyTrain) -> None:
    r = g["round"]
    if STEPS.index(r["step"]) < STEPS.index("trains"):
        if g["trains"][cid]:
            raise Refusal("p47_run_first")
        _set_step(data, g, cid, "run")
    r["step"] = "trains"
    limit = phase(data, g).limit
    if len(g["trains"][cid]) >= limit:
        raise Refusal("p47_train_limit", limit=limit)
    name = order.train
    if order.seller:
        seller = company_id(data, order.seller)
        if "trade" not in phase(data, g).flags:
            raise Refusal("p47_no_trade", phase=g["phase"])
        if seller not in g["trains"] or seller in (cid, "LFK"):
            raise Refusal("p47_no_company", company=order.seller, companies=", ".join(c.id for c in data.companies))
        if g["director"][seller] != g["director"][cid]:
            raise Refusal("p47_trade_director", seller=seller)
        if name not in g["trains"][seller]:
            raise Refusal("p47_seller_lacks", seller=seller, train=name)
        if order.price < 1 or g["cash"][cid] < order.price:
            raise Refusal("p47_no_money", need=max(order.price, 1), have=g["cash"][cid])
        g["trains"][seller].remove(name)
        g["trains"][cid].append(name)
        _pay(g, cid, seller, order.price)
        g["log"].append({"event": "train", "company": cid, "train": name, "price": order.price, "from": seller})
        return
    if name in g["pool"]:
        cost = data.train(name).price
        _pay_train(data, g, cid, cost)
        g["pool"].remove(name)
        g["trains"][cid].append(name)
        g["log"].append({"event": "train", "company": cid, "train": name, "price": cost, "from": "pool"})
        return
    offered = next_train(data, g)
    if offered is None or offered.name != name:
        raise Refusal("p47_train_not_offered", train=name, offered=offered.name if offered else "-",
                      pool=", ".join(sorted(set(g["pool"]))) or "-")
    if name in r["bought"]:
        raise Refusal("p47_one_per_type", train=name)
    _pay_train(data, g, cid, offered.price)
    g["depot"][name] -= 1
    g["trains"][cid].append(name)
    r["bought"].append(name)
    g["log"].append({"event": "train", "company": cid, "train": name, "price": offered.price, "from": "bank"})
    if not r["train_from_bank"]:
        r["train_from_bank"] = True
        if g["floated"]["LFK"]:
            owner = g["director"]["LFK"]
            if owner is not None:
                _pay(g, "bank", owner, offered.price // 10)
                g["log"].append({"event": "krauss", "to": owner, "amount": offered.price // 10})
            _move(data, g, "LFK", "right")
    if cid == "Saar" and not g["privates"]["SPR"]["closed"] and g["privates"]["SPR"]["owner"]:
        g["privates"]["SPR"]["closed"] = True
        g["log"].append({"event": "closed", "private": "SPR"})
    names = [t.name for t in data.trains]
    if names.index(name) > names.index(g["phase"]):
        _new_phase(data, g, name)


def _pay_train(data: GameData, g: JSON, cid: str, cost: int) -> None:
    """The company pays; when it must have a train and cannot, its director
    adds the rest from his own money."""
    if g["cash"][cid] >= cost:
        _pay(g, cid, "bank", cost)
        return
    if g["trains"][cid]:
        raise Refusal("p47_no_money", need=cost, have=g["cash"][cid])
    cheapest = _cheapest(data, g)
    if cheapest is None or cost > cheapest:
        raise Refusal("p47_cheapest_only", price=cheapest or 0)
    director = g["director"][operating(g) or cid]
    missing = cost - g["cash"][cid]
    if g["cash"][director] < missing:
        raise Refusal("p47_emergency", need=missing, have=g["cash"][director])
    _pay(g, cid, "bank", g["cash"][cid])
    _pay(g, director, "bank", missing)
    g["log"].append({"event": "emergency", "company": cid, "director": director, "amount": missing})


def _cheapest(data: GameData, g: JSON) -> int | None:
    prices = [data.train(t).price for t in g["pool"]]
    offered = next_train(data, g)
    if offered is not None:
        prices.append(offered.price)
    return min(prices) if prices else None


def _new_phase(data: GameData, g: JSON, name: str) -> None:
    g["phase"] = name
    g["log"].append({"event": "phase", "phase": name})
    for t in data.trains:
        if t.rusts_on == name:
            for cid in g["trains"]:
                before = len(g["trains"][cid])
                g["trains"][cid] = [x for x in g["trains"][cid] if x != t.name]
                if before != len(g["trains"][cid]):
                    g["log"].append({"event": "rusted", "company": cid, "train": t.name, "count": before - len(g["trains"][cid])})
            g["pool"] = [x for x in g["pool"] if x != t.name]
    limit = data.phase(name).limit
    for cid, owned in g["trains"].items():
        while len(owned) > limit:
            cheapest = min(owned, key=lambda x: data.train(x).price)
            owned.remove(cheapest)
            g["pool"].append(cheapest)
            g["log"].append({"event": "discarded", "company": cid, "train": cheapest})
    if "forced_exchange" in data.phase(name).flags:
        g["must_exchange"] = True
    if "close_quarries" in data.phase(name).flags:
        for p in data.privates:
            if p.closes_in and not g["privates"][p.id]["closed"] and _phase_reached(data, g, p.closes_in):
                g["privates"][p.id]["closed"] = True
                g["log"].append({"event": "closed", "private": p.id})


def _phase_reached(data: GameData, g: JSON, name: str) -> bool:
    order = [p.name for p in data.phases]
    return order.index(g["phase"]) >= order.index(name)


def _company_buys_private(data: GameData, g: JSON, cid: str, seat: str, order: CompanyBuysPrivate) -> None:
    pid = _private_id(data, order.private)
    if pid not in g["privates"] or data.private(pid).kind != "quarry":
        raise Refusal("p47_not_quarry", private=order.private)
    if "quarries" not in phase(data, g).flags:
        raise Refusal("p47_no_quarries_phase", phase=g["phase"])
    state = g["privates"][pid]
    if state["owner"] != seat or state["closed"]:
        raise Refusal("p47_not_yours", private=pid)
    low, high = data.private(pid).sale
    if not low <= order.price <= high:
        raise Refusal("p47_quarry_price", private=pid, low=low, high=high)
    if g["cash"][cid] < order.price:
        raise Refusal("p47_no_money", need=order.price, have=g["cash"][cid])
    _pay(g, cid, seat, order.price)
    state["owner"] = cid
    g["log"].append({"event": "company_bought_private", "company": cid, "private": pid, "price": order.price})


def _in_emergency(data: GameData, g: JSON, cid: str) -> bool:
    if g["trains"][cid] or g["round"]["step"] != "trains":
        return False
    cheapest = _cheapest(data, g)
    return cheapest is not None and g["cash"][cid] + g["cash"][g["director"][cid]] < cheapest


def _finish_turn(data: GameData, g: JSON, cid: str) -> None:
    """End ``cid``'s operating turn; a company without a train must buy
    one (the director helps, selling shares if he must; bankrupt if even
    that is not enough)."""
    if not g["trains"][cid]:
        cheapest = _cheapest(data, g)
        if cheapest is not None:
            director = g["director"][cid]
            if g["cash"][cid] + g["cash"][director] < cheapest:
                _emergency_sales(data, g, director, cid, cheapest - g["cash"][cid])
            if g["over"]:
                return
            offered = next_train(data, g)
            name = min(list(g["pool"]) + ([offered.name] if offered else []), key=lambda x: data.train(x).price)
            _buy_train(data, g, cid, BuyTrain(name))
    _end_company(data, g)


def _emergency_sales(data: GameData, g: JSON, director: str, cid: str, need: int) -> None:
    """Sell the director's shares (cheapest companies first, never the
    director's certificate of ``cid``) until he has ``need``; bankrupt
    otherwise: the game ends at once."""
    while g["cash"][director] < need:
        sold = False
        for company in sorted(data.companies, key=lambda c: (price(data, g, c.id), c.id)):
            other = company.id
            if percent(g, director, other) == 0 or (other == cid and not g["certs"][director].get(other)):
                continue
            try:
                _sell(data, g, director, Sell(1, other), emergency=True)
                sold = True
                break
            except Refusal:
                continue
        if not sold:
            g["log"].append({"event": "bankrupt", "seat": director, "company": cid})
            _finish(data, g, "bankruptcy")
            return


# --- Legal orders ----------------------------------------------------------------------------------------

def legal_orders(data: GameData, g: JSON, limit_lays: int = 400) -> list[Order]:
    """Every order the seat on turn may give now (tile lays: up to
    ``limit_lays`` of them), each one checked with ``apply``."""
    if g["over"]:
        return []
    seat = actor(data, g)
    assert seat is not None
    legal = []
    for order in candidate_orders(data, g, limit_lays):
        try:
            apply(data, g, seat, order)
        except Refusal:
            continue
        legal.append(order)
    return legal


def candidate_orders(data: GameData, g: JSON, limit_lays: int = 400) -> list[Order]:
    """The orders worth trying now (a superset of the legal ones; tile
    lays are already checked)."""
    seat = actor(data, g)
    assert seat is not None
    r = g["round"]
    candidates: list[Order] = [Pass()]
    cash = g["cash"][seat]
    if r["kind"] == "draft":
        candidates += [BuyPrivate(p) for p in packet(data, g) if data.private(p).price <= cash]
    elif r["kind"] == "SR":
        for c in data.companies:
            cid = c.id
            if _started(g, cid) and g["ipo"][cid]:
                candidates.append(BuyShare(cid, "IPO"))
            if g["market"][cid]:
                candidates.append(BuyShare(cid, "MARKET"))
            if not _started(g, cid) and 2 * c.par <= cash:
                candidates.append(Par(cid, c.par))
            held = percent(g, seat, cid) // 10
            if g["floated"][cid] and held:
                candidates += [Sell(n, cid) for n in range(1, held + 1)] if cid != "LFK" else [Sell(1, "LFK")]
            if held >= 7:
                candidates += [Nationalize(cid, p) for p in g["players"] if p != seat]
        candidates += [Exchange(p.id) for p in data.privates
                       if p.kind == "investor" and g["privates"][p.id]["owner"] == seat]
    else:
        cid = r["order"][r["index"]]
        candidates.append(Done())
        if r["step"] == "track":
            candidates += lay_options(data, g, cid, limit_lays)
        if STEPS.index(r["step"]) <= STEPS.index("station") and not r["station"]:
            b = board(data, g)
            for at in data.hexes:
                index = b.city_node(at)
                if index is not None and len(g["stations"].get(at, [])) < b.node((at, index)).slots:
                    candidates.append(Station(at))
                    if g["privates"]["W"]["owner"] == cid:
                        candidates.append(Station(at, "W"))
        if STEPS.index(r["step"]) <= STEPS.index("run") and g["trains"][cid]:
            candidates.append(RunBest())
        if STEPS.index(r["step"]) <= STEPS.index("dividend"):
            candidates += [Payout(True), Payout(False)]
        offered = next_train(data, g)
        candidates += [BuyTrain(n) for n in sorted(set(g["pool"]) | ({offered.name} if offered else set()))]
        for other in data.companies:
            if other.id != cid and g["director"][other.id] == seat:
                for n in set(g["trains"][other.id]):
                    candidates.append(BuyTrain(n, other.id, 1))
                    candidates.append(BuyTrain(n, other.id, data.train(n).price))
        for p in data.privates:
            if p.kind == "quarry" and g["privates"][p.id]["owner"] == seat:
                candidates.append(CompanyBuysPrivate(p.id, p.sale[0]))
                candidates.append(CompanyBuysPrivate(p.id, p.sale[1]))
        if _in_emergency(data, g, cid):
            candidates += [Sell(1, c.id) for c in data.companies]
    return candidates


def lay_options(data: GameData, g: JSON, cid: str, limit: int = 400) -> list[Lay]:
    """Tile lays ``cid`` may make now (at most ``limit``)."""
    found: list[Lay] = []
    b, sides = _sides(data, g, cid)
    quarries = [""] + [q for q in ("K", "H") if g["privates"][q]["owner"] == cid and not g["privates"][q]["closed"]]
    for at, printed in sorted(data.hexes.items()):
        if printed.colour in ("gray", "red"):
            continue
        touched = cid in g["stations"].get(at, []) or any(points_into(sides, at, s) for s in range(6))
        if not touched:
            continue
        for tile in data.tile_counts:
            for rotation in range(6):
                for private in quarries:
                    order = Lay(tile, at, rotation, private)
                    if lay_problem(data, g, cid, order, (b, sides)) is None:
                        found.append(order)
                        if len(found) >= limit:
                            return found
    return found
