"""Maps as data: loading ``maps/<name>.toml`` into an immutable ``GameMap``.

The file format is documented in ``docs/map-format.md``.  Loading checks
the structure (unknown keys, unknown provinces, bad terrain) and raises
``MapError`` naming the offending key; consistency checks that need the
whole map (symmetric adjacency, counts) live in ``check_map``.
"""

from __future__ import annotations

import re
import tomllib
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any, Iterable, Mapping

from adjudicator.games.diplomacy.core.model import ARMY, Location, Unit, UnitType, coast_of, province_of
from adjudicator.records import Record
from adjudicator.resources import map_path
from adjudicator.usercache import load_toml

TERRAINS = ("land", "coast", "sea")
BANKS = ("left", "right", "both")

_set = object.__setattr__


class MapError(ValueError):
    """A map file that cannot be loaded; the message names file and key."""


_UMLAUTS = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue"})
_SEPARATORS = re.compile(r"[\s\-\u2011_]+")


def normalise_name(text: str) -> str:
    """Fold a place or power name for lookup.

    Case, dots, apostrophes, hyphens, repeated blanks and German umlaut
    spellings (``ü``/``ue``) are ignored, so ``St. Petersburg``,
    ``st petersburg`` and ``ST-PETERSBURG`` fold to the same key.
    """
    folded = text.casefold().translate(_UMLAUTS).replace(".", " ").replace("'", "")
    return _SEPARATORS.sub(" ", folded).strip()


class Province(Record):
    """One province of a map; ``fleet`` maps each fleet location of the
    province (``"STP/NC"``, or the bare key for a single coast or a sea)
    to the locations a fleet there can move to."""

    __slots__ = ("key", "name", "name_de", "aliases", "terrain", "centre", "home", "army", "fleet", "seat")
    key: str
    name: str
    name_de: str | None
    aliases: tuple[str, ...]
    terrain: str
    centre: bool
    home: str | None
    army: frozenset[str]
    fleet: Mapping[Location, frozenset[Location]]
    seat: tuple[float, float] | None

    def __init__(self, key: str, name: str, name_de: str | None, aliases: tuple[str, ...], terrain: str, centre: bool,
                 home: str | None, army: frozenset[str], fleet: Mapping[Location, frozenset[Location]],
                 seat: tuple[float, float] | None) -> None:
        _set(self, "key", key)
        _set(self, "name", name)
        _set(self, "name_de", name_de)
        _set(self, "aliases", aliases)
        _set(self, "terrain", terrain)
        _set(self, "centre", centre)
        _set(self, "home", home)
        _set(self, "army", army)
        _set(self, "fleet", fleet)
        _set(self, "seat", seat)

    @property
    def coasts(self) -> tuple[str, ...]:
        """The coast codes of a split-coast province (empty otherwise)."""
        return tuple(c for loc in self.fleet if (c := coast_of(loc)) is not None)


class Power(Record):
    """A power with its names, home centres and start units."""

    __slots__ = ("name", "name_de", "adjective", "aliases", "home_centres", "start_units", "confession")
    name: str
    name_de: str | None
    adjective: str | None
    aliases: tuple[str, ...]
    home_centres: tuple[str, ...]
    start_units: tuple[Unit, ...]
    confession: str | None

    def __init__(self, name: str, name_de: str | None, adjective: str | None, aliases: tuple[str, ...],
                 home_centres: tuple[str, ...], start_units: tuple[Unit, ...], confession: str | None = None) -> None:
        _set(self, "name", name)
        _set(self, "name_de", name_de)
        _set(self, "adjective", adjective)
        _set(self, "aliases", aliases)
        _set(self, "home_centres", home_centres)
        _set(self, "start_units", start_units)
        _set(self, "confession", confession)


class River(Record):
    """A navigable river: provinces in downstream order with their bank, and
    where it ends: a ``mouth`` province, or the river it ``joins``."""

    __slots__ = ("name", "mouth", "joins", "course")
    name: str
    mouth: str | None
    joins: str | None
    course: tuple[tuple[str, str], ...]

    def __init__(self, name: str, mouth: str | None, joins: str | None, course: tuple[tuple[str, str], ...]) -> None:
        _set(self, "name", name)
        _set(self, "mouth", mouth)
        _set(self, "joins", joins)
        _set(self, "course", course)

    @property
    def provinces(self) -> tuple[str, ...]:
        """The provinces along the river, upstream first."""
        return tuple(province for province, _ in self.course)


