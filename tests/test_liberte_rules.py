"""Liberté's rules, one scenario each: the position, the orders, the
expected outcome.  Tests named ``test_ruling_NN_*`` state ruling NN of
docs/games/liberte.md.  The positions use the stand-in data."""

from __future__ import annotations

from typing import Any

import pytest

from adjudicator.games.base import GameModule
from adjudicator.games.liberte import Liberte, liberte3, liberte4, liberte6
from adjudicator.games.liberte.state import free_markers
from adjudicator.games.registry import game_module
from adjudicator.service.notes import note_text
from adjudicator.service.render import Texts
from tests.liberte.driver import step
from tests.liberte.scenario import DATA, cards, lines, position

INTERFACE: GameModule = liberte4()  # mypy checks that the module is a whole GameModule

BLUE_CENTRE = [c for c in cards("person", faction="blue", region="CENTRE") if DATA.cards[c].blocks >= 2]
RED_CENTRE = cards("person", faction="red", region="CENTRE")
BLUE_OUEST = cards("person", faction="blue", region="OUEST")


def problems(module: Liberte, state: dict[str, Any], seat: str, line: str, language: str = "en") -> list[str]:
    """The reasons as the judge words them from the catalogue notes in
    ``language``; the module's own text in that language reads the same."""
    found = module.check_orders(state, seat, lines(line), language).problems
    worded = [note_text(p.note, Texts(language), str) for p in found if p.note is not None]
    assert worded == [p.message for p in found]
    return worded


def act(module: Liberte, state: dict[str, Any], seat: str, *texts: str) -> Any:
    return step(module, state, {seat: list(texts)})


def election_after_pass(players: int = 4, **parts: Any) -> tuple[Liberte, dict[str, Any]]:
    """A position in which A's PASS (everyone else passed already) ends the actions."""
    return position(players, passes=players - 1, **parts)


def finish(module: Liberte, state: dict[str, Any], choose: Any = None) -> Any:
    """Resolve sealed plays by ``choose(seat, cards) -> card`` (default: none) until a turn or the end."""
    resolution = None
    while state["game"]["step"] == "bid":
        orders = {}
        for seat in module.must_act(state):
            legal = [o.split()[1] for o in module.legal_orders(state, seat) if o != "BID NONE"]
            card = choose(seat, legal) if choose else ""
            orders[seat] = [f"BID {card}" if card else "BID NONE"]
        resolution = step(module, state, orders)
        state = resolution.state
    return state, resolution


# --- Placement rules 1-5 and the card's region -----------------------------------------------

@pytest.mark.parametrize("language, words", [("en", "rule 1: at most 3 blocks of a colour in Paris"),
                                             ("de", "Regel 1: höchstens 3 Steine einer Farbe in Paris")])
def test_rule_1_a_fourth_block_of_a_colour_is_refused(language: str, words: str) -> None:
    card = BLUE_CENTRE[0]
    module, state = position(hands={"A": [card]}, board={"PARIS": [["A", "blue", 2]]})
    assert problems(module, state, "A", f"PLAY {card} PARIS PARIS", language) == [words]
    after = act(module, state, "A", f"PLAY {card} PARIS").state["game"]
    assert after["board"]["PARIS"] == [["A", "blue", 3]]


@pytest.mark.parametrize("language, words", [("en", "rule 2: Paris holds 3 stacks already"),
                                             ("de", "Regel 2: in Paris liegen schon 3 Stapel")])
def test_rule_2_no_fourth_stack_in_a_province(language: str, words: str) -> None:
    card = BLUE_CENTRE[0]
    full = [["B", "red", 1], ["C", "white", 1], ["D", "blue", 1]]
    module, state = position(hands={"A": [card]}, board={"PARIS": full})
    assert problems(module, state, "A", f"PLAY {card} PARIS", language) == [words]
    module, state = position(hands={"A": [card]}, board={"PARIS": full[:2]})
    assert act(module, state, "A", f"PLAY {card} PARIS").state["game"]["board"]["PARIS"][-1] == ["A", "blue", 1]


@pytest.mark.parametrize("language, words", [
    ("en", "rule 3: you control a stack in Paris already (Moderates (blue))"),
    ("de", "Regel 3: du kontrollierst in Paris schon einen Stapel (Moderate (blau))")])
def test_rule_3_one_stack_per_player_in_a_province(language: str, words: str) -> None:
    card = RED_CENTRE[0]
    module, state = position(hands={"A": [card]}, board={"PARIS": [["A", "blue", 1]]})
    assert problems(module, state, "A", f"PLAY {card} PARIS", language) == [words]


@pytest.mark.parametrize("language, words", [
    ("en", "rule 4: your stack in Paris is Moderates (blue); a stack has one colour"),
    ("de", "Regel 4: dein Stapel in Paris ist Moderate (blau), ein Stapel hat nur eine Farbe")])
def test_rule_4_one_colour_per_stack(language: str, words: str) -> None:
    card = RED_CENTRE[0]
    module, state = position(hands={"A": [card]}, board={"PARIS": [["A", "blue", 1]]})
    assert problems(module, state, "A", f"PLAY {card} PARIS/A", language) == [words]


@pytest.mark.parametrize("language, words", [
    ("en", "rule 5: only player B adds blocks to his stack in Paris"),
    ("de", "Regel 5: nur Spieler B legt Steine auf seinen Stapel in Paris")])
def test_rule_5_only_the_owner_adds_to_a_stack(language: str, words: str) -> None:
    card = BLUE_CENTRE[0]
    module, state = position(hands={"A": [card]}, board={"PARIS": [["B", "blue", 1]]})
    assert problems(module, state, "A", f"PLAY {card} PARIS/B", language) == [words]
    after = act(module, state, "A", f"PLAY {card} PARIS").state["game"]
    assert after["board"]["PARIS"] == [["B", "blue", 1], ["A", "blue", 1]]


