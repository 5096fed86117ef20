"""The card data of 1848 – Die Revolution: reading ``cards/1848.toml``,
the game master's supplements, the check for unknown values, and the
typed, immutable ``CardData`` the rules work on.

The data file marks every value the rule text does not give as
``"unknown"``.  ``card_data(options)`` merges the game master's
supplements over it — single values as options ``card.<ID>.<field>`` and
``rules.<field>``, whole files as ``cards.file`` — and raises
``MissingValues`` naming every value still unknown (only values the card's
mode needs count), or ``CardDataError`` for a value of the wrong kind.
Nothing here depends on a game's state; the merged data is cached.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Mapping
from functools import cache
from typing import Any

from adjudicator.records import Record
from adjudicator.resources import card_path

_field = object.__setattr__  # how a record sets its fields, once, in its __init__

UNKNOWN = "unknown"
PARTIES = ("LIB", "DEM", "REP", "REA")
"""The parties of persons (Liberale, Demokraten, Republikaner, Reaktionäre)."""
ASSEMBLY_PARTIES = ("RLIB", "LLIB", "DEM", "REP", "REA")
"""The parties of the Nationalversammlung (the Liberals split in two)."""
COLOURS = ("red", "blue")
NATIONS = ("austria", "prussia")
GENERALS = ("none", "austria", "prussia", "revolution")
CATEGORIES = ("satire", "influence", "uprising")
MODES = ("stich", "buendnis", "vorparlament", "nationalversammlung", "gesamtwert")
DECISION_MODES = ("buendnis", "vorparlament", "nationalversammlung", "gesamtwert")
SPECIALS = ("", "armies", "preparliament", "assembly", "oath", "power", "campaign", "victory")
POSITIONS = ("A04", "free", "A12", "A15")
COMPONENTS = ("interventions", "parliament_army", "sworn_armies", "a04_armies", "free_armies")
PARLIAMENT_OF = {"vorparlament": "A05", "nationalversammlung": "A11"}

_INT_FIELDS = {"value", "strength", "keep", "points", "morale", "bonus", "correct", "wrong", "hand_persons",
               "hand_extras", "free_army_card_at_A25", "sworn_army_card_at_A26"}
_LIST_FIELDS = {"parties", "effects", "always_stay", "army_attacks", "revolution", "reaction", "nations", "hinders"}
_BOOL_FIELDS = {"played_for"}


class CardDataError(ValueError):
    """A value of the card data (or a supplement) that cannot be used; the
    message names it as ``card.<ID>.<field>`` or ``rules.<field>``."""


class MissingValues(CardDataError):
    """Values the game needs that are still unknown; ``names`` lists each
    as the option that supplies it."""

    def __init__(self, names: list[str]) -> None:
        self.names = tuple(names)
        super().__init__(
            f"the card data lacks {len(names)} value(s) the rule text does not give; supply each as "
            f"--option <name>=<value> or in a file given as --option cards.file=<path>: " + ", ".join(names)
        )


# --- Typed data -----------------------------------------------------------------


class Boost(Record):
    """``boost PARTY +N each|once``: the owner's persons of ``party`` gain
    ``amount`` (per person card when ``each``, else once for the party)."""

    __slots__ = ("party", "amount", "each")
    party: str
    amount: int
    each: bool

    def __init__(self, party: str, amount: int, each: bool) -> None:
        _field(self, "party", party)
        _field(self, "amount", amount)
        _field(self, "each", each)


class Protect(Record):
    """``protect PARTY against CATEGORY...``: attacks of these categories on
    the owner's persons of ``party`` fail."""

    __slots__ = ("party", "against")
    party: str
    against: frozenset[str]

    def __init__(self, party: str, against: frozenset[str]) -> None:
        _field(self, "party", party)
        _field(self, "against", against)


class Attack(Record):
    """An attack card: ``eliminate`` (a person leaves the game; with
    ``extra`` in ``targets`` an extra card may be devalued instead) or
    ``switch`` (a person of ``switch_from`` becomes ``switch_to``)."""

    __slots__ = ("action", "category", "targets", "switch_from", "switch_to")
    action: str
    category: str
    targets: frozenset[str]
    switch_from: str
    switch_to: str

    def __init__(self, action: str, category: str, targets: frozenset[str], switch_from: str = "",
                 switch_to: str = "") -> None:
        _field(self, "action", action)
        _field(self, "category", category)
        _field(self, "targets", targets)
        _field(self, "switch_from", switch_from)
        _field(self, "switch_to", switch_to)


class Weaken(Record):
    """``weaken PARTY -N each|once``: lies on the opponent's side and
    lowers his persons of ``party`` by ``amount``."""

    __slots__ = ("party", "amount", "each")
    party: str
    amount: int
    each: bool

    def __init__(self, party: str, amount: int, each: bool) -> None:
        _field(self, "party", party)
        _field(self, "amount", amount)
        _field(self, "each", each)


