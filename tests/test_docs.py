"""The documents that are contracts stay true: every ruling names tests
that exist, and the README's test command is what CI runs."""

from __future__ import annotations

import re
from pathlib import Path

from tests import test_datc, test_rulings, test_thirty_years

ROOT = Path(__file__).resolve().parent.parent


def test_rulings_are_numbered_and_name_existing_tests() -> None:
    text = (ROOT / "docs" / "rulings.md").read_text(encoding="utf-8")
    numbers = [int(n) for n in re.findall(r"^\*\*R(\d+)\.", text, flags=re.MULTILINE)]
    assert numbers == list(range(1, len(numbers) + 1))
    datc_ids = {param.id for param in test_datc._cases()}
    for case_id in re.findall(r"\[(6\.[A-J]\.\d+)\]", text):
        assert case_id in datc_ids, f"docs/rulings.md names DATC {case_id}, which has no test"
    for ruling, body in re.findall(r"^\*\*R(\d+)\.(.*?)(?=^\*\*R\d+\.|\Z)", text, flags=re.MULTILINE | re.DOTALL):
        for name in re.findall(r"test_r(\d+)_\w+", body):
            assert int(name) == int(ruling), f"R{ruling} names a test of another ruling: test_r{name}_..."
    modules = (test_rulings, test_thirty_years)
    for name in re.findall(r"test_r\d+_\w+", text):
        assert any(hasattr(m, name) for m in modules), f"docs/rulings.md names {name}, which does not exist"
    for module in modules:
        for name in dir(module):
            if re.match(r"test_r\d+_", name):
                assert name in text, f"{name} is not listed in docs/rulings.md"


def test_ci_runs_the_readme_test_command() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"<!-- test-command -->\s*```sh\n(.+?)\n```\s*<!-- /test-command -->", readme, re.DOTALL)
    assert block and "pytest" in block.group(1)
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "<!-- test-command -->" in ci and "bash -c" in ci


def test_service_decisions_are_numbered_and_name_existing_tests() -> None:
    text = (ROOT / "docs" / "service.md").read_text(encoding="utf-8")
    numbers = [int(n) for n in re.findall(r"^- \*\*S(\d+) ", text, flags=re.MULTILINE)]
    assert numbers == list(range(1, len(numbers) + 1))
    decisions = re.findall(r"^- \*\*S(\d+) (.*?)(?=^- \*\*S\d+ |\Z)", text, flags=re.MULTILINE | re.DOTALL)
    sources = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "tests").glob("test_*.py"))
    for number, body in decisions:
        assert "Tests: " in body, f"S{number} names no test"
        for name in re.findall(r"`(test_\w+)`", body):
            assert f"def {name}(" in sources, f"S{number} names {name}, which does not exist"