def test_a_person_card_places_only_in_its_region_a_club_anywhere() -> None:
    card, club = BLUE_CENTRE[0], cards("club", faction="white")[0]
    module, state = position(hands={"A": [card, club]})
    assert problems(module, state, "A", f"PLAY {card} Bretagne") == [
        f"{card} places only in Centre, not in Bretagne"]
    after = act(module, state, "A", f"PLAY {club} Bretagne KEEP").state["game"]
    assert after["board"]["BRETAGNE"] == [["A", "white", 1]] and after["displays"]["A"] == [club]


def test_a_play_places_blocks_and_a_control_marker_per_stack() -> None:
    card = next(c for c in BLUE_CENTRE if DATA.cards[c].blocks == 3) if any(
        DATA.cards[c].blocks == 3 for c in BLUE_CENTRE) else BLUE_CENTRE[0]
    blocks = DATA.cards[card].blocks
    module, state = position(hands={"A": [card]})
    targets = " ".join(["Paris"] + ["Berry"] * (blocks - 1))
    after = act(module, state, "A", f"spiele {card} {targets}").state["game"]
    assert after["board"]["PARIS"] == [["A", "blue", 1]]
    assert free_markers(after, "A") == 20 - (2 if blocks > 1 else 1)
    assert after["supply"]["blue"] == state["game"]["supply"]["blue"] - blocks
    assert after["discard"] == [card] and card not in after["hands"]["A"]
    assert after["turn"] == 1 and module.must_act({**state, "game": after}) == ("B",)


def test_a_cannon_card_puts_a_marker_into_the_battle_box() -> None:
    cannon = cards("person", cannon=True)[0]
    plain = next(c for c in cards("person") if not DATA.cards[c].cannon)
    module, state = position(hands={"A": [cannon, plain]})
    assert problems(module, state, "A", f"PLAY {plain} BATTLE") == [f"{plain} shows no cannon"]
    after = act(module, state, "A", f"PLAY {cannon} SCHLACHT").state["game"]
    assert after["box"]["A"] == 1 and free_markers(after, "A") == 19


def test_the_display_holds_four_cards() -> None:
    card = next(c for c in BLUE_CENTRE if not DATA.cards[c].sans_culotte)
    full = [c for c in cards("person", faction="white")][:4]
    module, state = position(hands={"A": [card]}, displays={"A": full})
    assert problems(module, state, "A", f"PLAY {card} PARIS KEEP", "de") == [
        "deine Auslage ist voll (4 Karten, eine fünfte nur mit Sans-Culotte)"]


def test_taking_a_card_open_or_from_the_deck() -> None:
    module, state = position(hands={"A": cards("person", faction="red")[:3]})
    g = state["game"]
    opened = g["open"][0]
    after = act(module, state, "A", f"NIMM {opened}").state["game"]
    assert opened in after["hands"]["A"] and len(after["open"]) == 3 and after["open"][2] == g["deck"][0]
    after = act(module, state, "A", "TAKE DECK").state["game"]
    assert after["hands"]["A"][-1] == g["deck"][0]


def test_a_pass_and_re_entry() -> None:
    card = BLUE_CENTRE[0]
    module, state = position(hands={"A": [card]})
    state = act(module, state, "A", "PASS").state
    for seat in ("B", "C", "D"):
        state = act(module, state, seat, "PASS" if seat != "D" else "TAKE DECK").state
    assert module.must_act(state) == ("A",)
    state = act(module, state, "A", f"PLAY {card} PARIS").state
    assert state["game"]["board"]["PARIS"] == [["A", "blue", 1]] and state["game"]["passes"] == 0


def test_the_actions_end_when_a_faction_is_used_up() -> None:
    card = BLUE_CENTRE[0]
    module, state = position(hands={"A": [card]}, supply={"red": 5, "blue": 1, "white": 5})
    resolution = act(module, state, "A", f"PLAY {card} PARIS")
    keys = [e["key"] for e in resolution.report["events"]]
    assert "lib_ev_actions_end_blocks" in keys and "lib_ev_election_begins" in keys
    # Paris went to A: its block is in front of A, the government is blue.
    g = resolution.state["game"]
    assert g["round"] == 2 and g["government"] == "blue" and g["vp"]["A"] == 5
    assert g["step"] == "refill" and g["acquired"]["A"]["blue"] == 0  # back to the supply at the round's end


# --- Battles -------------------------------------------------------------------------------

GENERALS = sorted((c for c in DATA.cards.values() if c.general), key=lambda c: c.general)


def test_the_battle_goes_to_most_markers_with_a_general() -> None:
    general = GENERALS[0].id
    module, state = election_after_pass(displays={"A": [general]}, box={"A": 2, "B": 3, "C": 0, "D": 0}, round=2)
    resolution = act(module, state, "A", "PASS")
    g = resolution.state["game"]
    # B has more markers but no general: A leads the army at Valmy (2 VP).
    assert g["battles"][0] == {"round": 2, "name": "Valmy", "winner": "A", "lost": False}
    assert g["box"] == {"A": 0, "B": 0, "C": 0, "D": 0}
    assert g["vp"]["A"] >= 2


def test_ruling_16_a_battle_without_a_leader() -> None:
    module, state = election_after_pass(box={"A": 2, "B": 3, "C": 0, "D": 0}, round=2)
    g = act(module, state, "A", "PASS").state["game"]
    assert g["battles"][0]["winner"] == "" and not g["battles"][0]["lost"] and g["lost_battles"] == 0


