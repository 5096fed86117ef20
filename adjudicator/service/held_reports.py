"""Digests of a simultaneous game (1848's sealed plays): a seat on
``SET DIGEST ROUND`` or ``<N>h`` (or a game created with the option
``digest``) gets a phase's report only when it is due, and then one mail
with every report it has not had yet.

Nothing that was revealed is ever lost: a held report is named in the
seat's ``turn_seats.queue["held"]`` and goes out with the seat's next
mail, which comes at the latest when the seat has to order again, when
the round is over (``GameModule.round_key`` changes; rule ``round``),
when the game ends, or (``hours:N``) with the first report after N hours
since the seat's last mail.  A seat without a choice gets
every report at once, as before; so does everybody in a game without the
option.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from html import escape
from typing import Sequence

from adjudicator.games.base import GameModule
from adjudicator.records import replace
from adjudicator.service.render import Texts
from adjudicator.service.store import Connection, GameRecord, Store, TurnSeat

HELD = "held"
"""The key of ``TurnSeat.queue`` naming the phases whose reports wait for the seat."""


def digest_of(store: Store, game: GameRecord, power: str) -> str:
    """A seat's digest rule in a simultaneous game: its own ``SET DIGEST``
    choice, else the game's option ``digest``, else ``none`` (every report
    at once)."""
    return _choice(store.turn_seat(game.name, power), game)


def _choice(seat: TurnSeat, game: GameRecord) -> str:
    return seat.digest or str(game.settings.get("digest", "") or "none")


def route(store: Store, db: Connection, before: GameRecord, after: GameRecord, module: GameModule, power: str,
          now: datetime) -> tuple[tuple[str, str], ...] | None:
    """What becomes of ``power``'s copy (``GM_SEAT`` for the GM) of the
    report of the phase ``before`` was in: None when it is held (kept for
    the seat's next mail), else the reports held earlier that go out with
    it (phase, text; oldest first; taken off the seat's list).  A report is
    never held when the game is over, when ``power`` has to order in the
    phase ``after`` is in, or when its rule is ``none``; on ``round`` it is
    held until the round is over; on ``hours:N`` until N hours have passed
    since the seat's last mail."""
    seat = store.turn_seat(after.name, power)
    choice = _choice(seat, after)
    names = [str(p) for p in seat.queue.get(HELD, [])]
    if choice == "none" and not names:
        return ()  # every report at once: nothing to read or write
    if _held(choice, seat.digest_at, before, after, module, power, now):
        store.save_turn_seat(db, replace(seat, queue={**seat.queue, HELD: [*names, before.phase]}))
        return None
    store.save_turn_seat(db, replace(seat, digest_at=now.isoformat(),
                                     queue={k: v for k, v in seat.queue.items() if k != HELD}))
    if not names:
        return ()
    texts = {p.phase: p.report_text for p in store.phases(after.name)}  # a rolled-back phase is left out
    return tuple((name, texts[name]) for name in names if name in texts)


def _held(choice: str, last: str | None, before: GameRecord, after: GameRecord, module: GameModule, power: str,
          now: datetime) -> bool:
    if after.status != "active" or power in module.must_act(after.state):
        return False
    if choice == "round":
        return module.round_key(before.state) == module.round_key(after.state)
    if choice.startswith("hours:"):
        return last is not None and now - datetime.fromisoformat(last) < timedelta(hours=float(choice[6:]))
    return False


def with_held(texts: Texts, text: str, html: str, held: Sequence[tuple[str, str]]) -> tuple[str, str]:
    """A report's text and HTML followed by the held reports (oldest first,
    each indented under its phase, without the ``::`` lines of the mail
    they were composed for); unchanged when none were held."""
    if not held:
        return text, html
    title = texts("held_reports_title")
    blocks = [title]
    items = []
    for phase, report in held:
        lines = [line for line in report.rstrip("\n").splitlines() if not line.startswith("::")]  # the mail's own head
        body = "\n".join(f"  {line}" if line else "" for line in lines).strip("\n")
        blocks.append(f"--- {phase} ---\n{body}")
        items.append(f"<h3>{escape(phase)}</h3><pre>{escape(report.rstrip())}</pre>")
    own_html = html.replace("</body>", f"<h2>{escape(title)}</h2>{''.join(items)}</body>", 1)
    return f"{text.rstrip()}\n\n" + "\n\n".join(blocks) + "\n", own_html
