"""docs/games/1847ae.md stays true: its rulings are numbered 1, 2, 3, ...,
each has a question, decision and reason and names the test that states
it, every ruling test is listed, and the files it names exist."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from tests import test_pfalz1847_rules
from tests.rulings_doc import check_files, check_rulings

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "games" / "1847ae.md"


def test_every_ruling_is_numbered_and_names_its_test() -> None:
    assert check_rulings(DOC, test_pfalz1847_rules) >= 30
    text = DOC.read_text(encoding="utf-8")
    for number, body in re.findall(r"^\*\*(\d+)\. (.*?)(?=^\*\*\d+\. |^## |\Z)", text, flags=re.MULTILINE | re.DOTALL):
        for part in ("Question:", "Decision:", "Reason:", "Test:"):
            assert part in body, f"ruling {number} lacks {part}"


def test_the_files_named_by_the_doc_exist() -> None:
    check_files(DOC, ("cards/1847ae.toml", "cards/1847ae_standin.toml", "grammars/pfalz1847.lark",
                      "templates/pfalz1847_report.txt.j2", "templates/pfalz1847_report.html.j2",
                      "templates/texts/pfalz1847.toml"))


def test_every_table_of_the_data_names_its_source() -> None:
    data = tomllib.loads((ROOT / "cards" / "1847ae.toml").read_text(encoding="utf-8"))
    for name, table in data.items():
        first = table[0] if isinstance(table, list) else table
        assert first.get("source"), f"table {name} names no source"
    assert data["tiles"]["counts"]["57"] == 2 and "pull request #9028" in data["tiles"]["source"]