def test_ruling_17_a_battle_tie_is_decided_by_generals() -> None:
    low, high = GENERALS[0], GENERALS[-1]
    assert low.general < high.general
    module, state = election_after_pass(displays={"A": [low.id], "B": [high.id]},
                                        box={"A": 2, "B": 2, "C": 0, "D": 0}, round=2)
    state = act(module, state, "A", "PASS").state
    assert state["game"]["step"] == "bid" and module.must_act(state) == ("A", "B")
    assert module.turn(state) is not None and module.turn(state).kind == "bid"  # type: ignore[union-attr]
    resolution = step(module, state, {"A": [f"BID {low.id}"], "B": [f"BID {high.id}"]})
    g = resolution.state["game"]
    assert g["battles"][0]["winner"] == "B" and low.id in g["discard"] and high.id in g["discard"]
    # The same generals level: the battle is lost for the revolution.
    one, two = next((a, b) for a in GENERALS for b in GENERALS if a.id < b.id and a.general == b.general)
    module, state = election_after_pass(displays={"A": [one.id], "B": [two.id]},
                                        box={"A": 2, "B": 2, "C": 0, "D": 0}, round=2)
    state = act(module, state, "A", "PASS").state
    resolution = step(module, state, {"A": [f"BID {one.id}"], "B": [f"BID {two.id}"]})
    g = resolution.state["game"]
    assert g["battles"][0]["lost"] and g["lost_battles"] == 1
    # No effect beyond the points: nobody scores the battle, every marker goes back, it is reported and counted.
    keys = [e["key"] for e in resolution.report["events"]]
    assert "lib_ev_battle_lost" in keys and "lib_ev_battle_won" not in keys and g["battles"][0]["winner"] == ""
    assert g["box"] == {"A": 0, "B": 0, "C": 0, "D": 0} and free_markers(g, "A") == 20
    assert "lost battles 1" in module.status_lines(resolution.state, "en")[1]


def test_ruling_18_round_one_markers_wait_for_valmy() -> None:
    module, state = election_after_pass(box={"A": 1, "B": 0, "C": 0, "D": 0}, round=1)
    g = act(module, state, "A", "PASS").state["game"]
    assert g["battles"] == [] and g["box"]["A"] == 1 and g["round"] == 2


# --- Elections -------------------------------------------------------------------------------

def test_ruling_02_the_highest_stack_wins_a_province() -> None:
    board = {"BERRY": [["A", "red", 2], ["B", "red", 1], ["C", "blue", 2]]}
    module, state = election_after_pass(board=board, displays={"C": cards("person", faction="blue")[:1]})
    resolution = act(module, state, "A", "PASS")
    # red 3 blocks against blue 2, but the highest stacks (A red 2, C blue 2) tie: sealed plays.
    assert resolution.state["game"]["step"] == "bid"
    assert any(e["key"] == "lib_ev_province_tie" for e in resolution.report["events"])
    module, state = election_after_pass(board={"BERRY": [["A", "red", 3], ["C", "blue", 2]]})
    g = act(module, state, "A", "PASS").state["game"]
    assert g["board"]["BERRY"] == [["A", "red", 2], ["C", "blue", 2]]


def test_ruling_03_the_winner_takes_a_block_off_his_stack() -> None:
    module, state = election_after_pass(board={"BERRY": [["A", "red", 3], ["C", "blue", 2]],
                                               "PARIS": [["B", "white", 3], ["D", "white", 1]]})
    resolution = act(module, state, "A", "PASS")
    events = {e["fields"].get("province"): e["fields"] for e in resolution.report["events"]
              if e["key"] == "lib_ev_province"}
    assert events["Berry"]["blocks"] == 1 and events["Berry"]["votes"] == 1
    assert events["Paris"]["blocks"] == 3
    g = resolution.state["game"]
    assert g["board"]["PARIS"] == [["D", "white", 1]]


def test_ruling_05_paris_counts_every_block_of_the_winning_faction() -> None:
    module, state = election_after_pass(board={"PARIS": [["B", "white", 3], ["D", "white", 1], ["C", "red", 2]]})
    resolution = act(module, state, "A", "PASS")
    votes = next(e["fields"] for e in resolution.report["events"] if e["key"] == "lib_ev_votes")
    assert votes == {"red": 0, "blue": 0, "white": 4}


def test_ruling_04_every_player_in_a_tied_province_may_bid() -> None:
    red = [c for c in cards("person", faction="red") if DATA.cards[c].value >= 3][0]
    blue_low = sorted(cards("person", faction="blue"), key=lambda c: DATA.cards[c].value)[0]
    board = {"BERRY": [["A", "red", 1], ["B", "blue", 2], ["C", "white", 2]]}
    module, state = election_after_pass(board=board, displays={"A": [red], "B": [blue_low]})
    state = act(module, state, "A", "PASS").state
    assert module.must_act(state) == ("A", "B")
    resolution = step(module, state, {"A": [f"BID {red}"], "B": [f"BID {blue_low}"]})
    won = next(e["fields"] for e in resolution.report["events"] if e["key"] == "lib_ev_province")
    assert won["seat"] == "A" and won["faction"] == "red"
    assert resolution.state["game"]["board"]["BERRY"] == []  # a tied province is always cleared


def test_a_tie_nobody_breaks_clears_the_province() -> None:
    board = {"BERRY": [["A", "red", 2], ["B", "blue", 2]]}
    module, state = election_after_pass(board=board)
    resolution = act(module, state, "A", "PASS")  # nobody has a display card: no sealed play
    assert any(e["key"] == "lib_ev_province_none" for e in resolution.report["events"])
    assert resolution.state["game"]["board"]["BERRY"] == []


def test_ruling_30_a_bid_card_must_match_the_stack() -> None:
    blue = cards("person", faction="blue")[0]
    red = cards("person", faction="red")[0]
    board = {"BERRY": [["A", "red", 2], ["B", "blue", 2]]}
    module, state = election_after_pass(board=board, displays={"A": [blue, red]})
    state = act(module, state, "A", "PASS").state
    assert problems(module, state, "A", f"BID {blue}") == [f"{blue} cannot be played here: you may play {red}"]


