"""Liberté as a turn-based game module of the judge (variants ``liberte3``
to ``liberte6``; ``liberte``/``liberté`` are 4 players).

Every step that needs players is a phase of its own (``R2-031``): one
seat's action turn or new cards (a ``TurnPhase`` of that seat), or one
round of sealed tie-break plays (a ``TurnPhase`` of every seat that holds
a card to play; the plays stay sealed until all have answered, then one
report reveals them).  The state is JSON: the options (with the data
text), and the game (``state.py``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Callable

from adjudicator.games.base import (
    JSON, AcceptedOrder, DataFile, GameSetupError, Note, OrderCheck, OrderProblem, Resolution, TurnPhase,
)
from adjudicator.games.liberte import actions, data as gamedata, flow
from adjudicator.games.liberte.actions import Illegal
from adjudicator.games.liberte.data import DataError, GameData
from adjudicator.games.liberte.orders import Bid, Order, Pass, Play, Refill, Special, Take
from adjudicator.games.liberte.parse import ParseError, parse_line
from adjudicator.games.liberte.report import build, picture_view, status_text
from adjudicator.games.liberte.state import G, new_game
from adjudicator.games.liberte.wording import faction, note, say, text

SEATS = ("A", "B", "C", "D", "E", "F")
DATA_NAME = gamedata.DATA_NAME


def _data(options: Mapping[str, Any]) -> GameData:
    """The data set the options choose (raises ``GameSetupError``)."""
    supplied = options.get(f"data.{DATA_NAME}")
    try:
        if isinstance(supplied, str) and supplied.strip():
            return gamedata.load(supplied)
        if str(options.get("data", "")).lower() in ("standin", "stand-in", "ersatz"):
            return gamedata.standin()
    except DataError as error:
        listed = "; ".join(error.problems[:12])
        raise GameSetupError(f"data.{DATA_NAME}: {listed}", Note("lib_err_setup_problems", (
            ("file", DATA_NAME), ("problems", listed)))) from None
    raise GameSetupError(text("lib_err_setup_data", "en"), Note("lib_err_setup_data"))


def _data_text(options: Mapping[str, Any]) -> str:
    supplied = options.get(f"data.{DATA_NAME}")
    if isinstance(supplied, str) and supplied.strip():
        return supplied
    return gamedata.standin_text()


@dataclass(frozen=True)
class Liberte:
    """The game module of Liberté for ``players`` players (3-6)."""

    players: int = 4
    variant: str = "liberte"
    report_template: str = "liberte_report"
    submission_means_ready: bool = True

    # --- Seats ---------------------------------------------------------------------------

    def powers(self) -> tuple[str, ...]:
        """The seats ``A`` .. (clockwise order at the table)."""
        return SEATS[: self.players]

    def lookup_power(self, written: str) -> str | None:
        """The seat for ``B``, ``Spieler B``, ``Player B`` (any case)."""
        words = written.split()
        if len(words) == 2 and words[0].casefold() in ("spieler", "player", "platz", "seat"):
            words = words[1:]
        letter = words[0].upper() if len(words) == 1 else ""
        return letter if letter in self.powers() else None

    def power_name(self, power: str, language: str) -> str:
        """``Spieler A`` (de) or ``Player A`` (en)."""
        return f"{'Spieler' if language == 'de' else 'Player'} {power}"

    # --- Start and phases ----------------------------------------------------------------

    def start(self, options: Mapping[str, Any], seed: int) -> JSON:
        """The first state: decks shuffled, hands dealt, the start player
        drawn, all from the game's seed.  ``GameSetupError`` when the data
        is missing or wrong (the message names every problem)."""
        data = _data(options)
        timing = str(options.get("extra_vp", "during"))
        if timing not in ("during", "after"):
            raise GameSetupError(f"option extra_vp: expected during or after, got {timing!r}",
                                 Note("lib_err_setup_extra_vp", (("value", timing),)))
        seed_text = str(options.get("seed_text") or seed)
        g, events, randoms = new_game(data, self.powers(), seed_text)
        g["extra_vp"] = timing
        kept = {k: v for k, v in options.items() if k != "seed_text"}
        if f"data.{DATA_NAME}" not in kept:
            kept["data"] = "standin"
        return {"variant": self.variant, "phase": flow.phase_name(g), "options": kept, "game": g,
                "start": {"events": events, "random_events": randoms}}

    def phase(self, state: JSON) -> str:
        """The current phase (``R1-001``; ``END`` when over)."""
        return flow.phase_name(state["game"])

    def phase_kind(self, state: JSON) -> str:
        """``action`` for a seat's turn or new cards, ``bid`` for sealed plays."""
        return "bid" if state["game"]["step"] == "bid" else "action"

    def turn(self, state: JSON) -> TurnPhase | None:
        """The seat whose turn it is, or every seat of a sealed play."""
        seats = self.must_act(state)
        return TurnPhase(seats, self.phase_kind(state)) if seats else None

    def must_act(self, state: JSON) -> tuple[str, ...]:
        """The seats that act in the current phase."""
        g = state["game"]
        if g["step"] in ("action", "refill"):
            return (flow.current_seat(g),)
        if g["step"] == "bid":
            return tuple(g["bid"]["seats"])
        return ()

    def round_key(self, state: JSON) -> str:
        """``R2-refill``, ``R2-actions``, ``R2-election`` (battle and
        election with their sealed plays): a standing PASS lasts through a
        round's actions; digests come at the end of each part."""
        g = state["game"]
        part = {"action": "actions", "refill": "refill", "bid": "election"}.get(g["step"], "end")
        return f"R{g['round']}-{part}"

    def pass_order(self, state: JSON, power: str) -> str | None:
        """``PASS`` in a turn, ``REFILL`` (deck only) for new cards, ``BID NONE``."""
        step = state["game"]["step"]
        return {"action": "PASS", "refill": "REFILL", "bid": "BID NONE"}.get(step)

    # --- Orders ----------------------------------------------------------------------------

    def check_orders(self, state: JSON, power: str, lines: Sequence[tuple[int, str]],
                     language: str | None = None) -> OrderCheck:
        """Read ``power``'s lines against its own hand and display and the
        public table (never another player's secret); the reasons are
        written in ``language`` (English when it is None) and carried as
        catalogue notes, which the judge words in the game's language."""
        g, data = state["game"], _data(state["options"])
        accepted: list[tuple[int, str, Order]] = []
        problems: list[OrderProblem] = []
        acting = power in self.must_act(state)
        parsed: list[tuple[int, str, Order]] = []
        for number, written in lines:
            try:
                parsed.append((number, written, parse_line(written)))
            except ParseError as error:
                key = "lib_err_incomplete" if error.kind == "incomplete" else "lib_err_syntax"
                problems.append(_problem(number, error.column, written, key, {"word": error.word}, language))
                continue
            if not acting:
                parsed.pop()
                problems.append(_problem(number, 1, written, "lib_err_not_your_turn", {"phase": self.phase(state)},
                                         language))
        for number, written, result in _checked(g, data, power, parsed) if acting else []:
            if isinstance(result, Illegal):
                problems.append(_problem(number, 1, written, result.key, result.fields, language))
            else:
                accepted.append((number, written, result))
        kept, superseded = _combine(g, data, power, accepted, language)
        problems += superseded
        missing = () if kept or not acting else (f"{self.phase(state)}: {self.pass_order(state, power)}",)
        return OrderCheck(tuple(AcceptedOrder(n, t, str(o)) for n, t, o in kept),
                          tuple(sorted(problems, key=lambda p: p.line)), missing)

    def resolve(self, state: JSON, orders: Mapping[str, Sequence[str]]) -> Resolution:
        """Carry out the phase with the accepted orders (a missing or
        unusable one: pass, deck-only refill, no bid) and report it."""
        g, data, options = state["game"], _data(state["options"]), state["options"]
        acting = self.must_act(state)
        events: list[dict[str, Any]] = []
        randoms: list[dict[str, Any]] = []
        undoable = False
        if g["step"] == "bid":
            plays: dict[str, str] = {}
            for seat in acting:
                bids = [o for o in _orders(g, data, seat, orders.get(seat, ())) if isinstance(o, Bid)]
                plays[seat] = bids[-1].card if bids else ""
            after = flow.after_bid(g, data, plays, events, randoms, options)
        elif g["step"] == "refill":
            seat = acting[0]
            refills = [o for o in _orders(g, data, seat, orders.get(seat, ())) if isinstance(o, Refill)]
            after, events = actions.apply_refill(g, data, seat, refills[-1] if refills else Refill(), randoms)
            after = flow.after_refill(after, data, events, randoms, options)
        else:
            seat = acting[0]
            chosen, _ = _combine(g, data, seat, [(0, "", o) for o in _orders(g, data, seat, orders.get(seat, ()))],
                                 "en")
            after, passed = g, True
            for _, _, order in sorted(chosen, key=lambda item: not isinstance(item[2], Special)):
                if isinstance(order, Special):
                    after, more = actions.apply_special(after, data, seat, order, randoms)
                elif isinstance(order, Play):
                    after, more = actions.apply_play(after, data, seat, order)
                elif isinstance(order, Take):
                    after, more = actions.apply_take(after, data, seat, order, randoms)
                else:
                    continue
                events += more
                passed = False
            if passed:
                events.append(actions.pass_event(seat))
            round_before = g["round"]
            after = flow.after_turn(after, data, passed, events, randoms, options)
            undoable = (not randoms and after["step"] == "action" and after["round"] == round_before
                        and len(after["deck"]) == len(g["deck"]))
        report = build(data, g, after, events, randoms, acting)
        next_state = {**state, "phase": flow.phase_name(after), "game": after}
        if after["step"] != "over":
            return Resolution(flow.phase_name(g), flow.phase_name(after), next_state, report, undoable=undoable)
        winners = after["result"]["winners"]
        if len(winners) == 1:
            return Resolution(flow.phase_name(g), None, next_state, report, winner=winners[0])
        return Resolution(flow.phase_name(g), None, next_state, report, draw=" ".join(winners))

    def opening_events(self, state: JSON) -> tuple[JSON, ...]:
        """The start's draws as the start mail may show them: the decks'
        shuffles sealed, the start player whole (all whole at the end)."""
        return tuple(dict(e) for e in state.get("start", {}).get("random_events", []))

    def standings(self, state: JSON) -> dict[str, int]:
        """Victory points so far (at an early end: the blocks and cards counted)."""
        g = state["game"]
        result = g.get("result")
        if result and result["kind"] != "points":
            return {s: int(result["counts"][s]) for s in g["players"]}
        return {s: int(g["vp"][s]) for s in g["players"]}

    # --- What a player sees and may do --------------------------------------------------------

    def legal_orders(self, state: JSON, power: str) -> list[str]:
        """Orders ``power`` may give now, canonical (bots and tests play from it)."""
        g, data = state["game"], _data(state["options"])
        if power not in self.must_act(state):
            return []
        if g["step"] == "bid":
            return [str(Bid(c)) for c in flow.bid_cards(g, data, power)] + [str(Bid())]
        if g["step"] == "refill":
            options = [Refill(), Refill(back_all=True)]
            if g["open"]:
                options.append(Refill(back_all=True, open=(g["open"][0],)))
            return [str(o) for o in options if actions.problem_refill(g, data, power, o) is None]
        return [str(o) for o in actions.legal_actions(g, data, power)]

    def actions_now(self, state: JSON, power: str, language: str) -> tuple[str, ...]:
        """The "your turn" lines: each hand card's placements (provinces
        where a block may go), cannon and special plays, taking, passing;
        new cards; or the sealed play's cards."""
        g, data = state["game"], _data(state["options"])
        if power not in self.must_act(state):
            return ()
        if g["step"] == "bid":
            cards = " ".join(flow.bid_cards(g, data, power)) or "-"
            return (text("lib_private_bid", language, phase=self.phase(state), cards=cards),)
        if g["step"] == "refill":
            return (text("lib_action_refill", language, cards=" ".join(g["open"]) or "-",
                         display=" ".join(g["displays"][power]) or "-"),)
        legal = actions.legal_actions(g, data, power, limit=10_000)
        lines = [text("lib_private_turn", language, phase=self.phase(state))]
        for cid in g["hands"][power]:
            card = data.cards[cid]
            plays = [o for o in legal if isinstance(o, Play) and o.card == cid]
            if card.kind == "special" and any(isinstance(o, Special) and o.card == cid for o in legal):
                form = text(f"lib_form_{card.effect}", language) if card.effect not in ("battle", "draw") else ""
                lines.append(text("lib_action_special", language, card=cid, name=card.name,
                                  target=f" {form}" if form else "", effect=effect_text(data, cid, language)))
            provinces = sorted({data.provinces[t.province].name for o in plays for t in o.targets
                                if t.province in data.provinces})
            if provinces:
                lines.append(text("lib_action_play", language, card=cid, name=card.name,
                                  faction=faction(card.faction, language), blocks=card.blocks,
                                  provinces=", ".join(provinces)))
            if any(o.targets[0].province == "BATTLE" for o in plays):
                lines.append(text("lib_action_cannon", language, card=cid))
        if any(isinstance(o, Take) for o in legal):
            discard = text("lib_action_take_discard", language) if len(g["hands"][power]) >= 9 else ""
            lines.append(text("lib_action_take", language, cards=" ".join(g["open"]) or "-", discard=discard))
        lines.append(text("lib_action_pass", language))
        return tuple(lines)

    def private_lines(self, state: JSON, power: str, language: str) -> tuple[str, ...]:
        """``power``'s hand, each card with its data (what it may do now is
        ``actions_now``, in its "your turn" mail)."""
        g, data = state["game"], _data(state["options"])
        if power not in g["hands"]:
            return ()
        lines = [text("lib_private_hand", language, cards=" ".join(g["hands"][power]) or "-")]
        return tuple(lines + [_card_line(data, cid, language) for cid in g["hands"][power]])

    def seat_notes(self, state: JSON, power: str) -> tuple[Note, ...]:
        """For the start mail: the player order of round 1 (start player
        drawn by lot) with ``power``'s place in it, and the open cards (the
        hand is in ``private_lines``, the first deadline and the board
        picture come from the judge)."""
        g, data = state["game"], _data(state["options"])
        order = [str(s) for s in g["order"]]
        place = order.index(power) + 1 if power in order else 0
        cards = " ".join(f"{c} ({data.cards[c].name})" for c in g["open"]) or "-"
        return (Note("lib_start_order", (("order", ", ".join(order)), ("place", str(place)), ("seat", order[0]))),
                Note("lib_start_open", (("cards", cards),)))

    def report_lines(self, report: JSON, language: str) -> tuple[str, ...]:
        """What a resolved phase did: its events in ``language`` (for
        digests, "your turn" mails and STATUS)."""
        return tuple(str(e[language]) for e in report.get("events", ()))

    def status_lines(self, state: JSON, language: str) -> tuple[str, ...]:
        """The public position in ``language``: round and order, victory
        points, government, supply, battle box, open cards, displays, the
        CR count and every stack (never a hand)."""
        return status_text(_data(state["options"]), state["game"], language)

    def picture(self, state: JSON, report: JSON | None, *, game_name: str, language: str,
                texts: Callable[..., str]) -> Any:
        """The board: provinces by region with their stacks and owners, the
        battle box, votes and victory points (``picture.py``)."""
        from adjudicator.games.liberte.picture import board_scene

        view = report["view"] if report is not None and "view" in report else picture_view(state["game"])
        return board_scene(_data(state["options"]), view, game_name=game_name, language=language)

    def position_edits(self) -> None:
        """None: a GM corrects a card game by rollback, not by edits."""
        return None

    def data_files(self) -> tuple[DataFile, ...]:
        """The one data file ``liberte``: board, cards, battles (template
        cards/liberte.toml); required unless option data=standin."""
        return gamedata.DATA_FILES


