"""The export of a finished 1848 game (``adjudicator export``): written
from a judge database, every page opened in a real headless Chromium
without errors and linked in order, the text of each step's report on its
page (the same checks as Diplomacy's archive in tests/test_archive.py)."""

from __future__ import annotations

import random
from datetime import timedelta
from pathlib import Path

import pytest

from adjudicator.config import Config
from adjudicator.games import game_module
from adjudicator.records import replace
from adjudicator.service.store import PhaseRecord, Store
from adjudicator.service.turns import create_game, render_report
from tests.browser import Browser, file_url, require_chromium
from tests.test_archive import START, export, page


def finished_game(folder: Path) -> tuple[Path, list[str]]:
    """A judge database (under ``folder``) holding the finished 1848 game
    rev (stand-in cards, seeded random legal plays); the configuration
    file and the phases."""
    config_file = folder / "judge.toml"
    config_file.write_text('[judge]\naddress = "judge@pbem.test"\nlanguage = "en"\n', encoding="utf-8")
    store = Store(folder / "var" / "adjudicator.sqlite3")
    module = game_module("1848")
    rng = random.Random(3)
    phases: list[str] = []
    try:
        game = create_game(store, Config(), "rev", "1848", {"language": "en", "data": "standin"}, START, seed=2)
        now = START
        for _ in range(5000):
            orders = {}
            for player in module.must_act(game.state):
                legal = module.legal_orders(game.state, player)  # type: ignore[attr-defined]
                if legal:
                    orders[player] = [rng.choice(legal)]
            resolution = module.resolve(game.state, orders)
            now += timedelta(hours=1)
            finished = resolution.next_phase is None
            after = replace(game, status="finished" if finished else "active", state=resolution.state,
                            phase=module.phase(resolution.state), outcome="over" if finished else "")
            text, _ = render_report(Config(), after, module, resolution.report, [], game.phase)
            with store.transaction() as db:
                assert store.add_phase(db, PhaseRecord(game.name, game.phase, game.state, orders, resolution.report,
                                                       text, "deadline", now.isoformat()))
                store.update_game(db, after)
            phases.append(game.phase)
            game = after
            if finished:
                break
        assert game.status == "finished"
    finally:
        store.close()
    return config_file, phases


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    folder = tmp_path_factory.mktemp("archive1848")
    config, phases = finished_game(folder)
    done = export(config, "rev", "-o", str(folder / "site"))
    assert done.returncode == 0, done.stderr
    assert f"wrote {len(phases) + 2} files" in done.stdout
    return folder / "site", phases


def test_the_export_of_a_finished_1848_game_links_every_step_in_order(archive: tuple[Path, list[str]]) -> None:
    site, phases = archive
    pages = [f"{p}.html" for p in phases] + ["now.html"]
    assert list(page(site / "index.html").links) == pages
    for number, name in enumerate(pages):
        parsed = page(site / name)
        assert parsed.scripts == 0 and parsed.images == [] and parsed.links.get("index.html") == ""
        expected = {pages[number - 1]: "prev"} if number else {}
        if number + 1 < len(pages):
            expected[pages[number + 1]] = "next"
        assert {href: rel for href, rel in parsed.links.items() if rel} == expected, name
    first = (site / pages[0]).read_text(encoding="utf-8")
    assert "Played (revealed)" in first and "Stand-in values, not the original cards" in first
    last = (site / pages[-2]).read_text(encoding="utf-8")
    assert "Final scoring" in last


def test_each_step_page_embeds_the_html_report_its_mail_carried(archive: tuple[Path, list[str]]) -> None:
    """Not only the text: the reveal, the table (card, party, value, what
    it does) and the evaluation as HTML, once titled, without the mail's
    ``::`` lines."""
    site, phases = archive
    for phase in (phases[0], phases[len(phases) // 2], phases[-1]):
        html = (site / f"{phase}.html").read_text(encoding="utf-8")
        assert '<div class="report">' in html and "<pre>" not in html and ":: Game:" not in html, phase
        assert html.count("<h1>") == 1 and "<h2>Played (revealed)</h2>" in html, phase
    first = (site / f"{phases[0]}.html").read_text(encoding="utf-8")
    assert "<th>What the card is and does</th>" in first and "<h2>Evaluation</h2>" in first
    assert "<h2>Final scoring</h2>" in (site / f"{phases[-1]}.html").read_text(encoding="utf-8")


def test_the_1848_archive_opens_in_a_headless_browser_without_errors(archive: tuple[Path, list[str]]) -> None:
    binary = require_chromium()
    site, phases = archive
    names = ["index.html", f"{phases[0]}.html", f"{phases[len(phases) // 2]}.html", f"{phases[-1]}.html",
             "now.html"]
    with Browser(binary) as browser:
        reports = {name: browser.open(file_url(site / name)) for name in names}
    for name, report in reports.items():
        assert report.problems == [], name
        assert report.images == report.images_loaded == 0, name
    assert reports[f"{phases[0]}.html"].title == f"Results of rev, phase {phases[0]}"
