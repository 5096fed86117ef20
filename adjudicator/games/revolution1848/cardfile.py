"""The card file a GM of 1848 fills in: its template, its checker and the
list of what a file still leaves unknown (the ``DataFile`` named
``cards``).

The template is ``cards/1848.toml`` itself, every value the rule text does
not give turned into a commented placeholder that says what the value
means, what is allowed and where it shows on the physical card.  A
supplied file is read over ``cards/1848.toml`` (tables merge key by key),
so it may be the whole filled-in template or only the values a GM adds.
``check`` reports every problem at once, each with its line, card and
field and what is allowed.  Pure functions over the packaged data.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from functools import cache
from typing import Any

from adjudicator.games.base import DataFile, Finding, toml_syntax_finding
from adjudicator.games.revolution1848.cards import (
    CardDataError, UNKNOWN, base_text, build, merged, missing_values, base_data, standin_text,
)

PERSON_VALUES = range(1, 9)
"""The published range of a person card's value."""
POINTS = (2, 3)
"""A flow card is worth 2 or 3 points ("gewonnene Ablaufkarten (2 oder 3 Punkte)")."""

_FIELDS: dict[str, dict[str, str]] = {
    "person": {
        "name": "the person's name (text), top of the card",
        "parties": 'its party, or two to choose from when played: ["LIB"], ["LIB", "DEM"] (LIB, DEM, REP, REA); '
                   "bottom left of the card",
        "value": "its value, a whole number 1-8; the number under the party, bottom left",
        "general": '"none", or the army a general leads: "austria", "prussia", "revolution" (the flag symbol)',
        "strength": "a general's military strength, a whole number 0-20: the number on the Kreuz (cross) symbol",
    },
    "extra": {
        "name": "the card's title (text)",
        "effects": 'a list of effects in words, e.g. ["boost REP +2 once", "protect LIB against satire"]; see the '
                   "head of this file; the card's text",
    },
    "flow": {
        "name": "the card's title (text)", "name_en": "its title in English (text)",
        "played_for": "true when the players play for the card, false for the cards that simply stay",
        "mode": '"stich", "buendnis", "vorparlament", "nationalversammlung" or "gesamtwert" (the Kaiserwahl: '
                "total value, marked K)",
        "special": 'for a card not played for: "armies", "preparliament", "assembly", "oath", "power", '
                   '"campaign", "victory"',
        "keep": "how many cards may stay on each side, a whole number 0-6: white on green, top right",
        "points": "its points when won, 2 or 3",
        "stays": '"red", "blue" or "never": after which decision the card stays on the table (symbol bottom left)',
        "next": 'the next flow card, "A01"-"A26" (the hint at the bottom of the card)',
        "next_skipped": "A15: the next card when A12 lies", "next_sworn": "A15: the next card when armies are sworn",
        "next_revolution": "the next card when the revolution is stronger",
        "next_reaction": "the next card when the reaction is stronger",
        "hinders": 'the interventions this card makes harder while it lies on the table (after the decision that '
                   'keeps it there): ["Z13 +2"] (an intervention card and how much more strength its conquest needs; '
                   '"all" for every one); the text: "Die Möglichkeit zur Intervention kann durch bestimmte politische '
                   'Entscheidungen erschwert werden"',
        "bonus": "A25: what the revolution gains when bonus_if lies", "bonus_if": "A25: the card that gives the bonus",
    },
    "rules": {
        "army_attacks": 'which army may attack which: ["free>A15", "A15>free", ...] (positions A04, free, A12, A15), '
                        'or ["none"]; the list of the military rule',
        "revolution": "what adds up to the revolution's strength at A24/A25: interventions, parliament_army, "
                      "sworn_armies, a04_armies, free_armies",
        "reaction": "what adds up to the reaction's strength (the same words)",
        "text": "the forecast's wording (text)",
        "condition": 'when the forecast is right: "end=A25" / "end=A26", "+A13" (lies at the end), "-A13", '
                     'separated by spaces; or "never"',
        "correct": "points won when right, a whole number", "wrong": "points lost when wrong, a whole number",
    },
}
_OPTION_FIELDS = {"name": "the decision's wording (text)", "name_en": "in English (text)",
                  "next": 'the flow card after this decision, "A01"-"A26" (bottom of the card)'}
_VOTES = ('the colours the party may vote for: ["red"], ["blue"] or ["red", "blue"] (the colours of the '
          "party on the card; in an alliance one colour, its side)")
_KNOWN_TABLES = {"person": "PE", "extra": "Z", "flow": "A"}


