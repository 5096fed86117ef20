"""End to end: the judge as a separate process, players on a real Dovecot
(IMAP) and SMTP server, a standard game over five phases including a
retreat and an adjustment, phases ended both early (everyone READY) and by
the deadline."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.judge_harness import Player, RunningJudge, text_of, wait_until
from tests.mailserver import MailServer

POWERS = ("Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey")


def create(judge: RunningJudge, name: str, *options: str, gm: str | None = None) -> None:
    args = ["game", "create", name, "--variant", "standard", "--option", "language=en"]
    for option in options:
        args += ["--option", option]
    if gm:
        args += ["--gm", gm]
    done = judge.cli(*args)
    assert done.returncode == 0, done.stderr


def seat_everyone(judge: RunningJudge, game: str) -> dict[str, Player]:
    players = {p: judge.player(p.lower(), p, f"pw-{p.lower()}") for p in POWERS}
    for player in players.values():
        player.send(f"SIGNON {player.power} {game} {player.password}\n")
    for player in players.values():
        player.wait_for("start", 1)
    return players


def report(player: Player, number: int) -> str:
    return text_of(player.wait_for("report", number)[number - 1])


@pytest.fixture
def judge(mail_server: MailServer, tmp_path: Path) -> Iterator[RunningJudge]:
    running = RunningJudge(mail_server, tmp_path)
    yield running
    running.stop()


def test_a_standard_game_runs_by_mail_through_retreat_and_adjustment(judge: RunningJudge, mail_server: MailServer) -> None:
    gm = mail_server.new_user("gm")
    create(judge, "e2e", "deadline.movement=15s", "deadline.retreat=60s", "deadline.adjustment=8s", gm=gm.address)
    judge.start()
    players = seat_everyone(judge, "e2e")
    austria, germany, russia = players["Austria"], players["Germany"], players["Russia"]

    # S1901M: everybody READY, so it is processed before its deadline.
    russia.orders("e2e", "A War - Gal", "F Sev - Bla", "A Mos - Ukr", "READY")
    germany.orders("e2e", "F Kie - Den", "A Ber - Kie", "A Mun - Ruh", "READY")
    austria.orders("e2e", "A Vie H", "A Bud H", "F Tri - Alb", "A Wien - Tirolo", "READY")
    for power in ("England", "France", "Italy", "Turkey"):
        players[power].orders("e2e", "READY")
    spring = report(austria, 1)
    assert ":: Game: e2e" in spring and ":: Phase: S1901M" in spring and ":: Next-Phase: F1901M" in spring
    assert "A WAR - GAL" in spring and "F KIE - DEN" in spring

    ack = text_of(austria.wait_for("acknowledgement", 2)[1])
    assert ":: Game: e2e" in ack and ":: Power: Austria" in ack and ":: Phase: S1901M" in ack
    assert "line 2: A VIE H" in ack and "line 4: F TRI - ALB" in ack
    assert "line 5, column" in ack and "ERROR" in ack and "Tirolo" in ack
    assert "A WAR" not in ack, "an acknowledgement must not show another power's orders"

    # F1901M: no READY from everybody, so the deadline ends it.
    austria.orders("e2e", "A Vie - Gal", "A Bud S A Vie - Gal", "F Alb - Gre")
    russia.orders("e2e", "A Gal H", "A Ukr - Rum", "F Bla - Ank")
    germany.orders("e2e", "F Den H", "A Kie - Hol", "A Ruh - Bel")
    fall = report(russia, 2)
    assert ":: Phase: F1901M" in fall and ":: Next-Phase: F1901R" in fall
    assert "Dislodged units" in fall and "Russia: A GAL" in fall and "WAR" in fall.split("Dislodged units")[1]

    # F1901R: only Russia has to act; its READY ends the phase at once.
    russia.orders("e2e", "A Gal - War", "READY")
    retreat = report(russia, 3)
    assert ":: Phase: F1901R" in retreat and "A GAL - WAR" in retreat and ":: Next-Phase: W1901A" in retreat

    # W1901A: Germany and Austria build; Austria is not ready, so the deadline ends it.
    germany.orders("e2e", "Build F Kie", "Build A Ber", "READY")
    austria.orders("e2e", "Build A Vie")
    winter = report(germany, 4)
    assert ":: Phase: W1901A" in winter and ":: Next-Phase: S1902M" in winter
    assert "BUILD F KIE" in winter.upper() and "BUILD A VIE" in winter.upper()
    assert "Germany" in winter and "6" in winter

    # Every player and the GM got the four reports; every player mail got exactly one threaded answer.
    for player in players.values():
        assert len(player.wait_for("report", 4)) == 4
        acks = player.wait_for("acknowledgement", len(player.sent))
        assert sorted(str(m["In-Reply-To"]) for m in acks) == sorted(player.sent)
        for mail in acks:
            assert mail["Auto-Submitted"] == "auto-replied" and mail["X-Loop"] == judge.address
    game_master = Player(mail_server, gm, judge.address)
    assert [":: Phase: S1901M" in text_of(m) for m in game_master.wait_for("report", 4)] == [True, False, False, False]
    html = wait_until(lambda: germany.mails("report")[-1].get_body(preferencelist=("html",)), what="HTML part")
    assert "<table" in str(html.get_content())
    for mail in germany.mails("report"):  # each report carries its map once, inline with its file name
        body = str(mail.get_body(preferencelist=("html",)).get_content())
        pictures = [p for p in mail.walk() if p.get_content_type() == "image/png"]
        inline = [p for p in pictures if p["Content-ID"]]
        assert len(inline) == 1 and f'src="cid:{str(inline[0]["Content-ID"]).strip("<>")}"' in body
        assert inline[0].get_content().startswith(b"\x89PNG")
        assert len(pictures) == 1 and pictures[0].get_filename()

    show = judge.cli("game", "show", "e2e")
    assert show.returncode == 0 and "S1902M" in show.stdout and "resolved: 4 phases" in show.stdout
    assert "A VIE" not in show.stdout
    assert judge.cli("outbox").stdout.startswith("outbox empty")
    assert "Traceback" not in judge.log_text()
