"""Game-master command mail, in process (the harness of
tests/test_service_commands.py): creating and setting up games, overrides
with dry runs, the audit trail in reports and HISTORY, press, reminders and
civil disorder, and every GM command refused to anyone but the GM."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest

from adjudicator import records
from adjudicator.service.gm import GM_COMMANDS

from tests.test_service_commands import GM, POWERS, Table, address, orders_of, password, signon

ADMIN = "admin@pbem.test"


@pytest.fixture
def judge(tmp_path: Path) -> Iterator[Table]:
    table = Table(tmp_path)
    table.config = records.replace(table.config, admin=ADMIN, admin_password="admin-pw")
    table.judge.config = table.config
    yield table
    table.store.close()


def gm_password(mail_text: str) -> str:
    found = re.search(r"(?:game-master password|Spielleiter-Passwort): (\S+)", mail_text)
    assert found, mail_text
    return found.group(1)


def create_by_mail(judge: Table, game: str = "spiel1", variant: str = "standard") -> str:
    out = judge.send(ADMIN, "ADMIN admin-pw", f"GM CREATE {game} {variant} {GM}")
    created = [m for m in out if m.to == GM]
    assert len(created) == 1
    return gm_password(created[0].text)


def gm(judge: Table, secret: str, *lines: str, game: str = "spiel1") -> list[str]:
    """The GM's mail of ``lines`` (each a GM command or order line); the
    answer lines of every GM section, in order."""
    out = judge.send(GM, f"GAMEMASTER {game} {secret}", *lines)
    ack = out.one("acknowledgement", GM)
    return [line for echo, section in ack.sections() if not echo.startswith("GAMEMASTER") for line in section]


def seat_by_assignment(judge: Table, secret: str) -> None:
    """The GM assigns every power; each player reads the password from
    their mail and changes it to the one the harness's ``signon`` uses."""
    lines = [f"GM ASSIGN {power} {address(power)}" for power in POWERS]
    out = judge.send(GM, f"GAMEMASTER spiel1 {secret}", *lines)
    for power in POWERS:
        mail = [m for m in out if m.to == address(power) and "password" in m.subject]
        assert len(mail) == 1 and len(out.one("start", address(power)).text) > 0
        found = re.search(r"Your password: (\S+)", mail[0].text)
        assert found
        ack = judge.ack(address(power), f"SIGNON {power} spiel1 {found.group(1)}", f"PASSWORD {password(power)}")
        assert ack.section("PASSWORD ****") == ["Password changed."]


def test_an_administrator_creates_a_game_and_its_gm_sets_it_up_and_starts_it(judge: Table) -> None:
    secret = create_by_mail(judge)
    answers = gm(judge, secret, "GM LANGUAGE en", "GM SCHEDULE Sun 20:00", "GM TIMEZONE Europe/Berlin",
                 "GM GRACE 12h", "GM LATE 1 2", "GM REMINDERS 24h 2h", "GM PRESS GREY MOVEMENT")
    assert answers == ["Done: en", "Done: weekly Sun 20:00", "Done: Europe/Berlin", "Done: grace 12h",
                       "Done: excused 1, civil disorder after 2 missed", "Done: reminders 1d 2h",
                       "Done: press grey (movement phases only)"]
    game = judge.store.game("spiel1")
    assert game is not None and game.gm == GM and game.status == "forming"
    assert game.settings["weekly"] == ["Sun 20:00"] and game.settings["press"] == "grey"
    seat_by_assignment(judge, secret)
    game = judge.store.game("spiel1")
    assert game is not None and game.status == "active" and game.phase == "S1901M"
    # Tuesday 1 Dec 2026 10:00 UTC: the first Sunday 20:00 at least a day away is 6 Dec.
    assert game.deadline == "2026-12-06T19:00:00+00:00"
    ack = judge.ack(address("Austria"), signon("Austria"), "A Vie - Gal")
    assert ack.section("SIGNON Austria spiel1 ****")[0] == "Signed on as Austria in spiel1."


def test_thirty_years_options_are_set_by_the_gm_before_the_start(judge: Table) -> None:
    secret = create_by_mail(judge, "dreissig", "30jk")
    assert gm(judge, secret, "GM OPTION confessions random", game="dreissig") == ["Done: confessions = random"]
    game = judge.store.game("dreissig")
    assert game is not None and game.options["confessions"] == "random" and "seed" in game.options
    assert gm(judge, secret, "GM OPTION colour blue", game="dreissig")[0].startswith("Refused, nothing changed:")


