"""`adjudicator export GAME -o DIR`: a game's static HTML archive, read
back from a judge database, opened in a real headless Chromium (no console
errors, every map shown) and followed link by link."""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET
from datetime import datetime, timedelta, timezone
from html.parser import HTMLParser
from pathlib import Path

import pytest

from adjudicator.config import Config
from adjudicator.games import game_module
from adjudicator.records import replace
from adjudicator.service.archive import archive_files
from adjudicator.service.store import PhaseRecord, Store
from adjudicator.service.turns import create_game
from tests.browser import Browser, file_url, require_chromium

ROOT = Path(__file__).resolve().parent.parent
START = datetime(2026, 12, 1, 10, 0, tzinfo=timezone.utc)

# 30JK in German: a double move, a transform, religious warfare, a supported
# attack on Trier, its retreat, builds.
SCRIPT = [
    {"Sachsen": ["F Tor - Wit - Anh", "A Lei - EbMa", "A Mei - Lei"], "Österreich": ["F Lin T A", "A Pra - Pil"],
     "Bayern": ["A FAns - RsNu"]},
    {"Sachsen": ["A Lei - Erf"], "Bayern": ["A RsNu H"], "Frankreich": ["A Met - EbTr"],
     "Pfalz": ["A Mai S A Met - EbTr"]},
    {"Rheinbistümer": ["A EbTr - FZwe"]},
    {"Bayern": ["Build A FAns"], "Sachsen": ["Build A Mei", "Baue F Tor"], "Frankreich": ["Build A Met"]},
]
PHASES = ["1618M", "1619M", "1619R", "1619A"]


def played_game(folder: Path) -> Path:
    """A judge database (under ``folder``) holding game spiel1 after the
    four phases of ``SCRIPT``; returns the configuration file."""
    config_file = folder / "judge.toml"
    config_file.write_text('[judge]\naddress = "judge@pbem.test"\nlanguage = "de"\n', encoding="utf-8")
    store = Store(folder / "var" / "adjudicator.sqlite3")
    try:
        game = create_game(store, Config(), "spiel1", "30jk", {"language": "de"}, START, seed=1)
        module = game_module("30jk")
        now = START
        for orders in SCRIPT:
            resolution = module.resolve(game.state, orders)
            now += timedelta(days=3)
            with store.transaction() as db:
                record = PhaseRecord(game.name, game.phase, game.state, orders, resolution.report, "report",
                                     "deadline", now.isoformat())
                assert store.add_phase(db, record)
                game = replace(game, status="active", phase=module.phase(resolution.state), state=resolution.state)
                store.update_game(db, game)
        assert [p.phase for p in store.phases("spiel1")] == PHASES
    finally:
        store.close()
    return config_file


def export(config: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "adjudicator", "--config", str(config), "export", *args],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)


class Links(HTMLParser):
    """The links, pictures and scripts of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.links: dict[str, str] = {}
        self.images: list[str] = []
        self.scripts = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "a" and values.get("href"):
            self.links[values["href"] or ""] = values.get("rel") or ""
        elif tag == "img":
            self.images.append(values.get("src") or "")
        elif tag == "script":
            self.scripts += 1


def page(path: Path) -> Links:
    parser = Links()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("archive")
    config = played_game(folder)
    done = export(config, "spiel1", "-o", str(folder / "site"))
    assert done.returncode == 0, done.stderr
    assert "wrote 11 files" in done.stdout
    return folder / "site"


def test_the_archive_has_an_index_linking_every_phase_and_pages_linked_in_order(archive: Path) -> None:
    assert sorted(p.name for p in archive.iterdir()) == sorted(
        [f"{p}.html" for p in PHASES] + [f"{p}.svg" for p in PHASES] + ["index.html", "now.html", "now.svg"])
    index = page(archive / "index.html")
    assert list(index.links) == [f"{p}.html" for p in PHASES] + ["now.html"]
    pages = [f"{p}.html" for p in PHASES] + ["now.html"]
    for number, name in enumerate(pages):
        parsed = page(archive / name)
        assert parsed.scripts == 0
        assert parsed.links.get("index.html") == ""
        expected = {pages[number - 1]: "prev"} if number else {}
        if number + 1 < len(pages):
            expected[pages[number + 1]] = "next"
        assert {href: rel for href, rel in parsed.links.items() if rel} == expected, name
        assert parsed.images == [name.replace(".html", ".svg")]
        ET.parse(archive / parsed.images[0])  # the map is well-formed SVG
    text = (archive / "1619M.html").read_text(encoding="utf-8")
    assert "A Met - EbTr" in text and "erfolgreich" in text and "Vertriebene Einheiten" in text
    assert "Übersicht" in text and "Frankreich" in text and "<h1>Auswertung von spiel1, Phase 1619M</h1>" in text


def test_the_archive_opens_in_a_headless_browser_without_errors(archive: Path) -> None:
    binary = require_chromium()
    names = ["index.html"] + [f"{p}.html" for p in PHASES] + ["now.html"]
    with Browser(binary) as browser:
        reports = {name: browser.open(file_url(archive / name)) for name in names}
    for name, report in reports.items():
        assert report.problems == [], name
        assert report.images == report.images_loaded == (0 if name == "index.html" else 1), name
    assert reports["index.html"].links == [f"{p}.html" for p in PHASES] + ["now.html"]
    assert reports["1619R.html"].links == ["index.html", "1619M.html", "1619A.html"]
    assert reports["1619R.html"].title == "Auswertung von spiel1, Phase 1619R"


def test_the_browser_check_does_see_errors(tmp_path: Path) -> None:
    """The check above can fail: a script error, a console error and a
    missing picture are all reported."""
    binary = require_chromium()
    (tmp_path / "bad.html").write_text(
        '<!DOCTYPE html><html><head><meta charset="utf-8"><title>bad</title></head><body>'
        '<img src="missing.svg"><script>console.error("boom"); notDefined();</script></body></html>',
        encoding="utf-8")
    with Browser(binary) as browser:
        report = browser.open(file_url(tmp_path / "bad.html"))
    assert len(report.problems) == 3, report.problems
    assert any("missing.svg" in p for p in report.problems) and any("boom" in p for p in report.problems)
    assert any("notDefined" in p for p in report.problems) and report.images_loaded == 0


def test_exporting_an_unknown_game_exits_1(tmp_path: Path) -> None:
    config = tmp_path / "judge.toml"
    config.write_text('[judge]\naddress = "judge@pbem.test"\n', encoding="utf-8")
    (tmp_path / "var").mkdir()
    Store(tmp_path / "var" / "adjudicator.sqlite3").close()
    done = export(config, "nosuchgame", "-o", str(tmp_path / "site"))
    assert done.returncode == 1 and "nosuchgame" in done.stderr
    assert not (tmp_path / "site").exists()


def test_the_archive_is_the_same_bytes_every_time(archive: Path) -> None:
    store = Store(archive.parent / "var" / "adjudicator.sqlite3")
    try:
        game = store.game("spiel1")
        assert game is not None
        files = archive_files(game, store.phases("spiel1"))
    finally:
        store.close()
    assert {name: (archive / name).read_bytes() for name in files} == files
