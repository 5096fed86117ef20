"""``adjudicator demo``: a scripted game played through the real judge.

Every player signs on by mail and the game is played to its first builds
(30JK by default: 1618 to 1620; or standard 1901; or Liberté's first round; Kreml: a whole four-player game): a dislodgement with its
retreat, builds, a syntax error and READY mails that end phases early.  Every mail goes through the real
intake (a Maildir), the judge's handling, the APScheduler deadlines
(seconds long here) and the outbox (delivered into a Maildir of sent mail),
so afterwards the folder holds every mail the judge wrote.
"""

from __future__ import annotations

import asyncio
import mailbox
import random
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from pathlib import Path
from typing import Any, Callable

from adjudicator.config import Config
from adjudicator.games import game_module
from adjudicator.service.demo_scripts import (  # the scripts, re-exported
    KREML, LIBERTE, PFALZ, REVOLUTION, SCRIPTS, STANDARD, THIRTY_YEARS, BotScript, Script, TurnScript,
)
from adjudicator.service.runner import Judge, make_transport
from adjudicator.service.store import Store
from adjudicator.service.creation import create_game

__all__ = ["KREML", "LIBERTE", "PFALZ", "REVOLUTION", "SCRIPTS", "STANDARD", "THIRTY_YEARS", "BotScript", "Script",
           "TurnScript", "demo_config", "play", "play_bots", "play_turns"]


def _address(power: str) -> str:
    return "".join(ch for ch in power.lower().replace("ö", "oe").replace("ä", "ae").replace("ü", "ue")
                   if ch.isalnum()) + "@players.example"


def _mail(game: str, power: str, body: list[str], ready: bool = True) -> bytes:
    message = EmailMessage()
    message["From"] = f"{power} <{_address(power)}>"
    message["To"] = "judge@localhost"
    message["Subject"] = f"{game} {power}"
    message["Date"] = formatdate(localtime=False)
    message["Message-ID"] = make_msgid(domain="players.example")
    message.set_content("\n".join([f"SIGNON {power} {game} secret-{_address(power)[:4]}", *body,
                                   *(["READY"] if ready else [])]) + "\n")
    return bytes(message)


def _post(inbox: Path, raw: bytes) -> None:
    mailbox.Maildir(inbox, create=True).add(mailbox.MaildirMessage(raw))


async def _serve(config: Config, variant: str, game: str, options: dict[str, object], ready: bool, seconds: float,
                 step: Callable[[Store], bool]) -> None:
    """Create ``game`` (unless it exists), sign every power on by mail, run
    the judge and call ``step`` every 0.2 seconds until it returns True
    (or ``seconds`` have passed); then stop and send what is left."""
    store = Store(config.store_target, mail_key=config.mail_key)
    judge = Judge(config, store, make_transport(config))
    if store.game(game) is None:
        create_game(store, config, game, variant, options, judge.clock(), gm="gm@players.example", seed=1)
    stop = asyncio.Event()
    service = asyncio.create_task(judge.serve(stop))
    for power in game_module(variant).powers():
        _post(config.mailbox.path, _mail(game, power, [], ready))
    try:
        for _ in range(int(seconds / 0.2)):
            await asyncio.sleep(0.2)
            if step(store):
                break
    finally:
        stop.set()
        await service
        await judge.send()
        store.close()


def _bot_mails(script: BotScript, state: dict[str, Any], phase: str) -> list[tuple[str, list[str]]]:
    """The bots' mails for ``phase``: each player who acts mails one order
    the rules offer him, chosen from the script's seed and the phase."""
    module = game_module(script.variant)
    mails = []
    for power in module.must_act(state):
        orders = list(getattr(module, "legal_orders")(state, power))
        if orders:
            mails.append((power, [random.Random(f"{script.bots}:{phase}:{power}").choice(orders)]))
    return mails


