"""Kreml's rules, one scenario each: the position, the orders, seeded dice
and the expected outcome.  Tests named ``test_ruling_<n>_...`` state the
rulings of docs/games/kreml.md; the others state the rule text."""

from __future__ import annotations

import json

import pytest

from adjudicator.games.kreml import data, flow, influence, legal
from adjudicator.games.kreml.rules import rule_options
from adjudicator.games.base import GameSetupError
from tests.kreml_support import NESTOR, STANDARD, at_phase, dice, event, game, keys, play
from tests.kreml_support import orders as orders_of

KADEROW, MANDATOW, DIREKTIWIN = "Juri Kaderow", "Michail Mandatow", "Grigori Direktiwin"
IDEOLOW, NORMOW, DATSCHNIK, WODKIN = "Igor Ideolow", "Nikolai Normow", "Wassili Datschnik", "Viktor Wodkin"
APPARATOW, GENOSSOW, LENKIN = "Anatoli Apparatow", "Gennadi Genossow", "Leonid Lenkin"
LED_CHIEF = dict(STANDARD, chief=LENKIN, wall=[NESTOR])


def where(state: dict, name: str) -> str:
    return str(state["pol"][name]["where"])


def age(state: dict, name: str) -> int:
    return int(state["pol"][name]["age"])


# --- setup and notes ---------------------------------------------------------------------------


def test_setup_puts_nestor_at_the_top_with_one_marker_and_draws_the_rest_from_the_seed() -> None:
    first = flow.new_game(data.standin(), ("A", "B", "C"), ("A", "B", "C"), rule_options({}), "s1")
    again = flow.new_game(data.standin(), ("A", "B", "C"), ("A", "B", "C"), rule_options({}), "s1")
    other = flow.new_game(data.standin(), ("A", "B", "C"), ("A", "B", "C"), rule_options({}), "s2")
    assert first["pol"] == again["pol"] and first["pol"] != other["pol"]
    assert first["pol"][NESTOR]["where"] == "chief" and first["pol"][NESTOR]["ill"] == 1
    places = [e["where"] for e in first["pol"].values()]
    assert sorted(p for p in places if p not in ("candidate", "people")) == sorted(
        ["chief", "kgb", "foreign", "defence", "ideology", "industry", "agriculture", "sport"])
    assert places.count("candidate") == 5 and places.count("people") == 11
    assert first["rolls"][0]["kind"] == "shuffle" and first["step"]["kind"] == "notes"


def test_a_note_needs_ten_politicians_points_one_to_ten_once_and_never_nestor() -> None:
    names = [p.name for p in data.standin().politicians if p.name != NESTOR]
    good = {n: i + 1 for i, n in enumerate(names[:10])}
    assert influence.note_problem(good, names) is None
    assert "once" in str(influence.note_problem({**good, names[0]: 2}, names))
    assert "Nestor" in str(influence.note_problem({NESTOR: 1, **dict(list(good.items())[1:])}, names))
    assert "10 different" in str(influence.note_problem(dict(list(good.items())[:9]), names))


# --- revealing influence --------------------------------------------------------------------------


def test_a_reveal_needs_a_politburo_member_points_noted_and_one_more_than_the_leader() -> None:
    state = game(leaders={KADEROW: ("A", 4)}, notes={"B": {KADEROW: 6, APPARATOW: 9}})
    assert influence.reveal_problem(state, "B", KADEROW, 4) is not None  # equal is not enough
    assert influence.reveal_problem(state, "B", KADEROW, 5) is None
    assert "6" in str(influence.reveal_problem(state, "B", KADEROW, 7))  # never more than noted
    assert "Politburo" in str(influence.reveal_problem(state, "B", APPARATOW, 3))  # a candidate
    assert "Nestor" in str(influence.reveal_problem(state, "B", NESTOR, 1))


def test_ruling_1_reveal_takes_effect_at_the_next_step_in_seniority_order() -> None:
    # B and C both reveal 5 on the unled KGB chief while the chief's cure is asked (phase 1).
    state = game(leaders={IDEOLOW: ("A", 3)}, notes={"B": {KADEROW: 5}, "C": {KADEROW: 7}},
                 ill={NESTOR: 1, IDEOLOW: 1}, seniority=("C", "B", "A", "D"))
    state = at_phase(state, 1, until=2)
    assert state["step"]["kind"] == "cure" and flow.seats(state) == ["A"]
    after = play(state, A="STAY", B="REVEAL Kaderow 5", C="REVEAL Kaderow 5")
    # C is older: C takes him with 5; B's 5 is no longer enough and lapses privately.
    assert after["leaders"][KADEROW] == ["C", 5]
    assert after["step"]["kind"] == "purge" and flow.seats(after) == ["C"]
    assert [n["key"] for n in after["notices"]["B"]] == ["reveal_lapsed"]
    assert all(e["args"].get("player") != "B" for e in after["events"] if e["key"] == "revealed")


def test_ruling_1_a_reveal_waits_while_its_politician_acts() -> None:
    # A's KGB chief is purging; B's takeover waits until the purges are over.
    seed = dice(lambda r: r >= 10)
    state = at_phase(game(leaders={KADEROW: ("A", 3)}, notes={"B": {KADEROW: 8}}, seed=seed), 2, until=3)
    after = play(state, A="PURGE Ideolow", B="REVEAL Kaderow 4")
    assert where(after, IDEOLOW) == "siberia"
    assert after["step"]["kind"] == "purge" and after["leaders"][KADEROW] == ["A", 3]
    assert after["pending"] == [["B", KADEROW, 4]]
    done = play(after, A="END")
    assert event(done, "revealed") == {"player": "B", "name": KADEROW, "points": 4, "before": "A"}
    assert done["pending"] == []


def test_ruling_2_a_lapsed_reveal_is_told_only_to_its_sender() -> None:
    state = at_phase(game(leaders={KADEROW: ("A", 3)}, notes={"B": {MANDATOW: 4}}), 2)
    after = play(state, A="END", B="REVEAL Mandatow 4")
    assert after["leaders"][MANDATOW] == ["B", 4]
    # A politician who left the Politburo before the reveal's time cannot be taken over.
    state = at_phase(game(leaders={KADEROW: ("A", 3)}, notes={"B": {IDEOLOW: 4}}, seed=dice(20)), 2)
    after = play(state, A="PURGE Ideolow", B="REVEAL Ideolow 4")
    assert IDEOLOW not in after["leaders"]
    assert after["notices"]["B"][-1]["key"] == "reveal_lapsed"
    assert "Ideolow" not in json.dumps([e for e in after["events"] if e["key"] == "revealed"])


