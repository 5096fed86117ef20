"""What a card of 1848 is and does, in words, in German and English: the
lines of hands, tables and reveals (``PE12 Hans Kudlich – Demokrat, Wert
6``; ``Z02 Strahlendes Vorbild Vereinigte Staaten – eigene Demokraten +7
(einmal)``), so players can choose a play without a printed sheet.
The words are the catalogue's (``templates/texts/revolution1848.toml``,
keys ``r1848_card_*``, ``r1848_one_*``, ``r1848_object_*``).
"""

from __future__ import annotations

from adjudicator.games.revolution1848.cards import Attack, Boost, CardData, Extra, Military, Person, Protect, Weaken
from adjudicator.games.revolution1848.wording import LANGUAGES, Text, both, pair, party


def _join(parts: list[Text], word: str) -> Text:
    """``a``, ``a oder b``, ``a, b oder c`` in each language (``word``: r1848_list_or/and)."""
    last = pair(word)
    return {lang: parts[0][lang] if len(parts) == 1 else ", ".join(p[lang] for p in parts[:-1]) + f" {last[lang]} "
            + parts[-1][lang] for lang in LANGUAGES}


def _nation(code: str) -> Text:
    return pair(f"r1848_nation_name_{code}")


def _person(person: Person, chosen: str | None) -> Text:
    parties = _join([pair(f"r1848_one_{p}") for p in ([chosen] if chosen else list(person.parties))], "r1848_list_or")
    if person.general != "none":
        return pair("r1848_card_general", parties=parties, value=person.value, nation=_nation(person.general),
                    strength=person.strength)
    return pair("r1848_card_person", parties=parties, value=person.value)


def _times(each: bool) -> Text:
    return pair("r1848_card_each" if each else "r1848_card_once")


def _boost(effect: Boost) -> Text:
    return pair("r1848_card_boost", party=party(effect.party), amount=f"{effect.amount:+d}", times=_times(effect.each))


def _weaken(effect: Weaken) -> Text:
    return pair("r1848_card_weaken", party=party(effect.party), amount=effect.amount, times=_times(effect.each))


def _protect(effect: Protect) -> Text:
    against = _join([pair(f"r1848_category_{c}") for c in sorted(effect.against)], "r1848_list_and")
    return pair("r1848_card_protect", party=party(effect.party), against=against)


def _attack(effect: Attack) -> Text:
    kind = pair(f"r1848_category_{effect.category}")
    if effect.action == "switch":
        return pair("r1848_card_switch", kind=kind, was=pair(f"r1848_object_{effect.switch_from}"),
                    now=pair(f"r1848_object_{effect.switch_to}"))
    key = "r1848_card_eliminate_or_devalue" if "extra" in effect.targets else "r1848_card_eliminate"
    return pair(key, kind=kind)


def _military(effect: Military) -> Text:
    key = {"army": "r1848_card_army", "reinforce": "r1848_card_reinforce"}.get(effect.kind, "r1848_card_intervention")
    return pair(key, nation=_nation(effect.nation), strength=effect.strength)


def _extra(extra: Extra) -> Text:
    parts: list[Text] = [_boost(b) for b in extra.boosts] + [_weaken(w) for w in extra.weakens]
    parts += [_protect(p) for p in extra.protects]
    if extra.attack is not None:
        parts.append(_attack(extra.attack))
    if extra.military is not None:
        parts.append(_military(extra.military))
    if not parts:
        return pair("r1848_card_no_effect")
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
