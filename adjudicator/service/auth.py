"""Passwords of players and game masters, kept only as salted scrypt
hashes; a check takes the same time whether or not a seat exists.

A successful check is remembered for the life of the process (issue 20):
the next check of the same password against the same stored hash costs
one HMAC instead of one scrypt.  What is remembered is a keyed digest of
(stored hash, password) under a random key made at start-up, never the
password: a changed password (a new hash with a new salt) matches none of
it, and a failed check is never remembered, so every wrong guess still
pays the full slow hash (and the limits of ``guard.py`` apply before any
check is made).  ``hashlib.scrypt`` releases the GIL, so checks made in
other threads run on other cores: ``check_ahead`` starts checks in a pool
of threads (one per core) before they are asked for (the judge does so
for the next mails of a poll), and ``check_password`` then takes the
answer of the check started ahead instead of hashing again: the same
answer, the slow hash paid once, in another thread."""

from __future__ import annotations

import hashlib
import hmac
import os
import threading
from collections import OrderedDict
from collections.abc import Iterable
from typing import TYPE_CHECKING

# The pool of threads (and the logging it imports) comes with the first
# check started ahead: ``hash-password`` and ``game create`` hash once and
# start no pool (issue 20).
if TYPE_CHECKING:
    from concurrent.futures import Future, ThreadPoolExecutor

_N, _R, _P = 2**14, 8, 1
_DUMMY = "scrypt$16384$8$1$00$00"

VERIFIED_LIMIT = 100_000
"""How many verified (hash, password) pairs a process remembers at most
(the least recently used is forgotten first); 32 bytes each."""

_KEY = os.urandom(32)  # what secrets.token_bytes(32) returns, without importing random and base64 (issue 20)
_VERIFIED: OrderedDict[bytes, None] = OrderedDict()
_VERIFIED_LOCK = threading.Lock()


def _token(password: str, stored: str) -> bytes:
    """The keyed digest that stands for "``password`` matched ``stored``"."""
    return hmac.new(_KEY, stored.encode("utf-8") + b"\0" + password.encode("utf-8"), hashlib.sha256).digest()


def _remembered(token: bytes) -> bool:
    with _VERIFIED_LOCK:
        if token not in _VERIFIED:
            return False
        _VERIFIED.move_to_end(token)
        return True


def _remember(token: bytes) -> None:
    with _VERIFIED_LOCK:
        _VERIFIED[token] = None
        _VERIFIED.move_to_end(token)
        while len(_VERIFIED) > VERIFIED_LIMIT:
            _VERIFIED.popitem(last=False)


AHEAD_LIMIT = 64
"""How many checks started ahead may wait to be asked for at most."""

_AHEAD: dict[bytes, Future[bool]] = {}
_AHEAD_LOCK = threading.Lock()
_POOL: list[ThreadPoolExecutor] = []


def _pool() -> ThreadPoolExecutor:
    from concurrent.futures import ThreadPoolExecutor

    with _AHEAD_LOCK:
        if not _POOL:
            _POOL.append(ThreadPoolExecutor(max_workers=os.cpu_count() or 2, thread_name_prefix="password-check"))
        return _POOL[0]


def check_ahead(pairs: Iterable[tuple[str, str]]) -> int:
    """Start the check of each (password, stored hash) in the pool of
    threads unless it matched before (remembered) or is already under
    way; the next ``check_password`` of the same pair takes its answer.
    At most ``AHEAD_LIMIT`` checks wait at once.  Returns how many were
    started."""
    started = 0
    for password, stored in pairs:
        token = _token(password, stored)
        with _AHEAD_LOCK:
            if token in _AHEAD or len(_AHEAD) >= AHEAD_LIMIT:
                continue
        if _remembered(token):
            continue
        future = _pool().submit(_slow_check, password, stored, token)
        with _AHEAD_LOCK:
            _AHEAD[token] = future
        started += 1
    return started


def forget_ahead() -> None:
    """Drop the checks started ahead that nobody asked for (those not yet
    running are cancelled; a running one that matches is still remembered)."""
    with _AHEAD_LOCK:
        futures = list(_AHEAD.values())
        _AHEAD.clear()
    for future in futures:
        future.cancel()


def _taken_ahead(token: bytes) -> Future[bool] | None:
    with _AHEAD_LOCK:
        return _AHEAD.pop(token, None)


def is_remembered(password: str, stored: str) -> bool:
    """True when ``password`` matched ``stored`` before in this process
    (its next check costs no slow hash)."""
    return _remembered(_token(password, stored))


def forget_verified() -> None:
    """Forget every remembered successful check (each costs a slow hash again)."""
    with _VERIFIED_LOCK:
        _VERIFIED.clear()


def hash_password(password: str, salt: bytes | None = None) -> str:
    """A storable hash ``scrypt$n$r$p$salt$hash`` of ``password``; a fresh
    random salt unless one is given."""
    salt = os.urandom(16) if salt is None else salt  # as secrets.token_bytes(16)
    digest = hashlib.scrypt(password.encode("utf-8"), salt=salt, n=_N, r=_R, p=_P, dklen=32)
    return f"scrypt${_N}${_R}${_P}${salt.hex()}${digest.hex()}"


def check_password(password: str, stored: str | None) -> bool:
    """True when ``password`` matches the stored hash.  With no stored hash
    (an open seat, an unknown game) the work is done anyway against a dummy
    and the answer is False, so timing reveals nothing.  A password that
    matched this stored hash before in this process is accepted without
    the slow hash (see the module's docstring); a wrong one always pays it."""
    token = _token(password, stored) if stored is not None else None
    if token is not None:
        if _remembered(token):
            return True
        ahead = _taken_ahead(token)
        if ahead is not None and not ahead.cancelled():
            return ahead.result()
    return _slow_check(password, stored, token)


def _slow_check(password: str, stored: str | None, token: bytes | None) -> bool:
    """The slow hash of ``password`` compared with ``stored`` (the dummy
    when None: False); a match is remembered under ``token``."""
    scheme, n, r, p, salt, digest = (stored or _DUMMY).split("$")
    if scheme != "scrypt":
        return False
    computed = hashlib.scrypt(
        password.encode("utf-8"), salt=bytes.fromhex(salt), n=int(n), r=int(r), p=int(p), dklen=32
    )
    matched = stored is not None and hmac.compare_digest(computed.hex(), digest)
    if matched and token is not None:
        _remember(token)
    return matched


def is_password_hash(text: str) -> bool:
    """True when ``text`` is a hash as ``hash_password`` writes it (so a
    configuration may give the administrator password as a hash)."""
    parts = text.split("$")
    return len(parts) == 6 and parts[0] == "scrypt" and all(p.isdigit() for p in parts[1:4])


_CONFIGURED: dict[str, str] = {}


def check_admin_password(password: str, configured: str) -> bool:
    """True when ``password`` is the administrator password ``configured``
    (a hash, or the password itself, then hashed once per process): the
    same slow hash as every other password, so guessing it costs as much."""
    if not configured:
        check_password(password, None)
        return False
    stored = configured if is_password_hash(configured) else _CONFIGURED.get(configured)
    if stored is None:
        stored = _CONFIGURED.setdefault(configured, hash_password(configured))
    return check_password(password, stored)
