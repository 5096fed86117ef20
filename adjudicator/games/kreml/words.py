"""Kreml's sentences in German and English, from the message catalogue
file ``templates/texts/kreml.toml`` (keys ``kreml_*``; the service reads
the same file as part of the one catalogue)."""

from __future__ import annotations

import tomllib
from functools import cache
from typing import Any

from adjudicator.resources import data_dir

LANGUAGES = ("de", "en")
OFFICE_NAMES = {
    "chief": ("Parteichef", "Party Chief"), "kgb": ("KGB-Chef", "KGB Chief"),
    "foreign": ("Aussenminister", "Foreign Minister"), "defence": ("Verteidigungsminister", "Defence Minister"),
    "ideology": ("Chef-Ideologe", "Chief Ideologist"), "industry": ("Industrieminister", "Industry Minister"),
    "agriculture": ("Landwirtschaftsminister", "Agriculture Minister"), "sport": ("Sportminister", "Sports Minister"),
    "candidate": ("Kandidat", "Candidate"),
}


@cache
def _entries() -> dict[str, dict[str, str]]:
    with open(data_dir("templates") / "texts" / "kreml.toml", "rb") as handle:
        return {k: dict(v) for k, v in tomllib.load(handle).items()}


def say(key: str, language: str, **fields: Any) -> str:
    """The catalogue entry ``kreml_<key>`` in ``language`` with ``fields``."""
    entry = _entries()[f"kreml_{key}"]
    return entry.get(language, entry["en"]).format(**fields)


def both(key: str, **fields: Any) -> dict[str, str]:
    """``say`` in German and English."""
    return {language: say(key, language, **fields) for language in LANGUAGES}


def office(key: str, language: str) -> str:
    """An office's (or the candidates') name in ``language``."""
    german, english = OFFICE_NAMES.get(key, (key, key))
    return german if language == "de" else english


def player(seat: str, language: str) -> str:
    """``Spielerin A`` / ``Player A``."""
    return say("player", language, seat=seat)


def event_text(event: dict[str, Any], language: str) -> str:
    """One event of a report (``flow``'s ``{"key", "args"}``) as a sentence."""
    key, args = str(event["key"]), dict(event["args"])
    if "card_de" in args:
        args["card"] = args.pop(f"card_{language}", args.get("card_en"))
        args.pop("card_en", None)
    if "office" in args:
        args["office"] = office(str(args["office"]), language)
    if "player" in args:
        args["player"] = player(str(args["player"]), language) if args["player"] else say("nobody", language)
    for field in ("why", "how"):
        if field in args:
            args[field] = say(f"why_{args[field]}", language)
    if key == "revealed":
        args["before"] = say("before", language, player=player(args["before"], language)) if args["before"] else ""
    if key == "vote":
        votes = ", ".join(f"{n} {say('vote_' + v.lower(), language)}" for n, v in args["votes"].items())
        args["votes"] = votes or say("abstain_none", language)
        key = f"vote_{args['motion']}_{'failed' if args['failed'] else 'ok'}"
    if key == "health":
        args["cure"] = say("in_cure", language) if args["cure"] else ""
        key = "health_dead" if args["dead"] else "health"
    if key == "parade":
        key = "parade_healthy" if not args["need"] else "parade_ok" if args["success"] else "parade_failed"
    if key == "won" and not event["args"].get("player"):
        key = "won_tie"
    return say(key, language, **args)