def test_ruling_3_a_reveal_sets_the_points_shown_and_a_leader_may_raise_his_own() -> None:
    state = game(leaders={KADEROW: ("A", 3)}, notes={"A": {KADEROW: 9}})
    assert influence.reveal_problem(state, "A", KADEROW, 3) is not None
    assert influence.reveal_problem(state, "A", KADEROW, 6) is None
    state = at_phase(state, 2)
    after = play(state, A=["REVEAL Kaderow 6", "END"])
    assert after["leaders"][KADEROW] == ["A", 6]


def test_leadership_is_lost_when_the_politician_leaves_the_politburo_hausregel_2() -> None:
    for variant, kept in ((2, False), (1, True)):
        seed = dice(lambda r: r >= 10)
        state = at_phase(game(leaders={KADEROW: ("A", 3), IDEOLOW: ("B", 2)}, seed=seed, rules={"hr2": variant}), 2)
        after = play(state, A=["PURGE Ideolow", "END"])
        assert (IDEOLOW in after["leaders"]) is kept
        assert flow.leader(after, IDEOLOW) is None  # outside the Politburo no one leads him


# --- phase 1 ---------------------------------------------------------------------------------------


def test_phase_1_sick_members_are_asked_in_rank_order_and_the_chief_always_ages() -> None:
    state = game(leaders={NORMOW: ("B", 2), KADEROW: ("A", 3)}, ill={NESTOR: 1, NORMOW: 1, KADEROW: 2})
    state = at_phase(state, 1)
    assert state["step"]["actor"] == KADEROW  # KGB before the Industry Minister
    after = play(state, A="CURE")
    assert after["pol"][KADEROW]["cure"] and after["step"]["actor"] == NORMOW
    ages = age(after, NORMOW), age(after, NESTOR)
    after = play(after, B="STAY")
    assert age(after, NORMOW) == ages[0] + 1  # sick and stays: 1 stress
    assert age(after, NESTOR) == data.standin().politician(NESTOR).age + 2  # sick 1, chief 1 (ruling 7)
    assert age(after, KADEROW) == state["pol"][KADEROW]["age"]  # in cure: none


def test_ruling_6_a_sick_chief_who_stays_gets_two_stress_points() -> None:
    state = at_phase(game(ill={NESTOR: 2}), 1)
    assert age(state, NESTOR) == data.standin().politician(NESTOR).age + 2


def test_ruling_7_an_unled_sick_member_stays_and_ages() -> None:
    state = at_phase(game(ill={NESTOR: 0, WODKIN: 1}), 1)
    assert not state["pol"][WODKIN]["cure"] and "cure_unled" in [e["key"] for e in state["events"]]
    assert age(state, WODKIN) == data.standin().politician(WODKIN).age + 1


def test_a_member_in_cure_cannot_act_and_cannot_vote() -> None:
    state = game(leaders={KADEROW: ("A", 3), IDEOLOW: ("B", 2)}, ill={NESTOR: 0, KADEROW: 1})
    after = play(at_phase(state, 1, until=2), A="CURE")
    assert after["step"]["kind"] == "purge" and after["step"]["actor"] == IDEOLOW  # the first substitute
    state = game(leaders={DIREKTIWIN: ("A", 3)}, inv={MANDATOW: 0}, cure=(WODKIN,), ill={NESTOR: 0})
    state = at_phase(state, 3)
    state = play(state, A=["END"])
    voting = play(state, A="ACCUSE Mandatow")
    assert WODKIN not in voting["step"]["voters"] and MANDATOW in voting["step"]["voters"]


# --- phase 2 ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("target,need", [(NESTOR, 18), (MANDATOW, 14), (IDEOLOW, 10), (APPARATOW, 6)])
def test_purge_thresholds_by_level(target: str, need: int) -> None:
    for roll, success in ((need, True), (need - 1, False)):
        state = at_phase(game(leaders={KADEROW: ("A", 3)}, seed=dice(roll)), 2)
        after = play(state, A=f"PURGE {target}")
        assert (where(after, target) == "siberia") is success
        assert event(after, "purged" if success else "purge_failed")["need"] == need
        assert age(after, KADEROW) == age(state, KADEROW) + (1 if success else 3)


def test_a_purge_of_a_member_in_cure_has_three_more_on_the_die() -> None:
    state = at_phase(game(leaders={KADEROW: ("A", 3)}, cure=(NESTOR,), seed=dice(15)), 2)
    after = play(state, A="PURGE Nestor")
    assert where(after, NESTOR) == "siberia" and event(after, "purged")["need"] == 15


def test_ruling_22_later_lines_are_tried_in_order_within_the_running_action() -> None:
    state = at_phase(game(leaders={KADEROW: ("A", 3)}, seed=dice(10, 5)), 2)
    after = play(state, A=["PURGE Ideolow", "PURGE Apparatow", "PURGE Genossow"])
    assert where(after, IDEOLOW) == "siberia" and where(after, APPARATOW) == "candidate"
    assert where(after, GENOSSOW) == "candidate" and after["step"]["kind"] != "purge"
    assert after["notices"]["A"][-1]["key"] == "order_unused"


def test_a_purge_keeps_illness_and_age_and_removes_an_investigation() -> None:
    state = at_phase(game(leaders={KADEROW: ("A", 3)}, ill={NESTOR: 1, IDEOLOW: 2}, inv={IDEOLOW: 0},
                          seed=dice(20)), 2)
    after = play(state, A="PURGE Ideolow")
    assert after["pol"][IDEOLOW]["ill"] == 2 and after["pol"][IDEOLOW]["inv"] is None
    assert age(after, IDEOLOW) == age(state, IDEOLOW)


def test_hausregel_6_one_purge_attempt_per_politician_a_year() -> None:
    state = at_phase(game(leaders={KADEROW: ("A", 3)}, seed=dice(20)), 2)
    after = play(state, A="PURGE Apparatow")
    assert all(APPARATOW not in o.names for o in legal.step_orders(after))
    state = at_phase(game(leaders={KADEROW: ("A", 3)}, seed=dice(20), rules={"hr6": 2}), 2)
    state["pol"][IDEOLOW]["tried"] = True
    assert any(IDEOLOW in o.names for o in legal.step_orders(state))


def test_an_unled_kgb_chief_does_not_purge_and_no_one_stands_in() -> None:
    state = at_phase(game(leaders={IDEOLOW: ("B", 2)}), 2)
    assert "lapses_unled" in [e["key"] for e in state["events"]] and state["step"]["kind"] != "purge"


def test_ruling_8_no_one_purges_or_investigates_himself() -> None:
    state = at_phase(game(leaders={KADEROW: ("A", 3)}), 2)
    assert all(KADEROW not in o.names for o in legal.step_orders(state))
    state = at_phase(game(leaders={DIREKTIWIN: ("A", 3)}), 3)
    assert all(DIREKTIWIN not in o.names for o in legal.step_orders(state))


