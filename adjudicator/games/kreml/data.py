"""The game data of Kreml: the politicians and the health tables.

The rule text gives the offices, the purge, vote and parade numbers (they
live in ``rules.py``) but not the politicians' names, ages and offices of
Zusatzregel 2 nor the two health tables of phase 4.  ``cards/kreml.toml``
holds what public sources give and marks the rest ``"unknown"``;
``cards/kreml-standin.toml`` is a complete, invented stand-in set.  A GM
supplies the real values as the data file ``kreml`` (``DataFile``): its
text is read by ``parse`` and checked by ``check``, which lists every
problem at once.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from typing import Any

from adjudicator.resources import card_path

UNKNOWN = "unknown"
NESTOR = "Nestor Aparatschik"
OFFICE_KEYS = ("chief", "kgb", "foreign", "defence", "ideology", "industry", "agriculture", "sport")
RESULTS = "G-KAT"
POLITICIANS = 24
FACES = 20


class DataError(ValueError):
    """A data text that cannot be used; ``problems`` lists every reason."""

    def __init__(self, problems: tuple[str, ...]) -> None:
        self.problems = problems
        super().__init__("; ".join(problems))


@dataclass(frozen=True)
class Politician:
    """A politician card: name, starting age, favoured and hated office."""

    name: str
    age: int
    favoured: str
    hated: str


@dataclass(frozen=True)
class KremlData:
    """Complete game data: 24 politicians (Nestor first) and the health
    tables as (from age, 20 results) rows, ascending."""

    politicians: tuple[Politician, ...]
    normal: tuple[tuple[int, str], ...]
    cure: tuple[tuple[int, str], ...]
    standin: bool

    def politician(self, name: str) -> Politician:
        """The card of ``name`` (KeyError when there is none)."""
        for card in self.politicians:
            if card.name == name:
                return card
        raise KeyError(name)

    def health(self, age: int, in_cure: bool) -> str:
        """The 20 results of the table row for ``age`` (in cure or not)."""
        rows = self.cure if in_cure else self.normal
        return [results for start, results in rows if start <= age][-1]

    def to_json(self) -> dict[str, Any]:
        """The data as JSON (``from_json`` reads it back)."""
        return {"standin": self.standin,
                "politicians": [[p.name, p.age, p.favoured, p.hated] for p in self.politicians],
                "normal": [list(row) for row in self.normal], "cure": [list(row) for row in self.cure]}

    @staticmethod
    def from_json(data: dict[str, Any]) -> "KremlData":
        """The data ``to_json`` wrote."""
        return KremlData(tuple(Politician(str(n), int(a), str(f), str(h)) for n, a, f, h in data["politicians"]),
                         tuple((int(a), str(r)) for a, r in data["normal"]),
                         tuple((int(a), str(r)) for a, r in data["cure"]), bool(data["standin"]))


def template() -> str:
    """The data file a GM fills in: every known value, every unknown one
    marked ``"unknown"``, the source of each table named."""
    return card_path("kreml").read_text(encoding="utf-8")


@cache
def standin_text() -> str:
    """The text of the stand-in data set (invented values, marked so)."""
    return card_path("kreml-standin").read_text(encoding="utf-8")


@cache
def standin() -> KremlData:
    """The stand-in data set, parsed."""
    return parse(standin_text())


def check(text: str) -> tuple[str, ...]:
    """Every problem of a data text (empty: the game can use it)."""
    try:
        parse(text)
    except DataError as error:
        return error.problems
    return ()


def parse(text: str) -> KremlData:
    """The data of a TOML text; raises ``DataError`` listing every value
    that is unknown, missing or of the wrong kind."""
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise DataError((f"not a TOML file: {error}",)) from None
    problems: list[str] = []
    cards = _politicians(raw.get("politician"), problems)
    health = raw.get("health")
    if not isinstance(health, dict):
        problems.append("[health] is missing")
        health = {}
    normal = _table(health.get("normal"), "health.normal", problems)
    cure = _table(health.get("cure"), "health.cure", problems)
    if problems:
        raise DataError(tuple(problems))
    meta = raw.get("meta", {})
    return KremlData(tuple(cards), normal, cure, bool(meta.get("standin", False)) if isinstance(meta, dict) else False)


def _politicians(entries: Any, problems: list[str]) -> list[Politician]:
    if not isinstance(entries, list):
        problems.append("no [[politician]] entries")
        return []
    cards: list[Politician] = []
    seen: set[str] = set()
    for index, entry in enumerate(entries, start=1):
        where = f"politician {index}"
        if not isinstance(entry, dict):
            problems.append(f"{where}: not a table")
            continue
        name, age = entry.get("name"), entry.get("age")
        if not isinstance(name, str) or not name.strip() or name == UNKNOWN:
            problems.append(f"{where}: name is unknown")
            name = f"?{index}"
        else:
            where = f"politician {index} ({name})"
            if name in seen:
                problems.append(f"{where}: name given twice")
            seen.add(name)
        if not isinstance(age, int) or isinstance(age, bool) or not 20 <= age <= 94:
            problems.append(f"{where}: age must be a whole number from 20 to 94, not {age!r}")
            age = 0
        offices = []
        for field in ("favoured", "hated"):
            value = entry.get(field)
            if value not in OFFICE_KEYS:
                problems.append(f"{where}: {field} must be one of {', '.join(OFFICE_KEYS)}, not {value!r}")
            offices.append(str(value))
        if offices[0] == offices[1] and offices[0] in OFFICE_KEYS:
            problems.append(f"{where}: favoured and hated office are the same")
        cards.append(Politician(name.strip(), int(age), offices[0], offices[1]))
    if len(cards) != POLITICIANS:
        problems.append(f"there must be {POLITICIANS} politicians, not {len(cards)}")
    if not cards or cards[0].name != NESTOR:
        problems.append(f"the first politician must be {NESTOR}")
    return cards


def _table(rows: Any, where: str, problems: list[str]) -> tuple[tuple[int, str], ...]:
    if rows == UNKNOWN or not isinstance(rows, list) or not rows:
        problems.append(f"{where} is unknown: a list of {{ from = <age>, results = \"<20 of {RESULTS}>\" }} rows")
        return ()
    table: list[tuple[int, str]] = []
    for index, row in enumerate(rows, start=1):
        start = row.get("from") if isinstance(row, dict) else None
        results = row.get("results") if isinstance(row, dict) else None
        if not isinstance(start, int) or isinstance(start, bool) or start < 0:
            problems.append(f"{where} row {index}: from must be an age (a whole number)")
            continue
        if not isinstance(results, str) or len(results) != FACES or any(c not in RESULTS for c in results):
            problems.append(f"{where} row {index}: results must be {FACES} letters of {RESULTS}, not {results!r}")
            continue
        table.append((start, results))
    if table and table[0][0] != 0:
        problems.append(f"{where}: the first row must start from 0")
    if [a for a, _ in table] != sorted({a for a, _ in table}):
        problems.append(f"{where}: the rows must start at ascending, different ages")
    return tuple(table)
