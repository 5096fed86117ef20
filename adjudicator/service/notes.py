"""Wording a game's notes (``games.base.Note``) in the game's language."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from adjudicator.games.base import Note
from adjudicator.service.render import Texts

_POWER_FIELDS = ("power", "owner")


def note_text(note: Note, texts: Texts, power_name: Callable[[str], str]) -> str:
    """The catalogue entry ``note.key`` filled with its fields: power keys
    (fields ``power``, ``owner``) as power names, fields ending in ``_key``
    as their own catalogue entry (under the name without ``_key``, filled
    with the note's other fields), a
    ``suggest`` field as a "did you mean" after it and a ``hint`` field
    (the order syntax expected) as the catalogue's hint line after that."""
    fields = dict(note.fields)
    for name in _POWER_FIELDS:
        if name in fields:
            fields[name] = power_name(fields[name])
    keys = {name: fields.pop(name) for name in [n for n in fields if n.endswith("_key")]}
    for name, key in keys.items():
        fields[name.removesuffix("_key")] = texts(key, **fields)
    suggest = fields.pop("suggest", None)
    hint = fields.pop("hint", None)
    text = texts(note.key, **fields)
    text = f"{text} {texts('did_you_mean', suggest=suggest)}" if suggest else text
    return f"{text} {texts('hint', hint=hint)}" if hint else text


def note_data_text(data: Mapping[str, Any], texts: Texts, power_name: Callable[[str], str]) -> str:
    """``note_text`` of a note kept as JSON data (``{"key", "fields"}``)."""
    fields = data.get("fields") or {}
    return note_text(Note(str(data["key"]), tuple((str(k), str(v)) for k, v in fields.items())), texts, power_name)
