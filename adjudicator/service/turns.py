"""A game's life in the judge: creation, start, resolving a phase, the end.

Every step runs in one database transaction together with the mails it
queues, so a crash leaves either all of it or none.  Resolving is guarded
by the phase's name: ``process_phase(game, "S1901M")`` does nothing when the
game is no longer in S1901M, so two triggers for one deadline (a restart,
an early "all ready", an operator) resolve the phase once.  Orders count
when they were stored before the phase was resolved; no clock reading ever
turns a stored order late.
"""

from __future__ import annotations

from html import escape
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any, Callable, Mapping, Sequence

from adjudicator.config import Config
from adjudicator.records import replace
from adjudicator.service.pictures import report_images
from adjudicator.games import game_module
from adjudicator.games.base import DescribesSeats, GameModule, Resolution
from adjudicator.games.randomness import REPORT_KEY, judge_key, shuffle
from adjudicator.mail.compose import Attachment
from adjudicator.service.notify import composed_mail, queue, queue_notice, queue_to_all
from adjudicator.service.logwording import detail_text
from adjudicator.service.notes import note_text
from adjudicator.service import held_reports
from adjudicator.service.turnplay import GM_SEAT
from adjudicator.service.gamedata import awaiting
from adjudicator.service.missed import extend_for_missing
from adjudicator.service.render import Texts, render
from adjudicator.service.verify import (
    OPENING, end_lines, event_text, events_attachment, start_lines,
)
from adjudicator.service.store import (
    AuditEntry, Connection, GameRecord, PhaseRecord, PlayerRecord, Store, Submission,
)
# A game's creation and the weekly deadlines live in ``creation`` (which
# ``game create`` imports without the rest of this module: issue 20); the
# names stay importable from here.
from adjudicator.service.creation import (
    ACTIVE as ACTIVE, FINISHED as FINISHED, FORMING as FORMING, WEEKDAY_NAMES as WEEKDAY_NAMES, GameError as GameError,
    create_game as create_game, next_weekly_time as next_weekly_time, phase_of as phase_of, weekday as weekday,
)

def texts_for(game: GameRecord) -> Texts:
    """The catalogue in the game's language and time zone."""
    return Texts(game.language, game.time_zone)


def deadline_after(game: GameRecord, module: GameModule, state: dict[str, Any], now: datetime) -> str:
    """The deadline of the phase ``state`` is in, counted from ``now``: the
    phase kind's duration (a turn phase's kind is its ``TurnPhase.kind``),
    or for a kind with a weekly window (``weekly.<kind>``; movement phases
    also the GM's ``SCHEDULE``) the first of its times at least 24 hours
    away."""
    turn = module.turn(state)
    kind = turn.kind if turn is not None else module.phase_kind(state)
    weekly = dict(game.settings.get("weekly_by_kind", {})).get(kind) or \
        (game.settings.get("weekly") or [] if kind == "movement" else [])
    if weekly:
        return next_weekly_time(now, list(weekly), game.time_zone).isoformat()
    seconds = game.deadlines.get(kind) or game.deadlines.get("movement") or 72 * 3600
    return (now + timedelta(seconds=seconds)).isoformat()


