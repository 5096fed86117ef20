"""The JSON contract of ``adjudicator adjudicate`` (documented in docs/cli.md).

``case_from_json`` validates one JSON case and turns it into a map, a
position and order texts, raising ``CaseError`` with a message naming the
offending field; ``result_to_json`` turns a ``PhaseResult`` into the
output object.  Keys and meanings are a contract other tools rely on.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Mapping

from adjudicator.games.base import Note
from adjudicator.games.diplomacy.core.board import Board
from adjudicator.games.diplomacy.core.mapdata import GameMap, MapError, load_map
from adjudicator.games.diplomacy.core.model import Confession, DislodgedUnit, Phase, PhaseKind, Position, Unit, UnitType
from adjudicator.games.diplomacy.variants import initial_position, rules_for

# The resolver (engine, movement) is imported where a phase is resolved or
# a retreat computed: reading a game's state needs neither (issue 20).
if TYPE_CHECKING:
    from adjudicator.games.diplomacy.core.engine import PhaseResult
from adjudicator.games.diplomacy.variants.religion import CONFESSIONS
from adjudicator.records import Record


class CaseError(ValueError):
    """A malformed case: ``where`` names the field that is wrong (a JSON
    path such as ``units.Bayern[2]``), ``message`` what is wrong with it in
    English (the text is ``where: message``, part of the CLI contract), and
    ``note``, when the problem can arise in a game's own state (a GM's edit,
    an option), the same message as a catalogue entry
    (``templates/texts/diplomacy_edits.toml``) without the path."""

    def __init__(self, where: str, message: str, note: Note | None = None) -> None:
        super().__init__(f"{where}: {message}")
        self.where = where
        self.message = message
        self.note = note


def note(key: str, **fields: str) -> Note:
    """A catalogue note ``key`` with ``fields`` (in their given order)."""
    return Note(key, tuple(fields.items()))


_OPTION_PROBLEMS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("case_unknown_options", re.compile(r"unknown option\(s\) (?P<options>.+)")),
    ("case_option_value", re.compile(r"(?P<option>\w+): '(?P<value>.*)' is not one of (?P<allowed>.+)")),
    ("case_option_number", re.compile(r"(?P<option>\w+): expected a whole number")),
)


def option_note(problem: str) -> Note | None:
    """The catalogue note of a variant's option problem (``option_problem``
    of the rules), or ``None`` for a form not known here."""
    for key, pattern in _OPTION_PROBLEMS:
        match = pattern.fullmatch(problem)
        if match:
            return Note(key, tuple(match.groupdict().items()))
    return None


class Case(Record):
    """A validated case: the map, the position and each power's order texts."""

    __slots__ = ("game_map", "position", "orders", "options")
    game_map: GameMap
    position: Position
    orders: dict[str, list[str]]
    options: dict[str, Any]

    def __init__(self, game_map: GameMap, position: Position, orders: dict[str, list[str]],
                 options: dict[str, Any]) -> None:
        object.__setattr__(self, "game_map", game_map)
        object.__setattr__(self, "position", position)
        object.__setattr__(self, "orders", orders)
        object.__setattr__(self, "options", options)


_UNIT_RE = re.compile(r"^\s*([AaFf])\s+([^/()]+?)\s*(?:[/(]\s*([^)]+?)\s*\)?)?\s*$")


def _power(game_map: GameMap, name: Any, where: str) -> str:
    power = game_map.lookup_power(name) if isinstance(name, str) else None
    if power is None:
        known = ", ".join(game_map.powers)
        raise CaseError(where, f"unknown power {name!r} (known: {known})",
                        note("case_unknown_power", name=str(name), known=known))
    return power


def _province(game_map: GameMap, text: Any, where: str) -> str:
    province = game_map.lookup_place(text) if isinstance(text, str) else None
    if province is None:
        raise CaseError(where, f"unknown province {text!r}", note("why_unknown_province", name=str(text)))
    return province


