"""docs/games/kreml.md stays true: its rulings are numbered 1, 2, 3, ...,
each names tests that exist and state it, every ruling test is listed, and
the files the document names exist."""

from __future__ import annotations

from tests import test_kreml_rules
from tests.rulings_doc import ROOT, check_files, check_rulings

DOC = ROOT / "docs" / "games" / "kreml.md"


def test_every_ruling_is_numbered_and_names_its_tests() -> None:
    assert check_rulings(DOC, test_kreml_rules) == 34


def test_the_files_the_doc_names_exist() -> None:
    check_files(DOC, ("cards/kreml.toml", "cards/kreml-standin.toml", "grammars/kreml.lark",
                      "templates/kreml_report.txt.j2", "templates/kreml_report.html.j2", "templates/texts/kreml.toml"))
