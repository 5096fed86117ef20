"""The one message catalogue (templates/texts.toml and templates/texts/*.toml,
every helper's file included): every key renders in German and English,
both languages take the same fields, and no German rendering holds an
English word outside names (issue 13 point 3).  The rules' reasons and
the GM's change log read back into their catalogue entries."""

from __future__ import annotations

import re
import string
from typing import Any

import pytest

from adjudicator.games.diplomacy.wording import REASONS, reason_note
from adjudicator.service.commands import keywords
from adjudicator.service.logwording import DETAILS, detail_text
from adjudicator.service.render import Texts, catalogue
from tests.test_datc import _carry_over, _cases, run_case

ENGLISH = frozenset("""
the and is are were been of to for with without has have had this that these those its your you he she they
we or but if then than by from into unit units order orders game games power powers player players deadline
build builds removal removals retreat retreats army fleet support supports move moves hold holds done paused
resumed weekly daily superseded bounced dislodged failed succeeds fails invalid yes none any sent please here
there only again new old started ended over draw concede resign waiting ready signed help list history password
wrong unknown missing error line lines column centre centres supply report reports map attached welcome guide
changed change changes log civil disorder default rules rule owned nobody assigned ejected removed added moved
grace reminders random press white grey movement phases excused missed variant created cannot must may
would should next turn year years season spring autumn fall winter orders stored stays unused waived due
""".split())
"""English words that are no German words (``in``, ``an``, ``also``, ``see``, ``was``, ``will``,
``Mail``, ``Phase``, ``per``, ``Start``, ``Not`` are German too)."""

_FIELD = re.compile(r"\{(\w+)(?:[!:][^}]*)?\}")


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def _sample(text: str) -> dict[str, Any]:
    """A neutral value for each field: a made-up name no language owns."""
    return {name: f"Qx{index}" for index, name in enumerate(sorted(_fields(text)))}


_ALLOWED = re.compile(r"\S*[/.]\S+|https?:\S+|<[^>]+>|\[[^]]+\]")
"""Paths, file names, addresses and syntax placeholders (<spiel>) are names."""


def _english_words(german: str) -> set[str]:
    allowed = {k.lower() for k in keywords()} | {"gm", "uhr"}
    text = _ALLOWED.sub(" ", german)
    words = {w.lower() for w in re.findall(r"[A-Za-zÄÖÜäöüß]+", text)}
    return (words & ENGLISH) - allowed


@pytest.mark.parametrize("key", sorted(catalogue()))
def test_every_key_renders_in_both_languages_with_the_same_fields(key: str) -> None:
    entry = catalogue()[key]
    assert set(entry) >= {"de", "en"}, f"{key} lacks a language"
    assert _fields(entry["de"]) == _fields(entry["en"]), key
    for language in ("de", "en"):
        rendered = Texts(language)(key, **_sample(entry[language]))
        assert "{" not in rendered.replace("{{", ""), (key, rendered)


@pytest.mark.parametrize("key", sorted(catalogue()))
def test_no_english_word_in_a_german_rendering(key: str) -> None:
    entry = catalogue()[key]
    rendered = Texts("de")(key, **_sample(entry["de"]))
    assert not _english_words(rendered), f"{key}: {sorted(_english_words(rendered))} in {rendered!r}"


def test_the_english_word_check_finds_english() -> None:
    assert _english_words("Erledigt: paused") == {"paused"}
    assert _english_words("hat Turkey einem anderen Spieler gegeben (civil disorder)") == {"civil", "disorder"}
    assert not _english_words("Mail an Qx1: SPIELLEITER spiel1 <passwort> in Phase S1901M")


# --- the rules' reasons ---------------------------------------------------------------


@pytest.mark.parametrize(("key", "pattern"), REASONS)
def test_every_reason_pattern_has_its_entry_and_reads_its_own_english_back(key: str, pattern: str) -> None:
    entry = catalogue()[key if key != "why_second_leg" else "why_second_leg"]
    assert {"de", "en"} <= set(entry)
    names = {n.removesuffix("_key") for n in re.findall(r"\(\?P<(\w+)>", pattern)}
    if key == "why_unknown_province":
        names = {"name"}  # head and tail make it why_missing_dash
    assert _fields(entry["en"]) == names, key


