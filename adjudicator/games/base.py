"""The interface between the judge service and a game's rules.

A game's state is plain JSON data (stored per phase by the service); every
method here is a pure function of its arguments.  The service never looks
inside a state: it asks the module which phase it is, who has to act,
what a power's order lines mean, and what comes of a phase.  A sealed-play
card game fits the same shape: its "phase" is the current action, its
"orders" are the plays, and ``submission_means_ready`` makes the judge
reveal as soon as every player has played.

Games whose seats take turns return a ``TurnPhase`` from ``turn``: the
judge then resolves each phase the moment its seats have answered and
chains the following ones (see ``TurnPhase`` and docs/service.md,
"Turn-based games").  ``report_lines``, ``status_lines`` and
``opening_events`` are read only where a module has them (a module
written before they existed still works).  Randomness comes only from
``adjudicator.games.randomness`` with the seed ``start`` is given.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Callable, Mapping, Protocol, Sequence, runtime_checkable

from adjudicator.records import Record

if TYPE_CHECKING:  # pragma: no cover
    from adjudicator.games.pictures.scene import Scene

JSON = dict[str, Any]


_set = object.__setattr__  # how a record sets its fields, once, in its __init__


class UnknownGame(ValueError):
    """No game module for a variant name."""


class Note(Record):
    """A remark for the answer to a mail, as a key of the message catalogue
    (``templates/texts.toml``, ``templates/texts/*.toml``) and its fields;
    the service words it in the game's language, so a game module never
    chooses a language itself."""

    __slots__ = ("key", "fields")
    key: str
    fields: tuple[tuple[str, str], ...]

    def __init__(self, key: str, fields: tuple[tuple[str, str], ...] = ()) -> None:
        _set(self, "key", key)
        _set(self, "fields", fields)


class GameSetupError(ValueError):
    """Options that a game cannot start with, or a position edit it refuses;
    the message names what is wrong (in English).  ``note``, when given,
    says the same as a catalogue entry, so that the service answers in the
    game's language."""

    def __init__(self, message: str, note: Note | None = None) -> None:
        super().__init__(message)
        self.note = note


class AcceptedOrder(Record):
    """An order line as understood: mail line number, the text written and
    the canonical form; ``note`` says what the game read differently from
    what was written (a corrected unit type or coast)."""

    __slots__ = ("line", "text", "canonical", "note")
    line: int
    text: str
    canonical: str
    note: Note | None

    def __init__(self, line: int, text: str, canonical: str, note: Note | None = None) -> None:
        _set(self, "line", line)
        _set(self, "text", text)
        _set(self, "canonical", canonical)
        _set(self, "note", note)


class OrderProblem(Record):
    """An order line that was not accepted: where, what was wrong, a hint.

    ``note``: The reason as a catalogue entry; when given, the answer shows it in the game's language instead of
    ``message``."""

    __slots__ = ("line", "column", "text", "message", "hint", "note")
    line: int
    column: int
    text: str
    message: str
    hint: str
    note: Note | None

    def __init__(self, line: int, column: int, text: str, message: str, hint: str = "",
                 note: Note | None = None) -> None:
        _set(self, "line", line)
        _set(self, "column", column)
        _set(self, "text", text)
        _set(self, "message", message)
        _set(self, "hint", hint)
        _set(self, "note", note)


class OrderCheck(Record):
    """What one power's order lines amount to in the current phase.

    ``accepted`` are the orders that will be used (canonical form);
    ``problems`` every line that was not accepted; ``missing`` describes
    what still has no order (units that will hold, builds not yet used);
    ``notes`` are further lines for the answer (what is due in an
    adjustment phase and what will be used)."""

    __slots__ = ("accepted", "problems", "missing", "notes")
    accepted: tuple[AcceptedOrder, ...]
    problems: tuple[OrderProblem, ...]
    missing: tuple[str, ...]
    notes: tuple[Note, ...]

    def __init__(self, accepted: tuple[AcceptedOrder, ...], problems: tuple[OrderProblem, ...],
                 missing: tuple[str, ...], notes: tuple[Note, ...] = ()) -> None:
        _set(self, "accepted", accepted)
        _set(self, "problems", problems)
        _set(self, "missing", missing)
        _set(self, "notes", notes)


class TurnPhase(Record):
    """A phase that belongs to some seats, not to everyone at a deadline.

    ``seats`` must each answer (one seat for a turn; every voter for a
    vote).  The judge resolves the phase the moment the last of them has
    an accepted order: no deadline and no READY needed.  After each
    resolution it asks ``turn`` again and goes on resolving, in the same
    database transaction, while the new phase can be resolved without
    waiting: a phase with no seats (the rules act alone: dice, scoring), a
    seat whose standing or queued order is legal now, a seat nobody plays
    (civil disorder, resigned: its ``pass_order``).  It stops at the first
    phase that needs a seat that has not answered and sends that seat its
    "your turn" mail.

    ``kind`` is the key of the deadline rules of this phase (``action``,
    ``vote``, a game's own word): the option ``deadline.<kind>`` (seconds)
    sets its length, ``reminder.<kind>`` a reminder that many seconds
    before it.  When the deadline passes, every seat that did not answer
    gets ``pass_order`` (where that is None: nothing, and ``resolve``
    applies the rules' default).

    The phase's name (``GameModule.phase``) must be unique over the whole
    game (count the actions: ``R3.12``), because the judge keeps one
    history entry, one submission per seat and one "your turn" mail per
    phase name."""

    __slots__ = ("seats", "kind")
    seats: tuple[str, ...]
    kind: str

    def __init__(self, seats: tuple[str, ...], kind: str) -> None:
        _set(self, "seats", seats)
        _set(self, "kind", kind)


class Resolution(Record):
    """The outcome of one phase.

    ``state`` is the state of ``next_phase`` (or the final state when
    ``next_phase`` is ``None``: the game is over, ``winner`` or ``draw``
    says how).  ``report`` is the data the module's report template
    renders; it is public (sent to every player).

    ``undoable``: True when this resolution revealed nothing secret and used no randomness, so the acting seat
    may take it back (``UNDO``) until the next seat has acted."""

    __slots__ = ("phase", "next_phase", "state", "report", "winner", "draw", "eliminated", "undoable")
    phase: str
    next_phase: str | None
    state: JSON
    report: JSON
    winner: str | None
    draw: str | None
    eliminated: tuple[str, ...]
    undoable: bool

    def __init__(self, phase: str, next_phase: str | None, state: JSON, report: JSON, winner: str | None = None,
                 draw: str | None = None, eliminated: tuple[str, ...] = (), undoable: bool = False) -> None:
        _set(self, "phase", phase)
        _set(self, "next_phase", next_phase)
        _set(self, "state", state)
        _set(self, "report", report)
        _set(self, "winner", winner)
        _set(self, "draw", draw)
        _set(self, "eliminated", eliminated)
        _set(self, "undoable", undoable)


STANDIN = "standin"
"""The value of option ``data`` that chooses every data file's stand-in set."""


def data_option(name: str) -> str:
    """The option key that carries the supplied text of data file ``name``."""
    return f"data.{name}"


class Finding(Record):
    """One problem of a GM's data file, for an answer in the game's
    language: where it is (``line`` of the file, 0 when none can be named;
    the ``card`` or table; the ``field``), what is allowed as a catalogue
    entry ``key`` with its ``fields``, and ``text``, the same in English
    (``line N: [card] field: what is allowed``) for the command line and
    for readers without the catalogue.  ``str()`` is ``text``."""

    __slots__ = ("text", "key", "fields", "line", "card", "field")
    text: str
    key: str
    fields: tuple[tuple[str, str], ...]
    line: int
    card: str
    field: str

    def __init__(self, text: str, key: str = "", fields: tuple[tuple[str, str], ...] = (), line: int = 0,
                 card: str = "", field: str = "") -> None:
        _set(self, "text", text)
        _set(self, "key", key)
        _set(self, "fields", fields)
        _set(self, "line", line)
        _set(self, "card", card)
        _set(self, "field", field)

    def __str__(self) -> str:
        return self.text


def toml_syntax_finding(error: Exception, text: str) -> Finding:
    """A TOML syntax error of a GM's data file as a finding: the line and
    column the parser names (line 0 and column "?" when it names none),
    the catalogue key ``data_find_toml``, ``text`` as its English."""
    found = re.search(r"\(at line (\d+), column (\d+)\)", str(error))
    line, column = (int(found.group(1)), found.group(2)) if found else (0, "?")
    return Finding(text, "data_find_toml", (("column", column),), line)


class DataFile(Record):
    """A table of game data the rule text does not give (a card list, a
    board) that a GM supplies as a TOML file.

    The supplied text travels in the game's options as ``data.<name>``
    (the service puts it there from a GM's mail attachment, the command
    line or the operator's data folder; no mail command reads a server
    path).  ``template`` is the file a GM fills in (every unknown value
    marked), ``check`` lists what is wrong with a supplied text (empty:
    usable); each problem is one line of text that begins with where it
    is, ``line N: <field>: <what is allowed>`` (``line N`` left out when
    no line can be named), every problem at once, or a ``Finding`` that
    says the same with a catalogue key (the GM reads it in the game's
    language, as a table of line, card, field and what is allowed).  ``required`` says that
    a game cannot start without it unless the stand-in data set is chosen
    (option ``data=standin``, or ``<name>=standin`` for this file alone;
    the module then uses its clearly marked stand-in set and every report
    says so; a module without one refuses the option in ``start``).
    ``standin`` gives the text of that stand-in set where it is a file of
    this format (None: not offered as a text); ``title_en``/``title_de`` name the file for a GM ("the card
    file"); ``unknown`` lists what a text leaves open.  ``check`` and ``template`` are pure: no I/O beyond the game's
    own packaged data.

    ``unknown``: What a text (None: nothing supplied yet) still leaves unknown, one readable line per table
    ("PE02: parties, value"), for the GM's answer; None when the game cannot say more than ``check``."""

    __slots__ = ("name", "template", "check", "required", "standin", "title_en", "title_de", "unknown")
    name: str
    template: Callable[[], str]
    check: Callable[[str], tuple[str | Finding, ...]]
    required: bool
    standin: Callable[[], str] | None
    title_en: str
    title_de: str
    unknown: Callable[[str | None], tuple[str, ...]] | None

    def __init__(self, name: str, template: Callable[[], str], check: Callable[[str], tuple[str | Finding, ...]],
                 required: bool = True, standin: Callable[[], str] | None = None, title_en: str = "",
                 title_de: str = "", unknown: Callable[[str | None], tuple[str, ...]] | None = None) -> None:
        _set(self, "name", name)
        _set(self, "template", template)
        _set(self, "check", check)
        _set(self, "required", required)
        _set(self, "standin", standin)
        _set(self, "title_en", title_en)
        _set(self, "title_de", title_de)
        _set(self, "unknown", unknown)


class PositionEdits(Protocol):
    """A game master's edits of a board position (Diplomacy's units,
    centres, confessions); each returns a new state or raises
    ``GameSetupError`` naming what is wrong."""

    def add_unit(self, state: JSON, power_name: str, kind: str, location: str) -> JSON:
        """``state`` with a unit of ``power_name`` added at ``location``."""
        ...  # pragma: no cover

    def remove_unit(self, state: JSON, location: str) -> JSON:
        """``state`` without the unit at ``location``."""
        ...  # pragma: no cover

    def move_unit(self, state: JSON, origin: str, destination: str) -> JSON:
        """``state`` with the unit at ``origin`` standing at ``destination``."""
        ...  # pragma: no cover

    def set_centre(self, state: JSON, province_text: str, power_name: str | None) -> JSON:
        """``state`` with the centre owned by ``power_name`` (None: nobody)."""
        ...  # pragma: no cover

    def set_confession(self, state: JSON, power_name: str, word: str, until: int | None) -> JSON:
        """``state`` with the power's confession set (30JK)."""
        ...  # pragma: no cover

    def incapacitate(self, state: JSON, location: str) -> JSON:
        """``state`` with the unit at ``location`` incapacitated (30JK)."""
        ...  # pragma: no cover

    def place_name(self, state: JSON, text: str) -> str:
        """The canonical name of the place ``text`` names, or ``text``."""
        ...  # pragma: no cover


class GameModule(Protocol):
    """What the service needs from a game (see the module docstring)."""

    @property
    def variant(self) -> str:
        """The variant's name (as games are created with)."""
        ...  # pragma: no cover

    @property
    def report_template(self) -> str:
        """The report template's base name in ``templates/`` (``.txt.j2`` and ``.html.j2``)."""
        ...  # pragma: no cover

    @property
    def submission_means_ready(self) -> bool:
        """True when a power that has sent its orders counts as ready (sealed plays)."""
        ...  # pragma: no cover

    def powers(self) -> tuple[str, ...]:
        """Every power (player seat) of the game, canonical names in order."""
        ...  # pragma: no cover

    def lookup_power(self, text: str) -> str | None:
        """The canonical power for a name, alias or abbreviation, or None."""
        ...  # pragma: no cover

    def power_name(self, power: str, language: str) -> str:
        """A power's name in ``language`` (``de``/``en``)."""
        ...  # pragma: no cover

    def start(self, options: Mapping[str, Any], seed: int) -> JSON:
        """The first state; ``seed`` feeds any random choice.  Raises
        ``GameSetupError`` for options the game cannot use."""
        ...  # pragma: no cover

    def phase(self, state: JSON) -> str:
        """The name of the phase ``state`` is in."""
        ...  # pragma: no cover

    def phase_kind(self, state: JSON) -> str:
        """The kind of phase (the key of the deadline rules): ``movement``,
        ``retreat``, ``adjustment`` or a game's own kind."""
        ...  # pragma: no cover

    def must_act(self, state: JSON) -> tuple[str, ...]:
        """The powers that have something to order in this phase; a power
        not listed never counts as late."""
        ...  # pragma: no cover

    def check_orders(self, state: JSON, power: str, lines: Sequence[tuple[int, str]]) -> OrderCheck:
        """Read one power's order lines (mail line number, text) against
        the state, without revealing anything about other powers."""
        ...  # pragma: no cover

    def resolve(self, state: JSON, orders: Mapping[str, Sequence[str]]) -> Resolution:
        """Resolve the phase with each power's accepted order lines;
        powers without orders get the rules' defaults."""
        ...  # pragma: no cover

    def standings(self, state: JSON) -> dict[str, int]:
        """A public score per power (supply centres, points) for listings."""
        ...  # pragma: no cover

    def private_lines(self, state: JSON, power: str, language: str) -> tuple[str, ...]:
        """What only ``power`` may see now (a card game: the hand, a sealed
        forecast, the plays open to it), as text lines in ``language``
        (``de``/``en``); empty when the game keeps nothing private.  The
        service shows them to that power alone: in its acknowledgements,
        its start mail and its copy of each report."""
        ...  # pragma: no cover

    def picture(self, state: JSON, report: JSON | None, *, game_name: str, language: str,
                texts: Callable[..., str]) -> "Scene | None":
        """The board picture of a resolved phase (``state`` it was resolved
        from, its ``report``) or, with ``report`` None, of the position
        now; legend words come from ``texts`` in ``language``.  None when
        the game has no board picture."""
        ...  # pragma: no cover

    def position_edits(self) -> PositionEdits | None:
        """The GM's position edits of this game, or None when it has none."""
        ...  # pragma: no cover

    def turn(self, state: JSON) -> TurnPhase | None:
        """Who must act in a turn phase, or None for a simultaneous phase
        (everyone orders; the deadline or the last READY resolves).  In a
        turn phase ``must_act`` must return the same seats; ``check_orders``
        is asked for the seats of ``seats`` only (a queued order is checked
        again when the seat's turn comes)."""
        ...  # pragma: no cover

    def actions_now(self, state: JSON, power: str, language: str) -> tuple[str, ...]:
        """The actions ``power`` can take now, one line each in ``language``
        (for its "your turn" mail: the order as written, a dash, what it
        does: ``ROLL – würfeln``); empty when it has nothing to do."""
        ...  # pragma: no cover

    def pass_order(self, state: JSON, power: str) -> str | None:
        """The order line with which ``power`` passes now (a standing
        ``PASS``, a deadline's default: a pass, a vote "no"), or None when
        it cannot pass; the line must pass ``check_orders``."""
        ...  # pragma: no cover

    def round_key(self, state: JSON) -> str:
        """A name of the current round (``R3``, ``1923 phase 2``).  A
        standing ``PASS`` lasts while it stays the same; when a resolution
        changes it, the round is complete and seats on per-round digests
        get theirs."""
        ...  # pragma: no cover

    def data_files(self) -> tuple[DataFile, ...]:
        """The data files a GM may (or, where ``required``, must) supply."""
        ...  # pragma: no cover

    def report_lines(self, report: JSON, language: str) -> tuple[str, ...]:
        """What one resolved turn phase did (its ``Resolution.report``), as
        a few text lines in ``language`` (``Rot würfelt: 4``): the judge
        lists them in digests, "your turn" mails and ``STATUS``, each
        action under its phase name, and adds the random events of the
        report itself.  Simultaneous games may return nothing (their
        reports are rendered from ``report_template``)."""
        ...  # pragma: no cover

    def status_lines(self, state: JSON, language: str) -> tuple[str, ...]:
        """The public position now, as text lines in ``language`` (scores,
        offices, the board in words), for "your turn" mails and the
        ``STATUS`` answer; never anything secret."""
        ...  # pragma: no cover

    def opening_events(self, state: JSON) -> tuple[JSON, ...]:
        """The random events ``start`` drew (``RandomEvent.to_json()``
        records: a shuffled deck, random start positions), in counter
        order; the judge lists them in the start mail and keeps them for
        ``adjudicator verify``.  Empty when ``start`` draws nothing."""
        ...  # pragma: no cover


@runtime_checkable
class DescribesSeats(Protocol):
    """A game module that says, for the start mail, what a seat begins
    with (home centres, units, a confession): public facts, as catalogue
    notes worded by the service in the game's language."""

    def seat_notes(self, state: JSON, power: str) -> tuple[Note, ...]:
        """What ``power`` starts with in ``state``."""
        ...  # pragma: no cover


@runtime_checkable
class OrdersBetweenSteps(Protocol):
    """A turn-based game module with orders that any player may send at
    any time and that take effect at the start of the game's next phase,
    whoever acts then (Kreml's reveals).  A mail from a player who is not
    a seat of the current turn phase is offered to ``between_steps``
    first: the lines it accepts are stored as that player's answer to the
    current phase (secret, like any answer; a later mail replaces it) and
    handed to ``resolve`` with the seats' orders when the phase is
    resolved; the lines it refuses are answered with the reason; every
    other line is queued for the player's own turn as before."""

    def between_steps(self, state: JSON, power: str, lines: Sequence[tuple[int, str]]) -> OrderCheck:
        """Which of ``power``'s lines take effect between steps (accepted,
        canonical) or are such orders but not allowed (problems); lines in
        neither are orders for ``power``'s own turn."""
        ...  # pragma: no cover


class SimultaneousPhases:
    """The turn methods of a game whose phases are all simultaneous, and
    no data files by default."""

    def data_files(self) -> tuple[DataFile, ...]:
        """None: everything the game needs is in its own data."""
        return ()

    def turn(self, state: JSON) -> TurnPhase | None:
        """None: every phase is ordered by everyone at once."""
        return None

    def actions_now(self, state: JSON, power: str, language: str) -> tuple[str, ...]:
        """Nothing: simultaneous games send no "your turn" mail."""
        return ()

    def pass_order(self, state: JSON, power: str) -> str | None:
        """None: a missing order takes the rules' default."""
        return None

    def round_key(self, state: JSON) -> str:
        """The phase is the round."""
        return str(state.get("phase", ""))

    def report_lines(self, report: JSON, language: str) -> tuple[str, ...]:
        """Nothing: a simultaneous phase's report is its template."""
        return ()

    def status_lines(self, state: JSON, language: str) -> tuple[str, ...]:
        """Nothing beyond the standings the judge lists itself."""
        return ()

    def opening_events(self, state: JSON) -> tuple[JSON, ...]:
        """None: ``start`` draws nothing."""
        return ()