class Military(Record):
    """A card's military role: ``army`` (Z28-Z34), ``intervention`` (an
    army of ``nation`` conquers it with more than ``strength``) or
    ``reinforce`` (joins an army of ``nation``, Z15)."""

    __slots__ = ("kind", "nation", "strength")
    kind: str
    nation: str
    strength: int

    def __init__(self, kind: str, nation: str, strength: int) -> None:
        _field(self, "kind", kind)
        _field(self, "nation", nation)
        _field(self, "strength", strength)


class Person(Record):
    """A person card: its parties (two when the player chooses), value,
    and, for a general, the army it may lead and its Kreuz strength."""

    __slots__ = ("id", "name", "parties", "value", "general", "strength")
    id: str
    name: str
    parties: tuple[str, ...]
    value: int
    general: str
    strength: int

    def __init__(self, id: str, name: str, parties: tuple[str, ...], value: int, general: str = "none",
                 strength: int = 0) -> None:
        _field(self, "id", id)
        _field(self, "name", name)
        _field(self, "parties", parties)
        _field(self, "value", value)
        _field(self, "general", general)
        _field(self, "strength", strength)


class Extra(Record):
    """An extra card with its effects (any of boosts, protections, one
    attack, weakenings) and its military role."""

    __slots__ = ("id", "name", "boosts", "protects", "attack", "weakens", "military")
    id: str
    name: str
    boosts: tuple[Boost, ...]
    protects: tuple[Protect, ...]
    attack: Attack | None
    weakens: tuple[Weaken, ...]
    military: Military | None

    def __init__(self, id: str, name: str, boosts: tuple[Boost, ...] = (), protects: tuple[Protect, ...] = (),
                 attack: Attack | None = None, weakens: tuple[Weaken, ...] = (),
                 military: Military | None = None) -> None:
        _field(self, "id", id)
        _field(self, "name", name)
        _field(self, "boosts", boosts)
        _field(self, "protects", protects)
        _field(self, "attack", attack)
        _field(self, "weakens", weakens)
        _field(self, "military", military)

    @property
    def political(self) -> bool:
        """True when the card can be played in an action (anything but a
        plain army card)."""
        return bool(self.boosts or self.protects or self.attack or self.weakens)


class Option(Record):
    """One decision (red or blue) of a flow card and the card that follows it."""

    __slots__ = ("name", "name_en", "next")
    name: str
    name_en: str
    next: str

    def __init__(self, name: str, name_en: str, next: str) -> None:
        _field(self, "name", name)
        _field(self, "name_en", name_en)
        _field(self, "next", next)


class Flow(Record):
    """A flow card (Ablaufkarte); see docs/games/1848.md for each field.

    ``hinders``: While this card lies on the table, conquering these intervention cards (``all``: every one)
    needs that much more strength."""

    __slots__ = ("id", "name", "name_en", "played_for", "mode", "special", "keep", "points", "stays", "next", "red",
                 "blue", "votes", "radical_votes", "parliament", "conquest_nations", "conquest_morale", "next_skipped",
                 "next_sworn", "next_revolution", "next_reaction", "bonus", "bonus_if", "hinders")
    id: str
    name: str
    name_en: str
    played_for: bool
    mode: str
    special: str
    keep: int
    points: int
    stays: str
    next: str
    red: Option | None
    blue: Option | None
    votes: Mapping[str, tuple[str, ...]]
    radical_votes: Mapping[str, tuple[str, ...]]
    parliament: Mapping[str, int]
    conquest_nations: tuple[str, ...]
    conquest_morale: int
    next_skipped: str
    next_sworn: str
    next_revolution: str
    next_reaction: str
    bonus: int
    bonus_if: str
    hinders: tuple[tuple[str, int], ...]

    def __init__(self, id: str, name: str, name_en: str, played_for: bool, mode: str = "", special: str = "",
                 keep: int = 0, points: int = 0, stays: str = "never", next: str = "", red: Option | None = None,
                 blue: Option | None = None, votes: Mapping[str, tuple[str, ...]] | None = None,
                 radical_votes: Mapping[str, tuple[str, ...]] | None = None,
                 parliament: Mapping[str, int] | None = None, conquest_nations: tuple[str, ...] = (),
                 conquest_morale: int = 0, next_skipped: str = "", next_sworn: str = "", next_revolution: str = "",
                 next_reaction: str = "", bonus: int = 0, bonus_if: str = "",
                 hinders: tuple[tuple[str, int], ...] = ()) -> None:
        _field(self, "id", id)
        _field(self, "name", name)
        _field(self, "name_en", name_en)
        _field(self, "played_for", played_for)
        _field(self, "mode", mode)
        _field(self, "special", special)
        _field(self, "keep", keep)
        _field(self, "points", points)
        _field(self, "stays", stays)
        _field(self, "next", next)
        _field(self, "red", red)
        _field(self, "blue", blue)
        _field(self, "votes", {} if votes is None else votes)
        _field(self, "radical_votes", {} if radical_votes is None else radical_votes)
        _field(self, "parliament", {} if parliament is None else parliament)
        _field(self, "conquest_nations", conquest_nations)
        _field(self, "conquest_morale", conquest_morale)
        _field(self, "next_skipped", next_skipped)
        _field(self, "next_sworn", next_sworn)
        _field(self, "next_revolution", next_revolution)
        _field(self, "next_reaction", next_reaction)
        _field(self, "bonus", bonus)
        _field(self, "bonus_if", bonus_if)
        _field(self, "hinders", hinders)

    def option(self, colour: str) -> Option:
        """The red or blue option (``KeyError`` for a card without decisions)."""
        found = self.red if colour == "red" else self.blue if colour == "blue" else None
        if found is None:
            raise KeyError(f"{self.id} has no option {colour!r}")
        return found

    def votes_of(self, party: str, radical: bool) -> tuple[str, ...]:
        """The options ``party`` may vote for (after the radicalisation, its
        radical votes where the card has them); () when it has no vote."""
        if radical and party in self.radical_votes:
            return self.radical_votes[party]
        return self.votes.get(party, ())


