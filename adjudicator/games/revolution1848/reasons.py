"""1848's reasons for refusing an order as entries of the message catalogue.

The rules (``module._check``, ``actions.problem``, ``military.problem``)
and the grammar (``parse.py``, ``games/lines.py``) state why a line is not
taken in one fixed English form (``PE12 is not in your hand``); this table
reads each such form back into a catalogue key
(``templates/texts/revolution1848.toml``, keys ``r1848_why_*``) with its
fields, so the judge answers a German game in German.  The step's order
syntax goes with it as the field ``hint``.  ``tests/test_revolution1848_reasons.py``
checks that every reason in the source has a pattern and every pattern
its entry in both languages.
"""

from __future__ import annotations

import re
from functools import cache

from adjudicator.games.base import Note

_C = r"(?:PE|Z|A)\d\d"  # a card id as the rules print it
_W = r"[^ ]+"

REASONS: tuple[tuple[str, str], ...] = (
    # the grammar (games/lines.py, parse.py)
    ("r1848_why_incomplete", r"the order is incomplete"),
    ("r1848_why_incomplete_expected", r"the order is incomplete; expected (?P<expected>.+)"),
    ("r1848_why_unreadable", r"cannot read (?P<word>'.*'|\".*\") here"),
    ("r1848_why_unexpected", r"did not expect (?P<word>'.*'|\".*\") here"),
    ("r1848_why_unexpected_expected", r"did not expect (?P<word>'.*'|\".*\") here; expected (?P<expected>.+)"),
    ("r1848_why_no_order", r"cannot read the order"),
    ("r1848_why_faction_word", r"expected RIGHT, LEFT or BOTH \(German: RECHTE, LINKE, BEIDE\)"),
    # module._check
    ("r1848_why_not_acting", r"you have nothing to do in (?P<phase>\w+-\w+)"),
    ("r1848_why_wrong_step", r"not allowed now: (?P<phase>\w+-\w+) is a (?P<step_key>\w+) step"),
    ("r1848_why_not_now", r"not allowed now"),
    ("r1848_why_keep_too_many", rf"at most (?P<count>\d+) card\(s\) may stay for (?P<flow>{_C})"),
    ("r1848_why_not_on_your_side", rf"(?P<card>{_C}) does not lie on your side"),
    ("r1848_why_stays_anyway", rf"(?P<card>{_C}) stays anyway and is not counted"),
    ("r1848_why_not_in_hand", rf"(?P<card>{_C}) is not in your hand"),
    ("r1848_why_no_such_decision", rf"(?P<decision>.+) is not a decision of (?P<flow>{_C})"),
    ("r1848_why_decision_closed", r"(?P<decision_key>red|blue) is not open to you: you may decide (?P<open>.+)"),
    ("r1848_why_cannot_join", rf"(?P<army>{_W}) names no army of yours that may join the parliamentary army "
                              r"\(at A04 or free, without a general\)"),
    ("r1848_why_faction_closed", r"(?P<faction>RIGHT|LEFT|BOTH) is not open to you: choose (?P<open>.+)"),
    ("r1848_why_no_forecast", r"no forecast (?P<letter>\w+): choose (?P<open>.+)"),
    ("r1848_why_not_losable", rf"(?P<card>{_C}) is not a card the attacked army can give up"),
    ("r1848_why_superseded", r"superseded by line (?P<line>\d+) \(one per (?P<step_key>\w+) step\)"),
    # actions.problem
    ("r1848_why_person_no_target", rf"(?P<card>{_C}) is a person and takes no target"),
    ("r1848_why_say_party", rf"(?P<card>{_C}) is (?P<open>.+): add AS <party>"),
    ("r1848_why_wrong_party", rf"(?P<card>{_C}) cannot be (?P<party>\w+), only (?P<open>.+)"),
    ("r1848_why_no_party", rf"(?P<card>{_C}) is no person and takes no party"),
    ("r1848_why_army_card_played", rf"(?P<card>{_C}) is an army card: it is used in a military action, not played"),
    ("r1848_why_no_target", rf"(?P<card>{_C}) takes no target"),
    ("r1848_why_say_target", rf"(?P<card>{_C}) attacks a card: add ON <card>"),
    ("r1848_why_target_not_on_table", rf"(?P<target>{_C}) is not on the table"),
    ("r1848_why_intervention_not_attacked",
     rf"(?P<target>{_C}) cannot be attacked: only an army conquers an intervention card"),
    ("r1848_why_attack_wrong_party", rf"(?P<card>{_C}) cannot attack (?P<target>{_C}) \(its party is not (?P<party>\w+)\)"),
    ("r1848_why_attacks_persons", rf"(?P<card>{_C}) attacks persons only"),
    # military.problem
    ("r1848_why_no_army_card", rf"(?P<card>{_C}) is no army card"),
    ("r1848_why_not_lying", rf"(?P<card>{_C}) does not lie on the table"),
    ("r1848_why_no_such_army", rf"you have no army (?P<army>{_W})"),
    ("r1848_why_army_mismatch", rf"(?P<card>{_C}) cannot join that army \(flag or place\)"),
    ("r1848_why_no_general", rf"(?P<card>{_C}) is no general"),
    ("r1848_why_revolutionary_general",
     r"a revolutionary general leads only the army at A12 or an army at A15 without a national general"),
    ("r1848_why_national_general", rf"(?P<card>{_C}) leads only (?P<nation>{_W}) armies at A04, free or at A15 "
                                   r"\(without a revolutionary general\)"),
    ("r1848_why_in_no_army", rf"(?P<card>{_C}) is in none of your armies"),
    ("r1848_why_conquered_stays", rf"(?P<card>{_C}) was conquered and stays with the army"),
    ("r1848_why_a12_led", r"no army card leaves A12 while a revolutionary general leads it"),
    ("r1848_why_swear", r"only a free army or one at A04 can be sworn in"),
    ("r1848_why_cannot_march", r"this army cannot march out \(A12, or A15 without a national general\)"),
    ("r1848_why_wrong_nation", rf"only an? (?P<nation>{_W}) army can conquer (?P<target>{_C})"),
    ("r1848_why_too_weak", r"the army's strength (?P<strength>\d+) does not exceed (?P<needed>\d+)"),
    ("r1848_why_too_weak_hindered", r"the army's strength (?P<strength>\d+) does not exceed (?P<needed>\d+) "
                                    r"\((?P<printed>\d+) made harder by (?P<cards>.+)\)"),
    ("r1848_why_no_rising", rf"(?P<target>{_C}) is no rising lying on the table"),
    ("r1848_why_cannot_put_down", rf"this army cannot put down (?P<target>{_C})"),
    ("r1848_why_no_target_army", rf"(?P<target>{_W}) is no intervention card, rising or army of your opponent"),
    ("r1848_why_army_cannot_attack", rf"an army (?P<at>{_W}) cannot attack one (?P<other>{_W})"),
)
"""(catalogue key, pattern of the English reason); the pattern must match
the whole reason; its named groups are the entry's fields (``step_key``,
``decision_key``: the entries ``r1848_step_<step>``, ``r1848_colour_<colour>``)."""

