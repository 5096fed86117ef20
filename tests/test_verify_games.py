"""Verifiable randomness for every game (issue 15 point 7): a seeded game
of each module with dice or shuffles is played to its end, and every
event its start and its reports published recomputes from the seed the
judge gave it (``adjudicator.service.verify.document_problems``, the check
``adjudicator verify --file`` runs) — and a forged one does not."""

from __future__ import annotations

import random
from typing import Any

from adjudicator.games.randomness import REPORT_KEY, seed_digest, seed_text
from adjudicator.games.revolution1848 import Revolution1848
from adjudicator.service.verify import document_problems
from tests.revolution1848.helpers import COMPLETE


def document(seed: int, opening: Any, reports: list[dict[str, Any]]) -> dict[str, Any]:
    """The file a game's last mail carries, from its start and its reports."""
    events = [{"where": "start", "key": "game", **e} for e in opening]
    for number, report in enumerate(reports):
        events += [{"where": f"phase {number + 1}", "key": "game", **e} for e in report.get(REPORT_KEY, ())]
    return {"seed": seed_text(seed), "sha256": seed_digest(seed), "events": events}


def forged(doc: dict[str, Any]) -> dict[str, Any]:
    """``doc`` with the first event that has a result changed."""
    events = [dict(e) for e in doc["events"]]
    target = next(e for e in events if e.get("result") and not e.get("sealed"))
    first = target["result"][0]
    target["result"] = list(reversed(target["result"])) if len(target["result"]) > 1 else \
        [first + 1 if isinstance(first, int) else f"{first}?"]
    return {**doc, "events": events}


def test_every_roll_of_a_kreml_game_recomputes_from_the_judges_seed() -> None:
    from tests.kreml_bots import play_game
    from adjudicator.games.kreml.module import KremlGame

    module = KremlGame("kreml4")
    start = module.start({"data": "standin"}, 5)
    state, resolutions = play_game(module, {}, 5)
    doc = document(5, module.opening_events(start), [r.report for r in resolutions])
    assert sum(1 for e in doc["events"] if e["kind"] == "die") > 0
    assert document_problems(doc) == ()
    assert document_problems(forged(doc)) != ()


def test_every_shuffle_of_an_1848_game_recomputes_at_its_end() -> None:
    module = Revolution1848()
    rng = random.Random(3)
    state = module.start(dict(COMPLETE), 21)
    opening = module.opening_events(state)
    assert opening and all(e["sealed"] and e["result"] == [] for e in opening)  # the hands stay secret
    reports = []
    for _ in range(5000):
        orders = {}
        for player in module.must_act(state):
            options = module.legal_orders(state, player)
            if options:
                orders[player] = [rng.choice(options)]
        resolution = module.resolve(state, orders)
        reports.append(resolution.report)
        state = resolution.state
        if resolution.next_phase is None:
            break
    assert resolution.next_phase is None
    doc = document(21, opening, reports)
    assert all(not e.get("sealed") for e in reports[-1][REPORT_KEY])  # the end shows every shuffle whole
    assert document_problems(doc) == ()
    assert document_problems(forged(doc)) != ()


def test_every_draw_of_a_liberte_game_recomputes_at_its_end() -> None:
    from tests.liberte.driver import play, random_chooser, start

    module, state = start(4, seed=9)
    opening = module.opening_events(state)
    assert any(e.get("sealed") for e in opening)  # the decks' order stays secret until the end
    state, resolutions = play(module, state, random_chooser(random.Random(9)))
    assert resolutions[-1].next_phase is None
    doc = document(9, opening, [r.report for r in resolutions])
    assert document_problems(doc) == ()
    assert document_problems(forged(doc)) != ()
