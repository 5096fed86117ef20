"""Turn phases: a phase that belongs to some seats resolves the moment they
have answered, and the judge goes on while the next phase can be resolved
without waiting (``adjudicator.games.base.TurnPhase``).

Everything a chain of resolutions does (the phases, the game's new state,
the "your turn" mails, the digests) is written in the caller's one
transaction, so a crash between two resolutions leaves none of them: the
orders stay stored and the judge resolves the chain again when it comes
back (at start-up and at every poll it looks for turn games that can go
on).  Each resolved turn phase is kept in ``phases`` like any phase; its
report carries the judge's own key ``judge_turn`` (the seats, the round,
whether it can be undone).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from adjudicator.config import Config
from adjudicator.games import game_module
from adjudicator.games.base import GameModule, OrderProblem, OrdersBetweenSteps, TurnPhase
from adjudicator.games.randomness import REPORT_KEY
from adjudicator.records import replace
from adjudicator.service.verify import end_lines, event_text, events_attachment
from adjudicator.service.notes import note_text
from adjudicator.service.notify import queue
from adjudicator.service.pictures import report_images
from adjudicator.service.render import Texts, render
from adjudicator.service.store import Connection, GameRecord, PhaseRecord, PlayerRecord, Store, TurnSeat

log = logging.getLogger(__name__)

TURN_KEY = "judge_turn"
CHAIN_LIMIT = 1000
"""At most this many phases are resolved in one go (a game whose every
seat is in civil disorder would otherwise run to its end in one step)."""
GM_SEAT = ""
"""The ``turn_seats`` entry of a game's master (digests like a seat's)."""


def turn_now(module: GameModule, game: GameRecord) -> TurnPhase | None:
    """The game's current turn phase, or None (a simultaneous phase, or the
    game is not running)."""
    if game.status != "active":
        return None
    return module.turn(game.state)


@dataclass(frozen=True)
class QueuePick:
    """What a seat's standing and queued orders give now: the order line
    (None: nothing usable), how many queued lines it uses up (the used one
    and the ones before it that were not legal) and why those were not."""

    line: str | None
    used: int = 0
    rejected: tuple[tuple[str, str], ...] = ()


def queued_order(store: Store, game: GameRecord, module: GameModule, power: str) -> QueuePick:
    """The order the seat's standing or queued orders give now: a standing
    ``PASS ROUND`` of this round gives ``pass_order``; else the queued
    lines are tried in order and the first legal one is used (the ones
    before it are dropped with the reason)."""
    queue_data = store.turn_seat(game.name, power).queue
    if queue_data.get("pass_round") == module.round_key(game.state):
        line = module.pass_order(game.state, power)
        if line is not None:
            return QueuePick(line)
    rejected: list[tuple[str, str]] = []
    for index, text in enumerate(str(t) for t in queue_data.get("orders", [])):
        check = module.check_orders(game.state, power, [(1, text)])
        if check.accepted and not check.problems:
            return QueuePick(check.accepted[0].canonical, index + 1, tuple(rejected))
        rejected.append((text, _reason(game, module, check.problems[0]) if check.problems else "-"))
    return QueuePick(None, len(rejected), tuple(rejected))


def _reason(game: GameRecord, module: GameModule, problem: OrderProblem) -> str:
    """Why a queued line was refused, in the game's language (its note
    when the game gives one)."""
    if problem.note is None:
        return problem.message
    from adjudicator.service.turns import texts_for

    return note_text(problem.note, texts_for(game), lambda p: module.power_name(p, game.language))


@dataclass(frozen=True)
class TurnOrders:
    """The orders a turn phase is resolved with: per seat its lines, the
    seats that got their pass order at the deadline (``late``) and the
    seats whose queued orders were used (``queued``)."""

    orders: dict[str, list[str]]
    late: tuple[str, ...]
    queued: tuple[str, ...]
    waiting: tuple[str, ...]


def turn_orders(store: Store, game: GameRecord, module: GameModule, turn: TurnPhase, at_deadline: bool) -> TurnOrders:
    """What each seat of ``turn`` orders: its accepted orders, else its
    usable queued order, else (nobody plays the seat, or the deadline has
    passed) its ``pass_order``; ``waiting`` lists the played seats still
    without any of these (before the deadline).  A game with orders between
    steps (``OrdersBetweenSteps``) also gets the other players' answers to
    this phase."""
    players = {p.power: p for p in store.players(game.name)}
    submissions = store.submissions(game.name, game.phase)
    orders: dict[str, list[str]] = {}
    late: list[str] = []
    queued: list[str] = []
    waiting: list[str] = []
    for seat in turn.seats:
        entry = submissions.get(seat)
        if entry is not None and entry.has_orders:
            orders[seat] = list(entry.orders)
            continue
        player = players.get(seat)
        played = player is not None and player.status == "playing"
        pick = queued_order(store, game, module, seat) if played else QueuePick(None)
        if pick.line is not None:
            orders[seat] = [pick.line]
            queued.append(seat)
            continue
        if played and not at_deadline:
            waiting.append(seat)
            continue
        if played:
            late.append(seat)
        default = module.pass_order(game.state, seat)
        if default is not None:
            orders[seat] = [default]
    if isinstance(module, OrdersBetweenSteps):  # the others' orders for the start of the next phase
        for power, entry in submissions.items():
            if power not in turn.seats and entry.has_orders and power in players:
                orders[power] = list(entry.orders)
    return TurnOrders(orders, tuple(late), tuple(queued), tuple(waiting))


def can_go_on(store: Store, game: GameRecord) -> bool:
    """True when ``game`` is in a turn phase that needs nobody's answer any
    more (every seat has answered, has a usable queued order or is not
    played)."""
    module = game_module(game.variant)
    turn = turn_now(module, game)
    return turn is not None and not turn_orders(store, game, module, turn, at_deadline=False).waiting


def resolve_turns(
    store: Store, db: Connection, config: Config, name: str, phase: str, now: datetime, trigger: str,
    between: Callable[[], None] | None = None,
) -> bool:
    """Resolve the turn phase ``phase`` of ``name`` (if the game is still in
    it; at a deadline with pass orders for the seats that did not answer),
    then every following phase that needs no answer, inside the caller's
    transaction; then send the "your turn" mails and digests.  ``between``
    is called before each chained resolution (a crash point for tests).
    Returns whether ``phase`` was resolved."""
    game = store.game(name)
    if game is None or game.status != "active" or game.phase != phase:
        return False
    module = game_module(game.variant)
    turn = turn_now(module, game)
    if turn is None:
        return False
    rounds_done = 0
    done, round_over = _resolve_one(store, db, config, game, module, turn, now, trigger,
                                    trigger in ("deadline", "gm"))
    if not done:
        return False
    rounds_done += round_over
    for _ in range(CHAIN_LIMIT):
        game = store.game(name)
        assert game is not None
        turn = turn_now(module, game)
        if turn is None or turn_orders(store, game, module, turn, at_deadline=False).waiting:
            break
        if between is not None:
            between()
        done, round_over = _resolve_one(store, db, config, game, module, turn, now, "chain", False)
        if not done:
            break
        rounds_done += round_over
    else:
        log.warning("game %s: stopped after %d resolutions in one go", name, CHAIN_LIMIT)
    tell(store, db, config, name, now, round_over=rounds_done > 0)
    return True


def _resolve_one(
    store: Store, db: Connection, config: Config, game: GameRecord, module: GameModule, turn: TurnPhase,
    now: datetime, trigger: str, at_deadline: bool,
) -> tuple[bool, bool]:
    """Resolve the current turn phase of ``game``; returns whether it was
    resolved and whether it completed a round."""
    from adjudicator.service.turns import (
        ACTIVE, FINISHED, count_missed_turns, deadline_after, outcome_of, render_report, texts_for,
    )

    chosen = turn_orders(store, game, module, turn, at_deadline)
    resolution = module.resolve(game.state, chosen.orders)
    playing = {p.power: p for p in store.players(game.name) if p.status == "playing"}
    acting = [playing[s] for s in turn.seats if s in playing]
    disorder = count_missed_turns(store, db, game, acting, list(chosen.late))
    finished = resolution.next_phase is None
    round_before = module.round_key(game.state)
    following = replace(
        game, phase=module.phase(resolution.state), state=resolution.state, status=FINISHED if finished else ACTIVE,
        deadline=None if finished else deadline_after(game, module, resolution.state, now),
        outcome=outcome_of(game, module, resolution) if finished else "",
        settings={k: v for k, v in game.settings.items() if k != "grace_phase"},
    )
    round_after = module.round_key(resolution.state)
    report = {**resolution.report, TURN_KEY: {
        "seats": list(turn.seats), "kind": turn.kind, "round": round_before, "undoable": bool(resolution.undoable),
        "late": list(chosen.late), "queued": list(chosen.queued), "disorder": disorder,
    }}
    texts = texts_for(game)
    own = list(optional_lines(module, "report_lines", report, texts.language))
    if not own and module.report_template:  # a module without report_lines: its report template, in short
        rendered, _ = render_report(config, following, module, report, list(chosen.late), game.phase)
        own = [line for line in rendered.splitlines() if line.strip() and not line.startswith("::")]
    text = "\n".join(action_lines(module, game.phase, report, texts, own)) + "\n"
    if not store.add_phase(db, PhaseRecord(game.name, game.phase, game.state, chosen.orders, report, text, trigger,
                                           now.isoformat())):
        return False, False
    store.update_game(db, following)
    store.mark_audit_reported(db, game.name)
    store.log(db, game.name, now.isoformat(), "resolved", f"{game.phase} ({trigger})")
    for seat in chosen.queued:
        _use_queue(store, db, game, module, seat)
    return True, finished or round_before != round_after


def _use_queue(store: Store, db: Connection, game: GameRecord, module: GameModule, power: str) -> None:
    """Take the used queued lines off the seat's queue (a standing PASS
    stays for its round); the reasons for lines dropped on the way are
    kept for the seat's next "your turn" mail."""
    pick = queued_order(store, game, module, power)
    seat = store.turn_seat(game.name, power)
    lines = list(seat.queue.get("orders", []))[pick.used:]
    rejected = [*seat.queue.get("rejected", []), *([t, r] for t, r in pick.rejected)]
    store.save_turn_seat(db, replace(seat, queue={**seat.queue, "orders": lines, "rejected": rejected}))


