"""The report after a reveal: both plays, the table on each side, the
evaluation step by step in the words of the rule text, who won the card
and what comes next — in German and English, as text and HTML."""

from __future__ import annotations

import copy
import random
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from adjudicator.games.revolution1848 import Revolution1848
from adjudicator.games.revolution1848.parse import parse_line
from adjudicator.games.revolution1848.state import to_json
from adjudicator.service.render import Texts, render
from tests.browser import Browser, file_url, require_chromium
from tests.revolution1848.helpers import COMPLETE, complete_data
from tests.test_revolution1848_examples import A14_PLAYS, a14_start
from tests.test_reports import Tags

MODULE = Revolution1848()


def rendered(report: dict[str, Any], phase: str, next_phase: str, language: str, kind: str = "txt") -> str:
    record = SimpleNamespace(name="spiel", status="active", phase=next_phase, deadline=None, outcome="")
    return render(f"revolution1848_report.{kind}.j2", Texts(language, "Europe/Berlin"),
                  lambda p: MODULE.power_name(p, language), judge="j@x", game=record, report=report, late=["B"],
                  phase=phase)


def a14_reports() -> list[Any]:
    state = MODULE.start(dict(COMPLETE), 1)
    state = {**state, "game": to_json(a14_start(complete_data())), "phase": "R10A14-1"}
    resolutions = []
    for a, b in A14_PLAYS:
        resolution = MODULE.resolve(state, {"A": [str(parse_line(a))], "B": [str(parse_line(b))]})
        resolutions.append(resolution)
        state = resolution.state
    return resolutions


def test_the_last_action_of_the_a14_example_is_reported_step_by_step() -> None:
    last = a14_reports()[-1]
    assert (last.phase, last.next_phase) == ("R10A14-6", "R10A14-F")
    text = rendered(last.report, last.phase, "R10A14-F", "de")
    plays = text.split("Gespielt (aufgedeckt):\n")[1].split("\n\n")[0]
    assert plays.splitlines() == [
        "  Spieler A: SPIELE Z19 AUF PE20",
        "      Z19 Arbeiteraufstand in Paris – Angriff (Aufstand): macht einen Liberalen zum Reaktionär",
        "  Spieler B: SPIELE PE06",
        "      PE06 Ludwig und Elise Blenker – Republikaner, Wert 2; Heerführer (Revolution), Stärke 3"]
    assert "PE20 Friedrich Christoph Dahlmann wechselt von den Liberalen zu den Reaktionären." in text
    assert "    PE20 Friedrich Christoph Dahlmann – Reaktionär, Wert 3" in text.split("Spieler B:\n")[-1]
    assert "Ersatzwerte, nicht die Originalkarten" in text.split("Gespielt")[0]
    evaluation = text.split("Auswertung:\n")[1].split("\n\n")[0].splitlines()
    assert evaluation[0] == "  1. Bei den Liberalen erzielt Spieler B den höheren Wert (5 zu 7)."
    assert evaluation[1] == "  2. Bei den Demokraten erzielt Spieler A den höheren Wert (7 zu 3)."
    assert "Spieler B bestimmt zuerst, ob seine Liberalen Rechte oder Linke Liberale sind." in text
    assert "Rechte Liberale 170 (Spieler B), Linke Liberale 115 (Spieler A)" in text
    assert evaluation[-1].endswith("Spieler A ist im Vorteil. Entscheidung: rot (Ablehnen) oder blau (Anerkennen).")
    assert "Als nächstes (R10A14-F): Wahl der liberalen Fraktion – Spieler B." in text
    # B declares his Liberals; the round is then A's.
    state = last.state
    chosen = MODULE.resolve(state, {"B": ["FACTION RIGHT"]})
    text = rendered(chosen.report, chosen.phase, "R10A14-V", "de")
    assert "Spieler B nimmt in der Nationalversammlung die Rechten Liberalen." in text
    assert "Spieler A gewinnt die Ablaufkarte A14 Parlamentsentscheid über den Antrag Ruge." in text
    assert "Als nächstes (R10A14-V): Entscheidung des Gewinners – Spieler A." in text
    assert "Ohne Befehle (NMR): Spieler B" in text


def test_the_english_and_html_reports_carry_the_same() -> None:
    first = a14_reports()[0]
    text = rendered(first.report, first.phase, "R10A14-2", "en")
    assert "Player A: PLAY Z03" in text and "Player B: PLAY Z12" in text
    assert "Liberals: Player A has the higher value (15 to 7)." in text
    assert "Player B is ahead." in text
    html = rendered(first.report, first.phase, "R10A14-2", "en", "html")
    assert "<li>Liberals: Player A has the higher value (15 to 7).</li>" in html
    assert "<td>PE22 Gabriel Riesser (test number)</td><td>Liberals</td><td>5</td><td>Liberal, value 5</td>" in html
    assert "Stand-in values, not the original cards" in html


def test_every_html_report_of_a_whole_game_is_well_formed_and_escapes_card_data(tmp_path: Path) -> None:
    """The HTML reports of a seeded random game in both languages: tags
    balanced, a card name from the game master's file shown as text, never
    as markup; one of them opened in headless Chromium without errors."""
    state = MODULE.start(dict(COMPLETE), 4)
    chooser = random.Random(4)
    pages, with_table = 0, None
    for _ in range(400):
        orders = {p: [chooser.choice(MODULE.legal_orders(state, p))] for p in MODULE.must_act(state)}
        resolution = MODULE.resolve(state, orders)
        for language in ("de", "en"):
            parser = Tags()
            parser.feed(rendered(resolution.report, resolution.phase, resolution.next_phase or "-", language, "html"))
            assert parser.open == [], resolution.phase
        pages += 1
        if any(side["cards"] for side in resolution.report.get("tables", [])):
            with_table = resolution
        if resolution.next_phase is None:
            break
        state = resolution.state
    assert pages > 20 and "final" in resolution.report
    assert with_table is not None
    report = copy.deepcopy(with_table.report)
    side = next(s for s in report["tables"] if s["cards"])
    side["cards"][0]["name"] = "<script>alert(1)</script>"
    html = rendered(report, with_table.phase, "-", "en", "html")
    assert "<script>" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    page = tmp_path / "report.html"
    page.write_text(html, encoding="utf-8")
    with Browser(require_chromium()) as browser:
        opened = browser.open(file_url(page))
    assert opened.problems == [] and opened.title == f"Results of spiel, phase {with_table.phase}"
