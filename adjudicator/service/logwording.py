"""The game log and the GM's change log in the reader's language.

What a GM command changed is stored once, in a fixed English form
(``paused in S1901M``, ``weekly Sun 20:00``, ``Turkey: new player``), so
the log stays one readable record.  This table reads each form back into a
catalogue entry (``templates/texts/players.toml``, keys ``gmlog_*`` and
``log_*``), so answers, reports and HISTORY show it in the game's language
with power names as the game writes them.  A detail no pattern knows (a
time zone, a GM's own outcome text) is shown as stored.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache

from adjudicator.service.render import Texts

_DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")

DETAILS: tuple[tuple[str, str], ...] = (
    ("gmlog_created", r"created \((?P<variant>.+)\)"),
    ("gmlog_password", r"GM password changed"),
    ("gmlog_assigned", r"(?P<power>.+) assigned"),
    ("gmlog_started_disorder", r"started; in civil disorder: (?P<powers>.+)"),
    ("gmlog_started", r"started"),
    ("gmlog_deadline", r"deadline (?P<time>\d{4}-\d\d-\d\dT\S+)"),
    ("gmlog_paused", r"paused in (?P<phase>\S+)"),
    ("gmlog_paused_now", r"paused"),
    ("gmlog_resumed", r"resumed, deadline (?P<time>\d{4}-\d\d-\d\dT\S+)"),
    ("gmlog_rolled_back", r"rolled back to (?P<phase>\S+)"),
    ("gmlog_new_player", r"(?P<power>.+): new player"),
    ("gmlog_ejected", r"(?P<power>.+) ejected, civil disorder"),
    ("gmlog_movement", r"movement (?P<duration>\S+)"),
    ("gmlog_weekly", r"weekly (?P<times>.+)"),
    ("gmlog_no_grace", r"no grace period"),
    ("gmlog_grace", r"grace (?P<duration>\S+)"),
    ("gmlog_late", r"excused (?P<excused>\d+), civil disorder after (?P<missed>\d+) missed"),
    ("gmlog_reminders_off", r"reminders off"),
    ("gmlog_reminders", r"reminders (?P<durations>.+)"),
    ("gmlog_press_movement", r"press (?P<mode_key>white|grey|none) \(movement phases only\)"),
    ("gmlog_press", r"press (?P<mode_key>white|grey|none)"),
    ("gmlog_random_on", r"random powers on"),
    ("gmlog_random_off", r"random powers off"),
    ("gmlog_unit_added", r"(?P<power>[^:]+): (?P<unit>[AF] \S+) added"),
    ("gmlog_unit_removed", r"unit in (?P<province>\S+) removed"),
    ("gmlog_unit_moved", r"unit (?P<origin>\S+) moved to (?P<destination>\S+)"),
    ("gmlog_centre_neutral", r"(?P<province>.+?) owned by nobody"),
    ("gmlog_centre", r"(?P<province>.+?) owned by (?P<power>.+)"),
    ("gmlog_confession_until", r"(?P<power>[^:]+): (?P<state>[\w-]+) until (?P<until>\d+)"),
    ("gmlog_confession", r"(?P<power>[^:]+): (?P<state>catholic|protestant|ex-catholic|ex-protestant)"),
    ("gmlog_incapacitated", r"unit in (?P<province>\S+) incapacitated"),
    ("gmlog_option", r"(?P<option>[\w.-]+) = (?P<value>.+)"),
    ("log_created", r"variant (?P<variant>.+)"),
    ("log_started", r"phase (?P<phase>\S+)"),
)
"""(catalogue key, pattern of the stored English detail); the pattern must
match the whole detail.  Fields: ``power`` a power key, ``powers`` power
keys joined by ", ", ``time`` an ISO time, ``times`` weekly times
(``Sun 20:00, Wed 20:00``), ``mode_key`` a press mode."""


@cache
def _compiled() -> tuple[tuple[str, re.Pattern[str]], ...]:
    return tuple((key, re.compile(pattern)) for key, pattern in DETAILS)


def detail_text(detail: str, texts: Texts, power_name: Callable[[str], str]) -> str:
    """A stored English detail in ``texts``' language (see the module
    docstring); unknown details unchanged."""
    for key, pattern in _compiled():
        found = pattern.fullmatch(detail.strip())
        if found is None:
            continue
        fields = {name: value for name, value in found.groupdict().items() if value is not None}
        if "power" in fields:
            fields["power"] = power_name(fields["power"])
        if "powers" in fields:
            fields["powers"] = ", ".join(power_name(p.strip()) for p in fields["powers"].split(","))
        if "time" in fields:
            fields["time"] = texts.when(fields["time"])
        if "times" in fields:
            fields["times"] = ", ".join(_weekly(part.strip(), texts) for part in fields["times"].split(","))
        if "state" in fields:
            fields["state"] = texts(f"map_{fields['state'].replace('-', '_')}")
        if "mode_key" in fields:
            fields["mode"] = texts(f"press_mode_{fields.pop('mode_key')}")
        return texts(key, **fields)
    return detail


def _weekly(part: str, texts: Texts) -> str:
    """``Sun 20:00`` as ``sonntags 20:00`` / ``Sundays 20:00``."""
    day, _, clock = part.partition(" ")
    if day not in _DAYS:
        return part
    return texts("weekly_time", day=texts(f"weekday_{day.lower()}"), time=clock)


def log_line(kind: str, detail: str, texts: Texts, power_name: Callable[[str], str]) -> str:
    """One entry of the game log (``created``, ``started``, ``resigned``,
    ``ended``) as HISTORY shows it."""
    if kind in ("resigned", "joined", "left"):
        shown = power_name(detail)
    elif kind == "ended":
        shown = detail
    else:
        shown = detail_text(detail, texts, power_name)
    return texts(f"log_kind_{kind}", detail=shown)
