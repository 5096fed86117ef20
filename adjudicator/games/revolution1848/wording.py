"""The sentences of 1848's reports, in German and English, from the
game's part of the message catalogue (``templates/texts/revolution1848.toml``,
keys ``r1848_*``).

Every function returns ``{"de": ..., "en": ...}``; the report templates
print the entry of the game's language.  The wording follows the rule
text's worked examples ("Bei den Liberalen erzielt Spieler A den höheren
Wert", "Spieler B ist im Vorteil").
"""

from __future__ import annotations

import tomllib
from functools import cache
from typing import Any

from adjudicator.games.revolution1848.cards import CardData
from adjudicator.games.revolution1848.evaluation import Bloc, Evaluation
from adjudicator.games.revolution1848.parse import in_language
from adjudicator.resources import data_dir

Text = dict[str, str]
LANGUAGES = ("de", "en")


@cache
def _entries() -> dict[str, dict[str, str]]:
    with open(data_dir("templates") / "texts" / "revolution1848.toml", "rb") as handle:
        return tomllib.load(handle)


def say(key: str, language: str, **fields: Any) -> str:
    """The catalogue entry ``key`` in ``language`` with ``fields``; a field
    that is itself a pair ``{"de", "en"}`` is taken in the same language."""
    shown = {k: (v[language] if isinstance(v, dict) else v) for k, v in fields.items()}
    entry = _entries()[key]
    return entry.get(language, entry["en"]).format(**shown)


def pair(key: str, **fields: Any) -> Text:
    """The catalogue entry ``key`` in both languages (see ``say``)."""
    return {language: say(key, language, **fields) for language in LANGUAGES}


def both(de: str, en: str) -> Text:
    """Two texts already in their languages (names, card data) as a pair."""
    return {"de": de, "en": en}


def joined(parts: list[Text], separator: str | Text) -> Text:
    """``parts`` joined language by language with ``separator``."""
    return {lang: (separator[lang] if isinstance(separator, dict) else separator).join(p[lang] for p in parts)
            for lang in LANGUAGES}


def player(name: str) -> Text:
    """``Spieler A`` / ``Player A``."""
    return pair("r1848_player", name=name)


def party(code: str) -> Text:
    """A party's name."""
    return pair(f"r1848_party_{code}")


def orders(lines: list[str]) -> Text:
    """Canonical orders as one line with the keywords of each language
    (``ARMEE Z28 AN A04`` / ``ARMY Z28 TO A04``)."""
    return {lang: "; ".join(in_language(line, lang) for line in lines) for lang in LANGUAGES}


def card(data: CardData, code: str) -> str:
    """A card as ``PE12 Hans Kudlich`` (the id alone when it has no name)."""
    name = data.name_of(code)
    return code if name == code else f"{code} {name}"


def colour(data: CardData, flow: str, code: str) -> Text:
    """A decision: ``rot (Allgemeines, gleiches Wahlrecht)``."""
    word = pair(f"r1848_colour_{code}")
    option = data.flows[flow].option(code)
    names = both(option.name, option.name_en or option.name)
    return {lang: say("r1848_colour_named", lang, colour=word, name=names) if names[lang] else word[lang]
            for lang in LANGUAGES}


def _names(codes: list[str] | tuple[str, ...]) -> Text:
    return joined([party(c) for c in codes], pair("r1848_and"))


def _who(name: str | None) -> Text:
    return pair("r1848_nobody") if name is None else player(name)


def note(data: CardData, entry: dict[str, Any]) -> Text:
    """The sentence of one note of the rules engine (see flow.py, actions.py, military.py)."""
    kind = entry["kind"]
    who = player(entry.get("player", ""))
    if kind == "flow":
        flow = data.flows[entry["card"]]
        return both(say("r1848_ev_flow", "de", card=card(data, entry["card"])),
                    say("r1848_ev_flow", "en", card=f"{flow.id} {flow.name_en or flow.name}".rstrip()))
    if kind == "play":
        target = card(data, entry["target"]) if entry.get("target") else None
        chosen = party(entry["party"]) if entry.get("party") else None
        key = "r1848_ev_play" + ("_on" if target else "") + ("_as" if chosen else "")
        return pair(key, who=who, card=card(data, entry["card"]), target=target, party=chosen)
    if kind == "pass":
        how = "_forced" if entry.get("forced") else "_default" if entry.get("default") else ""
        return pair(f"r1848_ev_pass{how}", who=who)
    if kind == "faction":
        key = "r1848_ev_faction_default" if entry.get("default") else "r1848_ev_faction"
        return pair(key, who=who, faction=pair(f"r1848_faction_{entry['faction']}"))
    if kind == "attack":
        return _attack(data, entry)
    if kind == "weakened":
        return pair("r1848_ev_weakened", card=card(data, entry["card"]), who=player(entry["side"]))
    if kind == "keep":
        kept = ", ".join(card(data, c) for c in entry["kept"]) or "-"
        gone = ", ".join(card(data, c) for c in entry["gone"]) or "-"
        key = "r1848_ev_keep_default" if entry.get("default") else "r1848_ev_keep"
        return pair(key, who=who, kept=kept, gone=gone, count=entry["discarded"])
    if kind in ("won", "lost"):
        return pair(f"r1848_ev_{kind}", who=who, card=card(data, entry["card"]))
    if kind == "decision":
        return pair("r1848_ev_decision", choice=colour(data, entry["card"], entry["colour"]))
    if kind in ("parliament_army", "sworn"):
        return pair(f"r1848_ev_{kind}", who=who, cards=", ".join(entry["cards"]))
    if kind == "power":
        key = "r1848_ev_power_bonus" if entry["bonus"] else "r1848_ev_power"
        return pair(key, revolution=entry["revolution"], reaction=entry["reaction"], bonus=entry["bonus"])
    if kind == "military":
        result = entry.get("result", "")
        key = f"r1848_ev_military_{result}" if result in ("conquered", "put_down", "defeated") else "r1848_ev_military"
        return pair(key, who=who, order=orders([entry["order"]]))
    if kind == "no_military":
        return pair("r1848_ev_no_military_forced" if entry.get("forced") else "r1848_ev_no_military", who=who)
    if kind == "forecast":
        return pair("r1848_ev_forecast_given" if entry["given"] else "r1848_ev_forecast_none", who=who)
    if kind == "withdraw":
        return pair("r1848_ev_withdrawn" if entry["withdrawn"] else "r1848_ev_withdraw_kept", who=who)
    if kind in _PLAIN:
        return pair(f"r1848_ev_{kind}", who=who, card=entry.get("card", ""))
    raise ValueError(f"no wording for the note {kind!r}")