def _problem(number: int, column: int, written: str, key: str, fields: dict[str, Any],
             language: str | None) -> OrderProblem:
    """A refused line: its reason as a catalogue note (the judge words it
    in the game's language) and as text in ``language`` (English when the
    caller gives none); the order forms are part of a syntax reason."""
    if key in ("lib_err_syntax", "lib_err_incomplete"):
        fields = {**fields, "forms_key": "lib_forms"}
    shown = {("forms" if k == "forms_key" else k): (text(v, language or "en") if k == "forms_key" else v)
             for k, v in fields.items()}
    return OrderProblem(number, column, written, say(key, language or "en", shown), note=note(key, fields))


def effect_text(data: GameData, cid: str, language: str) -> str:
    """What a special card does, in ``language``: its effect with its
    count, the colour and the region it is limited to."""
    card = data.cards[cid]
    colour = (text("lib_word_of_colour", language, faction=faction(card.faction, language)) if card.faction
              else text("lib_word_any_colour", language))
    region = next((r.name for r in data.regions if r.id == card.scope), "")
    area = text("lib_word_in_region", language, region=region) if region else text("lib_word_anywhere", language)
    return text(f"lib_effect_{card.effect}", language, count=max(card.count, 1), colour=colour, area=area)


def _card_line(data: GameData, cid: str, language: str) -> str:
    card = data.cards[cid]
    if card.kind == "special":
        return text("lib_card_special", language, card=cid, name=card.name, effect=effect_text(data, cid, language),
                    standin=" – " + text("lib_word_standin_effect", language) if data.standin else "")
    extras = "".join([
        ", " + text("lib_word_cannon", language) if card.cannon else "",
        ", " + text("lib_word_general", language, value=card.general) if card.general else "",
        ", Sans-Culotte" if card.sans_culotte else "",
    ])
    return text("lib_card_line", language, card=cid, name=card.name, kind=text(f"lib_kind_{card.kind}", language),
                faction=faction(card.faction, language) if card.faction else "-", value=card.value,
                blocks=card.blocks, extras=extras)