def start_game(store: Store, db: Connection, config: Config, game: GameRecord, now: datetime) -> GameRecord:
    """Start a forming game (all seats taken, or the GM says START): players
    waiting for a random power get the open powers in a seeded random
    order, powers still open go into civil disorder, the first deadline is
    set and every player is told (inside the caller's transaction)."""
    module = game_module(game.variant)
    lacking = awaiting(game.state)
    if lacking:
        raise GameError(f"the game still needs its data file(s) {', '.join(lacking)} (GM DATA, or GM OPTION data "
                        f"standin for the stand-in set)")
    open_seats = [p for p in store.players(game.name) if p.status == "open"]
    waiting = store.applicants(game.name)
    if waiting:  # the judge's own draw, verifiable like the game's
        draw = shuffle(judge_key(game.settings.get("seed", 0)), 0, [seat.power for seat in open_seats],
                       "random powers")
        open_seats = [next(s for s in open_seats if s.power == power) for power in draw.result]
        game = replace(game, settings={**game.settings,
                                       OPENING: [*game.settings.get(OPENING, []), {"key": "judge", "event": draw.to_json()}]})
        for seat, (address, password_hash) in zip(open_seats, waiting):
            store.update_player(db, replace(seat, address=address, password_hash=password_hash, status="playing",
                                            joined_at=now.isoformat()))
        store.clear_applicants(db, game.name)
    for seat in store.players(game.name):
        if seat.status == "open":
            store.update_player(db, replace(seat, status="disorder"))
        elif seat.status == "waiting":  # a sign-on the GM never approved: the seat was not taken
            store.update_player(db, replace(seat, status="disorder", address=None, password_hash=None))
    started = replace(game, status=ACTIVE, deadline=deadline_after(game, module, game.state, now))
    store.update_game(db, started)
    store.log(db, game.name, now.isoformat(), "started", f"phase {game.phase}")
    texts = texts_for(started)

    def name(power: str) -> str:
        return module.power_name(power, started.language)

    images = report_images(module, game.name, started.state, {}, language=started.language, texts=texts)
    for player in store.players(game.name):
        if player.address:
            begins = module.seat_notes(started.state, player.power) if isinstance(module, DescribesSeats) else ()
            text = render(
                "game_start.txt.j2", texts, name,
                judge=config.address, game=started, you=player.power, players=store.players(game.name),
                must_act=module.must_act(started.state),
                private=module.private_lines(started.state, player.power, started.language),
                random_lines=start_lines(started, texts),
                seat=[note_text(n, texts, name) for n in begins], map_image=images[0] if images else None,
            )
            queue(store, db, config, player.address, texts("start_subject", game=game.name), text, now,
                  attachments=images)
    if module.turn(started.state) is not None:
        return _start_turns(store, db, config, started, now)
    return started


def _start_turns(store: Store, db: Connection, config: Config, game: GameRecord, now: datetime) -> GameRecord:
    """After the start mails of a game whose first phase is a turn phase:
    every phase that needs nobody resolved and the first "your turn" mail
    sent (in the caller's transaction)."""
    from adjudicator.service.turnplay import can_go_on, resolve_turns, tell

    if can_go_on(store, game):
        resolve_turns(store, db, config, game.name, game.phase, now, "chain")
    else:
        tell(store, db, config, game.name, now)
    return store.game(game.name) or game


def acting_players(store: Store, game: GameRecord, module: GameModule) -> list[PlayerRecord]:
    """The seats that have to order in the current phase and are played."""
    return acting_among(store.players(game.name), game, module)


def acting_among(players: Sequence[PlayerRecord], game: GameRecord, module: GameModule) -> list[PlayerRecord]:
    """Those of ``players`` that have to order in ``game``'s current phase and are played."""
    acting = set(module.must_act(game.state))
    return [p for p in players if p.power in acting and p.status == "playing"]


def everyone_ready(store: Store, game: GameRecord) -> bool:
    """True when every played seat that has to act is ready (a card game:
    has played), so the phase may be resolved before its deadline."""
    if game.status != ACTIVE:
        return False
    module = game_module(game.variant)
    if module.turn(game.state) is not None:
        from adjudicator.service.turnplay import can_go_on

        return can_go_on(store, game)
    acting = acting_players(store, game, module)
    if not acting:
        return False
    submissions = store.submissions(game.name, game.phase)
    for player in acting:
        entry = submissions.get(player.power)
        if entry is None:
            return False
        if not (entry.ready or (module.submission_means_ready and entry.has_orders)):
            return False
    return True


def process_phase(store: Store, config: Config, name: str, phase: str, now: datetime, trigger: str,
                  between: Callable[[], None] | None = None, work: PhaseWork | None = None) -> bool:
    """Resolve phase ``phase`` of game ``name`` if the game is still in it
    (see ``resolve_phase``), in a transaction of its own; ``between`` is
    called between two chained turn resolutions.  The heavy part (the
    rules, the map, the report) is done before the transaction (``work``
    when given, else here), so the write transaction stays short."""
    work = work if work is not None else prepare_phase(store, config, name, phase, now)
    with store.transaction() as db:
        return resolve_phase(store, db, config, name, phase, now, trigger, between, work=work)