def parse_unit(game_map: GameMap, power: str, text: Any, where: str) -> Unit:
    """Read a unit string such as ``A VIE``, ``F STP/SC`` or ``F stp(sc)``;
    raises ``CaseError`` when it is malformed or cannot stand there."""
    match = _UNIT_RE.match(text) if isinstance(text, str) else None
    if not match:
        raise CaseError(where, f"{text!r} is not a unit such as 'A VIE' or 'F STP/SC'", note("case_not_a_unit", text=str(text)))
    kind = UnitType(match.group(1).upper())
    province = _province(game_map, match.group(2), where)
    location = province
    if match.group(3):
        coast = game_map.lookup_coast(match.group(3))
        if coast is None:
            raise CaseError(where, f"unknown coast {match.group(3)!r} in {text!r}",
                            note("case_unknown_coast", coast=match.group(3), text=text))
        if kind is UnitType.FLEET:
            location = f"{province}/{coast}"
    if kind is UnitType.FLEET and location == province and len(game_map.fleet_locations(province)) > 1:
        coasts = game_map.fleet_locations(province)
        raise CaseError(where, f"{text!r} needs a coast ({' or '.join(coasts)})",
                        note("case_needs_coast", text=text, coasts=", ".join(coasts)))
    if not game_map.can_stand(kind, location):
        what = "an army" if kind is UnitType.ARMY else "a fleet"
        raise CaseError(where, f"{what} cannot stand in {location} ({text!r})",
                        note(f"case_{kind.name.lower()}_cannot_stand", location=location, text=text))
    return Unit(power, kind, location)


def _object(data: Any, key: str, where: str = "case") -> dict[str, Any]:
    value = data.get(key, {})
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise CaseError(f"{where}.{key}", "expected an object mapping powers to lists")
    return value


def _list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise CaseError(where, "expected a list")
    return value


def case_from_json(data: Any) -> Case:
    """Validate a decoded JSON case (see docs/cli.md) and build the position."""
    if not isinstance(data, dict):
        raise CaseError("case", "expected a JSON object")
    variant = data.get("variant", "standard")
    try:
        game_map = load_map(variant) if isinstance(variant, str) else None
    except MapError as error:
        raise CaseError("variant", str(error)) from None
    if game_map is None:
        raise CaseError("variant", f"expected a map name, got {variant!r}")
    if "phase" not in data:
        raise CaseError("phase", "missing (e.g. \"S1901M\")")
    try:
        phase = Phase.parse(data["phase"]) if isinstance(data["phase"], str) else Phase.parse(repr(data["phase"]))
    except ValueError as error:
        raise CaseError("phase", str(error)) from None
    problem = rules_for(game_map).phase_problem(phase)
    if problem is not None:
        raise CaseError("phase", problem)

    units: list[Unit] = []
    taken: dict[str, Unit] = {}
    if "units" not in data:
        data = {**data, "units": _units_json(game_map, initial_position(game_map).units)}
    for name, listed in _object(data, "units").items():
        power = _power(game_map, name, "units")
        for index, text in enumerate(_list(listed, f"units.{name}")):
            unit = parse_unit(game_map, power, text, f"units.{name}[{index}]")
            if unit.province in taken:
                held = str(taken[unit.province])
                raise CaseError(f"units.{name}[{index}]", f"{unit.province} already holds {held}",
                                note("case_already_holds", province=unit.province, unit=held))
            taken[unit.province] = unit
            units.append(unit)

    if "centers" in data and data["centers"] is not None:
        centres: dict[str, str] = {}
        for name, listed in _object(data, "centers").items():
            power = _power(game_map, name, "centers")
            for index, text in enumerate(_list(listed, f"centers.{name}")):
                province = _province(game_map, text, f"centers.{name}[{index}]")
                if not game_map.provinces[province].centre:
                    raise CaseError(f"centers.{name}[{index}]", f"{province} is not a supply centre",
                                    note("case_not_centre", province=province))
                if province in centres and centres[province] != power:
                    raise CaseError(f"centers.{name}[{index}]", f"{province} is also owned by {centres[province]}",
                                    note("case_centre_owned", province=province, owner=centres[province]))
                centres[province] = power
    else:
        centres = game_map.initial_centres()

    standoffs = frozenset(
        _province(game_map, text, f"standoffs[{i}]") for i, text in enumerate(_list(data.get("standoffs", []), "standoffs"))
    )
    dislodged = _dislodged(game_map, data, phase, units, standoffs)

    orders: dict[str, list[str]] = {}
    for name, listed in _object(data, "orders").items():
        power = _power(game_map, name, "orders")
        texts = [listed] if isinstance(listed, str) else _list(listed, f"orders.{name}")
        if not all(isinstance(t, str) for t in texts):
            raise CaseError(f"orders.{name}", "expected a list of order strings")
        orders.setdefault(power, []).extend(texts)
    options = _options(game_map, data)
    confessions = _confessions(game_map, data, options)
    incapacitated = _incapacitated(game_map, data, units)
    quiet = data.get("quiet_years", 0)
    if not isinstance(quiet, int) or isinstance(quiet, bool) or quiet < 0:
        raise CaseError("quiet_years", f"expected a whole number of years, got {quiet!r}")
    position = Position(
        phase, tuple(units), centres, dislodged, standoffs, confessions, incapacitated, quiet
    )
    return Case(game_map, position, orders, options)