def _datc_reasons() -> set[str]:
    reasons: set[str] = set()
    for param in _cases():
        case = param.values[0]
        previous: dict[str, Any] | None = None
        for step in case["phases"]:
            given = step["input"]
            data = {"variant": "standard", **given} if previous is None else _carry_over(previous, given)
            output = run_case(data)
            reasons.update(o["reason"] for o in output["orders"] if o["reason"])
            previous = output
    return reasons


def test_every_reason_the_datc_cases_give_is_worded_in_german() -> None:
    reasons = _datc_reasons()
    assert len(reasons) > 30
    unknown = sorted(r for r in reasons if reason_note(r) is None)
    assert unknown == []


@pytest.mark.parametrize(("english", "german"), [
    ("unknown province 'Yrk'", "unbekannte Provinz „Yrk“"),
    ("an army cannot move to a sea", "eine Armee kann nicht auf ein Meer ziehen"),
    ("superseded", "ersetzt durch einen späteren Befehl für dieselbe Einheit"),
    ("the coast must be given: STP/NC or STP/SC", "die Küste muss angegeben werden: STP/NC or STP/SC"),
    ("bounced", "abgeprallt"),
    ("stopped in RUH: second leg bounced", "angehalten in RUH: zweiter Schritt abgeprallt"),
])
def test_reasons_from_the_issue_read_in_german(english: str, german: str) -> None:
    from adjudicator.service.notes import note_text
    note = reason_note(english)
    assert note is not None
    assert note_text(note, Texts("de"), str) == german
    assert note_text(note, Texts("en"), str) == english


# --- the GM's change log -------------------------------------------------------------


@pytest.mark.parametrize(("stored", "german", "english"), [
    ("paused in S1901M", "angehalten in S1901M", "paused in S1901M"),
    ("paused", "angehalten", "paused"),
    ("weekly Sun 20:00, Wed 20:00", "wöchentlich sonntags 20:00, mittwochs 20:00", "weekly Sun 20:00, Wed 20:00"),
    ("Turkey: new player", "Türkei: neuer Spieler", "Turkey: new player"),
    ("started; in civil disorder: Italy, Turkey", "gestartet; in Anarchie: Italien, Türkei",
     "started; in civil disorder: Italy, Turkey"),
    ("press grey (movement phases only)", "Presse: grau (nur in Bewegungsphasen)", "press grey (movement phases only)"),
    ("Europe/Berlin", "Europe/Berlin", "Europe/Berlin"),
])
def test_gm_changes_read_in_the_game_language(stored: str, german: str, english: str) -> None:
    names = {"Turkey": "Türkei", "Italy": "Italien"}
    assert detail_text(stored, Texts("de"), lambda p: names.get(p, p)) == german
    assert detail_text(stored, Texts("en"), str) == english


def test_every_gm_detail_pattern_has_its_entry() -> None:
    for key, _ in DETAILS:
        assert {"de", "en"} <= set(catalogue()[key]), key


_REASON_LINE = re.compile(r"Illegal\(|settle\(|implied\(|unmatched\[|UnitOutcome\(|_UnknownName\(")
_LITERAL = re.compile(r'f?"((?:[^"\\]|\\.)*)"')


def _core_reasons() -> list[str]:
    """Every reason text the rules core can write, with each ``{...}`` of
    an f-string filled by a province-like word."""
    from pathlib import Path

    import adjudicator.games.diplomacy as package

    folder = Path(package.__file__).parent
    found = []
    for path in [*sorted((folder / "core").glob("*.py")), *sorted((folder / "variants").glob("*.py"))]:
        for line in path.read_text(encoding="utf-8").splitlines():
            failure = path.name == "movement.py" and 'return "' in line  # _move_failure's reasons
            if not (_REASON_LINE.search(line) or failure):
                continue
            for literal in _LITERAL.findall(line):
                text = re.sub(r"\{_hint\([^}]*\}", "", literal)
                text = re.sub(r"\{[^}]*!r\}", "'Abc'", text)
                text = re.sub(r"\{what\}", "support", text)
                text = re.sub(r"\{[^}]*\}", "Abc", text)
                if text.startswith("REMOVE ") or text.endswith(" DISBAND"):
                    continue  # an implied order, not a reason
                if len(text) > 3 and " " in text or text in ("bounced", "dislodged", "cut", "superseded"):
                    found.append(text)
    return found


def test_every_reason_in_the_core_source_has_a_catalogue_entry() -> None:
    reasons = _core_reasons()
    assert len(reasons) > 60
    unknown = [r for r in reasons if reason_note(r) is None]
    assert unknown == []
