"""The sentences of 1848's reports, in German and English.

Every function returns ``{"de": ..., "en": ...}``; the report templates
print the entry of the game's language.  The wording follows the rule
text's worked examples ("Bei den Liberalen erzielt Spieler A den höheren
Wert", "Spieler B ist im Vorteil").
"""

from __future__ import annotations

from typing import Any

from adjudicator.games.revolution1848.cards import CardData
from adjudicator.games.revolution1848.evaluation import Bloc, Evaluation

Text = dict[str, str]

PARTY_NAMES = {
    "LIB": ("Liberale", "Liberals"), "DEM": ("Demokraten", "Democrats"), "REP": ("Republikaner", "Republicans"),
    "REA": ("Reaktionäre", "Reactionaries"), "RLIB": ("Rechte Liberale", "Right Liberals"),
    "LLIB": ("Linke Liberale", "Left Liberals"),
}
DATIVE = {"LIB": "Liberalen", "DEM": "Demokraten", "REP": "Republikanern", "REA": "Reaktionären",
          "RLIB": "Rechten Liberalen", "LLIB": "Linken Liberalen"}
"""German party names after "bei den", "zu den"."""
COLOUR_NAMES = {"red": ("rot", "red"), "blue": ("blau", "blue")}


def both(de: str, en: str) -> Text:
    """A sentence in both languages."""
    return {"de": de, "en": en}


def player(name: str) -> Text:
    """``Spieler A`` / ``Player A``."""
    return both(f"Spieler {name}", f"Player {name}")


def party(code: str) -> Text:
    """A party's name."""
    de, en = PARTY_NAMES[code]
    return both(de, en)


def card(data: CardData, code: str) -> str:
    """A card as ``PE12 Hans Kudlich`` (the id alone when it has no name)."""
    name = data.name_of(code)
    return code if name == code else f"{code} {name}"


def colour(data: CardData, flow: str, code: str) -> Text:
    """A decision: ``rot (Allgemeines, gleiches Wahlrecht)``."""
    de, en = COLOUR_NAMES[code]
    option = data.flows[flow].option(code)
    name_de, name_en = option.name, option.name_en or option.name
    return both(f"{de} ({name_de})" if name_de else de, f"{en} ({name_en})" if name_en else en)


def _names(codes: list[str] | tuple[str, ...], lang: int) -> str:
    return " + ".join(PARTY_NAMES[c][lang] for c in codes)


def _who(name: str | None, lang: int) -> str:
    if name is None:
        return ("keiner", "nobody")[lang]
    return (f"Spieler {name}", f"Player {name}")[lang]


