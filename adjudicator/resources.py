"""Locating the data folders (grammars, maps, templates) of the judge.

In a source checkout they sit at the top of the repository; in an installed
wheel they are packaged as ``adjudicator/_data/<name>``.  Both layouts are
supported so the judge runs from any working directory.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

_PACKAGE_DIR = Path(__file__).resolve().parent


@cache
def data_dir(name: str) -> Path:
    """Return the directory holding the data folder ``name``.

    Guarantees an existing directory or raises ``FileNotFoundError`` naming
    both places that were searched.
    """
    candidates = (_PACKAGE_DIR / "_data" / name, _PACKAGE_DIR.parent / name)
    for candidate in candidates:
        if candidate.is_dir():
            return candidate
    searched = ", ".join(str(c) for c in candidates)
    raise FileNotFoundError(f"data folder {name!r} not found (searched {searched})")


def grammar_path(name: str) -> Path:
    """Path of the Lark grammar ``grammars/<name>.lark``."""
    return data_dir("grammars") / f"{name}.lark"


def map_path(name: str) -> Path:
    """Path of the map file ``maps/<name>.toml``."""
    return data_dir("maps") / f"{name}.toml"


def card_path(name: str) -> Path:
    """Path of the card file ``cards/<name>.toml`` (a card game's data)."""
    return data_dir("cards") / f"{name}.toml"
