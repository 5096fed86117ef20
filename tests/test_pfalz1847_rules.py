"""The rules and rulings of 1847 AE (docs/games/1847ae.md), each as a
position, the orders and the expected outcome.  Positions later in the
game are the seed's example position with the named facts set; money is
checked after every order (``Table``)."""

from __future__ import annotations

import copy
from typing import Any

from adjudicator.games.pfalz1847 import asks, engine, routes
from adjudicator.games.pfalz1847.board import board_of
from adjudicator.games.registry import game_module
from tests.pfalz1847_helpers import DATA, EXAMPLE_SR1, Table

OR1 = [("S1", "LAY 58 G17 ROT 1"), ("S1", "LAY 57 G19 ROT 2"), ("S1", "STATION G15"), ("S1", "BUY TRAIN 3"),
       ("S1", "PASS")]
SR2 = [("S4", "PASS"), ("S1", "BUY L IPO"), ("S2", "PASS"), ("S3", "PASS"), ("S4", "PASS"), ("S1", "PASS")]


def example(upto: str = "OR1") -> Table:
    """The example position: at the start of OR1, of SR2, of OR2 or SR3."""
    t = Table(4).script(EXAMPLE_SR1)
    if upto == "OR1":
        return t
    t.script(OR1)
    if upto == "SR2":
        return t
    t.script(SR2)
    if upto == "OR2":
        return t
    return t.script([("S1", "PASS"), ("S1", "PASS"), ("S1", "RUN 3: F18-G17-G15"), ("S1", "DIVIDEND"),
                     ("S1", "BUY TRAIN 3"), ("S1", "PASS")])


def edited(t: Table, **changes: Any) -> Table:
    """A copy of ``t``'s position with top-level entries replaced (money
    checks start again from the edited position)."""
    g = copy.deepcopy(t.g)
    g.update(changes)
    return Table(g=g)


def give(t: Table, seat: str, amount: int) -> Table:
    """``seat`` gets ``amount`` from the bank (a test's endowment)."""
    g = copy.deepcopy(t.g)
    g["cash"][seat] += amount
    g["bank"] -= amount
    return Table(g=g)


def test_ruling_1_player_counts_by_variant() -> None:
    assert len(game_module("1847ae").powers()) == 3 and len(game_module("1847ae-4").powers()) == 4
    assert len(game_module("1847ae-5").powers()) == 5
    for players, money in ((3, 500), (4, 390), (5, 320)):
        t = Table(players)
        assert all(t.cash(p) == money for p in t.g["players"])
        assert t.g["bank"] == 8000 - players * money
        assert DATA.cert_limit[players] == {3: 16, 4: 12, 5: 9}[players]


def test_ruling_2_first_round_order() -> None:
    t = Table(4)
    seen = []
    for seat, line in EXAMPLE_SR1[:8]:
        seen.append(t.seat)
        t.do(seat, line)
    assert seen == ["S4", "S3", "S2", "S1", "S1", "S2", "S3", "S4"]
    assert t.seat == "S1"


def test_ruling_3_first_round_continues_after_the_packet() -> None:
    t = Table(4).script(EXAMPLE_SR1[:11])
    assert engine.packet(DATA, t.g) == [] and t.g["round"]["kind"] == "SR" and t.seat == "S4"
    assert t.refused("S4", "SELL 1 L").key == "p47_no_sales_first"
    t = give(t, "S4", 100)
    cash = t.cash("S4")
    t.do("S4", "BUY L IPO")
    assert t.cash("L") == 430 + 86 and t.cash("S4") == cash - 86


def test_ruling_4_short_operating_round() -> None:
    t = Table(3).script([("S3", "BUY K"), ("S2", "BUY W"), ("S1", "BUY H"), ("S1", "PASS"), ("S2", "PASS")])
    before = {p: t.cash(p) for p in ("S1", "S2", "S3")}
    t.do("S3", "PASS")                                       # everybody passed: a short operating round
    assert t.cash("S3") == before["S3"] + 5 and t.cash("S2") == before["S2"] + 10 and t.cash("S1") == before["S1"] + 15
    assert t.g["round"]["kind"] == "draft" and t.seat == "S1"
    assert "PLP" in engine.packet(DATA, t.g)


def test_ruling_5_float_pays_the_sold_shares() -> None:
    t = Table(4).script(EXAMPLE_SR1[:10])
    bank = t.g["bank"]
    assert t.cash("L") == 0
    t.do("S3", "BUY H")
    assert t.cash("L") == 430 and t.g["bank"] == bank + 160 - 430
    # Saar: director 20% + two investor shares count; one more 10% floats it
    t = give(example("SR2"), "S4", 100)
    bank = t.g["bank"]
    t.do("S4", "BUY SAAR IPO")
    assert t.g["floated"]["Saar"] and t.cash("Saar") == 5 * 84
    assert t.g["bank"] == bank + 84 - 5 * 84
    assert t.g["stations"]["H6"] == ["Saar"]


def test_ruling_6_packet_directors() -> None:
    t = give(example("SR2"), "S4", 500)
    assert t.refused("S4", "PAR L 86").key == "p47_started"
    assert t.refused("S4", "PAR SAAR 84").key == "p47_started"
    g = copy.deepcopy(Table(4).g)
    g["round"]["kind"] = "SR"
    g["round"]["number"] = 2
    g["round"]["start"] = 0
    fresh = Table(g=g)
    assert fresh.refused("S1", "PAR L 86").key == "p47_packet_director"


