"""Order mails through the whole judge: mailbox in, acknowledgement out.

    python benchmarks/mail_throughput.py [--mails 1000] [--games 50] [--no-imap]

N order mails from signed-on players (each mail: a SIGNON line and the
power's opening orders, as players write them) wait in the judge's mailbox
before ``adjudicator serve`` starts: once in a private Dovecot reached over
IMAP (needs root and Dovecot, as the tests do; ``--no-imap`` skips it),
once in a local Maildir.  The judge answers each over SMTP to a sink on
loopback.  Prints per transport: seconds from start-up to the last
acknowledgement, mails per second, the judge's CPU milliseconds per mail;
then an in-process profile of handling the same mails from the store (where
a mail's CPU goes: password check, parsing, database, composing).  Goals
(issue 20): >= 150 mails/s per core in the handler, 1,000 mails IMAP->SMTP
in <= 12 s.  Figures only, no assertions.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

from judgebench import PASSWORD, ROOT, Serve, Sink, measured_judge, new_folder, powers_of, seat_games, wait_for, write_config

OPENING = {
    "Austria": "A Vie - Gal\nA Bud - Ser\nF Tri - Alb", "England": "F Lon - Nth\nF Edi - Nwg\nA Lvp - Yor",
    "France": "A Par - Bur\nA Mar S A Par - Bur\nF Bre - Mao", "Germany": "A Mun - Ruh\nF Kie - Den\nA Ber - Kie",
    "Italy": "A Ven - Tyr\nF Nap - Ion\nA Rom - Apu", "Russia": "A War - Gal\nF Sev - Bla\nA Mos - Ukr\nF Stp/sc - Bot",
    "Turkey": "F Ank - Bla\nA Con - Bul\nA Smy - Arm",
}


def order_mails(seats: dict[str, list[str]], count: int) -> list[tuple[str, bytes]]:
    """``count`` order mails (sender, raw bytes), round robin over every seat."""
    powers = powers_of("standard")
    senders = [(game, index, address) for game, addresses in seats.items() for index, address in enumerate(addresses)]
    mails = []
    for number in range(count):
        game, index, address = senders[number % len(senders)]
        power = powers[index]
        body = f"Hallo,\n\nSIGNON {power} {game} {PASSWORD}\n{OPENING[power]}\n\nGruss\n"
        raw = (f"From: {address}\r\nTo: judge@bench.test\r\nSubject: Befehle {game}\r\n"
               f"Message-ID: <m{number}@bench.test>\r\nDate: Tue, 01 Dec 2026 12:00:00 +0000\r\n"
               f"MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{body}").encode()
        mails.append((address, raw))
    return mails


def _marked(batch: list[tuple[str, bytes]], mark: str) -> list[tuple[str, bytes]]:
    """The same mails with Message-IDs of their own (marked ``mark``)."""
    return [(sender, raw.replace(b"Message-ID: <m", f"Message-ID: <{mark}".encode())) for sender, raw in batch]


def _line(label: str, mails: int, seconds: float, cpu: float, done: int, goal: bool, warm: bool) -> str:
    """One row of the table, with the goals the row is measured against."""
    note = "" if done >= mails else f" (only {done} answered)"
    if goal:
        limit = 12.0 * mails / 1000
        note += f"  goal <= {limit:.1f} s ({'met' if done >= mails and seconds <= limit else 'not met'})"
    if warm:
        per_core = mails / cpu if cpu > 0 else float("inf")
        note += f"  {per_core:.0f} mails per CPU second (goal >= 150: {'met' if per_core >= 150 else 'not met'})"
    return f"{label:8} {mails:>6} {seconds:>9.1f} {mails / seconds:>8.1f} {1000 * cpu / mails:>12.1f}{note}"


def run(label: str, mailbox: str, fill: object, mails: int, games: int, warm: bool = False) -> None:
    """Fill the mailbox, start the judge, wait for every acknowledgement.

    Cold (``warm`` false): the mails wait before the judge starts, each
    the first of its seat to this process (a full password check each).
    Warm: every seat first mails once and is answered (the judge has seen
    each seat: the players are signed on); then the judge is paused, the
    ``mails`` order mails are put into its mailbox, and the time and CPU
    are measured from its resumption to the last acknowledgement."""
    folder = new_folder(f"adj-mail-{label}-")
    sink = Sink().start()
    config = write_config(folder, sink.port, mailbox.format(folder=folder), poll=0.5)
    seats = seat_games(config, games, standard_share=1.0, own_hashes=True)
    seat_count = sum(len(addresses) for addresses in seats.values())
    batch = order_mails(seats, mails)
    first = seat_count if warm else 0
    if warm:
        fill(folder, _marked(order_mails(seats, seat_count), "w"))  # type: ignore[operator]
    else:
        fill(folder, batch)  # type: ignore[operator]
    judge = Serve(config)
    started = time.time()
    judge.start()
    try:
        if warm:
            wait_for(lambda: sink.count() >= first, 3600, step=0.1)
            judge.pause()
            fill(folder, batch)  # type: ignore[operator]
            cpu_before = judge.cpu_seconds()
            started = time.time()
            judge.resume()
        else:
            cpu_before = 0.0
        wait_for(lambda: sink.count() >= first + mails, 3600, step=0.1)
        seconds = time.time() - started
        cpu = judge.cpu_seconds() - cpu_before
        done = sink.count() - first
    finally:
        judge.stop()
        sink.stop()
    name = f"{label}-warm" if warm else label
    print(_line(name, mails, seconds, cpu, done, label == "imap", warm), flush=True)


def fill_maildir(folder: Path, batch: list[tuple[str, bytes]]) -> None:
    """Drop every mail into the Maildir's new/ folder."""
    new = folder / "inbox" / "new"
    for sub in ("new", "cur", "tmp"):
        (folder / "inbox" / sub).mkdir(parents=True, exist_ok=True)
    stamp = time.time_ns()  # a second batch into the same folder gets names of its own
    for number, (_, raw) in enumerate(batch):
        (new / f"{stamp}-{number}.bench").write_bytes(raw)


