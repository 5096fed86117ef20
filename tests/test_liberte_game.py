"""Whole games of Liberté played to the end through the game module.

Bots choose at random among the legal orders (some favour the Radicals
or the Royalists, so that both early ends happen) and send them as mail
lines through ``check_orders`` and ``resolve``, as the judge does, until
the game is over.  After every step no card and no block has been lost
or doubled and every stack keeps the placement rules; every report
renders in both languages; the outcome is one of the three ends.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from types import SimpleNamespace
from typing import Any

import pytest

from adjudicator.games.liberte.data import standin
from adjudicator.games.pictures.png import to_png
from adjudicator.games.pictures.svg import to_svg
from adjudicator.games import randomness
from adjudicator.service.render import Texts, render
from tests.liberte.driver import leaning_chooser, play, random_chooser, start

GAMES = 200


def rendered(module: Any, resolution: Any, language: str) -> str:
    record = SimpleNamespace(name="spiel", status="active", phase=resolution.state["phase"], deadline=None,
                             outcome="")
    texts = Texts(language, "Europe/Berlin")
    name = lambda p: module.power_name(p, language)  # noqa: E731
    text: str = render("liberte_report.txt.j2", texts, name, judge="j@x", game=record, report=resolution.report,
                       late=[], phase=resolution.phase)
    render("liberte_report.html.j2", texts, name, judge="j@x", game=record, report=resolution.report, late=[],
           phase=resolution.phase)
    return text


def one_game(number: int) -> tuple[str, Any, list[Any], Any]:
    players = 3 + number % 4
    lean = ("", "red", "white")[number % 3]
    module, state = start(players, 1000 + number)
    rng = random.Random(number)
    chooser = leaning_chooser(rng, lean) if lean else random_chooser(rng)
    final, resolutions = play(module, state, chooser)
    return final["game"]["result"]["kind"], final, resolutions, module


def test_two_hundred_random_games_reach_their_end() -> None:
    ends: Counter[str] = Counter()
    effects: Counter[str] = Counter()
    for number in range(GAMES):
        kind, final, resolutions, module = one_game(number)
        assert resolutions[-1].next_phase is None, f"game {number} did not end"
        ends[kind] += 1
        effects.update(e["fields"]["effect"] for r in resolutions for e in r.report["events"]
                       if e["key"] == "lib_ev_special")
        result = final["game"]["result"]
        if kind == "points":
            assert final["game"]["round"] == 4
            assert result["counts"] == final["game"]["vp"]
        last = resolutions[-1]
        assert (last.winner is not None) != (last.draw is not None)
    assert set(ends) == {"points", "landslide", "counter_revolution"}, ends
    assert set(effects) == {"remove", "clear", "battle", "unbattle", "draw", "place", "move"}, effects


@pytest.mark.parametrize("number", [0, 1, 2, 5])
def test_every_report_renders_and_the_randomness_recomputes(number: int) -> None:
    kind, final, resolutions, module = one_game(number)
    seed = final["game"]["seed"]
    for resolution in resolutions:
        for event in resolution.report["random_events"]:
            recorded = randomness.RandomEvent.from_json(event)
            again = randomness.recompute(seed, recorded)
            if event.get("sealed"):  # a hidden deck's order: shown whole only at the end
                assert again.items == recorded.items and not recorded.result and resolution.next_phase
            else:
                assert again == recorded
        for language in ("de", "en"):
            text = rendered(module, resolution, language)
            assert ("ERFUNDENEN" if language == "de" else "INVENTED") in text
    whole = resolutions[-1].report["random_events"]
    assert [e["counter"] for e in whole] == list(range(final["game"]["counter"]))
    assert all(not e.get("sealed") and randomness.recompute(seed, randomness.RandomEvent.from_json(e))
               == randomness.RandomEvent.from_json(e) for e in whole)
    picture = module.picture(resolutions[-1].state, resolutions[-1].report, game_name="spiel", language="de",
                             texts=Texts("de"))
    assert to_svg(picture).startswith("<?xml") and to_png(picture).startswith(b"\x89PNG")


def test_hands_never_appear_in_reports() -> None:
    kind, final, resolutions, module = one_game(3)
    for resolution in resolutions[:-1]:
        g = resolution.state["game"]
        told = json.dumps(resolution.report["events"])
        shuffled = [e for e in resolution.report["random_events"] if e["kind"] == "shuffle"]
        assert all(e["result"] == [] for e in shuffled)  # the deck's new order stays secret
        whole = json.dumps({k: v for k, v in resolution.report.items() if k != "random_events"})
        for card in {c for hand in g["hands"].values() for c in hand}:
            assert f'"{card}' not in whole.replace(told, "") or card in told, card
        for seat in g["players"]:
            own = module.private_lines(resolution.state, seat, "en")[0]
            others = {c for other, hand in g["hands"].items() if other != seat for c in hand}
            assert not any(f" {c}" in own for c in others)