def test_ruling_7_start_conditions_and_par() -> None:
    t = give(example("SR2"), "S4", 500)
    assert t.refused("S4", "PAR HLB 80").key == "p47_after"
    assert t.refused("S4", "PAR NDB 74").key == "p47_after"
    g = copy.deepcopy(t.g)
    g["floated"]["Saar"] = True
    t = Table(g=g)
    assert t.refused("S4", "PAR HLB 79").key == "p47_par_price"
    cash = t.cash("S4")
    t.do("S4", "PAR HLB 80")
    assert t.cash("S4") == cash - 160 and t.price("HLB") == 80 and t.g["director"]["HLB"] == "S4"


def test_ruling_8_ipo_certificates_in_order() -> None:
    t = give(example("SR2"), "S4", 1000)
    g = copy.deepcopy(t.g)
    g["floated"]["HLB"] = True
    t = Table(g=g)
    cash = t.cash("S4")
    t.do("S4", "PAR NDB 74")
    assert t.cash("S4") == cash - 148
    t.script([("S1", "PASS"), ("S2", "PASS"), ("S3", "PASS")])
    t.do("S4", "BUY NDB IPO")                                # the second certificate is a double
    assert t.g["certs"]["S4"]["NDB"] == [20] and t.cash("S4") == cash - 148 - 148
    assert not t.g["floated"]["NDB"]                         # 40% sold
    t.script([("S1", "PASS"), ("S2", "PASS"), ("S3", "PASS")])
    t.do("S4", "BUY NDB IPO")                                # then the single ones
    assert t.g["certs"]["S4"]["NDB"] == [20, 10] and t.g["floated"]["NDB"] and t.cash("NDB") == 5 * 74
    g = copy.deepcopy(t.g)
    g["ipo"]["NDB"] = [20]
    t = Table(g=g)
    t.script([("S1", "PASS"), ("S2", "PASS"), ("S3", "PASS")])
    cash = t.cash("S4")
    t.do("S4", "BUY NDB IPO")                                # the last one is a double again
    assert t.cash("S4") == cash - 148 and t.cash("NDB") == 5 * 74 + 148


def test_ruling_9_selling() -> None:
    t = example("SR3")
    assert t.seat == "S2" and t.price("L") == 86
    cash = t.cash("S2")
    t.do("S2", "SELL 1 L")
    assert t.cash("S2") == cash + 86 and t.price("L") == 84          # one row down
    assert t.refused("S2", "BUY L MARKET").key == "p47_sold_this_round"
    t.do("S2", "PASS")
    t.script([("S3", "PASS"), ("S4", "PASS")])
    cash = t.cash("S1")
    t.do("S1", "SELL 2 L")                                           # two shares, one row
    assert t.cash("S1") == cash + 2 * 84 and t.price("L") == 80
    assert t.g["director"]["L"] == "S1" and engine.percent(t.g, "S1", "L") == 20
    assert t.refused("S1", "SELL 1 L").key == "p47_director_stays"   # nobody else holds 20%
    assert sum(t.g["market"]["L"]) == 30


def test_ruling_10_sold_out_rises() -> None:
    t = example("SR3")
    g = copy.deepcopy(t.g)
    g["certs"]["S2"]["L"] = g["certs"]["S2"]["L"] + g["ipo"]["L"]
    g["ipo"]["L"] = []
    g["price"]["L"] = [3, 2]
    g["floated"]["Saar"] = True
    g["ipo"]["Saar"] = []
    g["price"]["Saar"] = [3, 2]
    lfk = list(g["price"]["LFK"])
    t = Table(g=g)
    t.script([("S2", "PASS"), ("S3", "PASS"), ("S4", "PASS"), ("S1", "PASS")])
    assert t.price("L") == 92                                        # 88 -> one row up
    assert t.price("Saar") == 88                                     # investor shares still at the bank
    assert t.g["price"]["LFK"] == lfk                                # LFK never rises


def test_ruling_11_next_stock_round_start() -> None:
    assert example("SR2").seat == "S4"                               # after S3, the last buyer of SR1
    assert example("SR3").seat == "S2"                               # after S1, the last buyer of SR2


def test_ruling_12_operating_order() -> None:
    t = example("SR2")
    g = copy.deepcopy(t.g)
    g["floated"]["Saar"] = True
    g["price"]["Saar"] = [2, 3]                                      # 100 > 86
    assert engine._operating_order(DATA, g) == ["Saar", "L"]
    g["price"]["Saar"] = [4, 2]                                      # 86 as well, further right
    assert engine._operating_order(DATA, g) == ["Saar", "L"]
    g["price"]["Saar"] = [2, 1]                                      # the same space, arrived later
    g["price"]["L"] = [2, 1]
    g["seq"]["Saar"] = g["seq"]["L"] + 1
    assert engine._operating_order(DATA, g) == ["L", "Saar"]


