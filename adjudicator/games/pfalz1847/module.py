"""1847 AE as a game module of the judge (variant ``1847ae``, aliases
``1847`` and ``pfalz``: three players; ``1847ae-4`` and ``1847ae-5`` for
four and five).

A turn-based game: every phase belongs to one seat (the player on turn
in the start packet and stock rounds, the director of the operating
company in an operating round) and resolves as soon as that seat has an
accepted order.  A mail may carry several orders; they are applied in
order while the seat stays on turn.  The state is JSON: the options, the
game data overrides, the position (``engine``) and the history of
(seat, order) pairs; ``UNDO`` replays the history without its last entry.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable

from adjudicator.games.base import (
    JSON, AcceptedOrder, DataFile, Finding, GameSetupError, Note, OrderCheck, OrderProblem, Resolution, TurnPhase,
)
from adjudicator.games.pfalz1847 import engine
from adjudicator.games.pfalz1847.data import TABLES, DataError, GameData, check_table, game_data, template
from adjudicator.games.pfalz1847.orders import Undo
from adjudicator.games.pfalz1847.parse import HINT, ParseError, parse_line
from adjudicator.games.pfalz1847.picture import draw
from adjudicator.games.pfalz1847.report import actions_now, build_report, report_lines, status_lines
from adjudicator.games.pfalz1847.wording import refusal, refusal_note
from adjudicator.games.pictures.scene import Scene

VARIANT = "1847ae"


@lru_cache(maxsize=16)
def _data(standin: bool, overrides: tuple[tuple[str, str], ...]) -> GameData:
    return game_data(dict(overrides), standin)


def data_of(state: JSON) -> GameData:
    """The game data a state was started with."""
    return _data(bool(state["standin"]), tuple(sorted(state["overrides"].items())))


def _overrides(options: Mapping[str, Any]) -> dict[str, str]:
    found = {}
    for key, value in options.items():
        if key.startswith("data."):
            name = key.removeprefix("data.")
            if name not in TABLES:
                raise GameSetupError(f"option {key}: no table {name} (tables: {', '.join(TABLES)})",
                                     Note("p47_setup_no_table", (("option", key), ("tables", ", ".join(TABLES)))))
            problems = check_table(name, str(value))
            if problems:
                listed = "; ".join(str(p) for p in problems)
                raise GameSetupError(f"option {key}: " + listed,
                                     Note("p47_setup_problems", (("file", name), ("problems", listed))))
            found[name] = str(value)
    return found


def replay(data: GameData, players: int, history: Sequence[Sequence[str]]) -> JSON:
    """The position after the orders of ``history`` (seat, order text)."""
    g = engine.new_game(data, players)
    for seat, text in history:
        g = engine.apply(data, g, seat, parse_line(text))
    return g


@dataclass(frozen=True)
class Pfalz1847:
    """The game module of 1847 AE (see the module docstring)."""

    players: int = 3
    variant: str = VARIANT
    report_template: str = "pfalz1847_report"
    submission_means_ready: bool = True

    def powers(self) -> tuple[str, ...]:
        """The seats ``S1`` .. ``Sn`` in seat order."""
        return engine.seats(self.players)

    def lookup_power(self, text: str) -> str | None:
        """``S2`` for ``S2``, ``Spieler 2``, ``Player 2``, ``2``."""
        words = text.replace(" ", "").casefold()
        for prefix in ("spieler", "player", "s", ""):
            if words.startswith(prefix) and words[len(prefix):].isdigit():
                seat = f"S{int(words[len(prefix):])}"
                return seat if seat in self.powers() else None
        return None

    def power_name(self, power: str, language: str) -> str:
        """``Spieler 2`` (de) or ``Player 2`` (en)."""
        return f"{'Spieler' if language == 'de' else 'Player'} {power.removeprefix('S')}"

    def start(self, options: Mapping[str, Any], seed: int) -> JSON:
        """The position before the first order on the gathered data (each
        GM file ``data.<table>`` laid over it; ``data=standin``: the older
        stand-in tile list); raises ``GameSetupError`` naming every table
        that is wrong."""
        overrides = _overrides(options)
        standin = str(options.get("data", "")).lower() == "standin"
        try:
            data = _data(standin, tuple(sorted(overrides.items())))
        except DataError as error:
            raise GameSetupError(f"1847ae: {error}", Note("p47_setup_problems", (
                ("file", "1847ae"), ("problems", str(error))))) from None
        g = engine.new_game(data, self.players)
        state: JSON = {"variant": VARIANT, "options": dict(options), "standin": data.standin,
                       "overrides": overrides, "players": self.players, "history": [], "game": g}
        state["phase"] = _phase_name(g, 0)
        return state

    def phase(self, state: JSON) -> str:
        """``SR1-0001``: the round and the number of the next action."""
        return str(state["phase"])

    def phase_kind(self, state: JSON) -> str:
        """``action``: every phase is one seat's action."""
        return "action"

    def must_act(self, state: JSON) -> tuple[str, ...]:
        """The seat on turn (nobody when the game is over)."""
        seat = engine.actor(data_of(state), state["game"])
        return (seat,) if seat else ()

    def turn(self, state: JSON) -> TurnPhase | None:
        """Every phase is a turn of one seat."""
        return TurnPhase(self.must_act(state), "action")

    def check_orders(self, state: JSON, power: str, lines: Sequence[tuple[int, str]]) -> OrderCheck:
        """Read ``power``'s lines in order against the position, each as
        if the earlier accepted ones had been carried out."""
        data = data_of(state)
        g, history = state["game"], list(state["history"])
        accepted: list[AcceptedOrder] = []
        problems: list[OrderProblem] = []
        for number, text in lines:
            try:
                order = parse_line(text)
            except ParseError as error:
                unread = Note(error.key, (*error.fields.items(), ("hint", HINT))) if error.key else None
                problems.append(OrderProblem(number, error.column, text, error.message, HINT, unread))
                continue
            if isinstance(order, Undo):
                if not history or history[-1][0] != power:
                    nothing = engine.Refusal("p47_nothing_to_undo")
                    problems.append(OrderProblem(number, 1, text, refusal(nothing, "en"), note=refusal_note(nothing)))
                    continue
                history.pop()
                g = replay(data, self.players, history)
                accepted.append(AcceptedOrder(number, text, "UNDO"))
                continue
            try:
                g = engine.apply(data, g, power, order)
            except engine.Refusal as problem:
                hint = "; ".join(actions_now(data, g, power, "en", short=True)) if engine.actor(data, g) == power else ""
                problems.append(OrderProblem(number, 1, text, refusal(problem, "en"), hint[:400],
                                             refusal_note(problem, hint[:400])))
                continue
            history.append([power, str(order)])
            accepted.append(AcceptedOrder(number, text, str(order)))
        on_turn = engine.actor(data, state["game"]) == power
        missing = () if accepted or not on_turn else (f"{state['phase']}: {self.pass_order(state, power)}",)
        return OrderCheck(tuple(accepted), tuple(problems), missing)

    def resolve(self, state: JSON, orders: Mapping[str, Sequence[str]]) -> Resolution:
        """Carry out the seat's orders (none: its pass order) and report."""
        data = data_of(state)
        g, history = state["game"], [list(h) for h in state["history"]]
        seat = engine.actor(data, g)
        phase = str(state["phase"])
        lines = list(orders.get(seat, ())) if seat else []
        last = history[-1][0] if history else None
        if last and last != seat and _starts_with_undo(orders.get(last, ())):
            seat, lines = last, list(orders[last])       # the previous seat takes its action back
        if seat and not lines:
            lines = [self.pass_order(state, seat) or "PASS"]
        done: list[str] = []
        start = len(g["log"])
        for line in lines:
            order = parse_line(line)
            if isinstance(order, Undo):
                if history and history[-1][0] == seat:
                    undone = history.pop()
                    g = replay(data, self.players, history)
                    start = min(start, len(g["log"]))
                    done.append(f"UNDO ({undone[1]})")
                continue
            if engine.actor(data, g) != seat:
                break
            try:
                g = engine.apply(data, g, str(seat), order)
            except engine.Refusal:
                continue
            history.append([str(seat), str(order)])
            done.append(str(order))
        if seat and not done and engine.actor(data, g) == seat:
            fallback = str(engine.default_order(data, g))
            g = engine.apply(data, g, seat, parse_line(fallback))    # never resolve to the same phase
            history.append([seat, fallback])
            done.append(fallback)
        next_state = {**state, "game": g, "history": history, "phase": _phase_name(g, len(history))}
        report = build_report(data, state["game"], g, str(seat), done, start, bool(state["standin"]))
        report["next_phase"] = None if g["over"] else next_state["phase"]
        if not g["over"]:
            return Resolution(phase, next_state["phase"], next_state, report, undoable=True)
        scores = g["result"]["scores"]
        top = max(scores.values())
        leaders = [p for p, v in scores.items() if v == top]
        winner = leaders[0] if len(leaders) == 1 else None
        draw_text = None if winner else " = ".join(f"{p} {scores[p]}M" for p in leaders)
        return Resolution(phase, None, next_state, report, winner, draw_text, undoable=False)

    def standings(self, state: JSON) -> dict[str, int]:
        """Each seat's money plus shares at market price."""
        data, g = data_of(state), state["game"]
        return {p: engine.score(data, g, p) for p in g["players"]}

    def seat_notes(self, state: JSON, power: str) -> tuple[Note, ...]:
        """For the start mail: the seat's money and certificate limit, the
        seat order with who buys first, and the start packet open to it
        (every item with its price and the certificates under it)."""
        data, g = data_of(state), state["game"]
        names = list(g["players"])
        items = []
        for pid in engine.packet(data, g):
            private = data.private(pid)
            under = ", ".join(f"{cid} {pct}%" for cid, pct, _ in private.shares)
            items.append(f"{pid} {private.name} {private.price}M" + (f" [{under}]" if under else ""))
        limit = str(data.cert_limit[len(names)])
        notes = [Note("p47_start_money", (("money", str(g["cash"][power])), ("limit", limit))),
                 Note("p47_start_order", (("seats", " - ".join(names)), ("seat", power),
                                          ("first", names[-1]), ("twice", names[0]))),
                 Note("p47_start_packet", (("items", "; ".join(items)),))]
        if data.standin:
            notes.append(Note("p47_standin"))
        return tuple(notes)

    def private_lines(self, state: JSON, power: str, language: str) -> tuple[str, ...]:
        """Nothing: every holding and every action of 1847 AE is public (the
        judge's "your turn" mail lists the actions since and those open)."""
        return ()

    def actions_now(self, state: JSON, power: str, language: str) -> tuple[str, ...]:
        """The orders open to ``power`` now, one line each."""
        data, g = data_of(state), state["game"]
        if engine.actor(data, g) != power:
            return ()
        return tuple(actions_now(data, g, power, language))

    def pass_order(self, state: JSON, power: str) -> str | None:
        """``PASS`` in the start packet and stock rounds, ``DONE`` in an
        operating turn, ``DECLINE`` for an offer, ``DISCARD`` the cheapest
        train over a limit; None when ``power`` is not on turn."""
        data, g = data_of(state), state["game"]
        if engine.actor(data, g) != power:
            return None
        return str(engine.default_order(data, g))

    def round_key(self, state: JSON) -> str:
        """The round, and in an operating round the company on turn."""
        g = state["game"]
        company = engine.operating(g)
        return engine.round_label(g) + (f"-{company}" if company else "")

    def picture(self, state: JSON, report: JSON | None, *, game_name: str, language: str,
                texts: Callable[..., str]) -> Scene | None:
        """The hex map with tiles, stations, off-boards and each company's
        last routes, and the stock market with every marker."""
        g = state["game"]
        return draw(data_of(state), g, game_name=game_name, phase=str(state["phase"]), language=language,
                    standin=bool(state["standin"]))

    def position_edits(self) -> None:
        """None: a GM corrects an 18xx game by rollback or UNDO, not edits."""
        return None

    def data_files(self) -> tuple[DataFile, ...]:
        """Every table as an optional override (none is required: the
        tile manifest is gathered too, see ``cards/1847ae.toml``)."""
        return tuple(DataFile(name, _template_of(name), _check_of(name), required=False) for name in TABLES)

    def report_lines(self, report: JSON, language: str) -> tuple[str, ...]:
        """One turn in a few lines (orders, events, final scores)."""
        return tuple(report_lines(report, language))

    def status_lines(self, state: JSON, language: str) -> tuple[str, ...]:
        """The public position: round, bank, players, companies, routes."""
        return tuple(status_lines(data_of(state), state["game"], bool(state["standin"]), language))

    def legal_orders(self, state: JSON, power: str) -> list[str]:
        """Every order ``power`` may give now (canonical; tile lays capped)."""
        data, g = data_of(state), state["game"]
        if engine.actor(data, g) != power:
            return []
        return [str(o) for o in engine.legal_orders(data, g, limit_lays=60)]


def _starts_with_undo(lines: Sequence[str]) -> bool:
    try:
        return bool(lines) and isinstance(parse_line(lines[0]), Undo)
    except ParseError:
        return False


def _template_of(name: str) -> Callable[[], str]:
    return lambda: template(name)


def _check_of(name: str) -> Callable[[str], tuple[str | Finding, ...]]:
    return lambda text: check_table(name, text)


def _phase_name(g: JSON, actions: int) -> str:
    return f"{engine.round_label(g)}-{actions + 1:04d}"


@dataclass(frozen=True)
class Pfalz1847Three(Pfalz1847):
    """Three players (the same as ``Pfalz1847``)."""

    players: int = 3


@dataclass(frozen=True)
class Pfalz1847Four(Pfalz1847):
    """Four players: variant ``1847ae-4``."""

    players: int = 4
    variant: str = "1847ae-4"


@dataclass(frozen=True)
class Pfalz1847Five(Pfalz1847):
    """Five players: variant ``1847ae-5``."""

    players: int = 5
    variant: str = "1847ae-5"
