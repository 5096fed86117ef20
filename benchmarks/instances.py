"""Several judge instances on one database: mails per second with 1, 2
and 3 ``adjudicator serve`` processes on PostgreSQL and with one on SQLite,
in one run.

    python benchmarks/instances.py [--mails 600] [--games 30] [--max-instances 3]

For each set-up the same N order mails from signed-on players (a SIGNON
line and the power's opening orders each) wait in the judge's Maildir
before the instances start; they share the Maildir (one reads it at a time,
under the intake lease), claim the stored mails, and answer each over SMTP
to a sink on loopback.  PostgreSQL is a private server started here from
Debian's binaries (``apt-get install postgresql``; as root it runs as the
user ``postgres``), each set-up on a fresh database.  Prints per set-up the
seconds from start-up to the last acknowledgement and mails per second.
On a machine with fewer cores than instances the figures show the
coordination's cost rather than a gain.  Figures only, no assertions.
"""

from __future__ import annotations

import argparse
import os
import time

from judgebench import Serve, Sink, measured_judge, new_folder, seat_games, wait_for, write_config
from mail_throughput import fill_maildir, order_mails

from tests.postgres import PostgresServer, find_postgres


def run(label: str, instances: int, mails: int, games: int, database_url: str) -> None:
    """One set-up: fill the Maildir, start the instances, wait for every answer."""
    folder = new_folder(f"adj-inst-{label}-")
    sink = Sink().start()
    config = write_config(folder, sink.port, f'kind = "maildir"\npath = "{folder / "inbox"}"', poll=0.5,
                          database_url=database_url)
    seats = seat_games(config, games, standard_share=1.0)
    fill_maildir(folder, order_mails(seats, mails))
    judges = [Serve(config, log_name=f"serve-{n}.log") for n in range(instances)]
    started = time.time()
    for judge in judges:
        judge.start()
    try:
        done = wait_for(lambda: sink.count() >= mails, 3600, step=0.1)
        seconds = time.time() - started
        cpu = sum(judge.cpu_seconds() for judge in judges)
    finally:
        for judge in judges:
            judge.stop()
        sink.stop()
    note = "" if done else f" (only {sink.count()} answered)"
    print(f"{label:10} {instances:>9} {mails:>6} {seconds:>9.1f} {mails / seconds:>8.1f} {1000 * cpu / mails:>12.1f}"
          f"{note}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mails", type=int, default=600, help="order mails (default 600)")
    parser.add_argument("--games", type=int, default=30, help="standard games they are spread over (default 30)")
    parser.add_argument("--max-instances", type=int, default=3, help="PostgreSQL set-ups 1..N (default 3)")
    args = parser.parse_args()
    print(measured_judge(), flush=True)
    binaries = find_postgres()
    if binaries is None:
        raise SystemExit("PostgreSQL is not installed: apt-get install -y postgresql")
    print(f"{os.cpu_count()} cores; {args.mails} mails over {args.games} games")
    print(f"{'database':10} {'instances':>9} {'mails':>6} {'seconds':>9} {'mails/s':>8} {'CPU ms/mail':>12}")
    run("sqlite", 1, args.mails, args.games, "")
    with PostgresServer(binaries) as server:
        try:
            for count in range(1, args.max_instances + 1):
                run("postgresql", count, args.mails, args.games, server.new_database("bench"))
        finally:
            server.stop()
            server.cleanup()


if __name__ == "__main__":
    main()
