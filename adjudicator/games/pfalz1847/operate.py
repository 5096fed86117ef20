"""Operating rounds of 1847 AE: private incomes, the operating order,
each company's steps (track, station, run, dividend, trains), the end of
an operating round and of the game."""

from __future__ import annotations

from typing import Any

from adjudicator.games.pfalz1847 import market, routes
from adjudicator.games.pfalz1847.data import GameData
from adjudicator.games.pfalz1847.orders import (
    BuyTrain, CompanyBuysPrivate, Done, Lay, Order, Pass, Payout, Run, RunBest, Sell, Station,
)
from adjudicator.games.pfalz1847.position import (
    Refusal, board, phase, colour_index, percent, price, operating, _pay, _move, score, company_trains,
    next_train, _cheapest, company_id, JSON, STEPS,
)
from adjudicator.games.pfalz1847 import stock, track, trains


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
                stock._do_exchange(data, g, p.id)
        g["must_exchange"] = False


def _finish(data: GameData, g: JSON, why: str) -> None:
    g["over"] = True
    scores = {p: score(data, g, p) for p in g["players"]}
    g["result"] = {"why": why, "scores": scores}
    g["log"].append({"event": "game_over", "why": why, "scores": scores})


def _operate(data: GameData, g: JSON, seat: str, order: Order) -> None:
    r = g["round"]
    cid = r["order"][r["index"]]
    if isinstance(order, Lay):
        track._lay(data, g, cid, order)
    elif isinstance(order, Station):
        track._station(data, g, cid, order)
    elif isinstance(order, (Run, RunBest)):
        _run(data, g, cid, order)
    elif isinstance(order, Payout):
        _payout(data, g, cid, order.pay)
    elif isinstance(order, BuyTrain):
        trains._buy_train(data, g, cid, order)
    elif isinstance(order, CompanyBuysPrivate):
        trains._company_buys_private(data, g, cid, seat, order)
    elif isinstance(order, Sell):
        if not _in_emergency(data, g, cid):
            raise Refusal("p47_sell_in_or")
        need = (_cheapest(data, g) or 0) - g["cash"][cid] - g["cash"][seat]
        sold = company_id(data, order.company)
        if order.count > 1 and sold in g["price"] and (order.count - 1) * price(data, g, sold) >= need:
            raise Refusal("p47_sell_too_much", need=need)
        r["sold_now"] = []
        stock._sell(data, g, seat, order, emergency=True)
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
            trains._buy_train(data, g, cid, BuyTrain(name))
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
                stock._sell(data, g, director, Sell(1, other), emergency=True)
                sold = True
                break
            except Refusal:
                continue
        if not sold:
            g["log"].append({"event": "bankrupt", "seat": director, "company": cid})
            _finish(data, g, "bankruptcy")
            return
