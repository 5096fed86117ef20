"""Game data a GM supplies (``DataFile``), through the public intake: the
template mailed as an attachment, a data file attached to ``GM CREATE`` or
``GM DATA``/``GM CARDS`` (checked, size-capped, problems with line and
field), the operator's data folder (plain names only, never outside it),
``GM OPTION`` refusing every server path, and the command line
(``game create --data``, ``data|cards template|check``).  1848's card
file is the game that needs one."""

from __future__ import annotations

import email
import email.policy
import os
import subprocess
import sys
from collections.abc import Iterator
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

import pytest

from adjudicator import records
from adjudicator.games.revolution1848.cards import standin_text
from adjudicator.service.intake import read_pipe
from tests.test_gm import ADMIN, gm_password
from tests.test_service_commands import GM, JUDGE, Outbox, Table

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def judge(tmp_path: Path) -> Iterator[Table]:
    table = Table(tmp_path)
    folder = tmp_path / "data"
    folder.mkdir()
    table.config = records.replace(table.config, admin=ADMIN, admin_password="admin-pw", data_folder=folder)
    table.judge.config = table.config
    yield table
    table.store.close()


def mail(judge: Table, sender: str, lines: list[str], files: tuple[tuple[str, bytes], ...] = ()) -> Outbox:
    """``sender`` mails ``lines`` with ``files`` attached; the judge polls once."""
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = sender, JUDGE, "game data"
    message["Message-ID"] = make_msgid(domain="players.test")
    message.set_content("\n".join(lines) + "\n")
    for filename, data in files:
        message.add_attachment(data, maintype="application", subtype="octet-stream", filename=filename)
    judge.mailbox.box.append(read_pipe(bytes(message)))
    return judge.poll()


def answer(out: Outbox, echo_prefix: str = "GM ") -> list[str]:
    """The answer lines of every GM section of the one acknowledgement."""
    ack = [m for m in out if m.kind == "acknowledgement"]
    assert len(ack) == 1
    return [line for echo, lines in ack[0].sections() if echo.startswith(echo_prefix) for line in lines]


def attachments_of(raw: bytes) -> dict[str, bytes]:
    message = email.message_from_bytes(raw, policy=email.policy.default)
    assert isinstance(message, email.message.EmailMessage)
    found: dict[str, bytes] = {}
    for part in message.iter_attachments():
        payload = part.get_payload(decode=True)
        assert isinstance(payload, bytes)
        found[str(part.get_filename())] = payload
    return found


def create(judge: Table, *more: str, files: tuple[tuple[str, bytes], ...] = ()) -> tuple[list[str], str]:
    """The administrator creates spiel2 (1848) for the GM; the answer and the GM password."""
    out = mail(judge, ADMIN, ["ADMIN admin-pw", f"GM CREATE spiel2 1848 {GM}", *more], files)
    created = [m for m in out if m.to == GM]
    assert len(created) == 1
    return answer(out), gm_password(created[0].text)


def as_gm(judge: Table, secret: str, *lines: str, files: tuple[tuple[str, bytes], ...] = ()) -> list[str]:
    return answer(mail(judge, GM, [f"GAMEMASTER spiel2 {secret}", *lines], files))


def bad_cards() -> bytes:
    return ("[person.PE02]\nparties = [\"LIB\"]\nvalue = 12\n\n[person.PE99]\nvalue = 3\n\n"
            "[extra.Z04]\ncolour = \"red\"\n").encode()


