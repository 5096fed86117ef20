"""Issue 12 point 2, S37: reading a mail has a hard time bound, whatever
the input's shape: the body is read in a worker process that is killed at
``limits.mail_seconds``, so even a step that never returns and ignores
every alarm (a stand-in for one long C call) cannot hold the judge; the
mail is answered "too complex" and the judge goes on with the next mail."""

from __future__ import annotations

import mailbox
import os
import subprocess
import sys
from email import policy
from email.parser import BytesParser
from pathlib import Path

import pytest

from adjudicator.config import Limits
from adjudicator.service.budget import MailTimeout
from adjudicator.service.reader import STALL_ENV, ReaderProcess, read_body
from adjudicator.service.store import Store
from tests.test_hardening import raw_mail

TOO_COMPLEX = "The mail is too complex to read (time limit exceeded)"


def stalling_mail(sender: str) -> bytes:
    return raw_mail(sender, "LIST", X_Test_Stall="yes")


def test_the_reading_worker_is_killed_at_the_limit_and_started_again(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(STALL_ENV, "reading")
    reader = ReaderProcess()
    try:
        reader.start()
        normal = raw_mail("eve@evil.test", "LIST\nHELP")
        assert reader.read(normal, Limits(), 60) == read_body(normal, Limits())
        with pytest.raises(MailTimeout):
            reader.read(stalling_mail("eve@evil.test"), Limits(), 2)
        assert reader.killed == 1
        assert reader.read(normal, Limits(), 60) == read_body(normal, Limits())  # a fresh worker
    finally:
        reader.close()


def test_a_mail_whose_reading_never_returns_is_answered_too_complex_and_the_next_one_is_handled(
        tmp_path: Path) -> None:
    config = tmp_path / "judge.toml"
    config.write_text('[judge]\naddress = "judge@pbem.test"\nlanguage = "en"\n[limits]\nmail_seconds = "3s"\n',
                      encoding="utf-8")
    (tmp_path / "var" / "mail").mkdir(parents=True)
    inbox = mailbox.Maildir(tmp_path / "var" / "mail" / "inbox", create=True)
    inbox.add(mailbox.MaildirMessage(stalling_mail("stuck@players.test")))
    inbox.add(mailbox.MaildirMessage(raw_mail("next@players.test", "LIST")))
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent), STALL_ENV: "reading"}
    done = subprocess.run([sys.executable, "-m", "adjudicator", "--config", str(config), "serve", "--once"],
                          cwd=tmp_path, env=env, capture_output=True, timeout=300)
    assert done.returncode == 0, done.stderr.decode()
    assert b"the reading worker is killed" in done.stderr
    sent = {}
    for path in (tmp_path / "var" / "mail" / "sent" / "new").iterdir():
        message = BytesParser(policy=policy.default).parsebytes(path.read_bytes())
        body = message.get_body(preferencelist=("plain",))
        assert body is not None
        sent[str(message["To"])] = str(body.get_content())  # type: ignore[attr-defined]
    assert TOO_COMPLEX in sent["stuck@players.test"]
    assert TOO_COMPLEX not in sent["next@players.test"] and ":: Kind: acknowledgement" in sent["next@players.test"]
    store = Store(tmp_path / "var" / "adjudicator.sqlite3")
    try:
        states = dict(store.connection.execute("SELECT sender, state FROM inbound").fetchall())
    finally:
        store.close()
    assert states == {"stuck@players.test": "done", "next@players.test": "done"}