def note(data: CardData, entry: dict[str, Any]) -> Text:
    """The sentence of one note of the rules engine (see flow.py, actions.py, military.py)."""
    kind = entry["kind"]
    who_de = f"Spieler {entry.get('player', '')}"
    who_en = f"Player {entry.get('player', '')}"
    if kind == "flow":
        flow = data.flows[entry["card"]]
        name = card(data, entry["card"])
        return both(f"Ablaufkarte {name} liegt aus.", f"Flow card {flow.id} {flow.name_en or flow.name}".rstrip()
                    + " is revealed.")
    if kind == "play":
        what = card(data, entry["card"])
        extra_de = extra_en = ""
        if entry.get("target"):
            extra_de, extra_en = f" auf {card(data, entry['target'])}", f" on {card(data, entry['target'])}"
        if entry.get("party"):
            extra_de += f" als {PARTY_NAMES[entry['party']][0]}"
            extra_en += f" as {PARTY_NAMES[entry['party']][1]}"
        return both(f"{who_de} spielt {what}{extra_de}.", f"{who_en} plays {what}{extra_en}.")
    if kind == "pass":
        if entry.get("forced"):
            return both(f"{who_de} passt (keine spielbare Karte).", f"{who_en} passes (no card to play).")
        if entry.get("default"):
            return both(f"{who_de} passt (kein Spielzug eingegangen).", f"{who_en} passes (no play received).")
        return both(f"{who_de} passt.", f"{who_en} passes.")
    if kind == "parliament_declined":
        return both(f"{who_de} unterstellt keine Armee dem Parlament.",
                    f"{who_en} puts no army under the parliament.")
    if kind == "faction":
        chosen = {"RLIB": ("die Rechten Liberalen", "the Right Liberals"),
                  "LLIB": ("die Linken Liberalen", "the Left Liberals"),
                  "BOTH": ("beide liberalen Fraktionen", "both Liberal factions")}[entry["faction"]]
        how_de, how_en = (" (keine Wahl eingegangen)", " (no choice received)") if entry.get("default") else ("", "")
        return both(f"{who_de} nimmt in der Nationalversammlung {chosen[0]}{how_de}.",
                    f"{who_en} takes {chosen[1]} in the National Assembly{how_en}.")
    if kind == "attack":
        return _attack(data, entry)
    if kind == "weakened":
        return both(f"{card(data, entry['card'])} liegt nun auf der Seite von Spieler {entry['side']}.",
                    f"{card(data, entry['card'])} now lies on Player {entry['side']}'s side.")
    if kind == "reenter":
        return both(f"{who_de} wurde attackiert und greift wieder ein.", f"{who_en} was attacked and plays again.")
    if kind == "keep":
        kept = ", ".join(card(data, c) for c in entry["kept"]) or "-"
        gone = ", ".join(card(data, c) for c in entry["gone"]) or "-"
        mark_de = " (ohne Angabe)" if entry.get("default") else ""
        mark_en = " (none given)" if entry.get("default") else ""
        return both(f"{who_de} behält{mark_de}: {kept}; abgelegt: {gone}; {entry['discarded']} Handkarte(n) "
                    f"zurückgelegt.", f"{who_en} keeps{mark_en}: {kept}; discarded: {gone}; "
                    f"{entry['discarded']} hand card(s) put back.")
    if kind == "stalemate":
        return both(f"Patt: die Runde um {entry['card']} beginnt nochmals ab Phase 2.",
                    f"Stalemate: the round about {entry['card']} starts again from phase 2.")
    if kind == "won":
        return both(f"{who_de} gewinnt die Ablaufkarte {card(data, entry['card'])}.",
                    f"{who_en} wins the flow card {card(data, entry['card'])}.")
    if kind == "decision":
        choice = colour(data, entry["card"], entry["colour"])
        return both(f"Entscheidung: {choice['de']}.", f"Decision: {choice['en']}.")
    if kind == "stays":
        return both(f"{entry['card']} bleibt auf dem Tisch liegen.", f"{entry['card']} stays on the table.")
    if kind == "radical":
        return both("Radikalisierung der Revolution: Demokraten und Linke Liberale ändern ihre Haltung.",
                    "The revolution radicalises: Democrats and Left Liberals change their stance.")
    if kind == "parliament_army":
        cards = ", ".join(entry["cards"])
        return both(f"Armeen von {who_de} unterstellen sich dem Parlament (A12): {cards}.",
                    f"{who_en}'s armies submit to parliament (A12): {cards}.")
    if kind == "oath_skipped":
        return both("A12 liegt aus: A15 wird übergangen.", "A12 lies on the table: A15 is passed over.")
    if kind == "oath_none":
        return both("Keine Armee wird vereidigt.", "No army takes the oath.")
    if kind == "sworn":
        cards = ", ".join(entry["cards"])
        return both(f"Eine Armee von {who_de} wird an A15 vereidigt: {cards}.",
                    f"An army of {who_en} takes the oath at A15: {cards}.")
    if kind == "power":
        bonus = f" + {entry['bonus']}" if entry["bonus"] else ""
        return both(f"Machtfrage: Revolution {entry['revolution']}{bonus}, Konterrevolution {entry['reaction']}.",
                    f"Question of power: revolution {entry['revolution']}{bonus}, counter-revolution "
                    f"{entry['reaction']}.")
    if kind == "military":
        result = {"conquered": (" – erobert", " – conquered"), "put_down": (" – niedergeschlagen", " – put down"),
                  "defeated": (" – siegreich", " – victorious")}.get(entry.get("result", ""), ("", ""))
        return both(f"Militäraktion {who_de}: {entry['order']}{result[0]}.",
                    f"Military action of {who_en}: {entry['order']}{result[1]}.")
    if kind == "no_military":
        if entry.get("forced"):
            return both(f"{who_de} hat keine mögliche Militäraktion.", f"{who_en} has no military action to take.")
        return both(f"{who_de} verzichtet auf eine Militäraktion.", f"{who_en} takes no military action.")
    if kind == "lost":
        return both(f"Die Armee von {who_de} verliert {card(data, entry['card'])}.",
                    f"{who_en}'s army loses {card(data, entry['card'])}.")
    if kind == "forecast":
        if entry["given"]:
            return both(f"{who_de} legt seine Prognose verdeckt unter A05.",
                        f"{who_en} lays his forecast face down under A05.")
        return both(f"{who_de} gibt keine Prognose ab (es gilt E).", f"{who_en} gives no forecast (E counts).")
    if kind == "withdraw":
        if entry["withdrawn"]:
            return both(f"{who_de} nimmt seine Prognose zurück (es gilt E).",
                        f"{who_en} withdraws his forecast (E counts).")
        return both(f"{who_de} bleibt bei seiner Prognose.", f"{who_en} keeps his forecast.")
    raise ValueError(f"no wording for the note {kind!r}")