def test_random_powers_are_dealt_when_enough_players_signed_on(judge: Table) -> None:
    secret = create_by_mail(judge)
    gm(judge, secret, "GM RANDOM ON")
    for number in range(6):
        ack = judge.ack(f"p{number}@players.test", f"SIGNON ANY spiel1 pw-number-{number}")
        assert ack.section("SIGNON ANY spiel1 ****")[0].startswith("You are on the list for spiel1")
    out = judge.send("p6@players.test", "SIGNON ZUFALL spiel1 pw-number-6")
    game = judge.store.game("spiel1")
    assert game is not None and game.status == "active"
    seats = judge.store.players("spiel1")
    assert sorted(p.address or "" for p in seats) == sorted(f"p{n}@players.test" for n in range(7))
    assert len(out.of("start")) == 7


def test_gm_start_puts_open_powers_into_civil_disorder(judge: Table) -> None:
    secret = create_by_mail(judge)
    judge.ack(address("Austria"), signon("Austria"))
    answers = gm(judge, secret, "GM START")
    # never "all powers are taken" when six were not (issue 13 point 10)
    assert answers == ["spiel1 starts with S1901M. Nobody took these powers; they are in civil disorder: England, "
                       "France, Germany, Italy, Russia, Turkey"]
    statuses = {p.power: p.status for p in judge.store.players("spiel1")}
    assert statuses["Austria"] == "playing" and statuses["Turkey"] == "disorder"


SAMPLES = {
    "create": "GM CREATE other standard gm2@pbem.test", "password": "GM PASSWORD neu", "option": "GM OPTION seed 3",
    "schedule": "GM SCHEDULE 48h", "timezone": "GM TIMEZONE UTC", "language": "GM LANGUAGE de",
    "grace": "GM GRACE 1h", "late": "GM LATE 1 1", "reminders": "GM REMINDERS 1h", "press_setting": "GM PRESS NONE",
    "assign": "GM ASSIGN Austria x@players.test", "random": "GM RANDOM ON", "start": "GM START",
    "min_password": "GM MINPASSWORD 10", "seats": "GM SEATS 2", "approval": "GM APPROVAL ON",
    "approve": "GM APPROVE Austria", "reject": "GM REJECT Austria",
    "deadline": "GM DEADLINE +24h", "pause": "GM PAUSE", "resume": "GM RESUME", "process": "GM PROCESS S1901M",
    "preview": "GM PREVIEW", "rollback": "GM ROLLBACK S1901M", "unit_add": "GM UNIT ADD A Gal Austria",
    "unit_remove": "GM UNIT REMOVE A Vie", "unit_move": "GM UNIT MOVE A Vie Gal", "centre": "GM CENTRE Ser Austria",
    "confession": "GM CONFESSION Austria catholic", "incapacitate": "GM INCAPACITATE A Vie",
    "orders": "GM ORDERS Austria", "replace": "GM REPLACE Austria x@players.test", "eject": "GM EJECT Austria",
    "end_draw": "GM END DRAW", "end_concede": "GM END CONCEDE Austria", "end_solo": "GM END SOLO Austria",
    "help": "GM HELP", "dryrun": "GM DRYRUN START", "data": "GM DATA cards", "template": "GM TEMPLATE", "missed": "GM MISSED EXTEND",
}


def test_the_refusal_samples_cover_every_gm_command() -> None:
    assert sorted(SAMPLES) == sorted(spec.rule for spec in GM_COMMANDS)


@pytest.mark.parametrize("command", list(SAMPLES.values()))
def test_every_gm_command_is_refused_to_a_player_and_to_a_wrong_gm_password(judge: Table, command: str) -> None:
    secret = create_by_mail(judge)
    seat_by_assignment(judge, secret)
    before = (judge.store.game("spiel1"), judge.store.players("spiel1"), judge.store.audit("spiel1"))
    as_player = judge.ack(address("Austria"), signon("Austria"), command)
    echo, lines = as_player.sections()[-1]
    assert echo.startswith("GM ") and lines[0].startswith("Refused: game-master commands need GAMEMASTER")
    wrong = judge.ack(GM, "GAMEMASTER spiel1 guessed", command)
    assert wrong.sections()[0][1] == ["Game-master sign-on failed: the game or the password is wrong."]
    assert wrong.sections()[1][1][0].startswith("Refused: game-master commands need GAMEMASTER")
    assert (judge.store.game("spiel1"), judge.store.players("spiel1"), judge.store.audit("spiel1")) == before