def test_gm_create_without_the_card_file_answers_a_table_of_what_is_missing(judge: Table) -> None:
    lines, _ = create(judge)
    assert lines[0] == "Game spiel2 (1848) created; its game master gets the password by mail."
    assert lines[1] == "The game spiel2 can start only once these data are there (the rule text does not give them):"
    assert lines[2].startswith("  cards: the card file") and lines[2].endswith("still unknown:")
    table = [line for line in lines if line.startswith("    ")]
    assert "    PE02: parties, value" in table and any(line.startswith("    A07 (") for line in table)
    assert len(table) > 50 and all(len(line) < 210 for line in table)
    assert any("GM TEMPLATE cards" in line for line in lines) and any("GM DATA cards" in line for line in lines)
    assert lines[-1] == "  or play without the original data with the stand-in set: GM OPTION data standin."
    game = judge.store.game("spiel2")
    assert game is not None and game.status == "forming" and game.phase == "-"


def test_gm_template_mails_the_template_as_an_attachment(judge: Table) -> None:
    out = mail(judge, ADMIN, ["ADMIN admin-pw", "GM TEMPLATE 1848 cards"])
    assert answer(out) == ["The template of the data file cards is attached to this mail (1848-cards.toml)."]
    files = attachments_of(out[0].raw)
    assert list(files) == ["1848-cards.toml"]
    text = files["1848-cards.toml"].decode()
    assert text.count("TO FILL IN") > 250 and "[person.PE12]" in text and 'name = "Hans Kudlich"' in text


def test_one_mail_creates_a_game_with_its_attached_card_file_and_starts_it(judge: Table) -> None:
    out = mail(judge, ADMIN, ["ADMIN admin-pw", "GM CREATE spiel2 1848", "GM ASSIGN A anna@players.test",
                              "GM ASSIGN B bert@players.test"], (("my-cards.toml", standin_text().encode()),))
    lines = answer(out)
    assert lines[1].startswith("Data file cards from my-cards.toml (") and "checked and stored" in lines[1]
    assert "All powers are taken: spiel2 starts with R01A01-1. Every player gets a start mail." in lines
    game = judge.store.game("spiel2")
    assert game is not None and game.status == "active" and game.gm == ADMIN
    assert game.options["data.cards"] == standin_text()
    assert sorted(m.to for m in out if m.kind == "start") == ["anna@players.test", "bert@players.test"]


def test_a_bad_card_file_is_answered_with_line_and_field_and_nothing_is_stored(judge: Table) -> None:
    _, secret = create(judge)
    lines = as_gm(judge, secret, "GM CARDS", files=(("cards.toml", bad_cards()),))
    assert lines == ["Data file cards not taken, 2 problem(s):", "    line | card | field | what is allowed",
                     "    5 | PE99 | - | no such card (allowed: PE01 to PE42)",
                     "    9 | Z04 | colour | no such field (allowed: effects, name)"]
    lines = as_gm(judge, secret, "GM CARDS", files=(("cards.toml", b"[person.PE02]\nparties = [\"LIB\"]\nvalue = 12\n"),))
    assert "    3 | PE02 | value | a whole number 1 to 8, not 12" in lines
    assert "    - | PE05 | value | still unknown: please enter the card's value" in lines
    syntax = as_gm(judge, secret, "GM CARDS", files=(("cards.toml", b"[person.PE02\nvalue = 3\n"),))
    assert syntax[2].startswith("    1 | - | - | not valid TOML from column ")
    game = judge.store.game("spiel2")
    assert game is not None and "data.cards" not in game.options and game.phase == "-"

