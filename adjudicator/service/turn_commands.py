"""The player commands of turn-based games: queued orders, ``PASS ROUND``,
``CANCEL``, ``UNDO``, ``SET DIGEST`` and ``STATUS`` (which every game
answers).

Each function works inside the caller's transaction and returns the
answer's lines; queued orders and a standing PASS are the seat's secret:
only its own answers mention them.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Sequence

from adjudicator.config import Config
from adjudicator.games import game_module
from adjudicator.games.base import GameModule
from adjudicator.records import replace
from adjudicator.service.notify import queue_notice
from adjudicator.service.render import Texts
from adjudicator.service.store import Connection, GameRecord, PhaseRecord, Store, Submission
from adjudicator.service.turnplay import GM_SEAT, TURN_KEY, optional_lines, tell, turn_now

_HOURS = re.compile(r"^(\d{1,3})\s*h$", re.IGNORECASE)
STATUS_ACTIONS = 3
"""How many of the last actions ``STATUS`` lists."""


def queue_orders(store: Store, db: Connection, game: GameRecord, power: str, lines: Sequence[str],
                 texts: Texts) -> list[str]:
    """Order lines sent before the seat's turn: they become its queue (one
    action per line, replacing the earlier queue)."""
    wanted = [" ".join(line.split()) for line in lines if line.strip()]
    if not wanted:
        return [texts("turn_queue_empty_mail")]
    seat = store.turn_seat(game.name, power)
    store.save_turn_seat(db, replace(seat, queue={**seat.queue, "orders": wanted, "rejected": []}))
    return [texts("turn_queued", count=len(wanted), game=game.name)]


def pass_round(store: Store, db: Connection, game: GameRecord, module: GameModule, power: str, now: datetime,
               texts: Texts) -> list[str]:
    """``PASS ROUND``: a standing pass for the rest of the current round;
    when it is the seat's turn now, its pass is stored as its answer."""
    if turn_now(module, game) is None:
        return [texts("turn_not_turn_game", game=game.name)]
    round_key = module.round_key(game.state)
    seat = store.turn_seat(game.name, power)
    store.save_turn_seat(db, replace(seat, queue={**seat.queue, "pass_round": round_key}))
    answer = [texts("turn_pass_round", round=round_key)]
    turn = module.turn(game.state)
    line = module.pass_order(game.state, power)
    if turn is not None and power in turn.seats and line is not None:
        existing = store.submissions(game.name, game.phase).get(power)
        if existing is None or not existing.has_orders:
            store.save_submission(db, Submission(game.name, game.phase, power, (line,), True, False, False, None,
                                                 now.isoformat()))
            answer.append(texts("turn_pass_now", order=line))
    return answer


def cancel(store: Store, db: Connection, game: GameRecord, power: str, texts: Texts) -> list[str]:
    """``CANCEL``: the seat's queue and standing pass are dropped."""
    seat = store.turn_seat(game.name, power)
    if not seat.queue.get("orders") and not seat.queue.get("pass_round"):
        return [texts("turn_nothing_to_cancel")]
    store.save_turn_seat(db, replace(seat, queue={}))
    return [texts("turn_cancelled")]


def digest_choice_of(text: str) -> str | None:
    """``round``, ``none`` or ``hours:N`` for what a player wrote after
    ``SET DIGEST`` (English or German), None when it is none of these."""
    word = text.strip().lower()
    if word in ("round", "runde"):
        return "round"
    if word in ("none", "keine", "keins"):
        return "none"
    match = _HOURS.match(word)
    if match and int(match.group(1)) > 0:
        return f"hours:{int(match.group(1))}"
    return None


def set_digest(store: Store, db: Connection, game: GameRecord, power: str, text: str, texts: Texts) -> list[str]:
    """``SET DIGEST ROUND|NONE|<N>h`` for the seat (a simultaneous game
    such as 1848 holds reports as ``held_reports`` says)."""
    choice = digest_choice_of(text)
    if choice is None:
        return [texts("digest_bad", choice=text[:20])]
    seat = store.turn_seat(game.name, power)
    store.save_turn_seat(db, replace(seat, digest=choice))
    answer = [texts("digest_set", game=game.name, choice=describe_digest(choice, texts))]
    if game_module(game.variant).turn(game.state) is None and choice != "none":  # a simultaneous game
        answer.append(texts("digest_simultaneous", game=game.name))
    return answer


def describe_digest(choice: str, texts: Texts) -> str:
    """A digest rule in words."""
    if choice.startswith("hours:"):
        return texts("digest_hours", hours=choice.split(":", 1)[1])
    return texts("digest_none" if choice == "none" else "digest_round")