def test_a_dry_run_shows_the_result_and_changes_nothing(judge: Table) -> None:
    secret = create_by_mail(judge)
    seat_by_assignment(judge, secret)
    judge.orders("Austria", "A Vie - Gal")
    before = (judge.store.game("spiel1"), judge.store.phases("spiel1"))
    out = judge.send(GM, f"GAMEMASTER spiel1 {secret}", "GM DRYRUN PROCESS S1901M")
    assert [m.to for m in out] == [GM]
    lines = out[0].section("GM DRYRUN PROCESS S1901M")
    assert lines[0] == "DRY RUN: nothing was changed or sent. This would be the result:"
    assert "S1901M is processed; now F1901M is open." in lines
    assert any("A VIE - GAL" in line for line in lines)
    assert (judge.store.game("spiel1"), judge.store.phases("spiel1")) == before


def test_process_names_its_phase_so_a_late_command_processes_nothing(judge: Table) -> None:
    secret = create_by_mail(judge)
    seat_by_assignment(judge, secret)
    assert gm(judge, secret, "GM PROCESS S1901M") == ["S1901M is processed; now F1901M is open."]
    assert gm(judge, secret, "GM PROCESS S1901M") == [
        "Refused, nothing changed: the game is in F1901M, not in S1901M; nothing is processed"]
    assert [p.phase for p in judge.store.phases("spiel1")] == ["S1901M"]


def test_preview_mails_the_gm_the_would_be_result(judge: Table) -> None:
    secret = create_by_mail(judge)
    seat_by_assignment(judge, secret)
    judge.orders("Russia", "A War - Gal")
    lines = gm(judge, secret, "GM PREVIEW")
    assert lines[0] == "PREVIEW of S1901M with the orders received so far (nothing was processed):"
    assert any("A WAR - GAL" in line and "succeeds" in line for line in lines)
    assert judge.store.phases("spiel1") == [] and judge.phase() == "S1901M"


def test_rollback_edit_and_replacement_are_in_the_next_report_and_history(judge: Table) -> None:
    secret = create_by_mail(judge)
    seat_by_assignment(judge, secret)
    gm(judge, secret, "GM PROCESS S1901M")
    assert gm(judge, secret, "GM ROLLBACK S1901M") == ["Done: S1901M"]
    assert judge.phase() == "S1901M" and judge.store.phases("spiel1") == []
    assert gm(judge, secret, "GM UNIT ADD A Gal Austria", "GM CENTRE Ser Austria") == [
        "Done: Austria: A Gal added", "Done: SER owned by Austria"]
    out = judge.send(GM, f"GAMEMASTER spiel1 {secret}", "GM REPLACE Turkey neu@players.test")
    new_password = re.search(r"Your password: (\S+)", [m for m in out if m.to == "neu@players.test"][0].text)
    assert new_password and [m.to for m in out if "no longer play" in m.subject] == [address("Turkey")]
    report_out = judge.send(GM, f"GAMEMASTER spiel1 {secret}", "GM PROCESS S1901M")
    report = report_out.one("report", "neu@players.test").text
    changes = report.split("Game master's changes since the last report:")[1].split("\n\n")[0]
    assert "ROLLBACK S1901M (rolled back to S1901M)" in changes
    assert "UNIT ADD A Gal Austria (Austria: A Gal added)" in changes
    assert "REPLACE Turkey <address> (Turkey: new player)" in changes
    assert "neu@players.test" not in report
    assert orders_of(report, "Austria")[-1] == "A GAL H succeeds (no order)"
    history = judge.ack(address("Italy"), "HISTORY spiel1").section("HISTORY spiel1")
    assert any("GM ROLLBACK S1901M" in line for line in history)
    assert any("GM REPLACE Turkey <address>" in line for line in history)
    second = judge.send(GM, f"GAMEMASTER spiel1 {secret}", "GM PROCESS F1901M").one("report", address("Italy")).text
    listed = second.split("Game master's changes since the last report:\n")[1].split("\n\n")[0]
    assert listed.splitlines() == ["  PROCESS F1901M (processed F1901M before its deadline)"]


