"""SHA-256 without loading OpenSSL when the process has not (issue 20).

``hashlib`` loads OpenSSL's library, some 10 M instructions: more than a
map's cache key (``adjudicator.usercache``) or the content hash of the one
mail ``adjudicator receive`` stores is worth.  CPython's own SHA-256
module (``_sha256``; ``_sha2`` from 3.12), the one ``hashlib`` falls back
to, gives the same digest; a process that has loaded ``hashlib`` (the
service, the password checks) goes on using it.
"""

from __future__ import annotations

import sys
from importlib import import_module
from typing import Any


def _builtin() -> Any:
    for name in ("_sha256", "_sha2"):  # 3.11, 3.12+
        try:
            return import_module(name).sha256
        except ImportError:
            continue
    return None


_BUILTIN = _builtin()


def sha256(data: bytes) -> Any:
    """The SHA-256 hash object of ``data`` (``hexdigest``, ``digest``), the
    same as ``hashlib.sha256(data)``: from ``hashlib`` when it is loaded
    or CPython has no SHA-256 module of its own, else from that module."""
    loaded = sys.modules.get("hashlib")
    if loaded is None and _BUILTIN is not None:
        return _BUILTIN(data)
    import hashlib

    return hashlib.sha256(data)
