"""Seconds per pathological mail: every mail that froze or amplified the
judge before issue 12, handled by the real judge (stored with the intake's
byte cap, read, answered, queued) in a game with seven signed-on players.

Prints one line per mail: seconds, the bytes of the mail, the bytes of the
answers it caused, and how many mails it caused.  Target: every one under
1 s.  No assertions.

    python benchmarks/pathological.py [--only NAME]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from datetime import datetime, timezone
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

try:
    import adjudicator  # noqa: F401
except ImportError:  # run from a checkout without installing
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from adjudicator.config import Config
from adjudicator.service.intake import Incoming, read_pipe
from adjudicator.service.runner import Judge
from adjudicator.service.store import Store
from adjudicator.service.turns import create_game

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc)
JUDGE = "judge@pbem.test"
POWERS = ("Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey")


class Box:
    """A mailbox as a list."""

    def __init__(self) -> None:
        self.mails: list[Incoming] = []

    def waiting(self) -> Iterator[Incoming]:
        yield from list(self.mails)

    def taken(self, incoming: Incoming) -> None:
        self.mails.remove(incoming)


def mail(sender: str, body: str, html: bool = False, **headers: str) -> bytes:
    message = EmailMessage()
    message["From"] = sender
    message["To"] = JUDGE
    message["Subject"] = "orders"
    message["Message-ID"] = make_msgid(domain="players.test")
    for name, value in headers.items():
        message[name.replace("_", "-")] = value
    message.set_content(body, subtype="html" if html else "plain")
    return bytes(message)


def signon(power: str) -> str:
    return f"SIGNON {power} spiel1 pw-{power.lower()}"


ENGLAND = "england@players.test"
PATHOLOGICAL: dict[str, Callable[[], bytes]] = {
    "order line of 24 KB of words": lambda: mail(ENGLAND, signon("England") + "\nA Lon " + " ".join(
        f"w{n}" for n in range(4000))),
    "order line of 100 KB of words": lambda: mail(ENGLAND, signon("England") + "\nA Lon " + " ".join(
        f"w{n}" for n in range(16000))),
    "HTML-only body of 160 KB of unclosed tags": lambda: mail(
        ENGLAND, f"<p>{signon('England')}</p>" + "<a " * 50_000, html=True),
    "HTML-only body of 160 KB of unclosed comments": lambda: mail(
        ENGLAND, f"<p>{signon('England')}</p>" + "<!--" * 40_000, html=True),
    "300 KB plain body of 'Am ... schrieb ...:' fragments": lambda: mail(
        ENGLAND, "".join(f"Am {n}. schrieb jemand etwas Am Mo schrieb wer:" for n in range(7000))),
    "830 KB Reply-To": lambda: mail(ENGLAND, signon("England") + "\nF Lon - Nth",
                                    Reply_To=", ".join(f"victim{n}@third.test" for n in range(40_000))),
    "500 HISTORY lines with a forged Reply-To": lambda: mail(
        "eve@evil.test", "\n".join(["HISTORY spiel1 S1901M"] * 500), Reply_To="victim@third.test"),
    "2,000 HELP lines": lambda: mail("eve@evil.test", "\n".join(["HELP"] * 2000)),
    "999 BROADCAST blocks": lambda: mail(ENGLAND, "\n".join([signon("England")] + ["BROADCAST", "Hallo"] * 999)),
    "1,999 ABSENT lines": lambda: mail(ENGLAND, "\n".join(
        [signon("England")] + [f"ABSENT 2027-01-{1 + n % 28:02d} 2027-02-01" for n in range(1999)])),
    "1.3 MB of 99,950 orders joined by ';'": lambda: mail(ENGLAND, signon("England") + "\n" + "; ".join(
        ["F Lon - Nth"] * 99_950)),
    "15,000 orders joined by ';' on 300 lines": lambda: mail(ENGLAND, signon("England") + "\n" + (
        "; ".join(["F Lon - Nth"] * 50) + "\n") * 300),
    "5 MB mail": lambda: mail("eve@evil.test", "garbage line\n" * 400_000),
    "one SIGNON line per guess, 1,000 guesses": lambda: mail("eve@evil.test", "\n".join(
        f"SIGNON England spiel1 guess-{n}" for n in range(1000))),
    "MIME nested 2,000 deep": lambda: nested(2000),
}


def nested(depth: int) -> bytes:
    body = signon("England").encode() + b"\r\n"
    for level in range(depth, 0, -1):
        body = (b'Content-Type: multipart/mixed; boundary="n%d"\r\n\r\n--n%d\r\n' % (level, level) + body
                + b"\r\n--n%d--\r\n" % level)
    head = (f"From: {ENGLAND}\r\nTo: {JUDGE}\r\nSubject: deep\r\nMessage-ID: {make_msgid(domain='x.test')}\r\n"
            "MIME-Version: 1.0\r\n").encode()
    return head + body


def prepared(folder: Path) -> tuple[Judge, Store, Box]:
    """A judge with spiel1 running (seven players signed on) and one phase
    resolved, so that HISTORY has a report with a map."""
    config = Config(database=folder / "judge.sqlite3", address=JUDGE, language="en")
    store = Store(config.database)
    box = Box()
    judge = Judge(config, store, box, clock=lambda: NOW)
    create_game(store, config, "spiel1", "standard", {}, NOW, seed=1, gm="gm@pbem.test")
    for power in POWERS:
        box.mails.append(read_pipe(mail(f"{power.lower()}@players.test", signon(power) + "\nREADY"), NOW))
    judge.poll()
    for power in POWERS:
        box.mails.append(read_pipe(mail(f"{power.lower()}@players.test", signon(power) + "\nREADY"), NOW))
    judge.poll()
    return judge, store, box


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", metavar="NAME", help="only the mails whose name contains NAME")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        judge, store, box = prepared(Path(folder))
        print(f"{'seconds':>8}  {'mail bytes':>10}  {'answers':>7}  {'answer bytes':>12}  mail")
        for name, build in PATHOLOGICAL.items():
            if args.only and args.only.lower() not in name.lower():
                continue
            raw = build()
            before = {m.id for m in store.unsent_mail()}
            box.mails.append(read_pipe(raw, NOW))
            started = time.perf_counter()
            judge.poll()
            seconds = time.perf_counter() - started
            caused = [m for m in store.unsent_mail() if m.id not in before]
            size = sum(len(m.message) for m in caused)
            print(f"{seconds:8.3f}  {len(raw):10d}  {len(caused):7d}  {size:12d}  {name}", flush=True)
            for queued in caused:
                store.mark_sent(queued.id, NOW.isoformat())
        store.close()


if __name__ == "__main__":
    main()