def test_ruling_13_tile_lays() -> None:
    t = example("OR1")
    assert t.refused("S1", "LAY 7 C5 ROT 0").key == "p47_state"      # Prussian hex in phase 3
    t.script(OR1[:2])
    assert t.g["round"]["step"] == "station"                         # two yellow: the track step is over
    t = example("OR1")
    assert t.refused("S1", "LAY 207 F18 ROT 5").key == "p47_colour"  # no green in phase 3
    g = copy.deepcopy(t.g)
    g["phase"] = "4"
    four = Table(g=g)                                                # the L's first operation: two lays
    four.do("S1", "LAY 58 G17 ROT 1")
    four.do("S1", "LAY 207 F18 ROT 5")                               # one upgrade
    assert four.cash("L") == 430 - 40
    g = copy.deepcopy(t.g)
    g["phase"] = "4"
    g["operated"]["L"] = True
    later = Table(g=g)
    later.do("S1", "LAY 58 G17 ROT 1")
    assert later.g["round"]["step"] == "station"                     # one tile only
    g["operated"]["L"] = False
    first = Table(g=g)
    first.do("S1", "LAY 207 F18 ROT 5")                              # an upgrade and a yellow tile
    first.do("S1", "LAY 6 G19 ROT 2")
    assert first.g["round"]["step"] == "station"


def test_ruling_14_terrain_costs_once() -> None:
    t = example("OR1")
    t.do("S1", "LAY 57 G19 ROT 2")
    assert t.cash("L") == 430 - 80
    g = copy.deepcopy(t.g)
    g["phase"] = "4"
    g["round"]["lays"] = []
    g["operated"]["L"] = True
    t = Table(g=g)
    assert t.refused("S1", "LAY 14 G19 ROT 2").key == "p47_off_map"   # side 3: the Rhine border
    t.do("S1", "LAY 14 G19 ROT 1")
    assert t.g["tiles"]["G19"] == ["14", 1]
    assert t.cash("L") == 430 - 80                                   # no second river cost
    k = example("OR1")
    g = copy.deepcopy(k.g)
    g["privates"]["K"]["owner"] = "L"
    g["stations"]["G15"] = ["L"]
    k = Table(g=g)
    k.do("S1", "LAY 55 F14 ROT 1 WITH K")                            # free on a 40M mountain
    assert k.cash("L") == 430 and k.g["privates"]["K"]["closed"]
    assert k.g["round"]["lays"] == [] and k.g["round"]["step"] == "track"


def test_ruling_15_track_must_connect() -> None:
    t = example("OR1")
    assert t.refused("S1", "LAY 9 I9 ROT 1").key == "p47_not_connected"
    assert t.refused("S1", "LAY 8 I9 ROT 0").key == "p47_off_map"
    assert t.refused("S1", "LAY 58 G17 ROT 0").key in ("p47_not_connected", "p47_off_map")
    t.do("S1", "LAY 58 G17 ROT 1")
    g = copy.deepcopy(t.g)
    g["phase"] = "4"
    g["operated"]["L"] = True
    g["round"]["lays"] = []
    t = Table(g=g)
    assert t.refused("S1", "LAY 87 G17 ROT 2").key == "p47_keep_track"
    assert t.refused("S1", "LAY 14 G17 ROT 0").key == "p47_stops_differ"
    t.do("S1", "LAY 88 G17 ROT 0")


def test_ruling_16_routes_by_stops() -> None:
    t = example("OR2")
    t.script([("S1", "PASS"), ("S1", "PASS")])
    assert t.refused("S1", "RUN 3: F18-G15").key == "p47_bad_route"
    assert t.refused("S1", "RUN 3: G19-F18-G17-G15").key == "p47_bad_route"   # four stops
    assert t.refused("S1", "RUN 4: F18-G17").key == "p47_no_such_train"
    reverse = Table(g=copy.deepcopy(t.g))
    reverse.do("S1", "RUN 3: G15-G17-F18")
    assert reverse.g["round"]["run"][0]["revenue"] == 70
    t.do("S1", "DIVIDEND")                                           # no RUN: the best routes
    assert t.g["routes"]["L"][0]["revenue"] == 70 and t.cash("S1") == 45


def _to_stuttgart() -> Table:
    t = example("OR1")
    t.script([("S1", "LAY 58 G17 ROT 1"), ("S1", "LAY 6 G19 ROT 2"), ("S1", "PASS"), ("S1", "BUY TRAIN 3"),
              ("S1", "PASS")])
    t.script(SR2)
    return t


def test_ruling_17_offboard_values_by_phase() -> None:
    t = _to_stuttgart()
    b = engine.board(DATA, t.g)
    three = DATA.train("3")
    found = {r.text(): r.revenue for r in routes.all_routes(b, "L", three, 0)}
    assert found["F18-G19-G21"] == 30 + 20 + 10
    assert {r.text(): r.revenue for r in routes.all_routes(b, "L", three, 1)}["F18-G19-G21"] == 30 + 20 + 20
    assert {r.text(): r.revenue for r in routes.all_routes(b, "L", three, 2)}["F18-G19-G21"] == 30 + 20 + 50
    g = copy.deepcopy(t.g)
    g["phase"] = "4"
    assert engine.colour_index(DATA, g) == 1
    g["phase"] = "5"
    assert engine.colour_index(DATA, g) == 2


def test_ruling_18_bonuses() -> None:
    b = board_of(DATA, {}, {})
    four, express = DATA.train("4"), DATA.train("6E")
    assert routes.value(b, four, [("B14", 0), ("I13", 0)], 0) == 30 + 30 + 40
    assert routes.value(b, express, [("B14", 0), ("I13", 0)], 0) == 30 + 30 + 40
    assert routes.value(b, four, [("H6", 0), ("G21", 0)], 0) == 0 + 10 + 70
    assert routes.value(b, express, [("H6", 0), ("G21", 0)], 0) == 0 + 10
    assert routes.value(b, four, [("G7", 0), ("I21", 0)], 1) == 0 + 30 + 70
    assert routes.value(b, four, [("G7", 0), ("B14", 0)], 0) == 30