def deadline_passed(store: Store, config: Config, name: str, phase: str, now: datetime,
                    work: PhaseWork | None = None) -> bool:
    """The deadline of ``phase`` has come: extend it once when the game's
    missed-play policy is ``extend`` and a seat sent nothing
    (``missed.py``), grant the grace period when the game has one and a
    late power may still be excused (the late powers are told), otherwise
    resolve the phase.  Nothing happens when the game is no longer in
    ``phase``, its deadline is still ahead (it was moved after the trigger
    was set), or another process holds the game's lock (it is re-checked
    at the next round).  The heavy part of resolving is done before the
    transaction (``work``, made from what the game was at ``now``, else
    here) and used only if the game is still exactly as it was read.
    Returns whether it resolved."""
    if work is None:
        work = prepare_phase(store, config, name, phase, now, due=True)
    with store.transaction() as db:
        if not store.try_game_lock(db, name):
            return False  # another instance works on the game: it is tried again at the next round
        game = store.game(name)
        if game is None or game.status != ACTIVE or game.phase != phase:
            return False
        if game.deadline is None or datetime.fromisoformat(game.deadline) > now:
            return False  # the deadline moved (a GM, a grace period) since this trigger was set
        if extend_for_missing(store, db, config, game, now) or _grant_grace(store, db, config, game, now):
            return False
        return resolve_phase(store, db, config, name, phase, now, "deadline", work=work)


def _grant_grace(store: Store, db: Connection, config: Config, game: GameRecord, now: datetime) -> bool:
    grace = int(game.settings.get("grace", 0))
    if grace <= 0 or game.settings.get("grace_phase") == game.phase:
        return False
    module = game_module(game.variant)
    submissions = store.submissions(game.name, game.phase)
    excused = int(game.settings.get("excused", 0))
    late = [p for p in acting_players(store, game, module)
            if not _took_part(submissions.get(p.power)) and p.excused_used < excused]
    if not late:
        return False
    deadline = (datetime.fromisoformat(game.deadline or now.isoformat()) + timedelta(seconds=grace)).isoformat()
    store.update_game(db, replace(game, deadline=deadline, settings={**game.settings, "grace_phase": game.phase}))
    texts = texts_for(game)
    for player in late:
        store.update_player(db, replace(player, excused_used=player.excused_used + 1))
        if player.address:
            text = texts("grace_notice", game=game.name, phase=game.phase, deadline=texts.when(deadline),
                         left=excused - player.excused_used - 1)
            queue_notice(store, db, config, game, player.address,
                         texts("grace_subject", game=game.name, phase=game.phase), text, now)
    store.log(db, game.name, now.isoformat(), "grace", f"{game.phase} until {deadline}")
    return True


def _took_part(entry: Submission | None) -> bool:
    """A power took part in a phase when it sent orders or said READY
    (holding everything on purpose); otherwise it missed the turn."""
    return entry is not None and (entry.has_orders or entry.ready)


@dataclass(frozen=True)
class PhaseInputs:
    """Everything the resolution of a simultaneous phase reads from the
    store (read in a short read, or inside the write transaction to check
    that nothing changed since): the game, its seats, the phase's
    submissions, the game master's unreported changes, and the moment."""

    game: GameRecord
    players: tuple[PlayerRecord, ...]
    submissions: dict[str, Submission]
    audit: tuple[AuditEntry, ...]
    now: datetime


@dataclass(frozen=True)
class PhaseWork:
    """The heavy, store-free part of resolving a simultaneous phase
    (``compute_phase``), made from ``inputs``: usable by ``resolve_phase``
    only while the store still gives exactly these inputs."""

    inputs: PhaseInputs
    resolution: Resolution
    orders: dict[str, list[str]]
    late: list[str]
    counted: tuple[PlayerRecord, ...]
    disorder: list[str]
    following: GameRecord
    images: tuple[Attachment, ...]
    text: str
    html: str
    composed: tuple[str, bytes] | None
    """The report mail to the first recipient as ``queue_to_all`` composes
    it for a recipient without private lines or held reports (None: a
    finished game, whose mail carries the random events read at writing)."""


def read_inputs(store: Store, game: GameRecord, now: datetime) -> PhaseInputs:
    """What resolving ``game``'s current phase reads from the store."""
    return PhaseInputs(game, tuple(store.players(game.name)), store.submissions(game.name, game.phase),
                       tuple(store.audit(game.name, unreported_only=True)), now)


def prepare_phase(store: Store, config: Config, name: str, phase: str, now: datetime,
                  due: bool = False) -> PhaseWork | None:
    """``compute_phase`` on what the store holds now (no transaction, no
    lock: ``resolve_phase`` checks it again), or None when the game is not
    active in ``phase`` (with ``due``: or its deadline is not reached at
    ``now``) or its phase is a turn phase (resolved in the transaction, as
    it reads and writes the seats' queues as it goes)."""
    inputs = phase_inputs(store, name, phase, now, due)
    return None if inputs is None else compute_phase(config, inputs)


