"""The judge's cache (``adjudicator.usercache``, ``adjudicator.parsers``,
issue 20 point 6): a parser or a TOML file's data loaded from the cache
is what a fresh one is, the cache lives in an owner-only folder and is
used only when nobody else can have written it, and a missing, damaged or
foreign cache only costs time."""

from __future__ import annotations

import os
import pickle
import stat
from pathlib import Path

import pytest
from lark import Lark

from adjudicator.parsers import cache_key, lalr_parser
from adjudicator.resources import grammar_path, map_path
from adjudicator.usercache import CACHE_ENVIRONMENT, cache_folder, load_toml

COMMANDS = ("SIGNON England game1 secret", "PRESS TO France", "ORDERS", "WATCH game1")


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(CACHE_ENVIRONMENT, str(tmp_path / "cache"))
    return tmp_path / "cache" / "lark"


def trees(parser: Lark) -> list[str]:
    out = []
    for line in COMMANDS:
        try:
            out.append(parser.parse(line).pretty())
        except Exception as error:  # the same refusal counts as the same result
            out.append(type(error).__name__)
    return out


def cache_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.suffix == ".lark")


def test_a_cached_parser_parses_as_a_fresh_one_and_is_written_owner_only(folder: Path) -> None:
    fresh = Lark(grammar_path("commands").read_text(encoding="utf-8"), parser="lalr", start="command",
                 maybe_placeholders=False)
    first = lalr_parser("commands", start="command", maybe_placeholders=False)
    (written,) = cache_files(folder)
    assert stat.S_IMODE(os.stat(folder).st_mode) == 0o700
    assert stat.S_IMODE(os.stat(written).st_mode) == 0o600
    assert [p.name for p in folder.iterdir()] == [written.name]  # no temporary file left behind
    stamp = os.stat(written).st_mtime_ns
    second = lalr_parser("commands", start="command", maybe_placeholders=False)
    assert os.stat(written).st_mtime_ns == stamp  # loaded, not rebuilt
    assert trees(first) == trees(second) == trees(fresh)
    assert "signon" in trees(fresh)[0]


def test_the_diplomacy_parser_with_its_transformer_reads_orders_the_same_from_the_cache(folder: Path) -> None:
    from adjudicator.games.diplomacy.core import notation
    from adjudicator.games.diplomacy.core.mapdata import load_map

    game_map = load_map("standard")
    texts = ("F Lon - Nth", "A Par S A Mar - Bur", "F Nth C A Yor - Nwy", "A Mun H", "A Ber - Sil - Gal")
    notation._parser.cache_clear()
    built = [repr(notation.parse_order(text, game_map)) for text in texts]
    assert len(cache_files(folder)) == 1
    notation._parser.cache_clear()
    loaded = [repr(notation.parse_order(text, game_map)) for text in texts]
    notation._parser.cache_clear()
    assert loaded == built


def test_the_key_changes_with_the_grammar_the_options_and_the_versions() -> None:
    base = cache_key("start: \"a\"", {"parser": "lalr", "start": "start"})
    assert cache_key("start: \"b\"", {"parser": "lalr", "start": "start"}) != base
    assert cache_key("start: \"a\"", {"parser": "lalr", "start": "other"}) != base
    assert cache_key("start: \"a\"", {"parser": "lalr", "start": "start", "transformer": object()}) == base


def _planted(folder: Path, marker: Path) -> Path:
    """A cache file that would run code (make ``marker``) if loaded."""
    lalr_parser("gm", start="gm_command")
    (target,) = cache_files(folder)

    class Plant:
        def __reduce__(self) -> tuple[object, tuple[str]]:
            return (os.mkdir, (str(marker),))

    target.write_bytes(target.read_bytes().split(b"\n", 1)[0] + b"\n" + pickle.dumps(Plant()))
    return target


def test_a_cache_file_others_may_write_is_never_loaded(folder: Path, tmp_path: Path) -> None:
    marker = tmp_path / "code-ran"
    target = _planted(folder, marker)
    os.chmod(target, 0o666)
    parser = lalr_parser("gm", start="gm_command")
    assert not marker.exists()
    assert trees(parser)  # the parser was built without the cache
    os.chmod(target, 0o600)  # the same file, the owner's only: this is what the check above kept out
    lalr_parser("gm", start="gm_command")
    assert marker.exists()


