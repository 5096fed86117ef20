"""Issue 12 point 11 over the real mail stack: two judges on one SQLite
database with the serve lock bypassed, reading one IMAP mailbox (Dovecot)
and sending through one SMTP server, never answer a mail twice nor send a
mail twice (S34: every claim of the mailbox, a mail and an outbox mail is
a conditional update)."""

from __future__ import annotations

import subprocess
import sys
import time
from collections import Counter

from tests.judge_harness import RunningJudge, text_of
from tests.test_service_e2e import judge  # noqa: F401 (judge is a fixture)

MAILS = 20

_JUDGE_LOOP = """
import asyncio, os, sys, time
from pathlib import Path
from adjudicator.config import load_config
from adjudicator.service.runner import Judge, make_transport
from adjudicator.service.store import Store
config = load_config(Path(sys.argv[1]))
store = Store(config.store_target)
judge = Judge(config, store, make_transport(config))
from adjudicator.service import commands, runner
handle = runner.handle_mail
def slowly(*args, **kwargs):  # a judge under load: the other one gets its turns at the database
    result = handle(*args, **kwargs)
    time.sleep(0.05)
    return result
runner.handle_mail = slowly
commands.parse_mail("LIST\\nHELP")  # grammars loaded before the start, so neither judge lags behind
# The first heartbeat on SQLite takes over whatever any other instance holds
# (the one judge of an SQLite file): both judges make it before either
# claims a mail, then say so (a file named by the process) and wait.
judge.peers.heartbeat()
go = Path(sys.argv[3])
(go.parent / f"ready-{os.getpid()}").touch()
while not go.exists():  # both judges begin together
    time.sleep(0.01)
expected, rounds, ends = int(sys.argv[2]), 0, time.monotonic() + 240
while time.monotonic() < ends:
    judge.poll()
    asyncio.run(judge.send())
    rounds += 1
    stored = store.connection.execute("SELECT COUNT(*) FROM inbound").fetchone()[0]
    if rounds >= 4 and stored >= expected and not store.pending_inbound() and not store.unsent_mail():
        break
    time.sleep(0.05)
judge.peers.stopped()
print(rounds)
"""


def test_two_judges_over_imap_never_answer_or_send_twice(judge: RunningJudge) -> None:  # noqa: F811
    players = [judge.player(f"visitor{n}") for n in range(MAILS)]
    for player in players:
        player.send("LIST\nHELP\n")  # the SMTP front answers once Dovecot holds the mail
    go = judge.folder / "go"
    command = [sys.executable, "-c", _JUDGE_LOOP, str(judge.config), str(MAILS), str(go)]
    judges = [subprocess.Popen(command, cwd=judge.folder, env=judge._env(None), stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE) for _ in range(2)]
    waited_until = time.monotonic() + 120
    while len(list(judge.folder.glob("ready-*"))) < 2:  # both have made their first heartbeat and wait
        assert time.monotonic() < waited_until, "a judge never started"
        assert all(running.poll() is None for running in judges), "a judge ended before the start"
        time.sleep(0.05)
    go.touch()
    for running in judges:
        out, errors = running.communicate(timeout=300)
        assert running.returncode == 0, errors.decode()
    answers = Counter()
    for player in players:
        mails = player.mails("acknowledgement")
        assert len(mails) == 1, (player.address, [str(m["Message-ID"]) for m in mails])
        assert str(mails[0]["In-Reply-To"]) == player.sent[0]
        assert "LIST" in text_of(mails[0])
        answers[str(mails[0]["Message-ID"])] += 1
    assert len(answers) == MAILS
    store = judge.store()
    try:
        db = store.connection
        assert db.execute("SELECT state, COUNT(*) FROM inbound GROUP BY state").fetchall() == [("done", MAILS)]
        assert db.execute("SELECT COUNT(*), COUNT(sent_at) FROM outbox").fetchone() == (MAILS, MAILS)
        handled = db.execute("SELECT claimed_by, COUNT(*) FROM inbound GROUP BY claimed_by").fetchall()
        assert len(handled) == 2, handled  # both judges did handle mail: the claims were really contested
    finally:
        store.close()