class Forecast(Record):
    """A forecast (Prognose) letter: its text, the end condition that makes
    it correct, and the points won when correct / lost when wrong."""

    __slots__ = ("letter", "text", "condition", "correct", "wrong")
    letter: str
    text: str
    condition: str
    correct: int
    wrong: int

    def __init__(self, letter: str, text: str, condition: str, correct: int, wrong: int) -> None:
        _field(self, "letter", letter)
        _field(self, "text", text)
        _field(self, "condition", condition)
        _field(self, "correct", correct)
        _field(self, "wrong", wrong)


class Rules(Record):
    """The game-wide values (hand size, cards that always stay, scoring, ...)."""

    __slots__ = ("hand_persons", "hand_extras", "always_stay", "military_from", "radicalise_on", "army_attacks",
                 "free_army_points", "sworn_army_points", "revolution", "reaction", "forecasts", "default_forecast")
    hand_persons: int
    hand_extras: int
    always_stay: frozenset[str]
    military_from: str
    radicalise_on: str
    army_attacks: tuple[tuple[str, str], ...]
    free_army_points: int
    sworn_army_points: int
    revolution: tuple[str, ...]
    reaction: tuple[str, ...]
    forecasts: Mapping[str, Forecast]
    default_forecast: str

    def __init__(self, hand_persons: int, hand_extras: int, always_stay: frozenset[str], military_from: str,
                 radicalise_on: str, army_attacks: tuple[tuple[str, str], ...], free_army_points: int,
                 sworn_army_points: int, revolution: tuple[str, ...], reaction: tuple[str, ...],
                 forecasts: Mapping[str, Forecast], default_forecast: str = "E") -> None:
        _field(self, "hand_persons", hand_persons)
        _field(self, "hand_extras", hand_extras)
        _field(self, "always_stay", always_stay)
        _field(self, "military_from", military_from)
        _field(self, "radicalise_on", radicalise_on)
        _field(self, "army_attacks", army_attacks)
        _field(self, "free_army_points", free_army_points)
        _field(self, "sworn_army_points", sworn_army_points)
        _field(self, "revolution", revolution)
        _field(self, "reaction", reaction)
        _field(self, "forecasts", forecasts)
        _field(self, "default_forecast", default_forecast)


class CardData(Record):
    """Every card and rule value of one game (complete: nothing unknown)."""

    __slots__ = ("persons", "extras", "flows", "rules")
    persons: Mapping[str, Person]
    extras: Mapping[str, Extra]
    flows: Mapping[str, Flow]
    rules: Rules

    def __init__(self, persons: Mapping[str, Person], extras: Mapping[str, Extra], flows: Mapping[str, Flow],
                 rules: Rules) -> None:
        _field(self, "persons", persons)
        _field(self, "extras", extras)
        _field(self, "flows", flows)
        _field(self, "rules", rules)

    def is_person(self, card: str) -> bool:
        """True for a person card id of this data."""
        return card in self.persons

    def value_of(self, card: str) -> int:
        """A person's face value (0 for any other card)."""
        person = self.persons.get(card)
        return person.value if person else 0

    def strength_of(self, card: str) -> int:
        """A card's military (Kreuz) strength: army cards, generals, Z15; 0 otherwise."""
        person = self.persons.get(card)
        if person is not None:
            return person.strength if person.general != "none" else 0
        extra = self.extras.get(card)
        if extra is not None and extra.military is not None and extra.military.kind in ("army", "reinforce"):
            return extra.military.strength
        return 0

    def name_of(self, card: str) -> str:
        """A card's name, or its id when the data has none."""
        for table in (self.persons, self.extras, self.flows):
            entry = table.get(card)
            if entry is not None:
                return str(entry.name) or card
        return card


