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

from adjudicator.games.pfalz1847 import market, routes
from adjudicator.games.pfalz1847.data import GameData
from adjudicator.games.pfalz1847.orders import (
    BuyPrivate, BuyShare, BuyTrain, CompanyBuysPrivate, Done, Exchange, Lay, Nationalize, Order, Par, Pass,
    Payout, RunBest, Sell, Station, Undo,
)
from adjudicator.games.pfalz1847.position import (
    Refusal, _clone, seats, board, phase, colour_index, percent, cert_count, sold_percent, _started, price,
    money_total, actor, operating, round_label, packet, _place, company_id, score, company_trains, next_train,
    JSON, STEPS,
)
from adjudicator.games.pfalz1847 import asks, operate, stock, track
from adjudicator.games.pfalz1847.operate import _operating_order
from adjudicator.games.pfalz1847.track import lay_options, lay_problem, station_problem

__all__ = [
    "JSON", "STEPS", "Refusal", "Lay", "Station", "seats", "new_game", "apply", "legal_orders", "candidate_orders",
    "board", "phase", "colour_index", "percent", "cert_count", "sold_percent", "price", "money_total", "actor",
    "operating", "round_label", "packet", "company_id", "score", "company_trains", "next_train", "lay_options",
    "lay_problem", "station_problem", "_operating_order", "_started", "default_order",
]


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
        "asks": [],
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
    if asks.pending(new):
        asks.answer(data, new, seat, order)
    elif kind == "draft":
        stock._draft(data, new, seat, order)
    elif kind == "SR":
        stock._stock(data, new, seat, order)
    else:
        operate._operate(data, new, seat, order)
    events = new["log"]
    new["log"] = g["log"] + [{"seat": seat, "order": str(order), "events": events}]
    return new


def default_order(data: GameData, g: JSON) -> Order | None:
    """The order the judge gives for the seat on turn at its deadline: the
    answer to an open question by its default (``asks.default_order``),
    ``DONE`` in an operating turn, ``PASS`` otherwise; None when over."""
    if g["over"]:
        return None
    answer = asks.default_order(data, g)
    if answer is not None:
        return answer
    return Done() if g["round"]["kind"] == "OR" else Pass()


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
    if asks.pending(g):
        return asks.answers(data, g)
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
            candidates += track.lay_options(data, g, cid, limit_lays)
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
            if other.id != cid and g["director"][other.id] is not None:
                for n in sorted(set(g["trains"][other.id])):
                    candidates.append(BuyTrain(n, other.id, 1))
                    candidates.append(BuyTrain(n, other.id, data.train(n).price))
        for p in data.privates:
            if p.kind == "quarry" and g["privates"][p.id]["owner"] in g["players"]:
                candidates.append(CompanyBuysPrivate(p.id, p.sale[0]))
                candidates.append(CompanyBuysPrivate(p.id, p.sale[1]))
        if operate._in_emergency(data, g, cid):
            candidates += [Sell(n, c.id) for c in data.companies
                           for n in range(1, max(1, percent(g, seat, c.id) // 10) + 1)]
    return candidates