def test_a_bad_card_file_of_a_german_game_is_answered_in_german_as_a_table(judge: Table) -> None:
    """Issue 13 point 3: the same findings in a German game read in German,
    one row per problem (line, card, field, what is allowed), no paths."""
    _, secret = create(judge)
    as_gm(judge, secret, "GM LANGUAGE de")
    lines = as_gm(judge, secret, "SL KARTEN", files=(("cards.toml", bad_cards()),))
    assert lines == ["Datendatei cards nicht übernommen, 2 Problem(e):", "    Zeile | Karte | Feld | was erlaubt ist",
                     "    5 | PE99 | - | keine solche Karte (erlaubt: PE01 bis PE42)",
                     "    9 | Z04 | colour | kein solches Feld (erlaubt: effects, name)"]
    lines = as_gm(judge, secret, "SL KARTEN", files=(("cards.toml", b"[person.PE02]\nparties = [\"LIB\"]\nvalue = 12\n"),))
    assert "    3 | PE02 | value | eine ganze Zahl von 1 bis 8, nicht 12" in lines
    assert "    - | PE05 | value | noch unbekannt: bitte den Wert der Karte eintragen" in lines
    assert not any("[person." in line or "unknown" in line for line in lines)
    kinds = ('[person.PE05]\nvalue = "many"\nparties = ["LIB"]\n[extra.Z04]\neffects = ["boost REP lots"]\n'
             '[flow.A07.red]\nnext = "A99"\n')
    lines = as_gm(judge, secret, "SL KARTEN", files=(("cards.toml", kinds.encode()),))
    assert "    2 | PE05 | value | eine ganze Zahl, nicht 'many'" in lines
    assert ("    5 | Z04 | effects | die Wirkung 'boost REP lots' ist unlesbar (die Schreibweise steht am Kopf der "
            "Vorlage)") in lines
    assert "    - | A07 | - | die nächste Karte 'A99' gibt es nicht (erlaubt: A01 bis A26)" in lines
    assert not any("expected" in line or "cannot read" in line for line in lines)
    lines = as_gm(judge, secret, "SL KARTEN", files=(("cards.toml", b"[person.PE02\nvalue = 3\n"),))
    assert lines[2].startswith("    1 | - | - | kein gültiges TOML ab Spalte ") and lines[2].endswith(
        " (Klammern, Anführungszeichen und = prüfen)")


def test_without_an_attachment_gm_data_says_to_attach_the_file(judge: Table) -> None:
    _, secret = create(judge)
    assert as_gm(judge, secret, "GM DATA cards") == [
        "Refused, nothing changed: attach the data file cards to this mail as a TOML file (or name a file of the "
        "data folder)"]
    assert as_gm(judge, secret, "GM DATA board")[0] == (
        "Refused, nothing changed: 1848 has no data file board (there are: cards)")


def test_an_attachment_over_the_size_cap_is_refused_unread(judge: Table) -> None:
    judge.config = records.replace(judge.config, data_max_bytes=4096)
    judge.judge.config = judge.config
    _, secret = create(judge)
    lines = as_gm(judge, secret, "GM CARDS", files=(("cards.toml", standin_text().encode()),))
    assert lines == ["Data file cards not taken, 1 problem(s) (line: field: what is allowed):",
                     "    cards.toml: larger than 4096 bytes; a data file may have at most 4096"]
    game = judge.store.game("spiel2")
    assert game is not None and "data.cards" not in game.options


@pytest.mark.parametrize("command", [
    "GM OPTION cards.file /etc/passwd", "GM OPTION cards.file /dev/zero", "GM OPTION cards.file=/etc/passwd",
    "GM OPTION map.path /etc/hostname", "GM OPTION data.cards [person.PE02]", "GM OPTION board_file x.toml",
])
def test_no_gm_option_names_a_server_file(judge: Table, command: str) -> None:
    _, secret = create(judge)
    before = judge.store.game("spiel2")
    lines = as_gm(judge, secret, command)
    assert len(lines) == 1 and lines[0].startswith("Refused, nothing changed: the option ")
    assert "no file of the server is read for a mail" in lines[0] and "root:" not in lines[0]
    assert judge.store.game("spiel2") == before


