"""Passwords of players (and later game masters), kept only as salted
scrypt hashes; a check takes the same time whether or not a seat exists."""

from __future__ import annotations

import hashlib
import hmac
import secrets

_N, _R, _P = 2**14, 8, 1
_DUMMY = "scrypt$16384$8$1$00$00"


def hash_password(password: str, salt: bytes | None = None) -> str:
    """A storable hash ``scrypt$n$r$p$salt$hash`` of ``password``; a fresh
    random salt unless one is given."""
    salt = secrets.token_bytes(16) if salt is None else salt
    digest = hashlib.scrypt(password.encode("utf-8"), salt=salt, n=_N, r=_R, p=_P, dklen=32)
    return f"scrypt${_N}${_R}${_P}${salt.hex()}${digest.hex()}"


def check_password(password: str, stored: str | None) -> bool:
    """True when ``password`` matches the stored hash.  With no stored hash
    (an open seat, an unknown game) the work is done anyway against a dummy
    and the answer is False, so timing reveals nothing."""
    scheme, n, r, p, salt, digest = (stored or _DUMMY).split("$")
    if scheme != "scrypt":
        return False
    computed = hashlib.scrypt(
        password.encode("utf-8"), salt=bytes.fromhex(salt), n=int(n), r=int(r), p=int(p), dklen=32
    )
    return stored is not None and hmac.compare_digest(computed.hex(), digest)


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
