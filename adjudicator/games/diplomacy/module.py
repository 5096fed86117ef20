"""Diplomacy variants (standard, 30JK, any map in ``maps/``) as a game module.

The state is the JSON case of ``adjudicator adjudicate`` (docs/cli.md):
variant, phase, units, centers, dislodged, standoffs and the 30JK keys, plus
the game's options.  Checking a power's orders runs the pure rules core on
that power's lines alone, so the answer never depends on (or reveals) what
other powers ordered.
"""

from __future__ import annotations

import json
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

from adjudicator.games.diplomacy.contract import Case, CaseError, case_from_json, option_note, result_to_json
from adjudicator.games.diplomacy.core.mapdata import GameMap, load_map
from adjudicator.games.diplomacy.core.model import PhaseKind
from adjudicator.games.base import JSON, SimultaneousPhases, GameSetupError, Note, OrderCheck, Resolution
from adjudicator.games.diplomacy.variants import initial_position, rules_for
from adjudicator.records import Record

# The resolver, the orders' checks and their wording are imported by the
# methods that use them: creating a game or seeing who must act in a
# movement phase loads none of them (issue 20; tests/test_startup.py).
if TYPE_CHECKING:  # pragma: no cover
    from adjudicator.games.base import PositionEdits
    from adjudicator.games.diplomacy.core.engine import PhaseResult
    from adjudicator.games.pictures.scene import Scene

_KINDS = {PhaseKind.MOVEMENT: "movement", PhaseKind.RETREAT: "retreat", PhaseKind.ADJUSTMENT: "adjustment"}


def _read_case(state: JSON) -> Case:
    """``case_from_json(state)``, remembered for the last states read: the
    mails of one phase each read the same state, twice (issue 20).  Only
    the map and position are used of it (both immutable)."""
    return _case_of_text(json.dumps(state, sort_keys=True))


@lru_cache(maxsize=64)
def _case_of_text(text: str) -> Case:
    return case_from_json(json.loads(text))