_CONFESSION_STATES = tuple(state for c in CONFESSIONS for state in (c, f"ex-{c}"))


def _options(game_map: GameMap, data: Mapping[str, Any]) -> dict[str, Any]:
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise CaseError("options", "expected an object")
    problem = rules_for(game_map).option_problem(options)
    if problem is not None:
        raise CaseError("options", problem, option_note(problem))
    return dict(options)


def _confessions(game_map: GameMap, data: Mapping[str, Any], options: Mapping[str, Any]) -> dict[str, Confession]:
    initial = rules_for(game_map).initial_confessions(game_map, options)
    given = data.get("confessions")
    if given is None:
        return initial
    if not initial:
        raise CaseError("confessions", f"the {game_map.name} variant has no confessions",
                        note("case_no_confessions", variant=game_map.name))
    if not isinstance(given, dict):
        raise CaseError("confessions", "expected an object mapping powers to {\"state\", \"until\"}")
    confessions = dict(initial)
    for name, entry in given.items():
        power = _power(game_map, name, "confessions")
        where = f"confessions.{name}"
        if not isinstance(entry, dict) or entry.get("state") not in _CONFESSION_STATES:
            raise CaseError(where, f"expected {{\"state\": one of {', '.join(_CONFESSION_STATES)}, \"until\": year}}")
        until = entry.get("until")
        if entry["state"].startswith("ex-") != isinstance(until, int):
            raise CaseError(f"{where}.until", "an ex-state needs the year it ends, a settled confession none",
                            note("case_ex_needs_year"))
        confessions[power] = Confession(entry["state"], until)
    return confessions


def _incapacitated(game_map: GameMap, data: Mapping[str, Any], units: list[Unit]) -> frozenset[str]:
    provinces = set()
    for index, text in enumerate(_list(data.get("incapacitated", []), "incapacitated")):
        where = f"incapacitated[{index}]"
        wanted = parse_unit(game_map, "", text, where)
        if not any(u.province == wanted.province and u.kind is wanted.kind for u in units):
            raise CaseError(where, f"{text!r} is not a unit on the board", note("case_not_on_board", text=str(text)))
        provinces.add(wanted.province)
    return frozenset(provinces)


