"""Kreml as a game module: the data file (template, check, stand-in), the
registry, orders by mail checked with reasons and alternatives, secrecy of
notes and reveals, the reports, and whole games of random bots for 3 to 6
players."""

from __future__ import annotations

import json
import random

import pytest

from adjudicator.games import game_module
from adjudicator.games.registry import registered
from adjudicator.games.base import GameSetupError
from adjudicator.games.kreml import data
from adjudicator.games.kreml.module import KremlGame
from adjudicator.games.kreml.report import build
from adjudicator.games.randomness import RandomEvent, recompute
from tests.kreml_bots import bot_lines, play_game

FOUR = KremlGame("kreml4")


def test_the_variants_are_registered_in_german_and_english_for_three_to_six_players() -> None:
    for name, count in (("kreml", 4), ("kremlin", 4), ("kreml3", 3), ("Kremlin-6", 6), ("kreml5", 5)):
        module = game_module(name)
        assert isinstance(module, KremlGame) and len(module.powers()) == count
    assert "kreml" in registered() and "kremlin4" in registered()
    assert FOUR.lookup_power("Spielerin B") == "B" and FOUR.lookup_power("player d") == "D"
    assert FOUR.lookup_power("E") is None and FOUR.power_name("C", "de") == "Spielerin C"


def test_the_data_template_marks_every_unknown_and_names_its_sources() -> None:
    text = data.template()
    assert text.count(' = "unknown"') == 23 * 4 + 3 + 2 + 7  # 23 politicians, Nestor's card, 2 tables, the event card
    assert "[[event]]: key, name_de, name_en, count, phases, effect, value (or: events=off)" in data.unknown(None)
    assert "fatamorgana.ch" in text and "Source" in text
    problems = [str(p) for p in data.check(text)]
    assert any("politician 2: name is unknown" in p for p in problems)
    assert any("health.normal is unknown" in p for p in problems)
    assert len(problems) > 90


def test_the_stand_in_set_is_complete_marked_and_consistent_with_the_text() -> None:
    assert data.check(data.standin_text()) == ()
    standin = data.standin()
    assert standin.standin and "STAND-IN" in data.standin_text()
    assert len(standin.politicians) == 24 and standin.politicians[0].name == data.NESTOR
    for rows in (standin.normal, standin.cure):
        assert [a for a, _ in rows] == sorted(a for a, _ in rows) and rows[0][0] == 0
        deadly = [r.count("T") for _, r in rows]
        assert deadly == sorted(deadly)  # the older, the deadlier
    assert all(standin.health(a, True).count("G") >= standin.health(a, False).count("G") for a in (50, 65, 75, 85, 95))
    assert standin.events is not None and {c.effect for c in standin.events} == set(data.EFFECTS)
    assert all(c.phases and set(c.phases) <= set(range(1, 9)) and c.count >= 1 for c in standin.events)


def test_the_check_lists_every_problem_of_a_gm_file() -> None:
    text = data.standin_text().replace('age = 66', 'age = "old"').replace('hated = "foreign"', 'hated = "pope"', 1)
    text = text.replace('"GGGG------------KKKA"', '"GGGG-----"')
    problems = [str(p) for p in data.check(text)]
    assert any("Anatoli Apparatow): age" in p for p in problems)
    assert any("hated must be one of" in p and "'pope'" in p for p in problems)
    assert any("health.normal row 1" in p for p in problems)
    assert str(data.check("not = [toml")[0]).startswith("not a TOML file")


def test_a_game_cannot_start_without_data_and_starts_with_the_gms_file_or_the_stand_in() -> None:
    with pytest.raises(GameSetupError, match="data=standin"):
        FOUR.start({}, 1)
    gm_file = data.standin_text().replace("standin = true", "standin = false")
    state = FOUR.start({"data.kreml": gm_file}, 1)
    assert state["data"]["standin"] is False and "data.kreml" not in state["options"]
    with pytest.raises(GameSetupError, match="politician 3"):
        FOUR.start({"data.kreml": gm_file.replace('name = "Boris Buerokratow"', 'name = "unknown"')}, 1)
    (datafile,) = FOUR.data_files()
    assert datafile.name == "kreml" and datafile.required and datafile.check(gm_file) == ()
    assert datafile.template() == data.template()
    with pytest.raises(GameSetupError, match="seniority"):
        FOUR.start({"data": "standin", "seniority": "A,B"}, 1)


def _started(seed: int = 3) -> dict:
    state = FOUR.start({"data": "standin", "seniority": "B,A,C,D"}, seed)
    rng = random.Random(seed)
    orders = {p: bot_lines(FOUR, state, p, rng) for p in FOUR.powers()}
    return FOUR.resolve(state, orders).state


def test_notes_are_checked_as_a_whole_and_only_acknowledged_to_their_sender() -> None:
    state = FOUR.start({"data": "standin"}, 1)
    assert FOUR.turn(state).seats == ("A", "B", "C", "D") and FOUR.phase_kind(state) == "notes"
    names = [p for p in state["pol"] if p != data.NESTOR]
    lines = [(i, f"NOTIZ {n} {i}") for i, n in enumerate(names[:10], 1)]
    check = FOUR.check_orders(state, "A", lines)
    assert len(check.accepted) == 10 and not check.problems and not check.missing
    bad = FOUR.check_orders(state, "A", lines[:9] + [(10, f"NOTE {names[10]} 9")])
    assert not bad.accepted and all("used twice: 9" in p.message for p in bad.problems)
    assert bad.missing  # the note is still missing
    nestor = FOUR.check_orders(state, "A", [(1, "NOTIZ Nestor 10")])
    assert "Nestor" in nestor.problems[0].message


