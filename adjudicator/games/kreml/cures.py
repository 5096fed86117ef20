"""Phase 1: cures, in rank order (Hausregel 4), and the stress of the sick
who stay and of the party chief.

Pure steps over the working copy a ``flow.play`` made (see ``flow.py``).
"""

from __future__ import annotations

from adjudicator.games.kreml.effects import add_stress, game_data, go_to, log_event, wait_for
from adjudicator.games.kreml.orders import Order
from adjudicator.games.kreml.rules import CHIEF, JSON, OFFICES, holder, leader, members, office_of


def p1(s: JSON, _: JSON) -> None:
    """Phase 1 begins: the sick office holders in rank order."""
    queue = [o for o in OFFICES if (h := holder(s, o)) is not None and s["pol"][h]["ill"] > 0]
    go_to(s, "cure", queue=queue)


def cure_next(s: JSON, step: JSON) -> None:
    """The next sick holder is asked (an unled one stays and ages); at the end the phase's stress."""
    queue = list(step["queue"])
    while queue:
        name = holder(s, queue.pop(0))
        if name is None or s["pol"][name]["ill"] == 0:
            continue
        if leader(s, name) is not None:
            wait_for(s, "cure", 1, actor=name, queue=queue)
            return
        log_event(s, "cure_unled", name=name)
        stays_sick(s, name)
    end_p1(s)


def stays_sick(s: JSON, name: str) -> None:
    """1 stress for a sick member who stays (none in his favoured office, Zusatzregel 2)."""
    if s["rules"]["zr2"] and office_of(s, name) == game_data(s).politician(name).favoured:
        log_event(s, "favoured_no_stress", name=name)
    else:
        add_stress(s, name, 1, "sick_stays")


def act_cure(s: JSON, order: Order) -> None:
    """The asked member goes to cure or stays."""
    step = s["step"]
    name = step["actor"]
    if order.verb == "CURE":
        s["pol"][name]["cure"] = True
        log_event(s, "cure", name=name)
    else:
        log_event(s, "stays", name=name)
        stays_sick(s, name)
    go_to(s, "cure", queue=step["queue"])


def end_p1(s: JSON) -> None:
    """Phase 1 ends: hated-office stress (Zusatzregel 2) and the chief's stress point."""
    if s["rules"]["zr2"]:
        for name in members(s):
            entry = s["pol"][name]
            if entry["ill"] == 0 and not entry["cure"] and office_of(s, name) == game_data(s).politician(name).hated:
                add_stress(s, name, 1, "hated_office")
    chief = holder(s, CHIEF)
    if chief is not None:
        add_stress(s, chief, 1, "chief")
    go_to(s, "p2")
