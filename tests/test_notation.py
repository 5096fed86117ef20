"""Order notation: what players write, what the grammar makes of it, and
the canonical form printing back to the same order."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.games.diplomacy.core.mapdata import load_map
from adjudicator.games.diplomacy.core.model import PhaseKind, UnitType
from adjudicator.games.diplomacy.core.notation import OrderSyntaxError, parse_order, parse_orders
from adjudicator.games.diplomacy.core.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
    Transform,
    Waive,
)

MAP = load_map("standard")
A, F = UnitType.ARMY, UnitType.FLEET


@pytest.mark.parametrize(
    "text, expected",
    [
        ("A Vie - Gal", Move(A, "VIE", "GAL")),
        ("a vie -> gal", Move(A, "VIE", "GAL")),
        ("Army Vienna to Galicia", Move(A, "VIE", "GAL")),
        ("A Wien - Galizien", Move(A, "VIE", "GAL")),
        ("Vie-Gal", Move(None, "VIE", "GAL")),
        ("A VIE H", Hold(A, "VIE")),
        ("A Vienna holds", Hold(A, "VIE")),
        ("A Bud S A Vie - Gal", SupportMove(A, "BUD", A, "VIE", "GAL")),
        ("A Budapest supports A Vienna -> Galicia", SupportMove(A, "BUD", A, "VIE", "GAL")),
        ("A Bud S Vie", SupportHold(A, "BUD", None, "VIE")),
        ("A Ser s a bud h", SupportHold(A, "SER", A, "BUD")),
        ("A Gal S Russian A War - Sil", SupportMove(A, "GAL", A, "WAR", "SIL")),
        ("F NTH C A LON - NWY", Convoy(F, "NTH", A, "LON", "NWY")),
        ("F North Sea convoys A London - Norway", Convoy(F, "NTH", A, "LON", "NWY")),
        ("A Lon - Nwy via convoy", Move(A, "LON", "NWY", True)),
        ("A Lon - Nwy by convoy", Move(A, "LON", "NWY", True)),
        ("A Yor - Nth - Bel", Move(A, "YOR", "BEL", False, ("NTH",))),
        ("F stp/sc S A Mos - Lvn", SupportMove(F, "STP/SC", A, "MOS", "LVN")),
        ("F StP(sc) H", Hold(F, "STP/SC")),
        ("F St Petersburg (south coast) - Gulf of Bothnia", Move(F, "STP/SC", "BOT")),
        ("F St. Petersburg(nc) - Barents Sea", Move(F, "STP/NC", "BAR")),
        ("F stp sc - bot", Move(F, "STP/SC", "BOT")),
        ("F Mid-Atlantic Ocean - Spain(nc)", Move(F, "MAO", "SPA/NC")),
        ("F MID - SPA/NC", Move(F, "MAO", "SPA/NC")),
        ("F GOL - WES", Move(F, "LYO", "WES")),
        ("F NAT - NRG", Move(F, "NAO", "NWG")),
        ("F GOB - BAL", Move(F, "BOT", "BAL")),
        ("F EAS - AEG", Move(F, "EAS", "AEG")),
        ("F TYS S F ION", SupportHold(F, "TYS", F, "ION")),
        ("A Par disband", Disband(A, "PAR")),
        ("Build F stp/nc", Build(F, "STP/NC")),
        ("F StP(nc) build", Build(F, "STP/NC")),
        ("remove A Par", Remove(A, "PAR")),
        ("waive", Waive()),
        ("A Wien nach Galizien", Move(A, "VIE", "GAL")),
        ("Armee Budapest unterstützt A Wien - Galizien", SupportMove(A, "BUD", A, "VIE", "GAL")),
        ("A Bud U Wien", SupportHold(A, "BUD", None, "VIE")),
        ("F Nordsee K A London - Norwegen", Convoy(F, "NTH", A, "LON", "NWY")),
        ("Flotte Triest hält", Hold(F, "TRI")),
        ("A London - Norwegen per Konvoi", Move(A, "LON", "NWY", True)),
        ("Baue F StP/NK", Build(F, "STP/NC")),
    ],
)
def test_players_writing(text: str, expected: object) -> None:
    assert parse_order(text, MAP) == expected


def test_phase_gives_meaning() -> None:
    """A move in a retreat phase is a retreat; a disband in an adjustment phase a removal."""
    assert parse_order("A Vie - Boh", MAP, PhaseKind.RETREAT) == Retreat(A, "VIE", "BOH")
    assert parse_order("A Vie D", MAP, PhaseKind.RETREAT) == Disband(A, "VIE")
    assert parse_order("A Par disband", MAP, PhaseKind.ADJUSTMENT) == Remove(A, "PAR")


@pytest.mark.parametrize(
    "text, column, fragment",
    [
        ("A Vie - Xyz", 9, "unknown province 'Xyz'"),
        ("A Vie", 6, "order ends too early"),
        ("A Vie Gal", 3, "unknown province 'Vie Gal' (a '-' missing between Vie and Gal?)"),
        ("A Vienna - Galizia", 12, "unknown province 'Galizia' (did you mean GAL (Galicia)?)"),
        ("F Nordse - Hel", 3, "unknown province 'Nordse' (did you mean NTH (North Sea)?)"),
        ("F StP/zz - Bot", 7, "unknown coast 'zz'"),
        ("A Vie S", 8, "order ends too early"),
        ("A Vie # Gal", 7, "unexpected character '#'"),
        ("A Vie - - Gal", 9, "expected a province"),
    ],
)
def test_errors_name_the_column(text: str, column: int, fragment: str) -> None:
    with pytest.raises(OrderSyntaxError) as caught:
        parse_order(text, MAP)
    assert caught.value.column == column
    assert fragment in caught.value.message


def test_mail_body_lines_and_semicolons() -> None:
    body = "A Vie - Gal; A Bud S A Vie - Gal\n\n  F Tri - Xyz\nF Tri H"
    lines = parse_orders(body, MAP)
    assert [(p.line, p.column) for p in lines] == [(1, 1), (1, 14), (3, 3), (4, 1)]
    assert lines[0].order == Move(A, "VIE", "GAL")
    assert lines[1].order == SupportMove(A, "BUD", A, "VIE", "GAL")
    assert lines[2].error is not None and str(lines[2].error) == "line 3, column 11: unknown province 'Xyz'"
    assert lines[3].order == Hold(F, "TRI")


def test_a_remembered_order_text_reads_as_a_fresh_parse_of_it_wherever_it_stands() -> None:
    # issue 20: the parse of a text is remembered; its errors still point where the text stands this time
    from adjudicator.games.diplomacy.core import notation

    texts = ["A Vie - Gal", "F Nordse - Hel", "F StP/zz - Bot", "A Vie S", "A Vie # Gal", "A Vie - - Gal", "A Vie - Gal",
             "F Mid-Atlantic Ocean - Bre", "Bud - Ser", "xyz"]
    body = "\n".join(f"{'  ' * n}{text}; A Mun H" for n, text in enumerate(texts))
    notation._read_order.cache_clear()
    fresh = [[notation.parse_orders(body, MAP, kind) for kind in PhaseKind]]
    fresh_hits = notation._read_order.cache_info().hits
    notation._read_order.cache_clear()
    for text in [*texts, "A Mun H"]:  # each text read first at the start of a line of its own
        for kind in PhaseKind:
            notation.parse_orders(text, MAP, kind)
    before = notation._read_order.cache_info()
    again = [[notation.parse_orders(body, MAP, kind) for kind in PhaseKind]]
    after = notation._read_order.cache_info()
    assert again == fresh  # every line, column, order and error message
    assert after.misses == before.misses and after.hits - before.hits == 2 * len(texts) * len(PhaseKind) > fresh_hits


def test_canonical_forms() -> None:
    assert str(Move(A, "VIE", "GAL")) == "A VIE - GAL"
    assert str(Move(A, "LON", "NWY", True)) == "A LON - NWY VIA CONVOY"
    assert str(Convoy(F, "NTH", A, "LON", "NWY")) == "F NTH C A LON - NWY"
    assert str(SupportMove(F, "STP/SC", A, "MOS", "LVN")) == "F STP/SC S A MOS - LVN"
    assert str(SupportHold(A, "BUD", A, "VIE")) == "A BUD S A VIE"
    assert str(Disband(A, "VIE")) == "A VIE DISBAND"
    assert str(Build(F, "STP/NC")) == "BUILD F STP/NC"
    assert str(Remove(A, "PAR")) == "REMOVE A PAR"
    assert str(Waive()) == "WAIVE"


# --- round trip: parse(print(order)) == order, for every order kind ---------

_locations = st.sampled_from(
    sorted({loc for p in MAP.provinces.values() for loc in p.fleet} | set(MAP.provinces))
)
_provinces = st.sampled_from(sorted(MAP.provinces))
_kinds = st.sampled_from([A, F, None])


def _orders() -> st.SearchStrategy:
    return st.one_of(
        st.builds(Hold, _kinds, _locations),
        st.builds(Move, _kinds, _locations, _locations, st.booleans(), st.lists(_provinces, max_size=2).map(tuple)),
        st.builds(SupportHold, _kinds, _locations, _kinds, _locations),
        st.builds(SupportMove, _kinds, _locations, _kinds, _locations, _locations),
        st.builds(Convoy, _kinds, _locations, _kinds, _locations, _locations),
        st.builds(Disband, _kinds, _locations),
        st.builds(Build, _kinds, _locations),
        st.builds(Remove, _kinds, _locations),
        st.builds(Transform, _kinds, _locations, st.sampled_from([A, F]), st.sampled_from([None, "NC", "SC", "EC"])),
        st.just(Waive()),
    )


@settings(max_examples=400, deadline=None)
@given(_orders())
def test_canonical_text_round_trips(order: object) -> None:
    assert parse_order(str(order), MAP) == order


@settings(max_examples=100, deadline=None)
@given(st.builds(Retreat, _kinds, _locations, _locations))
def test_retreat_round_trips(order: Retreat) -> None:
    assert parse_order(str(order), MAP, PhaseKind.RETREAT) == order
