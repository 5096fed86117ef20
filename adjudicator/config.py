"""Reading the judge's configuration file (TOML, see config.example.toml).

Every key is checked: an unknown section or key, a value of the wrong type
or out of range, or a setting that another one requires but is missing,
stops start-up with ``ConfigError`` naming the file and the key.  Defaults
are embedded, so no configuration file is needed at all: the judge then
reads mail from a local Maildir and delivers its own mail into another one,
both under ``./var``.  Secrets may come from environment variables
(``password_env = "NAME"``) instead of the file.
"""

from __future__ import annotations

import os
import re
import tomllib
from pathlib import Path
from typing import TYPE_CHECKING

from adjudicator.records import Record

if TYPE_CHECKING:
    from typing import Any, Callable, Mapping


class ConfigError(ValueError):
    """A configuration that cannot be used; the message names file and key."""


TLS_MODES = ("none", "starttls", "ssl")
LANGUAGES = ("de", "en")
_DURATION = re.compile(r"(\d+)\s*([dhms])", re.IGNORECASE)
_UNIT_SECONDS = {"d": 86400, "h": 3600, "m": 60, "s": 1}
_ADDRESS = re.compile(r"^[^@\s<>\"',;]+@[^@\s<>\"',;]+$")


def parse_duration(text: str, allow_zero: bool = False) -> int:
    """Seconds in a duration such as ``72h``, ``1d12h``, ``30m`` or ``5s``
    (``0s`` too when ``allow_zero``); ``ValueError`` when the text is not one."""
    cleaned = text.strip().replace(" ", "")
    parts = _DURATION.findall(cleaned)
    if not parts or "".join(n + u for n, u in parts).lower() != cleaned.lower():
        raise ValueError(f"{text!r} is not a duration such as 72h, 1d12h, 30m or 10s")
    seconds = sum(int(number) * _UNIT_SECONDS[unit.lower()] for number, unit in parts)
    if seconds <= 0 and not allow_zero:
        raise ValueError(f"{text!r} is not a positive duration")
    return seconds


def format_duration(seconds: int) -> str:
    """The shortest duration text for ``seconds`` (inverse of ``parse_duration``)."""
    parts = []
    for unit, size in _UNIT_SECONDS.items():
        if seconds >= size:
            parts.append(f"{seconds // size}{unit}")
            seconds %= size
    return "".join(parts) or "0s"


def is_address(text: str) -> bool:
    """True for a bare mail address such as ``judge@example.org``."""
    return bool(_ADDRESS.match(text))


_set = object.__setattr__


class MailboxConfig(Record):
    """Where the judge reads mail: ``kind`` is ``maildir`` (``path``) or
    ``imap`` (host, port, tls, user, password, folder)."""

    __slots__ = ("kind", "path", "host", "port", "tls", "user", "password", "folder")
    kind: str
    path: Path
    host: str
    port: int
    tls: str
    user: str
    password: str
    folder: str

    def __init__(self, kind: str = "maildir", path: Path = Path("var/mail/inbox"), host: str = "", port: int = 993,
                 tls: str = "ssl", user: str = "", password: str = "", folder: str = "INBOX") -> None:
        _set(self, "kind", kind)
        _set(self, "path", path)
        _set(self, "host", host)
        _set(self, "port", port)
        _set(self, "tls", tls)
        _set(self, "user", user)
        _set(self, "password", password)
        _set(self, "folder", folder)


class SmtpConfig(Record):
    """How the judge sends mail: ``kind`` is ``smtp`` (host, port, tls,
    user, password) or ``maildir``: every outgoing mail is written as a
    file into the Maildir at ``path`` (no mail server needed)."""

    __slots__ = ("kind", "path", "host", "port", "tls", "user", "password")
    kind: str
    path: Path
    host: str
    port: int
    tls: str
    user: str
    password: str

    def __init__(self, kind: str = "maildir", path: Path = Path("var/mail/sent"), host: str = "", port: int = 587,
                 tls: str = "starttls", user: str = "", password: str = "") -> None:
        _set(self, "kind", kind)
        _set(self, "path", path)
        _set(self, "host", host)
        _set(self, "port", port)
        _set(self, "tls", tls)
        _set(self, "user", user)
        _set(self, "password", password)


