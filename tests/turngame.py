"""A small turn-based game for testing the judge's turn phases (issue 15).

"Würfelrunde" / "Dice round", three seats (Red, Green, Blue) in this
order.  The rules:

1. A round has one action per seat, in seat order, then a vote of all
   seats.  The phases are ``R<round>.<seat number>`` and ``R<round>V``.
2. An action is ``ROLL`` (a six-sided die, added to the seat's score),
   ``TAKE 1`` or ``TAKE 2`` (that many points, but at most once per round
   each of the two) or ``PASS`` (nothing).  ``TAKE`` and ``PASS`` can be
   taken back (UNDO); a roll cannot (the die was seen).
3. The vote (``YES``/``NO``) asks "end the game now?"; a majority of YES
   ends it; the default is NO.  The game also ends after round ``rounds``
   (option, default 3).  The highest score wins; equal highest is a draw.
4. A seat reaching 20 points wins at once.

The module is pure; dice come from ``adjudicator.games.randomness`` with
the game's seed (``str(seed)``) and a counter kept in the state.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Callable

from adjudicator.games import randomness
from adjudicator.games.base import (
    JSON, AcceptedOrder, DataFile, GameSetupError, OrderCheck, OrderProblem, Resolution, TurnPhase,
)

SEATS = ("Red", "Green", "Blue")
_NAMES = {"de": {"Red": "Rot", "Green": "Grün", "Blue": "Blau"}, "en": {s: s for s in SEATS}}
_ALIASES = {**{s.lower(): s for s in SEATS}, "rot": "Red", "grün": "Green", "gruen": "Green", "blau": "Blue"}
WIN_AT = 20


@dataclass(frozen=True)
class DiceRound:
    """The test game's module (see the module docstring)."""

    variant: str = "dicetest"
    report_template: str = "turn_final"
    submission_means_ready: bool = False

    def powers(self) -> tuple[str, ...]:
        """Red, Green, Blue."""
        return SEATS

    def lookup_power(self, text: str) -> str | None:
        """A seat by its English or German name, any case."""
        return _ALIASES.get(text.strip().casefold())

    def power_name(self, power: str, language: str) -> str:
        """``Rot`` or ``Red``."""
        return _NAMES.get(language, _NAMES["en"]).get(power, power)

    def start(self, options: Mapping[str, Any], seed: int) -> JSON:
        """Round 1, Red to act, every score 0."""
        unknown = sorted(set(options) - {"rounds"})
        if unknown:
            raise GameSetupError(f"option {unknown[0]}: this game has only 'rounds'")
        rounds = options.get("rounds", 3)
        if not isinstance(rounds, int) or not 1 <= rounds <= 20:
            raise GameSetupError("option rounds: expected a whole number from 1 to 20")
        return {"phase": "R1.1", "round": 1, "seat": 0, "vote": False, "scores": {s: 0 for s in SEATS},
                "taken": {s: [] for s in SEATS}, "seed": str(seed), "counter": 0,
                "options": {"rounds": rounds}}

    def phase(self, state: JSON) -> str:
        """``R2.3``: round 2, the third seat; ``R2V``: round 2's vote."""
        return str(state["phase"])

    def phase_kind(self, state: JSON) -> str:
        """``vote`` or ``action``."""
        return "vote" if state["vote"] else "action"

    def turn(self, state: JSON) -> TurnPhase | None:
        """The seat in turn, or every seat for the vote."""
        if state["vote"]:
            return TurnPhase(SEATS, "vote")
        return TurnPhase((SEATS[state["seat"]],), "action")

    def must_act(self, state: JSON) -> tuple[str, ...]:
        """The seats of ``turn``."""
        turn = self.turn(state)
        return turn.seats if turn else ()

    def _legal(self, state: JSON, power: str) -> tuple[str, ...]:
        if state["vote"]:
            return ("YES", "NO")
        taken = state["taken"][power]
        return ("ROLL", *(f"TAKE {n}" for n in (1, 2) if n not in taken), "PASS")

    def check_orders(self, state: JSON, power: str, lines: Sequence[tuple[int, str]]) -> OrderCheck:
        """One order line: a legal action (or vote) of ``power`` now."""
        legal = self._legal(state, power) if power in self.must_act(state) else ()
        accepted: list[AcceptedOrder] = []
        problems: list[OrderProblem] = []
        for number, text in lines:
            canonical = " ".join(text.upper().split())
            if accepted:
                problems.append(OrderProblem(number, 1, text, "only one action per turn"))
            elif canonical in legal:
                accepted.append(AcceptedOrder(number, text, canonical))
            else:
                problems.append(OrderProblem(number, 1, text, "not a legal action now",
                                             "one of: " + ", ".join(legal) if legal else ""))
        return OrderCheck(tuple(accepted), tuple(problems), () if accepted else ("action",))

    def resolve(self, state: JSON, orders: Mapping[str, Sequence[str]]) -> Resolution:
        """Carry out the action (or count the vote) and move on."""
        phase = state["phase"]
        scores = dict(state["scores"])
        taken = {s: list(v) for s, v in state["taken"].items()}
        counter = int(state["counter"])
        events: list[JSON] = []
        lines: list[dict[str, Any]] = []
        undoable = False
        after = dict(state)
        if state["vote"]:
            votes = {s: (list(orders.get(s, ())) or ["NO"])[0] for s in SEATS}
            yes = sum(1 for v in votes.values() if v == "YES")
            lines.append({"what": "vote", "votes": votes, "yes": yes})
            over = yes * 2 > len(SEATS) or state["round"] >= state["options"]["rounds"]
            after.update(vote=False, round=state["round"] + 1, seat=0, phase=f"R{state['round'] + 1}.1")
            taken = {s: [] for s in SEATS}
        else:
            seat = SEATS[state["seat"]]
            action = (list(orders.get(seat, ())) or ["PASS"])[0]
            if action == "ROLL":
                event = randomness.roll(state["seed"], counter, 6, f"{phase} {seat} W6")
                counter += 1
                events.append(event.to_json())
                scores[seat] += event.result[0]
                lines.append({"what": "roll", "seat": seat, "value": event.result[0]})
            elif action.startswith("TAKE"):
                points = int(action.split()[1])
                scores[seat] += points
                taken[seat].append(points)
                lines.append({"what": "take", "seat": seat, "value": points})
                undoable = True
            else:
                lines.append({"what": "pass", "seat": seat})
                undoable = True
            over = scores[seat] >= WIN_AT
            if state["seat"] + 1 < len(SEATS):
                after.update(seat=state["seat"] + 1, phase=f"R{state['round']}.{state['seat'] + 2}")
            else:
                after.update(vote=True, phase=f"R{state['round']}V")
        after.update(scores=scores, taken=taken, counter=counter)
        report = {"phase": phase, "lines": lines, "scores": scores, randomness.REPORT_KEY: events}
        if over:
            best = max(scores.values())
            leaders = [s for s in SEATS if scores[s] == best]
            winner = leaders[0] if len(leaders) == 1 else None
            return Resolution(phase, None, after, report, winner=winner,
                              draw=None if winner else "equal scores", undoable=False)
        return Resolution(phase, after["phase"], after, report, undoable=undoable)

    def standings(self, state: JSON) -> dict[str, int]:
        """The scores."""
        return {s: int(v) for s, v in state["scores"].items()}

    def private_lines(self, state: JSON, power: str, language: str) -> tuple[str, ...]:
        """Nothing is secret in this game."""
        return ()

    def picture(self, state: JSON, report: JSON | None, *, game_name: str, language: str,
                texts: Callable[..., str]) -> None:
        """No board."""
        return None

    def position_edits(self) -> None:
        """No position edits."""
        return None

    def actions_now(self, state: JSON, power: str, language: str) -> tuple[str, ...]:
        """The legal orders with a word on each."""
        if power not in self.must_act(state):
            return ()
        words = {"de": {"ROLL": "würfeln (W6)", "TAKE 1": "1 Punkt nehmen", "TAKE 2": "2 Punkte nehmen",
                        "PASS": "nichts tun", "YES": "Spiel jetzt beenden", "NO": "weiterspielen"},
                 "en": {"ROLL": "roll a die (d6)", "TAKE 1": "take 1 point", "TAKE 2": "take 2 points",
                        "PASS": "do nothing", "YES": "end the game now", "NO": "play on"}}[language]
        return tuple(f"{order} – {words[order]}" for order in self._legal(state, power))

    def pass_order(self, state: JSON, power: str) -> str | None:
        """``NO`` in a vote, ``PASS`` otherwise."""
        return "NO" if state["vote"] else "PASS"

    def round_key(self, state: JSON) -> str:
        """``R<round>``."""
        return f"R{state['round']}"

    def data_files(self) -> tuple[DataFile, ...]:
        """None."""
        return ()

    def report_lines(self, report: JSON, language: str) -> tuple[str, ...]:
        """``Red rolls: 4 (score 7)`` and the like."""
        result = []
        for line in report["lines"]:
            if line["what"] == "vote":
                votes = ", ".join(f"{self.power_name(s, language)} {line['votes'][s]}" for s in SEATS)
                result.append(("Abstimmung: " if language == "de" else "Vote: ") + votes)
                continue
            seat = self.power_name(line["seat"], language)
            score = report["scores"][line["seat"]]
            if line["what"] == "roll":
                text = f"{seat} würfelt {line['value']}" if language == "de" else f"{seat} rolls {line['value']}"
            elif line["what"] == "take":
                text = f"{seat} nimmt {line['value']}" if language == "de" else f"{seat} takes {line['value']}"
            else:
                text = f"{seat} passt" if language == "de" else f"{seat} passes"
            result.append(f"{text} ({'Stand' if language == 'de' else 'score'} {score})")
        return tuple(result)

    def status_lines(self, state: JSON, language: str) -> tuple[str, ...]:
        """Every seat's score."""
        label = "Punkte" if language == "de" else "Points"
        return (f"{label}: " + ", ".join(f"{self.power_name(s, language)} {state['scores'][s]}" for s in SEATS),)
