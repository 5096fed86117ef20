"""Issue 20, point 1: the next mails of a poll are read ahead and their
password checks run in threads while the judge handles the mail before
them.  The mails are still handled one at a time in order with the same
answers; every wrong password still costs one full slow hash, and a
locked-out sender's mails cost none."""

from __future__ import annotations

import hashlib
import threading
from pathlib import Path

import pytest

from adjudicator.service import ahead, auth
from tests.test_service_commands import (  # noqa: F401 - fixtures
    POWERS,
    SIGNON_FAILED,
    Table,
    address,
    password,
    signon,
    started,
    table,
)

EVE = "eve@evil.test"


@pytest.fixture
def scrypt_threads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The thread of every slow hash the auth module runs (nothing remembered at the start)."""
    names: list[str] = []
    real = hashlib.scrypt
    lock = threading.Lock()

    def noting(*args: object, **kwargs: object) -> bytes:
        with lock:
            names.append(threading.current_thread().name)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(auth.hashlib, "scrypt", noting)
    auth.forget_verified()
    return names


def _batch(table: Table) -> None:
    """Mails of one poll: right and wrong passwords, a password change
    followed by sign-ons with the old and the new one, guesses by a
    stranger, an unknown game, a GM sign-on."""
    table.deliver(address("England"), f"{signon('England')}\nA Lon - Nth")
    table.deliver(address("France"), "SIGNON France spiel1 wrong-guess\nA Par - Bur")
    table.deliver(address("Germany"), f"{signon('Germany')}\nPASSWORD changed-pw-1")
    table.deliver(address("Italy"), f"{signon('Italy')}\nA Ven - Tyr")
    for guess in range(7):
        table.deliver(EVE, f"SIGNON Russia spiel1 guess-{guess}")
    table.deliver(address("Turkey"), "SIGNON Turkey spiel9 pw-turkey")
    table.deliver(address("Austria"), f"{signon('Austria')}\nA Vie - Gal")
    table.deliver("gm@pbem.test", "GAMEMASTER spiel1 not-the-gm-password")
    table.deliver(address("England"), f"{signon('England')}\nF Edi - Nwg")


def _changed_password_mails(table: Table) -> None:
    table.deliver(address("Germany"), f"{signon('Germany')}\nA Mun - Ruh")  # the old password: fails now
    table.deliver(address("Germany"), "SIGNON Germany spiel1 changed-pw-1\nA Ber - Kie")


def _answers(table: Table) -> list[tuple[str, str, str]]:
    return [(mail.to, mail.subject, mail.text) for mail in table.poll()]


def test_checks_ahead_give_the_same_answers_in_the_same_order(
        started: Table, tmp_path: Path, scrypt_threads: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """The same mails handled with checks run ahead and without: the same
    answers, in the same order, the same orders stored; with checks ahead
    the slow hashes ran in the pool's threads."""
    _batch(started)
    with_ahead = _answers(started)
    _changed_password_mails(started)
    with_ahead += _answers(started)
    assert any(name.startswith("password-check") for name in scrypt_threads)

    monkeypatch.setattr(ahead, "AHEAD", 0)  # as before: each mail read at its turn, checked there
    monkeypatch.setattr(ahead, "check_ahead", lambda pairs: 0)
    alone = Table(tmp_path / "alone")
    alone.create()
    alone.seat_everyone()
    auth.forget_verified()
    scrypt_threads.clear()
    _batch(alone)
    without = _answers(alone)
    _changed_password_mails(alone)
    without += _answers(alone)
    assert scrypt_threads and not any(name.startswith("password-check") for name in scrypt_threads)

    assert with_ahead == without
    assert [to for to, _, _ in with_ahead][:4] == [address(p) for p in ("England", "France", "Germany", "Italy")]
    germany = [text for to, _, text in with_ahead if to == address("Germany")]
    assert SIGNON_FAILED in germany[1] and SIGNON_FAILED not in germany[2]
    for table_ in (started, alone):
        assert table_.store.submissions("spiel1", "S1901M")["England"].orders == ("F EDI - NWG",)
        assert "Germany" in table_.store.submissions("spiel1", "S1901M")
    alone.store.close()