def _dislodged(
    game_map: GameMap, data: Mapping[str, Any], phase: Phase, units: list[Unit], standoffs: frozenset[str]
) -> tuple[DislodgedUnit, ...]:
    entries = _object(data, "dislodged")
    if entries and phase.kind is not PhaseKind.RETREAT:
        raise CaseError("dislodged", f"only a retreat phase has dislodged units, not {phase}")
    board = Board(game_map, rules_for(game_map), units)
    occupied = {u.province for u in units}
    result: list[DislodgedUnit] = []
    for name, listed in entries.items():
        power = _power(game_map, name, "dislodged")
        for index, entry in enumerate(_list(listed, f"dislodged.{name}")):
            where = f"dislodged.{name}[{index}]"
            if not isinstance(entry, dict) or "unit" not in entry:
                raise CaseError(where, "expected {\"unit\": ..., \"attacker_from\": ...}")
            unit = parse_unit(game_map, power, entry["unit"], f"{where}.unit")
            attacker = entry.get("attacker_from")
            attacker = _province(game_map, attacker, f"{where}.attacker_from") if attacker is not None else None
            by_convoy = bool(entry.get("by_convoy", False))
            if "retreats" in entry and entry["retreats"] is not None:
                retreats = []
                for i, text in enumerate(_list(entry["retreats"], f"{where}.retreats")):
                    target = parse_unit(game_map, power, f"{unit.kind.value} {text}", f"{where}.retreats[{i}]")
                    retreats.append(target.location)
                options = tuple(retreats)
            else:
                if attacker is None:
                    raise CaseError(where, "give attacker_from or retreats")
                from adjudicator.games.diplomacy.core.movement import retreat_options

                options = retreat_options(board, unit, attacker, by_convoy, occupied, standoffs)
            result.append(DislodgedUnit(unit, attacker, by_convoy, options))
    return tuple(result)


def _units_json(game_map: GameMap, units: tuple[Unit, ...]) -> dict[str, list[str]]:
    grouped: dict[str, list[str]] = {}
    for power in game_map.powers:
        mine = [str(u) for u in units if u.power == power]
        if mine:
            grouped[power] = mine
    return grouped


def result_to_json(game_map: GameMap, result: PhaseResult) -> dict[str, Any]:
    """The output object of the contract for one resolved phase."""
    dislodged: dict[str, list[dict[str, Any]]] = {}
    for entry in result.dislodged:
        item: dict[str, Any] = {
            "unit": str(entry.unit),
            "attacker_from": entry.attacker_from,
            "retreats": list(entry.retreats),
        }
        if entry.by_convoy:
            item["by_convoy"] = True
        dislodged.setdefault(entry.unit.power, []).append(item)
    centres: dict[str, list[str]] = {}
    for power in game_map.powers:
        owned = result.position.centres_of(power)
        if owned:
            centres[power] = list(owned)
    return {
        "phase": str(result.phase),
        "next_phase": None if result.next_phase is None else str(result.next_phase),
        "orders": [
            {
                "power": r.power,
                "text": r.text,
                "order": r.order,
                "valid": r.valid,
                "result": r.result,
                "reason": r.reason,
            }
            for r in result.reports
        ],
        "units": _units_json(game_map, result.position.units),
        "dislodged": dislodged,
        "standoffs": sorted(result.standoffs),
        "centers": centres,
        "winner": result.winner,
        "eliminated": list(result.eliminated),
        "draw": result.draw,
        "confessions": {
            power: {"state": c.state, "until": c.until} for power, c in result.position.confessions.items()
        },
        "incapacitated": sorted(str(u) for u in result.position.units if u.province in result.position.incapacitated),
        "religious_warfare": [
            {"unit": str(e.unit), "power": e.unit.power, "outcome": e.outcome, **({"to": e.to} if e.to else {})}
            for e in result.events
        ],
        "quiet_years": result.position.quiet_years,
    }


def run_case(data: Any) -> dict[str, Any]:
    """Validate and adjudicate one decoded JSON case; the output object."""
    from adjudicator.games.diplomacy.core.engine import adjudicate

    case = case_from_json(data)
    result = adjudicate(case.game_map, case.position, case.orders, case.options)
    return result_to_json(case.game_map, result)

