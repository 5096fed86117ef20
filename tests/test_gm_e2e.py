"""A 30JK game set up and steered by game-master mail through the real
mail stack (the judge as a process, Dovecot, SMTP): the administrator
creates it, the GM sets options and assigns every power, the game starts;
then a rollback, a position edit and a player replacement, each visible in
the next report and in HISTORY."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from adjudicator.games import game_module
from tests.judge_harness import Player, RunningJudge, text_of
from tests.mailserver import MailServer

POWERS = game_module("30jk").powers()


@pytest.fixture
def judge(mail_server: MailServer, tmp_path: Path) -> Iterator[RunningJudge]:
    admin = mail_server.new_user("admin")
    running = RunningJudge(mail_server, tmp_path, admin=(admin.address, "admin-secret"))
    running.admin_user = admin  # type: ignore[attr-defined]
    yield running
    running.stop()


def password_in(mail_text: str, label: str) -> str:
    found = re.search(rf"{label}: (\S+)", mail_text)
    assert found, mail_text
    return found.group(1)


def test_a_30jk_game_set_up_and_corrected_by_gm_mail(judge: RunningJudge, mail_server: MailServer) -> None:
    judge.start()
    admin = Player(mail_server, judge.admin_user, judge.address)  # type: ignore[attr-defined]
    gm = judge.player("gm")
    admin.send(f"ADMIN admin-secret\nGM CREATE jk 30jk {gm.address}\n")
    secret = password_in(text_of(gm.wait_for("notice", 1)[0]), "Your game-master password")
    assert "Game jk (30jk) created" in text_of(admin.wait_for("acknowledgement", 1)[0])

    players = {power: judge.player(f"p{index}") for index, power in enumerate(POWERS)}
    setup = [f"GAMEMASTER jk {secret}", "GM LANGUAGE en", "GM OPTION confessions random", "GM PRESS WHITE",
             *(f"GM ASSIGN {power} {player.address}" for power, player in players.items())]
    gm.send("\n".join(setup) + "\n")
    ack = text_of(gm.wait_for("acknowledgement", 1)[0])
    assert "Done: confessions = random" in ack and "All powers are taken: jk starts with 1618M" in ack
    for power, player in players.items():
        seat = next(m for m in player.wait_for("notice", 1) if "password" in str(m["Subject"]))
        player.power, player.password = power, password_in(text_of(seat), "Your password")
        assert ":: Game: jk" in text_of(player.wait_for("start", 1)[0])

    sachsen, bayern, schweden = players["Sachsen"], players["Bayern"], players["Schweden"]
    sachsen.orders("jk", "F Tor - Wit - Anh", "A Lei - EbMa")
    bayern.orders("jk", "A FAns - RsNu")
    sachsen.wait_for("acknowledgement", 1)
    bayern.wait_for("acknowledgement", 1)
    gm.send(f"GAMEMASTER jk {secret}\nGM PROCESS 1618M\n")
    first = text_of(sachsen.wait_for("report", 1)[0])
    assert ":: Phase: 1618M" in first and "F Tor - Wit - Anh" in first

    newcomer = judge.player("newcomer")
    gm.send(f"GAMEMASTER jk {secret}\nGM ROLLBACK 1618M\nGM UNIT ADD A Tir Bayern\n"
            f"GM REPLACE Schweden {newcomer.address}\nGM PROCESS 1618M\n")
    answers = text_of(gm.wait_for("acknowledgement", 3)[2])
    assert "Done: 1618M" in answers and "Done: Bavaria: A Tir added" in answers  # the power in the game's language
    assert "1618M is processed; now 1619M is open." in answers
    # the GM's notices of one mail go out together at its end, so their order may vary
    assert sorted(str(m["Subject"]) for m in schweden.wait_for("notice", 3)[1:]) == ["jk: rolled back",
                                                                                      "jk: you no longer play"]
    new_seat = next(m for m in newcomer.wait_for("notice", 1) if "password" in str(m["Subject"]))
    assert "SIGNON Schweden jk" in text_of(new_seat)

    second = text_of(bayern.wait_for("report", 2)[1])
    changes = second.split("Game master's changes since the last report:")[1]
    assert "ROLLBACK 1618M (rolled back to 1618M)" in changes
    assert "UNIT ADD A Tir Bayern (Bavaria: A Tir added)" in changes  # power names in the game's language
    assert "REPLACE Schweden <address> (Sweden: new player)" in changes
    assert newcomer.address not in second and "A Tir H" in second
    assert len(newcomer.wait_for("report", 1)) == 1

    sachsen.send("HISTORY jk\n")
    history = text_of(sachsen.wait_for("acknowledgement", 2)[1])
    assert "GM ROLLBACK 1618M" in history and "GM UNIT ADD A Tir Bayern" in history
    assert "GM REPLACE Schweden <address>" in history and newcomer.address not in history
