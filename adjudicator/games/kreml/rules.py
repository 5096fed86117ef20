"""Kreml's fixed rules: offices, levels, the numbers of the rule text, the
game options (every Hausregel and Zusatzregel) and small helpers over the
state.

The state is a JSON dict (see ``flow.py`` for its fields).  The helpers
here read it, or change the *working copy* that a public function of
``flow.py`` made of it (a JSON copy); no public function ever changes
the state it was given.
"""

from __future__ import annotations

from typing import Any, Mapping

from adjudicator.games.base import GameSetupError, Note

JSON = dict[str, Any]

CHIEF = "chief"
LEVEL1 = ("kgb", "foreign", "defence")
LEVEL2 = ("ideology", "industry", "agriculture", "sport")
OFFICES = (CHIEF, *LEVEL1, *LEVEL2)
"""The eight offices of the Politburo in rank order (Hausregel 4: within
levels 1 and 2 from left to right as on page 4)."""
LEVEL = {CHIEF: 0, **{o: 1 for o in LEVEL1}, **{o: 2 for o in LEVEL2}}
CANDIDATE, PEOPLE, SIBERIA, WALL, OUT = "candidate", "people", "siberia", "wall", "out"
CANDIDATE_PLACES = 5

PURGE_NEED = {0: 18, 1: 14, 2: 10, 3: 6}
"""W20 needed to purge the party chief, level 1, level 2, a candidate (level 3)."""
CURE_BONUS = 3
PURGERS = ("kgb", "ideology", CHIEF, "industry")
INVESTIGATORS = ("defence", "foreign", "kgb", CHIEF, "industry")
NOMINATORS = ("foreign", "ideology", "kgb", "industry", "agriculture", "sport", "defence")
ACCUSATION_FAILS_AT = 2
ELECTION_FAILS_AT = 3
PARADE_ROLL = {1: 8, 2: 15}
"""W20 the chief needs for the parade with 1 or 2 illness markers (stress as many)."""
DEATH_AT = 3
GUILLOTINE = 95
WINNING_PARADES = 3
PARADE_YEAR = 10
LAST_YEAR = 11
FIRST_YEAR = 1951
CHIEF_CHANGES = 13
"""The most changes the chief may make in a year (8 offices + 5 candidate places; a swap across levels counts two)."""
STRESS = {"purge_ok": 1, "purge_failed": 3, "investigate": 1, "pending": 1, "accusation_failed": 3, "deport": 2,
          "nomination_failed": 1, "promote": 1, "rehabilitate": 5}

SEATS = ("A", "B", "C", "D", "E", "F")

DEFAULTS: dict[str, int] = {"hr1": 1, "hr2": 2, "hr5": 2, "hr6": 1, "hr7": 2, "hr8": 1, "hr9": 2, "hr10": 1,
                            "zr1": 0, "zr2": 0, "zr3": 0, "window": 1, "events": 1}
"""Hausregeln as the number of the variant (the text's preference as
default), Zusatzregeln, the year's reveal window and the event cards
(ruling 29) as 0 (off) or 1 (on)."""
VARIANTS = {"hr1": (1, 2, 3), "hr2": (1, 2), "hr5": (1, 2), "hr6": (1, 2), "hr7": (1, 2), "hr8": (1, 2),
            "hr9": (1, 2), "hr10": (1, 2), "zr1": (0, 1), "zr2": (0, 1), "zr3": (0, 1), "window": (0, 1),
            "events": (0, 1)}
_LONG = {f"hausregel{n}": f"hr{n}" for n in (1, 2, 5, 6, 7, 8, 9, 10)} | {
    f"zusatzregel{n}": f"zr{n}" for n in (1, 2, 3)} | {f"houserule{n}": f"hr{n}" for n in (1, 2, 5, 6, 7, 8, 9, 10)} | {
    "ereigniskarten": "events", "ereignisse": "events"}