class DiplomacyGame(SimultaneousPhases, Record):
    """The game module of one Diplomacy map."""

    __slots__ = ("game_map", "report_template", "submission_means_ready")
    game_map: GameMap
    report_template: str
    submission_means_ready: bool

    def __init__(self, game_map: GameMap, report_template: str = "diplomacy_report",
                 submission_means_ready: bool = False) -> None:
        object.__setattr__(self, "game_map", game_map)
        object.__setattr__(self, "report_template", report_template)
        object.__setattr__(self, "submission_means_ready", submission_means_ready)

    @classmethod
    @cache
    def for_variant(cls, variant: str) -> "DiplomacyGame":
        """The module for the map ``maps/<variant>.toml`` (``MapError`` if none)."""
        return cls(load_map(variant))

    @property
    def variant(self) -> str:
        """The map's name."""
        return self.game_map.name

    def powers(self) -> tuple[str, ...]:
        """The map's powers in map order."""
        return tuple(self.game_map.powers)

    def lookup_power(self, text: str) -> str | None:
        """The canonical power for a name, German name, alias or adjective."""
        return self.game_map.lookup_power(text)

    def power_name(self, power: str, language: str) -> str:
        """The German name (``de``); in English the canonical name, or, on a
        map whose canonical names are the German ones, the first ASCII alias
        (30JK: ``Bayern`` -> ``Bavaria``)."""
        details = self.game_map.powers.get(power)
        if details is None:
            return power
        if language == "de":
            return details.name_de or power
        if self._english_names:
            return power
        return next((alias for alias in details.aliases if alias.isascii() and len(alias) > 3), power)

    @property
    def _english_names(self) -> bool:
        """True when the map's canonical power names are English (some
        power's German name differs from it)."""
        return any(p.name_de not in (None, name) for name, p in self.game_map.powers.items())

    def start(self, options: Mapping[str, Any], seed: int) -> JSON:
        """The start position, with options checked by the variant's rules.

        30JK's ``confessions = "random"`` is drawn here from ``seed`` and
        written into the state, so the state alone replays the game."""
        rules = rules_for(self.game_map)
        chosen = dict(options)
        if chosen.get("confessions") == "random":
            chosen["seed"] = seed  # the game's own seed, so that the draw can be verified
        problem = rules.option_problem(chosen)
        if problem is not None:
            raise GameSetupError(problem, option_note(problem))
        position = initial_position(self.game_map)
        state: JSON = {"variant": self.variant, "phase": str(position.phase), "options": chosen}
        try:
            case = case_from_json(state)
        except CaseError as error:
            raise GameSetupError(str(error), error.note) from None
        if case.position.confessions:
            state["confessions"] = {
                power: {"state": c.state, "until": c.until} for power, c in case.position.confessions.items()
            }
        state["units"] = {p: [str(u) for u in case.position.units if u.power == p] for p in self.powers()}
        state["centers"] = {p: list(case.position.centres_of(p)) for p in self.powers() if case.position.centres_of(p)}
        return state

    def phase(self, state: JSON) -> str:
        """The phase name stored in the state."""
        return str(state["phase"])

    def phase_kind(self, state: JSON) -> str:
        """``movement``, ``retreat`` or ``adjustment``."""
        return _KINDS[_read_case(state).position.phase.kind]

    def must_act(self, state: JSON) -> tuple[str, ...]:
        """Movement: powers with units; retreat: powers with a unit that can
        retreat; adjustment: powers that may build or must remove."""
        position = _read_case(state).position
        kind = position.phase.kind
        if kind is PhaseKind.MOVEMENT:
            acting = {u.power for u in position.units}
        elif kind is PhaseKind.RETREAT:
            acting = {d.unit.power for d in position.dislodged if d.retreats}
        else:
            from adjudicator.games.diplomacy.core.adjustments import allowances

            acting = {p for p, a in allowances(self.game_map, position).items() if a.builds or a.removals}
        return tuple(p for p in self.powers() if p in acting)

    def check_orders(self, state: JSON, power: str, lines: Sequence[tuple[int, str]]) -> OrderCheck:
        """Parse and check one power's lines; the results of moves are not
        computed (only legality), and only this power's entries are used;
        corrections are noted and adjustments checked against what is due
        (``arrival.check_power_orders``)."""
        from adjudicator.games.diplomacy.arrival import check_power_orders

        case = _read_case(state)
        return check_power_orders(case.game_map, case.position, dict(case.options), power, lines)

    def resolve(self, state: JSON, orders: Mapping[str, Sequence[str]]) -> Resolution:
        """Adjudicate the phase; the next state and the public report data."""
        from adjudicator.games.diplomacy.core.engine import adjudicate

        case = case_from_json(state)
        result = adjudicate(case.game_map, case.position, dict(orders), case.options)
        output = result_to_json(case.game_map, result)
        next_state: JSON = {
            "variant": self.variant,
            "phase": output["next_phase"] or output["phase"],
            "options": case.options,
            "units": output["units"],
            "centers": output["centers"],
            "dislodged": output["dislodged"] if result.next_phase and result.next_phase.kind is PhaseKind.RETREAT else {},
            "standoffs": output["standoffs"] if result.next_phase and result.next_phase.kind is PhaseKind.RETREAT else [],
            "quiet_years": output["quiet_years"],
        }
        if case.position.confessions:
            next_state["confessions"] = output["confessions"]
            next_state["incapacitated"] = output["incapacitated"]
        report = self._report(state, result, output)
        return Resolution(
            str(result.phase),
            output["next_phase"],
            next_state,
            report,
            result.winner,
            result.draw,
            tuple(result.eliminated),
        )

    def seat_notes(self, state: JSON, power: str) -> tuple[Note, ...]:
        """The power's home centres, its units and (30JK) its confession,
        as in ``state`` (a random confession is drawn at the start)."""
        homes = ", ".join(self.game_map.home_centres(power))
        units = ", ".join((state.get("units") or {}).get(power, ())) or "-"
        notes = [Note("start_homes", (("centres", homes),)), Note("start_units", (("units", units),))]
        confession = (state.get("confessions") or {}).get(power)
        if confession:
            notes.append(Note("start_confession", (("state_key", f"map_{confession['state'].replace('-', '_')}"),)))
        return tuple(notes)

    def private_lines(self, state: JSON, power: str, language: str) -> tuple[str, ...]:
        """Nothing: in Diplomacy the whole board is public."""
        return ()

    def picture(self, state: JSON, report: JSON | None, *, game_name: str, language: str,
                texts: Callable[..., str]) -> "Scene":
        """The map of the phase (units, orders with their results, the
        legend in ``language``), titled with the game and the map."""
        from adjudicator.games.diplomacy.drawing.legend import legend_words
        from adjudicator.games.diplomacy.drawing.picture import draw

        return draw(state, report, power_name=lambda p: self.power_name(p, language),
                    words=legend_words(texts), title=f"{game_name} \u2013 {self.game_map.title}")

    def opening_events(self, state: JSON) -> tuple[JSON, ...]:
        """30JK with ``confessions = random``: every try of the confession
        draw (``religion.random_confessions``); nothing otherwise."""
        options = state.get("options", {})
        if options.get("confessions") != "random":
            return ()
        from adjudicator.games.diplomacy.variants.religion import random_confessions
        from adjudicator.games.randomness import seed_text

        _, events = random_confessions(list(self.game_map.powers), seed_text(options.get("seed", 0)))
        return tuple(event.to_json() for event in events)

    def position_edits(self) -> "PositionEdits":
        """The GM's edits of units, centres and confessions."""
        from adjudicator.games.diplomacy import edits

        return edits

    def standings(self, state: JSON) -> dict[str, int]:
        """Supply centres per power."""
        centres = state.get("centers") or {}
        return {p: len(centres.get(p, [])) for p in self.powers()}

    def _report(self, before: JSON, result: PhaseResult, output: JSON) -> JSON:
        from adjudicator.games.diplomacy.wording import reason_note

        old_centres = {p: set(v) for p, v in (before.get("centers") or {}).items()}
        new_centres = {p: set(v) for p, v in output["centers"].items()}
        units_after = output["units"]
        table = []
        for power in self.powers():
            old, new = old_centres.get(power, set()), new_centres.get(power, set())
            if not old and not new and not units_after.get(power):
                continue
            table.append(
                {
                    "power": power,
                    "before": len(old),
                    "after": len(new),
                    "units": len(units_after.get(power, [])),
                    "gained": sorted(new - old),
                    "lost": sorted(old - new),
                }
            )
        orders: dict[str, list[JSON]] = {}
        for entry in output["orders"]:
            note = reason_note(entry["reason"]) if entry.get("reason") else None
            if note is not None:
                entry = {**entry, "reason_note": {"key": note.key, "fields": dict(note.fields)}}
            orders.setdefault(entry["power"], []).append(entry)
        confession_changes = []
        old_confessions = before.get("confessions") or {}
        for power, now in output["confessions"].items():
            then = old_confessions.get(power)
            if then is not None and then != now:
                confession_changes.append({"power": power, "before": then, "after": now})
        return {
            "phase": output["phase"],
            "phase_kind": _KINDS[result.phase.kind],
            "next_phase": output["next_phase"],
            "orders": [{"power": p, "entries": orders[p]} for p in self.powers() if p in orders],
            "dislodged": [
                {"power": p, **item} for p in self.powers() for item in output["dislodged"].get(p, [])
            ],
            "standoffs": output["standoffs"],
            "centres": table,
            "religious_warfare": output["religious_warfare"],
            "confession_changes": confession_changes,
            "eliminated": output["eliminated"],
            "winner": output["winner"],
            "draw": output["draw"],
        }