def test_ruling_19_dividends() -> None:
    t = example("OR2")
    g = copy.deepcopy(t.g)
    g["certs"]["S3"]["L"] = []
    g["market"]["L"] = [10]                                          # S3's share lies in the market
    t = Table(g=g)
    s2 = t.cash("S2")
    t.script([("S1", "PASS"), ("S1", "PASS"), ("S1", "RUN 3: F18-G17-G15"), ("S1", "DIVIDEND")])
    assert t.cash("S1") == 45 and t.cash("S2") == s2 + 7
    assert t.cash("L") == 226 + 7                                     # the market share pays the company
    assert sum(t.g["ipo"]["L"]) == 40                                 # the IPO's 40% earn nothing


def test_ruling_20_no_train_moves_left() -> None:
    t = example("OR1")
    t.script(OR1[:2])
    assert t.price("L") == 86
    t.do("S1", "PASS")                                                # no station: the run step comes
    assert t.price("L") == 82 and t.g["round"]["step"] == "trains"
    assert t.refused("S1", "DIVIDEND").key == "p47_step_over"


def test_ruling_21_buying_trains() -> None:
    t = example("OR1")
    t.script(OR1[:3])
    assert t.refused("S1", "BUY TRAIN 4").key == "p47_train_not_offered"
    t.do("S1", "BUY TRAIN 3")
    assert t.refused("S1", "BUY TRAIN 3").key == "p47_one_per_type"
    g = copy.deepcopy(t.g)
    g["director"]["Saar"] = "S1"
    g["trains"]["Saar"] = ["3"]
    t = Table(g=g)
    assert t.refused("S1", "BUY TRAIN 3 FROM SAAR 1").key == "p47_no_trade"
    g["phase"] = "3+3"
    t = Table(g=g)
    t.do("S1", "BUY TRAIN 3 FROM SAAR 1")
    assert t.g["trains"]["L"] == ["3", "3"] and t.g["trains"]["Saar"] == [] and t.cash("Saar") == 1
    g["director"]["Saar"] = "S2"                                      # another director: an offer he answers
    t = Table(g=g)
    l_cash = t.cash("L")
    t.do("S1", "BUY TRAIN 3 FROM SAAR 120")
    assert t.seat == "S2" and t.g["trains"]["Saar"] == ["3"] and t.cash("L") == l_cash   # nothing moved yet
    assert t.refused("S1", "DONE").key == "p47_not_your_turn"
    assert t.refused("S2", "PASS").key == "p47_answer_offer"
    assert [str(o) for o in engine.legal_orders(DATA, t.g)] == ["ACCEPT", "DECLINE"]
    assert str(engine.default_order(DATA, t.g)) == "DECLINE"          # the deadline declines
    offered = copy.deepcopy(t.g)
    t.do("S2", "ACCEPT")
    assert t.seat == "S1" and t.g["trains"]["L"] == ["3", "3"] and t.g["trains"]["Saar"] == []
    assert t.cash("L") == l_cash - 120 and t.cash("Saar") == 120
    t = Table(g=offered).do("S2", "ABLEHNEN")
    assert t.seat == "S1" and t.g["trains"]["L"] == ["3"] and t.g["trains"]["Saar"] == ["3"]
    assert t.g["log"][-1]["events"] == [{"event": "declined", "seat": "S2", "company": "L", "item": "3"}]
    assert Table(g=g).refused("S1", "BUY TRAIN 3 FROM SAAR 1000").key == "p47_no_money"   # checked before asking
    g["director"]["Saar"] = None
    assert Table(g=g).refused("S1", "BUY TRAIN 3 FROM SAAR 1").key == "p47_trade_director"


def test_ruling_22_rust_and_limit() -> None:
    t = example("OR2")
    g = copy.deepcopy(t.g)
    g["phase"] = "3+3"
    g["depot"].update({"3": 0, "3+3": 0})
    g["trains"]["L"] = ["3", "3+3", "3+3"]
    g["cash"]["L"] += 1000
    g["bank"] -= 1000
    t = Table(g=g)
    t.script([("S1", "PASS"), ("S1", "PASS"), ("S1", "WITHHOLD")])
    t.do("S1", "BUY TRAIN 4")                                         # phase 4: limit 3
    assert t.g["phase"] == "4" and t.seat == "S1" and t.g["asks"][0]["kind"] == "discard"
    assert [str(o) for o in engine.legal_orders(DATA, t.g)] == ["DISCARD 3", "DISCARD 3+3", "DISCARD 4"]
    assert str(engine.default_order(DATA, t.g)) == "DISCARD 3"        # the deadline gives up the cheapest
    assert t.refused("S1", "DONE").key == "p47_answer_discard"
    chosen = Table(g=copy.deepcopy(t.g)).do("S1", "DISCARD 3+3")
    assert sorted(chosen.g["trains"]["L"]) == ["3", "3+3", "4"] and chosen.g["pool"] == ["3+3"]
    assert not chosen.g["asks"] and chosen.g["round"]["step"] == "trains"
    t.do("S1", "DISCARD 3")
    assert sorted(t.g["trains"]["L"]) == ["3+3", "3+3", "4"] and t.g["pool"] == ["3"]
    same = copy.deepcopy(t.g)
    same["trains"]["M"] = ["4", "4", "4"]
    same["director"]["M"] = "S2"
    asks.discard_choice(DATA, same, "M", 2)                           # all of one type: no question
    assert same["trains"]["M"] == ["4", "4"] and not same["asks"] and same["pool"] == ["3", "4"]
    g = copy.deepcopy(t.g)
    g["depot"]["4"] = 0
    g["trains"]["L"] = ["3+3", "3+3"]
    g["round"]["bought"] = []
    t = Table(g=g)
    t.do("S1", "BUY TRAIN 4+4")                                       # the 3s rust, in the pool too
    assert t.g["phase"] == "4+4" and t.g["pool"] == [] and sorted(t.g["trains"]["L"]) == ["3+3", "3+3", "4+4"]


