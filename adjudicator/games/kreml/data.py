"""The game data of Kreml: the politicians, the health tables and the
event cards.

The rule text gives the offices, the purge, vote and parade numbers (they
live in ``rules.py``) but not the politicians' names, ages and offices of
Zusatzregel 2, the two health tables of phase 4, nor the event cards
(rule book pages 15f).  An event card is given in the engine's terms: a
short key, German and English names, how many copies, the phases in which
it takes effect and one effect of ``EFFECTS`` with its value; the event
cards may be left ``"unknown"`` (a game then needs ``events=off``).  ``cards/kreml.toml``
holds what public sources give and marks the rest ``"unknown"``;
``cards/kreml-standin.toml`` is a complete, invented stand-in set.  A GM
supplies the real values as the data file ``kreml`` (``DataFile``): its
text is read by ``parse`` and checked by ``check``, which lists every
problem at once.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import cache
from typing import Any

from adjudicator.games.base import DataFile, Finding, toml_syntax_finding
from adjudicator.resources import card_path

UNKNOWN = "unknown"
NESTOR = "Nestor Aparatschik"
OFFICE_KEYS = ("chief", "kgb", "foreign", "defence", "ideology", "industry", "agriculture", "sport")
RESULTS = "G-KAT"
POLITICIANS = 24
FACES = 20
EFFECTS = ("heal", "sicken", "stress", "rehabilitate", "clear")
"""What an event card can do to the politician it names: ``heal`` takes
off ``value`` illness markers, ``sicken`` adds ``value`` (a Politburo
member), ``stress`` ages by ``value`` years (a Politburo member or
candidate), ``rehabilitate`` brings one back from Siberia to the people
without stress, ``clear`` ends a pending investigation."""
CARD_KEY = re.compile(r"^[a-z][a-z0-9-]{0,19}$")


class DataError(ValueError):
    """A data text that cannot be used; ``findings`` lists every reason
    (with its catalogue key), ``problems`` the same as English texts."""

    def __init__(self, findings: tuple[str | Finding, ...]) -> None:
        self.findings = findings
        self.problems = tuple(str(f) for f in findings)
        super().__init__("; ".join(self.problems))


def _find(problems: list[str | Finding], card: str, field: str, english: str, key: str, **fields: Any) -> None:
    """Add the problem of ``field`` of ``card`` (``politician 3 (Name)``):
    its English text ``english`` and catalogue ``key`` with ``fields``."""
    problems.append(Finding(english, key, tuple((k, str(v)) for k, v in fields.items()), 0, card, field))


@dataclass(frozen=True)
class Politician:
    """A politician card: name, starting age, favoured and hated office."""

    name: str
    age: int
    favoured: str
    hated: str


@dataclass(frozen=True)
class EventCard:
    """An event card: ``key`` (one word, used in orders), its names, how
    many copies the game has, the phases (1-8) at whose steps it may take
    effect, its effect (one of ``EFFECTS``) and the effect's value."""

    key: str
    name_de: str
    name_en: str
    count: int
    phases: tuple[int, ...]
    effect: str
    value: int

    def name(self, language: str) -> str:
        """The card's name in ``language``."""
        return self.name_de if language == "de" else self.name_en


@dataclass(frozen=True)
class KremlData:
    """Complete game data: 24 politicians (Nestor first) and the health
    tables as (from age, 20 results) rows, ascending."""

    politicians: tuple[Politician, ...]
    normal: tuple[tuple[int, str], ...]
    cure: tuple[tuple[int, str], ...]
    standin: bool
    events: tuple[EventCard, ...] | None = None
    """The event cards; None while they are unknown."""

    def card(self, key: str) -> EventCard | None:
        """The event card ``key`` (any case), None when there is none."""
        for card in self.events or ():
            if card.key == key.casefold():
                return card
        return None

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
        events = None if self.events is None else [
            [c.key, c.name_de, c.name_en, c.count, list(c.phases), c.effect, c.value] for c in self.events]
        return {"standin": self.standin,
                "politicians": [[p.name, p.age, p.favoured, p.hated] for p in self.politicians],
                "normal": [list(row) for row in self.normal], "cure": [list(row) for row in self.cure],
                "events": events}

    @staticmethod
    def from_json(data: dict[str, Any]) -> "KremlData":
        """The data ``to_json`` wrote."""
        return KremlData(tuple(Politician(str(n), int(a), str(f), str(h)) for n, a, f, h in data["politicians"]),
                         tuple((int(a), str(r)) for a, r in data["normal"]),
                         tuple((int(a), str(r)) for a, r in data["cure"]), bool(data["standin"]),
                         None if data.get("events") is None else tuple(
                             EventCard(str(k), str(d), str(e), int(n), tuple(int(x) for x in ph), str(f), int(v))
                             for k, d, e, n, ph, f, v in data["events"]))


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


