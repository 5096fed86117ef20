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
from dataclasses import dataclass, field, replace
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from pathlib import Path
from typing import Any, Callable

from adjudicator.config import Config
from adjudicator.games import game_module
from adjudicator.service.runner import Judge, make_transport
from adjudicator.service.store import Store
from adjudicator.service.turns import create_game


@dataclass(frozen=True)
class Script:
    """A scripted game: its variant, the phase it ends at, and for each
    phase the mails (power, order lines) sent when the game reaches it."""

    variant: str
    game: str
    last_phase: str
    phases: dict[str, list[tuple[str, list[str]]]]
    options: dict[str, str] = field(default_factory=dict)
    ready: bool = True
    """Whether each mail ends with READY (not in a turn-based game, where
    a READY on a sign-on would pass the first player's turn)."""

    def finished(self, phases: list[str]) -> bool:
        """True when the game went as far as the script goes."""
        return bool(phases) and phases[-1] == self.last_phase


@dataclass(frozen=True)
class TurnScript:
    """A scripted turn-based game played by a fixed policy: its variant,
    options, and how far it is played (the first phase whose name starts
    with ``until``).  Whoever the module says must act mails the order the
    policy picks from the module's ``legal_orders`` (a play before a
    take before a pass; a tie-break card rather than none); ``first_lines``
    go into the first such mail before its order (to show how the judge
    answers wrong lines)."""

    variant: str
    game: str
    options: dict[str, str]
    until: str
    first_lines: tuple[str, ...] = ()

    def finished(self, phases: list[str]) -> bool:
        """True when the game went as far as the script goes."""
        return bool(phases) and phases[-1].startswith(self.until)


@dataclass(frozen=True)
class BotScript:
    """A game played to its end by bots: whenever players must act, each
    mails one order the rules offer him now, chosen at random from the
    seed ``bots`` and the phase (a card game, whose plays depend on the
    cards dealt)."""

    variant: str
    game: str
    options: dict[str, str]
    bots: int

    def finished(self, phases: list[str]) -> bool:
        """True when the game was played to its end."""
        return bool(phases) and phases[-1] == "finished"


# 30JK, 1618 to the first builds: a river double move, a transform, a
# religious-warfare disbandment, a supported attack on Trier with its
# retreat, builds and a removal by civil disorder.
THIRTY_YEARS = Script("30jk", "demo1618", "1620M", {
    "1618M": [
        ("Sachsen", ["F Tor - Wit - Anh", "A Lei - EbMa", "A Mei - Lei"]),
        ("Österreich", ["F Lin T A", "A Pra - Pil"]),
        ("Bayern", ["A FAns - RsNu", "A Muenchen - Tirol"]),
    ],
    "1619M": [
        ("Sachsen", ["A Lei - Erf"]),
        ("Bayern", ["A RsNu H"]),
        ("Frankreich", ["A Met - EbTr"]),
        ("Pfalz", ["A Mai S A Met - EbTr"]),
    ],
    "1619R": [("Rheinbistümer", ["A EbTr - FZwe"])],
    "1619A": [
        ("Bayern", ["Build A FAns"]),
        ("Sachsen", ["Build A Mei", "Baue F Tor"]),
        ("Frankreich", ["Build A Met"]),
    ],
})

# Standard Diplomacy, 1901: a dislodgement in Galicia and its retreat, builds.
STANDARD = Script("standard", "demo1901", "S1902M", {
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
})

# 1847 AE with four players (stand-in tile data): the rule summary's worked
# example, S1 and the L through the first two stock and operating rounds.
PFALZ = Script("1847ae-4", "demo1847", "SR3-0033", {
    "SR1-0001": [("S4", ["BUY SCR"])],
    "SR1-0002": [("S3", ["BUY VIW"])],
    "SR1-0003": [("S2", ["BUY MNR"])],
    "SR1-0004": [("S1", ["BUY PLP", "BUY W"])],
    "SR1-0006": [("S2", ["BUY K"])],
    "SR1-0007": [("S3", ["BUY LFKC"])],
    "SR1-0008": [("S4", ["BUY R"])],
    "SR1-0009": [("S1", ["PASS"])],
    "SR1-0010": [("S2", ["BUY SPR"])],
    "SR1-0011": [("S3", ["BUY H"])],
    "SR1-0012": [("S4", ["PASS"])],
    "SR1-0013": [("S1", ["PASS"])],
    "SR1-0014": [("S2", ["PASS"])],
    "SR1-0015": [("S3", ["PASS"])],
    "OR1.1-0016": [("S1", ["LAY 58 G17 ROT 1", "LAY 57 G19 ROT 2", "STATION G15", "BUY TRAIN 3", "PASS"])],
    "SR2-0021": [("S4", ["PASS"])],
    "SR2-0022": [("S1", ["BUY L IPO"])],
    "SR2-0023": [("S2", ["PASS"])],
    "SR2-0024": [("S3", ["PASS"])],
    "SR2-0025": [("S4", ["PASS"])],
    "SR2-0026": [("S1", ["PASS"])],
    "OR2.1-0027": [("S1", ["PASS", "PASS", "RUN 3: F18-G17-G15", "DIVIDEND", "BUY TRAIN 3", "PASS"])],
}, {"data": "standin"}, ready=False)

# Liberté for four players with the stand-in data, through round 1: the
# start player drawn by lot, action turns (two refused lines first), the
# actions' end, the election with its sealed tie-breaks, government,
# opposition and points, round 2's order by victory points.
LIBERTE = TurnScript("liberte", "demoliberte", {"data": "standin"}, "R2-", ("SPIELE", "PLAY A99 PARIS"))