def _attack(data: CardData, entry: dict[str, Any]) -> Text:
    target = card(data, entry["target"])
    attacker = card(data, entry["card"])
    result = entry["result"]
    if result == "eliminated":
        return both(f"{attacker}: {target} ist ausgeschaltet und kommt ganz aus dem Spiel.",
                    f"{attacker}: {target} is eliminated and leaves the game.")
    if result == "devalued":
        return both(f"{attacker}: {target} ist entwertet (beide Karten auf den Ablagestapel).",
                    f"{attacker}: {target} is devalued (both cards discarded).")
    if result == "switched":
        was, now = entry["was"], entry["party"]
        return both(f"{attacker}: {target} wechselt von den {DATIVE[was]} zu den {DATIVE[now]}.",
                    f"{attacker}: {target} turns from the {PARTY_NAMES[was][1]} to the {PARTY_NAMES[now][1]}.")
    if result == "blocked":
        guard = card(data, entry["guard"])
        return both(f"Die Attacke {attacker} auf {target} wird durch {guard} abgewehrt (beide Karten auf den "
                    f"Ablagestapel).", f"The attack {attacker} on {target} is warded off by {guard} (both cards "
                    f"discarded).")
    return both(f"{attacker} bleibt ohne Wirkung ({target} liegt nicht mehr aus).",
                f"{attacker} has no effect ({target} is no longer on the table).")


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
        out.append(both("Gesamtwert: " + ", ".join(f"Spieler {p} {v}" for p, v in result.totals.items()) + ".",
                        "Total value: " + ", ".join(f"Player {p} {v}" for p, v in result.totals.items()) + "."))
    if result.leader is None:
        out.append(both("Es entsteht kein Vorteil.", "Nobody is ahead."))
    else:
        text = both(f"Spieler {result.leader} ist im Vorteil.", f"Player {result.leader} is ahead.")
        if result.decisions:
            choices = [colour(data, flow, c) for c in result.decisions]
            text["de"] += " Entscheidung: " + " oder ".join(c["de"] for c in choices) + "."
            text["en"] += " Decision: " + " or ".join(c["en"] for c in choices) + "."
        out.append(text)
    return out


def _step2(code: str, result: Evaluation) -> Text | None:
    standing = result.standing(code)
    a, b = standing.values["A"], standing.values["B"]
    de, en = PARTY_NAMES[code]
    dative = DATIVE[code]
    if a is None and b is None:
        return None
    if a is None or b is None:
        holder, value = ("B", b) if a is None else ("A", a)
        return both(f"{de}: nur bei Spieler {holder} (Wert {value}).", f"{en}: only Player {holder} (value {value}).")
    if standing.controller is None:
        return both(f"Bei den {dative} erzielt keiner der Spieler einen höheren Wert ({a} zu {b}).",
                    f"{en}: neither player has the higher value ({a} to {b}).")
    return both(f"Bei den {dative} erzielt Spieler {standing.controller} den höheren Wert ({a} zu {b}).",
                f"{en}: Player {standing.controller} has the higher value ({a} to {b}).")