def test_ruling_06_paris_bids_continue_among_the_leaders() -> None:
    reds = sorted(cards("person", faction="red"), key=lambda c: DATA.cards[c].value)
    blues = sorted(cards("person", faction="blue"), key=lambda c: DATA.cards[c].value)
    whites = sorted(cards("person", faction="white"), key=lambda c: DATA.cards[c].value)
    r5 = [c for c in reds if DATA.cards[c].value == 5][:2]
    b5 = [c for c in blues if DATA.cards[c].value == 5][:2]
    w1 = whites[0]
    board = {"PARIS": [["A", "red", 2], ["B", "blue", 2], ["C", "white", 2]]}
    module, state = election_after_pass(board=board, displays={"A": r5, "B": b5, "C": [w1]})
    state = act(module, state, "A", "PASS").state
    assert module.must_act(state) == ("A", "B", "C")
    state = step(module, state, {"A": [f"BID {r5[0]}"], "B": [f"BID {b5[0]}"], "C": [f"BID {w1}"]}).state
    # A and B lead with 5 each: a second round between them only.
    assert module.must_act(state) == ("A", "B")
    resolution = step(module, state, {"A": [f"BID {r5[1]}"], "B": ["BID NONE"]})
    won = next(e["fields"] for e in resolution.report["events"] if e["key"] == "lib_ev_province")
    assert won["seat"] == "A" and won["votes"] == 2 and won["blocks"] == 2


def test_government_and_opposition_score_five_two_and_three() -> None:
    board = {"BERRY": [["A", "red", 2]], "TOURAINE": [["A", "red", 2]], "NIVERNAIS": [["B", "red", 3]],
             "ANJOU": [["C", "blue", 1]], "MAINE": [["D", "white", 1]], "POITOU": [["D", "white", 2]]}
    module, state = election_after_pass(board=board)
    resolution = act(module, state, "A", "PASS")
    g = resolution.state["game"]
    # red 3 votes (A 2, B 1) govern; white 2 (D) is the opposition; blue 1.
    assert (g["government"], g["opposition"]) == ("red", "white")
    assert g["vp"] == {"A": 5, "B": 2, "C": 0, "D": 3}


def test_ruling_19_government_tie() -> None:
    board = {"BERRY": [["A", "red", 2]], "ANJOU": [["C", "blue", 1]]}
    module, state = election_after_pass(board=board)
    g = act(module, state, "A", "PASS").state["game"]
    assert (g["government"], g["opposition"]) == ("red", "blue")  # no cards: Radicals > Moderates
    blue = [c for c in cards("person", faction="blue") if DATA.cards[c].value >= 2][0]
    module, state = election_after_pass(board=board, displays={"D": [blue]})
    state = act(module, state, "A", "PASS").state
    assert state["game"]["bid"]["purpose"] == "government" and module.must_act(state) == ("D",)
    g = step(module, state, {"D": [f"BID {blue}"]}).state["game"]
    assert (g["government"], g["opposition"]) == ("blue", "red")


def test_ruling_20_shared_points_are_rounded_down() -> None:
    board = {"BERRY": [["A", "red", 2]], "TOURAINE": [["B", "red", 2]], "ANJOU": [["C", "blue", 1]]}
    module, state = election_after_pass(board=board)
    g = act(module, state, "A", "PASS").state["game"]
    # A and B tie for the most red blocks with no card to play: they share 5 + 2 = 7, 3 each.
    assert g["vp"]["A"] == 3 and g["vp"]["B"] == 3 and g["vp"]["C"] == 3


def test_ruling_25_extra_points_timing() -> None:
    board = {"LYONNAIS": [["B", "blue", 2]]}
    results = []
    for timing in ("during", "after"):
        module = Liberte(4, "liberte4")
        base = module.start({"data": "standin", "extra_vp": timing}, 7)
        _, state = election_after_pass(board=board, round=3)
        state = {**state, "options": base["options"], "game": {**state["game"], "extra_vp": timing}}
        resolution = act(module, state, "A", "PASS")
        keys = [e["key"] for e in resolution.report["events"]]
        results.append((resolution.state["game"]["vp"]["B"], "lib_ev_extra_vp" in keys))
    assert results == [(5 + 1, False), (5 + 1, True)]


# --- Early ends ------------------------------------------------------------------------------

CR = [p for p, province in DATA.provinces.items() if province.cr]


def test_ruling_22_counter_revolution_needs_a_higher_white_stack() -> None:
    board = {p: [["B", "white", 2], ["C", "red", 1]] for p in CR[:6]}
    board[CR[6]] = [["B", "white", 2], ["C", "white", 2]]  # two equal white stacks: not controlled
    white = [c for c in cards("person", faction="white") if DATA.cards[c].region == DATA.provinces[CR[7]].region][0]
    module, state = position(board=board, hands={"A": [white]})
    g = act(module, state, "A", "PASS").state["game"]
    assert g["step"] != "over"
    resolution = act(module, state, "A", f"PLAY {white} {CR[7]}")
    assert resolution.next_phase is None and resolution.state["game"]["result"]["kind"] == "counter_revolution"


def test_ruling_21_early_end_counts_blocks_and_cards() -> None:
    board = {p: [["B", "white", 2]] for p in CR[:6]}
    board["PARIS"] = [["C", "white", 3]]
    white_cards = cards("person", faction="white")
    region = DATA.provinces[CR[6]].region
    play = [c for c in white_cards if DATA.cards[c].region == region][0]
    rest = [c for c in white_cards if c != play]
    module, state = position(board=board, hands={"A": [play], "C": rest[:8]}, displays={"D": rest[8:10]})
    resolution = act(module, state, "A", f"PLAY {play} {CR[6]}")
    result = resolution.state["game"]["result"]
    # B 12 white blocks; C 3 blocks + 8 white cards = 11; A 1 block; D 2 cards.
    assert result["counts"] == {"A": 1, "B": 12, "C": 11, "D": 2} and resolution.winner == "B"


def test_ruling_23_landslide_after_the_provinces() -> None:
    reds = [p for p in DATA.election_order if p != "PARIS"][:16]
    board = {p: [["A" if i % 2 else "B", "red", 1]] for i, p in enumerate(reds)}
    board["PARIS"] = [["C", "red", 1]]
    module, state = election_after_pass(board=board, hands={})
    resolution = act(module, state, "A", "PASS")
    keys = [e["key"] for e in resolution.report["events"]]
    assert "lib_ev_landslide" in keys and "lib_ev_government" not in keys
    result = resolution.state["game"]["result"]
    assert result["kind"] == "landslide" and result["counts"] == {"A": 8, "B": 8, "C": 1, "D": 0}
    assert resolution.winner is None and resolution.draw == "A B"
    board.pop(reds[-1])
    module, state = election_after_pass(board=board)
    assert act(module, state, "A", "PASS").state["game"]["step"] != "over"


