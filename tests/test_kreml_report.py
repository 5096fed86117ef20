"""Kreml's reports as players read them: events, the Politburo, dice,
votes, revealed influence and at the end the notes, in German and English,
text and HTML, always marked as stand-in values; the picture of the
Politburo."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from adjudicator.games.kreml import words
from adjudicator.games.kreml.module import KremlGame
from adjudicator.games.pictures.svg import to_svg
from adjudicator.service.render import Texts, render
from tests.kreml_bots import play_game
from tests.kreml_support import at_phase, dice, game

MODULE = KremlGame("kreml4")


def rendered(report: dict[str, Any], language: str, kind: str = "txt", status: str = "active") -> str:
    record = SimpleNamespace(name="moskau", status=status, phase=report.get("next_phase") or "-", deadline=None,
                             outcome="Spielerin A" if status == "finished" else "")
    return render(f"kreml_report.{kind}.j2", Texts(language, "Europe/Berlin"),
                  lambda p: MODULE.power_name(p, language), judge="j@x", game=record, report=report, late=[],
                  phase=report["phase"], map_image=None)


def test_a_purge_is_reported_with_its_die_in_both_languages() -> None:
    state = at_phase(game(leaders={"Juri Kaderow": ("A", 3)}, seed=dice(12)), 2)
    resolution = MODULE.resolve(state, {"A": ["PURGE Igor Ideolow", "END"]})
    german, english = rendered(resolution.report, "de"), rendered(resolution.report, "en")
    assert "Juri Kaderow säubert Igor Ideolow: W20 = 12 (nötig 10), Erfolg." in german
    assert "Juri Kaderow purges Igor Ideolow: W20 = 12 (needed 10), success." in english
    assert "#1 W20 purge of Igor Ideolow by Juri Kaderow (needs 10): 12" in english
    assert "KGB-Chef: Juri Kaderow" in german and "geführt von Spielerin A (3 Punkte)" in german
    assert "Sibirien: Igor Ideolow" in german
    assert "ERSATZWERTE, NICHT DIE ORIGINALKARTEN" in german and "STAND-IN VALUES" in english
    html = rendered(resolution.report, "en", "html")
    assert "<li>Juri Kaderow purges Igor Ideolow: W20 = 12 (needed 10), success. Igor Ideolow goes to Siberia.</li>" in html
    assert "STAND-IN VALUES" in html


def test_a_vote_shows_who_voted_how() -> None:
    leaders = {"Grigori Direktiwin": ("A", 3), "Michail Mandatow": ("B", 2)}
    state = at_phase(game(leaders=leaders, inv={"Viktor Wodkin": 0}), 3)
    state = MODULE.resolve(state, {"A": ["END"]}).state
    state = MODULE.resolve(state, {"A": ["ACCUSE Viktor Wodkin"]}).state
    report = MODULE.resolve(state, {"A": ["VOTE FOR"], "B": ["VOTE AGAINST"]}).report
    text = rendered(report, "en")
    assert ("Vote on the accusation of Viktor Wodkin: Nestor Aparatschik abstains, Juri Kaderow abstains, "
            "Michail Mandatow against, Grigori Direktiwin for, Igor Ideolow abstains") in text
    assert "Fewer than 2 votes against: condemned, Viktor Wodkin goes to Siberia." in text


def test_the_last_report_reveals_every_note_and_the_winner() -> None:
    _, resolutions = play_game(MODULE, {}, 4)
    last = resolutions[-1]
    text = rendered(last.report, "de", status="finished")
    assert "Die geheimen Notizen:" in text and text.count("  Spielerin ") >= 8
    assert any(word in text for word in ("gewinnt das Spiel", "unentschieden"))
    years = [r for r in resolutions if r.report["years"]]
    assert years and "Das Jahr 1951 im Überblick:" in rendered(years[0].report, "de")


def test_every_event_key_has_both_languages() -> None:
    _, resolutions = play_game(KremlGame("kreml6"), {"zr1": 1, "zr2": 1, "zr3": 1}, 9)
    for resolution in resolutions:
        for line in resolution.report["events"]:
            assert line["de"] and line["en"] and "{" not in line["de"] + line["en"]
    assert words.say("step_purge", "de", actor="X") == "Phase 2: Säuberungen durch X."


def test_the_politburo_picture_shows_offices_holders_and_the_stand_in_mark() -> None:
    state = at_phase(game(leaders={"Juri Kaderow": ("A", 3)}), 2)
    scene = MODULE.picture(state, None, game_name="moskau", language="de", texts=lambda *a, **k: "")
    svg = to_svg(scene)
    assert "KGB-Chef" in svg and "Juri Kaderow" in svg and "Spielerin A 3" in svg
    assert "Ersatzwerte" in svg
