"""What a card of 1848 is and does, in words, in German and English: the
lines of hands, tables and reveals (``PE12 Hans Kudlich – Demokrat, Wert
6``; ``Z02 Strahlendes Vorbild Vereinigte Staaten – eigene Demokraten +7
(einmal)``), so players can choose a play without a printed sheet.
"""

from __future__ import annotations

from adjudicator.games.revolution1848.cards import Attack, Boost, CardData, Extra, Military, Person, Protect, Weaken
from adjudicator.games.revolution1848.wording import PARTY_NAMES, Text, both

SINGULAR = {"LIB": ("Liberaler", "Liberal"), "DEM": ("Demokrat", "Democrat"), "REP": ("Republikaner", "Republican"),
            "REA": ("Reaktionär", "Reactionary"), "RLIB": ("Rechter Liberaler", "Right Liberal"),
            "LLIB": ("Linker Liberaler", "Left Liberal")}
_OBJECT = {"LIB": "Liberalen", "DEM": "Demokraten", "REP": "Republikaner", "REA": "Reaktionär",
           "RLIB": "Rechten Liberalen", "LLIB": "Linken Liberalen"}
"""A party's person after "einen" and "zum"."""
CATEGORY_NAMES = {"satire": ("Satire", "satire"), "influence": ("Beeinflussung", "influence"),
                  "uprising": ("Aufstand", "uprising")}
NATION_NAMES = {"austria": ("Österreich", "Austria"), "prussia": ("Preußen", "Prussia"),
                "any": ("beliebig", "any"), "revolution": ("Revolution", "revolution")}


def _join(parts: list[str], word: str) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + f" {word} " + parts[-1]


def _person(person: Person, party: str | None) -> Text:
    parties = [party] if party else list(person.parties)
    de = _join([SINGULAR[p][0] for p in parties], "oder")
    en = _join([SINGULAR[p][1] for p in parties], "or")
    de, en = f"{de}, Wert {person.value}", f"{en}, value {person.value}"
    if person.general != "none":
        nation_de, nation_en = NATION_NAMES[person.general]
        de += f"; Heerführer ({nation_de}), Stärke {person.strength}"
        en += f"; general ({nation_en}), strength {person.strength}"
    return both(de, en)


def _boost(effect: Boost) -> Text:
    times_de, times_en = ("je Karte", "each card") if effect.each else ("einmal", "once")
    return both(f"eigene {PARTY_NAMES[effect.party][0]} {effect.amount:+d} ({times_de})",
                f"own {PARTY_NAMES[effect.party][1]} {effect.amount:+d} ({times_en})")


def _weaken(effect: Weaken) -> Text:
    times_de, times_en = ("je Karte", "each card") if effect.each else ("einmal", "once")
    return both(f"gegnerische {PARTY_NAMES[effect.party][0]} -{effect.amount} ({times_de}; liegt beim Gegner)",
                f"opponent's {PARTY_NAMES[effect.party][1]} -{effect.amount} ({times_en}; lies on his side)")


def _protect(effect: Protect) -> Text:
    against = sorted(effect.against)
    return both(f"schützt eigene {PARTY_NAMES[effect.party][0]} gegen "
                f"{_join([CATEGORY_NAMES[c][0] for c in against], 'und')}",
                f"protects own {PARTY_NAMES[effect.party][1]} against "
                f"{_join([CATEGORY_NAMES[c][1] for c in against], 'and')}")


def _attack(effect: Attack) -> Text:
    kind_de, kind_en = CATEGORY_NAMES[effect.category]
    if effect.action == "switch":
        return both(f"Angriff ({kind_de}): macht einen {_OBJECT[effect.switch_from]} zum {_OBJECT[effect.switch_to]}",
                    f"attack ({kind_en}): turns a {SINGULAR[effect.switch_from][1]} into a "
                    f"{SINGULAR[effect.switch_to][1]}")
    extra_de = " oder entwertet eine Zusatzkarte" if "extra" in effect.targets else ""
    extra_en = " or devalues an extra card" if "extra" in effect.targets else ""
    return both(f"Angriff ({kind_de}): schaltet eine Person aus{extra_de}",
                f"attack ({kind_en}): eliminates a person{extra_en}")


def _military(effect: Military) -> Text:
    nation_de, nation_en = NATION_NAMES[effect.nation]
    if effect.kind == "army":
        return both(f"Armee ({nation_de}), Stärke {effect.strength}", f"army ({nation_en}), strength {effect.strength}")
    if effect.kind == "reinforce":
        return both(f"verstärkt eine Armee ({nation_de}) um {effect.strength}",
                    f"reinforces an army ({nation_en}) by {effect.strength}")
    return both(f"Interventionsgelegenheit: eine Armee ({nation_de}) mit mehr als {effect.strength} erobert sie",
                f"intervention opportunity: an army ({nation_en}) of more than {effect.strength} conquers it")


def _extra(extra: Extra) -> Text:
    parts: list[Text] = [_boost(b) for b in extra.boosts] + [_weaken(w) for w in extra.weakens]
    parts += [_protect(p) for p in extra.protects]
    if extra.attack is not None:
        parts.append(_attack(extra.attack))
    if extra.military is not None:
        parts.append(_military(extra.military))
    if not parts:
        return both("ohne Wirkung", "no effect")
    return both("; ".join(p["de"] for p in parts), "; ".join(p["en"] for p in parts))


def what(data: CardData, code: str, party: str | None = None) -> Text:
    """What a card is and does: party and value (a general's army and
    strength too), an extra card's effects, a flow card's title."""
    if code in data.persons:
        return _person(data.persons[code], party)
    if code in data.extras:
        return _extra(data.extras[code])
    flow = data.flows.get(code)
    if flow is not None:
        return both(flow.name or code, flow.name_en or flow.name or code)
    return both("", "")


def line(data: CardData, code: str, party: str | None = None) -> Text:
    """A card in one line: ``PE12 Hans Kudlich – Demokrat, Wert 6``."""
    name = data.name_of(code)
    head = code if name == code else f"{code} {name}"
    described = what(data, code, party)
    if code in data.flows:
        return both(head, f"{code} {described['en']}" if described["en"] != code else head)
    return both(f"{head} – {described['de']}", f"{head} – {described['en']}")