def _stich(result: Evaluation) -> list[Text]:
    if not result.strongest:
        return [both("Keine Partei liegt aus.", "No party is on the table.")]
    values = {s.party: s.total for s in result.standings}
    if len(result.strongest) > 1:
        return [both(f"Patt: {_names(result.strongest, 0)} sind gleich stark ({values[result.strongest[0]]}).",
                     f"Stalemate: {_names(result.strongest, 1)} are equally strong ({values[result.strongest[0]]}).")]
    top = result.strongest[0]
    owner = result.standing(top).controller
    return [both(f"Stärkste Partei: {PARTY_NAMES[top][0]} ({values[top]}), kontrolliert von {_who(owner, 0)}.",
                 f"Strongest party: {PARTY_NAMES[top][1]} ({values[top]}), controlled by {_who(owner, 1)}.")]


def _bloc(data: CardData, flow: str, bloc: Bloc) -> Text:
    side = colour(data, flow, bloc.colour)
    if not bloc.parties:
        return both(f"Seite {side['de']}: niemand (Wert 0).", f"Side {side['en']}: nobody (value 0).")
    shares_de = ", ".join(f"Spieler {p} {v}" for p, v in bloc.shares.items())
    shares_en = ", ".join(f"Player {p} {v}" for p, v in bloc.shares.items())
    return both(f"Seite {side['de']}: {_names(bloc.parties, 0)} = {bloc.value}; kontrolliert von "
                f"{_who(bloc.controller, 0)} ({shares_de}).",
                f"Side {side['en']}: {_names(bloc.parties, 1)} = {bloc.value}; controlled by "
                f"{_who(bloc.controller, 1)} ({shares_en}).")


def _preparliament(result: Evaluation) -> list[Text]:
    if not result.activated:
        return [both("Kein Parlaments-Wert ist aktiviert.", "No seats are activated.")]
    items_de = ", ".join(f"{PARTY_NAMES[p][0]} {v} ({_who(result.control.get(p), 0)})"
                         for p, v in result.activated.items())
    items_en = ", ".join(f"{PARTY_NAMES[p][1]} {v} ({_who(result.control.get(p), 1)})"
                         for p, v in result.activated.items())
    out = [both(f"Aktivierte Parlaments-Werte: {items_de}.", f"Activated seats: {items_en}.")]
    if len(result.strongest) > 1:
        out.append(both(f"Patt: {_names(result.strongest, 0)} sind gleich stark.",
                        f"Stalemate: {_names(result.strongest, 1)} are equally strong."))
    else:
        top = result.strongest[0]
        out.append(both(f"Stärkste Parlamentspartei: {PARTY_NAMES[top][0]}, kontrolliert von "
                        f"{_who(result.control.get(top), 0)}.", f"Strongest party: {PARTY_NAMES[top][1]}, "
                        f"controlled by {_who(result.control.get(top), 1)}."))
    return out


def _assembly(data: CardData, flow: str, result: Evaluation) -> list[Text]:
    out: list[Text] = []
    if result.first is not None:
        out.append(both(f"Spieler {result.first} bestimmt zuerst, ob seine Liberalen Rechte oder Linke Liberale "
                        f"sind.", f"Player {result.first} decides first whether his Liberals are Right or Left "
                        f"Liberals."))
    if result.activated:
        items_de = ", ".join(f"{PARTY_NAMES[p][0]} {v} ({_who(result.control.get(p), 0)})"
                             for p, v in result.activated.items())
        items_en = ", ".join(f"{PARTY_NAMES[p][1]} {v} ({_who(result.control.get(p), 1)})"
                             for p, v in result.activated.items())
        out.append(both(f"Aktivierte Parlaments-Werte: {items_de}.", f"Activated seats: {items_en}."))
    for bloc in result.blocs:
        if bloc.parties:
            side = colour(data, flow, bloc.colour)
            out.append(both(f"Parlamentsbündnis {side['de']}: {_names(bloc.parties, 0)} = {bloc.value}, "
                            f"kontrolliert von {_who(bloc.controller, 0)}.",
                            f"Bloc {side['en']}: {_names(bloc.parties, 1)} = {bloc.value}, controlled by "
                            f"{_who(bloc.controller, 1)}."))
    return out
