"""The configuration file: embedded defaults, every key checked, settings
that others need, secrets from the environment."""

from __future__ import annotations

from pathlib import Path

import pytest

from adjudicator.config import ConfigError, format_duration, load_config, parse_duration

ROOT = Path(__file__).resolve().parent.parent


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "judge.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_example_file_holds_the_embedded_defaults(tmp_path: Path) -> None:
    example = load_config(ROOT / "config.example.toml")
    assert example.mailbox.kind == "maildir" and example.smtp.kind == "maildir"
    assert example.mailbox.path == ROOT / "var" / "mail" / "inbox"
    assert example.database == ROOT / "var" / "adjudicator.sqlite3"
    assert example.deadlines == {"movement": 259200, "retreat": 86400, "adjustment": 86400, "play": 172800}
    assert example.address == "judge@localhost" and example.language == "de" and example.poll_interval == 60


def test_paths_are_relative_to_the_file(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, '[mailbox]\npath = "in"\n[smtp]\npath = "out"\n'))
    assert config.mailbox.path == tmp_path / "in" and config.smtp.path == tmp_path / "out"


@pytest.mark.parametrize(
    "text, named",
    [
        ('[judge]\naddress = "not an address"\n', "judge.address: must be a mail address"),
        ('[judge]\nlanguage = "fr"\n', "judge.language: must be one of 'de', 'en'"),
        ('[judge]\ntime_zone = "Mars/Olympus"\n', "judge.time_zone: unknown time zone 'Mars/Olympus'"),
        ('[judge]\nadress = "a@b.c"\n', "unknown key judge.adress"),
        ('[mailbox]\nkind = "pop3"\n', "mailbox.kind: must be one of 'maildir', 'imap'"),
        ('[mailbox]\nkind = "imap"\nuser = "u"\n', "mailbox.host is missing"),
        ('[mailbox]\nkind = "imap"\nhost = "h"\n', "mailbox.user is missing"),
        ('[mailbox]\nport = 70000\n', "mailbox.port: must be a port number"),
        ('[smtp]\nkind = "smtp"\n', "smtp.host is missing"),
        ('[smtp]\ntls = "maybe"\n', "smtp.tls: must be one of 'none', 'starttls', 'ssl'"),
        ('[smtp]\nuser = "u"\n', "smtp.password (or smtp.password_env) is missing"),
        ('[service]\npoll_interval = -1\n', "service.poll_interval: must be a positive number"),
        ('[deadlines]\nmovement = "soon"\n', "deadlines.movement: 'soon' is not a duration"),
        ('[postgres]\nurl = "x"\n', "unknown section [postgres]"),
        ('[database]\nurl = "mysql://db/judge"\n', "database.url: must be a PostgreSQL URL"),
        ('[judge\n', "not valid TOML"),
    ],
)
def test_a_wrong_or_missing_setting_is_named(tmp_path: Path, text: str, named: str) -> None:
    with pytest.raises(ConfigError) as error:
        load_config(write(tmp_path, text))
    assert named in str(error.value) and str(tmp_path / "judge.toml") in str(error.value)


def test_secrets_come_from_the_environment(tmp_path: Path) -> None:
    path = write(tmp_path, '[mailbox]\nkind = "imap"\nhost = "h"\nuser = "u"\npassword_env = "JUDGE_PW"\n')
    assert load_config(path, environ={"JUDGE_PW": "geheim"}).mailbox.password == "geheim"
    with pytest.raises(ConfigError, match="mailbox.password_env: the environment variable JUDGE_PW is not set"):
        load_config(path, environ={})


def test_a_postgresql_database_is_named_by_url_or_from_the_environment(tmp_path: Path) -> None:
    assert load_config(None).store_target == Path.cwd() / "var" / "adjudicator.sqlite3"
    url = "postgresql://judge:pw@db.example.org/adjudicator"
    assert load_config(write(tmp_path, f'[database]\nurl = "{url}"\n')).store_target == url
    path = write(tmp_path, '[database]\nurl_env = "JUDGE_DB"\n')
    assert load_config(path, environ={"JUDGE_DB": url}).store_target == url
    with pytest.raises(ConfigError, match="database.url_env: must be a PostgreSQL URL"):
        load_config(path, environ={"JUDGE_DB": "/var/judge.sqlite3"})


def test_durations_read_and_print() -> None:
    assert parse_duration("72h") == 259200 and parse_duration("1d12h") == 129600 and parse_duration("5s") == 5
    assert format_duration(129600) == "1d12h"
    for bad in ("", "12", "h", "0s", "3x"):
        with pytest.raises(ValueError):
            parse_duration(bad)


def test_the_catalogue_is_one_across_its_files_and_refuses_a_key_twice(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from adjudicator.service import render

    (tmp_path / "texts").mkdir()
    (tmp_path / "texts.toml").write_text('[a]\nde = "A"\nen = "A"\n', encoding="utf-8")
    (tmp_path / "texts" / "game.toml").write_text('[b]\nde = "Be"\nen = "Bee"\n', encoding="utf-8")
    monkeypatch.setattr(render, "data_dir", lambda name: tmp_path)
    render.catalogue.cache_clear()
    try:
        assert render.catalogue()["b"] == {"de": "Be", "en": "Bee"} and "a" in render.catalogue()
        (tmp_path / "texts" / "other.toml").write_text('[a]\nde = "X"\nen = "X"\n', encoding="utf-8")
        render.catalogue.cache_clear()
        with pytest.raises(render.CatalogueError, match="'a' is in texts.toml and other.toml"):
            render.catalogue()
    finally:
        render.catalogue.cache_clear()
