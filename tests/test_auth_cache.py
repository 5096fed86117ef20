"""Issue 20, point 1: a verified password is remembered per process, keyed
so that a changed password invalidates it; failures always pay the slow
hash; nothing of the clear password is kept."""

from __future__ import annotations

import threading

import pytest

from adjudicator.service import auth


def test_a_verified_password_costs_one_slow_hash_once(scrypt_calls: list[int]) -> None:
    """The second check of the right password against the same hash runs no scrypt."""
    stored = auth.hash_password("right-password")
    scrypt_calls.clear()
    assert auth.check_password("right-password", stored)
    assert auth.check_password("right-password", stored)
    assert scrypt_calls == [2**14]


def test_a_wrong_password_always_pays_the_slow_hash(scrypt_calls: list[int]) -> None:
    """Failures are never remembered: each wrong guess runs one scrypt,
    also after the right password was verified."""
    stored = auth.hash_password("right-password")
    assert auth.check_password("right-password", stored)
    scrypt_calls.clear()
    for _ in range(3):
        assert not auth.check_password("wrong-password", stored)
    assert not auth.check_password("right-password", None)
    assert scrypt_calls == [2**14] * 4


def test_a_changed_password_invalidates_what_was_remembered(scrypt_calls: list[int]) -> None:
    """After a PASSWORD change (a new hash) the old password fails, paying
    the slow hash, and the new one is checked in full once."""
    old = auth.hash_password("old-password")
    assert auth.check_password("old-password", old)
    new = auth.hash_password("new-password")
    scrypt_calls.clear()
    assert not auth.check_password("old-password", new)
    assert auth.check_password("new-password", new) and auth.check_password("new-password", new)
    assert scrypt_calls == [2**14, 2**14]
    # the same password hashed again (a new salt) is a new hash: checked in full
    again = auth.hash_password("old-password")
    scrypt_calls.clear()
    assert auth.check_password("old-password", again)
    assert scrypt_calls == [2**14]


def test_what_is_remembered_holds_no_password(scrypt_calls: list[int]) -> None:
    """The memory of verified checks holds keyed digests only: neither the
    password nor the stored hash is in it."""
    stored = auth.hash_password("secret-words-1")
    assert auth.check_password("secret-words-1", stored)
    entries = list(auth._VERIFIED)
    assert len(entries) == 1 and len(entries[0]) == 32
    assert b"secret-words-1" not in entries[0] and stored.encode() not in entries[0]


def test_the_memory_is_bounded(scrypt_calls: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    """Beyond ``VERIFIED_LIMIT`` the least recently used success is forgotten."""
    monkeypatch.setattr(auth, "VERIFIED_LIMIT", 2)
    hashes = [auth.hash_password(f"password-{n}", salt=bytes([n]) * 16) for n in range(3)]
    for n, stored in enumerate(hashes):
        assert auth.check_password(f"password-{n}", stored)
    scrypt_calls.clear()
    assert auth.check_password("password-2", hashes[2]) and auth.check_password("password-1", hashes[1])
    assert scrypt_calls == []
    assert auth.check_password("password-0", hashes[0])
    assert scrypt_calls == [2**14]


def test_checks_in_threads_agree(scrypt_calls: list[int]) -> None:
    """Checks may run in several threads at once (scrypt releases the GIL):
    each answers as alone."""
    stored = auth.hash_password("threaded-password")
    answers: list[bool] = []
    lock = threading.Lock()

    def check(password: str) -> None:
        result = auth.check_password(password, stored)
        with lock:
            answers.append(result == (password == "threaded-password"))

    threads = [threading.Thread(target=check, args=(p,)) for p in ("threaded-password", "nope-nope", "threaded-password")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert answers == [True, True, True]