def test_a_wrong_password_costs_one_full_check_ahead_or_not(started: Table, scrypt_threads: list[str]) -> None:
    """A wrong password checked ahead is checked once (its answer taken,
    not hashed again) and never remembered: the same guess in the next
    poll pays the slow hash again."""
    started.deliver(address("England"), signon("England"))
    started.deliver(address("France"), "SIGNON France spiel1 wrong-guess")
    out = started.poll()
    assert SIGNON_FAILED in out.one("acknowledgement", address("France")).text
    assert len(scrypt_threads) == 2
    assert scrypt_threads[1].startswith("password-check")  # France's was checked ahead
    started.deliver(address("England"), signon("England"))
    started.deliver(address("France"), "SIGNON France spiel1 wrong-guess")
    out = started.poll()
    assert SIGNON_FAILED in out.one("acknowledgement", address("France")).text
    assert len(scrypt_threads) == 3  # England remembered, France's guess hashed again


def test_a_locked_out_sender_costs_no_slow_hash_ahead(started: Table, scrypt_threads: list[str]) -> None:
    """Once a stranger is locked out, his further guesses start no check,
    neither ahead nor when their turn comes."""
    for guess in range(auth_free_failures(started) + 1):
        started.deliver(EVE, f"SIGNON Russia spiel1 guess-{guess}")
        started.poll()
    assert started.store.auth_failures("sender:" + EVE)[1] is not None  # locked
    scrypt_threads.clear()
    started.deliver(address("England"), signon("England"))
    for guess in range(6):
        started.deliver(EVE, f"SIGNON Russia spiel1 later-guess-{guess}")
    out = started.poll()
    assert out.one("acknowledgement", address("England"))
    assert any(mail.to == EVE and "Not tried" in mail.text for mail in out)  # handled, not checked
    assert len(scrypt_threads) == 1  # England's alone


def test_a_mail_read_ahead_is_read_as_when_its_turn_comes(started: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each mail is read once (ahead or at its turn), by the judge's reader."""
    reads: list[bytes] = []
    real = started.judge.reader.read

    def counting(raw: bytes, *args: object) -> object:
        reads.append(raw)
        return real(raw, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(started.judge.reader, "read", counting)
    for power in POWERS:
        started.deliver(address(power), signon(power))
    assert len(started.poll()) == len(POWERS)
    assert len(reads) == len(POWERS) == len(set(reads))


def auth_free_failures(table: Table) -> int:
    return table.config.limits.auth_free_failures



def test_a_reader_failure_ahead_costs_the_mail_before_nothing(started: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    """When reading a later mail ahead fails (the worker could not start),
    the mail being handled is answered as usual and the later mail is
    read again at its turn."""
    real = started.judge.reader.read
    failed: list[bytes] = []

    def failing_once(raw: bytes, *args: object) -> object:
        if b"A Par - Bur" in raw and not failed:
            failed.append(raw)
            raise RuntimeError("the reading worker did not start")
        return real(raw, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(started.judge.reader, "read", failing_once)
    started.deliver(address("England"), f"{signon('England')}\nA Lon - Nth")
    started.deliver(address("France"), f"{signon('France')}\nA Par - Bur")
    out = started.poll()
    assert failed
    assert SIGNON_FAILED not in out.one("acknowledgement", address("England")).text
    assert "A PAR - BUR" in out.one("acknowledgement", address("France")).text
    assert started.store.submissions("spiel1", "S1901M")["France"].orders == ("A PAR - BUR",)


def test_with_the_reading_worker_the_mails_ahead_are_read_by_the_reading_thread(
        started: Table, tmp_path: Path, scrypt_threads: list[str]) -> None:
    """With the judge's reading worker the next mails are read in the
    reading thread while the judge handles the mail before them: the same
    answers, in the same order, as read in process; each mail read once."""
    from adjudicator.service.reader import ReaderProcess

    worker = ReaderProcess()
    reads: list[tuple[str, bytes]] = []
    real = worker.read

    def noting(raw: bytes, *args: object) -> object:
        reads.append((threading.current_thread().name, raw))
        return real(raw, *args)  # type: ignore[arg-type]

    worker.read = noting  # type: ignore[method-assign]
    started.judge.reader = worker
    try:
        _batch(started)
        threaded = _answers(started)
    finally:
        worker.close()
    assert reads and all(name.startswith("mail-reading") for name, _ in reads)
    assert len(reads) == len({raw for _, raw in reads}) == len(threaded)

    inline = Table(tmp_path / "inline")
    inline.create()
    inline.seat_everyone()
    auth.forget_verified()
    _batch(inline)
    assert _answers(inline) == threaded
    inline.store.close()
