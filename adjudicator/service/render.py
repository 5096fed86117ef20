"""Player-facing text: the message catalogue (templates/texts.toml) and the
Jinja2 templates of acknowledgements and reports, in German or English.

``Texts`` formats catalogue entries; ``render`` fills a template with a
context plus the helpers every template may use: ``t`` (a catalogue entry),
``power`` (a power's name in the mail's language) and ``when`` (a time in
the game's time zone).  Rendering reads only the packaged files.
"""

from __future__ import annotations

import tomllib
from datetime import datetime
from functools import cache
from typing import TYPE_CHECKING, Any, Callable

from adjudicator.records import Record
from adjudicator.resources import data_dir

if TYPE_CHECKING:  # jinja2 is imported when the first template is rendered, not for Texts alone
    import jinja2

_WEEKDAYS = {
    "de": ("Montag", "Dienstag", "Mittwoch", "Donnerstag", "Freitag", "Samstag", "Sonntag"),
    "en": ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"),
}
_MONTHS = {
    "de": ("Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober",
           "November", "Dezember"),
    "en": ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December"),
}


class CatalogueError(ValueError):
    """Two catalogue files define the same key."""


@cache
def catalogue() -> dict[str, dict[str, str]]:
    """Every catalogue entry: key -> language -> text (``str.format`` fields).

    The one catalogue is ``templates/texts.toml`` plus every
    ``templates/texts/*.toml`` (one file per game or area, read in name
    order); a key defined twice raises ``CatalogueError`` naming both files."""
    folder = data_dir("templates")
    entries: dict[str, dict[str, str]] = {}
    origin: dict[str, str] = {}
    for path in [folder / "texts.toml", *sorted((folder / "texts").glob("*.toml"))]:
        with open(path, "rb") as handle:
            data = tomllib.load(handle)
        for key, value in data.items():
            if key in entries:
                raise CatalogueError(f"catalogue key {key!r} is in {origin[key]} and {path.name}")
            entries[key] = dict(value)
            origin[key] = path.name
    return entries


class Texts(Record):
    """The catalogue in one language (``de`` or ``en``) and time zone."""

    __slots__ = ("language", "time_zone")
    language: str
    time_zone: str

    def __init__(self, language: str, time_zone: str = "UTC") -> None:
        object.__setattr__(self, "language", language)
        object.__setattr__(self, "time_zone", time_zone)

    def __call__(self, key: str, **fields: Any) -> str:
        """The entry ``key`` with ``fields`` filled in (``KeyError`` for an unknown key)."""
        entry = catalogue()[key]
        return entry.get(self.language, entry["en"]).format(**fields)

    def when(self, moment: str | datetime | None) -> str:
        """A time written out in the game's zone with the zone named, e.g.
        ``Sonntag, 6. Dezember 2026, 20:00 Uhr CET (Europe/Berlin)``."""
        if moment is None:
            return self("no_deadline")
        from zoneinfo import ZoneInfo  # here: its import searches the time-zone folders (issue 20)

        value = datetime.fromisoformat(moment) if isinstance(moment, str) else moment
        local = value.astimezone(ZoneInfo(self.time_zone))
        weekday = _WEEKDAYS[self.language][local.weekday()]
        month = _MONTHS[self.language][local.month - 1]
        zone = f"{local.tzname()} ({self.time_zone})"
        if self.language == "de":
            return f"{weekday}, {local.day}. {month} {local.year}, {local:%H:%M} Uhr {zone}"
        return f"{weekday}, {local.day} {month} {local.year}, {local:%H:%M} {zone}"

    def machine_time(self, moment: str | datetime | None) -> str:
        """A time for the ``:: Deadline:`` line: ISO 8601 in the game's
        zone, to the minute, with its UTC offset (``-`` when there is none)."""
        if moment is None:
            return "-"
        from zoneinfo import ZoneInfo

        value = datetime.fromisoformat(moment) if isinstance(moment, str) else moment
        return value.astimezone(ZoneInfo(self.time_zone)).isoformat(timespec="minutes")


@cache
def _environment() -> jinja2.Environment:
    import jinja2

    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(data_dir("templates"))),
        autoescape=jinja2.select_autoescape(enabled_extensions=("html", "html.j2"), default_for_string=False),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )


def render(template: str, texts: Texts, power_name: Callable[[str], str], **context: Any) -> str:
    """Render ``templates/<template>`` with ``context`` and the helpers
    ``t``, ``when``, ``machine_time``, ``power``, ``powers`` (a list of
    power names, joined) and ``note`` (a game's note stored in report data as
    ``{"key": ..., "fields": {...}}``, worded in the language).  Raises on a name the
    template uses but the context lacks (never renders a blank silently)."""
    from adjudicator.service.notes import note_data_text

    return _environment().get_template(template).render(
        t=texts, when=texts.when, machine_time=texts.machine_time, power=power_name, language=texts.language,
        note=lambda data: note_data_text(data, texts, power_name),
        powers=lambda items: ", ".join(power_name(p) for p in items),
        **context,
    )
