"""The worked examples of the 1848 rule text, replayed play by play.

Each action is played through the rules engine from order lines (as a
player writes them) and the evaluation afterwards is asserted as the
text states it: the values of step 2 ("Bei den ... erzielt Spieler A den
höheren Wert"), the values of the sides, alliances and parliament blocs
of steps 3 and 4, and who is ahead.  The alternative endings of the
text's notes are replayed as well.  The cards the text does not number or
value get the test values of tests/revolution1848/complete_cards.toml
(Ruge PE13, Bassermann PE21, Riesser PE22, ...), chosen to agree with it.
"""

from __future__ import annotations

import pytest

from adjudicator.games.revolution1848.cards import CardData
from adjudicator.games.revolution1848.evaluation import Evaluation
from adjudicator.games.revolution1848.flow import advance
from adjudicator.games.revolution1848.orders import Decide, NoAction
from adjudicator.games.revolution1848 import Revolution1848
from adjudicator.games.revolution1848.cards import overlay_from_options
from adjudicator.games.revolution1848.state import Game, to_json
from adjudicator.games.revolution1848.parse import parse_line
from tests.revolution1848.helpers import COMPLETE, act, complete_data, judged, position, without


def _overlay() -> dict[str, object]:
    return overlay_from_options(dict(COMPLETE))


@pytest.fixture(scope="module")
def data() -> CardData:
    return complete_data()


def values(result: Evaluation, party: str) -> tuple[int | None, int | None]:
    standing = result.standing(party)
    return standing.values["A"], standing.values["B"]


def sides(result: Evaluation) -> dict[str, tuple[tuple[str, ...], int, str | None]]:
    """Bündnis/Nationalversammlung: colour -> (parties, value, controller)."""
    return {b.colour: (b.parties, b.value, b.controller) for b in result.blocs}


# --- A10: "Bündnis" ------------------------------------------------------------------------


def a10_start(data: CardData) -> Game:
    return position(data, "A10", {}, {
        "A": ["PE12", "PE24", "PE38", "Z02", "Z19", "Z26"],
        "B": ["PE03", "PE25", "PE26", "Z07", "Z14", "Z23"],
    })


def a10_through_action_5(data: CardData) -> Game:
    game = a10_start(data)
    for a, b in (("SPIELE PE38", "SPIELE Z14"), ("SPIELE PE24", "SPIELE PE26"), ("SPIELE Z19 AUF PE24", "SPIELE Z23"),
                 ("SPIELE Z26 AUF Z23", "SPIELE PE25 ALS Liberaler"), ("SPIELE PE12", "SPIELE PE03")):
        game, _ = act(game, data, a, b)
    return game


