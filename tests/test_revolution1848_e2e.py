"""1848 over the real mail stack (the judge as a process, Dovecot, SMTP):
a sealed play is seen by nobody else until both have played; then both
players get the reveal, each with only their own hand."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from adjudicator.games.revolution1848 import Revolution1848
from tests.judge_harness import RunningJudge, text_of
from tests.mailserver import MailServer


@pytest.fixture
def judge(mail_server: MailServer, tmp_path: Path) -> Iterator[RunningJudge]:
    running = RunningJudge(mail_server, tmp_path)
    yield running
    running.stop()


def test_a_sealed_play_stays_sealed_over_real_mail(judge: RunningJudge) -> None:
    done = judge.cli("game", "create", "rev", "--variant", "1848", "--option", "data=standin",
                     "--option", "language=en")
    assert done.returncode == 0, done.stderr
    judge.start()
    a, b = judge.player("anna", "A", "pw-anna-1848"), judge.player("bert", "B", "pw-bert-1848")
    a.send("SIGNON A rev pw-anna-1848\n")
    b.send("SIGNON B rev pw-bert-1848\n")
    start_a, start_b = text_of(a.wait_for("start", 1)[0]), text_of(b.wait_for("start", 1)[0])
    store = judge.store()
    game = store.game("rev")
    store.close()
    assert game is not None
    module = Revolution1848()
    hand_a = [c["card"] for c in module.private_view(game.state, "A")["hand"]]
    hand_b = [c["card"] for c in module.private_view(game.state, "B")["hand"]]
    assert all(card in start_a for card in hand_a) and not any(card in start_a for card in hand_b)
    assert all(card in start_b for card in hand_b) and not any(card in start_b for card in hand_a)

    play_a = next(o for o in module.legal_orders(game.state, "A") if o.startswith("PLAY PE"))
    a.orders("rev", play_a)
    a.wait_for("acknowledgement", 2)
    b_mail = "".join(text_of(m) for m in b.inbox())
    assert play_a.split()[1] not in b_mail  # nothing of A's play reached B

    play_b = next(o for o in module.legal_orders(game.state, "B") if o.startswith("PLAY PE"))
    b.orders("rev", play_b)
    report_a, report_b = text_of(a.wait_for("report", 1)[0]), text_of(b.wait_for("report", 1)[0])
    for report in (report_a, report_b):
        assert f"Player A: {play_a}" in report and f"Player B: {play_b}" in report
    assert "Only for you (rev):" in report_a and "Only for you (rev):" in report_b
    assert report_a.split("Only for you (rev):")[1] != report_b.split("Only for you (rev):")[1]