@pytest.mark.skipif(not hasattr(os, "getuid") or os.getuid() != 0, reason="giving a file away needs root")
def test_a_cache_file_or_folder_of_another_user_is_never_used(folder: Path, tmp_path: Path) -> None:
    marker = tmp_path / "code-ran"
    target = _planted(folder, marker)
    os.chown(target, 12345, 12345)
    lalr_parser("gm", start="gm_command")
    assert not marker.exists()
    os.chown(target, 0, 0)
    os.chown(folder, 12345, 12345)
    assert cache_folder("lark") is None
    lalr_parser("gm", start="gm_command")
    assert not marker.exists()


def test_a_folder_others_can_write_above_the_cache_or_a_linked_folder_is_not_used(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    os.chmod(shared, 0o777)  # anybody could swap the cache folder inside
    monkeypatch.setenv(CACHE_ENVIRONMENT, str(shared / "cache"))
    assert cache_folder("lark") is None
    os.chmod(shared, 0o1777)  # sticky, as /tmp: entries cannot be renamed by others
    assert cache_folder("lark") == (shared / "cache" / "lark").resolve()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(mode=0o700)
    (tmp_path / "linked").mkdir()
    (tmp_path / "linked" / "lark").symlink_to(elsewhere)
    monkeypatch.setenv(CACHE_ENVIRONMENT, str(tmp_path / "linked"))
    assert cache_folder("lark") is None
    assert trees(lalr_parser("commands", start="command", maybe_placeholders=False))


def test_a_group_readable_cache_folder_is_made_owner_only(folder: Path) -> None:
    folder.mkdir(parents=True, mode=0o755)
    os.chmod(folder, 0o755)
    assert cache_folder("lark") == folder.resolve()
    assert stat.S_IMODE(os.stat(folder).st_mode) == 0o700


def test_a_damaged_cache_file_is_rebuilt(folder: Path) -> None:
    lalr_parser("commands", start="command", maybe_placeholders=False)
    (target,) = cache_files(folder)
    target.write_bytes(target.read_bytes()[:100])
    parser = lalr_parser("commands", start="command", maybe_placeholders=False)
    fresh = Lark(grammar_path("commands").read_text(encoding="utf-8"), parser="lalr", start="command",
                 maybe_placeholders=False)
    assert trees(parser) == trees(fresh)
    again = lalr_parser("commands", start="command", maybe_placeholders=False)  # Lark wrote a whole one again
    assert trees(again) == trees(fresh)


def test_no_cache_when_switched_off_or_the_folder_cannot_be_made(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CACHE_ENVIRONMENT, "off")
    assert cache_folder("lark") is None
    assert trees(lalr_parser("commands", start="command", maybe_placeholders=False))
    blocker = tmp_path / "file"
    blocker.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv(CACHE_ENVIRONMENT, str(blocker))
    assert cache_folder("lark") is None
    assert trees(lalr_parser("commands", start="command", maybe_placeholders=False))


def test_a_maps_data_from_the_cache_is_the_parsed_file_and_a_changed_file_is_parsed_again(
        folder: Path, tmp_path: Path) -> None:
    import tomllib

    parsed = tomllib.loads(map_path("30jk").read_text(encoding="utf-8"))
    assert load_toml(map_path("30jk")) == parsed
    (written,) = (folder.parent / "toml").iterdir()
    assert stat.S_IMODE(os.stat(written).st_mode) == 0o600 and stat.S_IMODE(os.stat(written.parent).st_mode) == 0o700
    assert load_toml(map_path("30jk")) == parsed  # now from the file
    copy = tmp_path / "map.toml"
    copy.write_text(map_path("30jk").read_text(encoding="utf-8").replace("start_year = 1618", "start_year = 1619", 1), encoding="utf-8")
    assert load_toml(copy) == tomllib.loads(copy.read_text(encoding="utf-8")) != parsed
    assert len(list((folder.parent / "toml").iterdir())) == 2


def test_a_toml_cache_file_others_may_write_or_a_damaged_one_is_not_used(folder: Path) -> None:
    import marshal

    load_toml(map_path("standard"))
    (written,) = (folder.parent / "toml").iterdir()
    written.write_bytes(marshal.dumps({"planted": True}))
    os.chmod(written, 0o666)
    assert "planted" not in load_toml(map_path("standard"))
    written.write_bytes(b"\x00damaged")
    os.chmod(written, 0o600)
    assert "variant" in load_toml(map_path("standard"))
    assert "variant" in marshal.loads(written.read_bytes())  # written whole again


def test_toml_dates_are_parsed_but_not_cached(folder: Path, tmp_path: Path) -> None:
    dated = tmp_path / "dated.toml"
    dated.write_text("when = 2026-12-01T18:00:00Z\n", encoding="utf-8")
    assert load_toml(dated)["when"].year == 2026
    assert not (folder.parent / "toml").exists() or not list((folder.parent / "toml").iterdir())