# --- phase 3 --------------------------------------------------------------------------------------


def test_investigations_cost_stress_and_every_pending_one_ages_its_target() -> None:
    state = at_phase(game(leaders={DIREKTIWIN: ("A", 3)}, inv={WODKIN: 0}), 3)
    before = {n: age(state, n) for n in (DIREKTIWIN, IDEOLOW, NORMOW, WODKIN)}
    after = play(state, A=["INVESTIGATE Ideolow", "INVESTIGATE Normow", "END"])
    assert age(after, DIREKTIWIN) == before[DIREKTIWIN] + 2
    assert age(after, IDEOLOW) == before[IDEOLOW] + 1 and age(after, WODKIN) == before[WODKIN] + 1
    assert after["pol"][IDEOLOW]["inv"] == 1 and after["step"]["kind"] == "accuse"
    assert [o.names for o in legal.step_orders(after) if o.verb == "ACCUSE"] == [(WODKIN,)]


def test_only_investigations_of_earlier_years_can_be_closed() -> None:
    state = at_phase(game(leaders={DIREKTIWIN: ("A", 3)}, inv={WODKIN: 0}), 3)
    after = play(state, A=["INVESTIGATE Ideolow"])
    closable = [o.names[0] for o in legal.step_orders(after) if o.verb == "CLOSE"]
    assert closable == [WODKIN]
    after = play(after, A=["CLOSE Wodkin", "END"])
    assert after["pol"][WODKIN]["inv"] is None and age(after, WODKIN) == age(state, WODKIN)


def _accusation(votes: dict[str, str]) -> dict:
    leaders = {DIREKTIWIN: ("A", 3), MANDATOW: ("B", 2), IDEOLOW: ("C", 2), NORMOW: ("D", 2)}
    state = at_phase(game(leaders=leaders, inv={WODKIN: 0}), 3)
    state = play(state, A="END")
    state = play(state, A="ACCUSE Wodkin")
    assert state["step"]["kind"] == "vote" and sorted(flow.seats(state)) == ["A", "B", "C", "D"]
    return play(state, **{p: f"VOTE {v}" for p, v in votes.items()})


def test_an_accusation_fails_with_two_votes_against() -> None:
    before = at_phase(game(leaders={DIREKTIWIN: ("A", 3)}), 3)
    after = _accusation({"A": "FOR", "B": "AGAINST", "C": "AGAINST", "D": "FOR"})
    assert where(after, WODKIN) == "sport" and after["pol"][WODKIN]["inv"] is None
    assert age(after, DIREKTIWIN) == age(before, DIREKTIWIN) + 3
    assert event(after, "vote")["votes"][MANDATOW] == "AGAINST"


def test_an_accusation_succeeds_with_one_vote_against() -> None:
    after = _accusation({"A": "FOR", "B": "AGAINST", "C": "FOR", "D": "ABSTAIN"})
    assert where(after, WODKIN) == "siberia" and after["pol"][WODKIN]["inv"] is None


def test_one_deportation_of_a_candidate_costs_two_stress() -> None:
    state = at_phase(game(leaders={DIREKTIWIN: ("A", 3)}), 3)
    after = play(state, A=["END", "DEPORT Apparatow"])
    assert where(after, APPARATOW) == "siberia" and after["step"]["kind"] not in ("deport", "accuse")
    assert age(after, DIREKTIWIN) == age(state, DIREKTIWIN) + 2


@pytest.mark.parametrize("variant,kept", [(1, False), (2, True)])
def test_hausregel_8_a_deported_candidate_loses_his_investigation(variant: int, kept: bool) -> None:
    state = at_phase(game(leaders={DIREKTIWIN: ("A", 3)}, inv={APPARATOW: 0}, rules={"hr8": variant}), 3)
    after = play(state, A=["END", "DEPORT Apparatow"])
    assert (after["pol"][APPARATOW]["inv"] is not None) is kept


@pytest.mark.parametrize("variant,substitute", [(2, MANDATOW), (1, None)])
def test_hausregel_5_a_purged_defence_minister_is_replaced_only_in_variant_2(variant: int, substitute: str | None) -> None:
    seed = dice(20)
    state = at_phase(game(leaders={KADEROW: ("A", 3), MANDATOW: ("B", 2)}, seed=seed, rules={"hr5": variant}), 2, until=3)
    after = play(state, A=["PURGE Direktiwin", "END"])
    if substitute:
        assert after["step"]["kind"] == "investigate" and after["step"]["actor"] == substitute
    else:
        assert after["step"]["kind"] not in ("investigate", "accuse", "deport")


@pytest.mark.parametrize("variant,stress", [(1, 0), (2, 1)])
def test_hausregel_7_pending_investigations_outside_the_politburo(variant: int, stress: int) -> None:
    state = at_phase(game(leaders={DIREKTIWIN: ("A", 3)}, inv={APPARATOW: 0}, rules={"hr7": variant}), 3)
    after = play(state, A="END")
    assert age(after, APPARATOW) == age(state, APPARATOW) + stress


# --- phase 4 ----------------------------------------------------------------------------------------


def test_health_follows_the_table_for_age_and_cure() -> None:
    # Nestor (78, one marker) rolls first: the stand-in table row from 70.
    row = data.standin().health(78, False)
    for face, result in ((1, "G"), (5, "-"), (12, "K"), (17, "A"), (19, "T")):
        assert row[face - 1] == result
        state = at_phase(game(seed=dice(face)), 4)
        expect = {"G": 0, "-": 1, "K": 2, "A": 3, "T": 4}[result]
        assert event(state, "health")["roll"] == face if state["events"] else True
        log = [e for e in state["events"] if e["key"] == "health"][0]["args"]
        assert log["ill"] == expect and log["dead"] is (expect >= 3)
        assert (where(state, NESTOR) == "wall") is (expect >= 3)
    cured = data.standin().health(78, True)
    assert cured != row and cured.count("G") > row.count("G")


def test_a_dead_politician_goes_to_the_wall_and_his_leader_loses_him() -> None:
    state = at_phase(game(leaders={KADEROW: ("A", 3)}, ill={NESTOR: 0, KADEROW: 2},
                          seed=dice(None, 20)), 4)
    assert where(state, KADEROW) == "wall" and KADEROW not in state["leaders"]


# --- phase 5 ----------------------------------------------------------------------------------------


def _without_chief(leaders: dict, **kwargs: object) -> dict:
    places = dict(STANDARD)
    places["wall"] = [places.pop("chief")]
    return game(places, leaders=leaders, ill={}, **kwargs)  # type: ignore[arg-type]


