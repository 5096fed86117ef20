"""The words of 1847 AE in German and English, from the game's part of
the message catalogue (``templates/texts/pfalz1847.toml``): refusals,
report events and the lines of "your turn" mails."""

from __future__ import annotations

import tomllib
from functools import cache
from typing import Any

from adjudicator.games.base import Note
from adjudicator.games.pfalz1847.engine import Refusal
from adjudicator.resources import data_dir


@cache
def _entries() -> dict[str, dict[str, str]]:
    with open(data_dir("templates") / "texts" / "pfalz1847.toml", "rb") as handle:
        return tomllib.load(handle)


def say(key: str, language: str, **fields: Any) -> str:
    """The catalogue entry ``key`` in ``language`` with ``fields``; a field
    that is itself a ``Refusal`` is worded in the same language."""
    shown = {k: (refusal(v, language) if isinstance(v, Refusal) else v) for k, v in fields.items()}
    entry = _entries()[key]
    return entry.get(language, entry["en"]).format(**shown)


def refusal(problem: Refusal, language: str) -> str:
    """Why an order was refused, in ``language``."""
    return say(problem.key, language, **problem.fields)


def refusal_note(problem: Refusal, hint: str = "") -> Note:
    """The refusal as a catalogue ``Note`` the judge words in the game's
    language (``note_text`` reads as ``refusal`` does): a reason inside
    it (a ``Refusal`` field) becomes ``<field>_key`` with its own fields
    beside; ``hint`` (the orders open now) is the note's hint line."""
    fields: dict[str, str] = {}
    for name, value in problem.fields.items():
        if isinstance(value, Refusal):
            fields.update((k, str(v)) for k, v in value.fields.items())
            fields[f"{name}_key"] = value.key
    fields.update((k, str(v)) for k, v in problem.fields.items() if not isinstance(v, Refusal))
    if hint:
        fields["hint"] = hint
    return Note(problem.key, tuple(fields.items()))


_EVENT_FIELDS = {"source": "from", "seat": "seat"}


def event(entry: dict[str, Any], seat: str, language: str) -> str:
    """One event of the log as a sentence."""
    fields = dict(entry)
    kind = str(fields.pop("event"))
    fields.setdefault("seat", seat)
    if "from" in fields and kind in ("bought", "train"):
        fields["source"] = fields["from"]
    if kind == "run":
        return say("p47_ev_run", language, **fields)
    return say(f"p47_ev_{kind}", language, **fields)
