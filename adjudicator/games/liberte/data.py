"""The game data of Liberté: board, cards, battles and supply.

The rule text gives the procedure, not these tables.  ``cards/liberte.toml``
is the template (public facts with their sources, every other value
``"unknown"``); ``cards/liberte_standin.toml`` is the complete, invented
stand-in set.  ``load`` turns a data text into a ``GameData`` or raises
``DataError`` listing every problem ``problems`` finds; ``problems`` checks
a text against every fact the sources give (6 regions of 5 provinces, one
Paris, 14 CR provinces, 4 provinces with extra victory points, 110 cards,
82 blocks, Valmy 2 VP in round 2).
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import cache
from typing import Any, Callable

from adjudicator.games.base import DataFile, Finding, toml_syntax_finding
from adjudicator.resources import card_path

FACTIONS = ("red", "blue", "white")
"""Radicals, Moderates, Royalists; also the order of precedence on a tie
that card plays do not break (Radicals > Moderates > Royalists)."""
KINDS = ("person", "club", "special")
EFFECTS = ("remove", "clear", "battle", "unbattle", "draw", "place", "move")
"""What a special card does (docs/games/liberte.md, rulings 15 and 34-37):
``remove`` up to ``count`` blocks off one stack, ``clear`` a whole stack,
``battle`` ``count`` own control markers into the battle box,
``unbattle`` up to ``count`` of another player's markers out of it,
``draw`` ``count`` cards, ``place`` up to ``count`` blocks of the card's
faction, ``move`` up to ``count`` blocks of one stack to another province.
``faction`` and ``region`` narrow the stacks or provinces an effect may
aim at (``any``: no restriction)."""
ANY = "any"
UNKNOWN = "unknown"

# Facts of the sources (see cards/liberte.toml): they bind every data set.
REGIONS = 6
PROVINCES_PER_REGION = 5
CR_PROVINCES = 14
VP_PROVINCES = 4
CARDS = 110
DECKS = {"A": 57, "B": 53}  # bdml.free.fr (cards/liberte.toml [B])
SUPPLY = {"red": 30, "blue": 28, "white": 24}
TRACK = {"red": 2, "blue": 2, "white": 2}
VALMY = ("Valmy", 2)


class DataError(ValueError):
    """A data text the game cannot use; ``findings`` lists every reason
    (with its catalogue key), ``problems`` the same as English texts."""

    def __init__(self, findings: tuple[str | Finding, ...]) -> None:
        self.findings = findings
        self.problems = tuple(str(f) for f in findings)
        super().__init__("; ".join(self.problems))


Found = list[str | Finding]


def _find(found: Found, card: str, field: str, english: str, key: str, **fields: Any) -> None:
    """Add the problem of ``field`` of ``card`` (``cards.A12``, shown as
    ``A12``): its English text ``english``, catalogue ``key`` and ``fields``."""
    found.append(Finding(english, key, tuple((k, str(v)) for k, v in fields.items()), 0,
                         card.removeprefix("cards."), field))


def _blocks(counts: dict[str, int]) -> str:
    """``red 30, blue 28, white 24`` for blocks per faction."""
    return ", ".join(f"{faction} {count}" for faction, count in counts.items())


def _split(path: str) -> tuple[str, str]:
    """``cards.A12.deck`` as its card and field (``cards.A12``, ``deck``)."""
    card, _, field = path.rpartition(".")
    return (card, field) if card else (path, "")


@dataclass(frozen=True)
class Province:
    """One province: id, name, region, marked CR, Paris, extra victory
    points by round, and its place in the picture."""

    id: str
    name: str
    region: str
    cr: bool
    paris: bool
    vp: tuple[tuple[int, int], ...]
    x: float
    y: float

    def extra_vp(self, round_number: int) -> int:
        """The extra victory points for the province's winner in a round."""
        return dict(self.vp).get(round_number, 0)


@dataclass(frozen=True)
class Region:
    """A region: id, name, background colour and provinces in election order."""

    id: str
    name: str
    colour: str
    provinces: tuple[str, ...]


@dataclass(frozen=True)
class Card:
    """A card (see cards/liberte.toml for the fields)."""

    id: str
    deck: str
    kind: str
    name: str
    region: str = ""
    faction: str = ""
    value: int = 0
    blocks: int = 0
    cannon: bool = False
    sans_culotte: bool = False
    general: int = 0
    effect: str = ""
    count: int = 0
    """A special card: how many blocks, markers or cards its effect moves."""
    scope: str = ""
    """A special card: the region its effect is limited to ("": any)."""