def test_ruling_23_krauss() -> None:
    t = example("OR2")
    assert t.price("LFK") == 110 and t.g["director"]["LFK"] == "S3"
    t.script([("S1", "PASS"), ("S1", "PASS"), ("S1", "DIVIDEND")])
    cash = t.cash("S3")
    t.do("S1", "PASS")                                               # no train bought this round
    assert t.price("LFK") == 100 and t.cash("S3") == cash
    g = copy.deepcopy(example("OR1").g)
    g["director"]["LFK"] = None
    g["market"]["LFK"] = [100]
    t = Table(g=g)
    t.script(OR1[:3])
    bank = t.g["bank"]
    t.do("S1", "BUY TRAIN 3")                                        # LFK in the market: nobody is paid
    assert t.g["bank"] == bank + 150 and t.price("LFK") == 110
    t = example("SR3")                                              # LFK is listed: sold and bought at its price
    t.script([("S2", "PASS")])
    s3 = t.cash("S3")
    t.do("S3", "SELL 1 LFK")
    assert t.cash("S3") == s3 + 125 and t.g["director"]["LFK"] is None and t.price("LFK") == 112   # one row down
    price = t.price("LFK")
    t.do("S3", "PASS")
    t = give(t, "S4", 300)
    s4 = t.cash("S4")
    t.do("S4", "BUY LFK MARKET")
    assert t.g["director"]["LFK"] == "S4" and t.cash("S4") == s4 - price


def test_ruling_24_forced_train_and_bankruptcy() -> None:
    t = example("OR1")
    g = copy.deepcopy(t.g)
    g["bank"] += g["cash"]["L"] - 100
    g["cash"]["L"] = 100
    t = Table(g=g)
    s1 = t.cash("S1")
    t.do("S1", "DONE")                                               # no train: the cheapest is bought
    assert t.g["trains"]["L"] == ["3"] and t.cash("L") == 0 and t.cash("S1") == s1 - 50
    g = copy.deepcopy(example("OR1").g)
    g["bank"] += g["cash"]["L"] + g["cash"]["S1"]
    g["cash"]["L"] = 0
    g["cash"]["S1"] = 0
    t = Table(g=g)
    t.do("S1", "DONE")                                               # Weidenthal's L share is sold first
    assert t.g["over"] and t.g["result"]["why"] == "bankruptcy"
    assert any(e.get("event") == "bankrupt" for e in t.g["log"][-1]["events"])
    g = copy.deepcopy(example("OR1").g)                              # the director chooses what he sells
    g["bank"] += g["cash"]["L"] + g["cash"]["S1"] - 70
    g["cash"]["L"], g["cash"]["S1"] = 0, 70
    g["floated"]["Saar"] = True
    g["ipo"]["Saar"].remove(10)
    g["certs"]["S1"]["Saar"] = [10]
    t = Table(g=g).script([("S1", "PASS"), ("S1", "PASS")])          # no train: in need at the trains step
    assert {"SELL 1 L", "SELL 1 SAAR"} <= {str(o).upper() for o in engine.legal_orders(DATA, t.g)}
    assert t.price("L") == 82 and t.price("Saar") == 84
    by_default = Table(g=copy.deepcopy(t.g)).do("S1", "DONE")        # the judge sells the cheaper L first
    assert by_default.g["certs"]["S1"]["Saar"] == [10] and not by_default.g["certs"]["S1"].get("L")
    t.do("S1", "SELL 1 Saar").do("S1", "DONE")                       # his own choice: the Saar share
    assert not t.g["certs"]["S1"].get("Saar") and t.g["certs"]["S1"]["L"] == [10]
    assert t.g["trains"]["L"] == ["3"] and t.cash("S1") == 70 + 84 - 150
    g = copy.deepcopy(g)                                             # only what he needs, past the 50% market limit
    g["certs"]["S1"]["Saar"] = [10, 10]
    g["market"]["Saar"] = [10, 10, 10, 10, 10]
    g["ipo"]["Saar"] = []
    t = Table(g=g).script([("S1", "PASS"), ("S1", "PASS")])
    assert t.refused("S1", "SELL 2 Saar").key == "p47_sell_too_much"
    assert "SELL 1 Saar" in [str(o) for o in engine.legal_orders(DATA, t.g)]
    g["cash"]["S1"] -= 60
    g["bank"] += 60
    poorer = Table(g=g).script([("S1", "PASS"), ("S1", "PASS")])     # now he needs both: one sale, one row down
    assert "SELL 2 Saar" in [str(o) for o in engine.legal_orders(DATA, poorer.g)]
    poorer.do("S1", "SELL 2 Saar")
    assert poorer.cash("S1") == 10 + 2 * 84 and poorer.price("Saar") < 84
    t.do("S1", "SELL 1 Saar")
    assert sum(t.g["market"]["Saar"]) == 60 and t.cash("S1") == 70 + 84


