"""Trains of 1847 AE: buying from the bank, the pool and other
companies, the director's help, phases with rusting and train limits,
companies buying quarries."""

from __future__ import annotations

from adjudicator.games.pfalz1847.data import GameData
from adjudicator.games.pfalz1847.orders import BuyTrain, CompanyBuysPrivate
from adjudicator.games.pfalz1847.position import (
    Refusal, phase, price, operating, _pay, _move, _private_id, company_id, next_train, _cheapest,
    _phase_reached, JSON, STEPS,
)
from adjudicator.games.pfalz1847 import asks, operate


def _buy_train(data: GameData, g: JSON, cid: str, order: BuyTrain) -> None:
    r = g["round"]
    if STEPS.index(r["step"]) < STEPS.index("trains"):
        if g["trains"][cid]:
            raise Refusal("p47_run_first")
        operate._set_step(data, g, cid, "run")
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
        _trade_check(data, g, cid, seller, name, order.price)
        director, other = g["director"][cid], g["director"][seller]
        if other is None:
            raise Refusal("p47_trade_director", seller=seller)
        if other == director:
            trade_train(data, g, cid, seller, name, order.price)
        else:
            asks.offer(g, "train", cid, name, seller, order.price, other, director)
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


def _trade_check(data: GameData, g: JSON, cid: str, seller: str, name: str, price_: int) -> int:
    """Check that ``cid`` may buy ``name`` from ``seller`` for ``price_``;
    returns what its director adds from his own money (ruling 35: only a
    company in need, up to the train's face value)."""
    if name not in g["trains"][seller]:
        raise Refusal("p47_seller_lacks", seller=seller, train=name)
    if len(g["trains"][cid]) >= phase(data, g).limit:
        raise Refusal("p47_train_limit", limit=phase(data, g).limit)
    if price_ < 1:
        raise Refusal("p47_no_money", need=1, have=g["cash"][cid])
    if g["cash"][cid] >= price_:
        return 0
    cheapest = _cheapest(data, g)
    if g["trains"][cid] or (cheapest is not None and g["cash"][cid] >= cheapest):
        raise Refusal("p47_no_money", need=price_, have=g["cash"][cid])
    face = data.train(name).price
    if price_ > face:
        raise Refusal("p47_face_value_only", train=name, price=face)
    missing = price_ - int(g["cash"][cid])
    director = g["director"][cid]
    if g["cash"][director] < missing:
        raise Refusal("p47_emergency", need=missing, have=g["cash"][director])
    return missing


def trade_train(data: GameData, g: JSON, cid: str, seller: str, name: str, price_: int) -> None:
    """``cid`` buys a ``name`` train from the company ``seller`` for
    ``price_`` (both directors agreed), a company in need with its
    director's help; raises ``Refusal`` when that is no longer possible."""
    missing = _trade_check(data, g, cid, seller, name, price_)
    g["trains"][seller].remove(name)
    g["trains"][cid].append(name)
    _pay(g, cid, seller, price_ - missing)
    if missing:
        director = g["director"][cid]
        _pay(g, director, seller, missing)
        g["log"].append({"event": "emergency", "company": cid, "director": director, "amount": missing})
    g["log"].append({"event": "train", "company": cid, "train": name, "price": price_, "from": seller})


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
    for company in data.companies:
        if len(g["trains"][company.id]) > limit:
            asks.discard_choice(data, g, company.id, limit)
    if "forced_exchange" in data.phase(name).flags:
        g["must_exchange"] = True
    if "close_quarries" in data.phase(name).flags:
        for p in data.privates:
            if p.closes_in and not g["privates"][p.id]["closed"] and _phase_reached(data, g, p.closes_in):
                g["privates"][p.id]["closed"] = True
                g["log"].append({"event": "closed", "private": p.id})


def _company_buys_private(data: GameData, g: JSON, cid: str, seat: str, order: CompanyBuysPrivate) -> None:
    pid = _private_id(data, order.private)
    if pid not in g["privates"] or data.private(pid).kind != "quarry":
        raise Refusal("p47_not_quarry", private=order.private)
    if "quarries" not in phase(data, g).flags:
        raise Refusal("p47_no_quarries_phase", phase=g["phase"])
    state = g["privates"][pid]
    owner = state["owner"]
    if owner not in g["players"] or state["closed"]:
        raise Refusal("p47_not_a_players", private=pid)
    low, high = data.private(pid).sale
    if not low <= order.price <= high:
        raise Refusal("p47_quarry_price", private=pid, low=low, high=high)
    if g["cash"][cid] < order.price:
        raise Refusal("p47_no_money", need=order.price, have=g["cash"][cid])
    if owner == seat:
        sell_quarry(data, g, cid, seat, pid, order.price)
    else:
        asks.offer(g, "private", cid, pid, owner, order.price, owner, seat)


def sell_quarry(data: GameData, g: JSON, cid: str, seller: str, pid: str, price_: int) -> None:
    """The player ``seller`` sells the quarry ``pid`` to ``cid`` for
    ``price_``; raises ``Refusal`` when that is no longer possible."""
    state = g["privates"][pid]
    if state["owner"] != seller or state["closed"]:
        raise Refusal("p47_not_a_players", private=pid)
    if g["cash"][cid] < price_:
        raise Refusal("p47_no_money", need=price_, have=g["cash"][cid])
    _pay(g, cid, seller, price_)
    state["owner"] = cid
    g["log"].append({"event": "company_bought_private", "company": cid, "private": pid, "price": price_,
                     "seller": seller})