@dataclass(frozen=True)
class GameData:
    """A complete data set; ``standin`` says it is the invented one."""

    standin: bool
    regions: tuple[Region, ...]
    provinces: dict[str, Province]
    cards: dict[str, Card]
    battles: dict[int, tuple[str, int]]
    supply: dict[str, int]
    track: dict[str, int]

    @property
    def election_order(self) -> tuple[str, ...]:
        """Every province, region by region, in election order."""
        return tuple(p for region in self.regions for p in region.provinces)

    @property
    def paris(self) -> str:
        """The id of Paris."""
        return next(p.id for p in self.provinces.values() if p.paris)

    def deck(self, letter: str) -> tuple[str, ...]:
        """The card ids of deck ``A`` or ``B`` in data order."""
        return tuple(c.id for c in self.cards.values() if c.deck == letter)


def template() -> str:
    """The template a GM fills in: cards/liberte.toml."""
    return card_path("liberte").read_text(encoding="utf-8")


@cache
def standin_text() -> str:
    """The stand-in data set's text: cards/liberte_standin.toml."""
    return card_path("liberte_standin").read_text(encoding="utf-8")


def problems(text: str) -> tuple[str | Finding, ...]:
    """Every reason why ``text`` is no usable data set (empty: usable),
    each with its catalogue key but a text that is no TOML file."""
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        return (toml_syntax_finding(error, f"not TOML: {error}"),)
    found: Found = []
    _unknowns(raw, "", found)
    if len(found) > 40:
        _find(found, "-", "", f"... and {len(found) - 40} more unknown values", "data_find_more", count=len(found) - 40)
        return tuple(found[:40]) + (found[-1],)
    if found:
        return tuple(found)
    try:
        _build(raw, found)
    except DataError:
        pass
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        found.append(f"malformed data: {error}")
    return tuple(found)


def _unknowns(value: Any, where: str, found: Found) -> None:
    if isinstance(value, dict):
        for key, item in value.items():
            _unknowns(item, f"{where}.{key}" if where else str(key), found)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _unknowns(item, f"{where}[{index + 1}]", found)
    elif isinstance(value, str) and value.strip().lower() == UNKNOWN:
        _find(found, *_split(where), f"{where} is unknown", "data_find_unknown")


@cache
def load(text: str) -> GameData:
    """The data set of ``text``; ``DataError`` lists every problem."""
    found = list(problems(text))
    if found:
        raise DataError(tuple(found))
    return _build(tomllib.loads(text), [])


def standin() -> GameData:
    """The stand-in data set."""
    return load(standin_text())


def _int(value: Any, where: str, found: Found, low: int = 0, high: int = 99) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        _find(found, *_split(where), f"{where}: expected a whole number {low}..{high}, got {value!r}",
              "r48_find_outside", low=low, high=high, value=repr(value))
        return low
    return value


def _bool(value: Any, where: str, found: Found) -> bool:
    if not isinstance(value, bool):
        _find(found, *_split(where), f"{where}: expected true or false, got {value!r}", "r48_find_want_bool",
              value=repr(value))
        return False
    return value


