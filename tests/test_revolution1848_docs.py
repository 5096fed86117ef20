"""docs/games/1848.md stays true: its rulings are numbered 1, 2, 3, ...,
each names the test that states it, and every ruling test is listed."""

from __future__ import annotations

from tests import test_revolution1848_rules
from tests.rulings_doc import ROOT, check_files, check_rulings

DOC = ROOT / "docs" / "games" / "1848.md"


def test_every_ruling_is_numbered_and_names_its_test() -> None:
    check_rulings(DOC, test_revolution1848_rules)


def test_the_grammar_and_the_data_file_named_by_the_doc_exist() -> None:
    check_files(DOC, ("cards/1848.toml", "grammars/1848.lark", "templates/revolution1848_report.txt.j2",
                      "templates/revolution1848_report.html.j2", "cards/1848-standin.toml"))