# Kreml with four players and the stand-in data (seed 1): notes, reveals, cures, a deportation, votes,
# the parades, to the third parade; German order words.
KREML = Script("kreml4", "demokreml", "1954-end", {
    "1950-notes": [
        ("A", [
            'NOTIZ Sachar Samowarow 1', 'NOTIZ Juri Kaderow 2', 'NOTIZ Grigori Direktiwin 3',
            'NOTIZ Boris Buerokratow 4', 'NOTIZ Pjotr Plansoll 5', 'NOTIZ Michail Mandatow 6',
            'NOTIZ Ruslan Resolutow 7', 'NOTIZ Wladimir Wolgin 8', 'NOTIZ Sergei Sekretarin 9',
            'NOTIZ Viktor Wodkin 10',
        ]),
        ("B", [
            'NOTIZ Grigori Direktiwin 1', 'NOTIZ Anatoli Apparatow 2', 'NOTIZ Ustin Urkundin 3',
            'NOTIZ Leonid Lenkin 4', 'NOTIZ Boris Buerokratow 5', 'NOTIZ Viktor Wodkin 6',
            'NOTIZ Wassili Datschnik 7', 'NOTIZ Konstantin Kolchosny 8', 'NOTIZ Sachar Samowarow 9',
            'NOTIZ Arkadi Akteninow 10',
        ]),
        ("C", [
            'NOTIZ Jakow Jubilow 1', 'NOTIZ Boris Buerokratow 2', 'NOTIZ Sergei Sekretarin 3',
            'NOTIZ Juri Kaderow 4', 'NOTIZ Wassili Datschnik 5', 'NOTIZ Oleg Orthodow 6', 'NOTIZ Michail Mandatow 7',
            'NOTIZ Grigori Direktiwin 8', 'NOTIZ Ruslan Resolutow 9', 'NOTIZ Viktor Wodkin 10',
        ]),
        ("D", [
            'NOTIZ Wassili Datschnik 1', 'NOTIZ Fjodor Fuenfjahrow 2', 'NOTIZ Viktor Wodkin 3',
            'NOTIZ Ustin Urkundin 4', 'NOTIZ Grigori Direktiwin 5', 'NOTIZ Nikolai Normow 6',
            'NOTIZ Timofei Traktorow 7', 'NOTIZ Leonid Lenkin 8', 'NOTIZ Gennadi Genossow 9',
            'NOTIZ Ruslan Resolutow 10',
        ]),
    ],
    "1951-0-001": [
        ("A", ['WEITER', 'OFFENLEGEN Juri Kaderow 1']),
        ("B", ['WEITER']),
        ("C", ['WEITER']),
        ("D", ['WEITER']),
    ],
    "1952-0-002": [("A", ['WEITER']), ("B", ['WEITER']), ("C", ['WEITER']), ("D", ['WEITER'])],
    "1952-5-003": [("A", ['STIMME DAGEGEN', 'OFFENLEGEN Michail Mandatow 1'])],
    "1952-6-004": [("A", ['KEINE'])],
    "1952-6-005": [("A", ['BEFOERDERN Konstantin Kolchosny'])],
    "1953-0-006": [
        ("A", ['WEITER']),
        ("B", ['WEITER', 'OFFENLEGEN Anatoli Apparatow 1']),
        ("C", ['WEITER']),
        ("D", ['WEITER']),
    ],
    "1953-1-007": [("B", ['KUR'])],
    "1953-1-008": [("A", ['KUR', 'OFFENLEGEN Viktor Wodkin 10'])],
    "1953-1-009": [("A", ['BLEIBEN'])],
    "1954-0-010": [
        ("A", ['WEITER']),
        ("B", ['WEITER']),
        ("C", ['WEITER']),
        ("D", ['WEITER', 'OFFENLEGEN Gennadi Genossow 9']),
    ],
    "1954-1-011": [("A", ['KUR'])],
    "1954-3-012": [("A", ['KEINE'])],
    "1954-3-013": [("A", ['DEPORTIEREN Arkadi Akteninow'])],
    "1954-6-014": [("D", ['TAUSCHEN Nikolai Normow MIT Wladimir Wolgin'])],
    "1954-6-015": [("D", ['TAUSCHEN Timofei Traktorow MIT Wladimir Wolgin'])],
    "1954-6-016": [("D", ['TAUSCHEN Nikolai Normow MIT Ruslan Resolutow', 'OFFENLEGEN Timofei Traktorow 7'])],
    "1954-6-017": [("D", ['KEINE'])],
    "1954-6-018": [("B", ['BEFOERDERN Grigori Direktiwin'])],
    "1954-7-019": [("D", ['KEINE'])],
    "1954-7-020": [("B", ['KEINE'])],
    "1954-7-021": [("A", ['KEINE'])],
    "1954-7-022": [("A", ['REHABILITIEREN Arkadi Akteninow'])],
}, {"data": "standin"}, ready=False)

# 1848 – Die Revolution with the stand-in card set, played to its end by two bots.
REVOLUTION = BotScript("1848", "demo1848", {"data": "standin"}, 3)

SCRIPTS: dict[str, Script | TurnScript | BotScript] = {
    script.variant: script for script in (THIRTY_YEARS, STANDARD, PFALZ, LIBERTE, KREML, REVOLUTION)}


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
    store = Store(config.store_target)
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
    return replace(
        base,
        database=folder / "adjudicator.sqlite3",
        mailbox=replace(base.mailbox, path=folder / "mail" / "inbox"),
        smtp=replace(base.smtp, path=folder / "mail" / "sent"),
        poll_interval=0.3,
        language="en",
    )