def _meaning(path: list[str]) -> str:
    """What the field at ``path`` (["person", "PE02", "value"]) means."""
    section, last = path[0], path[-1]
    if section == "flow" and len(path) >= 4 and path[2] in ("red", "blue"):
        return _OPTION_FIELDS.get(last, "")
    if section == "flow" and len(path) >= 4 and path[2] in ("votes", "radical_votes"):
        return _VOTES + (" after the radicalisation (A09)" if path[2] == "radical_votes" else "")
    if section == "flow" and len(path) >= 4 and path[2] == "conquest":
        return {"nations": 'the armies that may put the rising down: ["austria"], ["prussia"] or both',
                "morale": "the morale (number of cards) an army needs, a whole number"}.get(last, "")
    return _FIELDS.get(section, {}).get(last, "")


# --- where each value stands in a text --------------------------------------------------------

_HEADER = re.compile(r"^\s*\[\s*([^\]]+?)\s*\]\s*(#.*)?$")
_KEY = re.compile(r"^\s*#?\s*([A-Za-z0-9_.\-\"]+)\s*=")


def lines_of(text: str) -> dict[str, int]:
    """The line of every table and key of a TOML text: ``"person.PE02"`` ->
    line of its header, ``"person.PE02.value"`` -> line of the key (also
    of a commented placeholder ``# value = ...``, where no real key is)."""
    found: dict[str, int] = {}
    table = ""
    for number, line in enumerate(text.splitlines(), start=1):
        header = _HEADER.match(line)
        if header and not line.lstrip().startswith("#"):
            table = ".".join(part.strip().strip('"') for part in header.group(1).split("."))
            found.setdefault(table, number)
            continue
        key = _KEY.match(line)
        if key:
            name = ".".join(part.strip('"') for part in key.group(1).split("."))
            path = f"{table}.{name}" if table else name
            if not line.lstrip().startswith("#") or path not in found:
                found[path] = number
    return found


def _where(lines: Mapping[str, int], path: str) -> str:
    """``line N: `` for the nearest known place of ``path`` (the field, else its table)."""
    parts = path.split(".")
    while parts:
        if ".".join(parts) in lines:
            return f"line {lines['.'.join(parts)]}: "
        parts.pop()
    return ""


def _line(lines: Mapping[str, int], path: str) -> int:
    """The line of the nearest known place of ``path`` (0: none)."""
    parts = path.split(".")
    while parts and ".".join(parts) not in lines:
        parts.pop()
    return lines[".".join(parts)] if parts else 0


def _finding(lines: Mapping[str, int], path: str, english: str, key: str, **fields: Any) -> Finding:
    """A problem at ``path`` (``person.PE02.value``): its line, card and
    field, the catalogue ``key`` with ``fields``, and the English text
    ``line N: [person.PE02] value: <english>``."""
    parts = path.split(".")
    card, field = (("[rules]", ".".join(parts[1:])) if parts[0] == "rules"
                   else (parts[1] if len(parts) > 1 else f"[{parts[0]}]", ".".join(parts[2:])))
    shown = f"[{path}]" if len(parts) <= 2 and parts[0] != "rules" else _shown(path)
    return Finding(f"{_where(lines, path)}{shown}: {english}", key, tuple((k, str(v)) for k, v in fields.items()),
                   _line(lines, path), card, field)


def _shown(path: str) -> str:
    """``[person.PE02] value`` for ``person.PE02.value``."""
    parts = path.split(".")
    if parts[0] == "rules":
        return f"[rules] {'.'.join(parts[1:])}"
    return f"[{'.'.join(parts[:2])}] {'.'.join(parts[2:])}".rstrip()


# --- the template ---------------------------------------------------------------------------------