# --- Rounds, cards, order --------------------------------------------------------------------

def test_ruling_07_nine_cards_discard_two_before_taking() -> None:
    hand = cards("person", faction="red")[:9]
    module, state = position(hands={"A": hand})
    assert problems(module, state, "A", "TAKE DECK", "de") == [
        "mit 9 Karten erst 2 abwerfen: NIMM STAPEL ABWERFEN A01 A02"]
    after = act(module, state, "A", f"TAKE DECK DISCARD {hand[0]} {hand[1]}").state["game"]
    assert len(after["hands"]["A"]) == 8 and hand[0] in after["discard"]
    module, state = position(hands={"A": hand[:8]})
    assert problems(module, state, "A", f"TAKE DECK DISCARD {hand[0]} {hand[1]}") == [
        "with 8 cards nothing is discarded"]


def test_ruling_08_the_fifth_display_card_shows_a_sans_culotte() -> None:
    sans = next(c for c in cards("person", faction="blue") if DATA.cards[c].sans_culotte)
    plain = next(c for c in cards("person", faction="blue") if not DATA.cards[c].sans_culotte)
    four = cards("person", faction="white")[:4]
    module, state = position(hands={"A": [sans, plain]}, displays={"A": four})
    target = next(r.provinces[0] for r in DATA.regions if r.id == DATA.cards[sans].region)
    other = next(r.provinces[0] for r in DATA.regions if r.id == DATA.cards[plain].region)
    assert problems(module, state, "A", f"PLAY {plain} {other} KEEP") == [
        "your display is full (4 cards, a fifth only with a Sans-Culotte)"]
    after = act(module, state, "A", f"PLAY {sans} {target} KEEP").state["game"]
    assert after["displays"]["A"] == four + [sans]
    module, state = position(hands={"A": [sans]}, displays={"A": four + [plain]})
    assert problems(module, state, "A", f"PLAY {sans} {target} KEEP") != []


def test_ruling_09_display_cards_not_taken_back_stay() -> None:
    keep = cards("person", faction="red")[:2]
    module, state = position(displays={"A": keep}, hands={"A": cards("person", faction="blue")[:3]},
                             round=2, step="refill")
    after = act(module, state, "A", f"REFILL BACK {keep[0]}").state["game"]
    assert after["displays"]["A"] == [keep[1]] and keep[0] in after["hands"]["A"] and len(after["hands"]["A"]) == 7


def test_ruling_10_refill_takes_open_cards_in_order() -> None:
    module, state = position(hands={"A": cards("person", faction="blue")[:4]}, round=2, step="refill")
    g = state["game"]
    first, second = g["open"][0], g["open"][1]
    after = act(module, state, "A", f"NACHZIEHEN OFFEN {first} {second}").state["game"]
    assert first in after["hands"]["A"] and second in after["hands"]["A"] and len(after["hands"]["A"]) == 7
    assert problems(module, state, "A", f"REFILL OPEN {g['deck'][0]}") == [f"{g['deck'][0]} is not an open card"]


def test_ruling_11_all_passing_ends_the_actions() -> None:
    module, state = position()
    for seat in ("A", "B", "C"):
        state = act(module, state, seat, "PASS").state
    resolution = act(module, state, "D", "PASS")
    assert any(e["key"] == "lib_ev_actions_end_passes" for e in resolution.report["events"])
    assert resolution.state["game"]["round"] == 2


def test_ruling_12_no_actions_when_a_faction_is_used_up() -> None:
    module, state = position(round=1, passes=3, supply={"red": 3, "blue": 3, "white": 0}, track={
        "red": 0, "blue": 0, "white": 0})
    resolution = act(module, state, "A", "PASS")
    g = resolution.state["game"]
    # Round 2 begins with new cards; after them the actions would begin, but white has no block.
    assert g["round"] == 2 and g["step"] == "refill"
    for seat in list(g["order"]):
        state = act(module, resolution.state, seat, "REFILL")
        resolution = state
    assert resolution.state["game"]["round"] == 3


def test_ruling_13_a_card_may_place_fewer_blocks() -> None:
    card = BLUE_CENTRE[0]
    module, state = position(hands={"A": [card]})
    assert act(module, state, "A", f"PLAY {card} PARIS").state["game"]["board"]["PARIS"] == [["A", "blue", 1]]
    too_many = " ".join(["BERRY"] * (DATA.cards[card].blocks + 1))
    assert problems(module, state, "A", f"PLAY {card} {too_many}") == [
        f"{card} places 1 to {DATA.cards[card].blocks} blocks, not {DATA.cards[card].blocks + 1}"]


def test_ruling_14_the_special_card_acts_first() -> None:
    remove = cards("special", effect="remove")[0]
    card = BLUE_CENTRE[0]
    full = [["B", "red", 1], ["C", "white", 1], ["D", "blue", 1]]
    module, state = position(hands={"A": [remove, card]}, board={"PARIS": full})
    check = module.check_orders(state, "A", lines(f"SPECIAL {remove} PARIS/C", f"PLAY {card} PARIS"))
    assert not check.problems and len(check.accepted) == 2
    after = step(module, state, {"A": [a.canonical for a in check.accepted]}).state["game"]
    assert after["board"]["PARIS"] == [["B", "red", 1], ["D", "blue", 1], ["A", "blue", 1]]


def test_ruling_15_special_card_effects() -> None:
    battle, draw = cards("special", effect="battle")[0], cards("special", effect="draw")[0]
    module, state = position(hands={"A": [battle, draw]})
    assert act(module, state, "A", f"SONDER {battle}").state["game"]["box"]["A"] == 1
    resolution = act(module, state, "A", f"SPECIAL {draw}")
    assert len(resolution.state["game"]["hands"]["A"]) == 3 and not resolution.undoable
    assert problems(module, state, "A", f"SPECIAL {battle}", "en") == []
    assert problems(module, state, "A", f"SPECIAL {battle} TAKE") != []