def _check(g: G, data: GameData, seat: str, order: Order) -> Order | Illegal:
    """The order in canonical form, or why it is not allowed now."""
    step = g["step"]
    wanted = {"action": (Play, Special, Take, Pass), "refill": (Refill,), "bid": (Bid,)}.get(step, ())
    if not isinstance(order, wanted):
        return Illegal("lib_err_wrong_step", {"phase": flow.phase_name(g),
                                              "wanted": f"lib_wanted_{step}" if step != "over" else "-"})
    resolved = actions.canonical(data, order)
    if isinstance(resolved, Illegal):
        return resolved
    if isinstance(resolved, Play):
        return actions.problem_play(g, data, seat, resolved) or resolved
    if isinstance(resolved, Special):
        return actions.problem_special(g, data, seat, resolved) or resolved
    if isinstance(resolved, Take):
        return actions.problem_take(g, data, seat, resolved) or resolved
    if isinstance(resolved, Refill):
        return actions.problem_refill(g, data, seat, resolved) or resolved
    if isinstance(resolved, Bid):
        cards = flow.bid_cards(g, data, seat)
        if resolved.card and resolved.card not in cards:
            return Illegal("lib_err_bid_card", {"card": resolved.card, "cards": " ".join(cards) or "-"})
    return resolved


