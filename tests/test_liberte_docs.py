"""docs/games/liberte.md stays true: its rulings are numbered 1, 2, 3, ...,
each names the test that states it, every ruling test is listed, and the
files the document names exist."""

from __future__ import annotations

from tests import test_liberte_rules
from tests.rulings_doc import ROOT, check_files, check_rulings

DOC = ROOT / "docs" / "games" / "liberte.md"


def test_every_ruling_is_numbered_and_names_its_test() -> None:
    assert check_rulings(DOC, test_liberte_rules) >= 30


def test_the_files_named_by_the_doc_exist() -> None:
    check_files(DOC, ("cards/liberte.toml", "cards/liberte_standin.toml", "grammars/liberte.lark",
                      "templates/liberte_report.txt.j2", "templates/liberte_report.html.j2",
                      "templates/texts/liberte.toml", "tests/liberte/driver.py"))
