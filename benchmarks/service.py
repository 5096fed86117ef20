"""How fast the judge handles mail and resolves a phase, in process.

Prints: mails answered per second (sign-ons and 30JK order mails, each
stored, parsed, checked, answered and queued in one SQLite transaction),
the time to resolve one 30JK movement phase with eleven reports rendered
and queued, the size of those report mails with their map (goal of issue
20: at most 120 KB each) and the size of the database afterwards.  No
assertions.

    python benchmarks/service.py [--mails 300]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

try:
    import adjudicator  # noqa: F401
except ImportError:  # run from a checkout without installing
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from adjudicator.config import Config
from adjudicator.games import game_module
from adjudicator.service.runner import Judge
from adjudicator.service.store import Store
from adjudicator.service.turns import create_game

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc)


class NoMailbox:
    """A transport with nothing waiting: mails are stored directly."""

    def waiting(self):  # type: ignore[no-untyped-def]
        return iter(())

    def taken(self, incoming: object) -> None:
        pass


def mail(number: int, sender: str, body: str) -> bytes:
    return (f"From: {sender}\nTo: judge@pbem.test\nMessage-ID: <b{number}@bench>\nSubject: orders\n"
            f"MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\n"
            f"{body}\n").encode()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mails", type=int, default=300, help="order mails to handle (default 300)")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="adjudicator-bench-"))
    config = Config(database=folder / "judge.sqlite3", address="judge@pbem.test", language="en")
    store = Store(config.database)
    moment = [NOW]
    judge = Judge(config, store, NoMailbox(), clock=lambda: moment[0])
    create_game(store, config, "bench", "30jk", {}, NOW, seed=1)
    powers = game_module("30jk").powers()
    for number, power in enumerate(powers):
        store.save_inbound(mail(number, f"p{number}@pbem.test", f"SIGNON {power} bench password{number}"), f"b:{number}",
                           NOW.isoformat())
    started = time.perf_counter()
    judge.handle_pending()
    signons = time.perf_counter() - started
    orders = {"Sachsen": "A Lei - EbMa\nA Mei - Lei\nF Tor - Wit - Anh", "Bayern": "A FAns - RsNu\nA Aug H\nA BFre H"}
    senders = {p: (i, f"p{i}@pbem.test") for i, p in enumerate(powers)}
    for number in range(args.mails):
        power = ("Sachsen", "Bayern")[number % 2]
        index, sender = senders[power]
        body = f"SIGNON {power} bench password{index}\n{orders[power]}\nREADY"
        store.save_inbound(mail(1000 + number, sender, body), f"o:{number}", NOW.isoformat())
    started = time.perf_counter()
    judge.handle_pending()
    handled = time.perf_counter() - started
    game = store.game("bench")
    assert game is not None
    queued = {m.id for m in store.unsent_mail()}
    if game.deadline:  # the phase is resolved at its deadline
        moment[0] = datetime.fromisoformat(game.deadline) + timedelta(minutes=1)
    started = time.perf_counter()
    if not judge.process("bench", game.phase, "deadline"):
        raise SystemExit(f"the benchmark game did not resolve (status {game.status}, phase {game.phase})")
    resolved = time.perf_counter() - started
    reports = [m.message for m in store.unsent_mail() if m.id not in queued]
    pictured = [r for r in reports if b"image/png" in r]
    size = sum(p.stat().st_size for p in folder.iterdir())
    print(f"sign-on mails:  {len(powers)} in {signons * 1000:.0f} ms ({signons / len(powers) * 1000:.1f} ms each, "
          f"scrypt included)")
    print(f"order mails:    {args.mails} in {handled:.2f} s ({args.mails / handled:.0f} mails/s, "
          f"{handled / args.mails * 1000:.1f} ms each)")
    print(f"one 30JK phase: resolved, stored, {len(powers) + 0} reports rendered and queued in {resolved * 1000:.0f} ms")
    if reports:
        largest = max(len(r) for r in reports)
        print(f"report mails:   {len(reports)} ({len(pictured)} with the map), {min(len(r) for r in reports) / 1000:.1f}"
              f"-{largest / 1000:.1f} KB, mean {sum(map(len, reports)) / len(reports) / 1000:.1f} KB "
              f"(goal: at most 120 KB with the map: {'met' if largest <= 120_000 else 'not met'})")
    print(f"database:       {size / 1024:.0f} KiB after {len(powers) + args.mails} mails and one phase ({folder})")


if __name__ == "__main__":
    main()