def phase_inputs(store: Store, name: str, phase: str, now: datetime, due: bool = False) -> PhaseInputs | None:
    """``read_inputs`` for game ``name`` when it is active in the
    simultaneous phase ``phase`` (and with ``due`` its deadline has come
    at ``now``); else None."""
    game = store.game(name)
    if game is None or game.status != ACTIVE or game.phase != phase or awaiting(game.state):
        return None
    if due and (game.deadline is None or datetime.fromisoformat(game.deadline) > now):
        return None
    if game_module(game.variant).turn(game.state) is not None:
        return None
    return read_inputs(store, game, now)


def compute_phase(config: Config, inputs: PhaseInputs) -> PhaseWork:
    """Resolve the phase ``inputs.game`` is in without touching the store:
    the rules' resolution, the missed turns counted, the game after the
    phase, the map, the report's text and HTML, and the report mail
    composed for its first recipient.  Pure but for the Message-ID's
    randomness, so it may run in another process (``service/pool.py``)."""
    game, now = inputs.game, inputs.now
    module = game_module(game.variant)
    playing = {p.power for p in inputs.players if p.status == "playing"}
    submissions = inputs.submissions
    orders = {p: list(s.orders) for p, s in submissions.items() if s.has_orders and p in playing}
    resolution = module.resolve(game.state, orders)
    acting = acting_among(inputs.players, game, module)
    late = [p.power for p in acting if not _took_part(submissions.get(p.power))]
    counted, disorder = missed_turns(game, acting, late)
    finished = resolution.next_phase is None
    outcome = outcome_of(game, module, resolution) if finished else ""
    following = replace(
        game,
        phase=module.phase(resolution.state),
        state=resolution.state,
        status=FINISHED if finished else ACTIVE,
        deadline=None if finished else deadline_after(game, module, resolution.state, now),
        outcome=outcome,
        settings={k: v for k, v in game.settings.items() if k != "grace_phase"},
    )

    def power_name(power: str) -> str:
        return module.power_name(power, game.language)

    changes = [f"{entry.command} ({detail_text(entry.detail, texts_for(game), power_name)})"
               for entry in inputs.audit]
    images = report_images(module, game.name, game.state, resolution.report, language=game.language,
                           texts=texts_for(game))
    text, html = render_report(config, following, module, resolution.report, late, game.phase, changes, disorder,
                               images)
    text = with_random_lines(texts_for(game), text, resolution.report, following, finished)
    seats = counted_players(inputs.players, counted)
    addresses = _recipients_of(following, seats)
    powers_of = {p.address: p.power for p in seats if p.status == "playing" and p.address}
    composed = None
    if addresses and not finished and not (addresses[0] in powers_of and module.private_lines(
            following.state, powers_of[addresses[0]], following.language)):  # a private copy is composed when written
        subject = texts_for(game)("report_subject", game=game.name, phase=game.phase)
        composed = (addresses[0], composed_mail(config, addresses[0], subject, text, now, html=html,
                                                attachments=images))
    return PhaseWork(inputs, resolution, orders, late, tuple(counted), disorder, following, images, text, html,
                     composed)


def counted_players(players: Sequence[PlayerRecord], counted: Sequence[PlayerRecord]) -> list[PlayerRecord]:
    """``players`` with the seats ``missed_turns`` changed replaced."""
    changed = {p.power: p for p in counted}
    return [changed.get(p.power, p) for p in players]


