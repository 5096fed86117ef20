"""Bad input never crashes `adjudicator adjudicate`: any JSON value either
adjudicates or is rejected as a malformed case naming what is wrong."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.games.diplomacy.contract import CaseError, run_case

_words = st.sampled_from(
    ["A", "F", "VIE", "Vie", "STP/SC", "stp(nc)", "-", "S", "C", "H", "Gal", "Bayern", "1618M", "S1901M",
     "W1901A", "F1901R", "x", "", "Ärmelkanal", "via convoy", ";", "\n", "T", "Konfession", "katholisch"]
)
_text = st.lists(_words, max_size=6).map(" ".join) | st.text(max_size=20)
_scalars = st.none() | st.booleans() | st.integers(-5, 3000) | _text
_values = st.recursive(_scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_text, inner, max_size=4), max_leaves=12)

_powers = st.sampled_from(["Austria", "russia", "England", "Bayern", "Sachsen", "Narnia"])
_cases = st.fixed_dictionaries(
    {},
    optional={
        "variant": st.sampled_from(["standard", "30jk", "atlantis"]) | _scalars,
        "phase": st.sampled_from(["S1901M", "F1901R", "W1901A", "1618M", "1619A", "1619R"]) | _scalars,
        "units": st.dictionaries(_powers, st.lists(_text, max_size=3), max_size=3) | _values,
        "centers": st.dictionaries(_powers, st.lists(_text, max_size=3), max_size=3) | _values,
        "orders": st.dictionaries(_powers, st.lists(_text, max_size=4), max_size=3) | _values,
        "dislodged": _values,
        "standoffs": _values,
        "confessions": _values,
        "incapacitated": _values,
        "options": _values,
        "quiet_years": _scalars,
    },
)


@settings(max_examples=300, deadline=None)
@given(_cases | _values)
def test_any_json_adjudicates_or_is_rejected_clearly(case: Any) -> None:
    try:
        output = run_case(case)
    except CaseError as error:
        assert str(error)  # the message names the field
    else:
        assert set(output) >= {"phase", "next_phase", "orders", "units", "dislodged", "standoffs", "centers", "winner"}
