"""Verifiable randomness: events follow from the seed and counter alone,
and a changed result or seed is found out."""

from __future__ import annotations

from hypothesis import given, strategies as st

from adjudicator.games.randomness import RandomEvent, choose, recompute, roll, seed_digest, shuffle
from adjudicator.records import replace  # events are records (S49)


@given(st.text(min_size=1, max_size=40), st.integers(min_value=0, max_value=10_000), st.integers(min_value=1, max_value=100))
def test_a_roll_is_a_function_of_seed_and_counter_and_stays_in_range(seed: str, counter: int, sides: int) -> None:
    event = roll(seed, counter, sides, "W", count=3)
    assert event == roll(seed, counter, sides, "W", count=3)
    assert all(1 <= value <= sides for value in event.result) and len(event.result) == 3
    assert recompute(seed, RandomEvent.from_json(event.to_json())) == event


@given(st.lists(st.text(max_size=5), max_size=30), st.integers(min_value=0, max_value=1000))
def test_a_shuffle_is_a_permutation(items: list[str], counter: int) -> None:
    event = shuffle("seed", counter, items)
    assert sorted(event.result) == sorted(items)
    assert recompute("seed", event) == event


def test_a_tampered_result_or_a_wrong_seed_does_not_recompute() -> None:
    event = roll("geheim", 7, 20, "W20")
    forged = replace(event, result=(event.result[0] % 20 + 1,))
    assert recompute("geheim", forged) != forged
    assert any(recompute("anders", roll("geheim", n, 20)) != roll("geheim", n, 20) for n in range(10))


def test_every_face_of_a_die_comes_up_and_choices_are_distinct() -> None:
    faces = {roll("s", n, 6).result[0] for n in range(200)}
    assert faces == {1, 2, 3, 4, 5, 6}
    chosen = choose("s", 1, [str(i) for i in range(10)], count=4).result
    assert len(set(chosen)) == 4


def test_the_published_digest_is_sha256_of_the_seed() -> None:
    assert seed_digest("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"


def test_check_events_finds_a_forged_result_a_reused_and_a_hidden_counter() -> None:
    from adjudicator.games.randomness import check_events

    events = [roll("k", n, 6, f"W6 {n}") for n in range(4)]
    assert check_events("k", events) == ()
    forged = [*events[:2], replace(events[2], result=(events[2].result[0] % 6 + 1,)), events[3]]
    assert check_events("k", forged, where=["a", "b", "c", "d"])[0].startswith("c: #2 W6 2: published")
    assert check_events("k", [*events, events[1]]) == ()  # the same event listed again (a final report)
    assert check_events("k", [*events, roll("k", 1, 20, "W20")])[0].startswith("event 5: #1 differs from")
    assert check_events("k", [events[0], events[2]], sealed=[1]) == ()  # #1 is a hidden deck's shuffle
    assert check_events("k", [events[0], events[2]]) == ("counters never published: #1",)


def test_the_documented_recipe_recomputes_every_kind_of_event(tmp_path: "Path") -> None:
    import json
    import re
    import subprocess
    import sys
    from pathlib import Path

    from adjudicator.games.randomness import judge_key

    text = (Path(__file__).resolve().parent.parent / "docs" / "service.md").read_text(encoding="utf-8")
    recipe = re.search(r"### Verifiable randomness.*?```python\n(.*?)```", text, re.DOTALL)
    assert recipe is not None
    seed = "123456789"
    events = [roll(seed, 0, 6, "W6", count=2), shuffle(seed, 1, list("abcdef"), "deck"),
              choose(seed, 2, list("xyz"), "start player")]
    entries = [{"where": "R1", "key": "game", **e.to_json()} for e in events]
    entries.append({"where": "start", "key": "judge", **shuffle(judge_key(seed), 0, ["A", "B"], "powers").to_json()})
    document = tmp_path / "g-random.json"
    document.write_text(json.dumps({"seed": seed, "sha256": seed_digest(seed), "events": entries}), encoding="utf-8")
    script = tmp_path / "recipe.py"
    script.write_text(recipe.group(1), encoding="utf-8")
    done = subprocess.run([sys.executable, str(script), str(document)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert [line.split()[0] for line in done.stdout.splitlines()] == ["ok"] * 4
    entries[1]["result"] = list(reversed(entries[1]["result"]))
    document.write_text(json.dumps({"seed": seed, "sha256": seed_digest(seed), "events": entries}), encoding="utf-8")
    done = subprocess.run([sys.executable, str(script), str(document)], capture_output=True, text=True, timeout=60)
    assert done.stdout.splitlines()[1].startswith("WRONG")
