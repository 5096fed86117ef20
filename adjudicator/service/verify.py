"""Verifiable randomness in the judge: every game's secret seed, what the
start mail and the end publish, and the check that every random event of
a game is the one its seed gives (``adjudicator verify GAME``).

The events are kept where the players saw them: the start's (the
module's ``opening_events`` and the judge's random powers) in the game's
settings, each phase's in its report (``random_events``).  The document
``events_document`` (attached to the last mail of a game as
``<game>-random.json``) holds the seed and every event; the recipe in
docs/service.md recomputes it with nothing but Python's standard library.
"""

from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING, Any

from adjudicator.games import game_module
from adjudicator.games.randomness import REPORT_KEY, RandomEvent, check_events, judge_key, seed_digest, seed_text

if TYPE_CHECKING:  # the mail composer comes with the attachment: a game's creation needs only the seed (issue 20)
    from adjudicator.mail.compose import Attachment
    from adjudicator.service.render import Texts
    from adjudicator.service.store import GameRecord, Store

OPENING = "opening_events"
"""The game setting with the start's events: ``{"key": "game"|"judge", "event": {...}}``."""


def new_seed() -> int:
    """A fresh secret seed (128 random bits from ``os.urandom``, as
    ``secrets.randbits(128)`` draws them)."""
    return int.from_bytes(os.urandom(16), "big")


def opening_events_of(variant: str, state: dict[str, Any]) -> list[dict[str, Any]]:
    """The start's events of a game module (none for a module that draws
    nothing or predates ``opening_events``), tagged with the game's key."""
    module = game_module(variant)
    found = getattr(module, "opening_events", None)
    events = tuple(found(state)) if callable(found) else ()
    return [{"key": "game", "event": dict(e)} for e in events]


def event_line(event: RandomEvent) -> str:
    """A random event as reports name it: ``R1.2 Red W6: 4 (#0)``."""
    result = ", ".join(str(value) for value in event.result)
    return f"{event.label or event.kind}: {result} (#{event.counter})"


def event_text(entry: dict[str, Any]) -> str:
    """A report's event record as reports name it (``event_line``); a
    sealed one (a hidden deck's shuffle) without its result."""
    event = RandomEvent.from_json(entry)
    if entry.get("sealed"):
        return f"{event.label or event.kind}: … (#{event.counter})"
    return event_line(event)


def start_lines(game: GameRecord, texts: Texts) -> list[str]:
    """The start mail's lines on randomness: the seed's SHA-256 and the
    events drawn at the start."""
    lines = [texts("seed_digest_line", digest=seed_digest(game.settings.get("seed", 0)))]
    for entry in game.settings.get(OPENING, []):
        lines.append("  " + texts("turn_random", event=event_text(entry["event"])))
    return lines


def end_lines(game: GameRecord, texts: Texts) -> list[str]:
    """What the end of a game publishes: the seed and how to check it."""
    seed = game.settings.get("seed", 0)
    return [texts("seed_published", seed=seed_text(seed), digest=seed_digest(seed), game=game.name)]


def events_of(store: Store, game: GameRecord) -> list[tuple[str, str, RandomEvent]]:
    """Every published random event of a game as (where, key kind, event):
    the start's, then each resolved phase's in order (events shown sealed,
    without their result, are left out: see ``sealed_counters``)."""
    return [(where, kind, RandomEvent.from_json(e)) for where, kind, e in _entries(store, game) if not e.get("sealed")]


def sealed_counters(store: Store, game: GameRecord) -> list[int]:
    """The counters of events reported sealed (result not yet shown)."""
    return [int(e["counter"]) for _, _, e in _entries(store, game) if e.get("sealed")]


def _entries(store: Store, game: GameRecord) -> list[tuple[str, str, dict[str, Any]]]:
    found = [("start", str(e.get("key", "game")), dict(e["event"])) for e in game.settings.get(OPENING, [])]
    for entry in store.phases(game.name):
        found.extend((entry.phase, "game", dict(e)) for e in entry.report.get(REPORT_KEY, ()))
    return found


def problems(store: Store, game: GameRecord) -> tuple[str, ...]:
    """What is wrong with the game's random events (empty: all genuine)."""
    seed = game.settings.get("seed", 0)
    result: list[str] = []
    for kind, key in (("game", seed_text(seed)), ("judge", judge_key(seed))):
        chosen = [(where, event) for where, key_kind, event in events_of(store, game) if key_kind == kind]
        result.extend(check_events(key, [e for _, e in chosen], where=[w for w, _ in chosen],
                                   sealed=sealed_counters(store, game) if kind == "game" else ()))
    return tuple(result)


def events_document(store: Store, game: GameRecord) -> dict[str, Any]:
    """The seed, its SHA-256 and every event (with the key each was drawn
    with: ``game`` = the seed's text, ``judge`` = the text + ``/judge``)."""
    seed = game.settings.get("seed", 0)
    return {"game": game.name, "seed": seed_text(seed), "sha256": seed_digest(seed),
            "events": [{"where": where, "key": kind, **event.to_json()} for where, kind, event in events_of(store, game)]}


def events_attachment(store: Store, game: GameRecord) -> Attachment:
    """``events_document`` as the JSON attachment of a game's last mail."""
    from adjudicator.mail.compose import Attachment

    data = json.dumps(events_document(store, game), ensure_ascii=False, indent=1).encode("utf-8")
    return Attachment(f"{game.name}-random.json", "application/json", data)


def document_problems(document: dict[str, Any]) -> tuple[str, ...]:
    """What is wrong with an ``events_document`` (from a game's last
    mail): the seed not matching its SHA-256, or an event the seed does
    not give."""
    seed = str(document.get("seed", ""))
    result: list[str] = []
    if seed_digest(seed) != document.get("sha256"):
        result.append(f"the seed's SHA-256 is {seed_digest(seed)}, not {document.get('sha256')}")
    entries = list(document.get("events", []))
    for kind, key in (("game", seed), ("judge", f"{seed}/judge")):
        chosen = [e for e in entries if e.get("key", "game") == kind and not e.get("sealed")]
        sealed = [int(e["counter"]) for e in entries if e.get("key", "game") == kind and e.get("sealed")]
        result.extend(check_events(key, [RandomEvent.from_json(e) for e in chosen],
                                   where=[str(e.get("where", "")) for e in chosen], sealed=sealed))
    return tuple(result)