def status(store: Store, game: GameRecord, module: GameModule, power: str, texts: Texts) -> list[str]:
    """``STATUS``: the phase, who is to act, the public position, the
    seat's own secret lines and queue, the last few actions."""
    lines = [texts("status_title", game=game.name, phase=game.phase, status=texts(game.status),
                   deadline=texts.when(game.deadline) if game.deadline else "-")]
    turn = turn_now(module, game)
    acting = turn.seats if turn is not None else module.must_act(game.state) if game.status == "active" else ()
    if acting:
        lines.append(texts("status_acting", powers=", ".join(module.power_name(p, game.language) for p in acting)))
    lines.extend(optional_lines(module, "status_lines", game.state, game.language))
    standings = module.standings(game.state)
    lines.extend(texts("status_score", power=module.power_name(p, game.language), score=standings.get(p, 0))
                 for p in module.powers())
    if power and game.status == "active":
        lines.extend(module.private_lines(game.state, power, game.language))
        seat = store.turn_seat(game.name, power)
        if seat.queue.get("pass_round") == module.round_key(game.state):
            lines.append(texts("turn_standing_pass", round=seat.queue["pass_round"]))
        if seat.queue.get("orders"):
            lines.append(texts("turn_queue_now", orders="; ".join(seat.queue["orders"])))
    recent = [p for p in store.phases(game.name) if TURN_KEY in p.report][-STATUS_ACTIONS:]
    if recent:
        lines.append(texts("status_last"))
        for entry in recent:
            lines.extend(entry.report_text.rstrip("\n").splitlines())
    return lines


def undo(store: Store, db: Connection, config: Config, game: GameRecord, module: GameModule, power: str,
         now: datetime, texts: Texts) -> list[str]:
    """``UNDO``: withdraw the seat's answer to a phase still waiting for
    others, or take back its last action when that was the last thing
    that happened and it revealed nothing (``Resolution.undoable``): the
    game returns to the position before it (the action is archived), it
    is the seat's turn again and everyone told of it hears so."""
    from adjudicator.service.turns import deadline_after

    turn = turn_now(module, game)
    pending = store.submissions(game.name, game.phase).get(power)
    if turn is not None and pending is not None and pending.has_orders:  # a seat's answer, or orders between steps
        store.delete_submission(db, game.name, game.phase, power)
        return [texts("undo_withdrawn", phase=game.phase)]
    history = store.phases(game.name)
    own = [p for p in history if TURN_KEY in p.report and power in p.orders
           and power in p.report[TURN_KEY].get("seats", [power]) and power not in p.report[TURN_KEY].get("late", [])]
    if not own:
        return [texts("undo_refused_none", game=game.name)]
    last = own[-1]
    later = [p.phase for p in history if p.seq > last.seq]
    if later:
        return [texts("undo_refused_later", phase=last.phase, later=", ".join(later))]
    if not last.report[TURN_KEY].get("undoable"):
        return [texts("undo_refused_secret", phase=last.phase)]
    told = _told_of(store, game, last)
    target = store.roll_back_phases(db, game.name, last.phase, now.isoformat())
    assert target is not None
    store.forget_reminders(db, game.name, game.phase)
    store.forget_reminders(db, game.name, target.phase)
    for player in store.players(game.name):  # answers to the phase that followed no longer count
        store.delete_submission(db, game.name, game.phase, player.power)
    store.delete_submission(db, game.name, target.phase, power)
    back = replace(game, phase=target.phase, state=target.state, status="active", outcome="",
                   deadline=deadline_after(game, module, target.state, now))
    store.update_game(db, back)
    store.mark_reminder(db, game.name, target.phase, f"turn:{power}", now.isoformat())  # this answer tells it
    store.log(db, game.name, now.isoformat(), "undo", f"{power} {target.phase}")
    orders = "; ".join(last.orders.get(power, []))
    name = module.power_name(power, game.language)
    for other, address in told:
        if other != power:
            queue_notice(store, db, config, back, address,
                         texts("undo_notice_subject", game=game.name, power=name, phase=target.phase),
                         texts("undo_notice", power=name, phase=target.phase, orders=orders), now)
    rewind_seen(store, db, game.name, target.seq)
    return [texts("undo_done", phase=target.phase, orders=orders),
            *(f"  {line}" for line in module.actions_now(target.state, power, game.language))]


def _told_of(store: Store, game: GameRecord, entry: PhaseRecord) -> list[tuple[str, str]]:
    """The seats (and the GM) whose mails reported ``entry`` or a phase
    after it: (power, address)."""
    told = []
    for player in store.players(game.name):
        if player.status == "playing" and player.address and \
                store.turn_seat(game.name, player.power).seen_seq >= entry.seq:
            told.append((player.power, player.address))
        elif player.status == "playing" and player.address and \
                store.reminder_sent(game.name, game.phase, f"turn:{player.power}"):
            told.append((player.power, player.address))
    if game.gm and store.turn_seat(game.name, GM_SEAT).seen_seq >= entry.seq:
        told.append((GM_SEAT, game.gm))
    return told


def rewind_seen(store: Store, db: Connection, game: str, seq: int) -> None:
    """Every seat (and the GM) counts as told only of the phases before
    ``seq`` (they were archived)."""
    powers = [p.power for p in store.players(game)] + [GM_SEAT]
    for power in powers:
        seat = store.turn_seat(game, power)
        if seat.seen_seq >= seq:
            store.save_turn_seat(db, replace(seat, seen_seq=seq - 1))


def after_rollback(store: Store, db: Connection, config: Config, name: str, target: PhaseRecord,
                   reopened: Sequence[str], now: datetime) -> None:
    """A GM rolled a turn game back to ``target`` (the phases ``reopened``
    are open again): nobody has answered it yet, everyone counts as told of
    the phases before it only, and the seat whose turn it is gets its
    "your turn" mail."""
    for phase in reopened:
        store.forget_reminders(db, name, phase)
    for power in [p.power for p in store.players(name)]:
        for phase in {target.phase, *reopened}:
            store.delete_submission(db, name, phase, power)
    rewind_seen(store, db, name, target.seq)
    tell(store, db, config, name, now)