def _build(raw: dict[str, Any], found: Found) -> GameData:
    start = len(found)
    supply = {f: _int(raw.get("supply", {}).get(f), f"supply.{f}", found, 0, 200) for f in FACTIONS}
    track = {f: _int(raw.get("round_track", {}).get(f), f"round_track.{f}", found, 0, 20) for f in FACTIONS}
    if supply != SUPPLY:
        _find(found, "supply", "", f"supply: the game has {SUPPLY} faction blocks, not {supply}", "lib_find_supply",
              wanted=_blocks(SUPPLY), value=_blocks(supply))
    if track != TRACK:
        _find(found, "round_track", "", f"round_track: the text puts {TRACK} blocks on the round track, not {track}",
              "lib_find_track", wanted=_blocks(TRACK), value=_blocks(track))
    battles: dict[int, tuple[str, int]] = {}
    for number in (2, 3, 4):
        entry = raw.get("battles", {}).get(str(number), {})
        name = entry.get("name")
        if not isinstance(name, str) or not name.strip():
            _find(found, f"battles.{number}", "name", f"battles.{number}.name: expected the battle's name",
                  "lib_find_battle_name")
            name = "?"
        battles[number] = (name, _int(entry.get("vp"), f"battles.{number}.vp", found, 0, 20))
    if battles[2] != VALMY:
        _find(found, "battles.2", "", f"battles.2: the text names Valmy with 2 VP in round 2, not {battles[2]}",
              "lib_find_valmy", value=battles[2])
    regions: list[Region] = []
    provinces: dict[str, Province] = {}
    for r_index, entry in enumerate(raw.get("regions", [])):
        rid = str(entry.get("id", ""))
        where = f"regions[{r_index + 1}]"
        if not re.fullmatch(r"[A-Z][A-Z0-9_]{1,19}", rid):
            _find(found, where, "id", f"{where}.id: expected an id of capital letters, got {rid!r}", "lib_find_id",
                  value=repr(rid))
        colour = str(entry.get("colour", ""))
        if not re.fullmatch(r"#[0-9a-fA-F]{6}", colour):
            _find(found, where, "colour", f"{where}.colour: expected #rrggbb, got {colour!r}", "lib_find_colour",
                  value=repr(colour))
        ids: list[str] = []
        for p_index, item in enumerate(entry.get("provinces", [])):
            pwhere = f"{where}.provinces[{p_index + 1}]"
            pid = str(item.get("id", ""))
            if not re.fullmatch(r"[A-Z][A-Z_]{1,19}", pid):
                _find(found, pwhere, "id", f"{pwhere}.id: expected an id of capital letters, got {pid!r}", "lib_find_id",
                      value=repr(pid))
            if pid in provinces:
                _find(found, pwhere, "id", f"{pwhere}.id: {pid} is there twice", "data_find_twice")
            vp = item.get("vp", {})
            if not isinstance(vp, dict) or any(k not in ("3", "4") for k in vp):
                _find(found, pwhere, "vp", f"{pwhere}.vp: expected {{ 3 = n, 4 = n }}", "lib_find_vp")
                vp = {}
            provinces[pid] = Province(
                pid, str(item.get("name", pid)), rid, _bool(item.get("cr"), f"{pwhere}.cr", found),
                _bool(item.get("paris", False), f"{pwhere}.paris", found),
                tuple(sorted((int(k), _int(v, f"{pwhere}.vp.{k}", found, 0, 20)) for k, v in vp.items())),
                float(_int(item.get("x"), f"{pwhere}.x", found, 0, 1000)),
                float(_int(item.get("y"), f"{pwhere}.y", found, 0, 1000)),
            )
            ids.append(pid)
        if len(ids) != PROVINCES_PER_REGION:
            _find(found, where, "provinces", f"{where}: a region has {PROVINCES_PER_REGION} provinces, not {len(ids)}",
                  "data_find_count", wanted=PROVINCES_PER_REGION, count=len(ids))
        regions.append(Region(rid, str(entry.get("name", rid)), colour, tuple(ids)))
    if len(regions) != REGIONS:
        _find(found, "regions", "", f"regions: the board has {REGIONS} regions, not {len(regions)}",
              "data_find_count", wanted=REGIONS, count=len(regions))
    if len({r.id for r in regions}) != len(regions):
        _find(found, "regions", "id", "regions: two regions have the same id", "data_find_twice")
    def count(test: Callable[[Province], bool]) -> int:
        return sum(1 for p in provinces.values() if test(p))

    if count(lambda p: p.paris) != 1:
        _find(found, "provinces", "paris", f"provinces: exactly one is Paris, not {count(lambda p: p.paris)}",
              "lib_find_paris", count=count(lambda p: p.paris))
    if count(lambda p: p.cr) != CR_PROVINCES:
        _find(found, "provinces", "cr", f"provinces: {CR_PROVINCES} are marked CR, not {count(lambda p: p.cr)}",
              "lib_find_cr", wanted=CR_PROVINCES, count=count(lambda p: p.cr))
    if count(lambda p: bool(p.vp)) != VP_PROVINCES:
        _find(found, "provinces", "vp",
              f"provinces: {VP_PROVINCES} have extra victory points, not {count(lambda p: bool(p.vp))}",
              "lib_find_vp_count", wanted=VP_PROVINCES, count=count(lambda p: bool(p.vp)))
    cards = _cards(raw.get("cards", {}), {r.id for r in regions}, found)
    if len(found) > start:
        raise DataError(tuple(found))
    return GameData(bool(raw.get("standin", False)), tuple(regions), provinces, cards, battles, supply, track)


