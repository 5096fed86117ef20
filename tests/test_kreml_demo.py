"""``adjudicator demo --variant kreml4``: the scripted Kreml game played
through the real judge (Maildir in and out, deadlines, outbox) to its end:
four players' notes, reveals, cures, a deportation, an election, a
rehabilitation, three parades."""

from __future__ import annotations

import mailbox
import subprocess
import sys
from email import message_from_bytes, policy
from pathlib import Path

from adjudicator.service.demo import KREML
from tests.test_operator_cli import ROOT


def test_the_kreml_demo_plays_to_the_third_parade(tmp_path: Path) -> None:
    config = tmp_path / "judge.toml"
    config.write_text('[judge]\naddress = "judge@pbem.test"\nlanguage = "en"\n', encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "adjudicator", "--config", str(config), "demo", "--variant", "kreml4",
                           "--dir", str(tmp_path / "demo"), "--deadline", "60"],
                          capture_output=True, cwd=ROOT, timeout=900)  # 27 steps; slow on a busy machine
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    text = done.stdout.decode()
    assert "playing a scripted kreml4 game" in text
    assert text.split("phases played: ")[1].split("\n")[0].endswith("1954-end")
    sent = [message_from_bytes(bytes(m), policy=policy.default)
            for m in mailbox.Maildir(tmp_path / "demo" / "mail" / "sent")]
    bodies = [str(m.get_body(preferencelist=("plain",)).get_content()) for m in sent]
    kinds = {line.removeprefix(":: Kind: ") for body in bodies for line in body.splitlines()
             if line.startswith(":: Kind: ")}
    assert {"start", "acknowledgement", "turn", "digest", "report"} <= kinds
    told = [b for b in bodies if ":: Kind: turn" in b or ":: Kind: digest" in b or ":: Kind: report" in b]
    assert all("Stand-in values, not the original cards" in b for b in told)
    final = [b for b in bodies if ":: Kind: report" in b]
    assert final and all("The secret notes: Player A:" in b for b in final)
    assert any("deports the candidate" in b for b in told) and any("October parade" in b for b in told)
    assert any("Vote on" in b for b in told) and any("reveals" in b for b in told)
    assert any("rehabilitates" in b for b in told) and any("is the new party chief" in b for b in told)
    assert any("takes the event card Black Sea spa (kurort)" in b for b in told)
    assert len(KREML.phases) == 27