# --- Loading -------------------------------------------------------------------------


def base_data() -> dict[str, Any]:
    """The raw data of ``cards/1848.toml`` (a fresh copy each call)."""
    data: dict[str, Any] = json.loads(_base_json())
    return data


@cache
def base_text() -> str:
    """The text of ``cards/1848.toml`` (the packaged card data)."""
    return card_path("1848").read_text(encoding="utf-8")


@cache
def standin_text() -> str:
    """The text of ``cards/1848-standin.toml``: the complete stand-in card
    set (Ersatzwerte, nicht die Originalkarten), marked so in its head."""
    return card_path("1848-standin").read_text(encoding="utf-8")


@cache
def _base_json() -> str:
    return json.dumps(tomllib.loads(base_text()))


STANDIN_OPTION = ("data", "standin")
"""The option that chooses the stand-in card set."""
CARDS_OPTION = "data.cards"
"""The option that carries the text of a GM's card file."""


def uses_standin(options: Mapping[str, Any]) -> bool:
    """True when ``options`` play with the stand-in card set (and no card file of the GM's)."""
    return CARDS_OPTION not in options and "standin" in (str(options.get("data", "")).casefold(),
                                                         str(options.get("cards", "")).casefold())


def overlay_from_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """The game master's supplements as one overlay in the file's shape.

    ``data.cards`` is the text of a card file (read over ``cards/1848.toml``);
    ``data=standin`` without it chooses the stand-in set;
    ``card.<ID>.<field...>`` and ``rules.<field...>`` set single values
    (numbers, ``true``/``false``, lists separated by commas) and win over
    the file.  No option names a path (``cards.file`` is refused: the
    service reads files, the rules never).  Other options are ignored.
    Raises ``CardDataError`` for a text that is no TOML or a malformed
    option name."""
    if "cards.file" in options:
        raise CardDataError("option cards.file: no file path is read; supply the card file itself as data.cards "
                            "(adjudicator game create --data cards=FILE, or GM DATA cards with the file attached)")
    overlay: dict[str, Any] = {}
    text = options.get(CARDS_OPTION)
    if text is None and uses_standin(options):
        text = standin_text()
    if text is not None:
        try:
            overlay = tomllib.loads(str(text))
        except tomllib.TOMLDecodeError as error:
            raise CardDataError(f"option {CARDS_OPTION}: not valid TOML: {error}") from None
    for key, value in options.items():
        if key.startswith("card."):
            parts = key.split(".")[1:]
            if len(parts) < 2 or not parts[0]:
                raise CardDataError(f"option {key}: expected card.<ID>.<field>")
            section = _section_of(parts[0])
            if section is None:
                raise CardDataError(f"option {key}: {parts[0]!r} is no card id (PE.., Z.., A..)")
            _set(overlay, [section, *parts], _typed(parts[-1], value, parts, key))
        elif key.startswith("rules."):
            parts = key.split(".")
            if len(parts) < 2:
                raise CardDataError(f"option {key}: expected rules.<field>")
            _set(overlay, parts, _typed(parts[-1], value, parts, key))
    return overlay


def merged(base: Mapping[str, Any], overlay: Mapping[str, Any]) -> dict[str, Any]:
    """``base`` with ``overlay`` merged in: tables merge key by key, every
    other value (numbers, strings, lists) replaces the base's."""
    result = dict(base)
    for key, value in overlay.items():
        if isinstance(value, Mapping) and isinstance(result.get(key), Mapping):
            result[key] = merged(result[key], value)
        else:
            result[key] = value
    return result


def missing_values(raw: Mapping[str, Any]) -> list[str]:
    """Every value the game needs that ``raw`` leaves unknown or absent,
    each as the option name that supplies it, in card order.  A flow
    card's fields count only when its mode (or, for a card not played for,
    its special rule) needs them; with the mode unknown, all count."""
    missing: list[str] = []
    for card, entry in sorted(raw.get("person", {}).items()):
        need = ["parties", "value"] + (["strength"] if entry.get("general", "none") not in ("none", UNKNOWN) else [])
        if entry.get("general") == UNKNOWN:
            need.append("general")
        missing += [f"card.{card}.{name}" for name in need if _unknown(entry.get(name, UNKNOWN))]
    for card, entry in sorted(raw.get("extra", {}).items()):
        if _unknown(entry.get("effects", UNKNOWN)):
            missing.append(f"card.{card}.effects")
    parliament_parties = {mode: list(raw.get("flow", {}).get(card, {}).get("parliament", {}))
                          for mode, card in PARLIAMENT_OF.items()}
    for card, entry in sorted(raw.get("flow", {}).items()):
        missing += [f"card.{card}.{name}" for name in _flow_needs(entry, parliament_parties)
                    if _unknown(_get(entry, name.split(".")))]
    rules = raw.get("rules", {})
    for path in _rule_needs(rules):
        if _unknown(_get(rules, path.split("."))):
            missing.append(f"rules.{path}")
    return missing