def test_a10_alliance_round_action_by_action(data: CardData) -> None:
    game = a10_start(data)

    # 1: A plays Bismarck (Reaktionär 5), B the Polish committee (Z14).
    game, _ = act(game, data, "SPIELE PE38", "SPIELE Z14")
    result = judged(game, data, "A10")
    assert all(s.values["B"] is None for s in result.standings)  # "Kein Wert, da keine Personenkarte ausliegt"
    assert values(result, "REA") == (5, None)
    assert sides(result) == {"red": ((), 0, None), "blue": (("REA",), 5, "A")}  # only fighters: Reaktionäre 5
    assert result.leader == "A"

    # 2: both play a Liberal; A has the higher value (3 to 2), supporters and fighters 5 each: no advantage.
    game, _ = act(game, data, "SPIELE PE24", "SPIELE PE26")
    result = judged(game, data, "A10")
    assert values(result, "LIB") == (3, 2) and result.standing("LIB").controller == "A"
    assert sides(result) == {"red": (("LIB",), 5, "A"), "blue": (("REA",), 5, "A")}
    assert result.leader is None

    # 3: A turns his own Camphausen into a Reaktionär (Z19); B strengthens his Liberals (Z23, +2).
    game, _ = act(game, data, "SPIELE Z19 AUF PE24", "SPIELE Z23")
    result = judged(game, data, "A10")
    assert game.side("A").lying("PE24") is not None and game.side("A").lying("PE24").party == "REA"  # type: ignore[union-attr]
    assert sides(result) == {"red": (("LIB",), 4, "B"), "blue": (("REA",), 8, "A")}
    assert result.leader == "A"

    # 4: A's satire devalues B's press card (both discarded); B plays Schmerling as a Liberal (3).
    game, _ = act(game, data, "SPIELE Z26 AUF Z23", "SPIELE PE25 ALS Liberaler")
    result = judged(game, data, "A10")
    assert game.side("B").lying("Z23") is None and {"Z23", "Z26"} <= set(game.extra_discard)
    assert sides(result) == {"red": (("LIB",), 5, "B"), "blue": (("REA",), 8, "A")}
    assert result.leader == "A"

    # 5: Kudlich (Demokrat 6) for A, Schurz (Republikaner 5) for B: the supporters' alliance 6+5+5 = 16;
    # within it A controls the Democrats (6), B Liberals and Republicans (5+5 = 10).
    game, _ = act(game, data, "SPIELE PE12", "SPIELE PE03")
    result = judged(game, data, "A10")
    red = next(b for b in result.blocs if b.colour == "red")
    assert (red.parties, red.value, dict(red.shares), red.controller) == (
        ("LIB", "DEM", "REP"), 16, {"A": 6, "B": 10}, "B")
    assert sides(result)["blue"] == (("REA",), 8, "A")
    assert result.leader == "B"

    # 6: Lola Montez eliminates Kudlich (out of the game); A's Z02 stays without a Democrat to strengthen.
    game, notes = act(game, data, "SPIELE Z02", "SPIELE Z07 AUF PE12")
    result = judged(game, data, "A10")
    assert "PE12" in game.removed and "Z07" in game.extra_discard
    assert sides(result) == {"red": (("LIB", "REP"), 10, "B"), "blue": (("REA",), 8, "A")}
    assert result.leader == "B" and result.decisions == ("red",)

    # Both hands are empty: B wins A10, the rising succeeds, the game goes on with A16.
    assert {"kind": "won", "player": "B", "card": "A10"} in notes
    assert game.side("B").won == ("A10",)
    assert (game.flow, game.step) == ("A16", "keep")


def test_a10_without_the_montez_attack_a_wins_the_alliance(data: CardData) -> None:
    # "Dann hätten die von A kontrollierten Demokraten den Wert 13 erzielt ... Spieler A hätte die
    # Mehrheit des Bündnisses kontrolliert und die Karte gewonnen."
    game = a10_through_action_5(data)
    game, notes = act(game, data, "SPIELE Z02", "PASSE")
    result = judged(game, data, "A10")
    assert values(result, "DEM") == (13, None)
    red = next(b for b in result.blocs if b.colour == "red")
    assert (red.value, dict(red.shares), red.controller) == (23, {"A": 13, "B": 10}, "A")
    assert result.leader == "A"
    assert {"kind": "won", "player": "A", "card": "A10"} in notes


# --- A06: "Parlamentsentscheid Vorparlament" -------------------------------------------------


def a06_start(data: CardData) -> Game:
    return position(data, "A06", {"A": ["PE13", "PE03", "Z10"], "B": ["PE21", "Z11"]}, {
        "A": ["PE26", "PE27", "Z16", "Z26", "Z19", "Z28"],
        "B": ["PE19", "PE04", "PE42", "Z02", "Z22", "Z34"],
    })


def a06_through_action_4(data: CardData) -> Game:
    game = a06_start(data)
    for a, b in (("SPIELE Z16", "SPIELE PE42 ALS Demokrat"), ("SPIELE Z19 AUF PE21", "SPIELE Z02"),
                 ("SPIELE PE26", "SPIELE PE04"), ("SPIELE PE27", "SPIELE PE19")):
        game, _ = act(game, data, a, b)
    return game