class GameMap(Record):
    """A whole map: provinces, powers, coasts, rivers and name lookup tables.

    Compared and hashed by identity: each map is loaded once per process.
    """

    __slots__ = ("name", "title", "start_year", "victory_centres", "rules", "expected_centres", "provinces", "powers",
                 "coast_names", "rivers", "place_index", "coast_index", "power_index", "__weakref__")
    _fields = __slots__[:-1]
    name: str
    title: str
    start_year: int
    victory_centres: int
    rules: str
    expected_centres: int | None
    provinces: Mapping[str, Province]
    powers: Mapping[str, Power]
    coast_names: Mapping[str, str]
    rivers: tuple[River, ...]
    place_index: Mapping[str, str]
    coast_index: Mapping[str, str]
    power_index: Mapping[str, str]

    def __init__(self, name: str, title: str, start_year: int, victory_centres: int, rules: str,
                 expected_centres: int | None, provinces: Mapping[str, Province], powers: Mapping[str, Power],
                 coast_names: Mapping[str, str], rivers: tuple[River, ...], place_index: Mapping[str, str],
                 coast_index: Mapping[str, str], power_index: Mapping[str, str]) -> None:
        _set(self, "name", name)
        _set(self, "title", title)
        _set(self, "start_year", start_year)
        _set(self, "victory_centres", victory_centres)
        _set(self, "rules", rules)
        _set(self, "expected_centres", expected_centres)
        _set(self, "provinces", provinces)
        _set(self, "powers", powers)
        _set(self, "coast_names", coast_names)
        _set(self, "rivers", rivers)
        _set(self, "place_index", place_index)
        _set(self, "coast_index", coast_index)
        _set(self, "power_index", power_index)

    __eq__ = object.__eq__  # by identity, as the dataclass with ``eq=False``
    __hash__ = object.__hash__

    # --- geometry ---------------------------------------------------------

    def army_can_move(self, origin: str, destination: str) -> bool:
        """True when an army may move from province ``origin`` to ``destination``."""
        return province_of(destination) in self.provinces[province_of(origin)].army

    def fleet_targets(self, location: Location) -> frozenset[Location]:
        """Locations a fleet on ``location`` can move to (empty if none)."""
        province = self.provinces.get(province_of(location))
        if province is None:
            return frozenset()
        return province.fleet.get(location, frozenset())

    def fleet_can_move(self, origin: Location, destination: Location) -> bool:
        """True when a fleet on ``origin`` may move to location ``destination``."""
        return destination in self.fleet_targets(origin)

    def fleet_reaches_province(self, origin: Location, province: str) -> bool:
        """True when a fleet on ``origin`` can move to some coast of ``province``."""
        return province in self.fleet_reach(origin)

    def fleet_reach(self, location: Location) -> frozenset[str]:
        """The provinces a fleet on ``location`` can move to (coasts dropped; empty if none)."""
        return fleet_reach_table(self).get(location, frozenset())

    def can_reach(self, kind: UnitType, origin: Location, province: str) -> bool:
        """True when a unit of ``kind`` on ``origin`` borders ``province`` (coasts ignored)."""
        if kind is ARMY:
            return province in self.provinces[province_of(origin)].army
        return province in fleet_reach_table(self).get(origin, ())

    def fleet_locations(self, province: str) -> tuple[Location, ...]:
        """The locations a fleet can occupy in ``province`` (none for inland)."""
        return _fleet_locations(self)[province]

    def fleet_moves_into(self, origin: Location, province: str) -> tuple[Location, ...]:
        """The locations of ``province`` a fleet on ``origin`` can move to,
        in the order of ``fleet_locations`` (empty if none)."""
        return fleet_moves_into_table(self).get(origin, {}).get(province, ())

    def can_stand(self, kind: UnitType, location: Location) -> bool:
        """True when a unit of ``kind`` can stand on ``location``."""
        province = self.provinces.get(province_of(location))
        if province is None:
            return False
        if kind is ARMY:
            return province.terrain != "sea" and coast_of(location) is None
        return location in province.fleet

    def home_centres(self, power: str) -> tuple[str, ...]:
        """The home supply centres of ``power``."""
        return self.powers[power].home_centres

    def initial_centres(self) -> dict[str, str]:
        """Supply-centre ownership at the start: every home centre to its power."""
        return {c: p.name for p in self.powers.values() for c in p.home_centres}

    @property
    def supply_centres(self) -> tuple[str, ...]:
        """All supply-centre provinces, sorted."""
        return tuple(sorted(k for k, p in self.provinces.items() if p.centre))

    # --- names ------------------------------------------------------------

    def lookup_place(self, text: str) -> str | None:
        """The province key for a written name or abbreviation, or ``None``."""
        return self.place_index.get(normalise_name(text))

    def lookup_coast(self, text: str) -> str | None:
        """The coast code for a written coast (``nc``, ``north coast``), or ``None``."""
        return self.coast_index.get(normalise_name(text))

    def lookup_power(self, text: str) -> str | None:
        """The canonical power name for a written power name, alias or adjective."""
        return self.power_index.get(normalise_name(text))

    def hyphenated_words(self) -> tuple[str, ...]:
        """Written name parts that contain a hyphen (``Mid-Atlantic``), longest first."""
        return _hyphenated_words(self)


