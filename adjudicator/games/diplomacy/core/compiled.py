"""Which of the rules core's modules run compiled.

A regular install (``pip install .``) compiles the core's hot modules with
mypyc (``hatch_build.py`` at the repository's top); an editable install, or
a build without a C compiler, runs them all as Python source.  Benchmarks
print this beside their figures, so that a figure says what it measured.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import pkgutil
from pathlib import Path

_CORE = "adjudicator.games.diplomacy.core"


def compiled_modules() -> tuple[str, ...]:
    """The names (``movement``, ...) of the core's modules that Python finds as
    C extensions, in alphabetical order; empty when the core is source.
    Imports none of them."""
    folder = Path(__file__).resolve().parent
    names = sorted({module.name for module in pkgutil.iter_modules([str(folder)])})
    extension = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    compiled = []
    for name in names:
        spec = importlib.util.find_spec(f"{_CORE}.{name}")
        if spec is not None and (spec.origin or "").endswith(extension):
            compiled.append(name)
    return tuple(compiled)


def describe_core() -> str:
    """One line for a benchmark's header: compiled (and which modules) or source."""
    names = compiled_modules()
    if names:
        return f"rules core compiled with mypyc ({', '.join(names)})"
    return "rules core as Python source (an editable install, or a build without a C compiler; `pip install .` compiles it)"
