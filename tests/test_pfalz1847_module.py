"""1847 AE through the game-module interface: registry, start (the
gathered tile manifest, stand-in, GM data files), turns, order checks in German
and English, resolution, undo, reports and the map picture."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from adjudicator.config import Config
from adjudicator.games.base import GameSetupError, OrderProblem
from adjudicator.games.pfalz1847.data import standin_text, template
from adjudicator.games.pfalz1847.module import Pfalz1847
from adjudicator.games.pictures.png import to_png
from adjudicator.games.pictures.svg import to_svg
from adjudicator.games.registry import game_module
from adjudicator.records import replace
from adjudicator.service.notes import note_text
from adjudicator.service.render import Texts
from adjudicator.service.turns import render_report
from tests.pfalz1847_helpers import EXAMPLE_SR1


def _module(players: int = 4) -> Pfalz1847:
    module = game_module({3: "1847ae", 4: "1847ae-4", 5: "1847ae-5"}[players])
    assert isinstance(module, Pfalz1847)
    return module


def test_variant_and_aliases_are_registered() -> None:
    for name in ("1847ae", "1847", "pfalz", "1847AE", "1847ae-3"):
        module = game_module(name)
        assert isinstance(module, Pfalz1847) and module.powers() == ("S1", "S2", "S3")
    assert game_module("1847ae-4").powers() == ("S1", "S2", "S3", "S4")
    assert len(game_module("1847ae-5").powers()) == 5


def test_the_game_starts_on_the_gathered_tile_manifest() -> None:
    state = _module().start({}, 1)
    assert state["standin"] is False and state["phase"] == "SR1-0001"


def test_a_gm_tile_file_or_the_standin_starts_the_game() -> None:
    module = _module()
    tiles = template("tiles").replace('"57" = 2', '"57" = 3').replace('source = "18xx', 'source = "GM list, 18xx')
    state = module.start({"data.tiles": tiles}, 1)
    assert state["standin"] is False and state["phase"] == "SR1-0001"
    state = module.start({"data": "standin"}, 1)
    assert state["standin"] is True
    with pytest.raises(GameSetupError, match="data.tiles"):
        module.start({"data.tiles": "[tiles]\ncounts = { \"57\" = -1 }\n"}, 1)
    with pytest.raises(GameSetupError, match="tiles.counts is unknown"):
        module.start({"data.tiles": '[tiles]\ncounts = "unknown"\n'}, 1)
    with pytest.raises(GameSetupError, match="cannot become 63"):
        module.start({"data.tiles": '[tiles]\ncounts = { "57" = 1 }\nupgrades = { "57" = ["63"] }\n'}, 1)


def test_data_files_have_templates_and_checks() -> None:
    files = {f.name: f for f in _module().data_files()}
    assert not any(f.required for f in files.values())
    assert files["tiles"].check(files["tiles"].template()) == ()
    assert files["tiles"].check('[tiles]\ncounts = "unknown"\n')     # unknown counts are reported
    assert files["market"].check(files["market"].template()) == ()
    assert files["tiles"].check(standin_text()) == ()
    bad_market = files["market"].template().replace('"86p"', '"86"')
    assert any("par space 86" in str(p) for p in files["market"].check(bad_market))


def _said(problem: OrderProblem, language: str) -> str:
    """A refusal as the judge words it in ``language`` (from its note)."""
    assert problem.note is not None
    return note_text(problem.note, Texts(language), str)


def test_turns_orders_refusals_and_undo() -> None:
    module = _module(4)
    state = module.start({"data": "standin"}, 1)
    assert module.turn(state).seats == ("S4",) and module.must_act(state) == ("S4",)
    assert module.pass_order(state, "S4") == "PASS" and module.pass_order(state, "S1") is None
    check = module.check_orders(state, "S1", [(1, "BUY W")])
    assert not check.accepted and "nicht am Zug" in _said(check.problems[0], "de")
    assert "not your turn" in check.problems[0].message == _said(check.problems[0], "en")
    check = module.check_orders(state, "S4", [(1, "BUY XYZ"), (2, "BUY SCR"), (3, "BUY VIW")])
    assert [a.canonical for a in check.accepted] == ["BUY SCR"]
    assert "Startpaket" in _said(check.problems[0], "de") and "start packet" in check.problems[0].message
    assert "Startpaket" not in check.problems[0].message
    assert "BUY" in check.problems[0].hint
    assert "nicht am Zug" in _said(check.problems[1], "de")               # the turn has passed to S3
    result = module.resolve(state, {"S4": ["BUY SCR"]})
    assert result.undoable and result.next_phase == "SR1-0002"
    state = result.state
    assert module.turn(state).seats == ("S3",)
    assert module.check_orders(state, "S3", [(1, "UNDO")]).problems      # not S3's action
    undo = module.check_orders(state, "S4", [(1, "UNDO")])
    assert [a.canonical for a in undo.accepted] == ["UNDO"]
    back = module.resolve(state, {"S4": ["UNDO", "BUY VIW"]}).state
    assert back["game"]["privates"]["SCR"]["owner"] is None and back["game"]["privates"]["VIW"]["owner"] == "S4"
    assert back["game"]["cash"]["S4"] == 390 - 85


def test_deadline_default_and_actions_now() -> None:
    module = _module(4)
    state = module.start({"data": "standin"}, 1)
    for seat, line in EXAMPLE_SR1:
        state = module.resolve(state, {seat: [line]}).state
    assert state["phase"].startswith("OR1.1")
    lines = module.actions_now(state, "S1", "en")
    assert lines[0].startswith("It is your turn (S1, L)") and "LAY 58 G17 ROT 1" in lines
    assert module.actions_now(state, "S2", "de") == ()
    assert module.pass_order(state, "S1") == "DONE" and module.round_key(state) == "OR1.1-L"
    done = module.resolve(state, {})                                      # the deadline: DONE
    g = done.state["game"]
    assert g["trains"]["L"] == ["3"] and g["round"]["kind"] == "SR"       # a company must have a train
    assert "RUN BEST" not in module.actions_now(state, "S1", "de")


def test_report_and_picture_of_a_turn() -> None:
    module = _module(4)
    state = module.start({"data": "standin"}, 1)
    for seat, line in EXAMPLE_SR1:
        state = module.resolve(state, {seat: [line]}).state
    result = module.resolve(state, {"S1": ["LAY 58 G17 ROT 1", "LAY 57 G19 ROT 2", "STATION G15", "BUY TRAIN 3", "PASS"]})
    report = result.report
    assert report["orders"] == ["LAY 58 G17 ROT 1", "LAY 57 G19 ROT 2", "STATION G15", "BUY TRAIN 3", "PASS"]
    assert any("Speyer" in e["en"] or "G19" in e["en"] for e in report["events"])
    scene = module.picture(result.state, report, game_name="pf1", language="de", texts=Texts("de"))
    assert scene is not None
    svg = to_svg(scene)
    assert 'data-hex="G17"' in svg and "STAND-IN" in svg and "86" in svg
    assert to_png(scene)[:4] == b"\x89PNG"
    from adjudicator.service.store import GameRecord
    now = datetime(2026, 12, 1, tzinfo=timezone.utc).isoformat()
    game = GameRecord("pf1", "1847ae-4", {}, "de", "UTC", None, "active", result.next_phase or "", result.state,
                      now, {}, "", now, {})
    text, html = render_report(Config(), game, module, report, [], result.phase)
    assert "Ersatzdaten" in text and "Kasse 140M" in text and "86p" in text
    assert "<table" in html
    english = replace(game, language="en")
    text, _ = render_report(Config(), english, module, report, [], result.phase)
    assert "treasury 140M" in text and "stand-in" in text


def test_every_illegal_order_is_refused_in_both_languages_with_the_alternatives() -> None:
    import copy

    module = _module(4)
    state = module.start({"data": "standin"}, 1)
    for seat, line in EXAMPLE_SR1:
        state = module.resolve(state, {seat: [line]}).state
    before = copy.deepcopy(state)
    cases = [
        ("S2", "LAY 58 G17 ROT 1", "nicht am Zug", "not your turn"),                  # wrong turn
        ("S1", "LAY 9 I9 ROT 1", "nicht erreichbar", "cannot be reached"),             # not connected
        ("S1", "LAY 7 C5 ROT 0", "ihrem Staat", "own state"),                       # another state
        ("S1", "LAY 207 F18 ROT 5", "noch nicht erlaubt", "not allowed yet"),          # green in phase 3
        ("S1", "STATION C13", "kein", "no city"),                                      # no city with track
        ("S1", "BUY TRAIN 4", "verkauft jetzt 3", "sells 3 now"),                      # not offered
        ("S1", "BUY TRAIN 3 FROM SAAR 10", "ab Phase 3+3", "from phase 3+3"),          # no trades yet
        ("S1", "BUY PRIVATE W 50", "ab Phase 4", "from phase 4"),                      # too early
        ("S1", "SELL 1 L", "in Not", "in need"),                                       # no sales in an OR
        ("S1", "BUY L IPO", "Betriebsrunde", "operating round"),                       # not a stock-round order
    ]
    for seat, line, german, english in cases:
        check = module.check_orders(state, seat, [(1, line)])
        assert not check.accepted, line
        german_text, english_text = _said(check.problems[0], "de"), _said(check.problems[0], "en")
        assert german in german_text and english in english_text, (line, german_text, english_text)
        assert english not in german_text and german not in english_text, line
        if seat == "S1":
            assert "LAY 58 G17 ROT 1" in check.problems[0].hint, line             # the legal alternatives
    assert state == before
    poor = copy.deepcopy(state)
    poor["game"]["bank"] += poor["game"]["cash"]["L"] - 50
    poor["game"]["cash"]["L"] = 50
    check = module.check_orders(poor, "S1", [(1, "LAY 57 G19 ROT 2")])       # 80M river, 50M there
    assert "fehlt Geld" in _said(check.problems[0], "de") and "not enough money" in _said(check.problems[0], "en")
    state = module.resolve(state, {"S1": ["LAY 58 G17 ROT 1", "LAY 57 G19 ROT 2", "STATION G15", "BUY TRAIN 3",
                                          "PASS"]}).state
    for seat, line in [("S4", "PASS"), ("S1", "BUY L IPO"), ("S2", "PASS"), ("S3", "PASS"), ("S4", "PASS"),
                       ("S1", "PASS")]:
        state = module.resolve(state, {seat: [line]}).state
    check = module.check_orders(state, "S1", [(1, "RUN 3: F18-G15")])
    assert "no track runs" in _said(check.problems[0], "en") and "keine Strecke" in _said(check.problems[0], "de")
    assert _said(check.problems[0], "de").startswith("die Route F18-G15 geht nicht: ")


def test_a_resolution_always_moves_on() -> None:
    module = _module(4)
    state = module.start({"data": "standin"}, 1)
    result = module.resolve(state, {"S4": ["BUY PLP", "BUY PLP"]})       # the second one is refused
    assert result.next_phase == "SR1-0002" and result.report["orders"] == ["BUY PLP"]
    result = module.resolve(result.state, {"S3": ["BUY PLP"]})           # already sold: the pass is used
    assert result.next_phase == "SR1-0003" and result.report["orders"] == ["PASS"]


def test_the_standin_file_supplied_by_a_gm_is_still_marked_as_standin() -> None:
    state = _module().start({"data.tiles": standin_text()}, 1)
    assert state["standin"] is True


def test_the_start_notes_give_money_seat_order_and_the_packet() -> None:
    module = _module(4)
    notes = {n.key: dict(n.fields) for n in module.seat_notes(module.start({}, 1), "S2")}
    assert notes["p47_start_money"] == {"money": "390", "limit": "12"}
    assert notes["p47_start_order"] == {"seats": "S1 - S2 - S3 - S4", "seat": "S2", "first": "S4", "twice": "S1"}
    items = notes["p47_start_packet"]["items"].split("; ")
    assert len(items) == 10 and items[0] == "PLP Pfälzische Ludwigsbahn (Direktor) 172M [L 20%]"
    assert "W Weidenthal 135M [L 10%]" in items and "p47_standin" not in notes
    assert "p47_standin" in {n.key for n in module.seat_notes(module.start({"data": "standin"}, 1), "S2")}


def test_an_offer_by_mail_goes_to_the_other_director_and_his_deadline_declines_it() -> None:
    import copy

    from tests.pfalz1847_helpers import Table

    module = _module(4)
    g = copy.deepcopy(Table(4).script(EXAMPLE_SR1).g)                  # OR1: the L (S1) operates
    g["phase"], g["trains"]["Saar"] = "3+3", ["3"]
    assert g["director"]["Saar"] == "S2"
    state = {**module.start({}, 1), "game": g}
    check = module.check_orders(state, "S1", [(1, "KAUFE ZUG 3 VON SAAR 100"), (2, "FERTIG")])
    assert [a.canonical for a in check.accepted] == ["BUY TRAIN 3 FROM SAAR 100"]
    assert "not your turn" in check.problems[0].message                # S2 answers first
    offered = module.resolve(state, {"S1": ["BUY TRAIN 3 FROM SAAR 100"]}).state
    assert module.must_act(offered) == ("S2",) and module.pass_order(offered, "S2") == "DECLINE"
    lines = module.actions_now(offered, "S2", "de")
    assert lines[0] == "Du bist am Zug (S2, L)."
    assert lines[1].startswith("Angebot an dich: die L (Direktor S1) bietet 100M für 3 von Saar.")
    assert lines[2:] == ("ACCEPT", "DECLINE")
    late = module.resolve(offered, {})                                  # the deadline: declined
    assert late.state["game"]["trains"]["Saar"] == ["3"] and module.must_act(late.state) == ("S1",)
    assert "S2 declines L's offer for 3" in module.report_lines(late.report, "en")
    taken = module.resolve(offered, {"S2": ["ANNEHMEN"]}).state
    assert taken["game"]["trains"]["L"] == ["3"] and taken["game"]["cash"]["Saar"] == 100
