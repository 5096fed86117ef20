"""docs/games/1848.md stays true: its rulings are numbered 1, 2, 3, ...,
each names the test that states it, and every ruling test is listed."""

from __future__ import annotations

import re
from pathlib import Path

from tests import test_revolution1848_rules

DOC = Path(__file__).resolve().parent.parent / "docs" / "games" / "1848.md"


def test_every_ruling_is_numbered_and_names_its_test() -> None:
    text = DOC.read_text(encoding="utf-8")
    rulings = re.findall(r"^\*\*(\d+)\. (.*?)(?=^\*\*\d+\. |^## |\Z)", text, flags=re.MULTILINE | re.DOTALL)
    assert [int(number) for number, _ in rulings] == list(range(1, len(rulings) + 1))
    for number, body in rulings:
        names = re.findall(r"`(test_ruling_(\d+)_\w+)`", body)
        assert names, f"ruling {number} names no test"
        for name, named_number in names:
            assert int(named_number) == int(number), f"ruling {number} names {name}"
            assert hasattr(test_revolution1848_rules, name), f"ruling {number} names {name}, which does not exist"
    listed = set(re.findall(r"test_ruling_\d+_\w+", text))
    for name in dir(test_revolution1848_rules):
        if name.startswith("test_ruling_"):
            assert name in listed, f"{name} is not listed in docs/games/1848.md"


def test_the_grammar_and_the_data_file_named_by_the_doc_exist() -> None:
    root = DOC.parent.parent.parent
    text = DOC.read_text(encoding="utf-8")
    for path in ("cards/1848.toml", "grammars/1848.lark", "templates/revolution1848_report.txt.j2",
                 "templates/revolution1848_report.html.j2", "tests/revolution1848/complete_cards.toml"):
        assert path in text and (root / path).is_file(), path
