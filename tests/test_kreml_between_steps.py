"""Kreml's reveals by a player who is not to act, through the judge's
intake (a real SQLite store, a real ``Judge``): the reveal is acknowledged
to its sender with when it will apply, stays secret while the current step
waits, and takes effect at the start of the next step, whoever acts then
(ruling 1, Hausregel 3)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from adjudicator.games.kreml import events
from tests.test_kreml_service import MODULE, KremlTable
from tests.test_revolution1848_service import Mail

NESTOR = "Nestor Aparatschik"


@pytest.fixture
def table(tmp_path: Path) -> Iterator[KremlTable]:
    made = KremlTable(tmp_path)
    yield made
    made.store.close()


def _note(first: str, others: list[str]) -> list[str]:
    """A note with ``first`` at 10 points and nine of ``others`` below."""
    chosen = [first] + [n for n in others if n != first][:9]
    return [f"NOTIZ {name} {10 - index}" for index, name in enumerate(chosen)]


def _holder(state: dict, office: str) -> str:
    return next(n for n, e in state["pol"].items() if e["where"] == office)


def _take_cards(table: KremlTable) -> None:
    """Every player takes the first event card left, the oldest first."""
    while table.state("moskau")["step"]["kind"] == "pick":
        state = table.state("moskau")
        table.mail("moskau", MODULE.must_act(state)[0], ["NEHMEN " + events.supply(state)[0]])


def _texts(mails: list[Mail], who: str) -> str:
    return "\n".join(m.text for m in mails if m.to == who)


def _to_the_purges(table: KremlTable) -> tuple[str, str]:
    """A game in which A leads the KGB chief, B has 10 points on the defence
    minister, and the KGB chief's purges wait for A; the two names."""
    table.create("moskau")
    for player in MODULE.powers():
        table.mail("moskau", player, [])
    state = table.state("moskau")
    kgb, defence = _holder(state, "kgb"), _holder(state, "defence")
    others = [n for n in state["pol"] if n not in (NESTOR, kgb, defence)]
    notes = {"A": _note(kgb, others), "B": _note(defence, others), "C": _note(others[0], others[1:]),
             "D": _note(others[1], others[2:])}
    for player in MODULE.powers():
        table.mail("moskau", player, notes[player])
    _take_cards(table)
    table.mail("moskau", "A", [f"OFFENLEGEN {kgb} 10", "WEITER"])
    for player in ("B", "C", "D"):
        table.mail("moskau", player, ["WEITER"])
    return kgb, defence


def test_a_reveal_by_a_player_not_to_act_takes_effect_at_the_next_step_and_stays_secret(table: KremlTable) -> None:
    _, defence = _to_the_purges(table)
    state = table.state("moskau")
    assert state["step"]["kind"] == "purge" and MODULE.must_act(state) == ("A",)
    waiting = state["phase"]

    # B is not to act: his reveal is acknowledged with when it applies, and nothing changes yet.
    assert events.hand(state, "B") == ["kurort"]
    answer = table.mail("moskau", "B", [f"OFFENLEGEN {defence} 10", f"EREIGNIS kurort {NESTOR}"])
    ack = next(m for m in answer if m.to == "b@players.test" and m.kind == "acknowledgement")
    assert f"OFFENLEGEN {defence} 10" in ack.text or f"REVEAL {defence} 10" in ack.text
    assert "2 Zug/Züge für den Beginn des nächsten Schritts angenommen" in ack.text and waiting in ack.text
    assert "vorgemerkt" not in ack.text  # not queued for B's own turn
    state = table.state("moskau")
    assert state["phase"] == waiting and defence not in state["leaders"]
    assert all(defence not in m.text for m in answer if m.to != "b@players.test")
    status = table.mail("moskau", "C", ["STATUS"])
    assert "Spielerin B legt" not in _texts(status, "c@players.test")

    # A ends his purges: at the start of phase 3 B leads the defence minister, who now acts.
    after = table.mail("moskau", "A", ["KEINE"])
    state = table.state("moskau")
    assert state["leaders"][defence] == ["B", 10]
    assert state["plays"] == [["B", "kurort", NESTOR]]  # the card waits for a step of its phases (1, 4)
    assert state["step"].get("actor") == defence and MODULE.must_act(state) == ("B",)
    told = _texts(after, "b@players.test")
    assert f"Spielerin B legt 10 Punkte auf {defence} offen" in told


def test_a_reveal_between_steps_can_be_withdrawn_before_it_applies(table: KremlTable) -> None:
    _, defence = _to_the_purges(table)
    table.mail("moskau", "B", [f"REVEAL {defence} 10"])
    table.mail("moskau", "B", ["ZURUECKNEHMEN"])
    table.mail("moskau", "A", ["KEINE"])
    assert defence not in table.state("moskau")["leaders"]
