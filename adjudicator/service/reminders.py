"""Mails the judge sends by the clock: reminders before a deadline to
powers without orders, and daily notices while a game is paused.  Each is
recorded, so a reminder goes out once per phase and offset even across
restarts."""

from __future__ import annotations

from datetime import datetime, timedelta

from adjudicator.config import Config, format_duration
from adjudicator.games import game_module
from adjudicator.records import replace
from adjudicator.service.notify import queue_notice
from adjudicator.service.store import Store
from adjudicator.service.turns import ACTIVE, acting_players, recipients, texts_for

PAUSE_NOTICE_EVERY = timedelta(days=1)


def send_reminders(store: Store, config: Config, now: datetime) -> int:
    """Queue every reminder that is due at ``now``; returns how many."""
    sent = 0
    for game in store.games_where(ACTIVE, deadline=True, settings_keys=("reminder",)):
        if game.status != ACTIVE or not game.deadline:
            continue
        if not game.settings.get("reminders") and not game.settings.get("reminder_by_kind"):
            continue  # no reminders asked for: the state is not read (a storm's polls, issue 20)
        module = game_module(game.variant)
        turn = module.turn(game.state)
        kind = turn.kind if turn is not None else module.phase_kind(game.state)
        offsets = [int(x) for x in game.settings.get("reminders", [])]
        offsets += [int(x) for k, x in dict(game.settings.get("reminder_by_kind", {})).items() if k == kind]
        if not offsets:
            continue
        deadline = datetime.fromisoformat(game.deadline)
        due = [o for o in offsets if deadline - timedelta(seconds=o) <= now < deadline
               and not store.reminder_sent(game.name, game.phase, format_duration(o))]
        if not due:
            continue
        submissions = store.submissions(game.name, game.phase)
        texts = texts_for(game)
        with store.transaction() as db:
            missing = [p for p in acting_players(store, game, module)
                       if not (submissions.get(p.power) and submissions[p.power].has_orders)]
            for player in missing:
                assert player.address is not None
                default = module.pass_order(game.state, player.power)  # a turn game's or a sealed play's pass
                key = "reminder_mail" if not default else "turn_reminder_mail" if turn is not None \
                    else "reminder_mail_default"
                body = texts(key, game=game.name, phase=game.phase, deadline=texts.when(deadline), order=default)
                queue_notice(store, db, config, game, player.address,
                             texts("reminder_subject", game=game.name, phase=game.phase), body, now)
                sent += 1
            for offset in due:
                store.mark_reminder(db, game.name, game.phase, format_duration(offset), now.isoformat())
    return sent


def send_pause_notices(store: Store, config: Config, now: datetime) -> int:
    """Remind everyone of a game paused for a day or more, once a day."""
    sent = 0
    for game in store.games_where("paused"):
        if game.status != "paused":
            continue
        last = datetime.fromisoformat(str(game.settings.get("pause_notice_at", now.isoformat())))
        if now - last < PAUSE_NOTICE_EVERY:
            continue
        texts = texts_for(game)
        since = texts.when(str(game.settings.get("paused_at", now.isoformat())))
        with store.transaction() as db:
            for address in recipients(store, game):
                queue_notice(store, db, config, game, address, texts("pause_reminder_subject", game=game.name),
                      texts("pause_reminder_mail", game=game.name, since=since, phase=game.phase), now)
                sent += 1
            store.update_game(db, replace(game, settings={**game.settings, "pause_notice_at": now.isoformat()}))
    return sent
