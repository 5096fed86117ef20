"""A static HTML archive of one game, for a game master's web server.

``archive_files`` turns a stored game and its resolved phases into files:
``index.html`` linking every phase; per resolved phase ``<phase>.html``
(its map, every order with its result, dislodged units, religious
warfare, the supply-centre table; a card game's phase: the HTML report
its mail carried; links to the previous and next phase and to the index) and ``<phase>.svg``; ``now.html`` and ``now.svg`` with
the position the game stands at.  Pages are plain HTML with one small
style sheet in the head: no JavaScript, no external reference, and
nothing but the stored data (no press: the judge keeps none).  The same
game gives the same bytes.  ``export_game`` writes them into a folder.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from adjudicator.games.pictures.scene import Scene
from adjudicator.games.pictures.svg import to_svg
from adjudicator.games import game_module
from adjudicator.games.base import DescribesSeats, GameModule
from adjudicator.service.render import Texts, render
from adjudicator.service.store import GameRecord, PhaseRecord, Store
from adjudicator.service.turnplay import TURN_KEY

_SAFE = re.compile(r"[^A-Za-z0-9_-]+")


class ArchiveError(ValueError):
    """The archive cannot be made (no such game); the message says why."""


@dataclass(frozen=True, slots=True)
class PageLink:
    """A phase page of the archive: its phase name and file name."""

    phase: str
    href: str


def page_name(phase: str) -> str:
    """The file name stem of a phase's page (the phase name, ``S1901M``;
    anything but ASCII letters, digits, ``-`` and ``_`` as ``-``)."""
    return _SAFE.sub("-", phase).strip("-") or "phase"


def _standings(game: GameRecord) -> list[dict[str, Any]]:
    """Each power's centres and units now (units where the game says what
    a seat holds), for the archive's current page."""
    module = game_module(game.variant)
    scores = module.standings(game.state)
    rows = []
    for power in module.powers():
        units = ""
        if isinstance(module, DescribesSeats):
            for note in module.seat_notes(game.state, power):
                units = dict(note.fields).get("units", units)
        rows.append({"power": power, "centres": scores.get(power, 0), "units": units})
    return rows


def archive_files(game: GameRecord, phases: Sequence[PhaseRecord]) -> dict[str, bytes]:
    """Every file of the archive by its name (see the module docstring)."""
    module = game_module(game.variant)
    texts = Texts(game.language, game.time_zone)
    name = lambda p: module.power_name(p, game.language)  # noqa: E731

    def picture(state: dict[str, Any], report: dict[str, Any] | None) -> Scene | None:
        return module.picture(state, report, game_name=game.name, language=game.language, texts=texts)

    now_scene = picture(game.state, None)
    title = now_scene.title if now_scene is not None and now_scene.title else game.name
    links = [PageLink(p.phase, f"{page_name(p.phase)}.html") for p in phases]
    now = PageLink(game.phase, "now.html")
    files: dict[str, bytes] = {}
    has_map = now_scene is not None
    for index, record in enumerate(phases):
        stem = page_name(record.phase)
        scene = picture(record.state, record.report) if has_map else None
        if scene is not None:
            files[f"{stem}.svg"] = to_svg(scene).encode("utf-8")
        following = links[index + 1] if index + 1 < len(links) else now
        files[f"{stem}.html"] = render(
            "archive_phase.html.j2", texts, name, game=game, record=record, report=record.report,
            image=f"{stem}.svg" if has_map else None, previous=links[index - 1] if index else None,
            following=following, title=title, report_html=_report_html(game, module, record, texts),
        ).encode("utf-8")
    if now_scene is not None:
        files["now.svg"] = to_svg(now_scene).encode("utf-8")
    files["now.html"] = render(
        "archive_now.html.j2", texts, name, game=game, image="now.svg" if has_map else None,
        previous=links[-1] if links else None, title=title, standings=_standings(game),
        deadline=texts.when(game.deadline) if game.deadline else None,
    ).encode("utf-8")
    files["index.html"] = render(
        "archive_index.html.j2", texts, name, game=game, phases=list(zip(links, phases)), now=now, title=title,
    ).encode("utf-8")
    return files


def _report_html(game: GameRecord, module: GameModule, record: PhaseRecord, texts: Texts) -> str | None:
    """The body of the HTML report a simultaneous phase's mail carried (a
    card game's reveal: its module's ``report_template``), without the
    mail's ``::`` lines and title, for the phase's page; None for a
    Diplomacy phase (its page shows the report data itself) and for a turn
    phase (its report is its text)."""
    if "centres" in record.report or TURN_KEY in record.report or not module.report_template:
        return None
    html = render(f"{module.report_template}.html.j2", texts, lambda p: module.power_name(p, game.language),
                  judge="", game=game, report=record.report, late=[], phase=record.phase, gm_changes=[],
                  disorder=[], map_image=None)
    body = html.split("<body", 1)[-1].split(">", 1)[-1].rsplit("</body>", 1)[0]
    body = re.sub(r"^\s*<pre[^>]*>::.*?</pre>", "", body, count=1, flags=re.S)
    return re.sub(r"<h1>.*?</h1>", "", body, count=1, flags=re.S).strip()


def export_game(store: Store, name: str, folder: Path) -> list[Path]:
    """Write the archive of the game ``name`` into ``folder`` (made if
    missing; files of the same names are replaced, others left alone);
    returns the files written, sorted.  ``ArchiveError`` for an unknown game."""
    game = store.game(name)
    if game is None:
        raise ArchiveError(f"no game called {name!r}")
    files = archive_files(game, store.phases(game.name))
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for file_name, data in sorted(files.items()):
        path = folder / file_name
        path.write_bytes(data)
        written.append(path)
    return written
