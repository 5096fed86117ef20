"""The check every game's rulings document passes (docs/games/<game>.md):
its rulings are numbered 1, 2, 3, ..., each names the test that states it
(``test_ruling_NN_...`` in the game's rules test module), and every ruling
test of that module is listed; the files it names exist."""

from __future__ import annotations

import re
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent


def check_rulings(doc: Path, tests: ModuleType) -> int:
    """Assert the document's rulings against ``tests``; the number of rulings."""
    text = doc.read_text(encoding="utf-8")
    rulings = re.findall(r"^\*\*(\d+)\. (.*?)(?=^\*\*\d+\. |^## |\Z)", text, flags=re.MULTILINE | re.DOTALL)
    assert [int(number) for number, _ in rulings] == list(range(1, len(rulings) + 1))
    for number, body in rulings:
        names = re.findall(r"`(test_ruling_(\d+)_\w+)`", body)
        assert names, f"ruling {number} names no test"
        for name, named_number in names:
            assert int(named_number) == int(number), f"ruling {number} names {name}"
            assert hasattr(tests, name), f"ruling {number} names {name}, which does not exist"
    listed = set(re.findall(r"test_ruling_\d+_\w+", text))
    for name in dir(tests):
        if name.startswith("test_ruling_"):
            assert name in listed, f"{name} is not listed in {doc.name}"
    return len(rulings)


def check_files(doc: Path, paths: tuple[str, ...]) -> None:
    """Assert that the document names each path and that each exists."""
    text = doc.read_text(encoding="utf-8")
    for path in paths:
        assert path in text and (ROOT / path).is_file(), path