def resolve_phase(
    store: Store, db: Connection, config: Config, name: str, phase: str, now: datetime, trigger: str,
    between: Callable[[], None] | None = None, work: PhaseWork | None = None,
) -> bool:
    """Resolve phase ``phase`` of game ``name`` if the game is still in it,
    inside the caller's transaction: store the result, count missed turns
    (civil disorder after the game's limit), list the game master's changes
    since the last report, queue the reports, set the next deadline.
    ``work`` (``compute_phase``, done before the transaction, perhaps in
    another process) is used when the store still gives exactly the inputs
    it was made from, else the phase is computed again here: the outcome
    is the same either way.  Returns whether it resolved anything."""
    game = store.game(name)
    if game is None or game.status != ACTIVE or game.phase != phase:
        return False
    module = game_module(game.variant)
    if module.turn(game.state) is not None:
        from adjudicator.service.turnplay import resolve_turns

        return resolve_turns(store, db, config, name, phase, now, trigger, between)
    inputs = read_inputs(store, game, now)
    if work is None or work.inputs != inputs:
        work = compute_phase(config, inputs)
    resolution, following, finished = work.resolution, work.following, work.resolution.next_phase is None
    for player in work.counted:
        store.update_player(db, player)
    images, text, html = work.images, work.text, work.html
    if finished:
        images = (*images, events_attachment(store, following))
    if not store.add_phase(
        db, PhaseRecord(game.name, phase, game.state, work.orders, resolution.report, text, trigger, now.isoformat())
    ):
        return False
    store.update_game(db, following)
    store.mark_audit_reported(db, game.name)
    store.log(db, game.name, now.isoformat(), "resolved", f"{phase} ({trigger})")
    subject = texts_for(game)("report_subject", game=game.name, phase=phase)
    powers_of = {p.address: p.power for p in store.players(game.name) if p.status == "playing" and p.address}
    # recipients by their private lines and the reports held for them (digests): one mail composed each
    alike: dict[tuple[tuple[str, ...], tuple[tuple[str, str], ...]], list[str]] = {}
    for address in recipients(store, following):
        earlier = held_reports.route(store, db, game, following, module, powers_of.get(address, GM_SEAT), now)
        if earlier is None:
            continue  # held for the seat's next mail
        private = module.private_lines(following.state, powers_of[address], following.language) \
            if address in powers_of and not finished else ()
        alike.setdefault((tuple(private), earlier), []).append(address)
    for (private, earlier), addresses in alike.items():
        own_text, own_html = held_reports.with_held(texts_for(following), text, html, earlier)
        own_text, own_html = with_private_lines(texts_for(following), following.name, own_text, own_html, private)
        own_subject = texts_for(game)("digest_subject", game=game.name, first=earlier[0][0], last=phase) \
            if earlier else subject
        ready = work.composed[1] if work.composed is not None and not private and not earlier \
            and work.composed[0] == addresses[0] else None
        queue_to_all(store, db, config, addresses, own_subject, own_text, now, html=own_html, attachments=images,
                     composed=ready)
    if work.disorder and following.gm:
        texts = texts_for(game)
        queue_notice(store, db, config, following, following.gm, texts("disorder_subject", game=game.name),
              texts("disorder_gm", game=game.name, powers=", ".join(work.disorder), phase=phase), now)
    return True


def count_missed_turns(
    store: Store, db: Connection, game: GameRecord, acting: list[PlayerRecord], late: list[str]
) -> list[str]:
    """Count each acting power's missed turns in a row; the powers that
    reach the game's limit go into civil disorder (returned)."""
    counted, disorder = missed_turns(game, acting, late)
    for player in counted:
        store.update_player(db, player)
    return disorder


def missed_turns(game: GameRecord, acting: Sequence[PlayerRecord],
                 late: Sequence[str]) -> tuple[list[PlayerRecord], list[str]]:
    """Each acting seat with its missed turns in a row counted (and put
    into civil disorder at the game's limit), and the powers that reached
    the limit; no store involved."""
    limit = int(game.settings.get("disorder_after", 0))
    disorder = []
    counted = []
    for player in acting:
        missed = player.missed + 1 if player.power in late else 0
        status = player.status
        if limit and missed >= limit:
            status = "disorder"
            disorder.append(player.power)
        counted.append(replace(player, missed=missed, status=status))
    return counted, disorder


def with_private_lines(texts: Texts, game: str, text: str, html: str, private: Sequence[str]) -> tuple[str, str]:
    """A report's text and HTML with one player's private lines (a card
    game's hand) added at the end; unchanged when there are none."""
    if not private:
        return text, html
    title = texts("private_echo", game=game)
    block = "\n".join([title + ":", *(f"  {line}" for line in private)])
    items = "".join(f"<li>{escape(line)}</li>" for line in private)
    own_html = html.replace("</body>", f"<h2>{escape(title)}</h2><ul>{items}</ul></body>", 1)
    return f"{text.rstrip()}\n\n{block}\n", own_html


def recipients(store: Store, game: GameRecord) -> list[str]:
    """The addresses a game's reports go to: every played seat and the GM."""
    return _recipients_of(game, store.players(game.name))