def test_ruling_24_order_ties_keep_the_previous_order() -> None:
    module, state = election_after_pass(vp={"A": 3, "B": 5, "C": 3, "D": 0},
                                        board={"BERRY": [["D", "red", 1]]})
    g = act(module, state, "A", "PASS").state["game"]
    # D scores 5 for the government (red): B and D level at 5, A and C at 3, each pair in the old order.
    assert g["order"] == ["B", "D", "A", "C"]


def test_ruling_26_an_empty_deck_is_made_from_the_discards() -> None:
    module, state = position(hands={"A": []})
    g = state["game"]
    state = {**state, "game": {**g, "discard": g["deck"][1:], "deck": g["deck"][:1]}}
    state = act(module, state, "A", "TAKE DECK").state
    resolution = act(module, state, "B", "TAKE DECK")
    shuffles = [e for e in resolution.report["random_events"] if e["kind"] == "shuffle"]
    assert len(shuffles) == 1 and "discard" in shuffles[0]["label"]


def test_ruling_27_the_round_track_blocks_come_in_round_two() -> None:
    module, state = position()
    assert state["game"]["track"] == {"red": 2, "blue": 2, "white": 2}
    assert state["game"]["supply"] == {"red": 28, "blue": 26, "white": 22}
    for seat in ("A", "B", "C", "D"):
        resolution = act(module, state, seat, "PASS")
        state = resolution.state
    assert state["game"]["track"] == {"red": 0, "blue": 0, "white": 0}
    assert state["game"]["supply"] == {"red": 30, "blue": 28, "white": 24}


def test_ruling_28_variants_by_player_count() -> None:
    assert game_module("liberte").powers() == ("A", "B", "C", "D")
    assert game_module("Liberté").variant == "liberte4"
    assert liberte3().powers() == ("A", "B", "C") and liberte6().powers() == tuple("ABCDEF")
    assert game_module("liberte5").lookup_power("Spieler e") == "E"
    assert liberte4().lookup_power("F") is None


def test_ruling_29_a_tie_on_points_is_a_draw() -> None:
    module, state = election_after_pass(round=4, vp={"A": 10, "B": 10, "C": 4, "D": 0})
    resolution = act(module, state, "A", "PASS")
    assert resolution.next_phase is None and resolution.draw == "A B" and resolution.winner is None


def test_ruling_01_rule_one_limits_a_stack_to_three() -> None:
    card = BLUE_CENTRE[0]
    module, state = position(hands={"A": [card]}, board={"PARIS": [["B", "blue", 3]]})
    # Three blue blocks of B already lie in Paris; A may still open a blue stack there.
    assert act(module, state, "A", f"PLAY {card} PARIS").state["game"]["board"]["PARIS"][-1] == ["A", "blue", 1]


def test_first_round_order_is_drawn_by_lot_and_clockwise() -> None:
    module = liberte4()
    starts = set()
    for seed in range(12):
        state = module.start({"data": "standin"}, seed)
        order = state["game"]["order"]
        first = "ABCD".index(order[0])
        assert order == list("ABCD"[first:] + "ABCD"[:first])
        event = state["start"]["random_events"][-1]
        assert event["kind"] == "choice" and event["result"] == [order[0]]
        starts.add(order[0])
    assert len(starts) > 1


def test_decks_a_on_b_and_seven_cards_each() -> None:
    state = liberte4().start({"data": "standin"}, 3)
    g = state["game"]
    assert all(len(g["hands"][s]) == 7 for s in "ABCD") and len(g["open"]) == 3
    dealt = [c for s in "ABCD" for c in g["hands"][s]] + g["open"]
    assert all(c.startswith("A") for c in dealt) and g["deck"][-1].startswith("B")


def test_ruling_31_shuffles_stay_sealed_until_the_end() -> None:
    state = liberte4().start({"data": "standin"}, 5)
    shown = list(liberte4().opening_events(state))
    assert [e["kind"] for e in shown] == ["shuffle", "shuffle", "choice"]
    assert shown[0]["result"] == [] and shown[0]["sealed"] and shown[2]["result"] == [state["game"]["order"][0]]
    assert len(state["game"]["random_log"][0]["result"]) == len(DATA.deck("A"))
    module, state = election_after_pass(round=4)
    resolution = act(module, state, "A", "PASS")
    assert resolution.next_phase is None
    assert resolution.report["random_events"][0]["result"] == state["game"]["random_log"][0]["result"]


def test_ruling_32_a_game_needs_its_data() -> None:
    from adjudicator.games.base import GameSetupError
    from adjudicator.games.liberte.data import standin_text, template

    module = liberte4()
    with pytest.raises(GameSetupError, match="data=standin"):
        module.start({}, 1)
    with pytest.raises(GameSetupError, match=r"battles\.3\.name is unknown"):
        module.start({"data.liberte": template()}, 1)
    wrong = standin_text().replace('id = "FLANDRE", name = "Flandre", cr = true', 'id = "FLANDRE", name = "Flandre", cr = false')
    with pytest.raises(GameSetupError, match="14 are marked CR, not 13"):
        module.start({"data.liberte": wrong}, 1)
    real = standin_text().replace("standin = true", "standin = false")
    state = module.start({"data.liberte": real}, 1)
    assert state["options"]["data.liberte"] == real and "data" not in state["options"]


def test_ruling_33_refill_never_forces_a_discard() -> None:
    display = cards("person", faction="red")[:4]
    hand = cards("person", faction="blue")[:6]
    module, state = position(displays={"A": display}, hands={"A": hand}, round=2, step="refill")
    after = act(module, state, "A", "REFILL BACK ALL").state["game"]
    assert sorted(after["hands"]["A"]) == sorted(hand + display) and after["displays"]["A"] == []


