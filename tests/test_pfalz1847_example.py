"""The seed's worked example of 1847 AE ("Eine Runde Schritt für
Schritt"), replayed order by order with every money figure and price the
text gives: S1 and the L through the first two stock rounds and
operating rounds, 4 players with 390M."""

from __future__ import annotations

from tests.pfalz1847_helpers import EXAMPLE_SR1, Table


def test_the_example_start_packet_and_the_float_of_the_l() -> None:
    t = Table(4)
    assert t.cash("S1") == 390 and t.price("L") == 86
    t.script(EXAMPLE_SR1[:3])
    t.do("S1", "BUY PLP")                       # director of the L for 172M, to the bank
    assert t.cash("S1") == 218 and t.cash("L") == 0 and t.price("L") == 86
    assert t.g["director"]["L"] == "S1"
    t.do("S1", "BUY W")                         # Weidenthal 135M with an L share: 30%
    assert t.cash("S1") == 83
    assert t.g["certs"]["S1"]["L"] == [10]
    t.script(EXAMPLE_SR1[5:9])                  # ... S1 passes with 83M
    assert t.cash("S1") == 83 and not t.g["floated"]["L"]
    t.script(EXAMPLE_SR1[9:11])                 # Hochstätten: 50% of the L sold
    assert t.g["floated"]["L"] and t.cash("L") == 5 * 86 == 430
    assert t.g["stations"]["F18"] == ["L"]
    t.script(EXAMPLE_SR1[11:])
    assert t.g["round"]["kind"] == "OR"
    assert t.cash("S1") == 93                   # Weidenthal pays 10M


def test_the_example_first_operating_round() -> None:
    t = Table(4).script(EXAMPLE_SR1)
    assert t.seat == "S1" and t.cash("L") == 430
    t.do("S1", "LAY 58 G17 ROT 1")              # the town on G17 (no cost)
    assert t.cash("L") == 430
    t.do("S1", "LAY 57 G19 ROT 2")              # a city in Speyer: 80M river
    assert t.cash("L") == 350
    t.do("S1", "STATION G15")                   # second station in Neustadt: 60M
    assert t.cash("L") == 290
    assert t.price("L") == 82                   # no train: one space left, 86 -> 82
    krauss_owner = t.g["director"]["LFK"]
    before = t.cash(krauss_owner)
    t.do("S1", "BUY TRAIN 3")                   # a 3-train for 150M
    assert t.cash("L") == 140 and t.g["trains"]["L"] == ["3"]
    assert t.cash(krauss_owner) == before + 15  # Krauss & Co.: 10% of the first train
    assert t.price("LFK") == 110                # ... and one space right
    t.do("S1", "PASS")
    assert t.g["round"]["kind"] == "SR" and t.cash("S1") == 93


def test_the_example_second_stock_round_and_operating_round() -> None:
    t = Table(4).script(EXAMPLE_SR1)
    t.script([("S1", "LAY 58 G17 ROT 1"), ("S1", "LAY 57 G19 ROT 2"), ("S1", "STATION G15"),
              ("S1", "BUY TRAIN 3"), ("S1", "PASS")])
    t.do("S4", "PASS")
    t.do("S1", "BUY L IPO")                     # 86M from the IPO into the L's treasury
    assert t.cash("S1") == 7 and t.cash("L") == 226 and t.price("L") == 82
    t.script([("S2", "PASS"), ("S3", "PASS"), ("S4", "PASS"), ("S1", "PASS")])
    assert t.g["round"]["kind"] == "OR" and t.cash("S1") == 17     # Weidenthal again
    t.do("S1", "PASS")                          # the L saves and lays no tile
    t.do("S1", "PASS")                          # no station
    t.do("S1", "RUN 3: F18-G17-G15")            # 30 + 10 + 30
    assert t.g["round"]["run"][0]["revenue"] == 70
    k_owner = t.g["privates"]["K"]["owner"]
    before = t.cash(k_owner)
    t.do("S1", "DIVIDEND")                      # 7M per 10%: 28M for S1's 40%
    assert t.cash("S1") == 45 and t.cash("L") == 226 and t.price("L") == 86
    assert t.cash(k_owner) == before + 7
    t.do("S1", "BUY TRAIN 3")
    assert t.cash("L") == 76 and t.g["trains"]["L"] == ["3", "3"]
    assert t.g["depot"]["3"] == 0 + 1           # one 3-train left at the bank
    t.do("S1", "PASS")
    assert t.g["round"]["kind"] == "SR" and t.g["round"]["number"] == 3
    assert t.cash("S1") == 45 and t.cash("L") == 76 and t.price("L") == 86
