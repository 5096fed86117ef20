"""1848 – Die Revolution as a game module of the judge (variant ``1848``).

Sealed plays: every step that needs the players is a phase of its own
(``R03A06-2``: round 3, flow card A06, action 2; ``-K`` keep, ``-V`` the
winner's decision, ``-M1``/``-M2`` military actions, ``-D1``/``-D2`` an
army's loss, ``-P`` the forecast, ``-X1``/``-X2`` withdrawing it).  A
player's orders for the current phase are checked against his own hand
and the public table only, so the answer never depends on (or tells
anything about) the other player's play; the judge stores them until both
have played (``submission_means_ready``) or the deadline, and a new mail
replaces them until then.  ``resolve`` reveals both plays in one report.

The state is JSON: the options, the game master's card overlay (the data
of ``cards.file`` is read once, at the start, and kept) and the game
itself (``state.to_json``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Callable

from adjudicator.games.base import (
    JSON, AcceptedOrder, DataFile, GameSetupError, Note, OrderCheck, OrderProblem, Resolution, SimultaneousPhases,
)
from adjudicator.games.revolution1848.cardfile import CARDS as CARDS
from adjudicator.games.randomness import REPORT_KEY
from adjudicator.games.revolution1848 import actions, describe, military, wording
from adjudicator.games.revolution1848.cards import CardData, CardDataError, card_data_from_overlay
from adjudicator.games.revolution1848.cards import overlay_from_options, standin_text, uses_standin
from adjudicator.games.revolution1848.flow import (
    advance, default_faction, default_keep, faction_choices, final_forecast, new_game,
)
from adjudicator.games.revolution1848.orders import (
    MILITARY_ORDERS, STEP_ORDERS, Attack, Decide, Discard, Faction, Forecast, Join, General, Keep, Lose, Order, Pass, PlaceArmy,
    Play, Stand, Swear, Withdraw,
)
from adjudicator.games.revolution1848.parse import HINT, ParseError, card_id, in_language, parse_line
from adjudicator.games.revolution1848.reasons import reason_note
from adjudicator.games.revolution1848.report import build
from adjudicator.games.revolution1848.state import PLAYERS, Game, from_json, to_json

VARIANT = "1848"


def _sealed(event: Mapping[str, Any]) -> JSON:
    """A shuffle as a report shows it while the game runs: without its
    result (``"sealed": true``)."""
    return {**event, "result": [], "sealed": True}
_ALIASES = {"a": "A", "b": "B", "spieler a": "A", "spieler b": "B", "player a": "A", "player b": "B",
            "spielera": "A", "spielerb": "B", "playera": "A", "playerb": "B"}


@dataclass(frozen=True)
class Revolution1848(SimultaneousPhases):
    """The game module of 1848 (see the module docstring)."""

    variant: str = VARIANT
    report_template: str = "revolution1848_report"
    submission_means_ready: bool = True

    def powers(self) -> tuple[str, ...]:
        """The two seats, ``A`` and ``B``."""
        return PLAYERS

    def lookup_power(self, text: str) -> str | None:
        """``A``/``B`` for ``A``, ``Spieler A``, ``Player A`` (any case)."""
        return _ALIASES.get(" ".join(text.split()).casefold())

    def power_name(self, power: str, language: str) -> str:
        """``Spieler A`` (de) or ``Player A`` (en)."""
        return f"{'Spieler' if language == 'de' else 'Player'} {power}"

    def start(self, options: Mapping[str, Any], seed: int) -> JSON:
        """Deal the first hands; raises ``GameSetupError`` naming every
        value of the card data that is still unknown."""
        try:
            overlay = overlay_from_options(options)
            data = card_data_from_overlay(overlay)
        except CardDataError as error:
            raise GameSetupError(str(error)) from None
        game, _ = new_game(data, seed)
        return {"variant": VARIANT, "phase": game.phase, "options": dict(options), "overlay": overlay,
                "game": to_json(game)}

    def pass_order(self, state: JSON, power: str) -> str | None:
        """``PASS`` in an action (a missed play passes); None in the other steps
        (their defaults are the rules', see ``_default_text``)."""
        return "PASS" if _game(state).step == "play" and power in _game(state).actors else None

    def round_key(self, state: JSON) -> str:
        """The round: the phase without its step (``R03A06`` for
        ``R03A06-2``); a digest on ``ROUND`` comes when it changes."""
        return str(state["phase"]).partition("-")[0]

    def data_files(self) -> tuple[DataFile, ...]:
        """The card file (``cards``): the values the rule text does not give."""
        return (CARDS,)

    def phase(self, state: JSON) -> str:
        """The current phase name (``R03A06-2``)."""
        return str(state["phase"])

    def phase_kind(self, state: JSON) -> str:
        """Always ``play`` (one deadline kind for every sealed step)."""
        return "play"

    def must_act(self, state: JSON) -> tuple[str, ...]:
        """The players who act in the current step (one or both)."""
        return _game(state).actors

    def check_orders(self, state: JSON, power: str, lines: Sequence[tuple[int, str]]) -> OrderCheck:
        """Read ``power``'s lines against his hand and the public table."""
        game, data = _game(state), _data(state)
        accepted: list[tuple[int, str, Order]] = []
        problems: list[OrderProblem] = []
        for number, text in lines:
            try:
                order = parse_line(text)
            except ParseError as error:
                problems.append(_problem(number, error.column, text, error.message, _hint(game) or HINT))
                continue
            if power not in game.actors:
                problems.append(_problem(number, 1, text, f"you have nothing to do in {game.phase}"))
                continue
            canonical, why = _check(game, data, power, order)
            if why is not None or canonical is None:
                message = why or "not allowed now"
                problems.append(_problem(number, _column(text, message), text, message, _hint(game)))
                continue
            accepted.append((number, text, canonical))
        accepted, superseded = _last_counts(game, accepted)
        problems += superseded
        settled = [o for _, _, o in accepted if not isinstance(o, Discard)]
        missing = () if settled or power not in game.actors else (_default_text(game, data, power),)
        return OrderCheck(
            tuple(AcceptedOrder(n, t, str(o)) for n, t, o in accepted),
            tuple(sorted(problems, key=lambda p: p.line)), missing,
        )

    def resolve(self, state: JSON, orders: Mapping[str, Sequence[str]]) -> Resolution:
        """Carry out the step with the accepted orders (missing ones: the
        rules' defaults) and report it."""
        game, data = _game(state), _data(state)
        parsed: dict[str, list[Order]] = {}
        for player in game.actors:
            for line in orders.get(player, ()):
                try:
                    order = parse_line(line)
                except ParseError:
                    continue
                canonical, why = _check(game, data, player, order)
                if why is None and canonical is not None:
                    parsed.setdefault(player, []).append(canonical)
        after, notes = advance(game, data, parsed)
        revealed = {p: [str(o) for o in os if not isinstance(o, (Forecast, Discard))] for p, os in parsed.items()}
        report = build(data, game, after, revealed, notes)
        if uses_standin(state.get("options", {})):
            report["standin"] = STANDIN_NOTE
        if game.step == "forecast":  # ruling 25: that a forecast was given is public, its letter is not
            for entry in report["orders"]:
                given = any(isinstance(o, Forecast) for o in parsed.get(entry["player"], []))
                entry["note"] = ({"de": "Prognose abgegeben (verdeckt bis zum Spielende)",
                                  "en": "forecast given (sealed until the end)"} if given else
                                 {"de": "keine Prognose (E gilt)", "en": "no forecast (E counts)"})
        next_state = {**state, "phase": after.phase, "game": to_json(after)}
        if after.step != "over":  # a reshuffled deck stays secret: the event is shown sealed
            report[REPORT_KEY] = [_sealed(e) for e in after.random_log[len(game.random_log):]]
            return Resolution(game.phase, after.phase, next_state, report)
        report[REPORT_KEY] = [dict(e) for e in after.random_log]  # the end: every shuffle whole
        scores = dict(after.scores)
        winner = max(PLAYERS, key=lambda p: scores[p]) if scores["A"] != scores["B"] else None
        draw = None if winner else f"{scores['A']}:{scores['B']}"
        return Resolution(game.phase, None, next_state, report, winner, draw)

    def opening_events(self, state: JSON) -> tuple[JSON, ...]:
        """The two shuffles of the start, sealed: the decks (and so the
        hands) stay secret until the end, whose report lists them whole."""
        return tuple(_sealed(e) for e in _game(state).random_log[:2])

    def standings(self, state: JSON) -> dict[str, int]:
        """Points so far: the flow cards won (the final score at the end)."""
        game, data = _game(state), _data(state)
        if game.step == "over":
            return dict(game.scores)
        return {p: sum(data.flows[c].points for c in game.side(p).won) for p in PLAYERS}

    def seat_notes(self, state: JSON, power: str) -> tuple[Note, ...]:
        """For the start mail: the flow card the first round is about, what
        ``power`` must do first (in the first action: play a card or pass,
        sealed, with an example from his own hand and the default), and
        that 1848 has no picture (its reports are text).  The hand itself
        with every card's details follows as the private lines."""
        game, data = _game(state), _data(state)
        flow = data.flows[game.flow]
        notes = [Note("r1848_seat_flow", (("flow", wording.card(data, flow.id)), ("points", str(flow.points))))]
        orders = self.legal_orders(state, power)
        if power in game.actors and game.step == "play":
            example = next((o.removeprefix("PLAY ") for o in orders if o.startswith("PLAY ")), "PE12")
            notes.append(Note("r1848_seat_first_play", (("phase", game.phase), ("example", example))))
        elif power in game.actors:
            notes.append(Note("r1848_seat_first_other", (("phase", game.phase), ("orders", " | ".join(orders)))))
        else:
            notes.append(Note("r1848_seat_first_wait", (("phase", game.phase),)))
        notes.append(Note("r1848_seat_no_picture"))
        return tuple(notes)

    # --- Beyond the interface: what a player may see and do ---------------------------------

    def legal_orders(self, state: JSON, power: str) -> list[str]:
        """Every order ``power`` may give in the current phase, canonical
        (empty when he does not act); the complete-game test plays from it."""
        game, data = _game(state), _data(state)
        if power not in game.actors:
            return []
        if game.step == "play":
            return [str(p) for p in actions.legal_plays(game, data, power)] + ["PASS"]
        if game.step == "military":
            return [str(o) for o in military.legal_actions(game, data, power)] + ["NONE"]
        if game.step == "vote":
            return [f"DECIDE {c.upper()}" for c in game.decisions]
        if game.step == "faction":
            return [str(Faction(f)) for f in faction_choices(game, data)[1]]
        if game.step == "join":
            armies = military.parliament_candidates(game, data, power)
            singles = [str(Join((military.canonical_ref(a),))) for a in armies] if len(armies) > 1 else []
            return ["JOIN ALL", "JOIN NONE", *singles]
        if game.step == "loss":
            army = game.army(game.loss_army)
            return [f"LOSE {c}" for c in military.losable(data, army)] if army else []
        if game.step == "forecast":
            return [f"FORECAST {letter}" for letter in data.rules.forecasts]
        if game.step == "withdraw":
            return ["WITHDRAW", "STAND"]
        if game.step == "keep":
            return list(dict.fromkeys([str(default_keep(game, data, power)), "KEEP NOTHING"]))
        return []

    def picture(self, state: JSON, report: JSON | None, *, game_name: str, language: str,
                texts: Callable[..., str]) -> None:
        """None: the card game's report is its text."""
        return None

    def position_edits(self) -> None:
        """None: the GM changes a card game by rollback, not by edits."""
        return None

    def private_lines(self, state: JSON, power: str, language: str) -> tuple[str, ...]:
        """``private_view`` as text lines in ``language`` (de/en): the hand,
        the sealed forecast and the plays open now."""
        view = self.private_view(state, power)
        data = _data(state)
        lines = [wording.say("r1848_hand_line", language) + ("" if view["hand"] else " -")]
        lines += ["  " + describe.line(data, c["card"])[language] for c in view["hand"]]
        if view["forecast"]:
            lines.append(wording.say("r1848_forecast_line", language, forecast=view["forecast"]))
        if view["orders"]:
            lines.append(wording.say("r1848_open_line", language,
                                     orders=", ".join(in_language(o, language) for o in view["orders"])))
        if uses_standin(state.get("options", {})):
            lines.append(STANDIN_NOTE[language])
        return tuple(lines)

    def private_view(self, state: JSON, power: str) -> JSON:
        """What only ``power`` may see: his hand, his sealed forecast and
        the orders open to him now (the service shows it as
        ``private_lines``)."""
        game, data = _game(state), _data(state)
        side = game.side(power)
        return {
            "power": power,
            "phase": game.phase,
            "hand": [{"card": c, "name": data.name_of(c) if data.name_of(c) != c else ""} for c in side.hand],
            "forecast": final_forecast(game, data, power) if side.forecast or side.withdrawn else "",
            "orders": self.legal_orders(state, power),
        }


STANDIN_NOTE = wording.pair("r1848_standin_note")
"""The mark of every report and private view of a game with the stand-in set."""



def _game(state: JSON) -> Game:
    return from_json(state["game"])


def _data(state: JSON) -> CardData:
    return card_data_from_overlay(state.get("overlay", {}))


def _check(game: Game, data: CardData, player: str, order: Order) -> tuple[Order | None, str | None]:
    """The order in canonical form, or why it is not allowed now."""
    allowed = STEP_ORDERS[game.step]
    if not isinstance(order, allowed):
        return None, f"not allowed now: {game.phase} is a {game.step} step"
    if isinstance(order, Play):
        return order, actions.problem(game, data, player, order)
    if isinstance(order, Pass):
        return order, None
    if isinstance(order, Keep):
        table = {p.card for p in game.side(player).table}
        if len(order.cards) > data.flows[game.flow].keep:
            return None, f"at most {data.flows[game.flow].keep} card(s) may stay for {game.flow}"
        for card in order.cards:
            if card not in table:
                return None, f"{card} does not lie on your side"
            if card in data.rules.always_stay:
                return None, f"{card} stays anyway and is not counted"
        return order, None
    if isinstance(order, Discard):
        for card in order.cards:
            if card not in game.side(player).hand:
                return None, f"{card} is not in your hand"
        return order, None
    if isinstance(order, Decide):
        colour = _colour(game, data, order.colour)
        if colour is None:
            return None, f"{order.colour} is not a decision of {game.flow}"
        if colour not in game.decisions:
            return None, f"{colour} is not open to you: you may decide {' or '.join(game.decisions)}"
        return Decide(colour), None
    if isinstance(order, Join):
        if order.every or not order.armies:
            return order, None
        candidates = military.parliament_candidates(game, data, player)
        refs = []
        for ref in order.armies:
            army = military.find_army(game, player, ref)
            if army is None or army not in candidates:
                return None, f"{ref} names no army of yours that may join the parliamentary army (at A04 or free, " \
                             f"without a general)"
            refs.append(military.canonical_ref(army))
        return Join(tuple(dict.fromkeys(refs))), None
    if isinstance(order, Faction):
        open_factions = faction_choices(game, data)[1]
        if order.faction not in open_factions:
            words = " or ".join(str(Faction(f)).removeprefix("FACTION ") for f in open_factions)
            return None, f"{str(order).removeprefix('FACTION ')} is not open to you: choose {words}"
        return order, None
    if isinstance(order, Forecast):
        if order.letter not in data.rules.forecasts:
            return None, f"no forecast {order.letter}: choose {', '.join(data.rules.forecasts)}"
        return order, None
    if isinstance(order, Lose):
        army = game.army(game.loss_army)
        if army is None or order.card not in military.losable(data, army):
            return None, f"{order.card} is not a card the attacked army can give up"
        return order, None
    if isinstance(order, (Withdraw, Stand)):
        return order, None
    assert isinstance(order, MILITARY_ORDERS)
    why = military.problem(game, data, player, order)
    if why is not None:
        return None, why
    # Name armies canonically by their first card.
    if isinstance(order, Attack):
        army = military.find_army(game, player, order.army)
        assert army is not None
        return Attack(military.canonical_ref(army), order.target), None
    if isinstance(order, Swear):
        army = military.find_army(game, player, order.army)
        assert army is not None
        return Swear(military.canonical_ref(army)), None
    if isinstance(order, (PlaceArmy, General)) and order.to not in ("A04", military.OATH):
        army = military.find_army(game, player, order.to)
        assert army is not None
        return type(order)(order.card, military.canonical_ref(army)), None
    return order, None


def _colour(game: Game, data: CardData, text: str) -> str | None:
    if text in ("red", "blue"):
        return text
    wanted = " ".join(text.replace(",", " ").split()).casefold()
    flow = data.flows[game.flow]
    for colour in ("red", "blue"):
        option = flow.option(colour) if flow.red else None
        if option is None:
            continue
        names = [" ".join(n.replace(",", " ").split()).casefold() for n in (option.name, option.name_en) if n]
        if any(n.startswith(wanted) for n in names):
            return colour
    return None


def _last_counts(game: Game, accepted: list[tuple[int, str, Order]]
                 ) -> tuple[list[tuple[int, str, Order]], list[OrderProblem]]:
    """One play, decision, action or forecast per phase: the last written
    counts and the earlier ones are superseded (KEEP: the last one too;
    DISCARD lines add up)."""
    kept: list[tuple[int, str, Order]] = []
    problems: list[OrderProblem] = []
    groups: dict[str, int] = {}
    for index, (_, _, order) in enumerate(accepted):
        group = "discard" if isinstance(order, Discard) else "keep" if isinstance(order, Keep) else "one"
        if group != "discard":
            groups[group] = index
    for index, (number, text, order) in enumerate(accepted):
        group = "discard" if isinstance(order, Discard) else "keep" if isinstance(order, Keep) else "one"
        if group == "discard" or groups[group] == index:
            kept.append((number, text, order))
        else:
            later = accepted[groups[group]][0]
            problems.append(_problem(number, 1, text, f"superseded by line {later} (one per {game.step} step)"))
    return kept, problems


def _problem(line: int, column: int, text: str, message: str, hint: str = "") -> OrderProblem:
    """A refused line with its reason also as a catalogue entry (``reasons.py``),
    so the judge words it in the game's language."""
    return OrderProblem(line, column, text, message, hint, reason_note(message, hint))


def _column(text: str, message: str) -> int:
    """The column of the first card of ``text`` that ``message`` names (1 if none)."""
    for match in re.finditer(r"(pe|z|a)\s?\d{1,2}(?![\w-])", text, flags=re.IGNORECASE):
        if card_id(match.group(0)) in message:
            return match.start() + 1
    return 1


def _hint(game: Game) -> str:
    kinds = {"keep": "KEEP <cards> | KEEP NOTHING | DISCARD <cards>", "play": "PLAY <card> [ON <card>] [AS <party>] | PASS",
             "vote": "DECIDE RED | DECIDE BLUE", "faction": "FACTION RIGHT | FACTION LEFT | FACTION BOTH",
             "join": "JOIN ALL | JOIN NONE | JOIN <army>", "military": "ARMY | GENERAL | REMOVE | ATTACK | SWEAR | NONE",
             "loss": "LOSE <card>", "forecast": "FORECAST <letter>", "withdraw": "WITHDRAW | STAND"}
    return kinds.get(game.step, "")


def _default_text(game: Game, data: CardData, power: str) -> str:
    """What happens without an order from ``power`` in this step."""
    if game.step == "keep":
        return f"{game.phase}: {default_keep(game, data, power)}"
    if game.step == "faction":
        return f"{game.phase}: {Faction(default_faction(game, data))} (ruling 40)"
    if game.step == "join":
        return f"{game.phase}: JOIN ALL (ruling 42)"
    defaults = {"play": "PASS", "vote": f"DECIDE {game.decisions[0].upper()}" if game.decisions else "",
                "military": "NONE", "loss": "LOSE (the weakest card)", "forecast": "FORECAST E",
                "withdraw": "STAND"}
    return f"{game.phase}: {defaults.get(game.step, '')}"
