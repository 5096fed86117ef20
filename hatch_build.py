"""Wheel build hook: the Diplomacy rules core compiled with mypyc.

A regular wheel (``pip install .``, ``pip wheel .``) carries the modules
of ``COMPILED`` both as source and as C extensions built by mypyc from
that same source; Python imports the extensions.  They are the same rules
(the package is typed strictly, and ``tests/test_packaging.py`` plays the
DATC and random phases on the compiled build), about 1.5 times faster.

An editable install (``pip install -e .``) is never compiled: the source
tree stays the code that runs, so an edit takes effect at once.

Without a C compiler or the Python headers the wheel is pure Python (a
warning says so), unless ``ADJUDICATOR_REQUIRE_COMPILED=1`` makes that an
error; ``ADJUDICATOR_PURE_PYTHON=1`` skips compiling.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

COMPILED = (
    "adjudicator/games/diplomacy/core/board.py",
    "adjudicator/games/diplomacy/core/legality.py",
    "adjudicator/games/diplomacy/core/movement.py",
    "adjudicator/games/diplomacy/core/tally.py",
)
"""The modules compiled: the board, legality, resolution and the end-of-turn
count (the rules core's hot path; none uses a dynamic trick mypyc refuses)."""

# Run in a child process (setuptools' ``setup`` is not meant to be called
# twice in one process): build the extensions of the files named in argv
# into argv[1], with the C sources and objects in argv[2].  The build
# environment has none of the package's dependencies: the modules the
# compiled ones import are read for their types only (their own errors, and
# Lark's and Pillow's absence, are not this build's business; the test
# suite type-checks the whole package strictly).
_BUILD = """
import sys
from setuptools import setup
from mypyc.build import mypycify
out, work, *paths = sys.argv[1:]
options = ["--follow-imports=silent", "--ignore-missing-imports"]
setup(
    name="adjudicator-core", packages=[], py_modules=[],
    ext_modules=mypycify([*options, *paths], opt_level="3", target_dir=work),
    script_args=["build_ext", "--build-lib", out, "--build-temp", work],
)
"""


def compile_core(root: Path, out: Path) -> list[Path]:
    """Compile ``COMPILED`` (relative to ``root``) into ``out``; returns the
    built extension files, relative to ``out`` (their place in a wheel).
    Raises ``RuntimeError`` with the compiler's output when it fails."""
    with tempfile.TemporaryDirectory(prefix="adjudicator-mypyc-") as work:
        env = {**os.environ, "MYPY_CACHE_DIR": str(Path(work) / "mypy-cache")}
        done = subprocess.run(
            [sys.executable, "-c", _BUILD, str(out), work, *COMPILED],
            cwd=root, env=env, capture_output=True, text=True,
        )
    if done.returncode != 0:
        raise RuntimeError(f"mypyc failed:\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}")
    return sorted(path.relative_to(out) for path in out.rglob("*.so"))


class CompiledCoreHook(BuildHookInterface):  # type: ignore[misc, type-arg, unused-ignore]
    """Adds the compiled core to a regular wheel (see the module's docstring)."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        """Compile and add the extensions, unless editable or told not to."""
        self._out: Path | None = None
        if version == "editable" or os.environ.get("ADJUDICATOR_PURE_PYTHON") == "1":
            return
        out = Path(tempfile.mkdtemp(prefix="adjudicator-compiled-"))
        try:
            built = compile_core(Path(self.root), out)
        except (OSError, RuntimeError) as error:
            shutil.rmtree(out, ignore_errors=True)
            if os.environ.get("ADJUDICATOR_REQUIRE_COMPILED") == "1":
                raise
            warnings.warn(f"the rules core stays pure Python (slower): {error}", stacklevel=1)
            return
        self._out = out
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
        for path in built:
            build_data["force_include"][str(out / path)] = str(path)

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        """Remove the extensions' build folder."""
        if self._out is not None:
            shutil.rmtree(self._out, ignore_errors=True)