@cache
def template() -> str:
    """The card file to fill in: ``cards/1848.toml`` with every unknown
    value a commented placeholder (``# value = ...  # TO FILL IN: ...``)
    saying what it means, what is allowed and where it is on the card."""
    out = [
        "# 1848 - Die Revolution: the card file a game master fills in (template).",
        "#",
        "# Every value the rule text does not give is a commented line marked TO FILL IN:",
        "# read it off your cards, write it after the '=' and remove the '# ' in front.",
        "# Check the file with `adjudicator cards check my-cards.toml`, then send it as",
        "# the attachment of a mail `GM CREATE <game> 1848` or `GM CARDS` (German: SL KARTEN).",
        "# Values already filled in come from the rule text; you may correct them.",
        "# You may also send only the values you add: the file is read over the judge's own.",
        "# Optional, where your cards show it: a flow card's hinders = [\"Z13 +2\"] (while it lies",
        "# on the table, conquering Z13 needs 2 more; \"all +1\" for every intervention card),",
        "# and mode = \"gesamtwert\" for the Kaiserwahl (K) card.",
        "#",
    ]
    table: list[str] = []
    for line in base_text().splitlines():
        header = _HEADER.match(line)
        if header and not line.lstrip().startswith("#"):
            table = [p.strip().strip('"') for p in header.group(1).split(".")]
            out.append(line)
            continue
        key = _KEY.match(line)
        if key and not line.lstrip().startswith("#") and UNKNOWN in line.split("#")[0]:
            name = key.group(1)
            value_text = line.split("=", 1)[1].split("#")[0].strip()
            path = table + name.split(".")
            meaning = _meaning(path) or "see docs/games/1848.md"
            source = line.split("#", 1)[1].strip() if "#" in line else ""
            shown = "..." if value_text == f'"{UNKNOWN}"' else value_text.replace(f'"{UNKNOWN}"', "...").replace(
                UNKNOWN, "...")
            out.append(f"# {name} = {shown}    # TO FILL IN: {meaning}" + (f" (the text: {source})" if source else ""))
            continue
        out.append(line)
    return "\n".join(out) + "\n"


# --- the checker ----------------------------------------------------------------------------------


def _toml_problem(error: tomllib.TOMLDecodeError) -> str:
    message = str(error)
    found = re.search(r"\(at line (\d+), column (\d+)\)", message)
    what = re.sub(r"\s*\(at line \d+, column \d+\)", "", message)
    if found:
        return f"line {found.group(1)}, column {found.group(2)}: not valid TOML: {what}"
    return f"not valid TOML: {what}"


_KIND_KEYS: tuple[tuple[re.Pattern[str], str, tuple[str, ...]], ...] = tuple(
    (re.compile(pattern + "$"), key, names) for pattern, key, names in (
        (r"expected a whole number, got (.*)", "r48_find_want_number", ("value",)),
        (r"expected true or false, got (.*)", "r48_find_want_bool", ("value",)),
        (r"expected text, got (.*)", "r48_find_want_text", ("value",)),
        (r"expected a list of texts, got (.*)", "r48_find_want_list", ("value",)),
        (r"expected one of (.*), got (.*)", "data_find_one_of", ("allowed", "value")),
        (r"expected one or two parties, got (.*)", "r48_find_want_parties", ("value",)),
        (r"the next card (.*) does not exist", "r48_find_no_next", ("value",)),
        (r"(.*) does not exist", "r48_find_no_ref", ("value",)),
        (r"(.*) is no intervention card", "r48_find_no_intervention", ("value",)),
        (r"cannot read the effect (.*)", "r48_find_effect", ("value",)),
        (r"cannot read the condition term (.*)", "r48_find_condition", ("value",)),
        (r"no such cards: (.*)", "r48_find_no_cards", ("value",)),
    ))
"""The checks of ``cards.build`` by their English wording: the catalogue
key each is worded with in the game's language, and its fields."""


def _structure(raw: Mapping[str, Any], base: Mapping[str, Any], lines: Mapping[str, int]) -> list[str | Finding]:
    """Tables, cards and fields that do not exist."""
    problems: list[str | Finding] = []
    for section, value in raw.items():
        if section == "rules":
            continue
        if section not in _KNOWN_TABLES or not isinstance(value, Mapping):
            problems.append(_finding(lines, section, "no such table (person, extra, flow, rules)", "r48_find_no_table",
                                     tables="person, extra, flow, rules"))
            continue
        for card, entry in value.items():
            path = f"{section}.{card}"
            if card not in base.get(section, {}):
                first, last = sorted(base.get(section, {}))[0], sorted(base.get(section, {}))[-1]
                problems.append(_finding(lines, path, f"no such card ({first}-{last})", "r48_find_no_card",
                                         first=first, last=last))
                continue
            if not isinstance(entry, Mapping):
                problems.append(_finding(lines, path, "expected a table of fields", "r48_find_not_table"))
                continue
            allowed = set(_FIELDS[section]) | {"red", "blue", "votes", "radical_votes", "parliament", "conquest",
                                               "parties_note"}
            for name in entry:
                if name not in allowed:
                    listed = ", ".join(sorted(_FIELDS[section]))
                    problems.append(_finding(lines, f"{path}.{name}", f"no such field (allowed: {listed})",
                                             "r48_find_no_field", allowed=listed))
    return problems


