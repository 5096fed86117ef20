"""Liberté's sentences in German and English, from the message catalogue
file ``templates/texts/liberte.toml`` (keys ``lib_*``).

The rules name a reason or an event by a catalogue key and its fields;
``say`` writes it out in a language, with faction words (``red``) and seat
letters translated.  The report templates use the same keys through the
judge's catalogue.
"""

from __future__ import annotations

import tomllib
from functools import cache
from typing import Any

from adjudicator.games.base import Note
from adjudicator.resources import data_dir

_TRANSLATED = ("faction", "colour", "government", "opposition")


@cache
def entries() -> dict[str, dict[str, str]]:
    """Every ``lib_*`` entry: key -> language -> text."""
    with open(data_dir("templates") / "texts" / "liberte.toml", "rb") as handle:
        return {k: dict(v) for k, v in tomllib.load(handle).items()}


def text(key: str, language: str, **fields: Any) -> str:
    """The entry ``key`` in ``language`` (de/en) with ``fields`` filled in."""
    entry = entries()[key]
    return entry.get(language, entry["en"]).format(**fields)


def faction(name: str | None, language: str) -> str:
    """A faction's name (``red`` -> ``Radikale (rot)``); ``-`` for none."""
    return text(f"lib_faction_{name}", language) if name else "-"


def say(key: str, language: str, fields: dict[str, Any]) -> str:
    """An event or a reason written out: faction fields translated."""
    shown = {k: (faction(v, language) if k in _TRANSLATED and isinstance(v, str) else v) for k, v in fields.items()}
    if "sides" in shown and all(w in ("red", "blue", "white") for w in str(shown["sides"]).split()):
        shown["sides"] = ", ".join(faction(w, language) for w in str(shown["sides"]).split())
    if shown.get("place") in ("government", "opposition"):
        shown["place"] = text(f"lib_word_{shown['place']}", language)
    if str(shown.get("wanted", "")).startswith("lib_"):
        shown["wanted"] = text(str(shown["wanted"]), language)
    if "keep" in shown:
        shown["keep"] = text("lib_word_kept" if shown["keep"] else "lib_word_discarded", language)
    if "shared" in shown:
        shown["shared"] = text("lib_word_shared", language) if shown["shared"] else ""
    if "order" in shown and isinstance(shown["order"], list):
        shown["order"] = ", ".join(shown["order"])
    if "counts" in shown and isinstance(shown["counts"], dict):
        shown["counts"] = ", ".join(f"{s} {n}" for s, n in shown["counts"].items())
    return text(key, language, **shown)


def note(key: str, fields: dict[str, Any]) -> Note:
    """A reason or an event as a catalogue ``Note`` for the judge, which
    words it in the game's language: faction fields become catalogue keys
    (``faction_key = lib_faction_red``), so ``note_text`` of the note reads
    exactly as ``say`` does."""
    shown: dict[str, str] = {}
    for name, value in fields.items():
        if name in _TRANSLATED and isinstance(value, str) and value in ("red", "blue", "white"):
            shown[f"{name}_key"] = f"lib_faction_{value}"
        elif name == "wanted" and str(value).startswith("lib_"):
            shown["wanted_key"] = str(value)
        else:
            shown[name] = str(value)
    return Note(key, tuple(sorted(shown.items())))
