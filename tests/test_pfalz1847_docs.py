"""docs/games/1847ae.md stays true: its rulings are numbered 1, 2, 3, ...,
each has a question, decision, reason and names the test that states it,
every ruling test is listed, and the files it names exist."""

from __future__ import annotations

import re
from pathlib import Path

from tests import test_pfalz1847_rules

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "games" / "1847ae.md"


def test_every_ruling_is_numbered_and_names_its_test() -> None:
    text = DOC.read_text(encoding="utf-8")
    rulings = re.findall(r"^\*\*(\d+)\. (.*?)(?=^\*\*\d+\. |^## |\Z)", text, flags=re.MULTILINE | re.DOTALL)
    assert [int(number) for number, _ in rulings] == list(range(1, len(rulings) + 1))
    assert len(rulings) >= 30
    for number, body in rulings:
        for part in ("Question:", "Decision:", "Reason:", "Test:"):
            assert part in body, f"ruling {number} lacks {part}"
        names = re.findall(r"`(test_ruling_(\d+)_\w+)`", body)
        assert names, f"ruling {number} names no test"
        for name, named_number in names:
            assert int(named_number) == int(number), f"ruling {number} names {name}"
            assert hasattr(test_pfalz1847_rules, name), f"ruling {number} names {name}, which does not exist"
    listed = set(re.findall(r"test_ruling_\d+_\w+", text))
    for name in dir(test_pfalz1847_rules):
        if name.startswith("test_ruling_"):
            assert name in listed, f"{name} is not listed in docs/games/1847ae.md"


def test_the_files_named_by_the_doc_exist() -> None:
    text = DOC.read_text(encoding="utf-8")
    for path in ("cards/1847ae.toml", "cards/1847ae_standin.toml", "grammars/pfalz1847.lark",
                 "templates/pfalz1847_report.txt.j2", "templates/pfalz1847_report.html.j2",
                 "templates/texts/pfalz1847.toml"):
        assert path in text and (ROOT / path).is_file(), path


def test_every_table_of_the_data_names_its_source() -> None:
    import tomllib
    data = tomllib.loads((ROOT / "cards" / "1847ae.toml").read_text(encoding="utf-8"))
    for name, table in data.items():
        first = table[0] if isinstance(table, list) else table
        assert first.get("source"), f"table {name} names no source"
    assert data["tiles"]["counts"] == "unknown"
