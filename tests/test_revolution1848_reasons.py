"""1848's reasons for refusing a line come from the message catalogue
(``adjudicator/games/revolution1848/reasons.py``): every pattern has its
entry in German and English with the pattern's fields, the English entry
is the rules' own wording, and every refusal a whole bot game runs into
has an entry."""

from __future__ import annotations

import random
import re
import string
from pathlib import Path

import pytest

from adjudicator.games.revolution1848 import Revolution1848
from adjudicator.games.revolution1848.reasons import REASONS, reason_note
from adjudicator.service.notes import note_text
from adjudicator.service.render import Texts, catalogue
from tests.revolution1848.helpers import COMPLETE

MODULE = Revolution1848()
_FIELD = re.compile(r"\{(\w+)[^}]*\}")


@pytest.mark.parametrize(("key", "pattern"), REASONS)
def test_every_reason_pattern_has_its_entry_in_both_languages_with_its_fields(key: str, pattern: str) -> None:
    entry = catalogue()[key]
    names = {n.removesuffix("_key") for n in re.findall(r"\(\?P<(\w+)>", pattern)}
    for language in ("de", "en"):
        assert set(_FIELD.findall(entry[language])) == names, (key, language)
    assert entry["de"] != entry["en"], key


def _battery(cards: list[str]) -> list[str]:
    """Lines a careless or hostile player might send, over ``cards``."""
    lines = ["SPIELE", "PLAY PE12 ON", "BONJOUR", "PLAY PE12 PE13", "FACTION SIDEWAYS", "DECIDE RED", "DECIDE GREEN",
             "FACTION BOTH", "JOIN Z99", "FORECAST Q", "KEEP NOTHING", "WITHDRAW", "NONE", "PASS", "ARMY Z28 TO A15",
             "SWEAR Z28", "%%%"]
    for card in cards:
        lines += [f"PLAY {card}", f"PLAY {card} AS DEM", f"PLAY {card} ON PE01", f"PLAY {card} ON {cards[0]}",
                  f"KEEP {card}", f"DISCARD {card}", f"LOSE {card}", f"ARMY {card} TO A04", f"ARMY {card} TO Z28",
                  f"GENERAL {card} TO Z28", f"REMOVE {card}", f"ATTACK {card} ON Z13", f"ATTACK {card} ON A17",
                  f"ATTACK {card} ON {cards[-1]}", f"SWEAR {card}", f"JOIN {card}"]
    return lines


def test_every_refusal_of_a_whole_game_is_a_catalogue_entry_whose_english_is_the_rules_wording() -> None:
    state = MODULE.start(dict(COMPLETE), 11)
    chooser = random.Random(11)
    english = Texts("en", "UTC")
    keys: set[str] = set()
    for _ in range(400):
        game = state["game"]
        if MODULE.phase(state).endswith("over") or not MODULE.must_act(state):
            break
        cards = sorted({c["card"] for p in ("A", "B") for c in MODULE.private_view(state, p)["hand"]}
                       | set(re.findall(r"(?:PE|Z)\d\d", str(game.get("sides", game)))))[:12]
        for player in ("A", "B"):
            check = MODULE.check_orders(state, player, list(enumerate(_battery(cards or ["PE01"]), 1)))
            for problem in check.problems:
                assert problem.note is not None, problem.message
                keys.add(problem.note.key)
                fields = dict(problem.note.fields)
                if not any(name in fields for name in ("open", "expected", "cards")):  # lists are written a/b
                    worded = note_text(problem.note, english, str).split(" Hint: ")[0]
                    assert worded == problem.message, problem.note.key
        orders = {p: [chooser.choice(MODULE.legal_orders(state, p))] for p in MODULE.must_act(state)}
        resolution = MODULE.resolve(state, orders)
        if resolution.next_phase is None:
            break
        state = resolution.state
    assert len(keys) > 20, sorted(keys)


def test_a_list_of_choices_is_worded_in_either_language() -> None:
    note = reason_note("red is not open to you: you may decide blue", "DECIDE RED | DECIDE BLUE")
    assert note is not None
    german = note_text(note, Texts("de", "UTC"), str)
    assert german == "rot steht dir nicht offen: möglich ist BLUE/BLAU Tipp: DECIDE RED | DECIDE BLUE"
    note = reason_note("the order is incomplete; expected a card (PE12, Z03, A06)")
    assert note is not None and note_text(note, Texts("de", "UTC"), str) == \
        "der Befehl ist unvollständig; erwartet: PE12/Z03/A06"
    assert reason_note("".join(random.Random(1).choices(string.ascii_letters, k=30))) is None


_SAMPLES = (("word", "'BONJOUR'"), ("join", "DEM or REP"), ("phase", "R01A01-1"), ("step", "play"), ("strength", "5"), ("needed", "5"),
            ("keep", "1"), ("later", "2"), ("hindered", ""), ("nation", "Austria"), ("kind", "Prussia"),
            (".at", "free"), ("letter", "Q"), ("colour", "red"), ("removeprefix", "BOTH"), ("words", "RIGHT or LEFT"),
            ("switch_from", "DEM"), ("party", "DEM"), ("ref", "Z28"), ("order.to", "Z28"), ("order.army", "Z28"))


def _sample(expression: str) -> str:
    return next((value for word, value in _SAMPLES if word in expression), "PE12")


def test_every_reason_in_the_rules_source_has_a_catalogue_entry() -> None:
    """Each refusal the source can give, its fields filled with samples,
    is read by a pattern (the rules and the grammar of 1848)."""
    root = Path(__file__).resolve().parents[1] / "adjudicator" / "games"
    sources = [root / "revolution1848" / name for name in ("actions.py", "military.py", "module.py", "parse.py")]
    sources.append(root / "lines.py")
    found = []
    for path in sources:
        text = path.read_text(encoding="utf-8")
        for literal in re.findall(r'(?:return|why|else|ParseError\([^,]+,) f?"([^"]{8,})"', text):
            found.append(re.sub(r"\{([^{}]*(?:\{[^{}]*\}[^{}]*)*)\}", lambda m: _sample(m.group(1)), literal))
    not_reasons = ("not a ", "cannot read the effect", "; expected", "R01A01-1: ", "PE12 PE12", "PE12PE12",
                   "PE12:PE12", "Your hand", "Your forecast", "Open to you")  # other texts, no refusals
    reasons = [r for r in found if not r.startswith(not_reasons)]
    assert len(reasons) >= 40, reasons
    assert [r for r in reasons if reason_note(r) is None] == []