def card_data(options: Mapping[str, Any]) -> CardData:
    """The complete card data for a game created with ``options``; raises
    ``MissingValues`` (every unknown value named) or ``CardDataError``."""
    overlay = overlay_from_options(options)
    return _build_cached(json.dumps(overlay, sort_keys=True))


def card_data_from_overlay(overlay: Mapping[str, Any]) -> CardData:
    """The complete card data for an overlay already read (as a game's state
    stores it); raises like ``card_data``."""
    return _build_cached(json.dumps(overlay, sort_keys=True))


@cache
def _build_cached(overlay_json: str) -> CardData:
    raw = merged(base_data(), json.loads(overlay_json))
    missing = missing_values(raw)
    if missing:
        raise MissingValues(missing)
    return build(raw)


def build(raw: Mapping[str, Any]) -> CardData:
    """Typed data from complete raw data; ``CardDataError`` names the first
    value of the wrong kind or a reference to a card that does not exist."""
    persons = {card: _person(card, entry) for card, entry in sorted(raw.get("person", {}).items())}
    extras = {card: _extra(card, entry) for card, entry in sorted(raw.get("extra", {}).items())}
    flows = {card: _flow(card, entry) for card, entry in sorted(raw.get("flow", {}).items())}
    rules = _rules(raw.get("rules", {}), set(extras))
    for card in flows.values():
        targets = [card.next, card.next_skipped, card.next_sworn, card.next_revolution, card.next_reaction]
        targets += [o.next for o in (card.red, card.blue) if o is not None]
        for target in targets:
            if target and target not in flows:
                raise CardDataError(f"card.{card.id}: the next card {target!r} does not exist")
        if card.bonus_if and card.bonus_if not in flows:
            raise CardDataError(f"card.{card.id}.bonus_if: {card.bonus_if!r} does not exist")
        for target, _ in card.hinders:
            military = extras[target].military if target in extras else None
            if target != "all" and (military is None or military.kind != "intervention"):
                raise CardDataError(f"card.{card.id}.hinders: {target} is no intervention card")
    if "A01" not in flows:
        raise CardDataError("the flow cards must begin with A01")
    return CardData(persons, extras, flows, rules)


# --- Helpers ----------------------------------------------------------------------------


def _section_of(card: str) -> str | None:
    if card.startswith("PE") and card[2:].isdigit():
        return "person"
    if card.startswith("Z") and card[1:].isdigit():
        return "extra"
    if card.startswith("A") and card[1:].isdigit():
        return "flow"
    return None


def _set(target: dict[str, Any], path: list[str], value: Any) -> None:
    for key in path[:-1]:
        target = target.setdefault(key, {})
        if not isinstance(target, dict):
            raise CardDataError(f"option {'.'.join(path)}: {key} is a value, not a table")
    target[path[-1]] = value


def _typed(name: str, value: Any, parts: list[str], where: str) -> Any:
    """The value of the option ``where`` as the field ``name`` needs it."""
    in_table = len(parts) >= 2 and parts[-2] in ("votes", "radical_votes", "parliament", "conquest")
    if name in _LIST_FIELDS or (in_table and parts[-2] in ("votes", "radical_votes")):
        if isinstance(value, list):
            return [str(v) for v in value]
        text = str(value)
        return UNKNOWN if text == UNKNOWN else [item.strip() for item in text.split(",") if item.strip()]
    if name in _INT_FIELDS or (in_table and parts[-2] == "parliament"):
        if isinstance(value, bool) or not (isinstance(value, int) or str(value).lstrip("-").isdigit()):
            raise CardDataError(f"option {where}: expected a whole number, got {value!r}")
        return int(value)
    if name in _BOOL_FIELDS:
        if isinstance(value, bool):
            return value
        if str(value).lower() in ("true", "false"):
            return str(value).lower() == "true"
        raise CardDataError(f"option {where}: expected true or false, got {value!r}")
    return value if isinstance(value, str) else str(value)


def _unknown(value: Any) -> bool:
    if value == UNKNOWN:
        return True
    if isinstance(value, list):
        return any(_unknown(v) for v in value)
    if isinstance(value, str):
        return UNKNOWN in value.split()
    if isinstance(value, Mapping):
        return any(_unknown(v) for v in value.values())
    return False