@pytest.mark.parametrize("language, line, words, forms", [
    ("en", "PLAY", "the order is incomplete", "PLAY A12 PARIS"),
    ("de", "SPIELE", "der Befehl ist unvollständig", "SPIELE A12"),
    ("en", "FLY A12 PARIS", "cannot read 'FLY' here", "TAKE DECK"),
    ("de", "FLIEG A12", "unlesbar ab 'FLIEG'", "NIMM STAPEL")])
def test_unreadable_lines_are_answered_in_the_players_language(language: str, line: str, words: str,
                                                               forms: str) -> None:
    module, state = position()
    check = module.check_orders(state, "A", lines(line), language)
    (said,) = problems(module, state, "A", line, language)
    assert said.startswith(words + "; ") and forms in said and said == check.problems[0].message
    assert check.missing == ("R1-001: PASS",)


def test_only_the_seat_whose_turn_it_is_may_order() -> None:
    module, state = position(turn="B")
    check = module.check_orders(state, "A", lines("PASS"), "de")
    assert [p.message for p in check.problems] == ["du bist in R1-001 nicht am Zug"] and not check.accepted
    assert module.must_act(state) == ("B",) and module.pass_order(state, "B") == "PASS"
    assert module.round_key(state) == "R1-actions"


def test_the_judge_words_every_reason_in_the_games_language() -> None:
    """Without a language the module's text is English, and every reason
    carries its catalogue note, which the judge words in the game's
    language: no "German / English" pairs."""
    card = BLUE_CENTRE[0]
    module, state = position(hands={"A": [card]}, board={"PARIS": [["B", "blue", 1]]})
    check = module.check_orders(state, "A", lines(f"PLAY {card} PARIS/B", "REFILL"))
    assert [p.message for p in check.problems] == [
        "rule 5: only player B adds blocks to his stack in Paris",
        "not allowed now: R1-001 needs PLAY, SPECIAL, TAKE or PASS"]
    assert [note_text(p.note, Texts("de"), str) for p in check.problems if p.note] == [
        "Regel 5: nur Spieler B legt Steine auf seinen Stapel in Paris",
        "jetzt nicht möglich: R1-001 verlangt SPIELE, SONDER, NIMM oder PASSE"]


def test_report_and_status_lines_for_the_judge() -> None:
    card = BLUE_CENTRE[0]
    module, state = position(hands={"A": [card]})
    resolution = act(module, state, "A", f"PLAY {card} PARIS")
    assert module.report_lines(resolution.report, "de")[0].startswith(f"A spielt {card}")
    status = module.status_lines(resolution.state, "en")
    assert status[0].startswith("NOTE: played with the INVENTED stand-in data")
    assert status[1].startswith("Round 1; order A B C D") and status[-1].endswith("Paris A-blue-1")
    german = module.status_lines(resolution.state, "de")
    assert german[-1].endswith("Paris A-blau-1") and "blue" not in " ".join(german)
    marks = {row["province"]: row["marks"] for row in resolution.report["standing"]["board"]}
    assert marks["Bretagne"] == {"de": "CR 3:1SP 4:2SP", "en": "CR 3:1VP 4:2VP"} and marks["Paris"]["de"] == "P"
    assert not any(c in " ".join(status) for c in resolution.state["game"]["hands"]["B"])


# --- Special cards: every effect kind of the data file (rulings 15, 34-39) ----------------------


def special(effect: str, **wanted: Any) -> str:
    """The first stand-in special card with this effect (and fields)."""
    return cards("special", effect=effect, **wanted)[0]


def test_ruling_34_a_special_card_takes_up_to_its_count() -> None:
    red_remover = special("remove", count=2, faction="red")
    module, state = position(hands={"A": [red_remover]}, board={"BERRY": [["B", "red", 3], ["C", "blue", 1]]})
    after = act(module, state, "A", f"SPECIAL {red_remover} BERRY/B").state["game"]
    assert after["board"]["BERRY"] == [["B", "red", 1], ["C", "blue", 1]]
    assert after["supply"]["red"] == state["game"]["supply"]["red"] + 2 and red_remover in after["discard"]
    assert problems(module, state, "A", f"SPECIAL {red_remover} BERRY/C") == [
        f"{red_remover} hits only stacks of the Radicals (red)"]
    assert problems(module, state, "A", f"SONDER {red_remover} BERRY/C", "de") == [
        f"{red_remover} trifft nur Stapel der Radikale (rot)"]
    module, state = position(hands={"A": [red_remover]}, board={"BERRY": [["B", "red", 1]]})
    after = act(module, state, "A", f"SPECIAL {red_remover} BERRY/B").state["game"]
    assert after["board"]["BERRY"] == [] and free_markers(after, "B") == 20
    double = special("battle", count=2)
    module, state = position(hands={"A": [double]}, box={"A": 19, "B": 0, "C": 0, "D": 0})
    assert act(module, state, "A", f"SPECIAL {double}").state["game"]["box"]["A"] == 20


def test_ruling_37_a_cleared_stack_returns_its_marker() -> None:
    centre = special("clear", scope="CENTRE")
    module, state = position(hands={"A": [centre]}, board={"PARIS": [["B", "white", 3]], "BRETAGNE": [["B", "red", 1]]})
    after = act(module, state, "A", f"SPECIAL {centre} PARIS/B").state["game"]
    assert after["board"]["PARIS"] == [] and after["supply"]["white"] == state["game"]["supply"]["white"] + 3
    assert free_markers(after, "B") == 19
    assert problems(module, state, "A", f"SPECIAL {centre} BRETAGNE/B") == [
        f"{centre} acts only in Centre, not in Bretagne"]
    assert problems(module, state, "A", f"SPECIAL {centre} PARIS") == [
        f"{centre} needs a stack: SPECIAL {centre} PROVINCE/PLAYER"]
    white = special("clear", faction="white")
    module, state = position(hands={"A": [white]}, board={"BRETAGNE": [["A", "white", 2], ["B", "red", 1]]})
    assert act(module, state, "A", f"SPECIAL {white} BRETAGNE/A").state["game"]["board"]["BRETAGNE"] == [
        ["B", "red", 1]]