def test_a06_preparliament_round_action_by_action(data: CardData) -> None:
    game = a06_start(data)
    result = judged(game, data, "A06")
    # Before the first action: Ruge and Schurz (A) activate Democrats 15 and Republicans 15, Bassermann (B)
    # the Liberals 60; B controls the strongest party and may decide either way.
    assert dict(result.activated) == {"LIB": 60, "DEM": 15, "REP": 15}
    assert dict(result.control) == {"LIB": "B", "DEM": "A", "REP": "A"}
    assert result.leader == "B" and result.decisions == ("red", "blue")

    # 1: A strengthens his Democrats (Z16), B plays PE42 as a Democrat (1): A has the higher value.
    game, _ = act(game, data, "SPIELE Z16", "SPIELE PE42 ALS Demokrat")
    result = judged(game, data, "A06")
    assert values(result, "DEM") == (8, 1) and result.standing("DEM").controller == "A"
    assert dict(result.activated) == {"LIB": 60, "DEM": 15, "REP": 15}
    assert result.strongest == ("LIB",) and result.leader == "B"

    # 2: A turns Bassermann into a Reaktionär (Z19); B's Z02 (+7) draws the Democrats level (8 to 8).
    game, _ = act(game, data, "SPIELE Z19 AUF PE21", "SPIELE Z02")
    result = judged(game, data, "A06")
    assert values(result, "DEM") == (8, 8) and result.standing("DEM").controller is None
    assert dict(result.activated) == {"DEM": 15, "REP": 15}  # the Liberals are not activated
    assert result.strongest == ("DEM", "REP") and result.leader is None  # Patt: no advantage

    # 3: Simson (A) activates the Liberals again; B's Herwegh gives B the Republicans.
    game, _ = act(game, data, "SPIELE PE26", "SPIELE PE04")
    result = judged(game, data, "A06")
    assert result.standing("REP").controller == "B" and result.standing("DEM").controller is None
    assert dict(result.activated) == {"LIB": 60, "DEM": 15, "REP": 15}
    assert result.control["LIB"] == "A" and result.leader == "A"

    # 4: Liberals on both sides; B has the higher value and controls them.
    game, _ = act(game, data, "SPIELE PE27", "SPIELE PE19")
    result = judged(game, data, "A06")
    assert values(result, "LIB") == (5, 6) and result.control["LIB"] == "B"
    assert result.leader == "B"

    # 5: A's satire on Heinrich von Gagern is warded off by B's press card; both go to the discard pile.
    game, notes = act(game, data, "SPIELE Z26 AUF PE19", "SPIELE Z22")
    assert any(n.get("result") == "blocked" and n.get("guard") == "Z22" for n in notes)
    assert {"Z22", "Z26"} <= set(game.extra_discard) and game.side("B").lying("PE19") is not None
    result = judged(game, data, "A06")
    assert result.control["LIB"] == "B" and result.leader == "B"

    # Both hold only an army card now: both pass, B wins A06 and may decide either way.
    assert {"kind": "won", "player": "B", "card": "A06"} in notes
    assert (game.step, game.actors, game.decisions) == ("vote", ("B",), ("red", "blue"))


def test_a06_the_satire_unopposed_gives_a_the_liberals(data: CardData) -> None:
    # "Wäre die Attacke erfolgreich gewesen, hätte dies zur Kontrolle der Liberalen durch Spieler A geführt."
    game = a06_through_action_4(data)
    game, notes = act(game, data, "SPIELE Z26 AUF PE19", "PASSE")
    assert "PE19" in game.removed
    result = judged(game, data, "A06")
    assert result.control["LIB"] == "A" and result.leader == "A"
    assert {"kind": "reenter", "player": "B"} in notes  # attacked after passing: B may play again


