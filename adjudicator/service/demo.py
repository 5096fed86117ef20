"""``adjudicator demo``: a scripted game played through the real judge.

Seven players sign on to a standard game by mail and play 1901 to the
first builds: a dislodgement with its retreat, a build, a syntax error
and a READY that ends a phase early.  Every mail goes through the real
intake (a Maildir), the judge's handling, the APScheduler deadlines
(seconds long here) and the outbox (delivered into a Maildir of sent mail),
so afterwards the folder holds every mail the judge wrote.
"""

from __future__ import annotations

import asyncio
import mailbox
from dataclasses import replace
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from pathlib import Path

from adjudicator.config import Config
from adjudicator.service.runner import Judge, make_transport
from adjudicator.service.store import Store
from adjudicator.service.turns import create_game

GAME = "demo1901"
POWERS = ("Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey")

# phase -> mails (power, body lines) sent when the game reaches that phase
SCRIPT: dict[str, list[tuple[str, list[str]]]] = {
    "S1901M": [
        ("Russia", ["A War - Gal", "F Sev - Bla", "A Mos - Ukr"]),
        ("Germany", ["F Kie - Den", "A Ber - Kie", "A Mun - Ruh"]),
        ("Austria", ["A Vie H", "A Bud H", "F Tri - Alb"]),
        ("France", ["A Par - Bur", "A Mar - Spa", "F Bre - Mao"]),
        ("England", ["F Lon - Nth", "F Edi - Nwg", "A Lvp - Yrk", "A Yor - Lon"]),
    ],
    "F1901M": [
        ("Austria", ["A Vie - Gal", "A Bud S A Vie - Gal", "F Alb - Gre"]),
        ("Germany", ["F Den H", "A Kie - Hol", "A Ruh - Bel"]),
        ("Russia", ["A Gal H", "A Ukr - Rum", "F Bla - Ank"]),
        ("Italy", ["A Ven H", "A Rom - Apu", "F Nap - Ion"]),
    ],
    "F1901R": [("Russia", ["A Gal - War"])],
    "W1901A": [("Germany", ["Build F Kie", "Build A Ber"]), ("Austria", ["Build A Vie"])],
}


def _mail(power: str, body: list[str]) -> bytes:
    message = EmailMessage()
    message["From"] = f"{power} <{power.lower()}@players.example>"
    message["To"] = "judge@localhost"
    message["Subject"] = f"{GAME} {power}"
    message["Date"] = formatdate(localtime=False)
    message["Message-ID"] = make_msgid(domain="players.example")
    message.set_content("\n".join([f"SIGNON {power} {GAME} secret-{power.lower()}", *body, "READY"]) + "\n")
    return bytes(message)


def _post(inbox: Path, raw: bytes) -> None:
    mailbox.Maildir(inbox, create=True).add(mailbox.MaildirMessage(raw))


async def play(config: Config, deadline_seconds: int = 4) -> list[str]:
    """Play the script with ``config`` (Maildir in and out); returns the
    phases the game went through."""
    store = Store(config.database)
    judge = Judge(config, store, make_transport(config))
    options = {f"deadline.{kind}": deadline_seconds for kind in ("movement", "retreat", "adjustment")}
    if store.game(GAME) is None:
        create_game(store, config, GAME, "standard", options, judge.clock(), gm="gm@players.example", seed=1)
    stop = asyncio.Event()
    service = asyncio.create_task(judge.serve(stop))
    for power in POWERS:
        _post(config.mailbox.path, _mail(power, []))
    seen: list[str] = []
    try:
        for _ in range(int(120 / 0.2)):
            await asyncio.sleep(0.2)
            game = store.game(GAME)
            if game is None or game.status == "forming":
                continue
            if game.phase not in seen:
                seen.append(game.phase)
                for power, body in SCRIPT.get(game.phase, []):
                    _post(config.mailbox.path, _mail(power, body))
            if game.phase == "S1902M" and not store.unsent_mail():
                break
    finally:
        stop.set()
        await service
        await judge.send()
        store.close()
    return seen


def demo_config(folder: Path) -> Config:
    """A configuration that keeps everything inside ``folder``."""
    base = Config()
    return replace(
        base,
        database=folder / "adjudicator.sqlite3",
        mailbox=replace(base.mailbox, path=folder / "mail" / "inbox"),
        smtp=replace(base.smtp, path=folder / "mail" / "sent"),
        poll_interval=0.3,
        language="en",
    )