def test_the_foreign_minister_nominates_a_level_1_holder_and_the_vote_fails_at_three_against() -> None:
    leaders = {MANDATOW: ("A", 3), KADEROW: ("B", 2), IDEOLOW: ("C", 2), NORMOW: ("D", 2), DATSCHNIK: ("B", 1)}
    state = at_phase(_without_chief(leaders), 5)
    assert state["step"]["kind"] == "nominate" and flow.seats(state) == ["A"]
    assert sorted(n for o in legal.step_orders(state) for n in o.names) == sorted([KADEROW, DIREKTIWIN])
    vote = play(state, A="NOMINATE Kaderow")
    assert MANDATOW not in vote["step"]["voters"] and KADEROW in vote["step"]["voters"]
    after = play(vote, B="VOTE AGAINST", C="VOTE AGAINST", D="VOTE FOR")
    assert event(after, "vote")["failed"] and age(after, MANDATOW) == age(state, MANDATOW) + 1
    # Second nomination: one of those who voted against.
    assert sorted(n for o in legal.step_orders(after) for n in o.names) == sorted([KADEROW, IDEOLOW, DATSCHNIK])
    again = play(after, A="NOMINATE Ideolow")
    final = play(again, B="VOTE AGAINST", C="VOTE FOR", D="VOTE FOR")  # B leads two: 2 against
    assert where(final, IDEOLOW) == "chief" and where(final, MANDATOW) == "foreign"


def test_the_silent_election_makes_the_nominator_chief_after_two_failed_votes() -> None:
    leaders = {MANDATOW: ("A", 3), KADEROW: ("B", 2), IDEOLOW: ("C", 2), NORMOW: ("D", 2)}
    state = at_phase(_without_chief(leaders), 5)
    state = play(state, A="NOMINATE Kaderow")
    state = play(state, B="VOTE AGAINST", C="VOTE AGAINST", D="VOTE AGAINST")
    state = play(state, A="NOMINATE Normow")
    after = play(state, B="VOTE AGAINST", C="VOTE AGAINST", D="VOTE AGAINST")
    assert where(after, MANDATOW) == "chief" and "silent_election" in keys(after)
    assert age(after, MANDATOW) == data.standin().politician(MANDATOW).age + 2


def test_gerontocracy_an_unled_nominator_nominates_the_oldest() -> None:
    state = at_phase(_without_chief({}), 5)
    oldest_level1 = max((KADEROW, DIREKTIWIN), key=lambda n: age(state, n))
    assert where(state, oldest_level1) == "chief" and "gerontocracy" in [e["key"] for e in state["events"]]


def test_ruling_9_unled_voters_abstain() -> None:
    state = at_phase(_without_chief({MANDATOW: ("A", 3), KADEROW: ("B", 2)}), 5)
    state = play(state, A="NOMINATE Direktiwin")
    assert flow.seats(state) == ["B"]
    after = play(state, B="VOTE AGAINST")
    votes = event(after, "vote")["votes"]
    assert votes[KADEROW] == "AGAINST" and votes[IDEOLOW] == "ABSTAIN" and not event(after, "vote")["failed"]


def test_ruling_10_a_silent_seat_abstains() -> None:
    state = at_phase(_without_chief({MANDATOW: ("A", 3), KADEROW: ("B", 2)}), 5)
    state = play(state, A="NOMINATE Direktiwin")
    after = play(state)
    assert event(after, "vote")["votes"][KADEROW] == "ABSTAIN"


def test_ruling_13_the_first_nominee_comes_from_level_1_then_level_2() -> None:
    places = {k: v for k, v in STANDARD.items() if k not in ("chief", "kgb", "defence")}
    state = at_phase(game(places, leaders={MANDATOW: ("A", 3)}, ill={}), 5)
    assert sorted(n for o in legal.step_orders(state) for n in o.names) == sorted([IDEOLOW, NORMOW, DATSCHNIK, WODKIN])


def test_ruling_14_without_any_nominator_the_chief_stays_vacant() -> None:
    places = {"candidate": STANDARD["candidate"]}
    state = at_phase(game(places, ill={}), 5)
    assert "lapses" in [e["key"] for e in state["events"]]
    state = at_phase(game(places, ill={}, year=11), 5)
    assert state["result"]["why"] == "no_chief" and state["result"]["winner"] is None


# --- phase 6 --------------------------------------------------------------------------------------------


def test_the_chief_moves_for_free_promotes_and_demotes_for_one_and_swaps_levels_for_two() -> None:
    places = dict(LED_CHIEF)
    places["kgb"] = []
    state = at_phase(game(places, ill={}, leaders={LENKIN: ("A", 4)}), 6)
    assert state["step"]["kind"] == "chief"
    start = age(state, LENKIN)
    after = play(state, A=["MOVE Mandatow TO KGB-Chef", "PROMOTE Ideolow TO Aussenminister",
                           "DEMOTE Apparatow", "SWAP Normow WITH Genossow", "END"])
    assert where(after, MANDATOW) == "kgb" and where(after, IDEOLOW) == "foreign"
    assert where(after, APPARATOW) == "people" and where(after, GENOSSOW) == "industry"
    assert where(after, NORMOW) == "candidate"
    assert age(after, LENKIN) == start + 0 + 1 + 1 + 2


def test_ruling_16_the_chief_makes_at_most_thirteen_changes() -> None:
    state = at_phase(game(LED_CHIEF, ill={}, leaders={LENKIN: ("A", 4)}), 6)
    state["step"]["changes"] = 12
    assert all(o.verb != "SWAP" or o.names[0] in (KADEROW, MANDATOW, DIREKTIWIN, IDEOLOW, NORMOW, DATSCHNIK)
               for o in legal.step_orders(state))
    after = play(state, A=["DEMOTE Apparatow", "DEMOTE Genossow"])
    assert where(after, APPARATOW) == "people" and where(after, GENOSSOW) == "candidate"


def test_vacancies_are_filled_by_the_oldest_from_below() -> None:
    places = dict(STANDARD)
    del places["kgb"], places["ideology"]
    state = at_phase(game(places, ill={}), 6)
    filled = [(e["args"]["office"], e["args"]["name"]) for e in state["events"] if e["key"] == "filled"]
    # Level 1 from level 2 (Wodkin 68 is the oldest), level 2 from the candidates (Plansoll 70, Apparatow 66),
    # then the candidates from the people (the two oldest: Lenkin 75, Kolchosny 73).
    assert filled == [("kgb", WODKIN), ("ideology", "Pjotr Plansoll"), ("sport", APPARATOW),
                      ("candidate", LENKIN), ("candidate", "Konstantin Kolchosny")]


@pytest.mark.parametrize("variant,draw", [(2, False), (1, True)])
def test_hausregel_9_level_1_is_filled_from_the_people_when_the_candidates_run_out(variant: int, draw: bool) -> None:
    places = {"chief": NESTOR, "foreign": MANDATOW}
    state = at_phase(game(places, ill={}, rules={"hr9": variant}), 6)
    assert (state["result"] is not None and state["result"]["why"] == "politburo_incomplete") is draw


