"""Kreml as a game module of the judge (variants ``kreml3`` .. ``kreml6``;
``kreml``/``kremlin`` are four players).

A turn-based game: every step that needs players is a ``TurnPhase`` of
the controller of the acting politician (a vote: of every controller of a
voter; the secret notes and the year's reveal window: of everyone).  An
accepted order resolves the step at once; the module then runs every step
that needs nobody (health, parade, lapsed actions, automatic filling) up
to the next one that does.  ``REVEAL`` lines are read from any player at
any time and take effect at the start of the next step.  A player's note
and his waiting reveals are his ``private_lines`` only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Callable

from adjudicator.games.base import (
    JSON, AcceptedOrder, DataFile, GameSetupError, Note, OrderCheck, OrderProblem, Resolution, TurnPhase,
)
from adjudicator.games import randomness
from adjudicator.games.kreml import data as kdata
from adjudicator.games.kreml import events, flow, influence, legal, words
from adjudicator.games.kreml.orders import Order
from adjudicator.games.kreml.parse import HINT, NameProblem, ParseError, parse_line, resolve
from adjudicator.games.kreml.reasons import Reason, reason
from adjudicator.games.kreml.report import build, status
from adjudicator.games.kreml.rules import CANDIDATE, FIRST_YEAR, OFFICES, SEATS, at, holder, leader, rule_options

DATA_NAME = kdata.DATA_NAME
BETWEEN_STEPS = flow.ANYTIME
"""The orders a player who is not to act may send; they take effect at the start of the next step."""


def _players_of(variant: str) -> int:
    digits = "".join(c for c in variant if c.isdigit())
    return int(digits) if digits else 4


@dataclass(frozen=True)
class KremlGame:
    """The game module of Kreml for one number of players (see the module docstring)."""

    variant: str = "kreml4"
    report_template: str = "kreml_report"
    submission_means_ready: bool = True

    @property
    def count(self) -> int:
        """The number of players (3 to 6)."""
        return _players_of(self.variant)

    def powers(self) -> tuple[str, ...]:
        """The seats ``A``, ``B``, ... (as many as players)."""
        return SEATS[:self.count]

    def lookup_power(self, text: str) -> str | None:
        """The seat for ``A``, ``Spielerin A``, ``Spieler A``, ``Player A`` (any case)."""
        words_ = text.split()
        if not words_ or (len(words_) == 2 and words_[0].casefold() not in ("spielerin", "spieler", "player")):
            return None
        if len(words_) > 2:
            return None
        seat = words_[-1].upper()
        return seat if seat in self.powers() else None

    def power_name(self, power: str, language: str) -> str:
        """``Spielerin A`` (de) or ``Player A`` (en)."""
        return words.player(power, language)

    def start(self, options: Mapping[str, Any], seed: int) -> JSON:
        """The state before the secret notes.  Needs the data: ``data.kreml``
        (the GM's file, checked) or ``data=standin`` (the invented stand-in
        set); raises ``GameSetupError`` listing every unknown value otherwise."""
        rules = rule_options(options)
        text = options.get(f"data.{DATA_NAME}")
        if text is None and str(options.get("data", "")).lower() in ("standin", "stand-in", "ersatz"):
            text = kdata.standin_text()
        if text is None:
            problems = kdata.check(kdata.template())
            examples = "; ".join(str(p) for p in problems[:5])
            raise GameSetupError(
                f"Kreml needs its game data: send the data file {DATA_NAME} (template: the data file "
                f"{DATA_NAME}) or choose data=standin (invented values). Unknown now: {len(problems)} values, "
                f"for example: " + examples,
                Note("kreml_setup_no_data", (("file", DATA_NAME), ("count", str(len(problems))))))
        try:
            game_data = kdata.parse(str(text))
        except kdata.DataError as error:
            listed = "; ".join(error.problems[:12])
            raise GameSetupError(f"data.{DATA_NAME}: " + "; ".join(error.problems), Note(
                "kreml_setup_problems", (("file", DATA_NAME), ("problems", listed)))) from None
        if rules["events"] and game_data.events is None:
            raise GameSetupError(f"data.{DATA_NAME}: the event cards ([[event]]) are unknown: fill them in, or "
                                 f"play without them with the option events=off",
                                 Note("kreml_setup_no_events", (("file", DATA_NAME),)))
        seniority = _seniority(str(options.get("seniority", "")), self.powers())
        # the judge's seed (verifiable: adjudicator verify); an explicit option seed only for tests
        secret = str(options["seed"]) if "seed" in options else randomness.seed_text(seed)
        state = flow.new_game(game_data, self.powers(), seniority, rules, secret)
        return {**state, "variant": self.variant, "options": {k: v for k, v in options.items()
                                                             if not k.startswith("data.")}}

    def phase(self, state: JSON) -> str:
        """The current step's name (``1953-2-041``: year, phase, step number)."""
        return str(state["phase"])

    def phase_kind(self, state: JSON) -> str:
        """``notes``, ``vote``, ``reveal`` (the year's window) or ``action``."""
        kind = state["step"]["kind"]
        return {"notes": "notes", "vote": "vote", "window": "reveal"}.get(kind, "action")

    def must_act(self, state: JSON) -> tuple[str, ...]:
        """The players the current step waits for."""
        return tuple(flow.seats(state))

    def turn(self, state: JSON) -> TurnPhase | None:
        """The current step as a turn phase of its seats (None when over)."""
        if state["result"] is not None:
            return None
        return TurnPhase(tuple(flow.seats(state)), self.phase_kind(state))

    def check_orders(self, state: JSON, power: str, lines: Sequence[tuple[int, str]]) -> OrderCheck:
        """Read ``power``'s lines against the public position and his own
        note only (nothing about other players' notes or orders)."""
        accepted: list[tuple[int, str, Order]] = []
        problems: list[OrderProblem] = []
        names = list(state["pol"])
        seat = power in flow.seats(state)
        kind = state["step"]["kind"]
        notes: list[tuple[int, str, Order]] = []
        first_action = True
        for number, text in lines:
            try:
                order = resolve(parse_line(text), names)
            except ParseError as error:
                problems.append(OrderProblem(number, error.column, text, error.message, HINT, error.why.note()))
                continue
            except NameProblem as error:
                problems.append(OrderProblem(number, 1, text, str(error.why), "", error.why.note()))
                continue
            why = self._why_not(state, power, order, seat, first_action)
            if why is not None:
                problems.append(OrderProblem(number, 1, text, str(why), _alternatives(state, power), why.note()))
                continue
            if order.verb == "NOTE":
                notes.append((number, text, order))
                continue
            if order.verb not in flow.ANYTIME:
                first_action = False
            accepted.append((number, text, legal.canonical(state, order)))
        if notes:
            note = {o.names[0]: int(o.points or 0) for _, _, o in notes}
            why = influence.note_problem(note, [n for n in names if n != kdata.NESTOR])
            if len(note) != len(notes):
                why = reason("note_twice_named")
            if why is None:
                accepted += notes
            else:
                problems += [OrderProblem(n, 1, t, str(why), "NOTE <politician> <1..10> (x10)", why.note())
                             for n, t, _ in notes]
        acted = any(o.verb not in flow.ANYTIME for _, _, o in accepted)
        missing: tuple[str, ...] = ()
        if seat and not acted:
            default = flow.default_order(state) if kind != "notes" else None
            missing = (f"{state['phase']}: {default if default else 'NOTE (10 lines)'}",)
        return OrderCheck(tuple(AcceptedOrder(n, t, str(o)) for n, t, o in sorted(accepted, key=lambda a: a[0])),
                          tuple(sorted(problems, key=lambda p: p.line)), missing)

    def between_steps(self, state: JSON, power: str, lines: Sequence[tuple[int, str]]) -> OrderCheck:
        """``power``'s ``REVEAL`` lines when he is not to act: accepted when
        the reveal is allowed now (it takes effect at the start of the next
        step, whoever acts then; ruling 1), refused with the reason
        otherwise; every other line is for his own turn (neither)."""
        accepted: list[AcceptedOrder] = []
        problems: list[OrderProblem] = []
        names = list(state["pol"])
        for number, text in lines:
            try:
                raw = parse_line(text)
            except ParseError:
                continue
            if raw.verb not in BETWEEN_STEPS:
                continue
            try:
                order = resolve(raw, names)
            except NameProblem as error:
                problems.append(OrderProblem(number, 1, text, str(error.why), "", error.why.note()))
                continue
            why = self._why_not(state, power, order, False, True)
            if why is not None:
                problems.append(OrderProblem(number, 1, text, str(why), "", why.note()))
                continue
            accepted.append(AcceptedOrder(number, text, str(legal.canonical(state, order))))
        return OrderCheck(tuple(accepted), tuple(problems), ())

    def _why_not(self, state: JSON, power: str, order: Order, seat: bool, first: bool) -> Reason | None:
        kind = state["step"]["kind"]
        if state["result"] is not None:
            return reason("game_over")
        if order.verb in flow.ANYTIME:
            if kind == "notes":
                return reason("reveal_after_notes")
            return legal.problem(state, power, order)
        if order.verb == "NOTE":
            return None if kind == "notes" and seat else reason("notes_done")
        if not seat:
            return reason("not_your_turn", waiting=", ".join(flow.seats(state)) or "-")
        if first or kind == "vote":
            return legal.problem(state, power, order)
        if not legal.may_queue(state, order):
            return reason("cannot_follow", verb=order.verb)
        return None

    def resolve(self, state: JSON, orders: Mapping[str, Sequence[str]]) -> Resolution:
        """Carry out the step with the accepted orders (missing: the
        rules' defaults) and every step after it that needs nobody."""
        names = list(state["pol"])
        parsed: dict[str, list[Order]] = {}
        for player, lines in orders.items():
            for line in lines:
                try:
                    parsed.setdefault(player, []).append(resolve(parse_line(line), names))
                except (ParseError, NameProblem):
                    continue
        for player in list(parsed):
            check = self.check_orders(state, player, [(i, str(o)) for i, o in enumerate(parsed[player], 1)])
            keep = {a.line for a in check.accepted}
            parsed[player] = [o for i, o in enumerate(parsed[player], 1) if i in keep]
        after = flow.play(state, parsed)
        report = build(state, after)
        undoable = not after["rolls"] and not any(e["key"] in ("revealed", "card_played") for e in after["events"]) \
            and state["step"]["kind"] not in ("notes", "vote", "window")
        result = after["result"]
        if result is None:
            return Resolution(state["phase"], after["phase"], after, report, undoable=undoable)
        return Resolution(state["phase"], None, after, report, winner=result["winner"],
                          draw=None if result["winner"] else str(result["draw"] or "tie"))

    def standings(self, state: JSON) -> dict[str, int]:
        """The Politburo members each player leads now."""
        found = {p: 0 for p in state["players"]}
        for player, _ in ((v[0], k) for k, v in state["leaders"].items() if leader(state, k) == v[0]):
            found[player] += 1
        return found

    def private_lines(self, state: JSON, power: str, language: str) -> tuple[str, ...]:
        """``power``'s own note (points, shown, left to reveal), his waiting
        reveals and his private notices of this year."""
        german = language == "de"
        note = state["notes"].get(power, {})
        lines: list[str] = []
        if note:
            parts = []
            for name, points in sorted(note.items(), key=lambda x: -x[1]):
                total = influence.limit(state, power, name)
                led = state["leaders"].get(name)
                mine = led is not None and led[0] == power and leader(state, name) == power
                shown = f", {'offen' if german else 'shown'} {led[1]}" if mine and led else ""
                extra = f" (+{total - points})" if total > points else ""
                parts.append(f"{name} {points}{extra}{shown}")
            lines.append(("Deine geheime Notiz: " if german else "Your secret note: ") + "; ".join(parts))
        plays = [f"{key} {name}" for who, key, name in state.get("plays", []) if who == power]
        if plays:
            lines.append(("Deine Ereigniskarten (wirksam zu Beginn eines Schritts ihrer Phase): " if german else
                          "Your event cards played (in effect at the start of a step of their phase): ")
                         + ", ".join(plays))
        waiting = influence.pending_of(state, power)
        if waiting:
            lines.append(("Deine Offenlegungen (wirksam zu Beginn des nächsten Schritts): " if german else
                          "Your reveals (in effect at the start of the next step): ")
                         + ", ".join(f"{n} {p}" for n, p in waiting))
        for notice in state["notices"].get(power, [])[-5:]:
            if notice["args"].get("year") == state["year"]:
                args = {k: v[language] if isinstance(v, dict) else v for k, v in notice["args"].items() if k != "year"}
                lines.append(words.say(notice["key"], language, **args))
        return tuple(lines)

    def picture(self, state: JSON, report: JSON | None, *, game_name: str, language: str,
                texts: Callable[..., str]) -> Any:
        """The Politburo as a picture (offices, holders, ages, illness)."""
        from adjudicator.games.kreml.picture import politburo

        return politburo(state, game_name, language)

    def position_edits(self) -> None:
        """None: the GM changes a Kreml game by rollback, not by edits."""
        return None

    def actions_now(self, state: JSON, power: str, language: str) -> tuple[str, ...]:
        """The orders ``power`` can give now, one per line with what it
        does (``PURGE Juri Kaderow – purge: succeeds with W20 of 14 ...``),
        then the reveals open to him."""
        if state["result"] is not None:
            return ()
        found: list[str] = []
        if power in flow.seats(state):
            if state["step"]["kind"] == "notes":
                found.append(f"NOTE <politician> <1..10> – {words.say('do_NOTE', language)}")
            for order in self.legal_orders(state, power):
                if order.verb not in flow.ANYTIME:
                    found.append(f"{order} – {_describe(state, order, language)}")
        if state["step"]["kind"] != "notes":
            found += [f"REVEAL {n} {lo}" + (f"..{hi}" if hi > lo else "") + " – "
                      + words.say("do_REVEAL", language, low=lo, high=hi) for n, lo, hi in legal.reveals(state, power)]
            found += [f"{order} – " + words.say("do_EVENT", language, phases=_phases(state, order))
                      for order in events.plays_open(state, power)]
        return tuple(found)

    def seat_notes(self, state: JSON, power: str) -> tuple[Note, ...]:
        """For the start mail: the stand-in mark, what ``power`` does first
        (his secret note: ten lines, told to him alone), the event cards to
        choose from next (with event cards), the players' seniority (Hausregel 3) with his place, every office with its
        holder (age, illness) and the candidates (the judge adds the first
        deadline and the picture of the Politburo)."""
        found: list[Note] = [Note("kreml_standin")] if state["data"]["standin"] else []
        found.append(Note("kreml_start_first", (("size", str(influence.NOTE_SIZE)), ("nestor", kdata.NESTOR))))
        if events.enabled(state):
            deck = "; ".join(f"{c.key} x{c.count} [{', '.join(map(str, c.phases))}]" for c in events.cards(state))
            found.append(Note("kreml_start_cards", (("cards", deck),)))
        order = list(state["seniority"])
        found.append(Note("kreml_start_seniority", (("order", ", ".join(order)), ("place", str(order.index(power) + 1)))))
        for office in OFFICES:
            name = holder(state, office)
            age, ill = (state["pol"][name]["age"], int(state["pol"][name]["ill"])) if name else ("-", 0)
            found.append(Note("kreml_start_office", (("office_key", f"kreml_office_{office}"), ("name", name or "-"),
                                                      ("age", str(age)), ("ill", ", " + "+" * ill if ill else ""))))
        found.append(Note("kreml_start_candidates", (("names", ", ".join(at(state, CANDIDATE)) or "-"),)))
        return tuple(found)

    def report_lines(self, report: JSON, language: str) -> tuple[str, ...]:
        """What one resolution did, event by event (the judge adds the dice);
        first the stand-in mark when the game plays with stand-in values;
        at the end every player's secret note."""
        marks = [words.say("standin_short", language)] if report.get("standin") else []
        notes = [f"{words.say('r_notes', language)}: {words.player(p, language)}: "
                 + ", ".join(f"{n} {pts}" for n, pts in note) for p, note in report.get("notes", {}).items()]
        return tuple(marks + [str(line[language]) for line in report.get("events", [])] + notes)

    def opening_events(self, state: JSON) -> tuple[JSON, ...]:
        """The setup's shuffle of offices and candidates (public)."""
        return tuple(dict(e) for e in state.get("rolls", [])[:1])

    def status_lines(self, state: JSON, language: str) -> tuple[str, ...]:
        """The public position: the step, each office with its holder (age,
        illness, cure, investigation, leader), candidates, Siberia, the
        wall, the revealed influence and the parades; nothing secret."""
        return status(state, language)

    def legal_orders(self, state: JSON, power: str) -> list[Order]:
        """Every order ``power`` may give now (the random games play from it)."""
        found: list[Order] = []
        if power in flow.seats(state):
            kind = state["step"]["kind"]
            found += legal.vote_orders(state, power) if kind == "vote" else legal.step_orders(state)
        if state["step"]["kind"] != "notes":
            found += [Order("REVEAL", (n,), points=p) for n, lo, hi in legal.reveals(state, power) for p in (lo, hi)]
            found += events.plays_open(state, power)
        return found

    def pass_order(self, state: JSON, power: str) -> str | None:
        """The rules' default of the step (STAY, END, VOTE ABSTAIN,
        CONTINUE, the oldest nominee); None for the notes."""
        if power not in flow.seats(state) or state["step"]["kind"] == "notes":
            return None
        return str(flow.default_order(state))

    def round_key(self, state: JSON) -> str:
        """The year and phase (``1953-2``): a standing PASS lasts through a phase."""
        step = state["step"]
        return f"{FIRST_YEAR - 1 + state['year']}-{step.get('p', 0)}"

    def data_files(self) -> tuple[DataFile, ...]:
        """The game data ``kreml``: the template with every unknown value
        marked, its check, required unless ``data=standin``."""
        return kdata.DATA_FILES