def _one_seat(seed: int = 3) -> dict:
    """The first position of a bot game where one player acts."""
    state = _started(seed)
    rng = random.Random(seed)
    while len(FOUR.turn(state).seats) != 1:
        state = FOUR.resolve(state, {p: bot_lines(FOUR, state, p, rng) for p in FOUR.powers()}).state
    return state


def test_every_illegal_order_is_refused_with_the_reason_and_the_legal_alternatives() -> None:
    state = _one_seat()
    (seat,) = FOUR.turn(state).seats
    other = next(p for p in FOUR.powers() if p != seat)
    refused = FOUR.check_orders(state, other, [(1, "SAEUBERN Nestor")])
    assert not refused.accepted and "not your turn" in refused.problems[0].message
    gibberish = FOUR.check_orders(state, other, [(3, "FLIEGE nach Moskau")])
    assert gibberish.problems[0].line == 3 and gibberish.problems[0].column == 1 and "NOTE" in gibberish.problems[0].hint
    unknown = FOUR.check_orders(state, other, [(1, "OFFENLEGEN Gorbatschow 3")])
    assert "no politician called" in unknown.problems[0].message
    too_many = FOUR.check_orders(state, other, [(1, "REVEAL Kaderow 11")])
    assert too_many.problems and not too_many.accepted
    wrong = FOUR.check_orders(state, seat, [(1, "REHABILITATE Nestor")])
    assert wrong.problems and "allowed now:" in wrong.problems[0].hint and not wrong.accepted
    assert FOUR.resolve(state, {other: ["SAEUBERN Nestor"]}).state["pol"] == FOUR.resolve(state, {}).state["pol"]


def test_private_lines_show_only_the_own_note_and_what_is_left_to_reveal() -> None:
    state = _started()
    mine = FOUR.private_lines(state, "A", "en")
    theirs = FOUR.private_lines(state, "B", "de")
    assert mine[0].startswith("Your secret note: ") and theirs[0].startswith("Deine geheime Notiz: ")
    a_names = set(state["notes"]["A"])
    b_only = set(state["notes"]["B"]) - a_names
    assert not any(n in " ".join(mine) for n in b_only)


def test_no_report_reveals_a_secret_note_or_a_waiting_reveal_before_the_end() -> None:
    # seed 12: a game in which a reveal waits (re-derived when the dice moved onto the judge's seed text)
    state, resolutions = play_game(FOUR, {}, 12)
    notes = state["notes"]
    before = FOUR.start({"data": "standin"}, 12)
    waited = 0
    for resolution in resolutions[:-1]:
        after = resolution.state
        waited += len(after["pending"])
        blind = {**after, "notes": {}, "pending": [], "notices": {}}
        assert build(before, blind) == resolution.report  # the report does not depend on any secret
        assert resolution.report["notes"] == {}
        before = after
    assert waited > 0  # reveals did wait (behind running actions) in this game
    assert resolutions[-1].report["notes"].keys() == notes.keys()


def test_reports_record_every_die_and_it_recomputes_from_the_seed() -> None:
    state, resolutions = play_game(FOUR, {"zr1": 1}, 5)
    events = [e for r in resolutions for e in r.report["random_events"]]
    assert events and len({e["counter"] for e in events}) == len(events)
    for event in events:
        assert recompute(state["seed"], RandomEvent.from_json(event)) == RandomEvent.from_json(event)
    assert all(not r.undoable for r in resolutions if r.report["random_events"])


def test_every_report_says_that_the_values_are_stand_ins() -> None:
    _, resolutions = play_game(FOUR, {}, 2)
    assert all(r.report["standin"] and "STAND-IN" in r.report["standin_text"]["en"] for r in resolutions)


@pytest.mark.parametrize("seed", range(200))
def test_random_games_run_to_their_end(seed: int) -> None:
    players = 3 + seed % 4
    options = {"zr1": seed % 2, "zr2": int(seed % 3 == 0), "zr3": int(seed % 5 == 0), "window": int(seed % 7 != 0),
               "hr2": 1 + seed % 2, "hr5": 1 + (seed // 2) % 2, "hr9": 1 + int(seed % 11 != 0),
               "hr1": 1 + seed % 3, "hr10": 1 + (seed // 3) % 2, "hr6": 1 + int(seed % 13 == 0)}
    module = KremlGame(f"kreml{players}")
    state, resolutions = play_game(module, options, seed)
    last = resolutions[-1]
    assert last.next_phase is None and state["result"] is not None
    assert (last.winner is None) == (last.draw is not None)
    if last.winner:
        assert last.winner in module.powers()


def test_refusals_come_in_german_and_english() -> None:
    from adjudicator.service.notes import note_text
    from adjudicator.service.render import Texts

    state = _one_seat()
    (seat,) = FOUR.turn(state).seats
    other = next(p for p in FOUR.powers() if p != seat)
    cases = [(other, "SAEUBERN Nestor", "nicht am Zug", "not your turn"),
             (seat, "REHABILITATE Nestor", "", ""),
             (other, "OFFENLEGEN Gorbatschow 3", "kein Politiker heißt", "no politician called"),
             (seat, "FLIEGE nach Moskau", "kann hier nicht gelesen werden", "cannot read"),
             (seat, "REVEAL Nestor 3", "von niemandem beeinflusst", "cannot be influenced")]
    for power, line, german, english in cases:
        (problem,) = FOUR.check_orders(state, power, [(1, line)]).problems
        assert problem.note is not None and problem.note.key.startswith("kreml_err_")
        de = note_text(problem.note, Texts("de"), lambda p: p)
        en = note_text(problem.note, Texts("en"), lambda p: p)
        assert de != en and german in de and english in en and en == problem.message
