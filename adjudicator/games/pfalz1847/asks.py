"""Questions of 1847 AE that another seat than the one on turn answers:
an offer to buy a train from a company of another director or a quarry
from another player (``ACCEPT``/``DECLINE``), and the choice of the trains
a company gives up over a new train limit (``DISCARD``).

Open questions are the list ``g["asks"]``; while it is not empty the seat
named by its first entry is on turn (``position.actor``), and play goes on
where it stopped once every question is answered.  Each question has a
default for the deadline (``default_order``): an offer is declined, the
cheapest train is given up.
"""

from __future__ import annotations

from adjudicator.games.pfalz1847.data import GameData
from adjudicator.games.pfalz1847.orders import Accept, Decline, Discard, Order
from adjudicator.games.pfalz1847.position import JSON, Refusal


def pending(g: JSON) -> JSON | None:
    """The question to be answered now (None: none is open)."""
    asks = g.get("asks") or []
    return asks[0] if asks else None


def offer(g: JSON, kind: str, company: str, item: str, seller: str, price: int, to: str, by: str) -> None:
    """Put an offer of ``company`` (directed by ``by``) to ``to``: ``item``
    (a train type or a quarry) of ``seller`` for ``price``."""
    g.setdefault("asks", []).append({"kind": "offer", "what": kind, "company": company, "item": item,
                                     "seller": seller, "price": price, "to": to, "by": by})
    g["log"].append({"event": "offer", "company": company, "item": item, "seller": seller, "price": price,
                     "to": to})


def discard_choice(data: GameData, g: JSON, cid: str, limit: int) -> None:
    """``cid`` is over ``limit``: give up trains at once when they are all of
    one type, otherwise ask its director which."""
    owned = g["trains"][cid]
    director = g["director"][cid]
    while len(owned) > limit and (len(set(owned)) == 1 or director is None):
        _give_up(data, g, cid, min(owned, key=lambda x: (data.train(x).price, x)))
    if len(owned) > limit:
        g.setdefault("asks", []).append({"kind": "discard", "company": cid, "to": director,
                                         "count": len(owned) - limit})


def default_order(data: GameData, g: JSON) -> Order | None:
    """What the judge orders for the seat asked when its deadline passes:
    ``DECLINE`` an offer, ``DISCARD`` the cheapest train."""
    ask = pending(g)
    if ask is None:
        return None
    if ask["kind"] == "offer":
        return Decline()
    return Discard(min(g["trains"][ask["company"]], key=lambda x: (data.train(x).price, x)))


def answers(data: GameData, g: JSON) -> list[Order]:
    """The orders that answer the open question."""
    ask = pending(g)
    if ask is None:
        return []
    if ask["kind"] == "offer":
        return [Accept(), Decline()]
    return [Discard(name) for name in sorted(set(g["trains"][ask["company"]]), key=lambda x: (data.train(x).price, x))]


def answer(data: GameData, g: JSON, seat: str, order: Order) -> None:
    """Carry out ``seat``'s answer to the open question; raises ``Refusal``
    for any other order."""
    from adjudicator.games.pfalz1847 import trains

    ask = pending(g)
    assert ask is not None
    if ask["kind"] == "offer":
        if not isinstance(order, (Accept, Decline)):
            raise Refusal("p47_answer_offer", company=ask["company"], item=ask["item"], seller=ask["seller"],
                          price=ask["price"])
        g["asks"].pop(0)
        if isinstance(order, Decline):
            g["log"].append({"event": "declined", "seat": seat, "company": ask["company"], "item": ask["item"]})
            return
        if ask["what"] == "train":
            trains.trade_train(data, g, ask["company"], ask["seller"], ask["item"], ask["price"])
        else:
            trains.sell_quarry(data, g, ask["company"], ask["seller"], ask["item"], ask["price"])
        return
    owned = g["trains"][ask["company"]]
    if not isinstance(order, Discard):
        raise Refusal("p47_answer_discard", company=ask["company"], count=ask["count"], trains=" ".join(owned))
    if order.train not in owned:
        raise Refusal("p47_no_such_train", train=order.train, trains=" ".join(owned))
    _give_up(data, g, ask["company"], order.train)
    ask["count"] -= 1
    while ask["count"] and len(set(owned)) == 1:              # no choice left
        _give_up(data, g, ask["company"], owned[0])
        ask["count"] -= 1
    if ask["count"] == 0:
        g["asks"].pop(0)


def _give_up(data: GameData, g: JSON, cid: str, name: str) -> None:
    g["trains"][cid].remove(name)
    g["pool"].append(name)
    g["log"].append({"event": "discarded", "company": cid, "train": name})
