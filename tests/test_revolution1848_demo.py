"""``adjudicator demo --variant 1848``: a whole game of 1848 with the
stand-in card set played through the real judge (Maildir intake, the
deadlines, the outbox) by two bots mailing legal plays, to its end."""

from __future__ import annotations

import mailbox
from email import message_from_bytes, policy
from pathlib import Path

from tests.test_operator_cli import out, run


def test_the_1848_demo_plays_a_whole_game_by_mail(tmp_path: Path) -> None:
    text = out(run(tmp_path, "demo", "--variant", "1848", "--dir", str(tmp_path / "demo"), "--deadline", "60", timeout=900))  # ~70 steps; slow on a busy machine
    phases = text.split("phases played: ")[1].splitlines()[0].split(", ")
    assert phases[0] == "R01A01-1" and phases[-1] == "finished" and len(phases) > 40
    sent = [message_from_bytes(bytes(m), policy=policy.default) for m in mailbox.Maildir(tmp_path / "demo" / "mail" / "sent")]
    texts = [str(m.get_body(preferencelist=("plain",)).get_content()) for m in sent]  # type: ignore[union-attr]
    reports = [t for t in texts if ":: Kind: report" in t]
    assert reports and all("Stand-in values, not the original cards" in t for t in reports)
    assert any("Final scoring:" in t for t in reports)
    assert not any("Without orders (NMR)" in t for t in reports)  # every step was played by mail