def check(text: str) -> tuple[str | Finding, ...]:
    """Every problem of a data text (empty: the game can use it), each
    with its catalogue key but a text that is no TOML file."""
    try:
        parse(text)
    except DataError as error:
        return error.findings
    return ()


def parse(text: str) -> KremlData:
    """The data of a TOML text; raises ``DataError`` listing every value
    that is unknown, missing or of the wrong kind."""
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise DataError((toml_syntax_finding(error, f"not a TOML file: {error}"),)) from None
    problems: list[str | Finding] = []
    cards = _politicians(raw.get("politician"), problems)
    health = raw.get("health")
    if not isinstance(health, dict):
        _find(problems, "[health]", "", "[health] is missing", "data_find_no_table")
        health = {}
    normal = _table(health.get("normal"), "health.normal", problems)
    cure = _table(health.get("cure"), "health.cure", problems)
    events = _events(raw.get("event"), problems)
    if problems:
        raise DataError(tuple(problems))
    meta = raw.get("meta", {})
    return KremlData(tuple(cards), normal, cure, bool(meta.get("standin", False)) if isinstance(meta, dict) else False,
                     events)


def unknown(text: str | None) -> tuple[str, ...]:
    """What a data text (None: the template) still leaves unknown, one
    line per table: the politicians, the health tables, the event cards,
    each named by the template's own table and field names (so the line
    reads the same to a German and an English GM)."""
    try:
        raw = tomllib.loads(template() if text is None else text)
    except tomllib.TOMLDecodeError:
        return ("the whole file (not a TOML text)",)
    found = []
    names = [e for e in raw.get("politician", []) if isinstance(e, dict)]
    if len(names) != POLITICIANS or any(UNKNOWN in (e.get("name"), e.get("age"), e.get("favoured"), e.get("hated"))
                                        for e in names):
        found.append("[[politician]]: name, age, favoured, hated")
    health = raw.get("health", {}) if isinstance(raw.get("health"), dict) else {}
    found += [f"[health] {k}" for k in ("normal", "cure") if health.get(k, UNKNOWN) == UNKNOWN]
    if _events(raw.get("event"), []) is None:
        found.append("[[event]]: key, name_de, name_en, count, phases, effect, value (or: events=off)")
    return tuple(found)


def _politicians(entries: Any, problems: list[str | Finding]) -> list[Politician]:
    if not isinstance(entries, list):
        _find(problems, "[[politician]]", "", "no [[politician]] entries", "data_find_no_table")
        return []
    cards: list[Politician] = []
    seen: set[str] = set()
    for index, entry in enumerate(entries, start=1):
        where, card = f"politician {index}", f"[[politician]] {index}"
        if not isinstance(entry, dict):
            _find(problems, card, "", f"{where}: not a table", "r48_find_not_table")
            continue
        name, age = entry.get("name"), entry.get("age")
        if not isinstance(name, str) or not name.strip() or name == UNKNOWN:
            _find(problems, card, "name", f"{where}: name is unknown", "data_find_unknown")
            name = f"?{index}"
        else:
            where, card = f"politician {index} ({name})", name
            if name in seen:
                _find(problems, card, "name", f"{where}: name given twice", "data_find_twice")
            seen.add(name)
        if not isinstance(age, int) or isinstance(age, bool) or not 20 <= age <= 94:
            _find(problems, card, "age", f"{where}: age must be a whole number from 20 to 94, not {age!r}",
                  "r48_find_outside", low=20, high=94, value=repr(age))
            age = 0
        offices = []
        for field in ("favoured", "hated"):
            value = entry.get(field)
            if value not in OFFICE_KEYS:
                _find(problems, card, field, f"{where}: {field} must be one of {', '.join(OFFICE_KEYS)}, not {value!r}",
                      "data_find_one_of", allowed=", ".join(OFFICE_KEYS), value=repr(value))
            offices.append(str(value))
        if offices[0] == offices[1] and offices[0] in OFFICE_KEYS:
            _find(problems, card, "hated", f"{where}: favoured and hated office are the same", "kreml_find_same_offices")
        cards.append(Politician(name.strip(), int(age), offices[0], offices[1]))
    if len(cards) != POLITICIANS:
        _find(problems, "[[politician]]", "", f"there must be {POLITICIANS} politicians, not {len(cards)}",
              "data_find_count", wanted=POLITICIANS, count=len(cards))
    if not cards or cards[0].name != NESTOR:
        _find(problems, "[[politician]] 1", "name", f"the first politician must be {NESTOR}", "kreml_find_first",
              name=NESTOR)
    return cards


