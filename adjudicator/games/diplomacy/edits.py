"""A game master's edits of a Diplomacy position (pure functions).

Each edit takes the game state (the JSON case of docs/cli.md) and returns
a new one, checked by the same validation as every case; an edit that
would make an impossible position raises ``GameSetupError`` naming what is
wrong, with a catalogue note (``GameSetupError.note``) so that the GM reads
it in the game's language and never sees a JSON path.  Nothing else of the
state changes.
"""

from __future__ import annotations

import copy
from typing import Any

from adjudicator.games.diplomacy.contract import CaseError, case_from_json, note, parse_unit
from adjudicator.games.diplomacy.core.mapdata import GameMap, load_map
from adjudicator.games.diplomacy.core.model import province_of
from adjudicator.games.base import JSON, GameSetupError

CONFESSION_WORDS = {
    "catholic": "catholic", "katholisch": "catholic",
    "protestant": "protestant", "evangelisch": "protestant", "protestantisch": "protestant",
}


def refusal(error: CaseError) -> GameSetupError:
    """The case error as a GM's refusal: its message without the JSON path
    (``units.Bayern[2]: Tir already holds A Tir`` -> ``Tir already holds
    A Tir``) and its note; a problem that no edit can cause (the stored
    state itself is damaged) gets the note ``edit_invalid_state``."""
    return GameSetupError(error.message, error.note or note("edit_invalid_state"))


def _checked(state: JSON) -> JSON:
    try:
        case_from_json(state)
    except CaseError as error:
        raise refusal(error) from None
    return state


def _map(state: JSON) -> GameMap:
    return load_map(str(state.get("variant", "standard")))


def _power(game_map: GameMap, name: str) -> str:
    power = game_map.lookup_power(name)
    if power is None:
        known = ", ".join(game_map.powers)
        raise GameSetupError(f"unknown power {name!r} (known: {known})", note("case_unknown_power", name=name, known=known))
    return power


def _province(game_map: GameMap, text: str) -> str:
    province = game_map.lookup_place(text.split("/")[0])
    if province is None:
        raise GameSetupError(f"unknown province {text!r}", note("why_unknown_province", name=text))
    return province


def _province_of(unit_text: str) -> str:
    """The province of a unit as the state stores it (``F STP/SC`` -> ``STP``)."""
    return province_of(unit_text.split(" ", 1)[1])


def _find(state: JSON, game_map: GameMap, location: str) -> tuple[str, int, str]:
    """The owner, list index and text of the unit in ``location``'s province."""
    province = _province(game_map, location)
    for power, units in (state.get("units") or {}).items():
        for index, text in enumerate(units):
            if _province_of(str(text)).upper() == province.upper():
                return power, index, str(text)
    raise GameSetupError(f"there is no unit in {province}", note("why_no_unit", province=province))


def add_unit(state: JSON, power_name: str, kind: str, location: str) -> JSON:
    """A new unit of ``power_name`` (``A``/``F``) at ``location``."""
    game_map = _map(state)
    power = _power(game_map, power_name)
    try:
        unit = parse_unit(game_map, power, f"{kind.upper()} {location}", "unit")
    except CaseError as error:
        raise refusal(error) from None
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
        raise refusal(error) from None
    for other in (state.get("units") or {}).values():
        held = next((str(t) for t in other if str(t) != text and _province_of(str(t)) == unit.province), None)
        if held is not None:
            raise GameSetupError(f"{unit.province} already holds {held}",
                                 note("case_already_holds", province=unit.province, unit=held))
    result = copy.deepcopy(state)
    result["units"][power][index] = str(unit)
    return _checked(result)


def set_centre(state: JSON, province_text: str, power_name: str | None) -> JSON:
    """The supply centre ``province_text`` owned by ``power_name`` (``None``: by nobody)."""
    game_map = _map(state)
    province = _province(game_map, province_text)
    if not game_map.provinces[province].centre:
        raise GameSetupError(f"{province} is not a supply centre", note("case_not_centre", province=province))
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
        raise GameSetupError(f"unknown confession {word!r} (catholic, protestant, ex-catholic, ex-protestant)",
                             note("edit_unknown_confession", name=word))
    if ex != (until is not None):
        raise GameSetupError("an ex-state needs the last year it lasts, a settled confession none",
                             note("case_ex_needs_year"))
    if "confessions" not in state:
        raise GameSetupError(f"the {game_map.name} variant has no confessions",
                             note("case_no_confessions", variant=game_map.name))
    result = copy.deepcopy(state)
    result["confessions"][power] = {"state": f"ex-{base}" if ex else base, "until": until}
    return _checked(result)


def incapacitate(state: JSON, location: str) -> JSON:
    """Mark the unit in ``location``'s province incapacitated for this turn (30JK)."""
    game_map = _map(state)
    _, _, text = _find(state, game_map, location)
    if "confessions" not in state:
        raise GameSetupError(f"the {game_map.name} variant has no incapacitated units",
                             note("edit_no_incapacitated", variant=game_map.name))
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