def test_ruling_25_investor_exchange() -> None:
    t = example("SR3")
    assert t.refused("S2", "EXCHANGE MNR").key == "p47_no_exchange_phase"
    g = copy.deepcopy(t.g)
    g["phase"] = "3+3"
    t = Table(g=g)
    assert t.refused("S2", "EXCHANGE MNR").key == "p47_not_floated"     # HLB has not floated
    g["floated"]["Saar"] = True
    g["round"]["start"] = 3
    t = Table(g=g)
    assert t.seat == "S4"
    t.do("S4", "EXCHANGE SCR")
    assert t.g["certs"]["S4"]["Saar"] == [10] and t.g["privates"]["SCR"]["closed"] and t.g["investor"]["Saar"] == 1
    g = copy.deepcopy(example("OR2").g)
    g["must_exchange"] = True
    t = Table(g=g)
    t.script([("S1", "PASS"), ("S1", "PASS"), ("S1", "DIVIDEND"), ("S1", "PASS")])
    assert t.g["round"]["kind"] == "SR"
    assert all(t.g["privates"][p]["closed"] for p in ("MNR", "SCR", "VIW"))
    assert t.g["investor"] == {**t.g["investor"], "Saar": 0, "HLB": 0}


def test_ruling_26_nationalisation() -> None:
    t = example("SR3")
    g = copy.deepcopy(t.g)
    g["certs"]["S1"]["L"] = [10, 10, 10, 10, 10]                     # 70% with the director's 20%
    g["ipo"]["L"] = []
    g["round"]["start"] = 0
    t = give(Table(g=g), "S1", 500)
    assert t.seat == "S1"
    s1, s2 = t.cash("S1"), t.cash("S2")
    t.do("S1", "NATIONALIZE L FROM S2")
    assert t.cash("S2") == s2 + 129 and t.cash("S1") == s1 - 129     # ceil(1.5 x 86)
    assert engine.percent(t.g, "S1", "L") == 80
    g = copy.deepcopy(example("SR3").g)
    g["round"]["start"] = 0
    assert Table(g=g).refused("S1", "NATIONALIZE L FROM S2").key == "p47_nationalize_70"


def test_ruling_27_quarries() -> None:
    t = example("OR2")
    assert t.refused("S1", "BUY PRIVATE W 50").key == "p47_no_quarries_phase"
    g = copy.deepcopy(t.g)
    g["phase"] = "4"
    t = Table(g=g)
    assert t.refused("S1", "BUY PRIVATE W 80").key == "p47_quarry_price"
    s2 = t.cash("S2")
    asked = copy.deepcopy(t.do("S1", "BUY PRIVATE K 20").g)          # S2's quarry: S2 is asked
    assert t.seat == "S2" and t.g["privates"]["K"]["owner"] == "S2"
    t.do("S2", "ACCEPT")
    assert t.g["privates"]["K"]["owner"] == "L" and t.cash("S2") == s2 + 20 and t.cash("L") == 226 - 20
    t = Table(g=asked).do("S2", "DECLINE")
    assert t.g["privates"]["K"]["owner"] == "S2" and t.cash("L") == 226 and t.seat == "S1"
    g["privates"]["K"]["owner"] = "Saar"
    assert Table(g=g).refused("S1", "BUY PRIVATE K 20").key == "p47_not_a_players"   # only from players
    g["privates"]["K"]["owner"] = "S2"
    t = Table(g=g)
    s1 = t.cash("S1")
    t.do("S1", "BUY PRIVATE W 50")
    assert t.cash("S1") == s1 + 50 and t.cash("L") == 226 - 50 and t.g["privates"]["W"]["owner"] == "L"
    g = copy.deepcopy(example("OR1").g)
    g["privates"]["W"]["owner"] = "L"
    t = Table(g=g)
    t.script(OR1[:2])
    t.do("S1", "STATION G15 WITH W")                                 # half of 60M
    assert t.cash("L") == 350 - 30 and t.g["privates"]["W"]["closed"]
    g = copy.deepcopy(example("SR3").g)
    g["e9"] = True
    t = Table(g=g)
    r_owner = t.g["privates"]["R"]["owner"]
    cash = t.cash(r_owner)
    t.script([("S2", "PASS"), ("S3", "PASS"), ("S4", "PASS"), ("S1", "PASS")])
    assert t.cash(r_owner) == cash + 50 + 15                          # Rammelsbach after a tile on E9 (and SCR)


def test_ruling_28_saar_private_closes() -> None:
    t = example("OR1")
    g = copy.deepcopy(t.g)
    g["floated"]["Saar"] = True
    g["stations"]["H6"] = ["Saar"]
    g["cash"]["Saar"] = 500
    g["bank"] -= 500
    g["round"]["order"] = ["Saar", "L"]
    t = Table(g=g)
    assert t.seat == "S2"
    t.script([("S2", "PASS"), ("S2", "PASS")])
    assert not t.g["privates"]["SPR"]["closed"]
    t.do("S2", "BUY TRAIN 3")
    assert t.g["privates"]["SPR"]["closed"]