class Limits(Record):
    """The bounds every mail is held to (``[limits]``, docs/service.md S25-S35).

    Sizes are bytes, durations seconds.  Authentication: at most
    ``auth_lines_per_mail`` sign-on lines are tried per mail; after
    ``auth_free_failures`` failures a target (seat, GM, administrator) or a
    sender is locked for ``auth_lockout`` seconds, doubling with every
    further failure up to ``auth_lockout_max``.  ``seat_password_min`` is
    the default shortest seat password (a GM may change it per game)."""

    __slots__ = ("auth_lines_per_mail", "auth_free_failures", "auth_lockout", "auth_lockout_max", "seat_password_min",
                 "stored_bytes", "text_bytes", "lines", "line_chars", "header_bytes", "mime_parts", "mail_seconds",
                 "mail_attempts", "expensive_per_mail", "answers_per_hour", "answer_bytes", "stranger_answer_bytes",
                 "loop_answers", "loop_window", "mailbox_wait", "retention", "clock_skew")
    auth_lines_per_mail: int
    auth_free_failures: int
    auth_lockout: int
    auth_lockout_max: int
    seat_password_min: int
    stored_bytes: int
    text_bytes: int
    lines: int
    line_chars: int
    header_bytes: int
    mime_parts: int
    mail_seconds: int
    mail_attempts: int
    expensive_per_mail: int
    answers_per_hour: int
    answer_bytes: int
    stranger_answer_bytes: int
    loop_answers: int
    loop_window: int
    mailbox_wait: int
    retention: int
    clock_skew: int

    def __init__(self, auth_lines_per_mail: int = 3, auth_free_failures: int = 5, auth_lockout: int = 60,
                 auth_lockout_max: int = 86400, seat_password_min: int = 8, stored_bytes: int = 1024 * 1024,
                 text_bytes: int = 256 * 1024, lines: int = 2000, line_chars: int = 1000, header_bytes: int = 8192,
                 mime_parts: int = 100, mail_seconds: int = 30, mail_attempts: int = 2, expensive_per_mail: int = 3,
                 answers_per_hour: int = 30, answer_bytes: int = 2 * 1024 * 1024,
                 stranger_answer_bytes: int = 512 * 1024, loop_answers: int = 10, loop_window: int = 3600,
                 mailbox_wait: int = 3600, retention: int = 30 * 86400, clock_skew: int = 600) -> None:
        _set(self, "auth_lines_per_mail", auth_lines_per_mail)
        _set(self, "auth_free_failures", auth_free_failures)
        _set(self, "auth_lockout", auth_lockout)
        _set(self, "auth_lockout_max", auth_lockout_max)
        _set(self, "seat_password_min", seat_password_min)
        _set(self, "stored_bytes", stored_bytes)
        _set(self, "text_bytes", text_bytes)
        _set(self, "lines", lines)
        _set(self, "line_chars", line_chars)
        _set(self, "header_bytes", header_bytes)
        _set(self, "mime_parts", mime_parts)
        _set(self, "mail_seconds", mail_seconds)
        _set(self, "mail_attempts", mail_attempts)
        _set(self, "expensive_per_mail", expensive_per_mail)
        _set(self, "answers_per_hour", answers_per_hour)
        _set(self, "answer_bytes", answer_bytes)
        _set(self, "stranger_answer_bytes", stranger_answer_bytes)
        _set(self, "loop_answers", loop_answers)
        _set(self, "loop_window", loop_window)
        _set(self, "mailbox_wait", mailbox_wait)
        _set(self, "retention", retention)
        _set(self, "clock_skew", clock_skew)