def drop_unusable_queue(store: Store, db: Connection, game: GameRecord, module: GameModule,
                        power: str) -> list[tuple[str, str]]:
    """When none of a seat's queued lines is legal now: drop them all and
    return each with the reason (and any kept from earlier), so its "your
    turn" mail can say why."""
    pick = queued_order(store, game, module, power)
    seat = store.turn_seat(game.name, power)
    rejected = [(str(t), str(r)) for t, r in seat.queue.get("rejected", [])] + list(pick.rejected)
    if rejected or seat.queue.get("orders"):
        store.save_turn_seat(db, replace(seat, queue={**seat.queue, "orders": [], "rejected": []}))
    return rejected


# --- what the players read ---------------------------------------------------------


def random_lines(report: dict[str, Any]) -> list[str]:
    """Every random event of a report, one line each (``event_line``)."""
    return [event_text(entry) for entry in report.get(REPORT_KEY, ())]


def optional_lines(module: GameModule, method: str, *args: Any) -> tuple[str, ...]:
    """The lines of an optional text method (``report_lines``,
    ``status_lines``) of a module written before it existed: none."""
    found = getattr(module, method, None)
    return tuple(found(*args)) if callable(found) else ()


def action_lines(module: GameModule, phase: str, report: dict[str, Any], texts: Texts,
                 own: Sequence[str] | None = None) -> list[str]:
    """One resolved turn phase as a digest lists it (and as its history
    entry keeps it): the phase name, the module's lines (``own``, else its
    ``report_lines``), the random events and the seats whose default was
    used."""
    lines = [f"{phase}:"]
    if own is None:
        own = optional_lines(module, "report_lines", report, texts.language)
    lines.extend(f"  {line}" for line in own)
    for line in random_lines(report):
        lines.append("  " + texts("turn_random", event=line))
    data = report.get(TURN_KEY, {})

    def names(key: str) -> str:
        return ", ".join(module.power_name(str(p), texts.language) for p in data[key])

    if data.get("late"):
        lines.append("  " + texts("turn_defaulted", powers=names("late")))
    if data.get("disorder"):
        lines.append("  " + texts("turn_disorder", powers=names("disorder")))
    return lines


