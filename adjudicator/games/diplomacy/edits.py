"""A game master's edits of a Diplomacy position (pure functions).

Each edit takes the game state (the JSON case of docs/cli.md) and returns
a new one, checked by the same validation as every case; an edit that
would make an impossible position raises ``GameSetupError`` naming what is
wrong.  Nothing else of the state changes.
"""

from __future__ import annotations

import copy
import re
from typing import Any

from adjudicator.games.diplomacy.contract import CaseError, case_from_json, parse_unit
from adjudicator.games.diplomacy.core.mapdata import GameMap, load_map
from adjudicator.games.diplomacy.core.model import province_of
from adjudicator.games.base import JSON, GameSetupError

CONFESSION_WORDS = {
    "catholic": "catholic", "katholisch": "catholic",
    "protestant": "protestant", "evangelisch": "protestant", "protestantisch": "protestant",
}


_PATH = re.compile(r"^(?:units|centers|dislodged|confessions|orders|options|phase|variant|unit|standoffs)\b[^:]*: ")


def plain(error: CaseError) -> str:
    """The case error without its JSON path (``units.Bayern[2]: Tir already
    holds A Tir`` -> ``Tir already holds A Tir``): a GM's answer never
    shows the state's inner structure."""
    return _PATH.sub("", str(error))


def _checked(state: JSON) -> JSON:
    try:
        case_from_json(state)
    except CaseError as error:
        raise GameSetupError(plain(error)) from None
    return state


def _map(state: JSON) -> GameMap:
    return load_map(str(state.get("variant", "standard")))


def _power(game_map: GameMap, name: str) -> str:
    power = game_map.lookup_power(name)
    if power is None:
        raise GameSetupError(f"unknown power {name!r} (known: {', '.join(game_map.powers)})")
    return power


def _province(game_map: GameMap, text: str) -> str:
    province = game_map.lookup_place(text.split("/")[0])
    if province is None:
        raise GameSetupError(f"unknown province {text!r}")
    return province


def _find(state: JSON, game_map: GameMap, location: str) -> tuple[str, int, str]:
    """The owner, list index and text of the unit in ``location``'s province."""
    province = _province(game_map, location)
    for power, units in (state.get("units") or {}).items():
        for index, text in enumerate(units):
            if province_of(str(text).split(" ", 1)[1]).upper() == province.upper():
                return power, index, str(text)
    raise GameSetupError(f"there is no unit in {province}")


def add_unit(state: JSON, power_name: str, kind: str, location: str) -> JSON:
    """A new unit of ``power_name`` (``A``/``F``) at ``location``."""
    game_map = _map(state)
    power = _power(game_map, power_name)
    try:
        unit = parse_unit(game_map, power, f"{kind.upper()} {location}", "unit")
    except CaseError as error:
        raise GameSetupError(plain(error)) from None
    result = copy.deepcopy(state)
    units = result.setdefault("units", {})
    units.setdefault(power, []).append(str(unit))
    return _checked(result)


def remove_unit(state: JSON, location: str) -> JSON:
    """The position without the unit in ``location``'s province."""
    game_map = _map(state)
    power, index, _ = _find(state, game_map, location)
    result = copy.deepcopy(state)
    del result["units"][power][index]
    return _checked(result)


def move_unit(state: JSON, origin: str, destination: str) -> JSON:
    """The unit in ``origin``'s province stands at ``destination`` instead."""
    game_map = _map(state)
    power, index, text = _find(state, game_map, origin)
    try:
        unit = parse_unit(game_map, power, f"{text.split(' ', 1)[0]} {destination}", "unit")
    except CaseError as error:
        raise GameSetupError(plain(error)) from None
    result = copy.deepcopy(state)
    result["units"][power][index] = str(unit)
    return _checked(result)


def set_centre(state: JSON, province_text: str, power_name: str | None) -> JSON:
    """The supply centre ``province_text`` owned by ``power_name`` (``None``: by nobody)."""
    game_map = _map(state)
    province = _province(game_map, province_text)
    if not game_map.provinces[province].centre:
        raise GameSetupError(f"{province} is not a supply centre")
    result = copy.deepcopy(state)
    centres: dict[str, list[Any]] = result.setdefault("centers", {})
    for owned in centres.values():
        if province in owned:
            owned.remove(province)
    if power_name is not None:
        centres.setdefault(_power(game_map, power_name), []).append(province)
    return _checked(result)


def set_confession(state: JSON, power_name: str, word: str, until: int | None) -> JSON:
    """A power's confession (30JK): ``catholic``/``protestant`` (German words
    too), or an ``ex-`` state that ends after year ``until``."""
    game_map = _map(state)
    power = _power(game_map, power_name)
    lowered = word.lower()
    ex = lowered.startswith("ex-")
    base = CONFESSION_WORDS.get(lowered.removeprefix("ex-"))
    if base is None:
        raise GameSetupError(f"unknown confession {word!r} (catholic, protestant, ex-catholic, ex-protestant)")
    if ex != (until is not None):
        raise GameSetupError("an ex-state needs the last year it lasts, a settled confession none")
    if "confessions" not in state:
        raise GameSetupError(f"the {game_map.name} variant has no confessions")
    result = copy.deepcopy(state)
    result["confessions"][power] = {"state": f"ex-{base}" if ex else base, "until": until}
    return _checked(result)


def incapacitate(state: JSON, location: str) -> JSON:
    """Mark the unit in ``location``'s province incapacitated for this turn (30JK)."""
    game_map = _map(state)
    _, _, text = _find(state, game_map, location)
    if "confessions" not in state:
        raise GameSetupError(f"the {game_map.name} variant has no incapacitated units")
    result = copy.deepcopy(state)
    marked = list(result.get("incapacitated") or [])
    if text not in marked:
        marked.append(text)
    result["incapacitated"] = marked
    return _checked(result)


def place_name(state: JSON, text: str) -> str:
    """The canonical name of the place ``text`` names on the state's map,
    or ``text`` itself when the map knows no such place."""
    return _map(state).lookup_place(text) or text