def test_ruling_29_game_end() -> None:
    t = example("OR2")
    g = copy.deepcopy(t.g)
    spare = g["bank"] - 10
    g["bank"] = 10
    g["cash"]["HLB"] = spare                                          # money parked, the sum unchanged
    t = Table(g=g)
    t.script([("S1", "PASS"), ("S1", "PASS"), ("S1", "DIVIDEND")])
    assert t.g["bank_broken"] and not t.g["over"]
    t.do("S1", "PASS")                                                # the end of the set of ORs
    assert t.g["over"] and t.g["result"]["why"] == "bank"
    scores = t.g["result"]["scores"]
    assert scores["S1"] == t.cash("S1") + 4 * 86                      # 40% of the L at 86
    lfk = t.g["director"]["LFK"]
    assert scores[lfk] == t.cash(lfk) + engine.price(DATA, t.g, "LFK") + engine.price(DATA, t.g, "L")
    g = copy.deepcopy(example("SR3").g)
    g["bank_broken"] = True                                           # broken in a stock round
    t = Table(g=g)
    t.script([("S2", "PASS"), ("S3", "PASS"), ("S4", "PASS"), ("S1", "PASS")])
    assert not t.g["over"] and t.g["round"]["kind"] == "OR"           # one more full set
    t.do("S1", "DONE")
    assert t.g["over"]


def test_ruling_30_undo() -> None:
    module = game_module("1847ae-4")
    state = module.start({"data": "standin"}, 1)
    for seat, line in EXAMPLE_SR1[:4]:
        state = module.resolve(state, {seat: [line]}).state
    assert state["game"]["cash"]["S1"] == 218
    check = module.check_orders(state, "S1", [(1, "UNDO"), (2, "BUY W")])
    assert [a.canonical for a in check.accepted] == ["UNDO", "BUY W"]
    after = module.resolve(state, {"S1": ["ZURUECK"]}).state
    assert after["game"]["cash"]["S1"] == 390 and "PLP" in engine.packet(DATA, after["game"])
    assert module.check_orders(after, "S3", [(1, "UNDO")]).problems      # S2 acted last


def test_ruling_31_counting_stops() -> None:
    b = board_of(DATA, {"G17": ["58", 1]}, {})
    city, town = ("F18", 0), ("G17", 0)
    cities = [("F18", 0), ("F12", 0), ("G15", 0), ("I11", 0)]
    towns = [("G17", 0), ("E19", 0), ("F2", 0), ("F16", 1)]
    plus, plain, express = DATA.train("3+3"), DATA.train("3"), DATA.train("6E")
    assert routes.fits(b, plus, cities[:3] + towns[:3])
    assert not routes.fits(b, plus, cities[:4])
    assert not routes.fits(b, plus, cities[:3] + towns[:4])
    assert routes.fits(b, plain, [city, town, cities[2]]) and not routes.fits(b, plain, cities[:3] + [town])
    assert routes.fits(b, express, cities[:4] + towns[:4])
    assert routes.value(b, express, [city, town], 0) == 30               # towns pay nothing


def test_ruling_32_operating_rounds_fixed_per_set() -> None:
    t = example("OR2")
    g = copy.deepcopy(t.g)
    g["phase"] = "3+3"
    g["depot"].update({"3": 0, "3+3": 0})
    g["cash"]["L"] += 1000
    g["bank"] -= 1000
    t = Table(g=g)
    assert t.g["round"]["ors"] == 1
    t.script([("S1", "PASS"), ("S1", "PASS"), ("S1", "DIVIDEND"), ("S1", "BUY TRAIN 4")])
    assert t.g["phase"] == "4"
    t.do("S1", "PASS")
    assert t.g["round"]["kind"] == "SR"                              # still one OR in this set
    t.script([("S2", "PASS"), ("S3", "PASS"), ("S4", "PASS"), ("S1", "PASS")])
    assert t.g["round"]["kind"] == "OR" and t.g["round"]["ors"] == 2  # phase 4: two


def test_ruling_33_the_map_and_the_seeds_hex_count() -> None:
    counts: dict[str, int] = {}
    for h in DATA.hexes.values():
        counts[h.colour] = counts.get(h.colour, 0) + 1
    assert counts == {"white": 54, "yellow": 8, "gray": 12, "red": 9}   # 62 hexes for track, not the seed's 52
    hexes = DATA.hexes
    assert hexes["F18"].name == "Ludwigshafen" and hexes["F18"].shape.nodes[0].revenue == 30
    assert hexes["G17"].shape.nodes[0].kind == "town" and "B" in hexes["G17"].states
    assert hexes["G19"].cost == 80 and hexes["G19"].terrain == "water" and "B" in hexes["G19"].states
    neustadt = hexes["G15"]
    assert neustadt.colour == "gray" and (neustadt.shape.nodes[0].revenue, neustadt.shape.nodes[0].slots) == (30, 3)
    for company in DATA.companies:                                        # every home of the seed is on the map
        assert all(home in hexes and hexes[home].colour in ("white", "yellow", "gray") for home in company.home)
    assert {"G7", "H6"} <= set(hexes) and DATA.coal_hexes == {"G7", "H6"}
    b = board_of(DATA, {"G17": ["58", 1]}, {})                         # G17 lies between Ludwigshafen and Neustadt
    assert any(node == ("G15", 0) for node, _ in b.segments(("G17", 0)))
    assert any(node == ("F18", 0) for node, _ in b.segments(("G17", 0)))


