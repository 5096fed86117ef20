"""A game master's refused position edits and options answered in the game's
language, with no JSON path (issue 13 points 3 and 10): each case is a GM
mail through the intake of a German and of an English game, and the exact
answer under the command."""

from __future__ import annotations

from typing import Any

import pytest

from tests.test_inbox import _game, _gm_mail, _with_gm
from tests.test_service_commands import Table, table  # noqa: F401

REFUSED = {"de": "Abgelehnt, nichts geändert: ", "en": "Refused, nothing changed: "}


def _answer(made: Table, command: str) -> list[str]:
    ack = _gm_mail(made, command).one("acknowledgement", "gm@pbem.test")
    return ack.section(command)


@pytest.mark.parametrize(("command", "german", "english"), [
    ("GM UNIT ADD A Vie Austria", "in VIE steht schon A VIE", "VIE already holds A VIE"),
    ("GM UNIT ADD F Mun Germany", "eine Flotte kann nicht in MUN stehen („F Mun“)",
     "a fleet cannot stand in MUN ('F Mun')"),
    ("GM UNIT ADD A Yrk England", "unbekannte Provinz „Yrk“", "unknown province 'Yrk'"),
    ("GM UNIT ADD F Spa France", "„F Spa“ braucht eine Küste (SPA/NC, SPA/SC)", "'F Spa' needs a coast (SPA/NC, SPA/SC)"),
    ("GM UNIT ADD F Spa/xc France", "unbekannte Küste „xc“ in „F Spa/xc“", "unknown coast 'xc' in 'F Spa/xc'"),
    ("GM UNIT REMOVE Boh", "in BOH steht keine Einheit", "there is no unit in BOH"),
    ("GM UNIT MOVE Vie Tri", "in TRI steht schon F TRI", "TRI already holds F TRI"),
    ("GM UNIT MOVE Lon Mun", "eine Flotte kann nicht in MUN stehen („F Mun“)",
     "a fleet cannot stand in MUN ('F Mun')"),
    ("GM CENTRE Boh Austria", "BOH ist kein Versorgungszentrum", "BOH is not a supply centre"),
    ("GM CONFESSION Austria catholic", "die Variante standard kennt keine Konfessionen",
     "the standard variant has no confessions"),
    ("GM INCAPACITATE A Vie", "die Variante standard kennt keine handlungsunfähigen Einheiten",
     "the standard variant has no incapacitated units"),
])
@pytest.mark.parametrize("language", ["de", "en"])
def test_a_refused_edit_is_answered_in_the_game_language(
        table: Table, language: str, command: str, german: str, english: str) -> None:  # noqa: F811
    _game(table, language)
    _with_gm(table)
    reason = german if language == "de" else english
    assert _answer(table, command) == [REFUSED[language] + reason]
    assert table.store.game("spiel1").state == _game_state_before(table)  # type: ignore[union-attr]


def _game_state_before(made: Table) -> object:
    """The state a fresh game of the same kind starts with (nothing was changed)."""
    from adjudicator.games import game_module
    game = made.store.game("spiel1")
    assert game is not None
    fresh = game_module(game.variant).start(game.options, int(game.settings.get("seed", 0)))
    return {**game.state, "units": fresh["units"], "centers": fresh["centers"]}


@pytest.mark.parametrize(("command", "german", "english"), [
    ("GM CONFESSION Bayern ex-catholic", "ein Ex-Zustand braucht das letzte Jahr, in dem er gilt; eine feste "
     "Konfession keines", "an ex-state needs the last year it lasts, a settled confession none"),
    ("GM CENTRE Tir Bayern", "Tir ist kein Versorgungszentrum", "Tir is not a supply centre"),
    ("GM UNIT ADD A Aug Bayern", "in Aug steht schon A Aug", "Aug already holds A Aug"),
    ("GM UNIT ADD F Tir Bayern", "eine Flotte kann nicht in Tir stehen („F Tir“)", "a fleet cannot stand in Tir ('F Tir')"),
])
@pytest.mark.parametrize("language", ["de", "en"])
def test_a_refused_30jk_edit_is_answered_in_the_game_language(
        table: Table, language: str, command: str, german: str, english: str) -> None:  # noqa: F811
    table.create(variant="30jk", language=language)
    _with_gm(table)
    _gm_mail(table, "GM START")  # every power in civil disorder: the edits need a running game
    reason = german if language == "de" else english
    assert _answer(table, command) == [REFUSED[language] + reason]


@pytest.mark.parametrize(("command", "german", "english"), [
    ("GM OPTION farbe=rot", "unbekannte Option(en): farbe", "unknown option(s) farbe"),
])
@pytest.mark.parametrize("language", ["de", "en"])
def test_a_refused_option_is_answered_in_the_game_language(
        table: Table, language: str, command: str, german: str, english: str) -> None:  # noqa: F811
    table.create(language=language)
    _with_gm(table)
    reason = german if language == "de" else english
    assert _answer(table, command) == [REFUSED[language] + reason]


@pytest.mark.parametrize("language", ["de", "en"])
def test_a_refused_30jk_confession_option_is_answered_in_the_game_language(table: Table, language: str) -> None:  # noqa: F811
    table.create(variant="30jk", language=language)
    _with_gm(table)
    expected = {"de": "confessions: „bunt“ ist keiner der Werte historical, random, chosen",
                "en": "confessions: 'bunt' is not one of historical, random, chosen"}
    assert _answer(table, "GM OPTION confessions=bunt") == [REFUSED[language] + expected[language]]


@pytest.mark.parametrize(("edit", "key"), [
    (lambda e, s: e.set_confession(s, "Bayern", "lutherisch", None), "edit_unknown_confession"),
    (lambda e, s: e.set_confession(s, "Bayern", "catholic", 1620), "case_ex_needs_year"),
    (lambda e, s: e.add_unit(s, "Qxland", "A", "Tir"), "case_unknown_power"),
    (lambda e, s: e.add_unit(s, "Bayern", "A", "Tir/xc"), "case_unknown_coast"),
    (lambda e, s: e.move_unit(s, "Aug", "Nowhere"), "why_unknown_province"),
    (lambda e, s: e.set_centre(s, "Nowhere", None), "why_unknown_province"),
    (lambda e, s: e.incapacitate(s, "Tir"), "why_no_unit"),
    (lambda e, s: e.remove_unit({**s, "units": {"Bayern": ["A Aug", "A Aug", "A BFre"]}}, "BFre"), "case_already_holds"),
])
def test_every_edit_refusal_carries_a_catalogue_note_worded_in_german(edit: Any, key: str) -> None:
    from adjudicator.games import game_module
    from adjudicator.games.base import GameSetupError
    from adjudicator.service.notes import note_text
    from adjudicator.service.render import Texts
    from tests.test_catalogue import _english_words

    module = game_module("30jk")
    with pytest.raises(GameSetupError) as raised:
        edit(module.position_edits(), module.start({}, 1))
    note = raised.value.note
    assert note is not None and note.key == key
    german = note_text(note, Texts("de"), str)
    assert not _english_words(german), german
    assert "units." not in german and "[" not in german
