"""Game data a GM supplies (a card list, a board): the service side of
``DataFile`` (``adjudicator/games/base.py``), for every game.

A data file's text reaches a game's options as ``data.<name>`` from one of
three places only: a TOML attachment of a GM's mail (``GM CREATE``,
``GM DATA``), the operator's command line (``game create --data
NAME=FILE``), or a file in the data folder named in the configuration
(``[data] folder``; ``GM DATA <name> <file>`` names a file there by its
plain name).  Nothing here ever opens a path a mail wrote: a folder file
must be a regular file directly inside the folder, and every text is cut
off at ``[data] max_bytes`` before it is read.  Each text is validated by
the game's own ``check`` before it is stored; problems come back with
file line and field.  A game whose required data is missing is created
all the same, waiting for the data (its state says which); it cannot
start until the data is there or the GM chooses the stand-in set
(option ``data=standin``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from adjudicator.games.base import STANDIN, DataFile, Finding, GameModule, data_option
from adjudicator.records import Record, replace

if TYPE_CHECKING:
    from email.message import Message

DEFAULT_MAX_BYTES = 256 * 1024
"""The size cap of one data file unless the configuration sets ``[data] max_bytes``."""
MAX_ATTACHMENTS = 8
"""At most this many attachments of one mail are looked at."""
MAX_PARTS = 200
"""At most this many MIME parts of one mail are walked to find them."""
_PLAIN_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$")
_PATH_KEYS = re.compile(r"(^|[._])(file|path|dir|folder)$", re.IGNORECASE)


class DataRefused(ValueError):
    """A data file that cannot be used; ``problems`` says every reason,
    each beginning with where it is (line, field): a text or a game's
    ``Finding`` (whose ``str`` is its English text)."""

    def __init__(self, problems: tuple[str | Finding, ...] | list[str | Finding] | list[str]) -> None:
        self.problems: tuple[str | Finding, ...] = tuple(problems)
        super().__init__("; ".join(str(p) for p in self.problems))


class Attached(Record):
    """A file attached to a mail: its name as given and its bytes (at most
    the size cap plus one byte: ``too_large`` says it was cut)."""

    __slots__ = ("filename", "data", "too_large")
    filename: str
    data: bytes
    too_large: bool

    def __init__(self, filename: str, data: bytes, too_large: bool = False) -> None:
        object.__setattr__(self, "filename", filename)
        object.__setattr__(self, "data", data)
        object.__setattr__(self, "too_large", too_large)


def files_of(module: object) -> tuple[DataFile, ...]:
    """The data files of a game module or the registry's description of
    a game (none for a module without them)."""
    getter = getattr(module, "data_files", None)
    return tuple(getter()) if callable(getter) else ()


def find(module: object, name: str | None) -> DataFile | None:
    """The data file ``name`` of ``module`` (any case); with ``name`` None
    the only one, when the game has exactly one."""
    files = files_of(module)
    if name is None:
        return files[0] if len(files) == 1 else None
    wanted = name.casefold()
    return next((f for f in files if f.name.casefold() == wanted), None)


def uses_standin(options: Mapping[str, Any]) -> bool:
    """True when the game plays with the stand-in data sets (``data=standin``)."""
    return str(options.get("data", "")).casefold() == STANDIN


def missing(module: GameModule, options: Mapping[str, Any]) -> tuple[DataFile, ...]:
    """The required data files that ``options`` neither carry (``data.<name>``)
    nor replace by a stand-in set (``data=standin`` for all, ``<name>=standin``
    for one)."""
    def standin(name: str) -> bool:
        return uses_standin(options) or str(options.get(name, "")).casefold() == STANDIN

    return tuple(f for f in files_of(module) if f.required and data_option(f.name) not in options
                 and not standin(f.name))


def start_or_wait(module: GameModule, options: Mapping[str, Any], seed: int) -> dict[str, Any]:
    """The first state of a game, or, while required data is missing, a
    state that says which (``awaiting_data``); ``GameSetupError`` from the
    module as ``start`` raises it."""
    waiting = missing(module, options)
    if waiting:
        return {"options": dict(options), "awaiting_data": [f.name for f in waiting]}
    return module.start(options, seed)


def awaiting(state: Mapping[str, Any]) -> tuple[str, ...]:
    """The names of the data files a game's state still waits for (empty:
    none; the game may start)."""
    names = state.get("awaiting_data") if isinstance(state, Mapping) else None
    return tuple(str(n) for n in names) if isinstance(names, list) else ()


def path_option(key: str) -> bool:
    """True for an option key that would name a server path (``cards.file``,
    ``map.path``, ...) or carry a data file's text (``data.<name>``): a mail
    may set neither; files come as attachments or from the data folder."""
    return key.casefold().startswith("data.") or bool(_PATH_KEYS.search(key))


def _refused(where: str, english: str, key: str, line: int = 0, **fields: Any) -> DataRefused:
    """A refusal of the whole file ``where`` (its name): the English text
    ``<where>: <english>`` and the catalogue ``key`` (fields ``file``,
    ``line`` when one is named, and ``fields``) for the game's language."""
    named = {"file": where, **({"line": str(line)} if line else {}), **{k: str(v) for k, v in fields.items()}}
    found: list[str | Finding] = [Finding(f"{where}: {english}", key, tuple(named.items()), line)]
    return DataRefused(found)