class Config(Record):
    """The judge's settings (embedded defaults where the file is silent).

    Relative paths are resolved against the folder of the configuration
    file, or the working directory when there is none.  ``deadlines`` maps
    phase kinds to their default length in seconds; ``poll_interval``,
    ``retry_base`` and ``lease_seconds`` (how long a claim of a mail or the
    mailbox holds before another instance may take it over) are seconds.  ``database_url`` (``[database] url``), when
    set, names a PostgreSQL database used instead of the SQLite file.
    ``mail_key`` is the key file that seals raw mail until it is handled
    (``[database] mail_key``, S36); None: the store's default
    (``sealing.default_key_path``).  ``data_folder`` is the folder the
    operator fills with game data files (``[data] folder``); a GM names a
    file in it by its plain name; None: no folder.  ``data_max_bytes`` is
    the size cap of one game data file (attachment or folder file).
    """

    __slots__ = ("default_variant", "database", "database_url", "mail_key", "address", "name", "language",
                 "time_zone", "admin", "admin_password", "mailbox", "smtp", "poll_interval", "retry_base",
                 "lease_seconds", "limits", "deadlines", "data_folder", "data_max_bytes")
    default_variant: str
    database: Path
    database_url: str
    mail_key: Path | None
    address: str
    name: str
    language: str
    time_zone: str
    admin: str
    admin_password: str
    mailbox: MailboxConfig
    smtp: SmtpConfig
    poll_interval: float
    retry_base: float
    lease_seconds: float
    limits: Limits
    deadlines: Mapping[str, int]
    data_folder: Path | None
    data_max_bytes: int

    def __init__(self, default_variant: str = "standard", database: Path = Path("var/adjudicator.sqlite3"),
                 database_url: str = "", mail_key: Path | None = None, address: str = "judge@localhost",
                 name: str = "Adjudicator", language: str = "de", time_zone: str = "Europe/Berlin", admin: str = "",
                 admin_password: str = "", mailbox: MailboxConfig | None = None, smtp: SmtpConfig | None = None,
                 poll_interval: float = 60.0, retry_base: float = 30.0, lease_seconds: float = 300.0,
                 limits: Limits | None = None, deadlines: Mapping[str, int] | None = None,
                 data_folder: Path | None = None, data_max_bytes: int = 256 * 1024) -> None:
        _set(self, "default_variant", default_variant)
        _set(self, "database", database)
        _set(self, "database_url", database_url)
        _set(self, "mail_key", mail_key)
        _set(self, "address", address)
        _set(self, "name", name)
        _set(self, "language", language)
        _set(self, "time_zone", time_zone)
        _set(self, "admin", admin)
        _set(self, "admin_password", admin_password)
        _set(self, "mailbox", MailboxConfig() if mailbox is None else mailbox)
        _set(self, "smtp", SmtpConfig() if smtp is None else smtp)
        _set(self, "poll_interval", poll_interval)
        _set(self, "retry_base", retry_base)
        _set(self, "lease_seconds", lease_seconds)
        _set(self, "limits", Limits() if limits is None else limits)
        _set(self, "deadlines", {"movement": 72 * 3600, "retreat": 24 * 3600, "adjustment": 24 * 3600,
                                 "play": 48 * 3600} if deadlines is None else deadlines)
        _set(self, "data_folder", data_folder)
        _set(self, "data_max_bytes", data_max_bytes)

    @property
    def store_target(self) -> Path | str:
        """The database the judge opens: the PostgreSQL URL when one is set, else the SQLite file."""
        return self.database_url or self.database

    @property
    def loop_id(self) -> str:
        """The X-Loop value of every mail the judge sends."""
        return self.address


if TYPE_CHECKING:
    Check = Callable[[Any], Any]


