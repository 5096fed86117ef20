"""The layout of issue 15 point 8: the service knows no game.  Every
module of ``adjudicator/service`` and ``adjudicator/mail`` reaches games
only through the registry and the shared pieces beside it (the game
interface, verifiable randomness, picture primitives), never a game's
own package."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = ("adjudicator.games", "adjudicator.games.base", "adjudicator.games.registry",
          "adjudicator.games.randomness", "adjudicator.games.lines")


def _imports(path: Path) -> list[str]:
    names = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.append(node.module)
        elif isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
    return names


def test_the_service_imports_games_only_through_the_registry() -> None:
    wrong = []
    for folder in ("service", "mail"):
        for path in sorted((ROOT / "adjudicator" / folder).glob("*.py")):
            for name in _imports(path):
                if name.startswith("adjudicator.games") and name not in SHARED \
                        and not name.startswith("adjudicator.games.pictures"):
                    wrong.append(f"{path.relative_to(ROOT)}: {name}")
    assert wrong == []


def test_every_game_package_lives_under_games() -> None:
    assert not (ROOT / "adjudicator" / "core").exists()
    assert not (ROOT / "adjudicator" / "variants").exists()
    assert not (ROOT / "adjudicator" / "drawing").exists()
    assert (ROOT / "adjudicator" / "games" / "diplomacy" / "core").is_dir()
