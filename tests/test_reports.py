"""Turn reports rendered from the templates: orders with results,
dislodgements with retreat options, religious warfare and confession
changes, the centre table, the next phase and deadline — in German and
English, as text and as HTML."""

from __future__ import annotations

from datetime import datetime, timezone
from html.parser import HTMLParser

from adjudicator.config import Config
from adjudicator.games import game_module
from adjudicator.games.base import JSON, GameModule, Resolution
from adjudicator.records import replace
from adjudicator.service.store import GameRecord
from adjudicator.service.turns import render_report

THIRTY = game_module("30jk")
STANDARD = game_module("standard")


def game(variant: str, state: JSON, language: str) -> GameRecord:
    return GameRecord("spiel1", variant, {}, language, "Europe/Berlin", None, "active", state["phase"], state,
                      "2026-12-06T19:00:00+00:00", {}, "", "2026-11-30T10:00:00+00:00")


# 30JK 1618M-1620M: a double move, a transform, builds, then a change of
# confession with a defection (tests/test_drawing.py draws the same phases).
SCRIPT_1618_1620: tuple[dict[str, list[str]], ...] = (
    {"Sachsen": ["F Tor - Wit - Anh", "A Lei - EbMa", "A Mei - Lei"], "Österreich": ["F Lin T A", "A Pra - Pil"],
     "Bayern": ["A FAns - RsNu"]},
    {"Sachsen": ["A Lei - Erf"], "Bayern": ["A RsNu H"]},
    {"Bayern": ["Build A FAns"], "Sachsen": ["Build A Mei", "Baue F Tor"], "Pfalz": ["waive"]},
    {"Braunschweig-Lüneburg": ["Konfession katholisch"]},
)


def thirty_years_to_1620() -> tuple[JSON, Resolution]:
    state = THIRTY.start({}, 1)
    for orders in SCRIPT_1618_1620[:-1]:
        state = THIRTY.resolve(state, orders).state
    return state, THIRTY.resolve(state, SCRIPT_1618_1620[-1])


def render(module: GameModule, before: JSON, result: Resolution, language: str, late: list[str] | None = None) -> tuple[str, str]:
    after = replace(game(result.state["variant"], result.state, language), phase=result.state["phase"])
    return render_report(Config(), after, module, result.report, late or [], before["phase"])


def test_a_30jk_report_shows_defection_and_the_change_of_confession_in_both_languages() -> None:
    before, result = thirty_years_to_1620()
    english, _ = render(THIRTY, before, result, "en")
    assert ":: Phase: 1620M" in english and ":: Next-Phase: 1621M" in english
    assert "Brunswick: A Bra defects to Saxony (religious warfare)" in english
    assert "Brunswick: confession protestant → catholic" in english
    assert "Next phase: 1621M, deadline Sunday, 6 December 2026, 20:00 CET (Europe/Berlin)" in english
    german, _ = render(THIRTY, before, result, "de")
    assert "Braunschweig-Lüneburg: A Bra läuft über zu Sachsen (Religionskrieg)" in german
    assert "Braunschweig-Lüneburg: Konfession protestant → catholic" in german
    assert "Nächste Phase: 1621M, Frist Sonntag, 6. Dezember 2026, 20:00 Uhr CET (Europe/Berlin)" in german


def test_a_report_shows_dislodgements_retreat_options_and_the_centre_table() -> None:
    state = STANDARD.start({}, 1)
    state = STANDARD.resolve(state, {"Russia": ["A War - Gal"], "Austria": ["F Tri - Alb"]}).state
    before = state
    result = STANDARD.resolve(state, {"Austria": ["A Vie - Gal", "A Bud S A Vie - Gal", "F Alb - Gre"],
                                      "Russia": ["A Gal H"]})
    text, html = render(STANDARD, before, result, "en", late=["England"])
    assert "A VIE - GAL                      succeeds" in text
    assert "A GAL H                          fails (dislodged)" in text
    assert "Russia: A GAL (attacked from VIE), may retreat to: BOH, RUM, SIL, UKR, WAR" in text
    assert "No orders received (NMR): England" in text
    assert "Austria                   3 →  3   3" in text  # centres change hands after the retreats
    retreat = STANDARD.resolve(result.state, {"Russia": ["A Gal - War"]})
    after_retreat, _ = render(STANDARD, result.state, retreat, "en")
    assert "Austria                   3 →  4   3  +GRE" in after_retreat
    assert "<table" in html and "Russia: A GAL (attacked from VIE)" in html


class Tags(HTMLParser):
    """Every tag opened is closed, in order (``open`` is left empty)."""

    def __init__(self) -> None:
        super().__init__()
        self.open: list[str] = []

    def handle_starttag(self, tag: str, attrs: object) -> None:
        if tag not in ("meta", "br"):
            self.open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        assert self.open and self.open.pop() == tag, f"unbalanced </{tag}>"


def test_player_text_is_escaped_in_the_html_report() -> None:
    state = STANDARD.start({}, 1)
    result = STANDARD.resolve(state, {"Austria": ["<script>alert(1)</script>"]})
    _, html = render(STANDARD, state, result, "en")
    assert "<script>" not in html and "&lt;script&gt;" in html
    parser = Tags()
    parser.feed(html)
    assert parser.open == []
