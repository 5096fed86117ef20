"""The missed-play policy of a game (``GM MISSED PASS|EXTEND``): what
happens at a deadline when a seat that has to act sent nothing.

``pass`` (the default) resolves the phase at once with the rules'
default for the silent seat (a card game: the seat passes).  ``extend``
gives every phase one automatic extension instead: the deadline moves on
by the policy's extension (default: the phase kind's deadline length) and
each silent seat is mailed a reminder saying what happens if it stays
silent; at the extended deadline the phase resolves with the default.
The extension is granted once per phase and recorded in the game's log.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from adjudicator.games import game_module
from adjudicator.records import replace

if TYPE_CHECKING:  # a game's creation checks the policy's name without the mail composer (issue 20)
    from adjudicator.config import Config
    from adjudicator.service.backend import Connection
    from adjudicator.service.store import GameRecord, Store

POLICIES = ("pass", "extend")


def policy_of(game: GameRecord) -> str:
    """The game's missed-play policy: ``pass`` or ``extend``."""
    value = str(game.settings.get("missed", "pass"))
    return value if value in POLICIES else "pass"


def extend_for_missing(store: Store, db: Connection, config: Config, game: GameRecord, now: datetime) -> bool:
    """At the deadline of a game with the ``extend`` policy: when a seat
    that has to act sent nothing and this phase was not extended yet,
    move the deadline on once and mail each silent seat a reminder (inside
    the caller's transaction).  True when it extended."""
    from adjudicator.service.notify import queue_notice
    from adjudicator.service.turns import _took_part, acting_players, texts_for  # turns imports this module

    if policy_of(game) != "extend" or game.settings.get("missed_phase") == game.phase:
        return False
    module = game_module(game.variant)
    submissions = store.submissions(game.name, game.phase)
    silent = [p for p in acting_players(store, game, module) if not _took_part(submissions.get(p.power))]
    if not silent:
        return False
    turn = module.turn(game.state)
    kind = turn.kind if turn is not None else module.phase_kind(game.state)
    seconds = int(game.settings.get("missed_extension") or game.deadlines.get(kind) or config.deadlines.get(kind, 86400))
    deadline = datetime.fromisoformat(game.deadline or now.isoformat()) + timedelta(seconds=seconds)
    store.update_game(db, replace(game, deadline=deadline.isoformat(),
                                  settings={**game.settings, "missed_phase": game.phase}))
    texts = texts_for(game)
    for player in silent:
        if not player.address:
            continue
        default = module.pass_order(game.state, player.power) or texts("missed_default_rules")
        queue_notice(store, db, config, game, player.address,
                     texts("missed_subject", game=game.name, phase=game.phase),
                     texts("missed_notice", game=game.name, phase=game.phase, deadline=texts.when(deadline),
                           default=default), now)
    store.log(db, game.name, now.isoformat(), "missed-extension",
              f"{game.phase} until {deadline.isoformat()} ({', '.join(p.power for p in silent)})")
    return True
