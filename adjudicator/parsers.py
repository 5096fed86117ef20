"""Lark parsers analysed once per machine, not once per process (issue 20).

Building an LALR parser from a grammar (reading the grammar, computing
its tables) takes 40-60 ms each time a process starts; loading the result
from Lark's cache file (``Lark(..., cache=FILE)``) takes about 2 ms.
``lalr_parser`` keeps that file for each grammar of ``grammars/`` in the
user's cache folder: ``$ADJUDICATOR_CACHE_DIR``, else
``$XDG_CACHE_HOME/adjudicator``, else ``~/.cache/adjudicator`` (folder
``lark``); ``ADJUDICATOR_CACHE_DIR=off`` builds every parser afresh.

Lark's cache file is a pickle, which runs code when it is loaded, so it is
used only where nobody but this process's user can have written it: the
folder is made owner-only (0700) and must belong to the user, every folder
above it must belong to the user or to root and be writable by nobody
else (unless sticky, as ``/tmp``), and the file must be a regular file of
the user's that nobody else may write.  Anything else, or a folder that
cannot be made, and the parser is built without the cache.  The file's
name carries the SHA-256 of the grammar, the options, Lark's and Python's
versions (Lark checks the same key inside the file and rebuilds on a
mismatch or a damaged file, such as one another process is still
writing when two start at once).
"""

from __future__ import annotations

import hashlib
import os
import stat
import sys
from pathlib import Path
from typing import Any

from lark import Lark
from lark import __version__ as lark_version

from adjudicator.resources import grammar_path

CACHE_ENVIRONMENT = "ADJUDICATOR_CACHE_DIR"

_UNHASHED = ("transformer", "postlex", "lexer_callbacks", "edit_terminals")
"""Options that are objects of this process: passed to Lark, not part of the key (as in Lark's own key)."""


def lalr_parser(name: str, **options: Any) -> Lark:
    """An LALR parser of ``grammars/<name>.lark`` with Lark ``options``,
    the same as ``Lark(text, parser="lalr", **options)`` would build,
    loaded from the user's cache when a safe one exists (and written
    there when not).  Never fails for the cache's sake: without a usable
    cache folder or file the parser is built as usual."""
    text = grammar_path(name).read_text(encoding="utf-8")
    options = {"parser": "lalr", **options}
    folder = cache_folder()
    if folder is None:
        return Lark(text, **options)
    path = folder / f"{name}-{cache_key(text, options)}.lark"
    try:
        usable = _own_file(os.lstat(path))
    except FileNotFoundError:
        usable = True  # Lark writes it
    except OSError:
        usable = False
    return _cached(path, text, options) if usable else Lark(text, **options)


def cache_key(text: str, options: dict[str, Any]) -> str:
    """The key of a grammar's cache file: its text, the options that shape
    the parser, Lark's and Python's versions."""
    shaped = sorted((key, repr(value)) for key, value in options.items() if key not in _UNHASHED)
    material = "\0".join([text, repr(shaped), lark_version, "%d.%d" % sys.version_info[:2]])
    return hashlib.sha256(material.encode("utf-8")).hexdigest()[:32]


def _cached(path: Path, text: str, options: dict[str, Any]) -> Lark:
    """The parser from Lark's cache file ``path``, or built and written
    there (made the owner's only) when the file is missing, damaged or of
    another key.  Lark's key includes the file's name, so the file cannot
    be written under a temporary name and renamed."""
    parser = Lark(text, cache=str(path), **options)
    try:
        os.chmod(path, 0o600)
    except OSError:  # Lark could not write it (a full disk, a folder gone): no cache this time
        pass
    return parser


def cache_folder() -> Path | None:
    """The folder for parser caches, made owner-only if new; None when the
    cache is switched off or the folder is not safe to load code from."""
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
        folder = (base / "lark").absolute()
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


def _own_file(info: os.stat_result) -> bool:
    return stat.S_ISREG(info.st_mode) and _owned(info) and not info.st_mode & 0o022