def test_the_data_folder_gives_plain_names_inside_it_only(judge: Table, tmp_path: Path) -> None:
    folder = tmp_path / "data"
    (folder / "good.toml").write_text(standin_text(), encoding="utf-8")
    (folder / "big.toml").write_bytes(b"#" * (judge.config.data_max_bytes + 10))
    os.symlink("/etc/passwd", folder / "link.toml")
    (tmp_path / "outside.toml").write_text(standin_text(), encoding="utf-8")
    _, secret = create(judge)
    for name, why in (("../outside.toml", "not a plain file name"), ("/etc/passwd", "not a plain file name"),
                      ("link.toml", "no such file in the data folder"), ("absent.toml", "no such file"),
                      ("big.toml", "larger than 262144 bytes"), (".hidden", "not a plain file name"),
                      ("/dev/zero", "not a plain file name"), ("..", "not a plain file name")):
        lines = as_gm(judge, secret, f"GM DATA cards {name}")
        assert lines[0].startswith("Data file cards not taken, 1 problem(s)"), (name, lines)
        assert why in lines[2] and "root:" not in "\n".join(lines), (name, lines)
    game = judge.store.game("spiel2")
    assert game is not None and "data.cards" not in game.options
    lines = as_gm(judge, secret, "GM DATA cards good.toml")
    assert lines[0].startswith("Data file cards from good.toml (") and "checked and stored" in lines[0]
    game = judge.store.game("spiel2")
    assert game is not None and game.options["data.cards"] == standin_text()


def test_without_a_data_folder_no_file_is_read(judge: Table) -> None:
    judge.config = records.replace(judge.config, data_folder=None)
    judge.judge.config = judge.config
    _, secret = create(judge)
    lines = as_gm(judge, secret, "GM DATA cards good.toml")
    assert lines[2] == "    - | - | - | good.toml: the judge has no data folder (configuration [data] folder)"


def test_a_file_refused_as_a_whole_is_answered_in_the_game_language(judge: Table) -> None:
    """Issue 13 point 3: a binary file, one not UTF-8, a name not in the
    data folder and a missing data folder read in German in a German game."""
    _, secret = create(judge)
    as_gm(judge, secret, "GM LANGUAGE de")
    head = ["Datendatei cards nicht übernommen, 1 Problem(e):", "    Zeile | Karte | Feld | was erlaubt ist"]
    assert as_gm(judge, secret, "SL KARTEN", files=(("cards.toml", b"[person]\x00\x01"),)) == head + [
        "    - | - | - | cards.toml: eine Binärdatei, kein TOML-Text"]
    assert as_gm(judge, secret, "SL KARTEN", files=(("cards.toml", b"# ok\n\n[person.PE02]\nname = \"\xe4\"\n"),)) == head + [
        "    4 | - | - | cards.toml: Zeile 4 ist kein UTF-8-Text (die Datei als UTF-8 speichern)"]
    assert as_gm(judge, secret, "SL DATEN cards absent.toml") == head + [
        "    - | - | - | absent.toml: keine solche Datei im Datenordner"]
    assert as_gm(judge, secret, "SL DATEN cards ../x.toml") == head + [
        "    - | - | - | ../x.toml: kein einfacher Dateiname des Datenordners (keine Pfade)"]
    judge.config = records.replace(judge.config, data_folder=None)
    judge.judge.config = judge.config
    assert as_gm(judge, secret, "SL DATEN cards good.toml") == head + [
        "    - | - | - | good.toml: der Schiedsrichter hat keinen Datenordner (Einstellung [data] folder)"]
    game = judge.store.game("spiel2")
    assert game is not None and "data.cards" not in game.options


def test_the_stand_in_set_is_chosen_by_option_and_said_to_be_one(judge: Table) -> None:
    _, secret = create(judge)
    lines = as_gm(judge, secret, "GM OPTION data standin", "GM ASSIGN A anna@players.test",
                  "GM ASSIGN B bert@players.test")
    assert lines[:2] == ["Done: data = standin", "The game uses the stand-in data set (stand-in values, not the "
                                                 "original data); every report says so."]
    game = judge.store.game("spiel2")
    assert game is not None and game.status == "active" and game.options["data"] == "standin"
    assert as_gm(judge, secret, "GM OPTION data mine")[0].startswith("Refused")