def test_ruling_38_markers_out_of_the_battle_box_go_back_to_their_owner() -> None:
    single, double = special("unbattle", count=1), special("unbattle", count=2)
    module, state = position(hands={"A": [single, double]}, box={"A": 1, "B": 2, "C": 0, "D": 0})
    after = act(module, state, "A", f"SONDER {single} SCHLACHT/B").state["game"]
    assert after["box"] == {"A": 1, "B": 1, "C": 0, "D": 0} and free_markers(after, "B") == 19
    assert act(module, state, "A", f"SPECIAL {double} BATTLE/B").state["game"]["box"]["B"] == 0
    assert problems(module, state, "A", f"SPECIAL {single} BATTLE/A") == [
        "player A has no control markers in the battle box that you could take"]
    assert problems(module, state, "A", f"SPECIAL {single} BATTLE/C", "de") == [
        "Spieler C hat keine Kontrollmarker in der Battle Box, die du nehmen könntest"]
    assert problems(module, state, "A", f"SPECIAL {single} PARIS/B") == [
        f"{single} needs a player: SPECIAL {single} BATTLE/PLAYER"]


def test_ruling_35_a_special_placement_follows_rules_one_to_five() -> None:
    white = special("place", faction="white")
    full = [["B", "red", 1], ["C", "white", 1], ["D", "blue", 1]]
    module, state = position(hands={"A": [white, BLUE_CENTRE[0]]},
                             board={"PARIS": full, "BERRY": [["A", "red", 1]]})
    after = act(module, state, "A", f"SPECIAL {white} BRETAGNE BRETAGNE").state["game"]
    assert after["board"]["BRETAGNE"] == [["A", "white", 2]]
    assert after["supply"]["white"] == state["game"]["supply"]["white"] - 2 and free_markers(after, "A") == 18
    assert problems(module, state, "A", f"SPECIAL {white} PARIS") == ["rule 2: Paris holds 3 stacks already"]
    assert problems(module, state, "A", f"SPECIAL {white} BERRY") == [
        "rule 3: you control a stack in Berry already (Radicals (red))"]
    assert problems(module, state, "A", f"SPECIAL {white} BRETAGNE BRETAGNE BRETAGNE") == [
        f"{white} places 1 to 2 blocks, not 3"]
    # the special card acts first: the PLAY is checked on the table it leaves
    check = module.check_orders(state, "A", lines(f"SPECIAL {white} TOURAINE", f"PLAY {BLUE_CENTRE[0]} TOURAINE"))
    assert [p.message for p in check.problems] == [
        "rule 3: you control a stack in Touraine already (Royalists (white))"]


def test_ruling_36_moved_blocks_stay_their_owners() -> None:
    mover = special("move")
    module, state = position(hands={"A": [mover]}, board={
        "BERRY": [["B", "red", 3]], "NORMANDIE": [["C", "white", 2]], "PARIS": [["B", "blue", 1]],
        "TOURAINE": [["B", "red", 2]], "MAINE": [["A", "red", 1], ["B", "red", 1], ["D", "red", 1]]})
    after = act(module, state, "A", f"SPECIAL {mover} BERRY/B ORLEANAIS").state["game"]
    assert after["board"]["BERRY"] == [["B", "red", 1]] and after["board"]["ORLEANAIS"] == [["B", "red", 2]]
    assert after["supply"] == state["game"]["supply"] and free_markers(after, "B") == free_markers(
        state["game"], "B") - 1
    after = act(module, state, "A", f"SPECIAL {mover} NORMANDIE/C ANJOU").state["game"]
    assert after["board"]["NORMANDIE"] == [] and after["board"]["ANJOU"] == [["C", "white", 2]]
    assert free_markers(after, "C") == free_markers(state["game"], "C")
    assert problems(module, state, "A", f"SPECIAL {mover} BERRY/B PARIS") == [
        "player B has a stack of another colour in Paris already (Moderates (blue))"]
    assert problems(module, state, "A", f"SPECIAL {mover} BERRY/B TOURAINE") == [
        "rule 1: at most 3 blocks of a colour in Touraine"]
    assert problems(module, state, "A", f"SPECIAL {mover} NORMANDIE/C MAINE") == [
        "rule 2: Maine holds 3 stacks already"]
    assert problems(module, state, "A", f"SPECIAL {mover} BERRY/B") == [
        f"{mover} needs a stack and another province: SPECIAL {mover} PROVINCE/PLAYER GOAL"]


def test_ruling_39_a_special_card_has_no_colour_at_an_early_end() -> None:
    from adjudicator.games.liberte.state import faction_count

    white_place, white_person = special("place", faction="white"), cards("person", faction="white")[0]
    module, state = position(hands={"A": [white_place, white_person]})
    assert faction_count(state["game"], DATA, "A", "white") == 1


@pytest.mark.parametrize("language, words", [
    ("en", ("SPECIAL {u} BATTLE/<PLAYER> – ", "up to 1 control markers of another player",
            "STAND-IN EFFECT (invented)", "SPECIAL {m} <PROVINCE/PLAYER> <goal province> – ")),
    ("de", ("SONDER {u} SCHLACHT/<SPIELER> – ", "bis zu 1 Kontrollmarker eines anderen Spielers",
            "ERSATZ-EFFEKT (erfunden)", "SONDER {m} <PROVINZ/SPIELER> <Zielprovinz> – "))])
def test_your_turn_names_each_special_card_with_its_form_and_its_stand_in_effect(
        language: str, words: tuple[str, ...]) -> None:
    unbattle, mover = special("unbattle", count=1), special("move")
    module, state = position(hands={"A": [unbattle, mover]}, box={"A": 0, "B": 1, "C": 0, "D": 0},
                             board={"BERRY": [["B", "red", 2]]})
    turn = "\n".join(module.actions_now(state, "A", language))
    assert words[0].format(u=unbattle) in turn and words[1] in turn and words[3].format(m=mover) in turn
    hand = "\n".join(module.private_lines(state, "A", language))
    assert words[1] in hand and words[2] in hand