@cache
def fleet_reach_table(game_map: GameMap) -> dict[Location, frozenset[str]]:
    """Fleet location -> the provinces a fleet there can move to (coasts
    dropped), worked out once per map; ``GameMap.fleet_reach`` reads it."""
    return {
        location: frozenset(province_of(t) for t in targets)
        for province in game_map.provinces.values()
        for location, targets in province.fleet.items()
    }


@cache
def _fleet_locations(game_map: GameMap) -> dict[str, tuple[Location, ...]]:
    return {key: tuple(province.fleet) for key, province in game_map.provinces.items()}


@cache
def fleet_moves_into_table(game_map: GameMap) -> dict[Location, dict[str, tuple[Location, ...]]]:
    """Fleet location -> province -> the locations of that province a fleet
    there can move to (``GameMap.fleet_moves_into`` reads it)."""
    table: dict[Location, dict[str, tuple[Location, ...]]] = {}
    for province in game_map.provinces.values():
        for location, targets in province.fleet.items():
            table[location] = {
                key: tuple(loc for loc in game_map.provinces[key].fleet if loc in targets)
                for key in dict.fromkeys(province_of(t) for t in targets)
            }
    return table


@cache
def _hyphenated_words(game_map: GameMap) -> tuple[str, ...]:
    words: set[str] = set()
    for province in game_map.provinces.values():
        for name in (province.name, province.name_de or "", *province.aliases):
            words.update(w for w in name.split() if "-" in w.strip("-"))
    return tuple(sorted(words, key=len, reverse=True))


# --- loading ------------------------------------------------------------------


def _strict_keys(table: Mapping[str, Any], allowed: Iterable[str], where: str) -> None:
    unknown = sorted(set(table) - set(allowed))
    if unknown:
        raise MapError(f"{where}: unknown key(s) {', '.join(unknown)}")