def _unseen(store: Store, game: str, seen: int) -> list[PhaseRecord]:
    return [p for p in store.phases(game, after=seen) if TURN_KEY in p.report]


def tell(store: Store, db: Connection, config: Config, name: str, now: datetime, *,
         round_over: bool = False) -> None:
    """After resolutions: the seats whose turn it now is get their "your
    turn" mail (once per phase), the others their digest when it is due
    (their choice: per round, ``none`` = now, ``hours:N``), and at the end
    of the game everyone the last actions and the outcome."""
    game = store.game(name)
    if game is None:
        return
    module = game_module(game.variant)
    if game.status == "finished":
        _final_mails(store, db, config, game, module, now)
        return
    turn = turn_now(module, game)
    waiting = turn_orders(store, game, module, turn, at_deadline=False).waiting if turn else ()
    for player in store.players(game.name):
        if player.status != "playing" or not player.address:
            continue
        if player.power in waiting:
            if not store.reminder_sent(game.name, game.phase, f"turn:{player.power}"):
                your_turn(store, db, config, game, module, player, now)
            continue
        send_digest(store, db, config, game, module, player.power, player.address, now, round_over=round_over)
    if game.gm:
        send_digest(store, db, config, game, module, GM_SEAT, game.gm, now, round_over=round_over)


