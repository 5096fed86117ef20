"""The rules core's reasons as entries of the message catalogue.

The core (``core/``) states why an order is illegal or failed in one
fixed English form (``unknown province 'Yrk'``, ``bounced``); it stays free
of languages and templates.  This table reads each such form back into a
catalogue key (``templates/texts/players.toml``, keys ``why_*``) with its
fields, so a German game answers in German.  Fields named ``power`` or
``owner`` are power keys: the service writes them as the power's name in
the game's language.  A reason no pattern knows is shown as written (and
``tests/test_inbox.py`` checks that every reason the core can give has a
pattern).
"""

from __future__ import annotations

import re
from functools import cache

from adjudicator.games.base import Note

_U = r"(?:[AF] )?[A-Z][A-Za-z0-9]*(?:/[A-Z]{2})?"  # a unit or location as the core prints it
_P = r"[A-Z][A-Za-z0-9]*(?:/[A-Z]{2})?"
_W = r"[^ ]+"

REASONS: tuple[tuple[str, str], ...] = (
    ("why_unknown_province", r"unknown province '(?P<name>.+)'(?: \(a '-' missing between (?P<head>.+) and (?P<tail>.+)\?\))?"),
    ("why_unknown_coast", r"unknown coast '(?P<name>.+)'"),
    ("why_unknown_power", r"unknown power '(?P<name>.+)'"),
    ("why_unknown_confession", r"unknown confession '(?P<name>.+)' \(catholic or protestant\)"),
    ("why_ends_early", r"order ends too early: expected (?P<expected>.+)"),
    ("why_unexpected_word", r"unexpected '(?P<word>.+)': expected (?P<expected>.+)"),
    ("why_unexpected_character", r"unexpected character '(?P<char>.+)'"),
    ("why_no_unit", rf"there is no unit in (?P<province>{_P})"),
    ("why_no_unit_to", rf"there is no unit in (?P<province>{_P}) to (?P<what_key>support|convoy)"),
    ("why_not_own", rf"the unit in (?P<province>{_P}) belongs to (?P<power>{_W})"),
    ("why_army_to_sea", r"an army cannot move to a sea"),
    ("why_fleet_inland", rf"a fleet cannot go to (?P<province>{_P}), it is inland"),
    ("why_fleet_cannot_reach", rf"F (?P<origin>{_P}) cannot reach (?P<destination>{_P})"),
    ("why_army_cannot_reach", rf"A (?P<origin>{_P}) cannot reach (?P<destination>{_P})"),
    ("why_coast_needed", r"the coast must be given: (?P<coasts>.+)"),
    ("why_coast_needed_build", rf"the coast must be given for a fleet in (?P<province>{_P}): (?P<coasts>.+)"),
    ("why_own_province", r"a unit cannot move to its own province"),
    ("why_not_adjacent", rf"(?P<destination>{_P}) is not next to (?P<origin>{_P}) and no convoy route is possible"),
    ("why_no_convoy_fleets", rf"no fleets could convoy A (?P<origin>{_P}) to (?P<destination>{_P})"),
    ("why_support_self", r"a unit cannot support itself"),
    ("why_support_own_move", r"a unit cannot support its own move"),
    ("why_support_into_own", r"a unit cannot support a move into its own province"),
    ("why_support_cannot_reach", rf"(?P<unit>{_U}) cannot reach (?P<province>{_P}), so cannot support there"),
    ("why_support_move_cannot_reach",
     rf"(?P<unit>{_U}) cannot reach (?P<province>{_P}), so cannot support a move there"),
    ("why_convoy_not_fleet", rf"(?P<unit>{_U}) cannot convoy: only fleets at sea convoy"),
    ("why_convoy_not_army", rf"(?P<unit>{_U}) is not an army; only armies can be convoyed"),
    ("why_only_armies_convoyed", r"only armies can be convoyed"),
    ("why_convoy_impossible", rf"an army cannot be convoyed from (?P<origin>{_P}) to (?P<destination>{_P})"),
    ("why_not_on_route", rf"(?P<unit>{_U}) is not on any convoy route from (?P<origin>{_P}) to (?P<destination>{_P})"),
    ("why_incapacitated", rf"(?P<unit>{_U}) defected last turn and holds, incapacitated"),
    ("why_not_home", rf"(?P<province>{_P}) is not a home centre of (?P<power>{_W})"),
    ("why_not_owned", rf"(?P<power>{_W}) does not own (?P<province>{_P})"),
    ("why_occupied", rf"(?P<province>{_P}) is occupied"),
    ("why_say_kind", rf"say whether an army or a fleet is to be built in (?P<province>{_P})"),
    ("why_build_inland", rf"a fleet cannot be built in (?P<province>{_P}), it is inland"),
    ("why_no_builds", rf"(?P<power>{_W}) has no builds in this adjustment phase"),
    ("why_no_builds_left", rf"(?P<power>{_W}) has no builds left"),
    ("why_no_waive", rf"(?P<power>{_W}) has no builds to waive"),
    ("why_no_removals", rf"(?P<power>{_W}) has no units to remove"),
    ("why_no_removals_left", rf"(?P<power>{_W}) has no more units to remove"),
    ("why_already_removed", rf"(?P<unit>{_U}) is already removed"),
    ("why_site_taken", rf"(?P<province>{_P}) already has a build this phase"),
    ("why_not_adjustment", r"'(?P<order>.+)' is not an order for an adjustment phase: only builds, waives and removals"),
    ("why_not_movement", r"'(?P<order>.+)' is not an order for a movement phase"),
    ("why_not_retreat", r"'(?P<order>.+)' is not an order for a retreat phase: only retreats and disbands"),
    ("why_not_of_power", r"'(?P<order>.+)' is not an order of a power"),
    ("why_not_dislodged", rf"(?P<unit>{_U}) was not dislodged; only dislodged units are ordered now"),
    ("why_no_dislodged", rf"there is no dislodged unit in (?P<province>{_P})"),
    ("why_dislodged_not_own", rf"the dislodged unit in (?P<province>{_P}) belongs to (?P<power>{_W})"),
    ("why_cannot_retreat", rf"(?P<unit>{_U}) cannot retreat to (?P<destination>{_P}) \(it may retreat to: (?P<allowed>.*)\)"),
    ("why_retreat_one", r"a retreat goes to one neighbouring province and cannot be convoyed"),
    ("why_fleet_one", r"a fleet moves one province per turn"),
    ("why_double_move_form", r"a double move names one province in between: F xxx - yyy - zzz"),
    ("why_upstream", rf"(?P<origin>{_P}) - (?P<destination>{_P}) goes upstream on the (?P<river>.+); a double move goes downstream"),
    ("why_not_one_river",
     rf"(?P<origin>{_P}) and (?P<destination>{_P}) do not lie on one river; a double move follows a river"),
    ("why_no_transform", r"units cannot transform in this variant"),
    ("why_already_army", rf"(?P<unit>{_U}) is already an army"),
    ("why_already_fleet", rf"(?P<unit>{_U}) is already a fleet there"),
    ("why_army_at_sea", rf"an army cannot stand in (?P<province>{_P}), it is sea"),
    ("why_fleet_stand_inland", rf"a fleet cannot stand in (?P<province>{_P}), it is inland"),
    ("why_no_such_coast", rf"(?P<province>{_P}) has no coast (?P<coast>{_W}): (?P<coasts>.+)"),
    ("why_no_confession", rf"(?P<power>{_W}) has no confession"),
    ("why_confession_fixed",
     rf"(?P<power>{_W}) is (?P<state>{_W}) until the end of (?P<until>{_W}); it cannot change again"),
    ("why_confession_same", rf"(?P<power>{_W}) is (?P<state>{_W}) already"),
    ("why_no_confessions", r"'(?P<order>.+)': there are no confessions in this variant"),
    ("why_superseded", r"superseded"),
    ("why_bounced", r"bounced"),
    ("why_dislodged", r"dislodged"),
    ("why_cut", r"cut"),
    ("why_no_convoy", r"no convoy"),
    ("why_convoy_disrupted", r"convoy disrupted"),
    ("why_first_leg", r"the first leg failed"),
    ("why_own_power", r"cannot dislodge a unit of its own power"),
    ("why_paradox", r"convoy paradox \(Szykman rule\)"),
    ("why_convoyed_army_missing", r"the convoyed army did not arrive"),
    ("why_no_transform_dislodged", r"dislodged, so it does not transform"),
    ("why_second_leg", rf"stopped in (?P<province>{_P}): second leg (?P<reason>.+)"),
    ("why_supported_elsewhere", rf"the supported fleet moves to (?P<destination>{_P})"),
    ("why_supported_moves", r"the supported unit moves instead of holding"),
    ("why_supported_other_move", r"the supported unit does not make that move"),
    ("why_army_not_convoyed", r"the army does not move as convoyed"),
    ("why_civil_disorder", r"civil disorder"),
    ("why_no_retreat_ordered", r"no retreat ordered"),
    ("why_retreat_bounced", r"bounced with another retreat; the unit is disbanded"),
    ("why_double_turn", r"a double move cannot turn from the (?P<first>.+) into the (?P<second>.+) at (?P<middle>.+): (?P<rest>.+)"),
)
"""(catalogue key, pattern of the core's English reason); the pattern must
match the whole reason; its named groups are the entry's fields."""


@cache
def _compiled() -> tuple[tuple[str, re.Pattern[str]], ...]:
    return tuple((key, re.compile(pattern)) for key, pattern in REASONS)


def reason_note(message: str, hint: str = "") -> Note | None:
    """The catalogue entry of a core reason (``None`` when no pattern reads
    it).  A ``did you mean ...`` hint becomes the field ``suggest``; a
    field ending in ``_key`` names another catalogue entry (the reason of
    a double move's second leg)."""
    for key, pattern in _compiled():
        found = pattern.fullmatch(message.strip())
        if found is None:
            continue
        fields = {name: value for name, value in found.groupdict().items() if value is not None}
        if "head" in fields:
            key = "why_missing_dash"
        if "what_key" in fields:
            fields["what_key"] = f"why_what_{fields['what_key']}"
        if key == "why_second_leg":
            inner = reason_note(fields.pop("reason"))
            fields["reason_key"] = inner.key if inner is not None else "why_bounced"
        if hint.startswith("did you mean "):
            fields["suggest"] = hint.removeprefix("did you mean ").rstrip("?")
        return Note(key, tuple(sorted(fields.items())))
    return None
