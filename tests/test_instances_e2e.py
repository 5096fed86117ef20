"""Three judge instances on one PostgreSQL, over a real Dovecot and SMTP
(docs/deploy.md): players sign on and send orders (first sets and
replacements) to games spread over the instances, a deadline storm
resolves every game at the same moment, and every mail is answered exactly
once, every phase resolved once, every report sent once; then the same
again while one instance is SIGKILLed every few seconds and restarted.

Scaled for CI: ``GAMES`` standard games (7 players each) with
``ORDER_MAILS`` order mails per player and phase; the default 6 games and 2
mails make 42 sign-ons and 2 x 84 order mails (210 player mails, 84
reports).  ``ADJUDICATOR_E2E_GAMES=50 ADJUDICATOR_E2E_ORDER_MAILS=1``
gives the issue's size (350 sign-ons + 2 x 350 order mails = 1,050 mails
across 50 games).
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import threading
import time
from collections import Counter
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from email.message import EmailMessage
from pathlib import Path

import pytest

from adjudicator.records import replace
from tests.judge_harness import Player, RunningJudge, text_of, wait_until
from tests.mailserver import MailServer
from tests.postgres import PostgresServer

GAMES = int(os.environ.get("ADJUDICATOR_E2E_GAMES", "6"))
ORDER_MAILS = int(os.environ.get("ADJUDICATOR_E2E_ORDER_MAILS", "2"))
INSTANCES = 3
POWERS = ("Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey")
# Every set but the last is replaced: the phase must use the last one sent.
OPENING = {
    "Austria": "A Vie - Gal\nA Bud - Ser\nF Tri - Alb", "England": "F Lon - Nth\nF Edi - Nwg\nA Lvp - Yor",
    "France": "A Par - Bur\nA Mar - Spa\nF Bre - Mao", "Germany": "A Mun - Ruh\nF Kie - Den\nA Ber - Kie",
    "Italy": "A Ven - Tyr\nF Nap - Ion\nA Rom - Apu", "Russia": "A War - Gal\nF Sev - Bla\nA Mos - Ukr",
    "Turkey": "F Ank - Bla\nA Con - Bul\nA Smy - Arm",
}
HOLDS = {
    "Austria": ("A VIE H", "A BUD H", "F TRI H"), "England": ("F LON H", "F EDI H", "A LVP H"),
    "France": ("A PAR H", "A MAR H", "F BRE H"), "Germany": ("A MUN H", "F KIE H", "A BER H"),
    "Italy": ("A VEN H", "F NAP H", "A ROM H"), "Russia": ("A WAR H", "F SEV H", "A MOS H", "F STP/SC H"),
    "Turkey": ("F ANK H", "A CON H", "A SMY H"),
}


class Cluster:
    """``INSTANCES`` processes of ``adjudicator serve`` on one configuration."""

    def __init__(self, judge: RunningJudge) -> None:
        self.judge = judge
        self.processes: list[subprocess.Popen[bytes] | None] = [None] * INSTANCES
        self.kills = 0

    def start(self, index: int) -> None:
        self.processes[index] = self.judge.spawn(self.judge.folder / f"judge-{index}.log")

    def start_all(self) -> None:
        for index in range(INSTANCES):
            self.start(index)

    def kill(self, index: int) -> None:
        process = self.processes[index]
        if process is not None and process.poll() is None:
            process.send_signal(signal.SIGKILL)
            process.wait(timeout=30)
            self.kills += 1

    def stop_all(self) -> None:
        for process in self.processes:
            if process is not None and process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in self.processes:
            if process is not None:
                try:
                    process.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()

    def all_running(self) -> bool:
        return all(p is not None and p.poll() is None for p in self.processes)

    def logs(self) -> str:
        return "\n".join((self.judge.folder / f"judge-{i}.log").read_text(errors="replace")[-3000:]
                         for i in range(INSTANCES) if (self.judge.folder / f"judge-{i}.log").exists())


@pytest.fixture
def cluster(mail_server: MailServer, postgres_server: PostgresServer, tmp_path: Path) -> Iterator[Cluster]:
    judge = RunningJudge(mail_server, tmp_path, poll=0.3, database_url=postgres_server.new_database("e2e"),
                         lease="20s")
    done = judge.cli("db", "migrate")
    assert done.returncode == 0, done.stderr
    made = Cluster(judge)
    try:
        yield made
    finally:
        made.stop_all()


def kinds(player: Player) -> dict[str, list[EmailMessage]]:
    """The judge's mails in a player's inbox by ``:: Kind:``."""
    found: dict[str, list[EmailMessage]] = {}
    for message in player.inbox():
        for line in text_of(message).splitlines():
            if line.startswith(":: Kind: "):
                found.setdefault(line.removeprefix(":: Kind: ").strip(), []).append(message)
                break
    return found


def answered_once(player: Player) -> tuple[list[str], int]:
    """Problems with the player's acknowledgements (each mail sent answered
    by exactly one distinct answer), and how many answers came twice with
    the same Message-ID (SMTP's at-least-once window after a SIGKILL)."""
    acks = kinds(player).get("acknowledgement", [])
    by_id = Counter(str(m["Message-ID"]) for m in acks)
    replies = Counter(str(m["In-Reply-To"]) for m in {str(m["Message-ID"]): m for m in acks}.values())
    problems = [f"{player.address}: {mail} answered {replies[mail]} times" for mail in player.sent
                if replies[mail] != 1]
    problems += [f"{player.address}: answer to an unknown mail {mail}" for mail in replies if mail not in player.sent]
    return problems, sum(count - 1 for count in by_id.values())


def reports_once(player: Player, phases: list[str]) -> tuple[list[str], int]:
    """Problems with the player's reports (one distinct report per resolved
    phase), and how many came twice with the same Message-ID."""
    reports = kinds(player).get("report", [])
    by_id = Counter(str(m["Message-ID"]) for m in reports)
    distinct = {str(m["Message-ID"]): m for m in reports}.values()
    per_phase = Counter(line.removeprefix(":: Phase: ").strip() for m in distinct for line in text_of(m).splitlines()
                        if line.startswith(":: Phase: "))
    problems = [f"{player.address}: {per_phase[p]} reports of {p}" for p in phases if per_phase[p] != 1]
    problems += [f"{player.address}: a report of {p}, never resolved" for p in per_phase if p not in phases]
    return problems, sum(count - 1 for count in by_id.values())


def storm(cluster: Cluster, games: list[str], seconds: float) -> None:
    """Every game's deadline at the same moment, ``seconds`` from now."""
    when = (datetime.now(timezone.utc) + timedelta(seconds=seconds)).isoformat()
    store = cluster.judge.store()
    try:
        with store.transaction() as db:
            for name in games:
                game = store.game(name)
                assert game is not None and game.status == "active"
                store.update_game(db, replace(game, deadline=when))
    finally:
        store.close()


def phases_of(cluster: Cluster, games: list[str]) -> dict[str, list[str]]:
    store = cluster.judge.store()
    try:
        return {name: [p.phase for p in store.phases(name)] for name in games}
    finally:
        store.close()


def send_orders(players: dict[str, list[Player]], phase_tag: str) -> None:
    """Every player sends ``ORDER_MAILS`` order mails: the opening moves
    (replaced), then holds for every unit (the set that must count)."""
    for round_number in range(ORDER_MAILS):
        last = round_number == ORDER_MAILS - 1
        for game, seats in players.items():
            for player in seats:
                lines = "\n".join(HOLDS[player.power]) if last else OPENING[player.power]
                player.send(f"SIGNON {player.power} {game} {player.password}\n{lines}\n",
                            subject=f"{game} {phase_tag} {round_number}")


def wait_answered(cluster: Cluster, everyone: list[Player], timeout: float) -> None:
    for player in everyone:
        try:
            player.wait_for("acknowledgement", len(player.sent), timeout=timeout)
        except AssertionError:
            raise AssertionError(f"{player.address} not answered; the instances said:\n{cluster.logs()}") from None


def check_orders_used(cluster: Cluster, games: list[str], phase: str) -> None:
    store = cluster.judge.store()
    try:
        for name in games:
            used = next(p for p in store.phases(name) if p.phase == phase).orders
            expected = {power: list(HOLDS[power]) for power in POWERS}
            if phase != "S1901M":  # after the holds every unit is where it started
                expected = {power: sorted(orders) for power, orders in expected.items()}
                used = {power: sorted(orders) for power, orders in used.items()}
            assert used == expected, f"{name} {phase}: {used}"
    finally:
        store.close()


def outbox_empty(cluster: Cluster) -> bool:
    store = cluster.judge.store()
    try:
        return not store.unsent_mail()
    finally:
        store.close()


def settle_and_check(cluster: Cluster, players: dict[str, list[Player]], games: list[str]) -> int:
    """Every mail answered once and every phase reported once to everyone;
    returns the answers and reports that came twice with one Message-ID."""
    wait_until(lambda: outbox_empty(cluster), 900, "the outbox to drain")
    time.sleep(2.0)  # give the instances time to (wrongly) send anything twice
    resolved = phases_of(cluster, games)
    for name, phases in resolved.items():
        assert len(phases) == len(set(phases)), f"{name} resolved a phase twice: {phases}"
    problems: list[str] = []
    repeated = 0
    for game, seats in players.items():
        for player in seats:
            found, twice = answered_once(player)
            problems += found
            repeated += twice
            found, twice = reports_once(player, resolved[game])
            problems += found
            repeated += twice
    assert not problems, "\n".join(problems[:20])
    return repeated


def test_three_instances_answer_every_mail_once_and_resolve_a_storm_once_even_when_killed(cluster: Cluster) -> None:
    games = [f"g{n}" for n in range(GAMES)]
    for name in games:
        done = cluster.judge.cli("game", "create", name, "--variant", "standard", "--option", "language=en",
                                 "--option", "deadline.movement=24h")
        assert done.returncode == 0, done.stderr
    players = {name: [cluster.judge.player(f"{name}-{p.lower()}", p, f"pw-{name}-{p.lower()}") for p in POWERS]
               for name in games}
    everyone = [player for seats in players.values() for player in seats]
    cluster.start_all()

    # Sign-ons, then first sets and replacements, spread over three instances.
    for game, seats in players.items():
        for player in seats:
            player.send(f"SIGNON {player.power} {game} {player.password}\n")
    for player in everyone:
        player.wait_for("start", 1, timeout=300)
    send_orders(players, "S1901M")
    wait_answered(cluster, everyone, timeout=300)

    # A deadline storm: every game at the same moment.
    storm(cluster, games, 3)
    wait_until(lambda: all(p == ["S1901M"] for p in phases_of(cluster, games).values()), 300, "the storm")
    check_orders_used(cluster, games, "S1901M")
    repeated = settle_and_check(cluster, players, games)
    assert repeated == 0, f"{repeated} mails sent twice without any crash"
    store = cluster.judge.store()
    seen = {instance for instance, *_ in store.instances()}
    handlers = {row[0] for row in store.connection.execute(
        "SELECT DISTINCT claimed_by FROM inbound WHERE claimed_by IS NOT NULL").fetchall()}
    store.close()
    assert len(seen) == INSTANCES and len(handlers) >= 2, f"the work was not shared: {handlers}"

    # The same again while one instance after another is SIGKILLed and restarted.
    stop = threading.Event()

    def killer() -> None:
        chance = random.Random(19)
        while not stop.wait(3.0):
            index = chance.randrange(INSTANCES)
            cluster.kill(index)
            cluster.start(index)

    thread = threading.Thread(target=killer, daemon=True)
    thread.start()
    try:
        send_orders(players, "F1901M")
        wait_answered(cluster, everyone, timeout=600)
        # on a fast run the mails may all be answered before the second
        # kill: the storm then starts only once two instances were killed
        wait_until(lambda: cluster.kills >= 2, 120, "two instances killed")
        storm(cluster, games, 2)
        wait_until(lambda: all(p == ["S1901M", "F1901M"] for p in phases_of(cluster, games).values()), 600,
                   "the storm under SIGKILL")
    finally:
        stop.set()
        thread.join(timeout=60)
    assert cluster.kills >= 2 and cluster.all_running()
    check_orders_used(cluster, games, "F1901M")
    repeated = settle_and_check(cluster, players, games)
    print(f"{cluster.kills} instances killed; {repeated} mails delivered twice with the same Message-ID")
