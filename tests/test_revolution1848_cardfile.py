"""1848's card file (the ``cards`` DataFile): the template a GM fills in,
the round trip template -> fill -> check, and every class of problem the
checker reports with its line and field."""

from __future__ import annotations

import json
import re
import tomllib
from typing import Any

from adjudicator.games.base import Finding
from adjudicator.games.revolution1848 import Revolution1848
from adjudicator.games.revolution1848.cardfile import check, lines_of, template, unknown
from adjudicator.games.revolution1848.cards import base_data, merged, standin_text

PLACEHOLDER = re.compile(r"^# (?P<key>[\w.]+) = .*?    # TO FILL IN: (?P<meaning>.*)$")
HEADER = re.compile(r"^\[(?P<table>[^\]]+)\]")


def filled(text: str, values: dict[str, Any]) -> str:
    """The template with every placeholder filled from ``values`` (raw card data)."""
    out, table = [], []
    for line in text.splitlines():
        header = HEADER.match(line)
        if header:
            table = header.group("table").split(".")
        found = PLACEHOLDER.match(line)
        if found:
            value: Any = values
            for key in table + found.group("key").split("."):
                value = value[key]
            line = f"{found.group('key')} = {json.dumps(value, ensure_ascii=False)}"
        out.append(line)
    return "\n".join(out) + "\n"


def test_the_template_marks_every_unknown_value_with_its_meaning_and_range() -> None:
    text = template()
    tomllib.loads(text)  # a valid TOML file as it is
    placeholders = [PLACEHOLDER.match(line) for line in text.splitlines() if "TO FILL IN" in line and "=" in line]
    assert len(placeholders) > 250 and all(placeholders)
    assert '# value = ...    # TO FILL IN: its value, a whole number 1-8; the number under the party, bottom left' \
        in text.splitlines()
    assert any("white on green, top right" in line for line in text.splitlines())  # keep: where on the card
    assert 'name = "Hans Kudlich"' in text and "value = 6" in text  # known values stay filled in
    assert len(check(text)) > 250  # as it is, the template cannot start a game


def test_template_fill_check_round_trip() -> None:
    values = merged(base_data(), tomllib.loads(standin_text()))
    text = filled(template(), values)
    assert "TO FILL IN" not in text.split("[rules]", 1)[1]
    assert check(text) == ()
    assert Revolution1848().start({"data.cards": text}, 1)["phase"] == "R01A01-1"


def test_every_class_of_problem_is_reported_with_line_and_field() -> None:
    text = "\n".join([
        "[person.PE02]",                  # 1
        'parties = ["LIB"]',              # 2
        "value = 12",                     # 3  out of range
        "[person.PE05]",                  # 4
        'value = "many"',                 # 5  wrong kind
        'parties = ["LIB"]',              # 6
        "[extra.Z04]",                    # 7
        'effects = ["boost REP lots"]',   # 8  an effect that cannot be read
        "[flow.A07.red]",                 # 9
        'next = "A99"',                   # 10 a next card that does not exist
    ]) + "\n"
    found = check(text)
    problems = [str(p) for p in found]
    assert "line 3: [person.PE02] value: 12 is outside 1-8 (the values of person cards)" in problems
    assert "line 5: [person.PE05] value: expected a whole number, got 'many'" in problems
    assert "line 8: [extra.Z04] effects: cannot read the effect 'boost REP lots'" in problems
    assert any(p.startswith("[person.PE06] value: still unknown; its value") for p in problems)
    outside = next(p for p in found if str(p).startswith("line 3:"))
    assert isinstance(outside, Finding) and (outside.line, outside.card, outside.field) == (3, "PE02", "value")
    assert outside.key == "r48_find_outside" and dict(outside.fields) == {"low": "1", "high": "8", "value": "12"}
    structure = tuple(str(p) for p in check('[person.PE99]\nvalue = 3\n[extra.Z04]\ncolour = "red"\n[board]\nx = 1\n'))
    assert structure == ("line 1: [person.PE99]: no such card (PE01-PE42)",
                         "line 4: [extra.Z04] colour: no such field (allowed: effects, name)",
                         "line 5: [board]: no such table (person, extra, flow, rules)")
    assert str(check("[person.PE02\nvalue = 3\n")[0]).startswith("line 1, column ")
    reference = tuple(str(p) for p in check(standin_text().replace("[flow.A03]\n", '[flow.A03]\nnext = "A99"\n')))
    assert len(reference) == 1 and reference[0].endswith("[flow.A03]: the next card 'A99' does not exist"), reference


def test_wrong_kinds_references_effects_and_syntax_carry_their_catalogue_keys() -> None:
    """Issue 13 point 3: the checks of ``cards.build`` and TOML syntax
    errors are findings the GM reads in the game's language."""
    found = check('[person.PE05]\nvalue = "many"\nparties = ["LIB"]\n[extra.Z04]\neffects = ["boost REP lots"]\n')
    keyed = {(p.line, p.card, p.field): (p.key, dict(p.fields)) for p in found if isinstance(p, Finding)}
    assert keyed[(2, "PE05", "value")] == ("r48_find_want_number", {"value": "'many'"})
    assert keyed[(5, "Z04", "effects")] == ("r48_find_effect", {"value": "'boost REP lots'"})
    reference = check(standin_text().replace("[flow.A03]\n", '[flow.A03]\nnext = "A99"\n'))
    assert [(p.card, p.key, dict(p.fields)) for p in reference if isinstance(p, Finding)] == [
        ("A03", "r48_find_no_next", {"value": "'A99'"})]
    syntax = check("[person.PE02\nvalue = 3\n")[0]
    assert isinstance(syntax, Finding) and (syntax.key, syntax.line) == ("data_find_toml", 1)
    assert dict(syntax.fields)["column"].isdigit()


def test_lines_of_find_tables_keys_and_placeholders() -> None:
    found = lines_of('[person.PE02]\nvalue = 3\n# parties = ...   # TO FILL IN\n[flow.A06.red]\nnext = "A07"\n')
    assert found == {"person.PE02": 1, "person.PE02.value": 2, "person.PE02.parties": 3, "flow.A06.red": 4,
                     "flow.A06.red.next": 5}


def test_what_a_file_still_leaves_unknown_is_one_line_per_card() -> None:
    table = unknown(None)
    assert "PE02: parties, value" in table and len(table) > 60
    assert unknown(standin_text()) == ()