def test_the_game_is_drawn_when_phase_6_cannot_fill_the_politburo() -> None:
    gone = [p.name for p in data.standin().politicians if p.name not in (NESTOR, MANDATOW, KADEROW)]
    state = at_phase(game({"chief": NESTOR, "foreign": MANDATOW, "siberia": gone}, ill={}), 6)
    assert where(state, KADEROW) == "kgb"  # the only one left among the people moves up
    assert state["result"]["why"] == "politburo_incomplete" and state["result"]["winner"] is None


def test_ruling_15_level_1_promotes_candidates_and_level_2_the_people_into_free_places_for_one_stress() -> None:
    places = dict(STANDARD)
    del places["sport"]
    places["candidate"] = places["candidate"][:4]
    state = game(places, ill={}, leaders={KADEROW: ("B", 2), IDEOLOW: ("C", 2)})
    state = at_phase(state, 6)  # unled chief: L1 filled (nothing to fill), then the KGB chief
    assert state["step"]["kind"] == "promote" and state["step"]["actor"] == KADEROW
    options = {str(o) for o in legal.step_orders(state)}
    assert f"PROMOTE {GENOSSOW} TO sport" in options and f"PROMOTE {GENOSSOW} TO kgb" not in options
    after = play(state, B=["PROMOTE Genossow TO Sportminister", "END"])
    assert where(after, GENOSSOW) == "sport" and age(after, KADEROW) == age(state, KADEROW) + 1
    assert after["step"]["actor"] == IDEOLOW
    assert all(o.verb == "END" or where(after, o.names[0]) == "people" for o in legal.step_orders(after))


def test_ruling_17_equal_ages_the_higher_place_moves_up_first() -> None:
    places = dict(STANDARD)
    del places["kgb"]
    state = game(places, ill={}, ages={NORMOW: 70, WODKIN: 70, DATSCHNIK: 50, IDEOLOW: 50})
    state = at_phase(state, 6)
    assert where(state, NORMOW) == "kgb"  # Industry comes before Sport


def test_ruling_18_a_chief_lost_in_phase_6_is_no_draw() -> None:
    state = at_phase(game(LED_CHIEF, ill={}, rules={"zr1": 1}, ages={LENKIN: 94}, leaders={LENKIN: ("A", 4)}), 6,
                     until=7)
    after = play(state, A="DEMOTE Apparatow")
    assert where(after, LENKIN) == "out" and after["result"] is None and "filled" in keys(after)


# --- phase 7 and 8 -----------------------------------------------------------------------------


def test_rehabilitation_costs_five_and_returns_to_the_people() -> None:
    places = dict(STANDARD)
    places["siberia"] = [GENOSSOW]
    places["candidate"] = [n for n in STANDARD["candidate"] if n != GENOSSOW]
    state = game(places, ill={}, leaders={MANDATOW: ("B", 2)})
    state = at_phase(state, 7)
    assert state["step"]["kind"] == "rehab" and state["step"]["actor"] == MANDATOW
    after = play(state, B="REHABILITATE Genossow")
    assert where(after, GENOSSOW) == "people" and age(after, MANDATOW) == age(state, MANDATOW) + 5


@pytest.mark.parametrize("ill,roll,stress,success", [(0, None, 0, True), (1, 8, 1, True), (1, 7, 1, False),
                                                      (2, 15, 2, True), (2, 14, 2, False)])
def test_the_october_parade_depends_on_the_chiefs_health(ill: int, roll: int | None, stress: int, success: bool) -> None:
    state = at_phase(game(ill={NESTOR: ill}, seed=dice(roll) if roll else "t"), 8)
    assert age(state, NESTOR) == data.standin().politician(NESTOR).age + stress
    assert state["parades"].get(NESTOR, 0) == (1 if success else 0)


def test_no_parade_for_a_chief_in_cure() -> None:
    state = at_phase(game(ill={}, cure=(NESTOR,)), 8)
    assert not state["parades"] and "no_parade" in [e["key"] for e in state["events"]]


@pytest.mark.parametrize("variant,parade", [(1, True), (2, False)])
def test_hausregel_10_an_unled_chief_takes_the_parade(variant: int, parade: bool) -> None:
    state = at_phase(game(ill={}, rules={"hr10": variant}), 8)
    assert bool(state["parades"]) is parade


# --- the end -------------------------------------------------------------------------------------------


def test_a_third_parade_wins_and_the_most_points_on_the_chief_win_the_game() -> None:
    state = game(ill={}, notes={"A": {KADEROW: 3}, "B": {KADEROW: 9}, "C": {KADEROW: 5}})
    state["pol"][KADEROW]["where"], state["pol"][NESTOR]["where"] = "chief", "kgb"
    state["parades"] = {KADEROW: 2}
    after = at_phase(state, 8)
    assert after["result"]["chief"] == KADEROW and after["result"]["winner"] == "B"
    assert after["result"]["why"] == "three_parades"


def test_the_parade_of_1960_wins() -> None:
    state = at_phase(game(ill={}, year=10), 8)
    assert state["result"]["why"] == "parade_year10" and state["result"]["chief"] == NESTOR


def test_the_chief_after_phase_5_of_1961_wins() -> None:
    state = at_phase(game(ill={}, year=11), 5)
    assert state["result"]["why"] == "year11" and state["result"]["chief"] == NESTOR


def test_a_tie_goes_to_the_player_not_leading_the_chief() -> None:
    state = game(ill={}, notes={"A": {KADEROW: 7}, "B": {KADEROW: 7}}, leaders={KADEROW: ("A", 2)}, year=11)
    state["pol"][KADEROW]["where"], state["pol"][NESTOR]["where"] = "chief", "kgb"
    after = at_phase(state, 5)
    assert after["result"]["winner"] == "B" and after["result"]["how"] == "not_leader"


@pytest.mark.parametrize("variant,winner", [(1, "A"), (2, None)])
def test_hausregel_1_a_tie_without_leader_adds_the_levels_below(variant: int, winner: str | None) -> None:
    notes = {"A": {NESTOR: 0, MANDATOW: 10, KADEROW: 1}, "B": {KADEROW: 9, APPARATOW: 10}}
    state = game(ill={}, year=11, rules={"hr1": variant})
    state["notes"] = {"A": {MANDATOW: 10, KADEROW: 1}, "B": {KADEROW: 9, APPARATOW: 10}, "C": {}, "D": {}}
    del notes
    after = at_phase(state, 5)
    assert after["result"]["winner"] == winner
    if winner:
        assert after["result"]["how"] == "hr1_level1"