def test_ruling_34_the_tile_manifest() -> None:
    counts = DATA.tile_counts
    assert not DATA.standin and len(counts) == 50 and sum(counts.values()) == 123
    assert any(counts[t] for t in ("3", "4", "58")) and any(counts[t] for t in ("5", "6", "57"))   # the seed's G17, G19
    t = example("OR1")
    t.script(OR1[:2])                                                   # the seed's first two tiles
    assert t.g["tiles"] == {"G17": ["58", 1], "G19": ["57", 2]} and t.cash("L") == 350
    g = copy.deepcopy(t.g)
    g.update(phase="5", tiles={**g["tiles"], "G19": ["14", 2]})
    g["operated"]["L"] = True
    g["round"].update(lays=[], step="track")
    t = Table(g=g)                                                      # a green two-place city stays green
    assert t.refused("S1", "LAY 63 G19 ROT 0").key == "p47_no_upgrade_path"
    g["tiles"]["G19"] = ["205", 2]
    assert engine.lay_problem(DATA, g, "L", engine.Lay("63", "G19", 0)) is None
    assert DATA.upgrade_allowed("56", "87") and not DATA.upgrade_allowed("56", "88")
    assert DATA.upgrade_allowed("201", "207") and not DATA.upgrade_allowed("201", "12")
    following = {"white": "yellow", "yellow": "green"}
    for h in DATA.hexes.values():                                     # every printed hex has a tile to take
        if h.colour in following:
            stops = sorted(n.kind for n in h.shape.nodes)
            assert any(shape.colour == following[h.colour] and shape.label == h.shape.label and counts.get(tile)
                       and sorted(n.kind for n in shape.nodes) == stops for tile, shape in DATA.shapes.items()), h.at


def _in_need(l_cash: int, s1_cash: int, saar_trains: list[str], saar_director: str = "S1") -> Table:
    """OR1 of the example at the L's trains step, phase 3+3, the L without a
    train and with ``l_cash``, its director S1 with ``s1_cash``, the Saar
    (directed by ``saar_director``) with ``saar_trains``."""
    g = copy.deepcopy(example("OR1").g)
    g["bank"] += g["cash"]["L"] + g["cash"]["S1"] - l_cash - s1_cash
    g["cash"]["L"], g["cash"]["S1"] = l_cash, s1_cash
    g["phase"] = "3+3"
    g["director"]["Saar"] = saar_director
    g["trains"]["Saar"] = list(saar_trains)
    return Table(g=g).script([("S1", "PASS"), ("S1", "PASS")])


def test_ruling_35_the_director_helps_buy_a_train_from_another_company() -> None:
    t = _in_need(100, 200, ["3", "3+3"])
    assert t.g["round"]["step"] == "trains" and not t.g["trains"]["L"]
    saar = t.cash("Saar")
    refusal = t.refused("S1", "BUY TRAIN 3 FROM SAAR 151")                # above the face value of 150M
    assert refusal.key == "p47_face_value_only" and refusal.fields == {"train": "3", "price": 150}
    assert "BUY TRAIN 3 FROM Saar 150" in [str(o) for o in engine.legal_orders(DATA, t.g)]
    t.do("S1", "BUY TRAIN 3+3 FROM SAAR 300")                            # L's 100M and S1's 200M
    assert t.g["trains"]["L"] == ["3+3"] and t.cash("L") == 0 and t.cash("S1") == 0
    assert t.cash("Saar") == saar + 300
    assert {"event": "emergency", "company": "L", "director": "S1", "amount": 200} in t.g["log"][-1]["events"]
    poor = _in_need(100, 20, ["3"])
    assert poor.refused("S1", "BUY TRAIN 3 FROM SAAR 150").key == "p47_emergency"    # S1 lacks 30M
    poor.do("S1", "BUY TRAIN 3 FROM SAAR 120")                                      # what he can add
    assert poor.cash("L") == 0 and poor.cash("S1") == 0 and poor.g["trains"]["L"] == ["3"]
    rich = _in_need(160, 200, ["3+3"])                                  # the L can pay the cheapest bank train
    assert rich.refused("S1", "BUY TRAIN 3+3 FROM SAAR 250").key == "p47_no_money"
    offer = _in_need(100, 200, ["3"], saar_director="S2")               # another director: his word first
    offer.do("S1", "BUY TRAIN 3 FROM SAAR 150")
    assert offer.seat == "S2" and offer.cash("S1") == 200
    offer.do("S2", "ACCEPT")
    assert offer.g["trains"]["L"] == ["3"] and offer.cash("L") == 0 and offer.cash("S1") == 150
    assert offer.seat == "S1"


def test_ruling_36_no_quarry_from_another_company() -> None:
    from adjudicator.games.pfalz1847.wording import refusal as worded

    g = copy.deepcopy(example("OR2").g)
    g["phase"] = "4"
    g["director"]["Saar"] = "S1"                                       # even with the same director
    g["privates"]["K"]["owner"] = "Saar"
    t = Table(g=g)
    refusal = t.refused("S1", "BUY PRIVATE K 20")
    assert refusal.key == "p47_not_a_players"
    assert "nur von Spielern" in worded(refusal, "de") and "only from players" in worded(refusal, "en")
    assert not any(str(o).startswith("BUY PRIVATE K") for o in engine.legal_orders(DATA, t.g))
    g["privates"]["K"]["owner"] = "S1"                                 # from the director himself: at once
    t = Table(g=g).do("S1", "BUY PRIVATE K 20")
    assert t.g["privates"]["K"]["owner"] == "L"
