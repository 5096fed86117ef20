"""The rules of 1848 where the rule text is silent or ambiguous: one test
per ruling of docs/games/1848.md (``test_ruling_NN_...``), plus the card
data check, the orders' grammar and the military rule.

Positions are built with tests.revolution1848.helpers on the complete
test card data (invented values where the text gives none).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from adjudicator.games.revolution1848 import Revolution1848, military
from adjudicator.games.revolution1848.evaluation import _Choice, _solve, liberal_factions
from adjudicator.games.revolution1848.cards import (
    CardData, CardDataError, MissingValues, base_data, card_data, merged, missing_values,
)
from adjudicator.games.revolution1848.actions import legal_plays, problem
from adjudicator.games.revolution1848.flow import (
    advance, decide, default_keep, enter, final_forecast, new_game, score,
)
from adjudicator.games.revolution1848.orders import (
    Attack, Decide, Discard, General, Keep, Lose, NoAction, PlaceArmy, Play, Remove, Stand, Swear, Withdraw,
)
from adjudicator.games.revolution1848.parse import ParseError, parse_line
from adjudicator.games.revolution1848.state import Army, Game, Placed, from_json, to_json
from adjudicator.records import replace
from tests.revolution1848.helpers import COMPLETE, act, complete_data, judged, position

ROOT = Path(__file__).resolve().parent.parent
MODULE = Revolution1848()


@pytest.fixture(scope="module")
def data() -> CardData:
    return complete_data()


def with_flow(data: CardData, card: str, **changes: object) -> CardData:
    """The data with one flow card changed."""
    flows = dict(data.flows)
    flows[card] = replace(flows[card], **changes)  # type: ignore[arg-type]
    return replace(data, flows=flows)


# --- The card data ------------------------------------------------------------------------------


def test_the_data_file_marks_what_the_text_does_not_give() -> None:
    raw = base_data()
    assert raw["flow"]["A05"]["parliament"] == {"LIB": 60, "DEM": 15, "REP": 15}
    assert raw["flow"]["A11"]["parliament"] == {"RLIB": 170, "LLIB": 115, "DEM": 70, "REP": 50, "REA": 50}
    assert raw["person"]["PE12"] == {"name": "Hans Kudlich", "parties": ["DEM"], "value": 6, "general": "none"}
    assert raw["person"]["PE42"]["parties"] == ["DEM", "REP"] and raw["person"]["PE42"]["value"] == 1
    assert raw["extra"]["Z13"]["effects"][1] == "intervention austria 11"
    missing = missing_values(raw)
    assert "card.PE02.value" in missing and "card.PE12.value" not in missing
    assert "card.A06.keep" in missing and "card.A06.red.next" not in missing
    assert "card.Z07.effects" not in missing and "card.Z04.effects" in missing
    assert "rules.prognosis.B.text" not in missing and "rules.prognosis.B.condition" in missing


def test_a_game_cannot_be_created_until_every_value_is_supplied() -> None:
    with pytest.raises(MissingValues) as raised:
        card_data({})
    names = raised.value.names
    assert len(names) == len(set(names)) > 200
    assert all(re.fullmatch(r"(card\.(PE|Z|A)\d\d|rules)\.[\w.]+", name) for name in names)
    assert all(name in str(raised.value) for name in names)  # the message names every one


def test_values_are_supplied_as_options_and_checked(tmp_path: Path) -> None:
    options = {**COMPLETE, "card.PE02.value": 7, "card.PE02.parties": "DEM,REP",
               "card.Z04.effects": "boost REP +3 each,protect REP against satire", "card.A01.keep": "1"}
    data = card_data(options)
    assert data.persons["PE02"].value == 7 and data.persons["PE02"].parties == ("DEM", "REP")
    assert data.extras["Z04"].boosts[0].each and data.extras["Z04"].protects[0].party == "REP"
    assert data.flows["A01"].keep == 1
    with pytest.raises(CardDataError, match="card.PE02.value: expected a whole number"):
        card_data({**COMPLETE, "card.PE02.value": "many"})
    with pytest.raises(CardDataError, match="cannot read the effect"):
        card_data({**COMPLETE, "card.Z04.effects": "boost REP lots"})
    with pytest.raises(CardDataError, match="the next card 'A99' does not exist"):
        card_data({**COMPLETE, "card.A07.red.next": "A99"})
    with pytest.raises(CardDataError, match="no file path is read"):
        card_data({"cards.file": str(tmp_path / "absent.toml")})
    still = {k: v for k, v in options.items() if k != "data"}
    with pytest.raises(MissingValues) as raised:
        card_data(still)
    assert "card.PE02.value" not in raised.value.names and "card.PE03.strength" in raised.value.names


def test_a_mode_makes_only_its_own_fields_needed() -> None:
    raw = merged(base_data(), {"flow": {"A17": {"played_for": True, "mode": "stich"}}})
    needed = [n for n in missing_values(raw) if n.startswith("card.A17.")]
    assert needed == ["card.A17.keep", "card.A17.points", "card.A17.next"]


def test_the_wheel_and_the_sdist_carry_the_cards() -> None:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert '"cards" = "adjudicator/_data/cards"' in text
    assert re.search(r'include = \[[^\]]*"cards"', text)


# --- The orders by mail ------------------------------------------------------------------------------


@pytest.mark.parametrize(("written", "canonical"), [
    ("SPIELE PE12", "PLAY PE12"), ("play z19 on pe24", "PLAY Z19 ON PE24"),
    ("SPIELE PE42 ALS Demokrat", "PLAY PE42 AS Democrat"), ("PLAY PE42 AS Republican", "PLAY PE42 AS Republican"),
    ("PASSE", "PASS"), ("BEHALTE PE12 Z3", "KEEP PE12 Z03"), ("KEEP NOTHING", "KEEP NOTHING"),
    ("ABWERFEN PE5", "DISCARD PE05"), ("ENTSCHEIDUNG ROT", "DECIDE RED"), ("vote blue", "DECIDE BLUE"),
    ("PROGNOSE b", "FORECAST B"), ("ZURÜCKNEHMEN", "WITHDRAW"), ("BEIBEHALTEN", "STAND"),
    ("ARMEE Z28 AN A04", "ARMY Z28 TO A04"), ("HEERFÜHRER PE34 ZU Z28", "GENERAL PE34 TO Z28"),
    ("ENTFERNE PE34", "REMOVE PE34"), ("ANGRIFF Z28 AUF Z13", "ATTACK Z28 ON Z13"), ("VEREIDIGE Z28", "SWEAR Z28"),
    ("KEINE", "NONE"), ("VERLIERE Z29", "LOSE Z29"),
])
def test_orders_in_german_and_english_read_to_their_canonical_form(written: str, canonical: str) -> None:
    order = parse_line(written)
    assert str(order) == canonical and parse_line(canonical) == order


@pytest.mark.parametrize(("written", "column"), [("SPIELE", 7), ("PLAY PE12 AS", 13), ("GRÜSSE", 1),
                                                 ("PLAY PE12 PE13", 11)])
def test_lines_that_are_no_order_name_the_column(written: str, column: int) -> None:
    with pytest.raises(ParseError) as raised:
        parse_line(written)
    assert raised.value.column == column


def test_check_orders_names_card_target_and_step_problems(data: CardData) -> None:
    state = MODULE.start(dict(COMPLETE), 3)
    game = from_json(state["game"])
    mine, theirs = game.side("A").hand, game.side("B").hand
    check = MODULE.check_orders(state, "A", [(1, f"PLAY {theirs[0]}"), (2, "DECIDE RED"), (3, "PLAY Z19 ON PE01"),
                                             (4, "BONJOUR"), (5, f"PLAY {mine[0]}" if mine[0] in data.persons
                                                              and len(data.persons[mine[0]].parties) == 1 else "PASS")])
    messages = {p.line: p.message for p in check.problems}
    assert messages[1] == f"{theirs[0]} is not in your hand"
    assert messages[2].startswith("not allowed now")
    assert "not in your hand" in messages[3] or "is not on the table" in messages[3]
    assert messages[4] == "did not expect 'BONJOUR' here" and check.problems[3].hint
    assert [a.line for a in check.accepted] == [5] and check.missing == ()
    assert MODULE.check_orders(state, "A", []).missing == ("R01A01-1: PASS",)


def test_an_attack_needs_a_target_on_the_table(data: CardData) -> None:
    game = position(data, "A01", {"B": ["PE19"]}, {"A": ["Z19", "Z26", "Z02", "PE12"], "B": []})
    state = {"overlay": {}, "game": to_json(game)}
    state["overlay"] = MODULE.start(dict(COMPLETE), 1)["overlay"]
    check = MODULE.check_orders(state, "A", [(1, "PLAY Z19"), (2, "PLAY Z19 ON PE12"), (3, "PLAY Z02 ON PE19"),
                                             (4, "PLAY Z26 ON PE19")])
    messages = {p.line: p.message for p in check.problems}
    assert messages == {1: "Z19 attacks a card: add ON <card>", 2: "PE12 is not on the table",
                        3: "Z02 takes no target"}
    assert [a.canonical for a in check.accepted] == ["PLAY Z26 ON PE19"]
    assert {p.line: p.column for p in check.problems} == {1: 6, 2: 13, 3: 6}  # at the card named


# --- Rulings ---------------------------------------------------------------------------------------


def test_ruling_01_the_cards_that_simply_stay_are_not_played_for(data: CardData) -> None:
    game = position(data, "A03", {"A": ["PE19"]}, {"A": [], "B": []}, lying=())
    game, notes = act(game, data, None, None)  # both hands empty: the round ends at once
    assert {"kind": "won", "player": "A", "card": "A03"} in notes
    assert [n["card"] for n in notes if n["kind"] == "flow"] == ["A04", "A05"]
    assert game.lying == ("A04", "A05") and (game.step, game.tag) == ("forecast", "P")
    assert not any(card in game.side("A").won for card in ("A04", "A05"))


def test_ruling_02_a_stich_adds_both_players_values(data: CardData) -> None:
    # Liberals 3 (A) + 2 (B) = 5 beat the Democrats' 4 (B alone): A, who controls the Liberals, leads.
    game = position(data, "A01", {"A": ["PE24"], "B": ["PE26", "PE10"]}, {})
    result = judged(game, data, "A01")
    assert result.strongest == ("LIB",) and result.standing("LIB").total == 5 and result.leader == "A"


def test_ruling_03_a_level_party_counts_for_nobody(data: CardData) -> None:
    # Stich: the strongest party (Democrats 3 + 3) is level: nobody leads, though A has the Republicans.
    game = position(data, "A01", {"A": ["PE15", "PE08"], "B": ["PE07"]}, {})
    result = judged(game, data, "A01")
    assert result.standing("DEM").controller is None and result.strongest == ("DEM",) and result.leader is None
    # Bündnis: a level party adds to its side but to nobody's share.
    game = position(data, "A10", {"A": ["PE15", "PE38"], "B": ["PE07", "PE03"]}, {})
    red = next(b for b in judged(game, data, "A10").blocs if b.colour == "red")
    assert red.value == 11 and dict(red.shares) == {"A": 0, "B": 5} and red.controller == "B"


def test_ruling_04_alliance_shares_count_whole_parties(data: CardData) -> None:
    # A controls the Liberals with 3 against B's 2: A's share is the party's 5, not his own 3.
    game = position(data, "A10", {"A": ["PE24"], "B": ["PE26", "PE12"]}, {})
    red = next(b for b in judged(game, data, "A10").blocs if b.colour == "red")
    assert dict(red.shares) == {"A": 5, "B": 6} and red.controller == "B"
    game = position(data, "A10", {"A": ["PE24", "PE02"], "B": ["PE26", "PE12"]}, {})
    red = next(b for b in judged(game, data, "A10").blocs if b.colour == "red")
    assert dict(red.shares) == {"A": 7, "B": 6} and red.controller == "A"


def test_ruling_05_parliament_blocs_are_controlled_by_seats(data: CardData) -> None:
    # A12 (test votes: Democrats and Republicans red): A's Democrats (70 seats, card value 1) and B's
    # Republicans (50 seats, card value 11) form one bloc; it is A's by seats though B's card is worth more.
    game = position(data, "A12", {"A": ["PE17"], "B": ["PE04"]}, {}, lying=("A11",))
    result = judged(game, data, "A12")
    red = next(b for b in result.blocs if b.colour == "red")
    assert red.parties == ("DEM", "REP") and dict(red.shares) == {"A": 70, "B": 50} and red.controller == "A"
    assert result.leader == "A" and result.decisions == ("red",)


def test_ruling_06_the_player_with_the_liberal_choice_commits_first(data: CardData) -> None:
    # The last action of the A14 example: with A committing first B would win (he joins A's bloc and
    # controls it); the text has A win because B, who chooses the Liberals' faction, commits first.
    control = {"RLIB": "B", "LLIB": "A", "DEM": "A", "REP": "B", "REA": "B"}
    flow, seats = data.flows["A14"], data.flows["A11"].parliament
    assert _solve("A", [_Choice({"RLIB": "B", "LLIB": "A"}, "A")], control, seats, flow, False)[0] == "B"
    assert _solve("B", [_Choice({"RLIB": "B", "LLIB": "A"}, "B")], control, seats, flow, False)[0] == "A"
    # Without a Liberal choice both orders are tried and must agree: A's Democrats beat B's fixed parties.
    game = position(data, "A14", {"A": ["PE10"], "B": ["PE08", "PE11"]}, {}, lying=("A11",))
    result = judged(game, data, "A14")
    assert result.first is None and result.leader == "A" and result.decisions == ("red", "blue")


def test_ruling_07_once_boosts_do_not_count_for_single_cards(data: CardData) -> None:
    # A's Liberals 4 and 5 with Z23 (+2 once) against B's 3: each card alone beats 3, so A may hold
    # both factions; against B's 4 the card of 4 does not, although A's party is worth 11.
    tables = {"A": [Placed("PE21", "LIB"), Placed("PE19", "LIB"), Placed("Z23")], "B": [Placed("PE20", "LIB")]}
    assert liberal_factions(data, tables) == ("A", [{"RLIB": "A"}, {"LLIB": "A"}, {"RLIB": "A", "LLIB": "A"}])
    tables["B"] = [Placed("PE09", "LIB"), Placed("PE33", "LIB")]  # 3 + 1 = 4
    assert liberal_factions(data, tables) == ("A", [{"RLIB": "A", "LLIB": "B"}, {"LLIB": "A", "RLIB": "B"}])
    tables["A"] = [Placed("PE21", "LIB"), Placed("PE19", "LIB"), Placed("Z01")]  # +3 each: 7 and 8 beat 4
    assert len(liberal_factions(data, tables)[1]) == 3


def test_ruling_08_a_sole_holder_of_two_liberals_may_hold_both_factions(data: CardData) -> None:
    tables = {"A": [Placed("PE19", "LIB"), Placed("PE09", "LIB")], "B": [Placed("PE10", "DEM")]}
    assert liberal_factions(data, tables) == ("A", [{"RLIB": "A"}, {"LLIB": "A"}, {"RLIB": "A", "LLIB": "A"}])
    tables["A"] = [Placed("PE19", "LIB")]
    assert liberal_factions(data, tables) == ("A", [{"RLIB": "A"}, {"LLIB": "A"}])
    tables["B"] = [Placed("PE19", "LIB")]  # level Liberals: nobody chooses, no faction takes part
    assert liberal_factions(data, tables) == (None, [{}])


def test_ruling_09_the_total_value_winner_decides_freely(data: CardData) -> None:
    game = position(data, "A17", {"A": ["PE19"], "B": ["PE26", "PE17"]}, {})
    result = judged(game, data, "A17")
    assert result.mode == "gesamtwert" and dict(result.totals) == {"A": 5, "B": 3}
    assert result.leader == "A" and result.decisions == ("red", "blue")


def test_ruling_10_an_attack_targets_a_card_lying_before_the_action(data: CardData) -> None:
    game = position(data, "A01", {"A": ["PE24"]}, {"A": ["PE19"], "B": ["Z26", "Z19"]})
    assert "PE19" not in [p.target for p in legal_plays(game, data, "B")]
    assert {"PE24"} == {p.target for p in legal_plays(game, data, "B") if p.card == "Z19"}
    # Attacks may hit one's own card (the text's A10 example) and any side.
    game = position(data, "A01", {"A": ["PE24"], "B": ["PE26"]}, {"B": ["Z19"]})
    assert {p.target for p in legal_plays(game, data, "B")} == {"PE24", "PE26"}


def test_ruling_11_eliminations_before_switches_and_a_guard_blocks_once(data: CardData) -> None:
    game = position(data, "A01", {"A": ["PE24"]}, {"A": ["Z19"], "B": ["Z26"]})
    game, notes = act(game, data, "PLAY Z19 ON PE24", "PLAY Z26 ON PE24")
    results = [(n["card"], n["result"]) for n in notes if n["kind"] == "attack"]
    assert results == [("Z26", "eliminated"), ("Z19", "gone")] and "PE24" in game.removed
    game = position(data, "A01", {"B": ["PE19", "Z22"]}, {"A": ["Z26"], "B": ["Z23"]})
    game, notes = act(game, data, "PLAY Z26 ON PE19", "PLAY Z23")
    guard = next(n for n in notes if n["kind"] == "attack")
    assert guard["result"] == "blocked" and guard["guard"] == "Z22"
    assert [p.card for p in game.side("B").table] == ["PE19", "Z23"] and "Z22" in game.extra_discard


def test_ruling_12_a_satirised_person_leaves_the_game(data: CardData) -> None:
    game = position(data, "A01", {"B": ["PE19"]}, {"A": ["Z26"], "B": ["PE20"]})
    game, _ = act(game, data, "PLAY Z26 ON PE19", "PLAY PE20")
    assert "PE19" in game.removed and "PE19" not in game.person_discard and "Z26" in game.extra_discard


def test_ruling_13_a_switched_person_keeps_its_new_party_while_it_lies(data: CardData) -> None:
    game = position(data, "A14", {"B": ["PE20"]}, {"A": ["Z19", "PE01"], "B": ["PE08"]}, lying=("A11",))
    game, _ = act(game, data, "PLAY Z19 ON PE20", "PLAY PE08")
    assert game.side("B").lying("PE20").party == "REA" and "Z19" in game.extra_discard  # type: ignore[union-attr]
    game, _ = act(game, data, "PLAY PE01", None)
    assert game.side("B").lying("PE20").party == "REA"  # type: ignore[union-attr]


def test_ruling_14_without_a_keep_order_the_first_cards_stay(data: CardData) -> None:
    game = position(data, "A02", {"A": ["PE19", "Z15", "PE20", "Z11", "PE21"]}, {"A": ["PE01"], "B": ["PE02"]})
    game = replace(game, step="keep", tag="K")
    assert default_keep(game, data, "A") == Keep(("PE19", "PE20"))  # A02 keeps 2; never Z15; Z11 stays anyway
    after, notes = advance(game, data, {"B": [Keep(())], "A": []})
    assert [p.card for p in after.side("A").table] == ["PE19", "PE20", "Z11"]
    assert {"Z15", "PE21"} <= set(after.person_discard + after.extra_discard)
    assert after.step == "play" and len(after.side("A").hand) == 6  # refilled: 3 persons, 3 extras


def test_ruling_15_a_player_who_passed_plays_again_when_his_side_is_attacked(data: CardData) -> None:
    game = position(data, "A01", {"A": ["PE19", "Z22"]}, {"A": ["PE20"], "B": ["Z26", "PE02"]})
    game, _ = act(game, data, "PASS", "PLAY PE02")
    assert game.actors == ("B",)
    game, notes = act(game, data, None, "PLAY Z26 ON PE19")  # warded off by Z22, still an attack on A's side
    assert {"kind": "reenter", "player": "A"} in notes and game.actors == ("A",)


def test_ruling_16_a_hand_of_army_cards_only_passes(data: CardData) -> None:
    game = position(data, "A01", {}, {"A": ["Z28", "PE19"], "B": ["Z34"]})
    game, notes = act(game, data, "PLAY PE19", None)
    assert {"kind": "pass", "player": "B", "default": True} in notes
    assert {"kind": "pass", "player": "A", "default": True, "forced": True} in notes
    assert game.side("A").hand == ("Z28",) and game.side("A").won == ("A01",)


def test_ruling_17_a_two_party_person_keeps_the_chosen_party(data: CardData) -> None:
    game = position(data, "A01", {}, {"A": ["PE42", "PE01"], "B": ["PE02", "PE09"]})
    game, _ = act(game, data, "PLAY PE42 AS Republican", "PLAY PE02")
    assert game.side("A").lying("PE42").party == "REP"  # type: ignore[union-attr]
    assert problem(game, data, "A", Play("PE42", party="REP")) == "PE42 is not in your hand"
    game = position(data, "A01", {}, {"A": ["PE42"]})
    assert problem(game, data, "A", Play("PE42")) == "PE42 is DEM or REP: add AS <party>"
    assert problem(game, data, "A", Play("PE42", party="LIB")) == "PE42 cannot be LIB, only DEM or REP"


def test_ruling_18_a_stalemate_replays_the_round_from_phase_2(data: CardData) -> None:
    game = position(data, "A07", {"A": ["PE19"], "B": ["PE28"]}, {})
    game, notes = act(game, data, None, None)
    assert {"kind": "stalemate", "card": "A07"} in notes
    assert (game.flow, game.step, game.round) == ("A07", "keep", 11)
    assert not game.side("A").won and not game.side("B").won and game.phase == "R11A07-K"


def test_ruling_19_only_the_army_with_the_better_claim_puts_a_rising_down(data: CardData) -> None:
    game = position(data, "A18", {}, {"A": [], "B": []}, lying=("A04", "A17"))
    strong = Army(1, "A", "free", ("Z28", "Z29", "PE34"))        # morale 3, strength 13
    weak = Army(2, "B", "A04", ("Z32", "Z33", "Z14"))             # morale 3, strength 9
    game = replace(game, armies=(strong, weak), next_army=3)
    assert military.problem(game, data, "B", Attack("Z32", "A17")) == "this army cannot put down A17"
    assert military.problem(game, data, "A", Attack("Z28", "A17")) is None
    game, _ = military.apply(game, data, "A", Attack("Z28", "A17"))
    assert "A17" not in game.lying and "A17" in game.side("A").won and game.army(1).at == "free"  # type: ignore[union-attr]


def test_ruling_20_an_army_beats_a_weaker_sworn_army_which_gives_up_a_card(data: CardData) -> None:
    game = position(data, "A16", {}, {"A": [], "B": []}, lying=("A04", "A15"))
    game = replace(game, armies=(Army(1, "A", "free", ("Z28", "Z31")), Army(2, "B", "A15", ("Z33", "PE39"))),
                   next_army=3, winner="A", military_queue=("A", "B"), step="military", tag="M1", actors=("A",),
                   pending_next="A17")
    assert military.problem(game, data, "B", Attack("Z33", "Z28")) is not None  # A15 > free is not in the list
    game, notes = advance(game, data, {"A": [Attack("Z28", "Z33")]})
    assert (game.step, game.tag, game.actors) == ("loss", "D1", ("B",))
    game, notes = advance(game, data, {"B": [Lose("PE39")]})
    assert game.army(2).cards == ("Z33",) and "PE39" in game.person_discard  # type: ignore[union-attr]
    assert (game.step, game.actors) == ("military", ("B",))


def test_ruling_21_without_a_choice_the_attacked_army_loses_its_weakest_card(data: CardData) -> None:
    game = position(data, "A16", {}, {"A": [], "B": []}, lying=("A04", "A15"))
    game = replace(game, armies=(Army(2, "B", "A15", ("Z33", "PE39", "Z30")),), loss_army=2, step="loss",
                   tag="D1", actors=("B",), military_queue=("A", "B"), winner="A", pending_next="A17")
    game, notes = advance(game, data, {})
    assert {"kind": "lost", "player": "B", "card": "Z30"} in notes  # strength 3 < 4


def test_ruling_22_the_parliamentary_army_forms_by_itself(data: CardData) -> None:
    game = position(data, "A12", {}, {"A": [], "B": []}, lying=("A04", "A05", "A11"))
    game = replace(game, flow="A12", winner="A", armies=(
        Army(1, "A", "A04", ("Z28", "Z15")), Army(2, "A", "free", ("Z32", "Z13")),
        Army(3, "B", "A04", ("Z33", "PE39")), Army(4, "B", "free", ("Z34",))), next_army=5)
    game, notes = decide(game, data, "red")  # A12's red stays: for a parliamentary army
    assert (game.step, game.actors, game.phase[-2:]) == ("join", ("A", "B"), "-J")
    game, notes = advance(game, data, {})  # nobody answers: every army that may join does (ruling 42)
    at_a12 = [a for a in game.armies if a.at == "A12"]
    assert [(a.owner, a.cards) for a in at_a12] == [("A", ("Z28", "Z15", "Z32", "Z13")), ("B", ("Z34",))]
    assert game.army(3).at == "A04"  # type: ignore[union-attr]  # led by a general: stays


def test_ruling_23_the_oath_without_armies_goes_on_with_a16() -> None:
    assert base_data()["flow"]["A15"]["next"] == "A16"
    data = with_flow(complete_data(), "A15", next="A16")
    game = position(data, "A14", {}, {"A": [], "B": []}, lying=("A04", "A05", "A11"))
    game, notes = enter(game, data, "A15")
    assert {"kind": "oath_none"} in notes and game.flow == "A16" and "A15" in game.lying
    game = position(data, "A14", {}, {"A": [], "B": []}, lying=("A04", "A05", "A11"))
    game = replace(game, armies=(Army(1, "A", "free", ("Z28", "Z13", "PE34")), Army(2, "B", "free", ("Z32", "Z14"))))
    game, notes = enter(game, data, "A15")
    assert game.flow == "A17" and [a.at for a in game.armies] == ["A15", "A15"]
    game = replace(position(data, "A14", {}, {"A": [], "B": []}, lying=("A13",)),
                   armies=(Army(1, "A", "free", ("Z28", "Z13", "PE34")),))
    game, _ = enter(game, data, "A15")
    assert game.armies[0].at == "free" and game.flow == "A16"  # A13 lies: only armies of 2 cards


def test_ruling_24_ties_in_the_question_of_power(data: CardData) -> None:
    game = position(data, "A23", {"A": ["Z14"]}, {"A": [], "B": []}, lying=("A04",))
    game = replace(game, armies=(Army(1, "B", "free", ("Z33", "Z30")),))  # reaction 7 = Z14's 7
    game, notes = enter(game, data, "A24")
    powers = [n for n in notes if n["kind"] == "power"]
    assert powers[0]["revolution"] == powers[0]["reaction"] == 7
    assert [n["card"] for n in notes if n["kind"] == "flow"] == ["A24", "A25", "A26"]  # A25: a tie wins
    assert game.ended == "A26"


def test_ruling_25_forecasts_stay_sealed_until_the_end(data: CardData) -> None:
    state = MODULE.start(dict(COMPLETE), 2)
    game = from_json(state["game"])
    game = replace(game, step="forecast", tag="P", actors=("A", "B"), flow="A05", pending_next="A06")
    state = {**state, "game": to_json(game), "phase": game.phase}
    resolution = MODULE.resolve(state, {"A": ["FORECAST C"]})
    text = repr(resolution.report)
    assert "FORECAST" not in text and "'C'" not in text
    after = from_json(resolution.state["game"])
    assert after.side("A").forecast == "C" and final_forecast(after, data, "B") == "E"
    events = [e["en"] for e in resolution.report["events"]]
    assert "Player A lays his forecast face down under A05." in events
    assert "Player B gives no forecast (E counts)." in events


def test_ruling_26_equal_totals_are_a_draw(data: CardData) -> None:
    state = MODULE.start(dict(COMPLETE), 2)
    game = replace(from_json(state["game"]), flow="A25", step="forecast", tag="P", actors=("A", "B"),
                   pending_next="A26")
    state = {**state, "game": to_json(game), "phase": game.phase}
    resolution = MODULE.resolve(state, {})
    assert resolution.next_phase is None and resolution.winner is None and resolution.draw == "0:0"
    won = replace(game, sides=(replace(game.sides[0], won=("A01",)), game.sides[1]))
    resolution = MODULE.resolve({**state, "game": to_json(won)}, {})
    assert resolution.winner == "A" and resolution.draw is None and MODULE.standings(resolution.state) == {
        "A": 2, "B": 0}


def test_ruling_27_military_actions_from_a06_on_winner_first(data: CardData) -> None:
    game = position(data, "A03", {"A": ["PE19"]}, {"A": ["Z28"], "B": ["Z34"]}, lying=("A04",))
    game, _ = act(game, data, None, None)
    assert game.step == "forecast"  # A03: no military phase before A06
    game = position(data, "A07", {"B": ["PE19"]}, {"A": ["Z28"], "B": ["Z34"]})
    game, _ = act(game, data, None, None)
    assert game.step == "vote" and game.actors == ("B",)
    game, _ = advance(game, data, {"B": [Decide("red")]})
    assert (game.step, game.tag, game.actors) == ("military", "M1", ("B",))
    game, _ = advance(game, data, {"B": [PlaceArmy("Z34", "A04")]})
    assert (game.step, game.tag, game.actors) == ("military", "M2", ("A",))
    game, _ = advance(game, data, {"A": [NoAction()]})
    assert game.flow == "A08" and [(a.owner, a.at, a.cards) for a in game.armies] == [("B", "A04", ("Z34",))]


def test_ruling_28_an_army_without_army_cards_dissolves(data: CardData) -> None:
    game = position(data, "A07", {}, {"A": [], "B": []})
    game = replace(game, armies=(Army(1, "A", "A04", ("Z28", "PE34")),))
    game, _ = military.apply(game, data, "A", Remove("Z28"))
    assert game.armies == () and {"Z28"} <= set(game.extra_discard) and "PE34" in game.person_discard


def test_ruling_29_no_army_card_joins_the_parliamentary_army(data: CardData) -> None:
    game = position(data, "A13", {}, {"A": ["Z29", "PE42"], "B": []}, lying=("A04", "A12"))
    game = replace(game, armies=(Army(1, "A", "A12", ("Z28",)),))
    assert military.problem(game, data, "A", PlaceArmy("Z29", "Z28")) is not None
    assert military.problem(game, data, "A", General("PE42", "A12")) is None
    game, _ = military.apply(game, data, "A", General("PE42", "A12"))
    assert military.problem(game, data, "A", Remove("Z28")) == \
        "no army card leaves A12 while a revolutionary general leads it"


def test_ruling_30_the_last_play_of_a_mail_counts(data: CardData) -> None:
    state = MODULE.start(dict(COMPLETE), 3)
    plays = MODULE.legal_orders(state, "A")
    check = MODULE.check_orders(state, "A", [(1, plays[0]), (2, "PASS")])
    assert [a.canonical for a in check.accepted] == ["PASS"]
    assert check.problems[0].message == "superseded by line 2 (one per play step)"


def test_ruling_31_the_default_decision_is_the_first_open_one(data: CardData) -> None:
    game = position(data, "A07", {"B": ["PE19"]}, {})
    game, _ = act(game, data, None, None)
    assert game.decisions == ("red", "blue")
    game, notes = advance(game, data, {})
    assert {"kind": "decision", "player": "B", "card": "A07", "colour": "red"} in notes


def test_ruling_32_both_liberal_press_cards_do_the_same() -> None:
    raw = base_data()
    assert raw["extra"]["Z22"]["effects"] == raw["extra"]["Z23"]["effects"]
    assert raw["extra"]["Z07"]["effects"] == ["attack eliminate influence person"]
    assert raw["extra"]["Z19"]["effects"] == ["attack switch LIB to REA uprising"]


def test_ruling_33_schmerlings_parties_are_left_to_the_game_master() -> None:
    raw = base_data()
    assert raw["person"]["PE25"]["parties"] == "unknown" and raw["person"]["PE25"]["value"] == 3
    assert "card.PE25.parties" in missing_values(raw)


def test_ruling_34_the_rising_in_frankfurt_is_a17() -> None:
    raw = base_data()
    assert raw["flow"]["A17"]["name"] == "Volksaufstand in Frankfurt"
    assert raw["flow"]["A17"]["conquest"] == {"nations": ["austria", "prussia"], "morale": 3}
    assert raw["flow"]["A19"]["conquest"] == {"nations": ["austria"], "morale": 4}


def test_ruling_35_phase_2_leaves_the_armies_alone(data: CardData) -> None:
    game = position(data, "A08", {"A": ["PE19"]}, {"A": ["PE01"], "B": ["PE02"]})
    game = replace(game, step="keep", tag="K", armies=(Army(1, "A", "A04", ("Z28",)),))
    after, _ = advance(game, data, {"A": [Keep(()), Discard(("PE01",))], "B": [Keep(())]})
    assert after.armies == game.armies and after.side("A").table == () and "PE01" in after.person_discard


def test_ruling_36_the_forecast_is_withdrawn_last_winner_first(data: CardData) -> None:
    game, _ = new_game(data, 4)
    game = replace(game, last_winner="B", sides=(replace(game.sides[0], forecast="A"),
                                                  replace(game.sides[1], forecast="C")))
    game, notes = enter(game, data, "A11")
    assert (game.step, game.tag, game.actors) == ("withdraw", "X1", ("B",))
    game, _ = advance(game, data, {"B": [Withdraw()]})
    assert (game.tag, game.actors) == ("X2", ("A",))
    game, _ = advance(game, data, {"A": [Stand()]})
    assert game.flow == "A12" and final_forecast(game, data, "B") == "E" and final_forecast(game, data, "A") == "A"


def test_ruling_37_a_successful_a09_radicalises_the_revolution(data: CardData) -> None:
    game = position(data, "A09", {"A": ["PE04", "PE06"], "B": ["PE19"]}, {})
    game, notes = act(game, data, None, None)
    assert {"kind": "radical"} in notes and game.radical
    result = judged(replace(game, flow="A16"), data, "A16")
    assert result.standing("LIB").controller == "B"
    blue = next(b for b in result.blocs if b.colour == "blue")
    assert blue.parties == ("LIB",)  # radicalised: A16's Liberals now on the blue side


def test_ruling_38_forecasts_score_by_the_end(data: CardData) -> None:
    game, _ = new_game(data, 4)
    game = replace(game, sides=(replace(game.sides[0], forecast="A", won=("A01", "A14")),
                                replace(game.sides[1], forecast="D", withdrawn=True)), lying=("A13",))
    points = score(game, data, "A26")
    assert points["A"] == {"cards": 5, "armies": 0, "forecast": 6, "total": 11}
    assert points["B"]["forecast"] == 0  # withdrawn: E, neither right nor wrong
    assert score(game, data, "A25")["A"]["forecast"] == -2


# --- The military rule as the text states it -------------------------------------------------------


def test_an_army_conquers_an_intervention_card_it_exceeds(data: CardData) -> None:
    # "eine österreichische Armee mit einer den Zahlenwert 11 übertreffenden Stärke gegen ... Krakau (Z13)"
    game = position(data, "A08", {"B": ["PE19", "Z13"]}, {"A": [], "B": []})
    game = replace(game, armies=(Army(1, "A", "A04", ("Z28", "Z31")), Army(2, "A", "A12", ("Z29", "Z30", "Z32"))))
    assert military.problem(game, data, "A", Attack("Z28", "Z13")) == "the army's strength 11 does not exceed 11"
    assert military.problem(game, data, "A", Attack("Z29", "Z13")) == \
        "this army cannot march out (A12, or A15 without a national general)"
    game = replace(game, armies=(Army(1, "A", "A04", ("Z28", "Z31", "PE36")),))
    game, _ = military.apply(game, data, "A", Attack("Z28", "Z13"))
    army = game.army(1)
    assert army is not None and army.at == "free" and army.cards[-1] == "Z13"
    assert [p.card for p in game.side("B").table] == ["PE19"]
    assert military.strength(data, army) == 16 and military.morale(army) == 4  # Z13 adds morale only


def test_generals_lead_their_own_flag_and_revolutionary_generals_merge_a15(data: CardData) -> None:
    game = position(data, "A17", {}, {"A": ["PE34", "PE39", "PE03"], "B": []}, lying=("A04", "A15"))
    game = replace(game, armies=(Army(1, "A", "A15", ("Z28",)), Army(2, "A", "A15", ("Z32",))), next_army=3)
    assert military.problem(game, data, "A", General("PE39", "Z28")) is not None  # Prussian to Austrian
    assert military.problem(game, data, "A", General("PE34", "Z28")) is None
    game, _ = military.apply(game, data, "A", General("PE03", "Z28"))
    assert [(a.at, a.cards) for a in game.armies] == [("A15", ("Z28", "Z32", "PE03"))]
    assert military.nation(data, game.armies[0]) == "mixed"
    assert military.problem(game, data, "A", General("PE34", "Z28")) is not None  # no national general now


def test_a_free_army_is_sworn_in_at_a15(data: CardData) -> None:
    game = position(data, "A17", {}, {"A": [], "B": []}, lying=("A04", "A15"))
    game = replace(game, armies=(Army(1, "A", "free", ("Z28", "Z13")),))
    game, _ = military.apply(game, data, "A", Swear("Z28"))
    assert game.armies[0].at == "A15"
    assert military.problem(game, data, "A", Swear("Z28")) == "only a free army or one at A04 can be sworn in"


def test_the_private_view_shows_only_ones_own_cards(data: CardData) -> None:
    state = MODULE.start(dict(COMPLETE), 6)
    game = from_json(state["game"])
    view = MODULE.private_view(state, "A")
    assert [c["card"] for c in view["hand"]] == list(game.side("A").hand)
    assert not set(game.side("B").hand) & {c["card"] for c in view["hand"]}
    assert view["orders"][-1] == "PASS" and all(o.split()[1] in game.side("A").hand for o in view["orders"][:-1])
    game = replace(game, step="forecast", tag="P", actors=("A", "B"), flow="A05", pending_next="A06")
    state = {**state, "game": to_json(game), "phase": game.phase}
    after = MODULE.resolve(state, {"A": ["FORECAST D"], "B": ["FORECAST B"]}).state
    assert MODULE.private_view(after, "A")["forecast"] == "D" and MODULE.private_view(after, "B")["forecast"] == "B"


def test_ruling_39_z02_strengthens_the_republicans_too(data: CardData) -> None:
    # The A06 example: A's Republicans are Schurz 5 + Z10's 5 = 10; B's Herwegh with Z02 must be above
    # that although person cards are worth 1-8.
    assert "boost REP unknown once" in base_data()["extra"]["Z02"]["effects"]
    assert [(b.party, b.amount) for b in data.extras["Z02"].boosts] == [("DEM", 7), ("REP", 7)]
    assert 1 <= data.persons["PE04"].value <= 8 and data.persons["PE04"].value + 7 > 10


def test_ruling_40_a_faction_not_chosen_is_the_one_best_for_the_chooser(data: CardData) -> None:
    from tests.test_revolution1848_examples import A14_PLAYS, a14_start
    game = a14_start(data)
    for a, b in A14_PLAYS:
        game, _ = act(game, data, a, b)
    assert game.step == "faction" and game.actors == ("B",)
    state = {**MODULE.start(dict(COMPLETE), 1), "game": to_json(game), "phase": game.phase}
    assert MODULE.legal_orders(state, "B") == ["FACTION RIGHT", "FACTION LEFT"]
    check = MODULE.check_orders(state, "B", [(1, "FACTION BOTH"), (2, "FACTION LEFT")])
    assert [p.message for p in check.problems] == ["BOTH is not open to you: choose RIGHT or LEFT"]
    assert MODULE.check_orders(state, "A", [(1, "FACTION RIGHT")]).problems[0].message.startswith(
        "you have nothing to do")
    after, notes = advance(game, data, {})
    assert notes[0] == {"kind": "faction", "player": "B", "faction": "RLIB", "default": True}
    assert {"kind": "won", "player": "A", "card": "A14"} in notes and after.step == "vote"


def test_ruling_41_the_party_abbreviations_of_the_basic_game() -> None:
    # the publisher's basic-game sample round: RR Republikaner, DL Demokraten, L Liberale, R Reaktionäre
    for written, party in (("DL", "DEM"), ("RR", "REP"), ("R", "REA"), ("D", "DEM"), ("L", "LIB"),
                           ("Reak", "REA"), ("(RR)", "REP"), ("(R)", "REA")):
        order = parse_line(f"SPIELE PE25 ALS {written}")
        assert isinstance(order, Play) and order.party == party, written


def test_ruling_42_joining_the_parliamentary_army_is_a_choice(data: CardData) -> None:
    game = position(data, "A12", {}, {"A": [], "B": []}, lying=("A04", "A05", "A11"))
    game = replace(game, flow="A12", winner="A", armies=(
        Army(1, "A", "A04", ("Z28", "Z15")), Army(2, "A", "free", ("Z32", "Z13")),
        Army(3, "B", "A04", ("Z33", "PE39")), Army(4, "B", "free", ("Z34",))), next_army=5)
    game, _ = decide(game, data, "red")
    state = {**MODULE.start(dict(COMPLETE), 1), "game": to_json(game), "phase": game.phase}
    assert MODULE.legal_orders(state, "A") == ["JOIN ALL", "JOIN NONE", "JOIN Z28", "JOIN Z32"]
    assert MODULE.legal_orders(state, "B") == ["JOIN ALL", "JOIN NONE"]  # Z33's army has a general
    check = MODULE.check_orders(state, "A", [(1, "UNTERSTELLE Z15"), (2, "JOIN Z33")])
    assert [a.canonical for a in check.accepted] == ["JOIN Z28"]
    assert check.problems[0].message.startswith("Z33 names no army of yours that may join")
    game, notes = advance(game, data, {"A": [parse_line("UNTERSTELLE Z32")], "B": [parse_line("JOIN NONE")]})
    assert [(a.owner, a.at, a.cards) for a in game.armies if a.at == "A12"] == [("A", "A12", ("Z32", "Z13"))]
    assert game.army(1).at == "A04" and game.army(4).at == "free"  # type: ignore[union-attr]
    assert {"kind": "parliament_declined", "player": "B"} in notes


def test_ruling_43_a_decision_on_the_table_hinders_an_intervention(data: CardData) -> None:
    assert data.flows["A13"].hinders == (("Z13", 2),)  # the stand-in's data
    strength = sum(data.strength_of(c) for c in ("Z28", "Z29", "Z30"))
    assert 11 < strength <= 13, strength
    table = {"B": ["Z13"]}
    free = (Army(1, "A", "free", ("Z28", "Z29", "Z30")),)
    game = replace(position(data, "A14", table, {"A": [], "B": []}, lying=("A04", "A05", "A11")), armies=free)
    assert military.problem(game, data, "A", Attack("Z28", "Z13")) is None
    hindered = replace(game, lying=game.lying + ("A13",))
    assert military.problem(hindered, data, "A", Attack("Z28", "Z13")) == (
        f"the army's strength {strength} does not exceed 13 (11 made harder by A13)")
    with pytest.raises(CardDataError, match="Z07 is no intervention card"):
        card_data({**COMPLETE, "card.A13.hinders": "Z07 +1"})
