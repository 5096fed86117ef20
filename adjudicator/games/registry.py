"""The registry of game modules: the only way the service reaches a game.

Each entry names a game package and how to build its module for a
variant name; packages are imported on first use, so commands that touch
no game load none.  ``register`` adds a game at run time (a test game, an
operator's own module); the environment variable ``ADJUDICATOR_GAMES``
(``variant=package.module:Class``, several separated by commas) does the
same for a judge started as a process.
"""

from __future__ import annotations

import os
import re
from functools import cache
from importlib import import_module
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:  # the interface is loaded with the first game, not to check a variant's name (issue 20)
    from adjudicator.games.base import DataFile, GameModule

# The sealed-play and turn-based games, by variant name and alias: module
# path and the name of the class built without arguments.
_NAMED: dict[str, tuple[str, str]] = {
    "1848": ("adjudicator.games.revolution1848", "Revolution1848"),
    "1847ae": ("adjudicator.games.pfalz1847.module", "Pfalz1847"),
    "1847": ("adjudicator.games.pfalz1847.module", "Pfalz1847"),
    "pfalz": ("adjudicator.games.pfalz1847.module", "Pfalz1847"),
    "1847ae-3": ("adjudicator.games.pfalz1847.module", "Pfalz1847Three"),
    "1847ae-4": ("adjudicator.games.pfalz1847.module", "Pfalz1847Four"),
    "1847ae-5": ("adjudicator.games.pfalz1847.module", "Pfalz1847Five"),
    # Liberté for 3-6 players; the bare name (with or without the accent) is 4 players.
    "liberte": ("adjudicator.games.liberte", "liberte4"),
    "liberté": ("adjudicator.games.liberte", "liberte4"),
    **{f"liberte{n}": ("adjudicator.games.liberte", f"liberte{n}") for n in (3, 4, 5, 6)},
    **{f"liberté{n}": ("adjudicator.games.liberte", f"liberte{n}") for n in (3, 4, 5, 6)},
    **{f"liberte-{n}": ("adjudicator.games.liberte", f"liberte{n}") for n in (3, 4, 5, 6)},
    # Kreml (Fata Morgana 1986) for 3-6 players; without a number: four.
    **{f"{name}{sep}{count}": ("adjudicator.games.kreml", f"kreml{count}")
       for name in ("kreml", "kremlin") for sep in ("", "-") for count in (3, 4, 5, 6)},
    "kreml": ("adjudicator.games.kreml", "kreml4"),
    "kremlin": ("adjudicator.games.kreml", "kreml4"),
}


# Games whose data files can be named without loading their rules (issue
# 20): the module path and class of ``_NAMED`` -> the variant's name and the
# module and attribute that hold the data files (what the class's
# ``data_files`` returns; tests/test_startup.py checks they agree).
_DATA_FILES: dict[tuple[str, str], tuple[str, str, str]] = {
    ("adjudicator.games.revolution1848", "Revolution1848"):
        ("1848", "adjudicator.games.revolution1848.cardfile", "DATA_FILES"),
    **{("adjudicator.games.kreml", f"kreml{n}"): (f"kreml{n}", "adjudicator.games.kreml.data", "DATA_FILES")
       for n in (3, 4, 5, 6)},
    **{("adjudicator.games.liberte", f"liberte{n}"): (f"liberte{n}", "adjudicator.games.liberte.data", "DATA_FILES")
       for n in (3, 4, 5, 6)},
}


class GameDescription:
    """What the registry can say of a game without loading its rules: the
    variant's name and its data files, as the game module gives them."""

    __slots__ = ("variant", "_files")

    def __init__(self, variant: str, files: tuple[DataFile, ...]) -> None:
        self.variant = variant
        self._files = files

    def data_files(self) -> tuple[DataFile, ...]:
        """The game's data files (``GameModule.data_files``)."""
        return self._files


def _diplomacy(variant: str) -> GameModule:
    from adjudicator.games.base import UnknownGame
    from adjudicator.games.diplomacy.core.mapdata import MapError
    from adjudicator.games.diplomacy.module import DiplomacyGame

    try:
        return DiplomacyGame.for_variant(variant)
    except MapError as error:
        raise UnknownGame(str(error)) from None


@cache
def _named(path: str, name: str) -> Callable[[], GameModule]:
    factory: Callable[[], GameModule] = getattr(import_module(path), name)
    return factory


ENVIRONMENT = "ADJUDICATOR_GAMES"


def register(variant: str, path: str, name: str) -> None:
    """Make ``variant`` (any case) name the game module class ``name`` of
    the Python module ``path``, built without arguments; a registered
    name is found before any Diplomacy map of that name."""
    _NAMED[variant.lower()] = (path, name)


def _unknown(message: str) -> Exception:
    """``UnknownGame(message)``; the interface is imported only on this path."""
    from adjudicator.games.base import UnknownGame

    return UnknownGame(message)


def _from_environment() -> None:
    for entry in filter(None, (part.strip() for part in os.environ.get(ENVIRONMENT, "").split(","))):
        variant, _, target = entry.partition("=")
        path, _, name = target.partition(":")
        if not (variant and path and name):
            raise _unknown(f"{ENVIRONMENT}: expected variant=package.module:Class, got {entry!r}")
        register(variant.strip(), path.strip(), name.strip())


def game_module(variant: str) -> GameModule:
    """The module for ``variant`` (a registered game such as ``1848``, or a
    Diplomacy map name such as ``standard`` or ``30jk``); raises
    ``UnknownGame`` naming the variant otherwise."""
    _from_environment()
    entry = _NAMED.get(variant.lower())
    if entry is not None:
        return _named(*entry)()
    return _diplomacy(variant)


def described(variant: str) -> GameModule | GameDescription:
    """The game of ``variant`` as far as its name and data files go (what
    ``data template`` and ``data check`` ask of it): a ``GameDescription``
    read without the rules where the registry has one, else the game
    module itself; ``UnknownGame`` as ``game_module`` raises it."""
    _from_environment()
    entry = _NAMED.get(variant.lower())
    description = _DATA_FILES.get(entry) if entry is not None else None
    if description is None:
        return game_module(variant)
    name, path, attribute = description
    files: tuple[DataFile, ...] = tuple(getattr(import_module(path), attribute))
    return GameDescription(name, files)


def check_variant(variant: str) -> None:
    """Raise ``UnknownGame`` naming ``variant`` unless it is a registered
    game or has a Diplomacy map file, without loading either: for the
    configuration's default variant, checked at every start (issue 20).
    A map file that is there but broken is refused at its first use."""
    from adjudicator.resources import map_path

    _from_environment()
    if variant.lower() in _NAMED:
        return
    if not re.fullmatch(r"[A-Za-z0-9_\-]+", variant):
        raise _unknown(f"not a map name: {variant!r}")
    if not map_path(variant).is_file():
        raise _unknown(f"unknown variant {variant!r}: no map file {map_path(variant).name}")


def registered() -> tuple[str, ...]:
    """The variant names registered besides Diplomacy maps."""
    _from_environment()
    return tuple(_NAMED)
