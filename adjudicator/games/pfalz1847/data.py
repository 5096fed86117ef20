"""The game data of 1847 AE: the tables of ``cards/1847ae.toml`` read into
immutable values, overridable table by table by a GM's data files.

Every table can be replaced by a TOML text in the same format (option
``data.<table>``); the older stand-in tile list (option ``data=standin``)
stays for the games started with it.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from typing import Any, Mapping

from adjudicator.games.base import Finding, toml_syntax_finding
from adjudicator.resources import card_path

TABLES = ("bank", "market", "trains", "phases", "privates", "companies", "bonuses", "map", "tile_shapes", "tiles")


class DataError(ValueError):
    """A data table that cannot be used; the message names the table and
    field; ``key`` (with ``fields``), ``card`` and ``field`` say the same
    for the catalogue (``finding``)."""

    def __init__(self, text: str, key: str = "", card: str = "", field: str = "", **fields: Any) -> None:
        super().__init__(text)
        self.key, self.card, self.field = key, card, field
        self.fields = tuple((k, str(v)) for k, v in fields.items())

    def finding(self, text: str) -> str | Finding:
        """The problem as a ``Finding`` with the English ``text`` (a plain
        text when it has no catalogue key)."""
        return Finding(text, self.key, self.fields, 0, self.card, self.field) if self.key else text


@dataclass(frozen=True)
class Node:
    """A city, town or off-board stop of a hex or tile."""

    kind: str          # city, town, offboard
    revenue: int
    slots: int = 1


@dataclass(frozen=True)
class Shape:
    """Track of a tile or a printed hex: nodes and paths; an endpoint is a
    side 0-5 or a node ``_0``/``_1``."""

    colour: str
    nodes: tuple[Node, ...]
    paths: tuple[tuple[str, str], ...]
    label: str = ""
    upgrades_to: tuple[str, ...] = ()


@dataclass(frozen=True)
class Hex:
    """One hex of the board as printed."""

    at: str
    colour: str
    shape: Shape
    states: str = ""
    terrain: str = ""
    cost: int = 0
    borders: tuple[int, ...] = ()
    name: str = ""
    offboard: tuple[int, int, int] = (0, 0, 0)


@dataclass(frozen=True)
class Train:
    name: str
    kind: str
    length: int
    price: int
    count: int
    rusts_on: str = ""


@dataclass(frozen=True)
class Phase:
    name: str
    colours: tuple[str, ...]
    ors: int
    limit: int
    flags: tuple[str, ...]


@dataclass(frozen=True)
class Private:
    id: str
    name: str
    kind: str
    price: int
    income: int
    shares: tuple[tuple[str, int, bool], ...]
    sale: tuple[int, int] = (0, 0)
    ability: str = ""
    closes_in: str = ""
    exchange: str = ""
    income_after_e9: int = 0


@dataclass(frozen=True)
class Company:
    id: str
    name: str
    home: tuple[str, ...]
    par: int
    certificates: tuple[int, ...]
    investor: int
    stations: tuple[int, ...]
    state: str
    after: str
    float_percent: int


@dataclass(frozen=True, eq=False)
class GameData:
    """Every table the rules need, read and checked."""

    bank_cash: int
    start_cash: Mapping[int, int]
    cert_limit: Mapping[int, int]
    market_limit: int
    market: tuple[tuple[str, ...], ...]
    trains: tuple[Train, ...]
    phases: tuple[Phase, ...]
    privates: tuple[Private, ...]
    companies: tuple[Company, ...]
    bonus_ab: int
    bonus_coal: int
    a_hexes: frozenset[str]
    b_hexes: frozenset[str]
    z_hexes: frozenset[str]
    coal_hexes: frozenset[str]
    hexes: Mapping[str, Hex]
    shapes: Mapping[str, Shape]
    tile_counts: Mapping[str, int]
    standin: bool
    sources: Mapping[str, str]
    tile_upgrades: Mapping[str, tuple[str, ...]] | None = None

    def upgrade_allowed(self, old: str, new: str) -> bool:
        """Whether a laid tile ``old`` may be replaced by ``new`` by the
        table of upgrades (no table: only the standard geometric rule)."""
        return self.tile_upgrades is None or new in self.tile_upgrades.get(old, ())

    def company(self, cid: str) -> Company:
        """The company ``cid`` (KeyError if none)."""
        return next(c for c in self.companies if c.id == cid)

    def private(self, pid: str) -> Private:
        """The private ``pid``."""
        return next(p for p in self.privates if p.id == pid)

    def train(self, name: str) -> Train:
        """The train type ``name``."""
        return next(t for t in self.trains if t.name == name)

    def phase(self, name: str) -> Phase:
        """The phase ``name``."""
        return next(p for p in self.phases if p.name == name)

    def price_at(self, cell: tuple[int, int]) -> int:
        """The share price of a market cell."""
        return int(self.market[cell[0]][cell[1]].rstrip("p"))

    def par_cell(self, price: int) -> tuple[int, int]:
        """The par cell with ``price``."""
        for r, row in enumerate(self.market):
            for c, code in enumerate(row):
                if code == f"{price}p":
                    return (r, c)
        raise DataError(f"market: no par space {price}", "p47_find_par", "market", "rows", value=price)


@cache
def base_text() -> str:
    """The text of ``cards/1847ae.toml``."""
    return card_path("1847ae").read_text(encoding="utf-8")


@cache
def standin_text() -> str:
    """The text of the stand-in data ``cards/1847ae_standin.toml``."""
    return card_path("1847ae_standin").read_text(encoding="utf-8")


def _node(text: str, where: str) -> Node:
    parts = text.split(":")
    if parts[0] not in ("city", "town") or len(parts) not in (2, 3) or not all(p.isdigit() for p in parts[1:]):
        raise DataError(f"{where}: node {text!r} is not city:REVENUE[:SLOTS] or town:REVENUE", "p47_find_node",
                        where, "nodes", value=repr(text))
    return Node(parts[0], int(parts[1]), int(parts[2]) if len(parts) == 3 else 1)


def _paths(items: Any, nodes: int, where: str) -> tuple[tuple[str, str], ...]:
    paths = []
    for item in items or ():
        a, _, b = str(item).partition("-")
        for end in (a, b):
            if not (end in {str(i) for i in range(6)} or (end.startswith("_") and end[1:].isdigit() and int(end[1:]) < nodes)):
                raise DataError(f"{where}: path {item!r} has an end that is neither a side 0-5 nor a node",
                                "p47_find_path", where, "paths", value=repr(item))
        paths.append((a, b))
    return tuple(paths)


def _shape(raw: Mapping[str, Any], where: str, offboard: bool = False) -> Shape:
    nodes = tuple(_node(n, where) for n in raw.get("nodes", ()))
    if offboard:
        nodes = (Node("offboard", 0),)
    return Shape(str(raw.get("colour", "white")), nodes, _paths(raw.get("paths"), len(nodes), where),
                 str(raw.get("label", "")), tuple(str(t) for t in raw.get("upgrades_to", ())))


def _int(raw: Mapping[str, Any], key: str, where: str) -> int:
    value = raw.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise DataError(f"{where}: {key} must be a whole number, not {value!r}", "r48_find_want_number", where, key,
                        value=repr(value))
    return value


def _tables(text: str, where: str) -> dict[str, Any]:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise DataError(f"{where}: not TOML ({error})") from None
    unknown = sorted(set(data) - set(TABLES))
    if unknown:
        raise DataError(f"{where}: unknown table(s) {', '.join(unknown)} (tables: {', '.join(TABLES)})",
                        "r48_find_no_table", ", ".join(f"[{u}]" for u in unknown), tables=", ".join(TABLES))
    return data


def merged_tables(overrides: Mapping[str, str], standin: bool) -> dict[str, Any]:
    """The base tables with the stand-in (if chosen) and each GM file laid
    over them: a file replaces the tables it contains."""
    tables = _tables(base_text(), "cards/1847ae.toml")
    if standin:
        tables.update(_tables(standin_text(), "cards/1847ae_standin.toml"))
    for name, text in sorted(overrides.items()):
        tables.update(_tables(text, f"data file {name}"))
    return tables


def game_data(overrides: Mapping[str, str] = {}, standin: bool = False) -> GameData:
    """The checked game data; raises ``DataError`` naming every table
    that is unknown or wrong."""
    return build(merged_tables(overrides, standin))


def build(t: Mapping[str, Any]) -> GameData:
    """``GameData`` from raw tables (see ``game_data``)."""
    missing = [name for name in TABLES if name not in t]
    if missing:
        raise DataError(f"missing table(s): {', '.join(missing)}", "data_find_no_table",
                        ", ".join(f"[{m}]" for m in missing))
    tiles = t["tiles"]
    if tiles.get("counts") == "unknown" or not isinstance(tiles.get("counts"), dict):
        raise DataError("tiles.counts is unknown: give the number of each tile (tile = count) in data file "
                        "'tiles' (see its template)", "p47_find_counts_unknown", "tiles", "counts")
    shapes = {str(k): _shape(v, f"tile_shapes.{k}") for k, v in t["tile_shapes"].items() if isinstance(v, dict)}
    counts: dict[str, int] = {}
    for tile, count in tiles["counts"].items():
        if str(tile) not in shapes:
            raise DataError(f"tiles.counts: tile {tile} has no shape in tile_shapes", "p47_find_no_shape", "tiles",
                            "counts", value=tile)
        if not isinstance(count, int) or count < 0:
            raise DataError(f"tiles.counts: tile {tile} count must be a whole number >= 0, not {count!r}",
                            "p47_find_count", "tiles", "counts", tile=tile, value=repr(count))
        counts[str(tile)] = count
    upgrades = _upgrades(tiles.get("upgrades"), shapes)
    bank = t["bank"]
    hexes: dict[str, Hex] = {}
    for raw in t["map"].get("hexes", ()):
        at = str(raw.get("at", ""))
        where = f"map.hexes {at or '?'}"
        colour = str(raw.get("colour", ""))
        if colour not in ("white", "yellow", "gray", "red"):
            raise DataError(f"{where}: colour must be white, yellow, gray or red", "data_find_one_of", where, "colour",
                            allowed="white, yellow, gray, red", value=repr(colour))
        off = tuple(int(v) for v in raw.get("offboard", (0, 0, 0)))
        if colour == "red" and len(off) != 3:
            raise DataError(f"{where}: offboard needs three revenues (yellow, green, brown)", "p47_find_offboard",
                            where, "offboard")
        hexes[at] = Hex(at, colour, _shape({**raw, "colour": colour}, where, offboard=colour == "red"),
                        str(raw.get("states", "")), str(raw.get("terrain", "")), int(raw.get("cost", 0)),
                        tuple(int(b) for b in raw.get("borders", ())), str(raw.get("name", "")),
                        (off[0], off[1], off[2]))
    trains = tuple(Train(str(r["name"]), str(r["kind"]), _int(r, "length", "trains"), _int(r, "price", "trains"),
                         _int(r, "count", "trains"), str(r.get("rusts_on", ""))) for r in t["trains"])
    phases = tuple(Phase(str(r["name"]), tuple(r["colours"]), _int(r, "ors", "phases"), _int(r, "limit", "phases"),
                         tuple(r.get("flags", ()))) for r in t["phases"])
    if [p.name for p in phases] != [tr.name for tr in trains]:
        raise DataError("phases: there must be one phase per train type, in the same order", "p47_find_phases",
                        "phases", "name")
    privates = []
    for r in t["privates"]:
        shares = []
        for s in r.get("shares", ()):
            cid, pct, role = str(s).split(":")
            shares.append((cid, int(pct), role == "director"))
        sale = tuple(r.get("sale", (0, 0)))
        privates.append(Private(str(r["id"]), str(r["name"]), str(r["kind"]), _int(r, "price", "privates"),
                                _int(r, "income", "privates"), tuple(shares), (int(sale[0]), int(sale[1])),
                                str(r.get("ability", "")), str(r.get("closes_in", "")), str(r.get("exchange", "")),
                                int(r.get("income_after_e9", 0))))
    companies = tuple(Company(str(r["id"]), str(r["name"]), tuple(r["home"]), _int(r, "par", "companies"),
                              tuple(int(c) for c in r["certificates"]), int(r.get("investor", 0)),
                              tuple(int(s) for s in r["stations"]), str(r.get("state", "")), str(r.get("after", "")),
                              int(r.get("float", 50))) for r in t["companies"])
    market = tuple(tuple(str(c) for c in row) for row in t["market"]["rows"])
    for company in companies:
        if sum(company.certificates) != 100:
            raise DataError(f"companies.{company.id}: certificates add up to {sum(company.certificates)}%, not 100%",
                            "p47_find_certificates", company.id, "certificates", value=sum(company.certificates))
        for home in company.home:
            if home not in hexes:
                raise DataError(f"companies.{company.id}: home {home} is not on the map", "p47_find_home", company.id,
                                "home", value=home)
    bonuses = t["bonuses"]
    data = GameData(
        _int(bank, "cash", "bank"), {int(k): int(v) for k, v in bank["start_cash"].items()},
        {int(k): int(v) for k, v in bank["cert_limit"].items()}, int(bank.get("market_limit", 50)), market,
        trains, phases, tuple(privates), companies, int(bonuses["a_b"]), int(bonuses["coal_z"]),
        frozenset(bonuses["a"]), frozenset(bonuses["b"]), frozenset(bonuses["z"]), frozenset(bonuses["coal"]),
        hexes, shapes, counts, bool(tiles.get("standin", False)),
        {name: str(t[name].get("source", "")) if isinstance(t[name], dict) else str(t[name][0].get("source", ""))
         for name in TABLES}, upgrades)
    for company in companies:
        data.par_cell(company.par)
    return data


def _upgrades(raw: Any, shapes: Mapping[str, Shape]) -> dict[str, tuple[str, ...]] | None:
    """The table ``tiles.upgrades`` checked: every tile named has a shape
    and each upgrade is of the next colour."""
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise DataError("tiles.upgrades must be a table of tile = [tiles it may become]", "p47_find_upgrades",
                        "tiles", "upgrades")
    after = {"yellow": "green", "green": "brown"}
    found: dict[str, tuple[str, ...]] = {}
    for old, news in raw.items():
        if str(old) not in shapes or not isinstance(news, list):
            raise DataError(f"tiles.upgrades: {old} is no tile of tile_shapes or its upgrades are no list",
                            "p47_find_upgrade_tile", "tiles", "upgrades", value=old)
        for new in news:
            if str(new) not in shapes or shapes[str(new)].colour != after.get(shapes[str(old)].colour):
                raise DataError(f"tiles.upgrades: {old} ({shapes[str(old)].colour}) cannot become {new}",
                                "p47_find_upgrade", "tiles", "upgrades", old=old, colour=shapes[str(old)].colour,
                                new=new)
        found[str(old)] = tuple(str(n) for n in news)
    return found


def check_table(name: str, text: str) -> tuple[str | Finding, ...]:
    """What is wrong with a GM's data file for table ``name`` (empty:
    usable), with its catalogue key but a text that is no TOML file."""
    try:
        tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        return (toml_syntax_finding(error, f"data file {name}: not TOML ({error})"),)
    try:
        tables = _tables(text, f"data file {name}")
    except DataError as error:
        return (error.finding(str(error)),)
    if name not in tables:
        return (Finding(f"data file {name}: it has no table [{name}]", "data_find_no_table", (), 0, f"[{name}]"),)
    extra = sorted(set(tables) - {name})
    if extra:
        return (Finding(f"data file {name}: holds other tables too ({', '.join(extra)}); one table per file",
                        "p47_find_other_tables", (("value", ", ".join(extra)),), 0, f"[{name}]"),)
    try:
        build({**merged_tables({}, True), **tables})
    except DataError as error:
        return (error.finding(f"data file {name}: {error}"),)
    except (KeyError, TypeError, ValueError) as error:
        return (Finding(f"data file {name}: {error}", "p47_find_malformed", (("value", str(error)),), 0, f"[{name}]"),)
    return ()


def template(name: str) -> str:
    """The file a GM fills in for table ``name``: its current text from
    ``cards/1847ae.toml`` as a starting point."""
    if name not in TABLES:
        raise DataError(f"no table {name} (tables: {', '.join(TABLES)})")
    kept: list[str] = []
    inside = False
    for line in base_text().splitlines():
        header = line.strip().strip("[]").split(".")[0] if line.startswith("[") else None
        if header is not None:
            inside = header == name
        if inside:
            kept.append(line)
    return f"# 1847 AE table [{name}] as in cards/1847ae.toml; change the values and keep the format.\n" + \
        "\n".join(kept).rstrip() + "\n"
