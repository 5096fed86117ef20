"""Kreml's start mail through the judge's intake (issue 13 point 7): each
player learns his seat and seniority, what to do first (his secret note),
every office with its holder, the candidates, the first deadline and the
picture of the Politburo, in German and in English; nobody's note is in it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from adjudicator.service.turns import create_game
from tests.test_kreml_service import ADDRESS, MODULE, PASSWORD, KremlTable
from tests.test_revolution1848_service import GM, START, Mail


class EnglishTable(KremlTable):
    """The judge of ``KremlTable`` with an English game, seniority set by the GM."""

    def create(self, name: str) -> None:
        create_game(self.store, self.config, name, "kreml4", {"data": "standin", "language": "en",
                                                             "seniority": "C, A, D, B"}, START, gm=GM, seed=7)


@pytest.fixture
def german(tmp_path: Path) -> Iterator[KremlTable]:
    made = KremlTable(tmp_path)
    yield made
    made.store.close()


@pytest.fixture
def english(tmp_path: Path) -> Iterator[EnglishTable]:
    made = EnglishTable(tmp_path)
    yield made
    made.store.close()


def _start_mails(table: KremlTable) -> dict[str, Mail]:
    table.create("moskau")
    mails: list[Mail] = []
    for player in MODULE.powers():
        mails += table.mail("moskau", player, [])
    owner = {address: power for power, address in ADDRESS.items()}
    starts = {owner[m.to]: m for m in mails if m.kind == "start" and m.to in owner}
    assert sorted(starts) == list(MODULE.powers())
    return starts


def test_the_german_start_mail_gives_the_first_step_the_offices_the_deadline_and_the_picture(german: KremlTable) -> None:
    starts = _start_mails(german)
    state = german.state("moskau")
    kgb = next(n for n, e in state["pol"].items() if e["where"] == "kgb")
    candidates = [n for n, e in state["pol"].items() if e["where"] == "candidate"]
    for place, (power, mail) in enumerate(sorted(starts.items()), start=1):
        text = mail.text
        assert "Du spielst Spielerin " + power in text
        assert "ERSATZWERTE" in text
        assert "Zuerst deine geheime Notiz: 10 Zeilen NOTIZ <Politiker> <Punkte>" in text
        assert f"Dienstalter der Spielerinnen, von der ältesten an (Hausregel 3): A, B, C, D; du bist an Stelle {place}." in text
        assert "Parteichef: Nestor Aparatschik (" in text and "Jahre, +)" in text
        assert f"KGB-Chef: {kgb} ({state['pol'][kgb]['age']} Jahre)" in text
        assert "Kandidaten: " + ", ".join(candidates) in text
        assert "Danach nimmt jede Spielerin eine Ereigniskarte ihrer Wahl, die älteste zuerst (NEHMEN <Karte>); " \
               "zur Wahl (Karte xAnzahl [Phasen]): kurort x2 [1, 4]; grippe x2 [4]" in text
        assert "Phase 1950-notes, Frist " in text
        assert "hängt als " in text and ".png an" in text
        assert "Deine geheime Notiz" not in text and PASSWORD[power] not in text


def test_the_english_start_mail_says_the_same_in_english(english: EnglishTable) -> None:
    starts = _start_mails(english)
    text = starts["A"].text
    assert "You play Player A" in text and "STAND-IN VALUES" in text
    assert "First your secret note: 10 lines NOTE <politician> <points>, the points 1 to 10 once each, never " \
           "Nestor Aparatschik." in text
    assert "The players' seniority, from the oldest (Hausregel 3): C, A, D, B; you are number 2." in text
    assert "Party Chief: Nestor Aparatschik (age " in text and "Defence Minister: " in text
    assert "Then every player takes one event card of her choice, the oldest first (TAKE <card>)" in text
    assert "Phase 1950-notes, deadline " in text and "is attached as " in text
    assert "Zuerst" not in text and "Kandidaten" not in text