def _combine(g: G, data: GameData, seat: str, accepted: list[tuple[int, str, Order]], language: str | None
             ) -> tuple[list[tuple[int, str, Order]], list[OrderProblem]]:
    """One action per turn: the last PLAY, TAKE or PASS counts, with at most
    one SPECIAL (alone or with a PLAY); earlier lines are superseded."""
    problems: list[OrderProblem] = []
    main = [item for item in accepted if not isinstance(item[2], Special)]
    specials = [item for item in accepted if isinstance(item[2], Special)]
    for group in (main, specials):
        for number, written, _ in group[:-1]:
            problems.append(_problem(number, 1, written, "lib_err_superseded", {"line": group[-1][0]}, language))
    kept = main[-1:] + specials[-1:]
    if specials and main and not isinstance(main[-1][2], Play):
        number, written, _ = specials[-1]
        problems.append(_problem(number, 1, written, "lib_err_special_with", {}, language))
        kept = main[-1:]
    return sorted(kept, key=lambda item: item[0]), problems


def _checked(g: G, data: GameData, seat: str, parsed: list[tuple[int, str, Order]]
             ) -> list[tuple[int, str, Order | Illegal]]:
    """Each parsed order checked; a PLAY beside a special card is checked
    against the table after the special card's effect (it comes first)."""
    results: list[tuple[int, str, Order | Illegal]] = [(n, t, _check(g, data, seat, o)) for n, t, o in parsed]
    specials = [r for _, _, r in results if isinstance(r, Special)]
    if specials:
        after, _ = actions.apply_special(g, data, seat, specials[-1], []) if data.cards[
            specials[-1].card].effect != "draw" else (g, [])
        results = [(n, t, _check(after, data, seat, o) if isinstance(o, Play) else r)
                   for (n, t, o), (_, _, r) in zip(parsed, results)]
    return results


def _orders(g: G, data: GameData, seat: str, lines: Sequence[str]) -> list[Order]:
    """The usable orders among accepted lines (each checked again)."""
    parsed: list[tuple[int, str, Order]] = []
    for number, line in enumerate(lines):
        try:
            parsed.append((number, line, parse_line(line)))
        except ParseError:
            continue
    return [r for _, _, r in _checked(g, data, seat, parsed) if not isinstance(r, Illegal)]