def test_gm_start_of_a_game_waiting_for_data_is_refused_with_what_is_missing(judge: Table) -> None:
    _, secret = create(judge)
    lines = as_gm(judge, secret, "GM START")
    assert lines[0].startswith("The game spiel2 can start only once these data are there")
    assert lines[-1] == ("Refused, nothing changed: The game spiel2 still waits for its data from the game master "
                         "and starts once they are there.")
    game = judge.store.game("spiel2")
    assert game is not None and game.status == "forming"


def test_seats_taken_before_the_data_wait_for_it_then_the_data_start_the_game(judge: Table) -> None:
    _, secret = create(judge)
    judge.send("anna@players.test", "SIGNON A spiel2 secret-a")
    out = judge.send("bert@players.test", "SIGNON B spiel2 secret-b")
    assert "The game spiel2 still waits for its data from the game master" in out[0].text
    game = judge.store.game("spiel2")
    assert game is not None and game.status == "forming"
    lines = as_gm(judge, secret, "GM CARDS", files=(("cards.toml", standin_text().encode()),))
    assert lines[-1] == "All powers are taken: spiel2 starts with R01A01-1. Every player gets a start mail."


# --- the command line -----------------------------------------------------------------------------


def run(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    config = tmp_path / "judge.toml"
    if not config.exists():
        config.write_text('[judge]\naddress = "judge@pbem.test"\nlanguage = "en"\n', encoding="utf-8")
    return subprocess.run([sys.executable, "-m", "adjudicator", "--config", str(config), *args],
                          capture_output=True, cwd=ROOT, timeout=120, text=True)


def test_the_command_line_writes_the_template_checks_a_file_and_creates_with_it(tmp_path: Path) -> None:
    template = run(tmp_path, "cards", "template", "1848")
    assert template.returncode == 0 and template.stdout.count("TO FILL IN") > 250
    assert run(tmp_path, "data", "template", "1848", "cards").stdout == template.stdout
    (tmp_path / "template.toml").write_text(template.stdout, encoding="utf-8")
    checked = run(tmp_path, "cards", "check", str(tmp_path / "template.toml"))
    assert checked.returncode == 1 and "[person.PE02] value: still unknown" in checked.stdout
    (tmp_path / "bad.toml").write_bytes(bad_cards())
    bad = run(tmp_path, "game", "create", "x", "--variant", "1848", "--data", f"cards={tmp_path / 'bad.toml'}")
    assert bad.returncode == 2 and "line 5: [person.PE99]: no such card" in bad.stderr
    (tmp_path / "good.toml").write_text(standin_text(), encoding="utf-8")
    assert run(tmp_path, "cards", "check", str(tmp_path / "good.toml")).returncode == 0
    created = run(tmp_path, "game", "create", "y", "--variant", "1848", "--data", f"cards={tmp_path / 'good.toml'}")
    assert created.returncode == 0 and "waiting" not in created.stdout, created.stderr
    waiting = run(tmp_path, "game", "create", "z", "--variant", "1848")
    assert waiting.returncode == 0 and "waiting for the data file cards" in waiting.stdout
    assert "  unknown: PE02: parties, value" in waiting.stdout
    standin = run(tmp_path, "game", "create", "w", "--variant", "1848", "--option", "data=standin")
    assert standin.returncode == 0 and "stand-in data set" in standin.stdout
    cards = run(tmp_path, "game", "create", "v", "--variant", "1848", "--option", "cards=standin")
    assert cards.returncode == 0 and "waiting" not in cards.stdout
    shown = run(tmp_path, "game", "show", "v")
    assert "phase:    R01A01-1" in shown.stdout


def test_gm_missed_sets_the_missed_play_policy(judge: Table) -> None:
    _, secret = create(judge)
    assert as_gm(judge, secret, "GM MISSED EXTEND 12h") == ["Done: missed plays: one extension of 12h"]
    game = judge.store.game("spiel2")
    assert game is not None and game.settings["missed"] == "extend" and game.settings["missed_extension"] == 43200
    assert as_gm(judge, secret, "SL VERPASST PASSEN") == ["Done: missed plays: the rules' default at the deadline"]
    game = judge.store.game("spiel2")
    assert game is not None and game.settings["missed"] == "pass" and "missed_extension" not in game.settings


def test_gm_option_carries_a_value_with_spaces(judge: Table) -> None:
    _, secret = create(judge)
    lines = as_gm(judge, secret, "GM OPTION data standin",
                  "GM OPTION card.Z04.effects boost REP +2 once, protect REP against satire",
                  "SL OPTION card.PE02.value=7")
    assert lines[2] == "Done: card.Z04.effects = boost REP +2 once, protect REP against satire"
    assert lines[3] == "Done: card.PE02.value = 7"
    game = judge.store.game("spiel2")
    assert game is not None and game.options["card.Z04.effects"] == "boost REP +2 once, protect REP against satire"
    assert game.state["overlay"]["extra"]["Z04"]["effects"] == ["boost REP +2 once", "protect REP against satire"]
    assert as_gm(judge, secret, "GM OPTION card.Z04.effects boost REP lots")[0].startswith(
        "Refused, nothing changed: card.Z04.effects: cannot read the effect")


@pytest.mark.parametrize("variant", ["kreml4", "liberte"])
def test_a_turn_game_is_created_by_mail_gets_its_template_and_starts_with_the_stand_in(judge: Table, variant: str) -> None:
    from adjudicator.games import game_module

    module = game_module(variant)
    wanted = [d.name for d in module.data_files() if d.required]
    assert wanted, f"{variant} needs data the rule text does not give"
    out = mail(judge, ADMIN, ["ADMIN admin-pw", f"GM CREATE turn1 {variant} {GM}"])
    lines = answer(out)
    assert lines[0].startswith(f"Game turn1 (") and "created" in lines[0]
    assert any("can start only once these data are there" in line for line in lines)
    game = judge.store.game("turn1")
    assert game is not None and game.status == "forming" and game.phase == "-"
    template = mail(judge, ADMIN, ["ADMIN admin-pw", f"GM TEMPLATE {variant} {wanted[0]}"])
    assert list(attachments_of(template[0].raw)) == [f"{module.variant}-{wanted[0]}.toml"]
    secret = gm_password([m for m in out if m.to == GM][0].text)
    seats = [f"GM ASSIGN {power} p{index}@players.test" for index, power in enumerate(module.powers())]
    lines = answer(mail(judge, GM, ["GAMEMASTER turn1 " + secret, "GM OPTION data standin", *seats]))
    assert lines[0] == "Done: data = standin"
    game = judge.store.game("turn1")
    assert game is not None and game.status == "active" and game.phase != "-"


@pytest.mark.parametrize("variant", ["kreml4", "liberte"])
def test_preview_and_dryrun_of_a_turn_game_with_secrets_show_none_of_them(judge: Table, variant: str) -> None:
    """Issue 12 point 5 for turn games: a GM's PREVIEW and DRYRUN PROCESS of
    a game with secret notes or hands say how many are in and show no mail
    content, so no note, hand or coming die reaches the GM."""
    from adjudicator.games import game_module

    module = game_module(variant)
    out = mail(judge, ADMIN, ["ADMIN admin-pw", f"GM CREATE turn2 {variant} {GM}"])
    secret = gm_password([m for m in out if m.to == GM][0].text)
    seats = [f"GM ASSIGN {power} p{index}@players.test" for index, power in enumerate(module.powers())]
    mail(judge, GM, ["GAMEMASTER turn2 " + secret, "GM OPTION data standin", *seats])
    game = judge.store.game("turn2")
    assert game is not None and game.status == "active"
    private = [line for power in module.powers() for line in module.private_lines(game.state, power, "en")
               if len(line) > 12]
    if variant == "liberte":
        assert private, "every hand is secret from the start"
    lines = answer(mail(judge, GM, ["GAMEMASTER turn2 " + secret, "GM PREVIEW", f"GM DRYRUN PROCESS {game.phase}"]))
    text = "\n".join(lines)
    assert f"Preview of {game.phase}:" in text and "stays secret until they are revealed" in text
    assert "(content hidden: sealed plays and hands stay secret until they are revealed)" in text
    assert not [line for line in private if line in text]
    after = judge.store.game("turn2")
    assert after is not None and after.phase == game.phase


def turn_game(judge: Table, variant: str) -> str:
    """The administrator creates turn3 (``variant``) for the GM, in German; the GM password."""
    out = mail(judge, ADMIN, ["ADMIN admin-pw", f"GM CREATE turn3 {variant} {GM}"])
    secret = gm_password([m for m in out if m.to == GM][0].text)
    mail(judge, GM, [f"GAMEMASTER turn3 {secret}", "GM LANGUAGE de"])
    return secret


def german_data(judge: Table, secret: str, name: str, text: str) -> list[str]:
    """The German answer to ``SL DATEN name`` with ``text`` attached."""
    return answer(mail(judge, GM, [f"GAMEMASTER turn3 {secret}", f"SL DATEN {name}"],
                       ((f"{name}.toml", text.encode()),)))


def test_a_bad_kreml_data_file_of_a_german_game_is_answered_in_german_as_a_table(judge: Table) -> None:
    """Issue 13 point 3: Kreml's data checker words every finding from the
    catalogue; a German game reads them as German table rows."""
    from adjudicator.games.kreml.data import standin_text

    text = standin_text().replace("age = 72", "age = 12", 1).replace('hated = "kgb"', 'hated = "spy"', 1)
    text = text.replace('effect = "heal"', 'effect = "fly"', 1)
    lines = german_data(judge, turn_game(judge, "kreml4"), "kreml", text)
    assert lines == ["Datendatei kreml nicht übernommen, 3 Problem(e):", "    Zeile | Karte | Feld | was erlaubt ist",
                     "    - | Wassili Datschnik | hated | einer von chief, kgb, foreign, defence, ideology, industry, "
                     "agriculture, sport, nicht 'spy'",
                     "    - | Sergei Sekretarin | age | eine ganze Zahl von 20 bis 94, nicht 12",
                     "    - | kurort | effect | einer von heal, sicken, stress, rehabilitate, clear, nicht 'fly'"]
    game = judge.store.game("turn3")
    assert game is not None and "data.kreml" not in game.options


def test_a_bad_liberte_data_file_of_a_german_game_is_answered_in_german_as_a_table(judge: Table) -> None:
    """Issue 13 point 3: Liberté's data checker words every finding from
    the catalogue; a German game reads them as German table rows."""
    from adjudicator.games.liberte.data import standin_text

    head = '[cards.A49]\ndeck = "A"\nkind = "special"\nname = "Special A49 (stand-in)"\neffect = "remove"\ncount = 1\n'
    text = standin_text().replace(head, head.replace("count = 1", "count = 9") + 'region = "ATLANTIS"\n')
    text = text.replace("white = 24", "white = 20", 1)
    lines = german_data(judge, turn_game(judge, "liberte"), "liberte", text)
    assert lines == ["Datendatei liberte nicht übernommen, 3 Problem(e):", "    Zeile | Karte | Feld | was erlaubt ist",
                     "    - | supply | - | das Spiel hat red 30, blue 28, white 24 Fraktionssteine, nicht red 30, "
                     "blue 28, white 20",
                     "    - | A49 | count | eine ganze Zahl von 1 bis 5, nicht 9",
                     "    - | A49 | region | keine Region: 'ATLANTIS'"]
    game = judge.store.game("turn3")
    assert game is not None and "data.liberte" not in game.options


def test_a_bad_1847_data_file_of_a_german_game_is_answered_in_german_as_a_table(judge: Table) -> None:
    """Issue 13 point 3: 1847's table checker words its finding from the
    catalogue; a German game reads it as a German table row."""
    from adjudicator.games.pfalz1847.data import template

    secret = turn_game(judge, "1847ae")
    text = template("companies").replace("certificates = [20, 10, 10, 10, 10, 10, 10, 10, 10]",
                                         "certificates = [20, 10, 10, 10, 10, 10, 10, 10]", 1)
    assert german_data(judge, secret, "companies", text) == [
        "Datendatei companies nicht übernommen, 1 Problem(e):", "    Zeile | Karte | Feld | was erlaubt ist",
        "    - | L | certificates | die Anteile ergeben zusammen 100 %, nicht 90 %"]
    assert german_data(judge, secret, "companies", template("bank")) == [
        "Datendatei companies nicht übernommen, 1 Problem(e):", "    Zeile | Karte | Feld | was erlaubt ist",
        "    - | [companies] | - | diese Tabelle fehlt"]
    game = judge.store.game("turn3")
    assert game is not None and "data.companies" not in game.options


@pytest.mark.parametrize(("variant", "name"), [("kreml4", "kreml"), ("liberte", "liberte"), ("1847ae", "companies")])
def test_a_data_file_that_is_no_toml_is_answered_in_german_with_its_line(judge: Table, variant: str, name: str) -> None:
    """Issue 13 point 3: a TOML syntax error in a GM's data file is one
    German table row with the line the parser names, for every game with
    data files (1848's cards: ``test_revolution1848_cardfile``)."""
    lines = german_data(judge, turn_game(judge, variant), name, '[meta]\nstandin = false\nname = "x\n')
    assert lines == [f"Datendatei {name} nicht übernommen, 1 Problem(e):", "    Zeile | Karte | Feld | was erlaubt ist",
                     "    3 | - | - | kein gültiges TOML ab Spalte 10 (Klammern, Anführungszeichen und = prüfen)"]


@pytest.mark.parametrize(("variant", "option", "expected"), [
    ("kreml4", "seniority A,B", "Option seniority: jeden Platz genau einmal nennen (A, B, C, D), nicht 'A,B'"),
    ("kreml4", "purges 7", "unbekannte Option 'purges' (Kreml kennt events, "),
    ("kreml4", "hr1 7", "Option hr1: 7 ist keine Variante (erlaubt: 1, 2, 3)"),
])
def test_a_refused_option_of_a_german_turn_game_is_answered_in_german(judge: Table, variant: str, option: str,
                                                                     expected: str) -> None:
    """Issue 13 point 3: Kreml's refusals of an option come as catalogue
    notes, worded in the game's language."""
    secret = turn_game(judge, variant)
    mail(judge, GM, [f"GAMEMASTER turn3 {secret}", "SL OPTION data standin"])
    lines = answer(mail(judge, GM, [f"GAMEMASTER turn3 {secret}", f"SL OPTION {option}"]))
    assert any(expected in line for line in lines), lines
    assert not any(word in line for line in lines for word in ("not a variant", "name every seat", "unknown option"))


def test_what_a_german_kreml_game_still_lacks_is_listed_by_the_templates_names(judge: Table) -> None:
    """Issue 13 point 3: the unknown tables of a German game waiting for
    its Kreml data are named by the template's table and field names, with
    no English prose."""
    lines = answer(mail(judge, GM, [f"GAMEMASTER turn3 {turn_game(judge, 'kreml4')}", "SL OPTION hr1 2"]))
    listed = lines[lines.index(next(line for line in lines if line.endswith("unbekannt:"))) + 1:]
    assert [line.strip() for line in listed[:4]] == [
        "[[politician]]: name, age, favoured, hated", "[health] normal", "[health] cure",
        "[[event]]: key, name_de, name_en, count, phases, effect, value (or: events=off)"]