_NATIONS = ("austria", "prussia", "any", "revolution")
"""The nations an army card names (``cards.py``): the field ``nation`` is
worded as the entry ``r1848_nation_<nation>``; an army place ``free`` as
``r1848_place_free`` (the other places are card ids)."""

_LISTS = ("open", "expected", "cards")
"""Fields holding a list written with ``or``/commas: shown with ``/`` in either language."""

_EXPECTED = {"a card (PE12, Z03, A06)": "PE12/Z03/A06", "a party (Liberal, Democrat, Republican, Reactionary)":
             "LIB/DEM/REP/REA", "ON (AUF)": "ON/AUF", "AS (ALS)": "AS/ALS", "TO (AN, ZU)": "TO/AN/ZU",
             "NOTHING (NICHTS)": "NOTHING/NICHTS", "a word": "…", "the end of the line": ".",
             "red": "RED/ROT", "blue": "BLUE/BLAU", "RIGHT": "RIGHT/RECHTE", "LEFT": "LEFT/LINKE",
             "BOTH": "BOTH/BEIDE"}
"""What a list names (the grammar's expectations, the choices open), in words of either language."""


@cache
def _compiled() -> tuple[tuple[str, re.Pattern[str]], ...]:
    return tuple((key, re.compile(pattern)) for key, pattern in REASONS)


def reason_note(message: str, hint: str = "") -> Note | None:
    """The catalogue entry of an 1848 reason (None when no pattern reads
    it), with ``hint`` (the step's order syntax) as the field ``hint``."""
    for key, pattern in _compiled():
        found = pattern.fullmatch(message.strip())
        if found is None:
            continue
        fields = {name: value for name, value in found.groupdict().items() if value is not None}
        for name in _LISTS:
            if name in fields:
                items = [_EXPECTED.get(item) or "/".join(item.split(", ")) for item in fields[name].split(" or ")]
                fields[name] = "/".join(_EXPECTED.get(item, item) for item in items)
        if "step_key" in fields:
            fields["step_key"] = f"r1848_step_{fields['step_key']}"
        if "decision_key" in fields:
            fields["decision_key"] = f"r1848_colour_{fields['decision_key']}"
        if fields.get("nation") in _NATIONS:
            fields["nation_key"] = f"r1848_nation_{fields.pop('nation')}"
        for name in ("at", "other"):
            if fields.get(name) == "free":
                fields[f"{name}_key"] = f"r1848_place_{fields.pop(name)}"
        if hint:
            fields["hint"] = hint
        return Note(key, tuple(sorted(fields.items())))
    return None
