"""``adjudicator demo --variant liberte``: a scripted four-player game of
Liberté (stand-in data) through the real judge, its first round to the
start of round 2, every mail left as a file: start mails, acknowledgements
(with the refused lines), "your turn" mails and digests that tell the
election and its sealed tie-breaks."""

from __future__ import annotations

import mailbox
import subprocess
import sys
from email import message_from_bytes, policy
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_liberte_demo_plays_its_first_round(tmp_path: Path) -> None:
    config = tmp_path / "judge.toml"
    config.write_text('[judge]\naddress = "judge@pbem.test"\nlanguage = "en"\n', encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "adjudicator", "--config", str(config), "demo", "--variant",
                           "liberte", "--dir", str(tmp_path / "demo"), "--deadline", "3"],
                          capture_output=True, cwd=ROOT, timeout=600)
    assert done.returncode == 0, done.stderr.decode()
    text = done.stdout.decode()
    assert "playing a scripted liberte game" in text and "R1-001, R1-002" in text and ", R2-" in text
    sent = [message_from_bytes(bytes(m), policy=policy.default)
            for m in mailbox.Maildir(tmp_path / "demo" / "mail" / "sent")]
    bodies = [str(m.get_body(preferencelist=("plain",)).get_content()) for m in sent]  # type: ignore[union-attr]
    kinds = {line.removeprefix(":: Kind: ") for b in bodies for line in b.splitlines() if line.startswith(":: Kind:")}
    assert {"start", "acknowledgement", "turn", "digest"} <= kinds
    turns = [b for b in bodies if ":: Kind: turn" in b]
    assert all("INVENTED stand-in data" in b for b in turns)
    told = "\n".join(b for b in bodies if ":: Kind: turn" in b or ":: Kind: digest" in b)
    assert "Election of round 1" in told and "Round 2 begins" in told and "Revealed (round 1)" in told
    assert any("the order is incomplete" in b for b in bodies) and any("no card A99" in b for b in bodies)