def _ranges(raw: Mapping[str, Any], lines: Mapping[str, int]) -> list[str | Finding]:
    """Values of the right kind but outside what the physical cards allow."""
    problems: list[str | Finding] = []

    def whole(value: Any) -> bool:
        return isinstance(value, int) and not isinstance(value, bool)

    for card, entry in sorted(raw.get("person", {}).items()):
        value = entry.get("value", UNKNOWN)
        if whole(value) and value not in PERSON_VALUES:
            problems.append(_finding(lines, f"person.{card}.value", f"{value} is outside 1-8 (the values of person "
                                     "cards)", "r48_find_outside", low=1, high=8, value=value))
        strength = entry.get("strength", UNKNOWN)
        if whole(strength) and not 0 <= strength <= 20:
            problems.append(_finding(lines, f"person.{card}.strength", f"{strength} is outside 0-20",
                                     "r48_find_outside", low=0, high=20, value=strength))
    for card, entry in sorted(raw.get("flow", {}).items()):
        points, keep = entry.get("points", UNKNOWN), entry.get("keep", UNKNOWN)
        if whole(points) and points not in POINTS:
            problems.append(_finding(lines, f"flow.{card}.points", f"{points}; a flow card is worth 2 or 3 points",
                                     "r48_find_points", value=points))
        if whole(keep) and not 0 <= keep <= 6:
            problems.append(_finding(lines, f"flow.{card}.keep", f"{keep} is outside 0-6", "r48_find_outside",
                                     low=0, high=6, value=keep))
    return problems


def _kinds(raw: Mapping[str, Any], lines: Mapping[str, int]) -> list[Finding]:
    """Every value of the wrong kind, each card built on its own."""
    problems: list[Finding] = []
    standin = merged(base_data(), tomllib.loads(standin_text()))
    for section in ("person", "extra", "flow"):
        for card, entry in sorted(raw.get(section, {}).items()):
            entry = _known_or(entry, standin.get(section, {}).get(card, {}))
            if _has_unknown(entry):
                continue
            skeleton = _skeleton(raw)
            skeleton["extra"] = dict(standin.get("extra", {}))  # what flow cards refer to
            skeleton[section] = {**skeleton.get(section, {}), card: entry}
            try:
                build(skeleton)
            except CardDataError as error:
                problems.append(_located(str(error), lines))
    return problems


def _known_or(entry: Mapping[str, Any], stand_in: Mapping[str, Any]) -> dict[str, Any]:
    """``entry`` with each value still unknown taken from the stand-in set,
    so that the kind of every value the GM gave can be checked on its own."""
    result: dict[str, Any] = {}
    for key, value in entry.items():
        other = stand_in.get(key) if isinstance(stand_in, Mapping) else None
        if isinstance(value, Mapping):
            result[key] = _known_or(value, other if isinstance(other, Mapping) else {})
        elif _has_unknown(value) and other is not None:
            result[key] = other
        else:
            result[key] = value
    return result


def _skeleton(raw: Mapping[str, Any]) -> dict[str, Any]:
    """The least data ``build`` accepts around one card (A01 and complete rules)."""
    rules = {"hand_persons": 3, "hand_extras": 3, "always_stay": [], "military_from": "A06", "radicalise_on": "A09",
             "army_attacks": ["none"], "scoring": {"free_army_card_at_A25": 3, "sworn_army_card_at_A26": 2},
             "power_question": {"revolution": [], "reaction": []},
             "prognosis": {"E": {"text": "", "condition": "never", "correct": 0, "wrong": 0}}}
    flows = {card: {"played_for": False, "special": "victory"} for card in raw.get("flow", {})}
    return {"rules": rules, "flow": flows}


def _has_unknown(value: Any) -> bool:
    if isinstance(value, Mapping):
        return any(_has_unknown(v) for v in value.values())
    if isinstance(value, list):
        return any(_has_unknown(v) for v in value)
    return value == UNKNOWN or (isinstance(value, str) and UNKNOWN in value.split())