def _describe(state: JSON, order: Order, language: str) -> str:
    """What an order does, in a few words."""
    if order.verb == "VOTE":
        return words.say(f"do_VOTE_{order.vote}", language)
    if order.verb == "PURGE":
        return words.say("do_PURGE", language, need=flow.purge_need(state, order.names[0]))
    return words.say(f"do_{order.verb}", language)


def _phases(state: JSON, order: Order) -> str:
    """The phases an event card played by ``order`` takes effect in."""
    card = kdata.KremlData.from_json(state["data"]).card(order.card or "")
    return ", ".join(str(p) for p in card.phases) if card else "-"


def _seniority(text: str, seats: tuple[str, ...]) -> tuple[str, ...]:
    """The players from the oldest (Hausregel 3), as the GM set them; seat order by default."""
    if not text.strip():
        return seats
    given = tuple(s.strip().upper() for s in text.replace(";", ",").split(",") if s.strip())
    if sorted(given) != sorted(seats):
        raise GameSetupError(f"option seniority: name every seat once ({', '.join(seats)}), not {text!r}",
                             Note("kreml_setup_seniority", (("seats", ", ".join(seats)), ("value", repr(text)))))
    return given


def _alternatives(state: JSON, power: str) -> str:
    """The legal orders of ``power`` now, shortened, as a hint."""
    options = KremlGame().legal_orders(state, power) if power in flow.seats(state) else []
    shown = [str(o) for o in options if o.verb not in flow.ANYTIME][:12]
    more = len(options) - len(shown)
    if not shown:
        return ""
    return "jetzt möglich / allowed now: " + " | ".join(shown) + (f" (+{more})" if more > 0 else "")


def kreml3() -> KremlGame:
    """Kreml for three players."""
    return KremlGame("kreml3")


def kreml4() -> KremlGame:
    """Kreml for four players."""
    return KremlGame("kreml4")


def kreml5() -> KremlGame:
    """Kreml for five players."""
    return KremlGame("kreml5")


def kreml6() -> KremlGame:
    """Kreml for six players."""
    return KremlGame("kreml6")