def _get(entry: Mapping[str, Any], path: list[str]) -> Any:
    value: Any = entry
    for key in path:
        if not isinstance(value, Mapping) or key not in value:
            return UNKNOWN
        value = value[key]
    return value


def _flow_needs(entry: Mapping[str, Any], parliament_parties: Mapping[str, list[str]]) -> list[str]:
    """The fields of a flow card that must be known, by its kind."""
    played = entry.get("played_for", UNKNOWN)
    mode = entry.get("mode", UNKNOWN)
    if played == UNKNOWN or (played is True and mode == UNKNOWN):
        # Anything may be needed: every unknown leaf counts.
        return ["played_for", "mode"] + sorted(_unknown_leaves(entry, "", {"played_for", "mode"}))
    if played is False:
        special = entry.get("special", "")
        need = {"": ["next"], "armies": ["next"], "preparliament": ["next"], "assembly": ["next"],
                "oath": ["next", "next_skipped", "next_sworn"], "power": ["next_revolution", "next_reaction"],
                "campaign": ["bonus", "bonus_if", "next_revolution"], "victory": []}.get(special, ["special"])
        return need + (["conquest.nations", "conquest.morale"] if "conquest" in entry else [])
    need = ["keep", "points"]
    if mode == "stich":
        need.append("next")
    else:
        need += ["stays", "red.next", "blue.next"]
        if mode == "buendnis":
            parties: list[str] = list(PARTIES)
        else:
            parties = parliament_parties.get(mode, [])
        if mode != "gesamtwert":
            need += [f"votes.{party}" for party in parties]
            need += [f"radical_votes.{party}" for party in entry.get("radical_votes", {})]
    if "conquest" in entry:
        need += ["conquest.nations", "conquest.morale"]
    return need


def _unknown_leaves(entry: Mapping[str, Any], prefix: str, skip: set[str]) -> list[str]:
    found: list[str] = []
    for key, value in entry.items():
        name = f"{prefix}{key}"
        if name in skip:
            continue
        if isinstance(value, Mapping):
            found += _unknown_leaves(value, f"{name}.", skip)
        elif _unknown(value):
            found.append(name)
    return found


def _rule_needs(rules: Mapping[str, Any]) -> list[str]:
    need = ["hand_persons", "hand_extras", "always_stay", "military_from", "radicalise_on", "army_attacks",
            "scoring.free_army_card_at_A25", "scoring.sworn_army_card_at_A26", "power_question.revolution",
            "power_question.reaction"]
    for letter in sorted(rules.get("prognosis", {})):
        need += [f"prognosis.{letter}.{name}" for name in ("text", "condition", "correct", "wrong")]
    return need