def test_ruling_23_hausregel_1_sums_the_groups_cumulatively() -> None:
    state = game(ill={}, year=11)
    state["notes"] = {"A": {MANDATOW: 4, APPARATOW: 1}, "B": {IDEOLOW: 4, GENOSSOW: 3}, "C": {}, "D": {}}
    after = at_phase(state, 5)
    # Level 1: A 4, B 0 -> A wins at once.
    assert after["result"]["winner"] == "A" and after["result"]["how"] == "hr1_level1"
    state["notes"] = {"A": {MANDATOW: 4, APPARATOW: 1}, "B": {KADEROW: 4, GENOSSOW: 3}, "C": {}, "D": {}}
    after = at_phase(state, 5)
    assert after["result"]["winner"] == "B" and after["result"]["how"] == "hr1_candidates"


def test_hausregel_1_variant_3_rolls_the_die_between_the_tied() -> None:
    state = game(ill={}, year=11, rules={"hr1": 3})
    state["notes"] = {p: {} for p in "ABCD"}
    after = at_phase(state, 5)
    assert after["result"]["how"] == "die" and after["result"]["winner"] in "ABCD"
    assert after["rolls"] and all(r["sides"] == 20 for r in after["rolls"])


# --- Zusatzregeln ----------------------------------------------------------------------------------------


def test_ruling_19_the_age_guillotine_removes_at_95_and_ends_his_actions() -> None:
    state = game(ill={NESTOR: 0, KADEROW: 0}, leaders={KADEROW: ("A", 3)}, ages={KADEROW: 94}, rules={"zr1": 1},
                 seed=dice(1))
    state = at_phase(state, 2)
    after = play(state, A="PURGE Apparatow")
    assert where(after, KADEROW) == "out" and KADEROW not in after["leaders"]
    assert after["step"]["kind"] != "purge"
    without = at_phase(game(ill={}, leaders={KADEROW: ("A", 3)}, ages={KADEROW: 94}, seed=dice(1)), 2)
    assert where(play(without, A="PURGE Apparatow"), KADEROW) == "kgb"


def test_zusatzregel_2_favoured_and_hated_offices() -> None:
    card = data.standin().politician(KADEROW)
    assert card.favoured == "kgb"
    state = at_phase(game(ill={NESTOR: 0, KADEROW: 1}, rules={"zr2": 1}), 1)
    assert age(state, KADEROW) == card.age  # sick, stays, in his favoured office: no stress
    hated = data.standin().politician(WODKIN).hated  # ideology
    places = dict(STANDARD)
    places["ideology"], places["sport"] = WODKIN, IDEOLOW
    state = at_phase(game(places, ill={}, rules={"zr2": 1}), 1)
    assert hated == "ideology" and age(state, WODKIN) == data.standin().politician(WODKIN).age + 1
    state = at_phase(game(places, ill={}), 1)
    assert age(state, WODKIN) == data.standin().politician(WODKIN).age


def test_zusatzregel_3_adds_two_open_points_after_every_third_year() -> None:
    state = game(ill={}, year=3, rules={"zr3": 1}, leaders={MANDATOW: ("C", 2)})
    state = at_phase(state, 8)
    state["halt"] = "year"
    state = flow.play(state, {})
    assert state["step"]["kind"] == "topup"
    assert state["step"]["queue"] == influence.topup_order(state)


def test_ruling_21_the_topup_goes_round_the_table_and_ends_with_the_leader_of_the_highest() -> None:
    state = game(dict(STANDARD, chief=LENKIN, wall=[NESTOR]), ill={}, year=3, rules={"zr3": 1},
                 leaders={LENKIN: ("C", 2), KADEROW: ("A", 3)})
    assert influence.topup_order(state) == ["D", "A", "B", "C"]
    state["leaders"] = {}
    assert influence.topup_order(state) == ["B", "C", "D", "A"]  # unled: the oldest player (A) last


def test_ruling_20_the_zusatzregeln_are_off_by_default_and_the_hausregeln_take_the_texts_choice() -> None:
    chosen = rule_options({})
    assert (chosen["zr1"], chosen["zr2"], chosen["zr3"]) == (0, 0, 0)
    assert (chosen["hr1"], chosen["hr2"], chosen["hr5"], chosen["hr6"], chosen["hr7"], chosen["hr8"], chosen["hr9"],
            chosen["hr10"]) == (1, 2, 2, 1, 2, 1, 2, 1)
    assert rule_options({"Hausregel2": "1", "zusatzregel1": "an"})["hr2"] == 1
    with pytest.raises(GameSetupError, match="hr6"):
        rule_options({"hr6": 3})
    with pytest.raises(GameSetupError, match="unknown option"):
        rule_options({"hr4": 1})


def test_play_never_changes_the_state_it_is_given() -> None:
    state = at_phase(game(leaders={KADEROW: ("A", 3)}, seed=dice(20)), 2)
    frozen = json.dumps(state, sort_keys=True)
    play(state, A="PURGE Ideolow", B="REVEAL Mandatow 1")
    assert json.dumps(state, sort_keys=True) == frozen


def test_purges_go_on_after_a_success_and_stop_after_a_failure() -> None:
    state = at_phase(game(leaders={KADEROW: ("A", 3)}, seed=dice(10, 5)), 2)
    after = play(state, A="PURGE Ideolow")
    assert where(after, IDEOLOW) == "siberia" and after["step"]["kind"] == "purge"
    after = play(after, A="PURGE Apparatow")
    assert where(after, APPARATOW) == "candidate" and after["step"]["kind"] != "purge"


def test_ruling_22_an_illegal_later_line_is_skipped_and_told_only_to_its_sender() -> None:
    state = at_phase(game(leaders={KADEROW: ("A", 3)}, seed=dice(20, 20)), 2)
    after = play(state, A=["PURGE Apparatow", "PURGE Apparatow", "PURGE Genossow"])
    assert where(after, APPARATOW) == "siberia" and where(after, GENOSSOW) == "siberia"
    skipped = [n for n in after["notices"]["A"] if n["key"] == "order_skipped"]
    assert len(skipped) == 1 and "Siberia" not in skipped[0]["args"]["order"]
    assert all(e["key"] != "order_skipped" for e in after["events"])


