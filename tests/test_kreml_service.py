"""Kreml through the judge's mail path, in process: a real SQLite store, a
real ``Judge``, a list as its mailbox.  Four players play a whole game with
the stand-in data by mail; no mail shows a player another player's secret
note before the end; every report says that the values are stand-ins."""

from __future__ import annotations

import hashlib
import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from adjudicator import records
from adjudicator.games.kreml.module import KremlGame
from adjudicator.service.turns import create_game
from tests.kreml_bots import bot_lines
from tests.test_revolution1848_service import GM, START, Mail, Table

MODULE = KremlGame("kreml4")
ADDRESS = {p: f"{p.lower()}@players.test" for p in MODULE.powers()}
PASSWORD = {p: f"pw-{p.lower()}-seat" for p in MODULE.powers()}


class KremlTable(Table):
    """The judge of ``Table`` with a Kreml game."""

    def create(self, name: str) -> None:
        create_game(self.store, self.config, name, "kreml4", {"data": "standin", "language": "de"}, START, gm=GM,
                    seed=7)

    def state(self, name: str) -> dict:
        record = self.store.game(name)
        assert record is not None
        return record.state

    def cheap_passwords(self, name: str) -> None:
        """Store the seats' password hashes with a small scrypt cost: the
        judge checks a hash with the parameters it names, and a game of
        hundreds of mails should not spend minutes on key stretching."""
        with self.store.transaction() as db:
            for seat in self.store.players(name):
                if seat.password_hash:
                    salt = bytes(16)
                    digest = hashlib.scrypt(PASSWORD[seat.power].encode(), salt=salt, n=16, r=8, p=1, dklen=32)
                    self.store.update_player(db, records.replace(
                        seat, password_hash=f"scrypt$16$8$1${salt.hex()}${digest.hex()}"))

    def mail(self, name: str, player: str, lines: list[str]) -> list[Mail]:
        return self.send(ADDRESS[player], f"SIGNON {player} {name} {PASSWORD[player]}", *lines)


@pytest.fixture
def table(tmp_path: Path) -> Iterator[KremlTable]:
    made = KremlTable(tmp_path)
    yield made
    made.store.close()


def test_a_whole_game_by_mail_between_four_players(table: KremlTable) -> None:
    table.create("moskau")
    received: dict[str, list[Mail]] = {p: [] for p in (*MODULE.powers(), "GM")}
    owner = {address: power for power, address in ADDRESS.items()} | {GM: "GM"}
    for player in MODULE.powers():
        for mail in table.mail("moskau", player, []):
            received[owner[mail.to]].append(mail)
    table.cheap_passwords("moskau")
    rng = random.Random(7)
    for _ in range(2000):
        record = table.store.game("moskau")
        assert record is not None
        if record.status == "finished":
            break
        state = record.state
        seats = MODULE.must_act(state)
        assert seats, state["step"]
        for player in seats:  # each seat of the step answers (one, or everyone for notes and votes)
            for mail in table.mail("moskau", player, bot_lines(MODULE, state, player, rng, brief=0.7)):
                received[owner[mail.to]].append(mail)
    record = table.store.game("moskau")
    assert record is not None and record.status == "finished", record.phase if record else None
    notes = record.state["notes"]
    told = [m for mails in received.values() for m in mails if m.kind in ("turn", "digest", "report")]
    kinds = {m.kind for m in told}
    assert {"turn", "digest", "report"} <= kinds and len(told) > 20
    assert all("Ersatzwerte" in m.text or "ERSATZWERTE" in m.text for m in told)  # every report says it
    assert any("W20 = " in m.text for m in told) and any("Oktoberparade" in m.text for m in told)
    reports = [m for m in told if m.kind == "report"]
    for player, mails in received.items():
        for mail in mails if player != "GM" else ():
            if "Die geheimen Notizen:" in mail.text:
                continue  # the last report shows every note
            shown = re.findall(r"Deine geheime Notiz: ([^\n]*)", mail.text)
            for line in shown:
                top = max(notes[player], key=lambda n: notes[player][n])
                assert line.startswith(f"{top} 10"), (player, line)
    turns = [m for m in received["A"] if m.kind == "turn"]
    assert turns and all("ERSATZWERTE" in m.text or "Ersatzwerte" in m.text for m in turns)
    assert any(" – " in m.text and "Parteichef: " in m.text for m in turns)
    last = [m for m in reports if "Die geheimen Notizen:" in m.text]
    assert len(last) == 5  # every player and the game master
    assert not any("Deine geheime Notiz" in m.text for m in received["GM"])
