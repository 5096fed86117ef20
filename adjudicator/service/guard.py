"""Limits on password guessing (docs/service.md S25).

Every failed authentication (a seat's sign-on, a game master's, the
administrator's) is counted in the database twice: for its target (the
seat, the game's GM, the administrator) and for the sender's address.
After ``limits.auth_free_failures`` failures a key is locked for
``limits.auth_lockout`` seconds, doubling with each further failure up to
``limits.auth_lockout_max``; while locked, attempts are not tried at all.
A target lock does not hold against the address the seat (or game) is
registered to, so a stranger cannot lock a player out of their own game.
A success clears both counts.  Counts live in the store, so a restart does
not reset them.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from adjudicator.config import Limits
from adjudicator.service.store import Connection, Store


def sender_key(address: str) -> str:
    """The counting key of a sender address."""
    return f"sender:{address.lower()}"


def target_key(kind: str, *words: str) -> str:
    """The counting key of a target: ``seat`` (game, power), ``gm`` (game)
    or ``admin``; words compare case-insensitively."""
    return ":".join([kind, *(" ".join(word.split()).lower() for word in words)])


def locked(store: Store, key: str, now: datetime) -> bool:
    """True while ``key`` is locked out."""
    _, until = store.auth_failures(key)
    return until is not None and datetime.fromisoformat(until) > now


def lockout(limits: Limits, failures: int) -> timedelta | None:
    """How long a key is locked after its ``failures``-th failure (None
    while it is within the free failures).  Pure."""
    beyond = failures - limits.auth_free_failures
    if beyond <= 0:
        return None
    seconds = min(limits.auth_lockout_max, limits.auth_lockout * 2 ** min(beyond - 1, 40))
    return timedelta(seconds=seconds)


def failed(store: Store, db: Connection, limits: Limits, key: str, now: datetime) -> None:
    """Count one failure of ``key`` (inside the mail's transaction)."""
    failures = store.auth_failures(key)[0] + 1
    pause = lockout(limits, failures)
    until = (now + pause).isoformat() if pause is not None else None
    store.save_auth_failures(db, key, failures, until, now.isoformat())


def succeeded(store: Store, db: Connection, key: str) -> None:
    """A successful authentication: the count of ``key`` starts again."""
    store.clear_auth_failures(db, key)