def _string(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError("must be a string")
    return value


def _nonempty(value: Any) -> str:
    text = _string(value).strip()
    if not text:
        raise ValueError("must not be empty")
    return text


def _one_of(*choices: str) -> Check:
    def check(value: Any) -> str:
        if value not in choices:
            raise ValueError(f"must be one of {', '.join(repr(c) for c in choices)}, not {value!r}")
        return str(value)

    return check


def _port(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 < value < 65536:
        raise ValueError(f"must be a port number (1-65535), not {value!r}")
    return value


def _seconds(value: Any) -> float:
    if isinstance(value, str):
        return float(parse_duration(value))
    if not isinstance(value, (int, float)) or isinstance(value, bool) or value <= 0:
        raise ValueError(f"must be a positive number of seconds or a duration such as '30s', not {value!r}")
    return float(value)


def _duration(value: Any) -> int:
    return parse_duration(_string(value))


def _count(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        raise ValueError(f"must be a positive whole number, not {value!r}")
    return value


def _length(value: Any) -> int:
    """A duration given as text (``30d``) or as whole seconds."""
    if isinstance(value, str):
        return parse_duration(value)
    return _count(value)


_LIMIT_DURATIONS = ("auth_lockout", "auth_lockout_max", "mail_seconds", "loop_window", "mailbox_wait", "retention",
                    "clock_skew")


def _address(value: Any) -> str:
    text = _string(value).strip()
    if not is_address(text):
        raise ValueError(f"must be a mail address such as judge@example.org, not {value!r}")
    return text


def _zone(value: Any) -> str:
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError  # here: its import searches the time-zone folders

    text = _string(value)
    try:
        ZoneInfo(text)
    except (ZoneInfoNotFoundError, ValueError):
        raise ValueError(f"unknown time zone {text!r} (e.g. Europe/Berlin, UTC)") from None
    return text


def _postgres_url(value: Any) -> str:
    text = _nonempty(value)
    if not text.startswith(("postgresql://", "postgres://")):
        raise ValueError("must be a PostgreSQL URL such as postgresql://judge@db.example.org/adjudicator")
    return text


def _variant(value: Any) -> str:
    from adjudicator.games.registry import check_variant

    text = _string(value)
    try:
        check_variant(text)
    except ValueError as error:  # UnknownGame
        raise ValueError(str(error)) from None
    return text


def _byte_count(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 1024 <= value <= 16 * 1024 * 1024:
        raise ValueError(f"must be a number of bytes between 1024 and 16777216, not {value!r}")
    return value


def _server_keys(section: str, kinds: tuple[str, ...], user: Check) -> dict[str, tuple[str, Check]]:
    """The keys shared by [mailbox] and [smtp]: kind, Maildir path, server and login."""
    checks: dict[str, Check] = {
        "kind": _one_of(*kinds), "path": _nonempty, "host": _nonempty, "port": _port, "tls": _one_of(*TLS_MODES),
        "user": user, "password": _string,
    }
    keys = {key: (f"{section}.{key}", check) for key, check in checks.items()}
    keys["password_env"] = (f"{section}.password", _nonempty)
    return keys


# section -> key -> (field path, check)
_SCHEMA: dict[str, dict[str, tuple[str, Check]]] = {
    "rules": {"default_variant": ("default_variant", _variant)},
    "database": {
        "path": ("database", _nonempty), "url": ("database_url", _postgres_url), "url_env": ("database_url", _nonempty),
        "mail_key": ("mail_key", _nonempty),
    },
    "judge": {
        "address": ("address", _address),
        "name": ("name", _nonempty),
        "language": ("language", _one_of(*LANGUAGES)),
        "time_zone": ("time_zone", _zone),
        "admin": ("admin", _address),
        "admin_password": ("admin_password", _nonempty),
        "admin_password_env": ("admin_password", _nonempty),
    },
    "mailbox": {**_server_keys("mailbox", ("maildir", "imap"), _nonempty), "folder": ("mailbox.folder", _nonempty)},
    "smtp": _server_keys("smtp", ("maildir", "smtp"), _string),
    "service": {
        "poll_interval": ("poll_interval", _seconds), "retry_base": ("retry_base", _seconds),
        "lease": ("lease_seconds", _seconds),
    },
    "data": {"folder": ("data_folder", _nonempty), "max_bytes": ("data_max_bytes", _byte_count)},
    "deadlines": {kind: (f"deadlines.{kind}", _duration) for kind in ("movement", "retreat", "adjustment", "play")},
    "limits": {name: (f"limits.{name}", _length if name in _LIMIT_DURATIONS else _count)
               for name in Limits.__slots__},
}


def _apply(config: Config, path: str, value: Any) -> Config:
    if "." not in path:
        return config.replace(**{path: value})
    section, key = path.split(".")
    if section == "deadlines":
        return config.replace(deadlines={**config.deadlines, key: value})
    part = getattr(config, section)
    return config.replace(**{section: part.replace(**{key: value})})


def load_config(path: Path | None, environ: Mapping[str, str] | None = None, *,
                need_secrets: bool = True) -> Config:
    """Read ``path`` (``None``: the embedded defaults) into a ``Config``;
    ``environ`` supplies the secrets named by ``password_env`` keys
    (default: the process environment).  With ``need_secrets`` False (a
    command that sends no mail and answers no ADMIN), a password whose
    environment variable is unset is simply left empty."""
    environ = os.environ if environ is None else environ
    if path is None:
        return _resolve_paths(Config(), Path.cwd())
    where = str(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise ConfigError(f"{where}: cannot read: {error.strerror}") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{where}: not valid TOML: {error}") from None
    config = Config()
    for section, table in data.items():
        if section not in _SCHEMA or not isinstance(table, dict):
            raise ConfigError(f"{where}: unknown section [{section}] (known: {', '.join(_SCHEMA)})")
        for key, value in table.items():
            entry = _SCHEMA[section].get(key)
            if entry is None:
                raise ConfigError(f"{where}: unknown key {section}.{key} (known: {', '.join(_SCHEMA[section])})")
            target, check = entry
            try:
                checked = check(value)
                if key.endswith("_env"):
                    if checked not in environ and not need_secrets and key != "url_env":
                        continue
                    if checked not in environ:
                        raise ValueError(f"the environment variable {checked} is not set")
                    checked = environ[checked]
                    if key == "url_env":
                        checked = _postgres_url(checked)
            except ValueError as error:
                raise ConfigError(f"{where}: {section}.{key}: {error}") from None
            config = _apply(config, target, checked)
    _require(config, where, need_secrets)
    return _resolve_paths(config, path.parent.resolve())


def _require(config: Config, where: str, need_secrets: bool = True) -> None:
    """Settings that other settings make necessary."""
    if config.mailbox.kind == "imap":
        for key in ("host", "user"):
            if not getattr(config.mailbox, key):
                raise ConfigError(f"{where}: mailbox.{key} is missing (needed when mailbox.kind = \"imap\")")
    if config.smtp.kind == "smtp" and not config.smtp.host:
        raise ConfigError(f"{where}: smtp.host is missing (needed when smtp.kind = \"smtp\")")
    if need_secrets and config.admin and not config.admin_password:
        raise ConfigError(f"{where}: judge.admin_password (or judge.admin_password_env) is missing for judge.admin")
    if need_secrets and config.smtp.user and not config.smtp.password:
        raise ConfigError(f"{where}: smtp.password (or smtp.password_env) is missing for smtp.user {config.smtp.user!r}")


def _resolve_paths(config: Config, folder: Path) -> Config:
    return config.replace(
        database=folder / Path(config.database),
        mail_key=folder / Path(config.mail_key) if config.mail_key is not None else None,
        mailbox=config.mailbox.replace(path=folder / Path(config.mailbox.path)),
        smtp=config.smtp.replace(path=folder / Path(config.smtp.path)),
        data_folder=folder / Path(config.data_folder) if config.data_folder is not None else None,
    )
