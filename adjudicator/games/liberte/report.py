"""The report data of one resolved phase of Liberté (public: sent to every
player; hands never appear in it, only their sizes).

``build`` gives the events in order, the standing after the phase (round,
order, victory points, government, supply, battle box, open cards,
displays, the board) and the random events; the templates
``liberte_report.{txt,html}.j2`` write them out with the catalogue.
"""

from __future__ import annotations

from typing import Any

from adjudicator.games.liberte.data import FACTIONS, GameData
from adjudicator.games.liberte.flow import phase_name
from adjudicator.games.liberte.state import G, cr_controlled
from adjudicator.games.liberte.wording import faction, say, text


def build(data: GameData, before: G, after: G, events: list[dict[str, Any]], randoms: list[dict[str, Any]],
          acting: tuple[str, ...]) -> dict[str, Any]:
    """The report of the phase that led from ``before`` to ``after``."""
    return {
        "game": "liberte",
        "standin": data.standin,
        "phase": phase_name(before),
        "next_phase": None if after["step"] == "over" else phase_name(after),
        "acting": list(acting),
        "acting_next": _acting(after),
        "events": [{"key": e["key"], "fields": {k: v for k, v in e.items() if k != "key"},
                    "de": say(e["key"], "de", {k: v for k, v in e.items() if k != "key"}),
                    "en": say(e["key"], "en", {k: v for k, v in e.items() if k != "key"})} for e in events],
        "standing": standing(data, after),
        "random_events": randoms if after["step"] != "over" else after.get("random_log", []),
        "result": after.get("result"),
        "view": picture_view(after),
    }


def picture_view(g: G) -> dict[str, Any]:
    """What the board picture shows of a position (public only)."""
    election = g.get("election") or {}
    return {"board": g["board"], "box": g["box"], "vp": g["vp"], "round": g["round"], "phase": phase_name(g),
            "votes": election.get("votes", {}), "government": g["government"], "opposition": g["opposition"],
            "players": g["players"]}


def _acting(g: G) -> list[str]:
    if g["step"] in ("action", "refill"):
        return [str(g["order"][g["turn"]])]
    if g["step"] == "bid":
        return list(g["bid"]["seats"])
    return []


def standing(data: GameData, g: G) -> dict[str, Any]:
    """The public position: every line of the report's standing section."""
    board = []
    for region in data.regions:
        for pid in region.provinces:
            province = data.provinces[pid]
            here = g["board"].get(pid, [])
            board.append({"province": province.name, "region": region.name,
                          "marks": {lang: _marks(province.cr, province.paris, province.vp, lang) for lang in LANGUAGES},
                          "stacks": {lang: " ".join(f"{s[0]}-{text('lib_colour_' + s[1], lang)}-{s[2]}" for s in here)
                                     or "-" for lang in LANGUAGES}})
    held = cr_controlled(g, data)
    return {
        "round": g["round"], "order": " ".join(g["order"]), "lost": g["lost_battles"],
        "vp": ", ".join(f"{s} {g['vp'][s]}" for s in g["players"]),
        "supply": {f: g["supply"][f] for f in FACTIONS},
        "track": sum(g["track"].values()),
        "box": ", ".join(f"{s} {g['box'][s]}" for s in g["players"] if g["box"][s]) or "-",
        "open": " ".join(f"{c} ({data.cards[c].name})" for c in g["open"]) or "-",
        "deck": len(g["deck"]), "discard": len(g["discard"]),
        "displays": [{"seat": s, "cards": " ".join(g["displays"][s]) or "-", "hand": len(g["hands"][s])}
                     for s in g["players"]],
        "government": g["government"], "opposition": g["opposition"],
        "cr": len(held), "cr_provinces": ", ".join(data.provinces[p].name for p in held) or "-",
        "board": board,
    }


LANGUAGES = ("de", "en")


def _marks(cr: bool, paris: bool, vp: tuple[tuple[int, int], ...], language: str) -> str:
    """A province's marks: CR, Paris (P), extra victory points by round."""
    short = text("lib_word_vp_short", language)
    return " ".join((["CR"] if cr else []) + (["P"] if paris else []) + [f"{r}:{v}{short}" for r, v in vp])


def status_text(data: GameData, g: G, language: str) -> tuple[str, ...]:
    """The standing as text lines in ``language`` (the report's section),
    after the stand-in notice when the game plays with the stand-in data."""
    s = standing(data, g)
    lines = [
        text("lib_line_round", language, round=s["round"], order=s["order"], lost=s["lost"]),
        text("lib_line_vp", language, vp=s["vp"]),
        text("lib_line_government", language, government=faction(s["government"], language),
             opposition=faction(s["opposition"], language)),
        text("lib_line_supply", language, track=s["track"], **s["supply"]),
        text("lib_line_box", language, box=s["box"]),
        text("lib_line_open", language, cards=s["open"], deck=s["deck"], discard=s["discard"]),
        *(text("lib_line_display", language, **entry) for entry in s["displays"]),
        text("lib_line_cr", language, count=s["cr"], provinces=s["cr_provinces"]),
    ]
    if data.standin:
        lines.insert(0, text("lib_report_standin", language))
    stacks = [f"{row['province']} {row['stacks'][language]}" for row in s["board"] if row["stacks"][language] != "-"]
    return tuple(lines) + ((text("lib_head_board", language) + ": " + "; ".join(stacks),) if stacks else ())