def test_ruling_4_a_missing_note_is_drawn_from_the_seed_and_told_only_to_its_owner() -> None:
    state = flow.new_game(data.standin(), ("A", "B", "C"), ("A", "B", "C"), rule_options({}), "s1")
    names = [n for n in state["pol"] if n != NESTOR]
    lines = [f"NOTE {n} {i}" for i, n in enumerate(names[:10], start=1)]
    after = play(state, A=lines, B=lines)
    assert after["notes"]["A"] == {n: i for i, n in enumerate(names[:10], start=1)}
    assert sorted(after["notes"]["C"].values()) == list(range(1, 11)) and NESTOR not in after["notes"]["C"]
    assert [n["key"] for n in after["notices"]["C"]] == ["note_random"] and not after["notices"]["A"]
    drawn = [r for r in after["rolls"] if r["kind"] == "choice"]
    assert drawn and drawn[0]["result"] == ["(secret)"] * 10  # the report does not show the drawn note
    assert flow.play(state, orders_of(A=lines, B=lines))["notes"]["C"] == after["notes"]["C"]


def test_ruling_5_every_year_begins_with_a_reveal_window_for_everyone() -> None:
    state = game(ill={}, year=1)
    state["step"] = {"kind": "goto", "to": "end_of_year"}
    after = flow.play(state, {})
    assert after["step"]["kind"] == "window" and flow.seats(after) == ["A", "B", "C", "D"] and after["year"] == 2
    state["rules"]["window"] = 0
    assert flow.play(state, {})["step"]["kind"] != "window"


def test_ruling_11_an_investigation_stays_with_a_demoted_politician() -> None:
    state = at_phase(game(LED_CHIEF, ill={}, inv={WODKIN: 0}, leaders={LENKIN: ("A", 4)}), 6)
    after = play(state, A=["DEMOTE Wodkin", "END"])
    assert where(after, WODKIN) == "candidate" and after["pol"][WODKIN]["inv"] == 0
    assert WODKIN not in flow.accusable(after)


def test_ruling_12_pending_investigations_age_even_when_phase_3_lapses() -> None:
    state = at_phase(game(ill={}, inv={WODKIN: 0}), 3)
    assert "lapses_unled" in keys(state) and age(state, WODKIN) == data.standin().politician(WODKIN).age + 1


def test_ruling_24_a_player_votes_each_of_his_politicians() -> None:
    leaders = {DIREKTIWIN: ("A", 3), MANDATOW: ("B", 2), IDEOLOW: ("B", 2), NORMOW: ("B", 1)}
    state = at_phase(game(leaders=leaders, inv={WODKIN: 0}), 3)
    state = play(play(state, A="END"), A="ACCUSE Wodkin")
    after = play(state, A="VOTE FOR", B=["VOTE AGAINST", "VOTE Ideolow FOR"])
    votes = event(after, "vote")["votes"]
    assert (votes[MANDATOW], votes[IDEOLOW], votes[NORMOW]) == ("AGAINST", "FOR", "AGAINST")
    assert event(after, "vote")["failed"]


def test_ruling_25_a_purged_chief_is_replaced_in_phase_5_of_the_same_year() -> None:
    state = at_phase(game(leaders={KADEROW: ("A", 3), MANDATOW: ("B", 2)}, seed=dice(18)), 2, until=5)
    state = play(state, A=["PURGE Nestor", "END"])
    assert where(state, NESTOR) == "siberia"
    assert state["step"]["kind"] == "nominate" and state["step"]["actor"] == MANDATOW and flow.seats(state) == ["B"]


def test_ruling_26_a_silent_seat_takes_the_rules_default() -> None:
    state = at_phase(game(leaders={KADEROW: ("A", 3)}, ill={NESTOR: 1, KADEROW: 1}), 1, until=2)
    assert str(flow.default_order(state)) == "STAY"
    after = flow.play(state, {})
    assert not after["pol"][KADEROW]["cure"] and str(flow.default_order(after)) == "END"
    assert where(flow.play(after, {}), IDEOLOW) == "ideology"
    nominate = at_phase(_without_chief({MANDATOW: ("A", 3)}), 5)
    oldest_level1 = max((KADEROW, DIREKTIWIN), key=lambda n: age(nominate, n))
    assert str(flow.default_order(nominate)) == f"NOMINATE {oldest_level1}"


def test_ruling_27_demotions_need_a_free_place_below() -> None:
    state = at_phase(game(LED_CHIEF, ill={}, leaders={LENKIN: ("A", 4)}), 6)
    options = {str(o) for o in legal.step_orders(state)}
    assert f"DEMOTE {KADEROW} TO ideology" not in options  # level 2 is full
    assert f"DEMOTE {WODKIN}" not in options and f"DEMOTE {APPARATOW}" in options  # five candidates already
    after = play(state, A="DEMOTE Apparatow")
    assert f"DEMOTE {WODKIN}" in {str(o) for o in legal.step_orders(after)}


def test_ruling_28_a_seat_that_only_reveals_keeps_its_turn() -> None:
    state = at_phase(game(leaders={KADEROW: ("A", 3)}, notes={"A": {MANDATOW: 6}}), 2)
    after = play(state, A="REVEAL Mandatow 2")
    assert after["step"] == state["step"] and after["phase"] != state["phase"]
    assert after["leaders"][MANDATOW] == ["A", 2] and flow.seats(after) == ["A"]
    assert not after["rolls"] and str(flow.default_order(after)) == "END"


# --- the event cards (rulings 29-34) -----------------------------------------------------------

def _with_cards(state: dict, **hands: list[str]) -> dict:
    """``state`` with the event cards each player holds."""
    state["hands"] = {p: list(hands.get(p, [])) for p in state["players"]}
    return state


def _at(state: dict, step: str, halt: str) -> dict:
    """``state`` about to start ``step``, stopping before ``halt``."""
    state["step"], state["halt"] = {"kind": "goto", "to": step}, halt
    return state


def _without_events(text: str) -> str:
    """A data text with its [[event]] tables left out (the cards unknown)."""
    return text.split("# STAND-IN event cards")[0]


def test_ruling_29_event_cards_are_on_by_default_and_a_game_without_their_data_cannot_start() -> None:
    from adjudicator.games.kreml.module import KremlGame

    assert rule_options({})["events"] == 1 and rule_options({"ereigniskarten": "aus"})["events"] == 0
    text = _without_events(data.standin_text())
    assert data.check(text) == () and data.parse(text).events is None
    assert "[[event]]: key, name_de, name_en, count, phases, effect, value (or: events=off)" in data.unknown(text)
    with pytest.raises(GameSetupError, match="events=off"):
        KremlGame().start({"data.kreml": text}, 1)
    started = KremlGame().start({"data.kreml": text, "events": "off"}, 1)
    assert started["rules"]["events"] == 0
    assert len(KremlGame().start({"data": "standin"}, 1)["data"]["events"]) == 5