def decoded(data: bytes, where: str, limit: int) -> str:
    """A data file's bytes as text (UTF-8, a byte-order mark dropped), or
    ``DataRefused`` for one larger than ``limit`` bytes or not UTF-8 (naming
    the line of the first bad byte)."""
    if len(data) > limit:
        raise _refused(where, f"larger than {limit} bytes; a data file may have at most {limit}", "data_too_large",
                       limit=limit)
    if b"\x00" in data:
        raise _refused(where, "a binary file, not a TOML text", "data_file_binary")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise _refused(where, f"line {line}: not UTF-8 text (save the file as UTF-8)", "data_file_not_utf8",
                       line=line) from None


def checked(data_file: DataFile, text: str, where: str) -> str:
    """``text`` when the game's check finds nothing wrong with it, else
    ``DataRefused`` with every problem, each prefixed with ``where``."""
    problems = data_file.check(text)
    if problems:
        raise DataRefused([replace(p, text=f"{where}: {p.text}") if isinstance(p, Finding) else f"{where}: {p}"
                           for p in problems])
    return text


def supplied(options: Mapping[str, Any], data_file: DataFile, text: str) -> dict[str, Any]:
    """``options`` carrying ``text`` as the data file's ``data.<name>``."""
    return {**options, data_option(data_file.name): text}


def from_folder(folder: Path | None, filename: str, limit: int) -> bytes:
    """The bytes of the file ``filename`` in the operator's data ``folder``:
    a plain name (letters, digits, ``.``, ``_``, ``-``; no path, no leading
    dot), a regular file directly inside the folder (no link, no device),
    at most ``limit`` bytes.  ``DataRefused`` says what is wrong without
    telling anything about the server beyond the folder."""
    if folder is None:
        raise _refused(filename, "the judge has no data folder (configuration [data] folder)", "data_folder_none")
    if not _PLAIN_NAME.match(filename) or ".." in filename:
        raise _refused(filename, "not a plain file name of the data folder (no paths)", "data_folder_not_plain")
    base = folder.resolve()
    path = base / filename
    try:
        if path.is_symlink() or path.resolve().parent != base or not path.is_file():
            raise _refused(filename, "no such file in the data folder", "data_folder_no_file")
        with open(path, "rb") as handle:
            data = handle.read(limit + 1)
    except OSError:
        raise _refused(filename, "no such file in the data folder", "data_folder_no_file") from None
    if len(data) > limit:
        raise _refused(filename, f"larger than {limit} bytes; a data file may have at most {limit}", "data_too_large",
                       limit=limit)
    return data


def _leaves(message: Message) -> Iterator[Message]:
    """The leaf parts of a mail in order, at most ``MAX_PARTS`` of them,
    without recursion (a hostile mail may nest parts deeply)."""
    from email.message import Message

    stack = [message]
    seen = 0
    while stack and seen < MAX_PARTS:
        part = stack.pop()
        seen += 1
        payload = part.get_payload()
        if isinstance(payload, list):
            stack.extend(reversed([p for p in payload if isinstance(p, Message)]))
        else:
            yield part


def attachments(message: Message, limit: int) -> tuple[Attached, ...]:
    """The files attached to ``message`` (parts with a file name), at most
    ``MAX_ATTACHMENTS``; one whose content exceeds ``limit`` bytes is kept
    cut off with ``too_large`` set (its rest is never decoded)."""
    found: list[Attached] = []
    for part in _leaves(message):
        if len(found) >= MAX_ATTACHMENTS:
            break
        try:
            filename = part.get_filename()
        except Exception:  # a malformed header parameter: not a usable attachment
            continue
        if not filename:
            continue
        raw = part.get_payload()
        if isinstance(raw, str) and len(raw) > 2 * limit + 4096:  # base64 grows by 4/3: far beyond the cap
            found.append(Attached(str(filename), b"", True))
            continue
        try:
            data = part.get_payload(decode=True)
        except Exception:
            continue
        if not isinstance(data, bytes):
            continue
        found.append(Attached(str(filename), data[: limit + 1], len(data) > limit))
    return tuple(found)


def matching(files: tuple[DataFile, ...], attached: tuple[Attached, ...]) -> dict[str, Attached]:
    """Which attachment is which data file: one whose name (before
    ``.toml``) is or ends with the data file's name (``cards.toml``,
    ``my-1848-cards.toml``); with one data file, the only TOML attachment."""
    result: dict[str, Attached] = {}
    tomls = [a for a in attached if a.filename.casefold().endswith(".toml")]
    for data_file in files:
        name = data_file.name.casefold()
        for item in tomls:
            stem = item.filename.casefold().removesuffix(".toml")
            if stem == name or stem.endswith(("-" + name, "_" + name, "." + name)):
                result[data_file.name] = item
                break
    if len(files) == 1 and not result and len(tomls) == 1:
        result[files[0].name] = tomls[0]
    return result