_BOARDS: dict[tuple[str, ...], tuple[Any, ...]] = {}
_BOARDS_KEPT = 4


def board_now(game: GameRecord, module: GameModule, texts: Texts) -> tuple[Any, ...]:
    """The game's picture of the position now (a PNG attachment), for every
    turn, digest and end mail of a game that draws one; none otherwise.
    The picture shows no seat's secrets, so the seats told of one position
    get one drawing: the last few are kept by game, phase, language and
    the whole state (any change of the state draws anew)."""
    key = (game.name, game.variant, game.phase, texts.language, texts.time_zone,
           json.dumps(game.state, sort_keys=True, default=str))
    found = _BOARDS.get(key)
    if found is None:
        found = report_images(module, game.name, game.state, {"phase": game.phase}, language=texts.language,
                              texts=texts)
        while _BOARDS and len(_BOARDS) >= _BOARDS_KEPT:
            _BOARDS.pop(next(iter(_BOARDS), key), None)
        _BOARDS[key] = found
    return found


def _head(config: Config, game: GameRecord, kind: str, power: str, texts: Texts) -> list[str]:
    lines = [f":: Judge: {config.address}", f":: Kind: {kind}", f":: Game: {game.name}"]
    if power:
        lines.append(f":: Power: {power}")
    return lines + [f":: Phase: {game.phase}", f":: Status: {game.status}",
                    f":: Deadline: {texts.machine_time(game.deadline)}"]


def _position(game: GameRecord, module: GameModule, power: str, texts: Texts) -> list[str]:
    lines = [f"  {line}" for line in optional_lines(module, "status_lines", game.state, texts.language)]
    if power and game.status == "active":
        lines.extend(f"  {line}" for line in module.private_lines(game.state, power, texts.language))
    return lines


def your_turn(store: Store, db: Connection, config: Config, game: GameRecord, module: GameModule,
              player: PlayerRecord, now: datetime) -> None:
    """Mail ``player`` that it is its turn: what happened since it was last
    told, the position, the actions it can take, the deadline and its
    default; marks the phases as told and the mail as sent."""
    from adjudicator.service.turns import texts_for

    assert player.address is not None
    texts = texts_for(game)
    turn = module.turn(game.state)
    assert turn is not None
    rejected = drop_unusable_queue(store, db, game, module, player.power)
    seat = store.turn_seat(game.name, player.power)
    unseen = _unseen(store, game.name, seat.seen_seq)
    default = module.pass_order(game.state, player.power)
    name = module.power_name(player.power, game.language)
    body = render(
        "turn_mail.txt.j2", texts, lambda p: module.power_name(p, game.language),
        head=_head(config, game, "turn", player.power, texts), turn_line=f"{game.phase} {turn.kind}",
        game=game, you=name, kind=turn.kind, others=[module.power_name(s, game.language) for s in turn.seats
                                                     if s != player.power],
        actions_since=[line for entry in unseen for line in entry.report_text.rstrip("\n").splitlines()],
        position=_position(game, module, player.power, texts),
        actions=list(module.actions_now(game.state, player.power, game.language)), default=default,
        rejected=[texts("turn_queue_rejected", order=order, reason=reason) for order, reason in rejected],
    )
    queue(store, db, config, player.address, texts("turn_subject", game=game.name, phase=game.phase, power=name),
          body, now, attachments=board_now(game, module, texts))
    store.mark_reminder(db, game.name, game.phase, f"turn:{player.power}", now.isoformat())
    if unseen:
        store.save_turn_seat(db, replace(seat, seen_seq=unseen[-1].seq))


def digest_choice(store: Store, game: GameRecord, power: str) -> str:
    """A seat's digest rule: its own choice, else the game's (setting
    ``digest``), else ``round``."""
    own = store.turn_seat(game.name, power).digest
    return own or str(game.settings.get("digest", "") or "round")


