"""The start packet and the stock rounds of 1847 AE: buying packet items,
shares from the IPO and the market, starting companies, selling,
investor exchanges and nationalisation."""

from __future__ import annotations

import math

from adjudicator.games.pfalz1847 import market
from adjudicator.games.pfalz1847.data import GameData
from adjudicator.games.pfalz1847.orders import BuyPrivate, BuyShare, Exchange, Nationalize, Order, Par, Pass, Sell
from adjudicator.games.pfalz1847.position import (
    Refusal, phase, percent, cert_count, _started, price, operating, packet, _pay, _place, _move, _take,
    _remove, _check_director, _float_check, _private_id, company_id, _hand_over, JSON,
)
from adjudicator.games.pfalz1847 import operate


def _draft(data: GameData, g: JSON, seat: str, order: Order) -> None:
    r = g["round"]
    if isinstance(order, Pass):
        r["passes"] += 1
        r["turn"] += 1
        if r["passes"] >= len(g["players"]):
            operate._start_ors(data, g, short=True)
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
    operate._start_ors(data, g, short=False)


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
        if not emergency and sum(g["market"][cid]) + units * 10 > data.market_limit:
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
