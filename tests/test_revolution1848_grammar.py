"""The 1848 order grammar reads what people write (issue 14 point 4): one
test per form: commas between cards, a name in parentheses, ``:`` after a
keyword, punctuation at the end, the party abbreviations (ruling 41), the
faction order; errors name the column and what was expected there."""

from __future__ import annotations

import pytest

from adjudicator.games.revolution1848.parse import ParseError, parse_line


def test_commas_between_cards() -> None:
    assert str(parse_line("KEEP PE12, Z03")) == "KEEP PE12 Z03"
    assert str(parse_line("ABWERFEN PE05,Z09")) == "DISCARD PE05 Z09"


def test_a_name_in_parentheses_after_a_card() -> None:
    assert str(parse_line("PLAY PE12 (Kudlich)")) == "PLAY PE12"
    assert str(parse_line("SPIELE Z19 (Arbeiteraufstand) AUF PE24 (Camphausen)")) == "PLAY Z19 ON PE24"
    assert str(parse_line("PLAY PE12 (Hans Kudlich, Demokrat)")) == "PLAY PE12"


def test_a_party_in_parentheses_is_the_party_chosen() -> None:
    assert str(parse_line("SPIELE PE42 (Demokrat)")) == "PLAY PE42 AS Democrat"


def test_a_colon_after_a_keyword() -> None:
    assert str(parse_line("ENTSCHEIDUNG: ROT")) == "DECIDE RED"
    assert str(parse_line("BEHALTE: PE12 Z03")) == "KEEP PE12 Z03"
    assert str(parse_line("Prognose: B")) == "FORECAST B"


def test_punctuation_at_the_end() -> None:
    assert str(parse_line("SPIELE PE12.")) == "PLAY PE12"
    assert str(parse_line("Passe!")) == "PASS"
    assert str(parse_line("DECIDE blue.")) == "DECIDE BLUE"
    assert str(parse_line("KEEP NOTHING.")) == "KEEP NOTHING"


@pytest.mark.parametrize(("written", "canonical"), [
    ("PLAY PE42 AS DL", "PLAY PE42 AS Democrat"), ("PLAY PE25 AS RR", "PLAY PE25 AS Republican"),
    ("PLAY PE25 AS R", "PLAY PE25 AS Reactionary"), ("SPIELE PE25 (R)", "PLAY PE25 AS Reactionary"),
    ("SPIELE PE42 ALS D", "PLAY PE42 AS Democrat"), ("SPIELE PE25 ALS L", "PLAY PE25 AS Liberal"),
    ("SPIELE PE25 ALS Reak", "PLAY PE25 AS Reactionary"), ("PLAY PE42 REP", "PLAY PE42 AS Republican"),
    ("SPIELE PE25 ALS Konservativer", "PLAY PE25 AS Reactionary"),
])
def test_the_party_abbreviations(written: str, canonical: str) -> None:
    assert str(parse_line(written)) == canonical


@pytest.mark.parametrize(("written", "canonical"), [
    ("FRAKTION RECHTE", "FACTION RIGHT"), ("Fraktion: Linke Liberale", "FACTION LEFT"),
    ("FACTION both", "FACTION BOTH"), ("faction right.", "FACTION RIGHT"),
])
def test_the_faction_order_in_both_languages(written: str, canonical: str) -> None:
    assert str(parse_line(written)) == canonical


def test_errors_name_the_column_and_what_was_expected() -> None:
    with pytest.raises(ParseError) as raised:
        parse_line("PLAY PE12 PE13")
    assert raised.value.column == 11
    assert raised.value.message.startswith("did not expect 'PE13' here; expected ")
    assert "ON (AUF)" in raised.value.message and "a party" in raised.value.message
    with pytest.raises(ParseError) as raised:
        parse_line("SPIELE Z19 AUF")
    assert raised.value.message == "the order is incomplete; expected a card (PE12, Z03, A06)"
    with pytest.raises(ParseError) as raised:
        parse_line("FRAKTION MITTE")
    assert raised.value.column == 10 and "RIGHT, LEFT or BOTH" in raised.value.message