_PLAIN = ("parliament_declined", "reenter", "stalemate", "stays", "radical", "oath_skipped", "oath_none")
"""Notes whose sentence takes at most the player and the card id."""


def _attack(data: CardData, entry: dict[str, Any]) -> Text:
    fields: dict[str, Any] = {"target": card(data, entry["target"]), "attacker": card(data, entry["card"])}
    result = entry["result"]
    if result == "switched":
        fields["was"] = pair(f"r1848_party_dative_{entry['was']}")
        fields["now"] = pair(f"r1848_party_dative_{entry['party']}")
    if result == "blocked":
        fields["guard"] = card(data, entry["guard"])
    if result not in ("eliminated", "devalued", "switched", "blocked"):
        result = "void"
    return pair(f"r1848_ev_attack_{result}", **fields)


def _shares(values: dict[str, int]) -> Text:
    return joined([pair("r1848_eval_share", who=player(p), value=v) for p, v in values.items()], ", ")


def evaluation(data: CardData, flow: str, result: Evaluation) -> list[Text]:
    """The evaluation step by step as the rule text writes it."""
    lines = [_step2(code, result) for code in ("LIB", "DEM", "REP", "REA")]
    out = [line for line in lines if line is not None]
    if result.mode == "stich":
        out += _stich(result)
    elif result.mode == "buendnis":
        out += [_bloc(data, flow, bloc) for bloc in result.blocs]
    elif result.mode == "vorparlament":
        out += _preparliament(result)
    elif result.mode == "nationalversammlung":
        out += _assembly(data, flow, result)
    else:
        out.append(pair("r1848_eval_total", values=_shares(dict(result.totals))))
    if result.leader is None:
        out.append(pair("r1848_eval_no_leader"))
    elif result.decisions:
        choices = joined([colour(data, flow, c) for c in result.decisions], pair("r1848_or"))
        out.append(pair("r1848_eval_leader_decides", who=player(result.leader), choices=choices))
    else:
        out.append(pair("r1848_eval_leader", who=player(result.leader)))
    return out


def _step2(code: str, result: Evaluation) -> Text | None:
    standing = result.standing(code)
    a, b = standing.values["A"], standing.values["B"]
    dative = pair(f"r1848_party_dative_{code}")
    if a is None and b is None:
        return None
    if a is None or b is None:
        holder, value = ("B", b) if a is None else ("A", a)
        return pair("r1848_eval_only", who=player(holder), value=value, party=party(code))
    if standing.controller is None:
        return pair("r1848_eval_even", a=a, b=b, party=dative)
    return pair("r1848_eval_higher", who=player(standing.controller), a=a, b=b, party=dative)


def _stich(result: Evaluation) -> list[Text]:
    if not result.strongest:
        return [pair("r1848_eval_no_party")]
    values = {s.party: s.total for s in result.standings}
    if len(result.strongest) > 1:
        return [pair("r1848_eval_equal_value", parties=_names(result.strongest), value=values[result.strongest[0]])]
    top = result.strongest[0]
    return [pair("r1848_eval_strongest", party=party(top), value=values[top],
                 who=_who(result.standing(top).controller))]


def _bloc(data: CardData, flow: str, bloc: Bloc) -> Text:
    side = colour(data, flow, bloc.colour)
    if not bloc.parties:
        return pair("r1848_eval_side_empty", side=side)
    return pair("r1848_eval_side", side=side, parties=_names(bloc.parties), value=bloc.value,
                who=_who(bloc.controller), shares=_shares(dict(bloc.shares)))


def _seats(result: Evaluation) -> Text:
    items = [pair("r1848_eval_seat", party=party(p), value=v, who=_who(result.control.get(p)))
             for p, v in result.activated.items()]
    return pair("r1848_eval_seats", items=joined(items, ", "))


def _preparliament(result: Evaluation) -> list[Text]:
    if not result.activated:
        return [pair("r1848_eval_no_seats")]
    out = [_seats(result)]
    if len(result.strongest) > 1:
        out.append(pair("r1848_eval_equal", parties=_names(result.strongest)))
    else:
        top = result.strongest[0]
        out.append(pair("r1848_eval_strongest_seats", party=party(top), who=_who(result.control.get(top))))
    return out


def _assembly(data: CardData, flow: str, result: Evaluation) -> list[Text]:
    out: list[Text] = []
    if result.first is not None:
        out.append(pair("r1848_eval_first", who=player(result.first)))
    if result.activated:
        out.append(_seats(result))
    for bloc in result.blocs:
        if bloc.parties:
            out.append(pair("r1848_eval_bloc", side=colour(data, flow, bloc.colour), parties=_names(bloc.parties),
                            value=bloc.value, who=_who(bloc.controller)))
    return out