def _table(rows: Any, where: str, problems: list[str | Finding]) -> tuple[tuple[int, str], ...]:
    if rows == UNKNOWN or not isinstance(rows, list) or not rows:
        _find(problems, f"[{where}]", "",
              f"{where} is unknown: a list of {{ from = <age>, results = \"<20 of {RESULTS}>\" }} rows",
              "kreml_find_health_unknown", faces=FACES, results=RESULTS)
        return ()
    table: list[tuple[int, str]] = []
    for index, row in enumerate(rows, start=1):
        start = row.get("from") if isinstance(row, dict) else None
        results = row.get("results") if isinstance(row, dict) else None
        if not isinstance(start, int) or isinstance(start, bool) or start < 0:
            _find(problems, f"[{where}] {index}", "from", f"{where} row {index}: from must be an age (a whole number)",
                  "kreml_find_age")
            continue
        if not isinstance(results, str) or len(results) != FACES or any(c not in RESULTS for c in results):
            _find(problems, f"[{where}] {index}", "results",
                  f"{where} row {index}: results must be {FACES} letters of {RESULTS}, not {results!r}",
                  "kreml_find_results", faces=FACES, results=RESULTS, value=repr(results))
            continue
        table.append((start, results))
    if table and table[0][0] != 0:
        _find(problems, f"[{where}]", "from", f"{where}: the first row must start from 0", "kreml_find_first_row")
    if [a for a, _ in table] != sorted({a for a, _ in table}):
        _find(problems, f"[{where}]", "from", f"{where}: the rows must start at ascending, different ages",
              "kreml_find_ascending")
    return tuple(table)


def _events(entries: Any, problems: list[str | Finding]) -> tuple[EventCard, ...] | None:
    """The event cards of the ``[[event]]`` tables; None when there are
    none or every field of them is still ``"unknown"`` (not a problem: a
    game without event cards can use the file)."""
    if not isinstance(entries, list) or not entries:
        return None
    if all(isinstance(e, dict) and all(v == UNKNOWN for v in e.values()) for e in entries):
        return None
    cards: list[EventCard] = []
    for index, entry in enumerate(entries, start=1):
        where, card = f"event {index}", f"[[event]] {index}"
        if not isinstance(entry, dict):
            _find(problems, card, "", f"{where}: not a table", "r48_find_not_table")
            continue
        key = entry.get("key")
        if not isinstance(key, str) or not CARD_KEY.match(key):
            _find(problems, card, "key", f"{where}: key must be one lower-case word (letters, digits, -), not {key!r}",
                  "kreml_find_key", value=repr(key))
            key = f"?{index}"
        else:
            where, card = f"event {index} ({key})", key
            if any(c.key == key for c in cards):
                _find(problems, card, "key", f"{where}: key given twice", "data_find_twice")
        names = [entry.get(f) for f in ("name_de", "name_en")]
        for field, value in zip(("name_de", "name_en"), names):
            if not isinstance(value, str) or not value.strip() or value == UNKNOWN:
                _find(problems, card, field, f"{where}: {field} is unknown", "data_find_unknown")
        count, value_, phases = entry.get("count"), entry.get("value", 1), entry.get("phases")
        if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= 20:
            _find(problems, card, "count", f"{where}: count must be a whole number from 1 to 20, not {count!r}",
                  "r48_find_outside", low=1, high=20, value=repr(count))
            count = 1
        if not isinstance(phases, list) or not phases or any(
                not isinstance(x, int) or isinstance(x, bool) or not 1 <= x <= 8 for x in phases):
            _find(problems, card, "phases", f"{where}: phases must be a list of phase numbers 1 to 8, not {phases!r}",
                  "kreml_find_phases", value=repr(phases))
            phases = []
        effect = entry.get("effect")
        if effect not in EFFECTS:
            _find(problems, card, "effect", f"{where}: effect must be one of {', '.join(EFFECTS)}, not {effect!r}",
                  "data_find_one_of", allowed=", ".join(EFFECTS), value=repr(effect))
        if not isinstance(value_, int) or isinstance(value_, bool) or not 1 <= value_ <= 10:
            _find(problems, card, "value", f"{where}: value must be a whole number from 1 to 10, not {value_!r}",
                  "r48_find_outside", low=1, high=10, value=repr(value_))
            value_ = 1
        cards.append(EventCard(str(key), str(names[0]), str(names[1]), int(count), tuple(sorted(set(phases))),
                               str(effect), int(value_)))
    return tuple(cards)


DATA_NAME = "kreml"
"""The name of Kreml's one data file (option ``data.kreml``)."""

DATA_FILES = (DataFile(DATA_NAME, template, check, True, standin=standin_text,
                       title_en="the game data (politicians, health tables, event cards; the rule text lacks them)",
                       title_de="die Spieldaten (Politiker, Gesundheitstabellen, Ereigniskarten; der Regeltext "
                                "nennt sie nicht)", unknown=unknown),)
"""What ``KremlGame.data_files`` returns: the template with every unknown
value marked, its check, required unless ``data=standin``; here, so that
``data template`` and ``data check`` need not load the rules (issue 20)."""
