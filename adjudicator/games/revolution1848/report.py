"""The public report after a step of 1848 (rendered by
``templates/revolution1848_report.*.j2``).

The report reveals what was sealed until now — both plays of an action,
the cards kept — and never a hand or a forecast (forecasts are shown at
the end only).  Sentences come in both languages (``wording``).
"""

from __future__ import annotations

import re
from typing import Any

from adjudicator.games.revolution1848 import describe, military, wording
from adjudicator.games.revolution1848.cards import CardData
from adjudicator.games.revolution1848.evaluation import evaluate
from adjudicator.games.revolution1848.flow import final_forecast, score
from adjudicator.games.revolution1848.state import PLAYERS, Game

JSON = dict[str, Any]



def step_name(game: Game) -> dict[str, str]:
    """What a step is called: ``Aktion 2`` / ``action 2``."""
    return wording.pair(f"r1848_stepname_{game.step}", tag=game.tag)


def build(data: CardData, before: Game, after: Game, revealed: dict[str, list[str]],
          notes: list[dict[str, Any]]) -> JSON:
    """The report of the step ``before`` was in, ending in ``after``;
    ``revealed`` are the orders that may be shown (by player)."""
    flow = data.flows[before.flow]
    report: JSON = {
        "phase": before.phase,
        "step": before.step,
        "step_name": step_name(before),
        "flow": before.flow,
        "flow_name": {"de": wording.card(data, before.flow), "en": f"{flow.id} {flow.name_en or flow.name}".strip()},
        "round": before.round,
        "next_phase": after.phase if after.step != "over" else None,
        "orders": [{"player": p, "lines": revealed.get(p, []), "shown": wording.orders(revealed.get(p, [])),
                    "cards": _played(data, after, revealed.get(p, [])), "note": None} for p in before.actors],
        "standin": None,
        "events": [wording.note(data, n) for n in notes],
        "evaluation": [],
        "tables": [],
        "armies": [],
        "lying": list(after.lying),
        "won": [{"player": p, "cards": list(after.side(p).won),
                 "points": sum(data.flows[c].points for c in after.side(p).won)} for p in PLAYERS],
        "hands": [{"player": p, "cards": len(after.side(p).hand)} for p in PLAYERS],
        "next": next_step(after),
        "final": None,
    }
    if before.step in ("keep", "play") and flow.played_for:
        tables = {p: after.side(p).table for p in PLAYERS}
        result = evaluate(data, flow, tables, before.radical)
        report["evaluation"] = wording.evaluation(data, before.flow, result)
        report["leader"] = result.leader
        report["tables"] = [{"player": p, "cards": [_entry(data, c.card, c.party) for c in tables[p]]}
                            for p in PLAYERS]
    for army in after.armies:
        report["armies"].append({
            "player": army.owner, "at": army.at, "cards": list(army.cards),
            "strength": military.strength(data, army), "morale": military.morale(army),
        })
    if after.step == "over":
        report["final"] = final(data, after)
    return report


def _entry(data: CardData, card: str, party: str) -> JSON:
    return {"card": card, "name": data.name_of(card) if data.name_of(card) != card else "",
            "party": wording.party(party) if party else None,
            "value": data.value_of(card) if data.is_person(card) else None,
            "line": describe.line(data, card, party or None)}


_CARD = re.compile(r"\b(PE\d\d|Z\d\d)\b")


def _played(data: CardData, after: Game, lines: list[str]) -> list[dict[str, str]]:
    """The card played in each revealed line, described (a person with the
    party it lies with; not the target of an attack, not kept cards)."""
    parties = {placed.card: placed.party for p in PLAYERS for placed in after.side(p).table}
    firsts = [_CARD.findall(text)[:1] for text in lines if not text.startswith(("KEEP", "DISCARD"))]
    cards = dict.fromkeys(c for found in firsts for c in found if c in data.persons or c in data.extras)
    return [describe.line(data, c, parties.get(c) or None) for c in cards]


def next_step(game: Game) -> dict[str, str]:
    """Who acts next and how, in both languages."""
    if game.step == "over":
        return wording.pair("r1848_next_over")
    who = wording.joined([wording.player(p) for p in game.actors], wording.pair("r1848_players_and"))
    return wording.pair("r1848_next", phase=game.phase, step=step_name(game), who=who)


def final(data: CardData, game: Game) -> JSON:
    """The final scoring with the forecasts revealed."""
    points = score(game, data, game.ended)
    rows = []
    for player in PLAYERS:
        letter = final_forecast(game, data, player)
        rows.append({"player": player, **points[player], "forecast": letter,
                     "forecast_text": data.rules.forecasts[letter].text,
                     "forecast_points": points[player]["forecast"]})
    end = wording.pair(f"r1848_end_{game.ended}")
    return {"end": game.ended, "end_text": end, "rows": rows}
