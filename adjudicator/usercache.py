"""The judge's cache of work that need not be redone in every process
(issue 20): the grammars' parser tables (``adjudicator.parsers``) and the
parsed data of TOML files (``load_toml``: the maps).

It lives in the user's cache folder: ``$ADJUDICATOR_CACHE_DIR``, else
``$XDG_CACHE_HOME/adjudicator``, else ``~/.cache/adjudicator``, one folder
per kind (``lark``, ``toml``); ``ADJUDICATOR_CACHE_DIR=off`` switches it
off.  What is cached there is loaded as code or as Python's internal
serialisation (Lark's pickle, ``marshal``), so it is used only where
nobody but this process's user can have written it: the folder is made
owner-only (0700) and must belong to the user, every folder above it must
belong to the user or to root and be writable by nobody else (unless
sticky, as ``/tmp``), and each file must be a regular file of the user's
that nobody else may write.  Anything else, or a folder that cannot be
made, and the work is done without the cache.  Each file is named by the
SHA-256 of what it was made from, so a changed source is never answered
from an old file.
"""

from __future__ import annotations

import marshal
import os
import stat
import sys
import tomllib
from pathlib import Path
from typing import Any

from adjudicator.digest import sha256

CACHE_ENVIRONMENT = "ADJUDICATOR_CACHE_DIR"


def load_toml(path: Path) -> dict[str, Any]:
    """The data of the TOML file ``path``, as ``tomllib.loads`` of its text
    gives it (``OSError`` and ``tomllib.TOMLDecodeError`` as there),
    from the cache when the same text was parsed before: a map's tables
    load in a fraction of a millisecond instead of 10-20 ms."""
    text = path.read_text(encoding="utf-8")
    folder = cache_folder("toml")
    if folder is None:
        return tomllib.loads(text)
    key = sha256(("%d.%d\0" % sys.version_info[:2] + text).encode("utf-8")).hexdigest()[:32]
    cached = folder / f"{key}.marshal"
    try:
        if own_file(os.lstat(cached)):
            data = marshal.loads(cached.read_bytes())
            if isinstance(data, dict):
                return data
    except (OSError, EOFError, ValueError, TypeError):  # missing or damaged: parsed and written again
        pass
    data = tomllib.loads(text)
    _write(cached, data)
    return data


def _write(path: Path, data: dict[str, Any]) -> None:
    """Write ``data`` owner-only under a temporary name and rename it into
    place, so no process reads a half-written file; nothing when the data
    holds what ``marshal`` cannot write (TOML dates) or the folder cannot
    be written."""
    try:
        encoded = marshal.dumps(data)
    except ValueError:
        return
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(handle, "wb") as out:
            out.write(encoded)
        os.replace(temporary, path)
    except OSError:
        try:
            os.unlink(temporary)
        except OSError:
            pass


def cache_folder(kind: str) -> Path | None:
    """The folder ``kind`` of the user's cache, made owner-only if new;
    None when the cache is switched off or the folder is not safe to load
    code from (see the module's text)."""
    configured = os.environ.get(CACHE_ENVIRONMENT, "")
    if configured.lower() == "off":
        return None
    try:
        if configured:
            base = Path(configured)
        elif os.environ.get("XDG_CACHE_HOME"):
            base = Path(os.environ["XDG_CACHE_HOME"]) / "adjudicator"
        else:
            base = Path.home() / ".cache" / "adjudicator"
        folder = (base / kind).absolute()
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = os.lstat(folder)
        if not stat.S_ISDIR(info.st_mode) or not _owned(info):
            return None
        if info.st_mode & 0o077:
            os.chmod(folder, 0o700)
        real = folder.resolve(strict=True)
        if real != folder and not _owned(os.lstat(real)):
            return None
        if not all(_guarded(os.lstat(above)) for above in real.parents):
            return None
    except (OSError, RuntimeError):  # no home folder, no permission, a loop of links
        return None
    return real


def _owned(info: os.stat_result) -> bool:
    return not hasattr(os, "getuid") or info.st_uid == os.getuid()


def _guarded(info: os.stat_result) -> bool:
    """A folder above the cache: the user's or root's, and nobody else can
    rename its entries (not writable by others, or sticky)."""
    if hasattr(os, "getuid") and info.st_uid not in (0, os.getuid()):
        return False
    return not info.st_mode & 0o022 or bool(info.st_mode & stat.S_ISVTX)


def own_file(info: os.stat_result) -> bool:
    """True for a regular file of this user's that nobody else may write."""
    return stat.S_ISREG(info.st_mode) and _owned(info) and not info.st_mode & 0o022