@pytest.mark.parametrize(("colour", "following"), [("red", "A07"), ("blue", "A09")])
def test_a06_the_winners_vote_decides_the_next_card(data: CardData, colour: str, following: str) -> None:
    game = a06_through_action_4(data)
    game, _ = act(game, data, "SPIELE Z26 AUF PE19", "SPIELE Z22")
    written = {"red": "ENTSCHEIDUNG Allgemeines, gleiches Wahlrecht", "blue": "VOTE blue"}[colour]
    check = Revolution1848().check_orders({"overlay": _overlay(), "game": to_json(game)}, "B", [(1, written)])
    assert [a.canonical for a in check.accepted] == [f"DECIDE {colour.upper()}"]
    game, _ = advance(game, data, {"B": [Decide(colour)]})
    # Phase 6: B (the winner) and then A may place their armies at A04; neither does.
    assert (game.step, game.actors) == ("military", ("B",))
    game, _ = advance(game, data, {"B": [NoAction()]})
    assert (game.step, game.actors) == ("military", ("A",))
    game, _ = advance(game, data, {"A": [NoAction()]})
    assert (game.flow, game.step) == (following, "keep")


# --- A14: "Parlamentsentscheid Nationalversammlung" ------------------------------------------


A14_PLAYS = (
    ("SPIELE Z03", "SPIELE Z12"),
    ("SPIELE PE15", "SPIELE Z15"),
    ("SPIELE PE08", "SPIELE PE01"),
    ("SPIELE PE17", "SPIELE PE20"),
    ("SPIELE Z24", "SPIELE Z26 AUF PE22"),
    ("SPIELE Z19 AUF PE20", "SPIELE PE06"),
)


def a14_start(data: CardData) -> Game:
    return position(data, "A14", {"A": ["PE22", "PE26", "Z01"], "B": ["PE28", "PE29", "PE18"]}, {
        "A": ["PE08", "PE15", "PE17", "Z03", "Z19", "Z24"],
        "B": ["PE01", "PE06", "PE20", "Z12", "Z15", "Z26"],
    }, lying=("A04", "A05", "A11"))


def blocs(result: Evaluation) -> dict[str, tuple[tuple[str, ...], int]]:
    """Each player's bloc in the principal line: player -> (parties, seats)."""
    return {b.controller: (b.parties, b.value) for b in result.blocs if b.controller is not None and b.parties}