def _due(choice: str, seat: TurnSeat, now: datetime, round_over: bool) -> bool:
    if choice == "none":
        return True
    if choice.startswith("hours:"):
        if seat.digest_at is None:
            return True
        return now - datetime.fromisoformat(seat.digest_at) >= timedelta(hours=float(choice.split(":", 1)[1]))
    return round_over


def send_digest(store: Store, db: Connection, config: Config, game: GameRecord, module: GameModule,
                power: str, address: str, now: datetime, *, round_over: bool, force: bool = False) -> bool:
    """Mail the phases resolved since ``power`` (``GM_SEAT`` for the GM)
    was last told, when its digest is due (or ``force``); returns whether
    a mail was queued."""
    from adjudicator.service.turns import texts_for

    seat = store.turn_seat(game.name, power)
    unseen = _unseen(store, game.name, seat.seen_seq)
    if not unseen:
        return False
    if not force and not _due(digest_choice(store, game, power), seat, now, round_over):
        return False
    texts = texts_for(game)
    turn = turn_now(module, game)
    body = render(
        "turn_digest.txt.j2", texts, lambda p: module.power_name(p, game.language),
        head=_head(config, game, "digest", power, texts), game=game, first=unseen[0].phase, last=unseen[-1].phase,
        actions=[line for entry in unseen for line in entry.report_text.rstrip("\n").splitlines()],
        position=_position(game, module, power, texts),
        acting=[module.power_name(s, game.language) for s in (turn.seats if turn else ())], outcome=game.outcome,
        end_lines=[],
    )
    queue(store, db, config, address, texts("digest_subject", game=game.name, first=unseen[0].phase,
                                            last=unseen[-1].phase), body, now,
          attachments=board_now(game, module, texts))
    store.save_turn_seat(db, replace(seat, seen_seq=unseen[-1].seq, digest_at=now.isoformat()))
    return True


def _final_mails(store: Store, db: Connection, config: Config, game: GameRecord, module: GameModule,
                 now: datetime) -> None:
    """The end of a turn game: every played seat and the GM get the actions
    they have not seen and the outcome (``:: Kind: report``)."""
    from adjudicator.service.turns import texts_for

    texts = texts_for(game)
    attachment = events_attachment(store, game)
    targets = [(p.power, p.address) for p in store.players(game.name) if p.status == "playing" and p.address]
    if game.gm:
        targets.append((GM_SEAT, game.gm))
    for power, address in targets:
        assert address is not None
        seat = store.turn_seat(game.name, power)
        unseen = _unseen(store, game.name, seat.seen_seq)
        body = render(
            "turn_digest.txt.j2", texts, lambda p: module.power_name(p, game.language),
            head=_head(config, game, "report", power, texts) + [":: Next-Phase: -"], game=game,
            first=unseen[0].phase if unseen else game.phase, last=unseen[-1].phase if unseen else game.phase,
            actions=[line for entry in unseen for line in entry.report_text.rstrip("\n").splitlines()],
            position=_position(game, module, "", texts), acting=[], outcome=game.outcome,
            end_lines=end_lines(game, texts),
        )
        queue(store, db, config, address, texts("turn_end_subject", game=game.name), body, now,
              attachments=[*board_now(game, module, texts), attachment])
        if unseen:
            store.save_turn_seat(db, replace(seat, seen_seq=unseen[-1].seq, digest_at=now.isoformat()))


def flush_digests(store: Store, config: Config, now: datetime) -> int:
    """Send the digests that are due by the clock (seats on ``hours:N``
    whose last digest is that long ago and who have unseen actions);
    returns how many were queued."""
    sent = 0
    for game in store.games_where("active", settings_keys=("digest",), hourly_digests=True):
        if game.status != "active":
            continue
        module = game_module(game.variant)
        if module.turn(game.state) is None:  # digests belong to turn phases
            continue
        targets = [(p.power, p.address) for p in store.players(game.name) if p.status == "playing" and p.address]
        targets += [(GM_SEAT, game.gm)] if game.gm else []
        due = [(power, address) for power, address in targets
               if digest_choice(store, game, power).startswith("hours:")]
        if not due:
            continue
        with store.transaction() as db:
            for power, address in due:
                assert address is not None
                sent += send_digest(store, db, config, game, module, power, address, now, round_over=False)
    return sent