def _cards(raw: dict[str, Any], regions: set[str], found: Found) -> dict[str, Card]:
    cards: dict[str, Card] = {}
    for cid, entry in raw.items():
        where = f"cards.{cid}"
        deck = str(entry.get("deck", ""))
        if deck not in ("A", "B"):
            _find(found, where, "deck", f"{where}.deck: expected A or B, got {deck!r}", "data_find_one_of",
                  allowed="A, B", value=repr(deck))
        if not re.fullmatch(r"[AB]\d{1,3}", cid) or cid[0] != deck:
            _find(found, where, "", f"{where}: a card id is its deck's letter and a number (A12, B07)",
                  "lib_find_card_id")
        kind = str(entry.get("kind", ""))
        if kind not in KINDS:
            _find(found, where, "kind", f"{where}.kind: expected one of {', '.join(KINDS)}, got {kind!r}",
                  "data_find_one_of", allowed=", ".join(KINDS), value=repr(kind))
            continue
        name = str(entry.get("name", cid))
        if kind == "special":
            cards[cid] = _special(cid, deck, name, entry, regions, found)
            continue
        faction = str(entry.get("faction", ""))
        if faction not in FACTIONS:
            _find(found, where, "faction", f"{where}.faction: expected one of {', '.join(FACTIONS)}, got {faction!r}",
                  "data_find_one_of", allowed=", ".join(FACTIONS), value=repr(faction))
        region = str(entry.get("region", "")) if kind == "person" else ""
        if kind == "person" and region not in regions:
            _find(found, where, "region", f"{where}.region: {region!r} is no region", "lib_find_no_region",
                  value=repr(region))
        blocks = _int(entry.get("blocks"), f"{where}.blocks", found, 1, 3)
        if kind == "club" and blocks != 1:
            _find(found, where, "blocks", f"{where}.blocks: a club card shows one block", "lib_find_club")
        cards[cid] = Card(
            cid, deck, kind, name, region, faction, _int(entry.get("value"), f"{where}.value", found, 0, 20), blocks,
            _bool(entry.get("cannon", False), f"{where}.cannon", found),
            _bool(entry.get("sans_culotte", False), f"{where}.sans_culotte", found),
            _int(entry.get("general", 0), f"{where}.general", found, 0, 20),
        )
    if len(cards) != CARDS:
        _find(found, "cards", "", f"cards: the game has {CARDS} cards, not {len(cards)}", "data_find_count",
              wanted=CARDS, count=len(cards))
    for letter, wanted in DECKS.items():
        held = sum(1 for c in cards.values() if c.deck == letter)
        if held != wanted:
            _find(found, "cards", "deck", f"cards: deck {letter} has {wanted} cards, not {held}", "lib_find_deck",
                  letter=letter, wanted=wanted, count=held)
    for letter in ("A", "B"):
        if not any(c.deck == letter for c in cards.values()):
            _find(found, "cards", "deck", f"cards: deck {letter} is empty", "lib_find_deck_empty", letter=letter)
    return cards


def _special(cid: str, deck: str, name: str, entry: dict[str, Any], regions: set[str], found: Found) -> Card:
    """A special card: its effect, ``count`` (1..5, default 1), and the
    ``faction`` and ``region`` it is limited to (default ``any``; a
    ``place`` card names the faction it places)."""
    where = f"cards.{cid}"
    effect = str(entry.get("effect", ""))
    if effect not in EFFECTS:
        _find(found, where, "effect", f"{where}.effect: expected one of {', '.join(EFFECTS)}, got {effect!r}",
              "data_find_one_of", allowed=", ".join(EFFECTS), value=repr(effect))
    count = _int(entry.get("count", 1), f"{where}.count", found, 1, 5)
    faction = str(entry.get("faction", ANY))
    if faction not in FACTIONS + (ANY,):
        _find(found, where, "faction", f"{where}.faction: expected one of {', '.join(FACTIONS + (ANY,))}, got {faction!r}",
              "data_find_one_of", allowed=", ".join(FACTIONS + (ANY,)), value=repr(faction))
    if effect == "place" and faction == ANY:
        _find(found, where, "faction", f"{where}.faction: a place card names the faction it places", "lib_find_place")
    if effect in ("battle", "unbattle", "draw") and faction != ANY:
        _find(found, where, "faction", f"{where}.faction: a {effect} card takes no faction", "lib_find_no_faction",
              effect=effect)
    region = str(entry.get("region", ANY))
    if region != ANY and region not in regions:
        _find(found, where, "region", f"{where}.region: {region!r} is no region", "lib_find_no_region",
              value=repr(region))
    return Card(cid, deck, "special", name, faction="" if faction == ANY else faction, effect=effect, count=count,
                scope="" if region == ANY else region)


DATA_NAME = "liberte"
"""The name of Liberté's one data file (option ``data.liberte``)."""

DATA_FILES = (DataFile(DATA_NAME, template, problems, True),)
"""What ``Liberte.data_files`` returns: board, cards, battles (template
cards/liberte.toml), required unless option data=standin; here, so that
``data template`` and ``data check`` need not load the rules (issue 20)."""