async def play_bots(config: Config, script: BotScript, deadline_seconds: int = 4) -> list[str]:
    """Play ``script`` to the end of the game; returns the phases it went
    through, ``finished`` last once the game is over and its mails sent."""
    options: dict[str, object] = {f"deadline.{kind}": deadline_seconds
                                  for kind in ("movement", "retreat", "adjustment", "action", "play")}
    options.update(script.options)
    seen: list[str] = []

    def step(store: Store) -> bool:
        game = store.game(script.game)
        if game is None or game.status == "forming":
            return False
        if game.status == "finished":
            if store.unsent_mail():
                return False
            seen.append("finished")
            return True
        if game.phase not in seen:
            seen.append(game.phase)
            for power, body in _bot_mails(script, game.state, game.phase):
                _post(config.mailbox.path, _mail(script.game, power, body))
        return False

    await _serve(config, script.variant, script.game, options, True, 900, step)
    return seen


async def play(config: Config, script: Script | TurnScript | BotScript = THIRTY_YEARS,
               deadline_seconds: int = 4) -> list[str]:
    """Play ``script`` with ``config`` (Maildir in and out); returns the
    phases the game went through."""
    if isinstance(script, TurnScript):
        return await play_turns(config, script, deadline_seconds)
    if isinstance(script, BotScript):
        return await play_bots(config, script, deadline_seconds)
    options: dict[str, object] = {f"deadline.{kind}": deadline_seconds
                                  for kind in ("movement", "retreat", "adjustment", "action")}
    options.update(script.options)
    seen: list[str] = []

    def step(store: Store) -> bool:
        game = store.game(script.game)
        if game is None or game.status == "forming":
            return False
        if game.phase not in seen:
            seen.append(game.phase)
            for power, body in script.phases.get(game.phase, []):
                _post(config.mailbox.path, _mail(script.game, power, body, script.ready))
        return game.phase == script.last_phase and not store.unsent_mail()

    await _serve(config, script.variant, script.game, options, script.ready, max(120, 8 * len(script.phases)), step)
    return seen


def _policy(module: Any, state: dict[str, Any], seat: str, phase: str) -> list[str]:
    """The order a scripted player gives: a play (chosen by a generator
    seeded with the phase, so every run is the same), else a tie-break
    card, new cards with the display taken back, a take, a pass."""
    legal: list[str] = list(module.legal_orders(state, seat))
    chooser = random.Random(f"{phase}:{seat}")
    plays = [o for o in legal if o.startswith("PLAY") and " BATTLE" not in o]
    if plays:
        return [chooser.choice(plays)]
    for prefix in ("SPECIAL", "BID ", "REFILL BACK ALL", "REFILL", "TAKE", "PASS"):
        found = [o for o in legal if o.startswith(prefix) and o != "BID NONE"]
        if found:
            return [found[0]]
    return legal[:1]


async def play_turns(config: Config, script: TurnScript, deadline_seconds: int = 4) -> list[str]:
    """Play a turn-based ``script``: whenever the game waits, the seats that
    must act mail their orders; returns the phases the game waited in."""
    module = game_module(script.variant)
    options: dict[str, object] = {f"deadline.{kind}": deadline_seconds * 10 for kind in ("action", "bid")}
    options.update(script.options)
    seen: list[str] = []
    first = list(script.first_lines)

    def step(store: Store) -> bool:
        game = store.game(script.game)
        if game is None or game.status == "forming":
            return False
        over = script.finished(seen) or game.status != "active"
        if game.phase in seen or over:
            return over and not store.unsent_mail()
        seen.append(game.phase)
        if not script.finished(seen):
            for power in module.must_act(game.state):
                body = first + _policy(module, game.state, power, game.phase)
                first.clear()
                _post(config.mailbox.path, _mail(script.game, power, body, ready=False))
        return False

    await _serve(config, script.variant, script.game, options, False, 600, step)
    return seen


def demo_config(folder: Path) -> Config:
    """A configuration that keeps everything inside ``folder``."""
    base = Config()
    return base.replace(
        database=folder / "adjudicator.sqlite3",
        mailbox=base.mailbox.replace(path=folder / "mail" / "inbox"),
        smtp=base.smtp.replace(path=folder / "mail" / "sent"),
        poll_interval=0.3,
        language="en",
    )