def _recipients_of(game: GameRecord, players: Sequence[PlayerRecord]) -> list[str]:
    addresses = [p.address for p in players if p.status == "playing" and p.address]
    if game.gm and game.gm not in addresses:
        addresses.append(game.gm)
    return addresses


def render_report(
    config: Config, game: GameRecord, module: GameModule, report: dict[str, Any], late: list[str], phase: str,
    changes: list[str] | None = None, disorder: list[str] | None = None, images: Sequence[Attachment] = (),
) -> tuple[str, str]:
    """The text and HTML turn report of a resolved phase (``game`` is the
    game after the phase: its next phase, deadline and outcome); ``changes``
    are the game master's changes since the last report, ``disorder`` the
    powers that went into civil disorder; the first of ``images`` is the
    phase's map (shown by its content id, named in the text)."""
    texts = texts_for(game)
    context = dict(judge=config.address, game=game, report=report, late=late, phase=phase,
                   gm_changes=changes or [], disorder=disorder or [], map_image=images[0] if images else None)
    name = lambda p: module.power_name(p, game.language)  # noqa: E731
    return (
        render(f"{module.report_template}.txt.j2", texts, name, **context),
        render(f"{module.report_template}.html.j2", texts, name, **context),
    )


def outcome_of(game: GameRecord, module: GameModule, resolution: Resolution) -> str:
    texts = texts_for(game)
    if resolution.winner:
        return texts("outcome_solo", power=module.power_name(resolution.winner, game.language))
    if resolution.draw:
        return texts("outcome_draw_rules", reason=resolution.draw)
    return texts("outcome_over")


def end_by_agreement(
    store: Store, db: Connection, config: Config, game: GameRecord, outcome: str, now: datetime
) -> GameRecord:
    """Finish a game with ``outcome`` (the players' unanimous vote, or the
    game master's decision) and tell everyone, in the caller's transaction."""
    ended = replace(game, status=FINISHED, deadline=None, outcome=outcome)
    store.update_game(db, ended)
    store.log(db, game.name, now.isoformat(), "ended", outcome)
    texts = texts_for(game)
    text = render("game_end.txt.j2", texts, str, judge=config.address, game=ended)
    text = text.rstrip("\n") + "\n\n" + "\n".join(end_lines(ended, texts)) + "\n"
    attachment = events_attachment(store, ended)
    for address in recipients(store, ended):
        queue(store, db, config, address, texts("end_subject", game=game.name), text, now, attachments=[attachment])
    return ended


def with_random_lines(texts: Texts, text: str, report: dict[str, Any], game: GameRecord, finished: bool) -> str:
    """A report's text with its random events named (``W20: 14``) and, at
    the end of the game, the seed published."""
    lines = [texts("turn_random", event=event_text(e)) for e in report.get(REPORT_KEY, ())]
    if finished:
        lines.extend(end_lines(game, texts))
    return text if not lines else text.rstrip("\n") + "\n\n" + "\n".join(lines) + "\n"


def due_deadlines(store: Store, now: datetime) -> list[tuple[str, str, datetime]]:
    """(name, phase, deadline) of the active games whose deadline has passed
    at ``now``, by name; reads no game's state (issue 20: no scan of every
    game).  The store hands over only the deadlines that, as text, are not
    after a day past ``now`` in UTC: every deadline the judge writes is an
    ISO 8601 time (``isoformat``) with an offset of less than a day, so none
    that has passed is left out (the judge asks before every mail, and a
    scan of every active game grew with their number); each is then
    compared exactly."""
    bound = (now.astimezone(timezone.utc) + _TEXT_MARGIN).isoformat()
    due = ((name, phase, datetime.fromisoformat(deadline)) for name, phase, deadline in store.deadlines(bound))
    return [(name, phase, deadline) for name, phase, deadline in due if deadline <= now]


_TEXT_MARGIN = timedelta(days=1)
"""More than any UTC offset (Python's are less than a day): the text of a
deadline that has passed, in its own offset, is before the text of the
moment a day later in UTC (the times' digits come first, and '+', '-' sort
before the '.' of a fraction)."""


def due_games(store: Store, now: datetime) -> list[GameRecord]:
    """Active games whose deadline has passed at ``now``, by name; only
    those games are read in full."""
    due = (store.game(name) for name, _, _ in due_deadlines(store, now))
    return [g for g in due if g is not None and g.status == ACTIVE and g.deadline is not None
            and datetime.fromisoformat(g.deadline) <= now]