def test_ruling_30_each_player_takes_a_card_the_oldest_first_and_a_silent_one_gets_the_first_left() -> None:
    from adjudicator.games.kreml import events

    state = flow.new_game(data.standin(), ("A", "B", "C", "D"), ("C", "A", "B", "D"), rule_options({}), "s1")
    names = [n for n in state["pol"] if n != NESTOR]
    lines = [f"NOTE {n} {i}" for i, n in enumerate(names[:10], start=1)]
    state = play(state, A=lines, B=lines, C=lines, D=lines)
    assert state["step"]["kind"] == "pick" and flow.seats(state) == ["C"]
    state = play(state, C="NEHMEN grippe")
    assert flow.seats(state) == ["A"] and state["hands"]["C"] == ["grippe"]
    state = play(state)  # A says nothing: the first card left in the data file's order
    assert state["hands"]["A"] == ["kurort"] and event(state, "card_taken")["code"] == "kurort"
    state = play(state, B="TAKE grippe")
    assert "grippe" not in events.supply(state)
    problem = legal.problem(state, "D", orders_of(D="TAKE grippe")["D"][0])
    assert problem is not None and problem.key == "card_not_left"
    state = play(state, D="TAKE akten")
    assert state["step"]["kind"] == "window" and state["hands"] == {"A": ["kurort"], "B": ["grippe"],
                                                                     "C": ["grippe"], "D": ["akten"]}
    from adjudicator.games.kreml.report import status
    assert any("Player C: grippe" in line for line in status(state, "en"))  # what a player holds is public


def test_ruling_31_a_card_takes_effect_at_the_first_step_of_its_phase_and_stays_secret_until_then() -> None:
    from adjudicator.games.kreml.module import KremlGame
    from adjudicator.games.kreml.report import build

    state = _with_cards(game(ill={NESTOR: 2}), A=["kurort"])
    before = _at(state, "p2", "p3")
    waiting = play(before, A="EREIGNIS kurort Nestor")  # kurort: phases 1 and 4; now phase 2
    assert waiting["plays"] == [["A", "kurort", NESTOR]] and waiting["pol"][NESTOR]["ill"] == 2
    assert "card_played" not in keys(waiting)
    assert not any("kurort" in str(e) for e in build(before, waiting)["events"])  # secret until it applies
    assert any("kurort" in line for line in KremlGame().private_lines(waiting, "A", "en"))
    assert not any("kurort" in line for line in KremlGame().private_lines(waiting, "B", "en"))
    locked = json.loads(json.dumps(waiting))
    locked["lock"] = [NESTOR]  # never on a politician in the middle of his actions or of a vote
    assert flow.play(_at(locked, "p4", "p4"), {})["plays"] == [["A", "kurort", NESTOR]]
    done = flow.play(_at(waiting, "p4", "p4"), {})
    assert done["pol"][NESTOR]["ill"] == 1 and done["plays"] == [] and done["hands"]["A"] == []
    seat = _with_cards(at_phase(game(leaders={KADEROW: ("A", 3)}), 2), A=["krise"])
    kept = play(seat, A="EVENT krise Apparatow")  # a seat that only plays a card keeps its turn
    assert kept["step"]["kind"] == "purge" and flow.seats(kept) == ["A"] and kept["phase"] != seat["phase"]
    assert event(done, "card_played") == {"player": "A", "card_de": "Kurort am Schwarzen Meer",
                                          "card_en": "Black Sea spa", "name": NESTOR, "effect": "heal", "value": 1,
                                          "phase": 4}


def test_ruling_32_a_card_that_no_longer_fits_lapses_and_stays_in_the_hand() -> None:
    state = _with_cards(game(ill={NESTOR: 1}), A=["kurort"])
    waiting = play(_at(state, "p2", "p3"), A="EVENT kurort Nestor")
    waiting["pol"][NESTOR]["ill"] = 0  # cured before the card's phase came
    after = flow.play(_at(waiting, "p4", "p4"), {})
    assert after["hands"]["A"] == ["kurort"] and after["plays"] == [] and "card_played" not in keys(after)
    assert [n["key"] for n in after["notices"]["A"]] == ["card_lapsed"] and not after["notices"]["B"]
    problem = legal.problem(after, "B", orders_of(B="EVENT kurort Nestor")["B"][0])
    assert problem is not None and problem.key == "card_not_held"


def test_ruling_33_a_played_card_goes_back_and_zusatzregel_3_may_take_it_instead_of_points() -> None:
    from adjudicator.games.kreml import events

    state = _with_cards(game(dict(STANDARD, siberia=[LENKIN])), A=["tauwetter"])
    assert "tauwetter" not in events.supply(state)
    after = play(_at(state, "p7", "p8"), A="EVENT tauwetter Lenkin")
    assert where(after, LENKIN) == "people" and "tauwetter" in events.supply(after)
    after["rules"]["zr3"] = 1
    after["step"] = {"kind": "topup", "p": 9, "queue": ["B", "C"]}
    after.pop("halt")
    took = play(after, B="NEHMEN tauwetter")
    assert took["hands"]["B"] == ["tauwetter"] and took["extra"]["B"] == {} and flow.seats(took) == ["C"]


def test_ruling_34_heal_takes_off_illness_markers() -> None:
    state = _with_cards(game(ill={NESTOR: 2}), A=["kurort"])
    after = play(_at(state, "p4", "p4"), A="EVENT kurort Nestor")
    assert after["pol"][NESTOR]["ill"] == 1


def test_ruling_34_sicken_adds_a_marker_to_a_politburo_member_only() -> None:
    state = _with_cards(game(ill={}), A=["grippe"])
    after = play(_at(state, "p4", "p4"), A="EVENT grippe Kaderow")
    assert after["pol"][KADEROW]["ill"] == 1
    problem = legal.problem(state, "A", orders_of(A="EVENT grippe Lenkin")["A"][0])
    assert problem is not None and problem.key == "card_politburo_target"


def test_ruling_34_stress_ages_a_member_or_candidate() -> None:
    state = _with_cards(game(ill={}), A=["krise"])
    before = age(state, APPARATOW)
    after = play(_at(state, "p2", "p2"), A="EVENT krise Apparatow")
    assert age(after, APPARATOW) == before + 3 and event(after, "stress")["why"] == "event"


def test_ruling_34_rehabilitate_brings_one_back_from_siberia_without_stress() -> None:
    state = _with_cards(game(dict(STANDARD, siberia=[LENKIN])), B=["tauwetter"])
    ages = {n: e["age"] for n, e in state["pol"].items()}
    after = play(_at(state, "p7", "p7"), B="EVENT tauwetter Lenkin")
    assert where(after, LENKIN) == "people" and {n: e["age"] for n, e in after["pol"].items()} == ages


def test_ruling_34_clear_ends_a_pending_investigation() -> None:
    state = _with_cards(game(ill={}, inv={WODKIN: 0}), C=["akten"])
    after = play(_at(state, "p3", "p3"), C="EVENT akten Wodkin")
    assert after["pol"][WODKIN]["inv"] is None and "card_played" in keys(after)