def _require(table: Mapping[str, Any], key: str, kind: type, where: str) -> Any:
    if key not in table:
        raise MapError(f"{where}: missing key {key!r}")
    value = table[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise MapError(f"{where}.{key}: expected {kind.__name__}, got {type(value).__name__}")
    return value


def _string_list(table: Mapping[str, Any], key: str, where: str) -> tuple[str, ...]:
    value = table.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise MapError(f"{where}.{key}: expected a list of strings")
    return tuple(value)


_PROVINCE_KEYS = ("name", "name_de", "aliases", "terrain", "centre", "home", "army", "fleet", "coasts", "seat")
_POWER_KEYS = ("name_de", "adjective", "aliases", "start_units", "confession")


def _load_province(key: str, table: Mapping[str, Any], where: str) -> dict[str, Any]:
    _strict_keys(table, _PROVINCE_KEYS, where)
    terrain = _require(table, "terrain", str, where)
    if terrain not in TERRAINS:
        raise MapError(f"{where}.terrain: {terrain!r} is not one of {', '.join(TERRAINS)}")
    fleet: dict[str, tuple[str, ...]] = {}
    coasts = table.get("coasts", {})
    if coasts:
        if "fleet" in table:
            raise MapError(f"{where}: a split-coast province lists fleet neighbours per coast, not 'fleet'")
        for code, coast_table in coasts.items():
            _strict_keys(coast_table, ("fleet",), f"{where}.coasts.{code}")
            fleet[f"{key}/{code}"] = _string_list(coast_table, "fleet", f"{where}.coasts.{code}")
    elif "fleet" in table:
        fleet[key] = _string_list(table, "fleet", where)
    if terrain == "sea" and "army" in table:
        raise MapError(f"{where}: a sea province has no army neighbours")
    seat = table.get("seat")
    if seat is not None and (len(seat) != 2 or not all(isinstance(v, (int, float)) for v in seat)):
        raise MapError(f"{where}.seat: expected [latitude, longitude]")
    return {
        "key": key,
        "name": _require(table, "name", str, where),
        "name_de": table.get("name_de"),
        "aliases": _string_list(table, "aliases", where),
        "terrain": terrain,
        "centre": bool(table.get("centre", False)),
        "home": table.get("home"),
        "army": _string_list(table, "army", where),
        "fleet": fleet,
        "seat": tuple(seat) if seat is not None else None,
    }


def _parse_unit(text: str, power: str, where: str) -> Unit:
    parts = text.split()
    if len(parts) != 2 or parts[0] not in ("A", "F"):
        raise MapError(f"{where}: start unit {text!r} is not of the form 'A VIE' or 'F STP/SC'")
    return Unit(power, UnitType(parts[0]), parts[1])


def load_map_file(path: Path) -> GameMap:
    """Load a map file; raises ``MapError`` naming the file and key on any defect."""
    where = path.name
    try:
        data = load_toml(path)  # the file's tables, from the judge's cache after the first time (issue 20)
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise MapError(f"{where}: {error}") from error
    return build_map(data, where)


def build_map(data: Mapping[str, Any], where: str = "map") -> GameMap:
    """Build a ``GameMap`` from the parsed TOML tables of a map file."""
    _strict_keys(data, ("format", "variant", "coasts", "powers", "provinces", "rivers"), where)
    if data.get("format") != 1:
        raise MapError(f"{where}.format: expected 1")
    variant = _require(data, "variant", dict, where)
    _strict_keys(
        variant, ("name", "title", "start_year", "victory_centres", "rules", "supply_centres"), f"{where}.variant"
    )

    raw_provinces = {
        key: _load_province(key, table, f"{where}.provinces.{key}")
        for key, table in _require(data, "provinces", dict, where).items()
    }
    known_locations = {key for key in raw_provinces} | {
        loc for p in raw_provinces.values() for loc in p["fleet"]
    }
    for key, raw in raw_provinces.items():
        for neighbour in raw["army"]:
            if neighbour not in raw_provinces:
                raise MapError(f"{where}.provinces.{key}.army: unknown province {neighbour!r}")
        for loc, targets in raw["fleet"].items():
            for target in targets:
                if target not in known_locations:
                    raise MapError(f"{where}.provinces.{key}: fleet neighbour {target!r} is not a location")

    coast_names: dict[str, str] = {}
    coast_index: dict[str, str] = {}
    for code, table in data.get("coasts", {}).items():
        _strict_keys(table, ("name", "aliases"), f"{where}.coasts.{code}")
        coast_names[code] = _require(table, "name", str, f"{where}.coasts.{code}")
        for alias in (code, coast_names[code], *_string_list(table, "aliases", f"{where}.coasts.{code}")):
            coast_index[normalise_name(alias)] = code

    powers: dict[str, Power] = {}
    power_index: dict[str, str] = {}
    for name, table in _require(data, "powers", dict, where).items():
        pw = f"{where}.powers.{name}"
        _strict_keys(table, _POWER_KEYS, pw)
        homes = tuple(sorted(k for k, p in raw_provinces.items() if p["home"] == name))
        units = tuple(_parse_unit(u, name, pw) for u in _string_list(table, "start_units", pw))
        powers[name] = Power(
            name,
            table.get("name_de"),
            table.get("adjective"),
            _string_list(table, "aliases", pw),
            homes,
            units,
            table.get("confession"),
        )
        for alias in (name, table.get("name_de") or name, table.get("adjective") or name, *powers[name].aliases):
            power_index[normalise_name(alias)] = name

    provinces: dict[str, Province] = {}
    place_index: dict[str, str] = {}
    for key, raw in raw_provinces.items():
        if raw["home"] is not None and raw["home"] not in powers:
            raise MapError(f"{where}.provinces.{key}.home: unknown power {raw['home']!r}")
        provinces[key] = Province(
            key=key,
            name=raw["name"],
            name_de=raw["name_de"],
            aliases=raw["aliases"],
            terrain=raw["terrain"],
            centre=raw["centre"],
            home=raw["home"],
            army=frozenset(raw["army"]),
            fleet=MappingProxyType({loc: frozenset(t) for loc, t in raw["fleet"].items()}),
            seat=raw["seat"],
        )
        for alias in (key, raw["name"], raw["name_de"] or key, *raw["aliases"]):
            folded = normalise_name(alias)
            if place_index.get(folded, key) != key:
                raise MapError(f"{where}.provinces.{key}: name {alias!r} is also used by {place_index[folded]}")
            place_index[folded] = key

    rivers = []
    for index, table in enumerate(data.get("rivers", [])):
        rw = f"{where}.rivers[{index}]"
        _strict_keys(table, ("name", "mouth", "joins", "course"), rw)
        course = tuple((str(p), str(b)) for p, b in _require(table, "course", list, rw))
        for province, bank in course:
            if province not in provinces:
                raise MapError(f"{rw}.course: unknown province {province!r}")
            if bank not in BANKS:
                raise MapError(f"{rw}.course: bank {bank!r} of {province} is not one of {', '.join(BANKS)}")
        mouth, joins = table.get("mouth"), table.get("joins")
        if (mouth is None) == (joins is None):
            raise MapError(f"{rw}: give exactly one of 'mouth' (a province) and 'joins' (a river)")
        if mouth is not None and mouth not in provinces:
            raise MapError(f"{rw}.mouth: unknown province {mouth!r}")
        rivers.append(River(_require(table, "name", str, rw), mouth, joins, course))
    river_names = {r.name for r in rivers}
    for index, river in enumerate(rivers):
        if river.joins is not None and river.joins not in river_names:
            raise MapError(f"{where}.rivers[{index}].joins: unknown river {river.joins!r}")

    return GameMap(
        name=_require(variant, "name", str, f"{where}.variant"),
        title=_require(variant, "title", str, f"{where}.variant"),
        start_year=_require(variant, "start_year", int, f"{where}.variant"),
        victory_centres=_require(variant, "victory_centres", int, f"{where}.variant"),
        rules=variant.get("rules", "standard"),
        expected_centres=variant.get("supply_centres"),
        provinces=MappingProxyType(provinces),
        powers=MappingProxyType(powers),
        coast_names=MappingProxyType(coast_names),
        rivers=tuple(rivers),
        place_index=MappingProxyType(place_index),
        coast_index=MappingProxyType(coast_index),
        power_index=MappingProxyType(power_index),
    )


@cache
def load_map(name: str) -> GameMap:
    """Load the map ``maps/<name>.toml`` once per process (``MapError`` if absent or broken)."""
    if not re.fullmatch(r"[A-Za-z0-9_\-]+", name):
        raise MapError(f"not a map name: {name!r}")
    path = map_path(name)
    if not path.is_file():
        raise MapError(f"unknown variant {name!r}: no map file {path.name}")
    return load_map_file(path)


def check_map(game_map: GameMap) -> list[str]:
    """Every consistency problem of a loaded map, as readable sentences.

    Checks symmetric army and fleet adjacency, terrain of neighbours and of
    start units, home centres being supply centres, and a reachable victory
    threshold.  An empty list means the map is consistent.
    """
    problems: list[str] = []
    provinces = game_map.provinces
    for key, province in provinces.items():
        for neighbour in sorted(province.army):
            if key not in provinces[neighbour].army:
                problems.append(f"army adjacency {key} -> {neighbour} is not listed back")
            if province.terrain == "sea" or provinces[neighbour].terrain == "sea":
                problems.append(f"army adjacency {key} -> {neighbour} touches a sea")
        if province.terrain == "land" and province.fleet:
            problems.append(f"{key} is inland but lists fleet neighbours")
        if province.terrain != "land" and not any(province.fleet.values()):
            problems.append(f"{key} is {province.terrain} but has no fleet neighbours")
        for location, targets in province.fleet.items():
            for target in sorted(targets):
                if location not in game_map.fleet_targets(target):
                    problems.append(f"fleet adjacency {location} -> {target} is not listed back")
        if province.home is not None and not province.centre:
            problems.append(f"{key} is a home centre of {province.home} but not a supply centre")
    standing: dict[str, str] = {}
    for power in game_map.powers.values():
        if not power.home_centres:
            problems.append(f"{power.name} has no home centre")
        for unit in power.start_units:
            if unit.province not in game_map.provinces:
                problems.append(f"start unit {unit} of {power.name}: unknown province {unit.province}")
            elif not game_map.can_stand(unit.kind, unit.location):
                problems.append(f"start unit {unit} of {power.name} cannot stand there")
            elif unit.province not in power.home_centres:
                problems.append(f"start unit {unit} of {power.name} is not on one of its home centres")
            if unit.province in standing:
                problems.append(f"start units of {standing[unit.province]} and {power.name} share {unit.province}")
            standing[unit.province] = power.name
    problems.extend(_river_problems(game_map))
    problems.extend(_alias_problems(game_map))
    centres = len(game_map.supply_centres)
    if game_map.expected_centres is not None and centres != game_map.expected_centres:
        problems.append(f"{centres} supply centres, but the variant declares {game_map.expected_centres}")
    if not 0 < game_map.victory_centres <= centres:
        problems.append(f"victory threshold {game_map.victory_centres} is not within 1..{centres} centres")
    return problems


_ORDER_WORDS = frozenset((
    "a", "f", "h", "s", "c", "d", "r", "t", "u", "k", "to", "nach", "via", "per", "by", "army", "fleet", "armee",
    "flotte", "hold", "holds", "support", "supports", "convoy", "convoys", "disband", "build", "remove", "waive",
    "retreat", "retreats", "zieht", "baue", "bau", "hält",
))
"""Words the order grammar reads as keywords: a place or power called so
could never be written."""


def _alias_problems(game_map: GameMap) -> list[str]:
    """Names that collide: a power name or alias shared by two powers (the
    later one would win silently), and place or power names that the order
    grammar reads as keywords.  (Two provinces sharing a name already stop
    the map from loading.)"""
    problems = []
    owner: dict[str, str] = {}
    for power in game_map.powers.values():
        for name in dict.fromkeys((power.name, power.name_de or power.name, power.adjective or power.name,
                                   *power.aliases)):
            folded = normalise_name(name)
            if owner.get(folded, power.name) != power.name:
                problems.append(f"power name {name!r} of {power.name} is also a name of {owner[folded]}")
            owner.setdefault(folded, power.name)
            if folded in _ORDER_WORDS:
                problems.append(f"power name {name!r} of {power.name} is an order keyword")
    for folded, key in game_map.place_index.items():
        if folded in _ORDER_WORDS:
            problems.append(f"place name {folded!r} of {key} is an order keyword")
    return problems


def _river_problems(game_map: GameMap) -> list[str]:
    """Rivers must run through fleet-navigable provinces that join up."""
    problems = []
    rivers = {r.name: r for r in game_map.rivers}
    for river in game_map.rivers:
        course = river.provinces
        for province in course:
            if not game_map.provinces[province].fleet:
                problems.append(f"river {river.name}: {province} lies on the river but is not on a coast")
        for upper, lower in zip(course, course[1:]):
            if not _fleet_joins(game_map, upper, lower):
                problems.append(f"river {river.name}: no fleet move from {upper} down to {lower}")
        if river.mouth is not None and course and not _fleet_joins(game_map, course[-1], river.mouth):
            problems.append(f"river {river.name}: no fleet move from {course[-1]} into its mouth {river.mouth}")
        joined = rivers.get(river.joins or "")
        if joined is not None and course and course[-1] not in joined.provinces:
            problems.append(f"river {river.name}: its last province {course[-1]} is not on the {joined.name}")
    return problems


def _fleet_joins(game_map: GameMap, origin: str, destination: str) -> bool:
    return any(
        province_of(target) == destination
        for location in game_map.fleet_locations(origin)
        for target in game_map.fleet_targets(location)
    )
