"""Lark parsers analysed once per machine, not once per process (issue 20).

Building an LALR parser from a grammar (reading the grammar, computing
its tables) takes 40-60 ms each time a process starts; loading the result
from Lark's cache file (``Lark(..., cache=FILE)``) takes about 2 ms.
``lalr_parser`` keeps that file for each grammar of ``grammars/`` in the
judge's cache (``adjudicator.usercache``, folder ``lark``), used only
when nobody but the user can have written it: Lark's cache file is a
pickle, which runs code when it is loaded.  The file's name carries the
SHA-256 of the grammar, the options, Lark's and Python's versions (Lark
checks the same key inside the file and rebuilds on a mismatch or a
damaged file, such as one another process is still writing when two
start at once).
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # Lark itself is imported when a parser is built: importing a game's rules needs none (S49)
    from lark import Lark

from adjudicator.resources import grammar_path
from adjudicator.usercache import cache_folder, own_file

_UNHASHED = ("transformer", "postlex", "lexer_callbacks", "edit_terminals")
"""Options that are objects of this process: passed to Lark, not part of the key (as in Lark's own key)."""


def lalr_parser(name: str, **options: Any) -> Lark:
    """An LALR parser of ``grammars/<name>.lark`` with Lark ``options``,
    the same as ``Lark(text, parser="lalr", **options)`` would build,
    loaded from the user's cache when a safe one exists (and written
    there when not).  Never fails for the cache's sake: without a usable
    cache folder or file the parser is built as usual."""
    from lark import Lark

    text = grammar_path(name).read_text(encoding="utf-8")
    options = {"parser": "lalr", **options}
    folder = cache_folder("lark")
    if folder is None:
        return Lark(text, **options)
    path = folder / f"{name}-{cache_key(text, options)}.lark"
    try:
        usable = own_file(os.lstat(path))
    except FileNotFoundError:
        usable = True  # Lark writes it
    except OSError:
        usable = False
    return _cached(path, text, options) if usable else Lark(text, **options)


def cache_key(text: str, options: dict[str, Any]) -> str:
    """The key of a grammar's cache file: its text, the options that shape
    the parser, Lark's and Python's versions."""
    from lark import __version__ as lark_version

    shaped = sorted((key, repr(value)) for key, value in options.items() if key not in _UNHASHED)
    material = "\0".join([text, repr(shaped), lark_version, "%d.%d" % sys.version_info[:2]])
    return hashlib.sha256(material.encode("utf-8")).hexdigest()[:32]


def _cached(path: Path, text: str, options: dict[str, Any]) -> Lark:
    """The parser from Lark's cache file ``path``, or built and written
    there (made the owner's only) when the file is missing, damaged or of
    another key.  Lark's key includes the file's name, so the file cannot
    be written under a temporary name and renamed."""
    from lark import Lark

    parser = Lark(text, cache=str(path), **options)
    try:
        os.chmod(path, 0o600)
    except OSError:  # Lark could not write it (a full disk, a folder gone): no cache this time
        pass
    return parser