_WORDS = {"on": 1, "an": 1, "ja": 1, "yes": 1, "true": 1, "off": 0, "aus": 0, "nein": 0, "no": 0, "false": 0}
SERVICE_OPTIONS = ("data", "seniority", "seed")


def rule_options(options: Mapping[str, Any]) -> dict[str, int]:
    """The rule options of a game from its options (defaults where not
    given); raises ``GameSetupError`` naming a wrong option or value."""
    chosen = dict(DEFAULTS)
    for key, value in options.items():
        name = _LONG.get(key.lower(), key.lower())
        if key in SERVICE_OPTIONS or key.startswith("data."):
            continue
        if name not in VARIANTS:
            known = ", ".join(sorted(VARIANTS))
            raise GameSetupError(f"unknown option {key!r} (Kreml knows {known}, data, data.kreml, seniority)",
                                 Note("kreml_setup_unknown_option", (("option", repr(key)), ("known", known))))
        number = _WORDS.get(str(value).strip().lower()) if not isinstance(value, int) else value
        if number is None and str(value).strip().isdigit():
            number = int(str(value).strip())
        if number not in VARIANTS[name]:
            allowed = ", ".join(str(v) for v in VARIANTS[name])
            raise GameSetupError(f"option {key}: {value!r} is not a variant (allowed: {allowed})",
                                 Note("kreml_setup_variant", (("option", key), ("value", repr(value)),
                                                              ("allowed", allowed))))
        chosen[name] = int(number)
    return chosen


# --- reading the state ---------------------------------------------------------------------


def where(state: JSON, name: str) -> str:
    """Where a politician is: an office key, candidate, people, siberia, wall or out."""
    return str(state["pol"][name]["where"])


def holder(state: JSON, office: str) -> str | None:
    """The politician holding ``office``, or None when it is vacant."""
    for name, entry in state["pol"].items():
        if entry["where"] == office:
            return str(name)
    return None


def in_politburo(state: JSON, name: str) -> bool:
    """True when ``name`` holds one of the eight offices."""
    return where(state, name) in LEVEL


def present(state: JSON, name: str | None) -> bool:
    """True when ``name`` holds an office and is not away in cure."""
    return name is not None and in_politburo(state, name) and not state["pol"][name]["cure"]


def level_of(state: JSON, name: str) -> int:
    """0 chief, 1, 2 the Politburo levels, 3 candidates, 4 the people, 5 elsewhere."""
    place = where(state, name)
    if place in LEVEL:
        return LEVEL[place]
    return {CANDIDATE: 3, PEOPLE: 4}.get(place, 5)


def members(state: JSON) -> list[str]:
    """The Politburo members in rank order."""
    found = [holder(state, office) for office in OFFICES]
    return [name for name in found if name is not None]


def at(state: JSON, place: str) -> list[str]:
    """The politicians at ``place`` (candidate, people, siberia, ...) in card order."""
    return [str(n) for n, e in state["pol"].items() if e["where"] == place]


def leader(state: JSON, name: str) -> str | None:
    """The player leading ``name`` now (only Politburo members are led;
    with Hausregel 2 variant 1 a leader keeps a politician outside)."""
    entry = state["leaders"].get(name)
    if entry is None or not in_politburo(state, name):
        return None
    return str(entry[0])


def shown(state: JSON, name: str) -> int:
    """The influence points the leader of ``name`` has revealed (0: not led)."""
    entry = state["leaders"].get(name)
    return int(entry[1]) if entry is not None else 0


def office_of(state: JSON, name: str) -> str | None:
    """The office ``name`` holds, or None."""
    place = where(state, name)
    return place if place in LEVEL else None


def oldest(state: JSON, names: list[str]) -> list[str]:
    """``names`` from the oldest to the youngest (equal ages: higher place
    first, then card order; ruling 18)."""
    order = {n: i for i, n in enumerate(state["pol"])}
    rank = {o: i for i, o in enumerate(OFFICES)}
    return sorted(names, key=lambda n: (-int(state["pol"][n]["age"]), level_of(state, n),
                                        rank.get(where(state, n), 99), order[n]))