def test_a14_national_assembly_round_action_by_action(data: CardData) -> None:
    game = a14_start(data)
    result = judged(game, data, "A14")
    # (2+5) + (2x3) = 13 against 5+2 = 7: A chooses the Right Liberals (170); B must take the Left
    # Liberals (115) and allies them with his Democrats (70): 185.
    assert values(result, "LIB") == (13, 7) and result.first == "A"
    assert blocs(result) == {"A": (("RLIB",), 170), "B": (("LLIB", "DEM"), 185)}
    assert result.leader == "B"

    expected = [
        # 1: Z03 makes A's Liberals 15; B's Z12 strengthens his Democrats.
        ({"LIB": "A"}, {"A": (("RLIB",), 170), "B": (("LLIB", "DEM"), 185)}, "B"),
        # 2: B's Kroatien (Z15) weakens A's Liberals and Democrats; B still controls the Democrats.
        ({"LIB": "A", "DEM": "B"}, {"A": (("RLIB",), 170), "B": (("LLIB", "DEM"), 185)}, "B"),
        # 3: B's Republican is stronger: Left Liberals, Democrats and Republicans, 235.
        ({"LIB": "A", "DEM": "B", "REP": "B"}, {"A": (("RLIB",), 170), "B": (("LLIB", "DEM", "REP"), 235)}, "B"),
        # 4: Democrats level: not activated; Left Liberals and Republicans 165 against 170: A ahead.
        ({"LIB": "A", "DEM": None, "REP": "B"}, {"A": (("RLIB",), 170), "B": (("LLIB", "REP"), 165)}, "A"),
        # 5: Riesser satirised: B has the Liberals' choice, Right Liberals + Republicans 220 against 185.
        ({"LIB": "B", "DEM": "A", "REP": "B"}, {"A": (("LLIB", "DEM"), 185), "B": (("RLIB", "REP"), 220)}, "B"),
        # 6: Dahlmann turned Reaktionär: whatever B allies with, A answers with 235 against 220.
        ({"LIB": "B", "DEM": "A", "REP": "B", "REA": "B"}, None, "A"),
    ]
    notes: list[dict[str, object]] = []
    for (a, b), (control, bloc_values, leader) in zip(A14_PLAYS, expected):
        game, notes = act(game, data, a, b)
        result = judged(game, data, "A14")
        assert {p: result.standing(p).controller for p in control} == control, (a, b)
        if bloc_values is not None:
            assert blocs(result) == bloc_values, (a, b)
        assert result.leader == leader, (a, b)

    assert values(result, "LIB") == (5, 7) and result.first == "B"
    line = blocs(result)
    assert line["B"][1] == 220 and line["A"][1] == 235
    assert set(line["A"][0]) in ({"LLIB", "DEM", "REP"}, {"LLIB", "DEM", "REA"})
    # "Je nachdem, für welches Bündnis sich A entscheidet, wird für Ablehnen ... oder Anerkennen votiert."
    assert result.decisions == ("red", "blue")
    # The round is over: B, with the Liberals' choice, declares his Liberals (the text: Right Liberals).
    assert (game.step, game.actors, game.phase) == ("faction", ("B",), "R10A14-F")
    game, notes = advance(game, data, {"B": [parse_line("FRAKTION RECHTE")]})
    assert notes[0] == {"kind": "faction", "player": "B", "faction": "RLIB", "default": False}
    assert {"kind": "won", "player": "A", "card": "A14"} in notes
    assert (game.step, game.actors, game.decisions) == ("vote", ("A",), ("red", "blue"))


def test_a14_every_alliance_of_b_in_the_last_action_loses(data: CardData) -> None:
    # The text's two cases: B's Right Liberals with the Republicans (the Reaktionäre join A's bloc) or
    # with the Reaktionäre (the Republicans join A's bloc): 220 against 235 either way.
    game = a14_start(data)
    for a, b in A14_PLAYS:
        game, _ = act(game, data, a, b)
    result = judged(game, data, "A14")
    assert result.first == "B" and result.leader == "A"
    assert dict(result.activated) == {"RLIB": 170, "LLIB": 115, "DEM": 70, "REP": 50, "REA": 50}
    assert result.control["REA"] == "B"  # activated though B cannot use it (note 4)


def test_a14_note_2_without_kroatien_the_democrats_are_level(data: CardData) -> None:
    # "Wäre Z15 nicht ausgespielt worden, wäre bei den Demokraten Patt ... Vorteil für A."
    game = a14_start(data)
    for a, b in A14_PLAYS[:3]:
        game, _ = act(game, data, a, b)
    result = judged(without(game, "A", "Z15"), data, "A14")
    assert values(result, "DEM") == (3, 3) and result.standing("DEM").controller is None
    assert result.leader == "A"


def test_a14_note_3_a_alone_with_a_republican_allies_right_liberals_and_republicans(data: CardData) -> None:
    # "Hätte nur A eine Republikaner-Karte ausgespielt ... Rechte Liberale und Republikaner (220) ...
    # gegenüber B, der mit ... Linken Liberalen und Demokraten nur auf 185 kommt."
    game = a14_start(data)
    for a, b in A14_PLAYS[:2]:
        game, _ = act(game, data, a, b)
    game, _ = act(game, data, "SPIELE PE08", "PASSE")
    result = judged(game, data, "A14")
    assert blocs(result) == {"A": (("RLIB", "REP"), 220), "B": (("LLIB", "DEM"), 185)}
    assert result.leader == "A"
