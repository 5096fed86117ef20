"""The operator's commands: game create/list/show, outbox, receive, serve
(on the embedded Maildir defaults) and demo."""

from __future__ import annotations

import json
import mailbox
import subprocess
import sys
from email import message_from_bytes, policy
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(tmp_path: Path, *args: str, stdin: bytes | None = None,
        timeout: float = 120) -> subprocess.CompletedProcess[bytes]:
    config = tmp_path / "judge.toml"
    if not config.exists():
        config.write_text('[judge]\naddress = "judge@pbem.test"\nlanguage = "en"\n', encoding="utf-8")
    return subprocess.run([sys.executable, "-m", "adjudicator", "--config", str(config), *args], input=stdin,
                          capture_output=True, cwd=ROOT, timeout=timeout)


def out(done: subprocess.CompletedProcess[bytes]) -> str:
    assert done.returncode == 0, done.stderr.decode()
    return done.stdout.decode()


def test_games_are_created_listed_and_shown(tmp_path: Path) -> None:
    created = out(run(tmp_path, "game", "create", "spiel1", "--variant", "30jk", "--option", "confessions=random",
                      "--option", "deadline.movement=48h", "--gm", "gm@pbem.test"))
    assert created.startswith("created spiel1 (30jk), 11 powers open for sign-on: Bayern")
    assert "GM password for gm@pbem.test: " in created
    assert "spiel1\t30jk\tforming\t1618M\t-\t0/11 seats" in out(run(tmp_path, "game", "list"))
    shown = out(run(tmp_path, "game", "show", "spiel1"))
    assert "phase:    1618M" in shown and "gm:       gm@pbem.test" in shown and "movement 2d" in shown
    assert "  Schweden: open, -, nothing to order" in shown
    again = run(tmp_path, "game", "create", "spiel1", "--variant", "standard")
    assert again.returncode == 2 and b"exists already" in again.stderr
    unknown = run(tmp_path, "game", "create", "x", "--variant", "atlantis")
    assert unknown.returncode == 2 and b"atlantis" in unknown.stderr
    option = run(tmp_path, "game", "create", "y", "--variant", "30jk", "--option", "confessions=maybe")
    assert option.returncode == 2 and b"confessions" in option.stderr
    missing = run(tmp_path, "game", "show", "nope")
    assert missing.returncode == 1 and b"no game called 'nope'" in missing.stderr


def test_a_piped_mail_is_answered_by_the_next_serve_round(tmp_path: Path) -> None:
    out(run(tmp_path, "game", "create", "spiel1", "--variant", "standard"))
    mail = b"From: Spieler <spieler@pbem.test>\nMessage-ID: <p1@pbem.test>\nSubject: hallo\n\nSIGNON Austria spiel1 pw-austria\n"
    assert out(run(tmp_path, "receive", stdin=mail)).startswith("stored ")
    pending = json.loads(out(run(tmp_path, "outbox", "--json")))
    assert pending == []
    out(run(tmp_path, "serve", "--once"))
    sent = list(mailbox.Maildir(tmp_path / "var" / "mail" / "sent"))
    assert len(sent) == 1
    reply = message_from_bytes(bytes(sent[0]), policy=policy.default)
    assert reply["To"] == "spieler@pbem.test" and reply["In-Reply-To"] == "<p1@pbem.test>"
    assert "You now play Austria in spiel1" in reply.get_body(preferencelist=("plain",)).get_content()
    shown = out(run(tmp_path, "game", "show", "spiel1"))
    assert "Austria: playing, spieler@pbem.test" in shown
    assert out(run(tmp_path, "outbox")).startswith("outbox empty")
    out(run(tmp_path, "serve", "--once"))
    assert len(list(mailbox.Maildir(tmp_path / "var" / "mail" / "sent"))) == 1


def test_serve_on_the_example_configuration_uses_maildirs_under_var(tmp_path: Path) -> None:
    config = tmp_path / "judge.toml"
    config.write_text((ROOT / "config.example.toml").read_text(encoding="utf-8"), encoding="utf-8")
    done = run(tmp_path, "serve", "--once")
    assert done.returncode == 0, done.stderr.decode()
    assert (tmp_path / "var" / "adjudicator.sqlite3").exists() and (tmp_path / "var" / "mail" / "inbox" / "new").is_dir()


def test_the_demo_plays_to_the_first_builds_and_leaves_its_mails(tmp_path: Path) -> None:
    done = run(tmp_path, "demo", "--dir", str(tmp_path / "demo"), "--deadline", "10", timeout=600)
    text = out(done)
    assert "playing a scripted 30jk game" in text
    assert "phases played: 1618M, 1619M, 1619R, 1619A, 1620M" in text
    sent = [message_from_bytes(bytes(m), policy=policy.default) for m in mailbox.Maildir(tmp_path / "demo" / "mail" / "sent")]
    reports = [m for m in sent if "results of" in str(m["Subject"])]
    assert len(reports) == 4 * 12  # four reports to eleven players and the GM
    retreat = [m.get_body(preferencelist=("plain",)).get_content() for m in reports if "1619R" in str(m["Subject"])]
    assert "A EbTr - FZwe" in retreat[0] and "Rhine Bishoprics" in retreat[0]
    assert str(tmp_path / "demo" / "mail" / "sent") in text


def test_the_standard_demo_dislodges_in_galicia(tmp_path: Path) -> None:
    text = out(run(tmp_path, "demo", "--variant", "standard", "--dir", str(tmp_path / "demo"), "--deadline", "10", timeout=600))
    assert "phases played: S1901M, F1901M, F1901R, W1901A, S1902M" in text


def test_the_1847_demo_plays_the_rule_summarys_example(tmp_path: Path) -> None:
    text = out(run(tmp_path, "demo", "--variant", "1847ae-4", "--dir", str(tmp_path / "demo"), "--deadline", "30", timeout=600))
    assert "playing a scripted 1847ae-4 game" in text
    assert text.split("phases played: ")[1].split("\n")[0].endswith("OR2.1-0027, SR3-0033")
    sent = [message_from_bytes(bytes(m), policy=policy.default) for m in mailbox.Maildir(tmp_path / "demo" / "mail" / "sent")]
    bodies = [m.get_body(preferencelist=("plain",)).get_content() for m in sent if "OR2.1-0027" in str(m["Subject"])]
    # the Maildir lists its files in no particular order: one of the mails of that phase shows it
    assert any("L: price 86M, treasury 76M" in body for body in bodies)
    assert bodies and not any("stand-in" in body for body in bodies)          # the gathered data, no stand-in
    assert any(part.get_content_type() == "image/png" for m in sent for part in m.walk())