def test_gm_orders_for_a_power_and_eject(judge: Table) -> None:
    secret = create_by_mail(judge)
    seat_by_assignment(judge, secret)
    lines = gm(judge, secret, "GM ORDERS Germany", "A Mun - Ruh", "F Kie - Den")
    assert lines == ["Orders for Germany follow:", "line 3: A MUN - RUH", "line 4: F KIE - DEN"]
    assert judge.store.submissions("spiel1", "S1901M")["Germany"].orders == ("A MUN - RUH", "F KIE - DEN")
    out = judge.send(GM, f"GAMEMASTER spiel1 {secret}", "GM EJECT Italy")
    assert [m.to for m in out if "removed" in m.subject] == [address("Italy")]
    assert {p.power: p.status for p in judge.store.players("spiel1")}["Italy"] == "disorder"


def test_pause_and_resume_keep_the_time_left_and_everyone_is_told(judge: Table) -> None:
    secret = create_by_mail(judge)
    seat_by_assignment(judge, secret)
    judge.now += timedelta(hours=10)
    out = judge.send(GM, f"GAMEMASTER spiel1 {secret}", "GM PAUSE")
    assert sorted(m.to for m in out if "paused" in m.subject) == sorted([*map(address, POWERS), GM])
    game = judge.store.game("spiel1")
    assert game is not None and game.status == "paused" and game.deadline is None
    judge.now += timedelta(days=1, minutes=1)
    notices = judge.poll()
    assert sorted(m.to for m in notices if "still paused" in m.subject) == sorted([*map(address, POWERS), GM])
    judge.now += timedelta(days=3)
    judge.send(GM, f"GAMEMASTER spiel1 {secret}", "GM RESUME")
    game = judge.store.game("spiel1")
    assert game is not None and game.status == "active"
    assert game.deadline == (judge.now + timedelta(hours=62)).isoformat()


def test_deadline_set_and_extended(judge: Table) -> None:
    secret = create_by_mail(judge)
    seat_by_assignment(judge, secret)
    assert gm(judge, secret, "GM DEADLINE 2026-12-08 20:00") == [
        "Done: Tuesday, 8 December 2026, 20:00 CET (Europe/Berlin)"]
    assert gm(judge, secret, "GM DEADLINE +24h") == ["Done: Wednesday, 9 December 2026, 20:00 CET (Europe/Berlin)"]
    assert gm(judge, secret, "GM DEADLINE 2020-01-01 20:00")[0].startswith("Refused, nothing changed: the deadline")
    # A trigger set for the old deadline (4 December) resolves nothing: the deadline moved.
    judge.now += timedelta(hours=73)
    assert judge.judge.process("spiel1", "S1901M", "deadline") == 0 and judge.phase() == "S1901M"


def test_white_and_grey_press_reach_exactly_their_recipients(judge: Table) -> None:
    secret = create_by_mail(judge)
    seat_by_assignment(judge, secret)
    white = judge.send(address("Austria"), signon("Austria"), "PRESS TO Germany, Italy", "Lasst uns reden.")
    press = [m for m in white if "press" in m.subject]
    assert sorted(m.to for m in press) == sorted([address("Germany"), address("Italy"), GM])
    to_germany = [m for m in press if m.to == address("Germany")][0].text
    assert "Press from Austria to Germany, Italy:" in to_germany and "Lasst uns reden." in to_germany
    assert address("Austria") not in to_germany and address("Italy") not in to_germany
    refused = judge.ack(address("Austria"), signon("Austria"), "PRESS ANON TO Germany", "x")
    assert refused.section("PRESS ANON TO Germany") == [
        "This game has white press: the sender is always named; ANON is not possible."]
    gm(judge, secret, "GM PRESS GREY")
    grey = judge.send(address("Russia"), signon("Russia"), "BROADCAST ANON", "Wer war das?")
    press = [m for m in grey if "press" in m.subject]
    assert sorted(m.to for m in press) == sorted([*(address(p) for p in POWERS if p != "Russia"), GM])
    to_turkey = [m for m in press if m.to == address("Turkey")][0].text
    assert "Press from Anonymous to" in to_turkey and "Russia" not in to_turkey.split("to", 1)[0]
    assert "Press from Russia (anonymous: yes)" in [m for m in press if m.to == GM][0].text
    gm(judge, secret, "GM PRESS NONE")
    off = judge.ack(address("Russia"), signon("Russia"), "BROADCAST", "x")
    assert off.section("BROADCAST") == ["spiel1 has no press."]
    assert len(judge.store.press("spiel1")) == 2