def _str(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise CardDataError(f"{where}: expected text, got {value!r}")
    return value


def _int(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise CardDataError(f"{where}: expected a whole number, got {value!r}")
    return value


def _choice(value: Any, allowed: tuple[str, ...], where: str) -> str:
    if value not in allowed:
        raise CardDataError(f"{where}: expected one of {', '.join(a or '(empty)' for a in allowed)}, got {value!r}")
    return str(value)


def _list(value: Any, where: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise CardDataError(f"{where}: expected a list of texts, got {value!r}")
    return list(value)


def _person(card: str, entry: Mapping[str, Any]) -> Person:
    where = f"card.{card}"
    parties = tuple(_choice(p, PARTIES, f"{where}.parties") for p in _list(entry.get("parties"), f"{where}.parties"))
    if not 1 <= len(parties) <= 2:
        raise CardDataError(f"{where}.parties: expected one or two parties, got {list(parties)}")
    general = _choice(entry.get("general", "none"), GENERALS, f"{where}.general")
    strength = _int(entry.get("strength", 0), f"{where}.strength") if general != "none" else 0
    return Person(card, _str(entry.get("name", ""), f"{where}.name"), parties,
                  _int(entry.get("value"), f"{where}.value"), general, strength)


def parse_effect(text: str, where: str) -> Boost | Protect | Attack | Weaken | Military:
    """One effect string of an extra card (the grammar is in the data file's
    head and docs/games/1848.md); ``CardDataError`` says what is wrong."""
    words = text.split()
    problem = CardDataError(f"{where}: cannot read the effect {text!r}")
    if not words:
        raise problem
    kind, rest = words[0], words[1:]
    try:
        if kind in ("boost", "weaken") and len(rest) == 3 and rest[2] in ("each", "once"):
            party = _choice(rest[0], PARTIES, where)
            amount = int(rest[1])
            if kind == "boost":
                return Boost(party, amount, rest[2] == "each")
            return Weaken(party, abs(amount), rest[2] == "each")
        if kind == "protect" and len(rest) >= 3 and rest[1] == "against":
            return Protect(_choice(rest[0], PARTIES, where),
                           frozenset(_choice(c, CATEGORIES, where) for c in rest[2:]))
        if kind == "attack" and rest and rest[0] == "eliminate" and len(rest) >= 3:
            targets = frozenset(_choice(t, ("person", "extra"), where) for t in rest[2:])
            return Attack("eliminate", _choice(rest[1], CATEGORIES, where), targets)
        if kind == "attack" and len(rest) == 5 and rest[0] == "switch" and rest[2] == "to":
            return Attack("switch", _choice(rest[4], CATEGORIES, where), frozenset({"person"}),
                          _choice(rest[1], PARTIES, where), _choice(rest[3], PARTIES, where))
        if kind in ("army", "intervention", "reinforce") and len(rest) == 2:
            nations = NATIONS + (("any",) if kind == "intervention" else ())
            return Military(kind, _choice(rest[0], nations, where), int(rest[1]))
    except ValueError as error:
        if isinstance(error, CardDataError):
            raise
        raise problem from None
    raise problem


def _extra(card: str, entry: Mapping[str, Any]) -> Extra:
    where = f"card.{card}.effects"
    raw = entry.get("effects")
    effects = [parse_effect(text, where) for text in _list(raw, where)] if raw != ["none"] else []
    attacks = [e for e in effects if isinstance(e, Attack)]
    military = [e for e in effects if isinstance(e, Military)]
    if len(attacks) > 1 or len(military) > 1:
        raise CardDataError(f"{where}: at most one attack and one military role per card")
    weakens = tuple(e for e in effects if isinstance(e, Weaken))
    if attacks and weakens:
        raise CardDataError(f"{where}: a card either attacks a card or weakens a side, not both")
    return Extra(
        card, _str(entry.get("name", ""), f"card.{card}.name"),
        tuple(e for e in effects if isinstance(e, Boost)), tuple(e for e in effects if isinstance(e, Protect)),
        attacks[0] if attacks else None, weakens, military[0] if military else None,
    )


def _votes(table: Any, where: str, parties: tuple[str, ...], single: bool) -> dict[str, tuple[str, ...]]:
    if not isinstance(table, Mapping):
        raise CardDataError(f"{where}: expected a table of parties")
    votes: dict[str, tuple[str, ...]] = {}
    for party, colours in table.items():
        _choice(party, parties, where)
        chosen = tuple(_choice(c, COLOURS, f"{where}.{party}") for c in _list(colours, f"{where}.{party}"))
        if not chosen or (single and len(chosen) != 1):
            raise CardDataError(f"{where}.{party}: expected {'one colour' if single else 'red, blue or both'}")
        votes[party] = chosen
    return votes


def _hinders(value: Any, where: str) -> tuple[tuple[str, int], ...]:
    """``["Z13 +2", "all +1"]``: intervention cards made harder to conquer."""
    found = []
    for item in _list(value, where):
        words = item.split()
        if len(words) != 2 or not (words[0] == "all" or (words[0][:1] == "Z" and words[0][1:].isdigit())) \
                or not words[1].lstrip("+").isdigit():
            raise CardDataError(f"{where}: cannot read {item!r}; expected an intervention card and how much more "
                                f"its conquest needs, e.g. \"Z13 +2\" or \"all +1\"")
        found.append((words[0], int(words[1].lstrip("+"))))
    return tuple(found)


def _flow(card: str, entry: Mapping[str, Any]) -> Flow:
    where = f"card.{card}"
    played = entry.get("played_for")
    if not isinstance(played, bool):
        raise CardDataError(f"{where}.played_for: expected true or false, got {played!r}")
    name, name_en = _str(entry.get("name", ""), f"{where}.name"), _str(entry.get("name_en", ""), f"{where}.name_en")
    conquest = entry.get("conquest", {})
    common: dict[str, Any] = dict(
        hinders=_hinders(entry.get("hinders", []), f"{where}.hinders"),
        conquest_nations=tuple(_choice(n, NATIONS, f"{where}.conquest.nations")
                               for n in _list(conquest.get("nations", []), f"{where}.conquest.nations")),
        conquest_morale=_int(conquest.get("morale", 0), f"{where}.conquest.morale"),
        parliament={_choice(p, ASSEMBLY_PARTIES + ("LIB",), f"{where}.parliament"): _int(v, f"{where}.parliament.{p}")
                    for p, v in entry.get("parliament", {}).items()},
    )
    if not played:
        special = _choice(entry.get("special", ""), SPECIALS, f"{where}.special")
        return Flow(
            card, name, name_en, False, special=special, next=str(entry.get("next", "")),
            next_skipped=str(entry.get("next_skipped", "")), next_sworn=str(entry.get("next_sworn", "")),
            next_revolution=str(entry.get("next_revolution", "")), next_reaction=str(entry.get("next_reaction", "")),
            bonus=_int(entry.get("bonus", 0), f"{where}.bonus"), bonus_if=str(entry.get("bonus_if", "")), **common,
        )
    mode = _choice(entry.get("mode"), MODES, f"{where}.mode")
    keep, points = _int(entry.get("keep"), f"{where}.keep"), _int(entry.get("points"), f"{where}.points")
    if mode == "stich":
        return Flow(card, name, name_en, True, mode, keep=keep, points=points,
                    next=_str(entry.get("next"), f"{where}.next"), **common)
    options = {}
    for colour in COLOURS:
        part = entry.get(colour, {})
        options[colour] = Option(_str(part.get("name", ""), f"{where}.{colour}.name"),
                                 _str(part.get("name_en", ""), f"{where}.{colour}.name_en"),
                                 _str(part.get("next"), f"{where}.{colour}.next"))
    stays = _choice(entry.get("stays"), ("red", "blue", "never"), f"{where}.stays")
    parties = ASSEMBLY_PARTIES if mode == "nationalversammlung" else PARTIES
    votes = radical = {}
    if mode != "gesamtwert":
        votes = _votes(entry.get("votes", {}), f"{where}.votes", parties, mode == "buendnis")
        radical = _votes(entry.get("radical_votes", {}), f"{where}.radical_votes", parties, mode == "buendnis")
    return Flow(card, name, name_en, True, mode, keep=keep, points=points, stays=stays, red=options["red"],
                blue=options["blue"], votes=votes, radical_votes=radical, **common)


def _rules(raw: Mapping[str, Any], extras: set[str]) -> Rules:
    attacks: list[tuple[str, str]] = []
    for item in _list(raw.get("army_attacks"), "rules.army_attacks"):
        if item == "none":
            continue
        attacker, _, defender = item.partition(">")
        attacks.append((_choice(attacker, POSITIONS, "rules.army_attacks"),
                        _choice(defender, POSITIONS, "rules.army_attacks")))
    forecasts = {}
    for letter, entry in sorted(raw.get("prognosis", {}).items()):
        where = f"rules.prognosis.{letter}"
        condition = _str(entry.get("condition"), f"{where}.condition")
        check_condition(condition, f"{where}.condition")
        forecasts[letter] = Forecast(letter, str(entry.get("text", "")), condition,
                                     _int(entry.get("correct"), f"{where}.correct"),
                                     _int(entry.get("wrong"), f"{where}.wrong"))
    scoring = raw.get("scoring", {})
    power = raw.get("power_question", {})
    always = frozenset(_list(raw.get("always_stay"), "rules.always_stay"))
    if not always <= extras:
        raise CardDataError(f"rules.always_stay: no such cards: {', '.join(sorted(always - extras))}")
    if "E" not in forecasts:
        raise CardDataError("rules.prognosis: the forecast E (assumed when none is given) is missing")
    return Rules(
        _int(raw.get("hand_persons"), "rules.hand_persons"), _int(raw.get("hand_extras"), "rules.hand_extras"),
        always, _str(raw.get("military_from"), "rules.military_from"),
        _str(raw.get("radicalise_on"), "rules.radicalise_on"), tuple(attacks),
        _int(scoring.get("free_army_card_at_A25"), "rules.scoring.free_army_card_at_A25"),
        _int(scoring.get("sworn_army_card_at_A26"), "rules.scoring.sworn_army_card_at_A26"),
        tuple(_choice(c, COMPONENTS, "rules.power_question.revolution")
              for c in _list(power.get("revolution"), "rules.power_question.revolution")),
        tuple(_choice(c, COMPONENTS, "rules.power_question.reaction")
              for c in _list(power.get("reaction"), "rules.power_question.reaction")),
        forecasts,
    )


def check_condition(condition: str, where: str) -> None:
    """Raise ``CardDataError`` unless ``condition`` is a forecast condition:
    ``never``, or terms ``end=A25``/``end=A26``, ``+Axx``, ``-Axx``."""
    if condition == "never":
        return
    for term in condition.split():
        if term.startswith("end=") and term[4:] in ("A25", "A26"):
            continue
        if term[:1] in "+-" and term[1:2] == "A" and term[2:].isdigit():
            continue
        raise CardDataError(f"{where}: cannot read the condition term {term!r}")


def condition_holds(condition: str, end: str, lying: frozenset[str]) -> bool:
    """Whether a forecast condition holds for a game that ended with ``end``
    (A25 or A26) and the flow cards ``lying`` on the table."""
    if condition == "never":
        return False
    for term in condition.split():
        if term.startswith("end=") and term[4:] != end:
            return False
        if term.startswith("+") and term[1:] not in lying:
            return False
        if term.startswith("-") and term[1:] in lying:
            return False
    return True
