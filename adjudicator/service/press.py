"""Press: messages between powers through the judge.

A signed-on player writes ``PRESS [ANON] [TO] <power>, <power>`` (or
``ALL``), or ``BROADCAST [ANON]``, and the message text on the lines that
follow.  The game's press setting decides: ``white`` — the sender is always
named; ``grey`` — the sender may stay anonymous (``ANON``); ``none`` — no
press; with ``press_movement_only`` there is no press in retreat and
adjustment phases.  Each recipient gets its own mail from the judge, so no
address of the sender or of other recipients is ever shown; the game
master gets a copy naming the true sender; the message is kept in the
game's history.
"""

from __future__ import annotations

from datetime import datetime

from adjudicator.config import Config
from adjudicator.games import game_module
from adjudicator.service.notify import queue_notice
from adjudicator.service.render import Texts
from adjudicator.service.store import Connection, GameRecord, Store

_ANONYMOUS = ("anon", "anonym", "anonymous", "grey", "grau")
_TO = ("to", "an")
_ALL = ("all", "alle")


def read_request(words: str | None, broadcast_flag: str | None = None) -> tuple[str | None, bool, str]:
    """Split the words after PRESS into (recipient text or None for all,
    anonymous?, leftover); ``words`` is None for BROADCAST."""
    if words is None:
        return None, bool(broadcast_flag and broadcast_flag.lower() in _ANONYMOUS), ""
    parts = words.split()
    anonymous = bool(parts) and parts[0].lower() in _ANONYMOUS
    if anonymous:
        parts = parts[1:]
    if parts and parts[0].lower() in _TO:
        parts = parts[1:]
    text = " ".join(parts)
    if text.lower() in _ALL:
        return None, anonymous, ""
    return text, anonymous, text


def send_press(
    store: Store, db: Connection, config: Config, now: datetime, game: GameRecord, sender: str,
    recipients_text: str | None, anonymous: bool, body: list[str], texts: Texts,
    already: set[str] | None = None,
) -> list[str]:
    """Deliver one press message (see the module docstring); returns the
    lines of the sender's acknowledgement (a refusal says why and sends
    nothing).  ``already`` holds the powers this mail has sent press to:
    each gets at most one press message per mail (the powers reached are
    added).  An anonymous message names every recipient and the sender
    among them, and reads the same for each, so nobody can tell who sent
    it by who is missing from the list."""
    already = set() if already is None else already
    setting = str(game.settings.get("press", "white"))
    module = game_module(game.variant)
    if setting == "none":
        return [texts("press_off", game=game.name)]
    if game.settings.get("press_movement_only") and module.phase_kind(game.state) != "movement":
        return [texts("press_not_now", phase=game.phase)]
    if anonymous and setting != "grey":
        return [texts("press_white")]
    if not body:
        return [texts("press_no_text")]
    seats = [p for p in store.players(game.name) if p.status == "playing" and p.address and p.power != sender]
    if recipients_text is None:
        targets = [p.power for p in seats]
    else:
        targets = []
        for name in (part.strip() for part in recipients_text.split(",")):
            power = module.lookup_power(name) if name else None
            if power is None:
                return [texts("press_unknown", power=name)]
            if power != sender and power not in targets:
                targets.append(power)
    reachable = [p for p in seats if p.power in targets]
    if not reachable:
        return [texts("press_nobody")]
    if any(p.power in already for p in reachable):
        return [texts("press_once_per_mail")]
    already.update(p.power for p in reachable)
    listed = targets
    if anonymous:  # the sender is among the names, in the game's order
        order = [p.power for p in store.players(game.name)]
        listed = sorted({*targets, sender}, key=lambda p: order.index(p) if p in order else len(order))
    names = ", ".join(module.power_name(p, game.language) for p in listed)
    shown_sender = texts("press_anonymous") if anonymous else module.power_name(sender, game.language)
    text = "\n".join(body)
    subject = texts("press_subject", game=game.name, sender=shown_sender)
    for seat in reachable:
        assert seat.address is not None
        queue_notice(store, db, config, game, seat.address, subject,
                     texts("press_mail", sender=shown_sender, recipients=names, text=text), now, kind="press")
    if game.gm:
        true_sender = module.power_name(sender, game.language)
        queue_notice(store, db, config, game, game.gm, texts("press_gm_subject", game=game.name, sender=true_sender),
              texts("press_gm_mail", game=game.name, sender=true_sender, anonymous=texts("yes" if anonymous else "no"),
                    recipients=names, text=text), now, kind="press")
    store.add_press(db, game.name, now.isoformat(), game.phase, sender, anonymous, tuple(targets), text)
    return [texts("press_sent", recipients=names, anonymous=texts("press_as_anonymous") if anonymous else ""),
            *(texts("press_text_line", text=line) for line in body)]