def test_reminders_go_to_powers_without_orders_once(judge: Table) -> None:
    secret = create_by_mail(judge)
    gm(judge, secret, "GM REMINDERS 24h 2h")
    seat_by_assignment(judge, secret)
    for power in POWERS[:5]:
        judge.orders(power, "WAIT")
    judge.orders("Austria", "A Vie H")
    judge.now += timedelta(hours=48, minutes=1)
    first = judge.poll()
    assert sorted(m.to for m in first if "reminder" in m.subject) == sorted(address(p) for p in POWERS[1:])
    assert judge.poll() == []
    judge.now += timedelta(hours=22)
    second = judge.poll()
    assert len([m for m in second if "reminder" in m.subject]) == 6


def test_missed_turns_put_a_power_into_civil_disorder_and_the_gm_is_told(judge: Table) -> None:
    secret = create_by_mail(judge)
    gm(judge, secret, "GM LATE 0 2")
    seat_by_assignment(judge, secret)
    for phase in ("S1901M", "F1901M"):
        for power in POWERS:
            if power != "Turkey":
                judge.orders(power, "READY")
        judge.now += timedelta(hours=73)
        out = judge.poll()
        assert judge.store.phases("spiel1")[-1].phase == phase
    statuses = {p.power: p.status for p in judge.store.players("spiel1")}
    assert statuses["Turkey"] == "disorder" and statuses["Russia"] == "playing"
    assert [m.to for m in out if "civil disorder" in m.subject] == [GM]
    assert "In civil disorder (missed turns): Turkey" in out.one("report", address("Russia")).text


def test_grace_period_waits_once_for_an_excused_late_power(judge: Table) -> None:
    secret = create_by_mail(judge)
    gm(judge, secret, "GM GRACE 12h", "GM LATE 1 0")
    seat_by_assignment(judge, secret)
    for power in POWERS[:-1]:
        judge.orders(power, "READY")
    judge.now += timedelta(hours=72, minutes=1)
    out = judge.poll()
    assert [m.to for m in out if "grace" in m.subject] == [address("Turkey")]
    assert judge.phase() == "S1901M"
    judge.orders("Turkey", "A Con - Bul")
    judge.now += timedelta(hours=12)
    judge.poll()
    assert judge.phase() == "F1901M"
    assert "A CON - BUL" in judge.store.phases("spiel1")[0].report_text


def test_the_gm_guide_shows_every_gm_command_in_both_languages() -> None:
    guide = (Path(__file__).resolve().parent.parent / "docs" / "gm-guide.md").read_text(encoding="utf-8")

    def head(syntax: str) -> str:
        words = []
        for word in syntax.split():
            if any(mark in word for mark in "<[|+"):
                break
            words.append(word)
        return " ".join(words)

    for spec in GM_COMMANDS:
        assert head(spec.syntax_en) in guide, spec.syntax_en
        assert head(spec.syntax_de) in guide, spec.syntax_de


def test_gm_help_is_generated_from_the_command_table(judge: Table) -> None:
    secret = create_by_mail(judge)
    lines = gm(judge, secret, "GM HELP")
    assert lines == [line for spec in GM_COMMANDS for line in (spec.syntax_en, "    " + spec.description_en)]


def test_ready_without_orders_is_not_a_missed_turn(judge: Table) -> None:
    """Ruling S11: READY alone holds on purpose; only silence is a missed turn."""
    secret = create_by_mail(judge)
    gm(judge, secret, "GM LATE 0 1")
    seat_by_assignment(judge, secret)
    for power in POWERS[:-1]:
        judge.orders(power, "READY")
    judge.now += timedelta(hours=73)
    out = judge.poll()
    statuses = {p.power: (p.status, p.missed) for p in judge.store.players("spiel1")}
    assert statuses["Austria"] == ("playing", 0) and statuses["Turkey"] == ("disorder", 1)
    assert "No orders received (NMR): Turkey" in out.one("report", address("Austria")).text
