"""Every text of an 1848 game in the game's language (issues 13/14 point 3).

A seeded whole game rendered in German (every report and every private
view) holds no English word outside names, and in English no German
word; the orders open to a player are shown with the German keywords in
a German game and read back as the same orders; the words an army's
reason carries (its nation, the place ``free``) are German in German.
"""

from __future__ import annotations

import random
import re
from types import SimpleNamespace

import pytest

from adjudicator.games.revolution1848.cards import card_data_from_overlay
from adjudicator.games.revolution1848.parse import in_language
from adjudicator.games.revolution1848.reasons import reason_note
from adjudicator.service.notes import note_text
from adjudicator.service.render import Texts, render
from tests.revolution1848.helpers import COMPLETE
from tests.test_catalogue import _english_words
from tests.test_revolution1848_game import MODULE

GERMAN = frozenset("""
der die das den dem des und oder ist sind nicht kein keine keiner ein eine einen einer spieler spielt passt
karte karten deine dein jetzt möglich gespielt aufgedeckt ablauf auf tisch auswertung wert armeen armee stärke
moral gewonnene punkte handkarten schlusswertung prognose summe ablaufkarte ablaufkarten leer frei als nächstes
entscheidung liegt aus bleibt behält abgelegt wird gewinnt seite kontrolliert von bei erzielt höheren vorteil
""".split())
"""German words that are no English words, the words of 1848's reports."""


def _german_words(english: str) -> set[str]:
    return {w.lower() for w in re.findall(r"[A-Za-zÄÖÜäöüß]+", english)} & GERMAN


def _mails(seed: int, rng_seed: int, language: str) -> list[str]:
    """Every report and private view of a seeded whole game in ``language``."""
    rng = random.Random(rng_seed)
    state = MODULE.start(dict(COMPLETE), seed)
    texts = Texts(language, "Europe/Berlin")
    mails: list[str] = []
    for _ in range(5000):
        orders: dict[str, list[str]] = {}
        for player in MODULE.must_act(state):
            mails.append("\n".join(MODULE.private_lines(state, player, language)))
            options = MODULE.legal_orders(state, player)
            if options and rng.random() >= 0.05:
                orders[player] = [rng.choice(options)]
        resolution = MODULE.resolve(state, orders)
        state = resolution.state
        record = SimpleNamespace(name="spiel", status="finished" if resolution.next_phase is None else "active",
                                 phase=state["phase"], deadline=None, outcome="A 30:28")
        for template in ("revolution1848_report.txt.j2", "revolution1848_report.html.j2"):
            mails.append(render(template, texts, lambda p: MODULE.power_name(p, language), judge="j@x", game=record,
                                report=resolution.report, late=[], phase=resolution.phase))
        if resolution.next_phase is None:
            return mails
    raise AssertionError("the game did not end")


def _given() -> tuple[str, ...]:
    data = card_data_from_overlay(MODULE.start(dict(COMPLETE), 1)["overlay"])
    names = [data.name_of(code) for code in [*data.persons, *data.extras, *data.flows]]
    names += [f.text for f in data.rules.forecasts.values()]
    names += [o.name for flow in data.flows.values() for o in (flow.red, flow.blue) if o is not None and o.name_en]
    return tuple(sorted({n for n in names if n}, key=len, reverse=True))


_GIVEN = _given()
"""The texts the card file gives (card names, the forecasts' texts, the
German names of the decisions that have an English one): names, in the
file's words."""


def _words_outside_names(mail: str) -> str:
    """The mail without its machine lines (``:: Game:``), its HTML tags and
    the texts the card file gives."""
    lines = [line for line in mail.splitlines() if not line.lstrip().startswith((":: ", "<pre"))]
    text = re.sub(r"<[^>]*>", " ", "\n".join(lines))
    for given in _GIVEN:
        text = text.replace(given, " ")
    return text


@pytest.mark.parametrize(("seed", "rng_seed"), [(1, 1), (2, 7), (3, 11)])
def test_a_whole_german_game_has_no_english_word_and_an_english_one_no_german_word(seed: int, rng_seed: int) -> None:
    found: dict[str, set[str]] = {"de": set(), "en": set()}
    for language, check in (("de", _english_words), ("en", _german_words)):
        for mail in _mails(seed, rng_seed, language):
            for line in _words_outside_names(mail).splitlines():
                words = check(line)
                assert not words, (language, sorted(words), line)
                found[language] |= {w.lower() for w in re.findall(r"[A-Za-zÄÖÜäöüß]+", line)}
    # The mails were read: the German ones speak German, the English ones English.
    assert {"spieler", "ablaufkarte", "auswertung", "jetzt"} <= found["de"]
    assert {"player", "evaluation", "open", "hand"} <= found["en"]


def test_the_checks_find_the_other_language() -> None:
    assert _english_words("Jetzt möglich: ARMY Z28 TO A04, NONE") == {"army", "to", "none"}
    assert _german_words("Spieler A plays PE12") == {"spieler"}


def test_the_orders_open_in_a_german_game_are_german_and_read_back_as_the_same_orders() -> None:
    state = MODULE.start(dict(COMPLETE), 2)
    rng = random.Random(7)
    seen: set[str] = set()
    for _ in range(400):
        for player in MODULE.must_act(state):
            for order in MODULE.legal_orders(state, player):
                german = in_language(order, "de")
                check = MODULE.check_orders(state, player, [(1, german)])
                assert not check.problems and check.accepted[0].canonical == order, (german, check)
                seen.add(german.split()[0])
        orders = {p: [rng.choice(MODULE.legal_orders(state, p))] for p in MODULE.must_act(state)
                  if MODULE.legal_orders(state, p)}
        resolution = MODULE.resolve(state, orders)
        if resolution.next_phase is None:
            break
        state = resolution.state
    assert {"SPIELE", "BEHALTE", "ENTSCHEIDUNG", "ARMEE", "PROGNOSE"} <= seen, seen
    assert in_language("GENERAL PE34 TO Z28", "de") == "HEERFUEHRER PE34 ZU Z28"
    assert in_language("ARMY Z28 TO A04", "en") == "ARMY Z28 TO A04"


@pytest.mark.parametrize(("english", "german"), [
    ("only a austria army can conquer A06", "nur eine Armee (Österreich) kann A06 erobern"),
    ("PE34 leads only prussia armies at A04, free or at A15 (without a revolutionary general)",
     "PE34 führt nur Armeen (Preußen) an A04, frei oder an A15 (ohne Revolutionsgeneral)"),
    ("an army free cannot attack one A04", "eine Armee (frei) kann keine Armee (A04) angreifen"),
    ("an army A15 cannot attack one free", "eine Armee (A15) kann keine Armee (frei) angreifen"),
])
def test_an_armys_nation_and_place_in_a_reason_are_worded_in_german(english: str, german: str) -> None:
    note = reason_note(english)
    assert note is not None
    assert note_text(note, Texts("de"), str) == german
    assert note_text(note, Texts("en"), str) == english
