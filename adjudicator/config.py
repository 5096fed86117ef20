"""Reading the judge's configuration file (TOML, see config.example.toml).

Every key is checked: an unknown section or key, or a value of the wrong
type, stops start-up with ``ConfigError`` naming the file and the key.
Defaults are embedded, so no configuration file is needed at all.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from adjudicator.core.mapdata import MapError, load_map


class ConfigError(ValueError):
    """A configuration that cannot be used; the message names file and key."""


@dataclass(frozen=True)
class Config:
    """The judge's settings (embedded defaults where the file is silent).

    Relative paths are resolved against the folder of the configuration
    file, or the working directory when there is none.
    """

    default_variant: str = "standard"
    database: Path = Path("var/adjudicator.sqlite3")


_SCHEMA: dict[str, dict[str, type]] = {"rules": {"default_variant": str}, "database": {"path": str}}
_FIELDS = {("rules", "default_variant"): "default_variant", ("database", "path"): "database"}


def load_config(path: Path | None) -> Config:
    """Read ``path`` (``None``: the embedded defaults) into a ``Config``."""
    if path is None:
        return Config(database=Path.cwd() / Config.database)
    where = str(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise ConfigError(f"{where}: cannot read: {error.strerror}") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{where}: not valid TOML: {error}") from None
    values: dict[str, Any] = {}
    for section, table in data.items():
        if section not in _SCHEMA or not isinstance(table, dict):
            raise ConfigError(f"{where}: unknown section [{section}] (known: {', '.join(_SCHEMA)})")
        for key, value in table.items():
            expected = _SCHEMA[section].get(key)
            if expected is None:
                raise ConfigError(f"{where}: unknown key {section}.{key}")
            if not isinstance(value, expected):
                raise ConfigError(f"{where}: {section}.{key} must be a {expected.__name__}")
            values[_FIELDS[(section, key)]] = value
    values["database"] = path.parent.resolve() / Path(values.get("database", Config.database))
    config = Config(**values)
    try:
        load_map(config.default_variant)
    except MapError as error:
        raise ConfigError(f"{where}: rules.default_variant: {error}") from None
    return config