def _located(message: str, lines: Mapping[str, int]) -> Finding:
    """A ``CardDataError`` message (``card.PE02.value: expected ...``) as a
    finding: its line, the card and field as in the file, the catalogue
    key of its kind (``r48_find_other`` with the English detail for a
    wording ``_KIND_KEYS`` does not know)."""
    found = re.match(r"(?:option )?(card|rules)\.([A-Za-z0-9_.]+?):\s*(.*)$", message)
    if not found:
        return Finding(message, *_kind_key(message))
    kind, dotted, rest = found.groups()
    if kind == "card":
        card, _, field_path = dotted.partition(".")
        section = {"P": "person", "Z": "extra", "A": "flow"}.get(card[:1], "flow")
        path = f"{section}.{card}" + (f".{field_path}" if field_path else "")
    else:
        path = f"rules.{dotted}"
    key, fields = _kind_key(rest)
    return _finding(lines, path, rest, key, **dict(fields))


def _kind_key(rest: str) -> tuple[str, tuple[tuple[str, str], ...]]:
    """The catalogue key and fields of a ``cards.build`` problem's wording."""
    if rest == "the flow cards must begin with A01":
        return "r48_find_begin_a01", ()
    for pattern, key, names in _KIND_KEYS:
        found = pattern.match(rest)
        if found:
            return key, tuple(zip(names, found.groups()))
    return "r48_find_other", (("detail", rest),)


def _unknown_path(option_name: str) -> str:
    """``person.PE02.value`` for the option name ``card.PE02.value``."""
    if option_name.startswith("rules."):
        return option_name
    card, _, rest = option_name.removeprefix("card.").partition(".")
    section = {"P": "person", "Z": "extra", "A": "flow"}.get(card[:1], "flow")
    return f"{section}.{card}.{rest}"


def read(text: str) -> dict[str, Any]:
    """The card overlay of a card file's text; ``CardDataError`` with the
    TOML problem's line when it is no TOML."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise CardDataError(_toml_problem(error)) from None


def check(text: str) -> tuple[str | Finding, ...]:
    """Every problem of a card file (empty: a game can start with it), each
    ``line N: [card] field: what is allowed``: TOML errors, unknown cards
    and fields, values of the wrong kind or out of range, values still
    unknown, next cards that do not exist."""
    try:
        overlay = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        return (toml_syntax_finding(error, _toml_problem(error)),)
    lines = lines_of(text)
    base = base_data()
    problems = _structure(overlay, base, lines)
    if problems:
        return tuple(problems)
    raw = merged(base, overlay)
    problems += _ranges(raw, lines)
    problems += _kinds(raw, lines)
    for name in missing_values(raw):
        path = _unknown_path(name)
        meaning = _meaning(path.split("."))
        problems.append(_finding(lines, path, "still unknown" + (f"; {meaning}" if meaning else ""),
                                 "r48_find_unknown"))
    if not problems:
        try:
            build(raw)
        except CardDataError as error:
            problems.append(_located(str(error), lines))
    return tuple(problems)


def unknown(text: str | None) -> tuple[str, ...]:
    """What a card file (None: nothing supplied) still leaves unknown, one
    line per card: ``PE02 (name): parties, value``."""
    overlay: dict[str, Any] = {}
    if text is not None:
        try:
            overlay = tomllib.loads(text)
        except tomllib.TOMLDecodeError:
            overlay = {}
    raw = merged(base_data(), overlay)
    by_card: dict[str, list[str]] = {}
    for name in missing_values(raw):
        if name.startswith("rules."):
            head, _, rest = name.removeprefix("rules.").partition(".")
            key = f"rules.{head}" if head == "prognosis" and "." in rest else "rules"
            if head == "prognosis":
                letter, _, field_name = rest.partition(".")
                key, rest = f"forecast {letter}", field_name
            else:
                rest = name.removeprefix("rules.")
            by_card.setdefault(key, []).append(rest)
            continue
        card, _, field_name = name.removeprefix("card.").partition(".")
        by_card.setdefault(card, []).append(field_name)
    names = {card: str(entry.get("name", "")) for section in ("person", "extra", "flow")
             for card, entry in raw.get(section, {}).items()}
    return tuple(f"{card}" + (f" ({names[card]})" if names.get(card) else "") + ": " + ", ".join(fields)
                 for card, fields in by_card.items())


CARDS = DataFile(
    "cards", template, check, required=True, standin=standin_text,
    title_en="the card file (values, parties, effects, army strengths, flow cards; the rule text lacks them)",
    title_de="die Kartendatei (Werte, Parteien, Wirkungen, Armeestärken, Ablaufkarten; der Regeltext nennt sie nicht)",
    unknown=unknown,
)
"""The card file as the game module names it (``Revolution1848.data_files``):
here, so that its template and check need none of the rules (issue 20)."""

DATA_FILES = (CARDS,)
"""Every data file of 1848, for the registry's description of the game."""