def profile(mails: int, games: int) -> None:
    """Where a mail's CPU goes, handled in process from the store."""
    from adjudicator.config import load_config
    from adjudicator.service.runner import Judge
    from adjudicator.service.store import Store

    folder = new_folder("adj-mail-profile-")
    config_path = write_config(folder, 25, f'kind = "maildir"\npath = "{folder / "inbox"}"')
    seats = seat_games(config_path, games, standard_share=1.0, own_hashes=True)
    config = load_config(config_path)
    store = Store(config.database)

    class Nothing:
        def waiting(self):  # type: ignore[no-untyped-def]
            return iter(())

        def taken(self, incoming: object) -> None:
            pass

    judge = Judge(config, store, Nothing(), clock=lambda: datetime.now(timezone.utc))  # type: ignore[arg-type]
    def handled(count: int, mark: str) -> float:
        """Store ``count`` order mails (Message-IDs marked ``mark``) and handle them; the CPU seconds."""
        for number, (_, raw) in enumerate(order_mails(seats, count)):
            store.save_inbound(raw.replace(b"Message-ID: <m", f"Message-ID: <{mark}".encode()), f"{mark}:{number}",
                               datetime.now(timezone.utc).isoformat())
        started = time.process_time()
        judge.handle_pending()
        return time.process_time() - started

    # every seat signs on once first (its password checked in full, then
    # remembered by the process, issue 20): the players are signed on
    seat_count = sum(len(addresses) for addresses in seats.values())
    cold = handled(seat_count, "w")
    print(f"\nin process: first mail of each of {seat_count} seats (a full password check each): "
          f"{1000 * cold / seat_count:.1f} ms CPU per mail")
    plain = handled(mails, "p")
    print(f"in process: {mails} mails of signed-on players: {mails / plain:.0f} mails/s on one core "
          f"({1000 * plain / mails:.1f} ms CPU per mail; goal >= 150 mails/s per core: "
          f"{'met' if mails / plain >= 150 else 'not met'})")
    for number, (_, raw) in enumerate(order_mails(seats, mails)):
        store.save_inbound(raw, f"bench:{number}", datetime.now(timezone.utc).isoformat())
    profiler = cProfile.Profile(time.process_time)
    started = time.process_time()
    profiler.enable()
    judge.handle_pending()
    profiler.disable()
    cpu = time.process_time() - started
    print(f"the same again under the profiler ({1000 * cpu / mails:.1f} ms CPU per mail with its overhead), "
          f"own time by area:")
    stats = pstats.Stats(profiler, stream=io.StringIO())
    areas = {"password check (scrypt)": ("auth.py", "scrypt"), "order parsing (Lark)": ("lark/",),
             "database (sqlite3)": ("{method 'execute'", "{method 'commit'", "store.py"),
             "composing mail": ("compose.py", "email/generator", "email/quoprimime", "email/contentmanager"),
             "reading headers (email)": ("email/",), "templates (Jinja2)": ("jinja2/", "render.py")}
    totals = dict.fromkeys(areas, 0.0)
    for (path, _, name), (_, _, own, _, _) in stats.stats.items():  # type: ignore[attr-defined]
        where = f"{path}:{name}" if path != "~" else name
        for area, marks in areas.items():
            if any(mark in where for mark in marks):
                totals[area] += own
                break
    totals["everything else"] = max(0.0, cpu - sum(totals.values()))
    for area, seconds in totals.items():
        print(f"  {area:26} {100 * seconds / cpu:5.1f} %")
    store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mails", type=int, default=1000, help="order mails (default 1000)")
    parser.add_argument("--games", type=int, default=50, help="standard games they are spread over (default 50)")
    parser.add_argument("--no-imap", action="store_true", help="skip the IMAP run (no Dovecot or not root)")
    args = parser.parse_args()
    print(measured_judge(), flush=True)
    print(f"{'mailbox':8} {'mails':>6} {'seconds':>9} {'mails/s':>8} {'CPU ms/mail':>12}")
    if not args.no_imap:
        sys.path.insert(0, str(ROOT / "tests"))
        from mailserver import MailServer

        with MailServer() as server:
            judge_box = server.add_user("judge@pbem.test", "judge-secret")

            def fill_imap(folder: Path, batch: list[tuple[str, bytes]]) -> None:
                for sender, raw in batch:
                    server.deliver(sender, [judge_box.address], raw)

            mailbox = (f'kind = "imap"\nhost = "{server.imap_host}"\nport = {server.imap_port}\ntls = "none"\n'
                       f'user = "{judge_box.address}"\npassword = "judge-secret"')
            run("imap", mailbox, fill_imap, args.mails, args.games)
            run("imap", mailbox, fill_imap, args.mails, args.games, warm=True)
    maildir = 'kind = "maildir"\npath = "{folder}/inbox"'
    run("maildir", maildir, fill_maildir, args.mails, args.games)
    run("maildir", maildir, fill_maildir, args.mails, args.games, warm=True)
    profile(min(args.mails, 300), args.games)


if __name__ == "__main__":
    main()
