"""What players meet in their inbox (issue 13): a mail goes through the
intake, and the test states the exact lines of the answer, in German and
English.  A real SQLite store, the real ``Judge``, a list as mailbox."""

from __future__ import annotations

import pytest

from adjudicator import records
from tests.test_service_commands import Table, address, everyone_ready, signon, table  # noqa: F401


def _game(table: Table, language: str) -> Table:
    table.create(language=language)
    table.seat_everyone()
    return table


@pytest.fixture
def english(table: Table) -> Table:  # noqa: F811
    """spiel1, standard, English, every seat taken, in S1901M."""
    return _game(table, "en")


@pytest.fixture
def german(table: Table) -> Table:  # noqa: F811
    """spiel1, standard, German, every seat taken, in S1901M."""
    return _game(table, "de")


def to_adjustment(table: Table) -> None:
    """Play spiel1 to W1901A: England gains Nwy (1 build), Germany Den and
    Hol (2 builds), Russia Swe and Rum (2 builds; StP and War free)."""
    everyone_ready(table, {
        "England": ("F Lon - Nth", "F Edi - Nwg", "A Lvp - Yor"),
        "Germany": ("F Kie - Den", "A Mun - Ruh", "A Ber - Kie"),
        "Russia": ("F StP/SC - Bot", "A War - Ukr", "A Mos H", "F Sev H"),
    })
    everyone_ready(table, {
        "England": ("F Nth - Nwy",),
        "Germany": ("A Ruh - Hol",),
        "Russia": ("F Bot - Swe", "A Ukr - Rum"),
    })
    assert table.phase() == "W1901A"


# --- 1. Press ends at ENDPRESS / ENDE ------------------------------------------


@pytest.mark.parametrize(("language", "press", "end", "expected"), [
    ("en", "PRESS TO Germany, Italy", "ENDPRESS",
     ["Press sent to Germany, Italy.", "| Hello you two"]),
    ("de", "PRESSE AN Deutschland, Italien", "ENDE",
     ["Pressemeldung verschickt an Deutschland, Italien.", "| Hello you two"]),
])
def test_press_ends_at_endpress_and_the_orders_after_it_are_stored(
        table: Table, language: str, press: str, end: str, expected: list[str]) -> None:  # noqa: F811
    _game(table, language)
    out = table.send(address("Austria"), signon("Austria"), press, "Hello you two", end, "A Vie - Gal")
    assert sorted(m.to for m in out.of("press")) == ["germany@players.test", "gm@pbem.test", "italy@players.test"]
    assert all("A Vie - Gal" not in m.text for m in out.of("press"))
    ack = out.one("acknowledgement", address("Austria"))
    assert ack.section(press.replace("PRESSE", "PRESS")) == expected
    assert ack.section("ENDPRESS") == [
        "End of the press text; the lines after it are read as commands and orders again." if language == "en"
        else "Ende des Pressetexts; die Zeilen danach werden wieder als Befehle und Züge gelesen."]
    orders = table.store.submissions("spiel1", "S1901M")["Austria"].orders
    assert orders == ("A VIE - GAL",)


@pytest.mark.parametrize(("language", "warning"), [
    ("en", "Note: line 4 'A Vie - Gal' looks like an order and was sent as press. End press texts with ENDPRESS "
           "and send the order again."),
    ("de", "Achtung: Zeile 4 „A Vie - Gal“ sieht wie ein Zug aus und wurde als Presse verschickt. Beende "
           "Pressetexte mit ENDE PRESSE (oder ENDE) und schicke den Zug noch einmal."),
])
def test_an_order_swallowed_by_an_unended_press_text_is_pointed_out(
        table: Table, language: str, warning: str) -> None:  # noqa: F811
    _game(table, language)
    out = table.send(address("Austria"), signon("Austria"), "PRESS TO Germany", "Hello", "A Vie - Gal")
    ack = out.one("acknowledgement", address("Austria"))
    assert ack.section("PRESS TO Germany")[-1] == warning


def test_the_gm_copy_of_press_names_the_sender_in_the_game_language(german: Table) -> None:
    out = german.send(address("Austria"), signon("Austria"), "PRESSE AN Deutschland", "Hallo", "ENDE")
    assert "Pressemeldung von Österreich (anonym: nein) an Deutschland:" in out.one("press", "gm@pbem.test").text


# --- 2. Adjustments checked on arrival; READY with a rejected line -----------


@pytest.mark.parametrize(("language", "lines"), [
    ("en", ["line 2: BUILD F LON", "line 3, column 1: ERROR in \"Build A Edi\": England has no builds left",
            "Due: 1 build(s). Will be used: BUILD F LON", "Every unit has an order.",
            "Stored for W1901A: 1 order(s); they replace any earlier orders of this phase."]),
    ("de", ["Zeile 2: BUILD F LON", "Zeile 3, Spalte 1: FEHLER in \"Build A Edi\": England hat keine Aufstellung "
            "mehr frei", "Fällig: 1 Aufstellung(en). Verwendet werden: BUILD F LON", "Alle Einheiten haben einen "
            "Befehl.", "Gespeichert für W1901A: 1 Befehl(e); sie ersetzen frühere Befehle dieser Phase."]),
])
def test_builds_beyond_what_is_due_are_refused_on_arrival(table: Table, language: str,  # noqa: F811
                                                          lines: list[str]) -> None:
    _game(table, language)
    to_adjustment(table)
    ack = table.ack(address("England"), signon("England"), "Build F Lon", "Build A Edi")
    assert ack.sections()[1][1] == lines
    assert table.store.submissions("spiel1", "W1901A")["England"].orders == ("BUILD F LON",)


def test_two_builds_due_one_sent_says_the_other_is_waived(english: Table) -> None:
    to_adjustment(english)
    ack = english.ack(address("Germany"), signon("Germany"), "Build A Ber", "Build A Mun", "Build F Kie")
    assert ack.sections()[1][1][2:5] == [
        "line 4, column 1: ERROR in \"Build F Kie\": KIE is occupied",
        "Due: 2 build(s). Will be used: BUILD A BER, BUILD A MUN",
        "Every unit has an order.",
    ]
    ack = english.ack(address("Germany"), signon("Germany"), "Build A Ber")
    assert "1 build(s) stay unused (waived) unless more arrive before the deadline." in ack.sections()[1][1]


@pytest.mark.parametrize(("language", "error", "refused"), [
    ("en", "line 2, column 1: ERROR in \"Build F StP\": the coast must be given for a fleet in STP: STP/NC or STP/SC",
     "READY does not count: line(s) 2 of this mail were not accepted. Please correct them and send READY again."),
    ("de", "Zeile 2, Spalte 1: FEHLER in \"Build F StP\": für eine Flotte in STP muss die Küste angegeben werden: "
           "STP/NC or STP/SC",
     "BEREIT zählt nicht: in dieser Mail wurde(n) Zeile(n) 2 nicht angenommen. Bitte korrigieren und BEREIT "
     "erneut schicken."),
])
def test_ready_does_not_count_when_a_line_of_the_mail_was_rejected(table: Table, language: str, error: str,  # noqa: F811
                                                                    refused: str) -> None:
    _game(table, language)
    to_adjustment(table)
    ack = table.ack(address("Russia"), signon("Russia"), "Build F StP", "Build A War", "READY")
    assert error in ack.sections()[1][1]
    assert ack.section("READY") == [refused]
    assert not table.store.submissions("spiel1", "W1901A")["Russia"].ready
    for power in ("England", "Germany"):
        table.ack(address(power), signon(power), "READY")
    assert table.phase() == "W1901A"  # Russia is not ready: nothing resolved early


# --- 5. Visible corrections ----------------------------------------------------------


@pytest.mark.parametrize(("language", "note"), [
    ("en", "  Note: you wrote F CON; the unit there is an army, read as A CON."),
    ("de", "  Hinweis: du schriebst F CON; dort steht eine Armee, gelesen als A CON."),
])
def test_a_corrected_unit_type_is_noted(table: Table, language: str, note: str) -> None:  # noqa: F811
    _game(table, language)
    ack = table.ack(address("Turkey"), signon("Turkey"), "F Con - Bul")
    assert ack.sections()[1][1][:2] == [("line" if language == "en" else "Zeile") + " 2: A CON - BUL", note]


@pytest.mark.parametrize(("language", "refusal"), [
    ("en", "line 3, column 1: ERROR in \"F Con - Bul\": not used: you wrote F CON, the unit there is A CON; "
           "your other, correctly written order for it stands"),
    ("de", "Zeile 3, Spalte 1: FEHLER in \"F Con - Bul\": nicht verwendet: du schriebst F CON, dort steht A CON; "
           "dein anderer, richtig geschriebener Befehl für diese Einheit gilt"),
])
def test_a_corrected_order_never_supersedes_a_correct_one(table: Table, language: str,  # noqa: F811
                                                          refusal: str) -> None:
    _game(table, language)
    ack = table.ack(address("Turkey"), signon("Turkey"), "A Con - Smy", "F Con - Bul")
    assert refusal in ack.sections()[1][1]
    assert "A CON - SMY" in table.store.submissions("spiel1", "S1901M")["Turkey"].orders


def test_a_corrected_coast_is_noted(english: Table) -> None:
    ack = english.ack(address("Russia"), signon("Russia"), "F StP/NC - Bot")
    assert ack.sections()[1][1][1] == "  Note: you wrote F STP/NC; the fleet stands as F STP/SC and is read so."


# --- 6. Greetings and sign-offs ------------------------------------------------------------


@pytest.mark.parametrize(("language", "first", "last"), [
    ("en", ["Ignored (greeting, not an order): Hallo Schiri,"],
     ["Ignored (greeting, not an order): Viele Grüße", "Ignored (greeting, not an order): Paul"]),
    ("de", ["Ignored (greeting, not an order): Hallo Schiri,"],
     ["Ignoriert (Gruß, kein Befehl): Viele Grüße", "Ignoriert (Gruß, kein Befehl): Paul"]),
])
def test_greetings_and_closings_are_ignored_not_errors(table: Table, language: str, first: list[str],  # noqa: F811
                                                        last: list[str]) -> None:
    _game(table, language)
    ack = table.ack(address("Austria"), "Hallo Schiri,", signon("Austria"), "A Vie - Gal", "", "Viele Grüße",
                    "Paul")
    sections = ack.sections()
    assert sections[0][1] == first
    assert sections[-1][1] == last
    assert "ERROR" not in ack.text and "FEHLER" not in ack.text
    assert table.store.submissions("spiel1", "S1901M")["Austria"].orders == ("A VIE - GAL",)


@pytest.mark.parametrize("closing", ["Gruss, Dieter", "Cheers, Dieter", "Thanks", "Gruß", "LG Dieter"])
def test_closing_lines_of_every_kind_are_ignored(english: Table, closing: str) -> None:
    ack = english.ack(address("Austria"), "Hi GM", signon("Austria"), "A Vie - Gal", closing)
    assert ack.sections()[-1][1] == [f"Ignored (greeting, not an order): {closing}"]
    assert "ERROR" not in ack.text


# --- 4. njudge habits -----------------------------------------------------------


@pytest.mark.parametrize(("language", "word", "answer"), [
    ("en", "SUMMRY", "line 2, column 1: ERROR in \"SUMMRY\": unknown command or order 'SUMMRY' "
                     "Hint: did you mean SUMMARY?"),
    ("de", "Gruss Dieter und so weiter", "Zeile 2, Spalte 1: FEHLER in \"Gruss Dieter und so weiter\": "
                                         "unbekannter Befehl oder Zug „Gruss“"),
    ("en", "Yrk - Lon", "line 2, column 1: ERROR in \"Yrk - Lon\": unknown command or order 'Yrk'"),
])
def test_a_line_that_is_no_order_and_no_command_is_named_so(table: Table, language: str, word: str,  # noqa: F811
                                                            answer: str) -> None:
    _game(table, language)
    ack = table.ack(address("England"), signon("England"), word, "F Lon - Nth")
    assert ack.sections()[1][1][0] == answer


def test_an_unknown_province_inside_an_order_is_still_named(english: Table) -> None:
    ack = english.ack(address("England"), signon("England"), "A Lvp - Yrk")
    assert ack.sections()[1][1][0] == "line 2, column 9: ERROR in \"A Lvp - Yrk\": unknown province 'Yrk'"


@pytest.mark.parametrize(("language", "expected"), [
    ("en", ["spiel1: running, phase S1901M, deadline Friday, 4 December 2026, 11:00 CET (Europe/Berlin)",
            "  Austria: taken, 3 supply centres/points, orders in",
            "  England: taken, 3 supply centres/points, orders still due"]),
    ("de", ["spiel1: läuft, Phase S1901M, Frist Freitag, 4. Dezember 2026, 11:00 Uhr CET (Europe/Berlin)",
            "  Österreich: vergeben, 3 Versorgungszentren/Punkte, Befehle liegen vor",
            "  England: vergeben, 3 Versorgungszentren/Punkte, Befehle fehlen noch"]),
])
def test_summary_gives_phase_deadline_and_every_power(table: Table, language: str,  # noqa: F811
                                                      expected: list[str]) -> None:
    _game(table, language)
    table.ack(address("Austria"), signon("Austria"), "A Vie - Gal")
    ack = table.ack("someone@else.test", "SUMMARY spiel1")
    assert ack.section("SUMMARY spiel1")[:3] == expected
    assert "@" not in "".join(ack.section("SUMMARY spiel1"))


@pytest.mark.parametrize(("language", "expected"), [
    ("en", ["Stored for S1901M (2):", "  A VIE - GAL", "  A BUD - SER",
            "Waiting: the phase will not be processed before its deadline."]),
    ("de", ["Für S1901M gespeichert (2):", "  A VIE - GAL", "  A BUD - SER",
            "Warten: die Phase wird nicht vor der Frist ausgewertet."]),
])
def test_orders_shows_the_stored_orders_only_to_their_player(table: Table, language: str,  # noqa: F811
                                                              expected: list[str]) -> None:
    _game(table, language)
    table.ack(address("Austria"), signon("Austria"), "A Vie - Gal", "A Bud - Ser")
    out = table.send(address("Austria"), signon("Austria"), "ORDERS")
    assert [m.to for m in out] == [address("Austria")]
    assert out[0].section("ORDERS") == expected
    assert table.ack(address("Germany"), "ORDERS").section("ORDERS") == [
        "Sign on first: SIGNON <power> <game> <password>."]


def test_whogame_lists_seats_without_addresses(english: Table) -> None:
    ack = english.ack("someone@else.test", "WHOGAME spiel1")
    lines = ack.section("WHOGAME spiel1")
    assert lines[1] == "  Austria: taken (address not public)"
    assert len(lines) == 8 and "@" not in "".join(lines)
    assert english.ack("someone@else.test", "WHOIS spiel1").section("WHOGAME spiel1") == lines


@pytest.mark.parametrize(("language", "ready", "waiting"), [
    ("en", "Ready: once everyone is ready the phase is processed before the deadline.",
     "Waiting: the phase will not be processed before its deadline."),
    ("de", "Bereit: sobald alle bereit sind, wird die Phase vor der Frist ausgewertet.",
     "Warten: die Phase wird nicht vor der Frist ausgewertet."),
])
def test_set_nowait_and_set_wait_are_ready_and_wait(table: Table, language: str, ready: str,  # noqa: F811
                                                    waiting: str) -> None:
    _game(table, language)
    ack = table.ack(address("Austria"), signon("Austria"), "SET NOWAIT")
    assert ack.section("READY") == [ready]
    assert table.store.submissions("spiel1", "S1901M")["Austria"].ready
    ack = table.ack(address("Austria"), signon("Austria"), "SET WAIT")
    assert ack.section("WAIT") == [waiting]
    assert not table.store.submissions("spiel1", "S1901M")["Austria"].ready
    ack = table.ack(address("Austria"), signon("Austria"), "SET PREFERENCE E,F")
    assert ack.section("SET PREFERENCE E,F")[0].startswith("Unknown setting" if language == "en"
                                                           else "Unbekannte Einstellung")


@pytest.mark.parametrize(("language", "cleared"), [
    ("en", "Your orders for S1901M are cleared; without new ones the rules' default applies (hold, disband, waive)."),
    ("de", "Deine Befehle für S1901M sind gelöscht; ohne neue gilt die Regel (halten, auflösen, verzichten)."),
])
def test_clear_drops_the_stored_orders(table: Table, language: str, cleared: str) -> None:  # noqa: F811
    _game(table, language)
    table.ack(address("Austria"), signon("Austria"), "A Vie - Gal")
    ack = table.ack(address("Austria"), signon("Austria"), "CLEAR")
    assert ack.section("CLEAR") == [cleared]
    entry = table.store.submissions("spiel1", "S1901M")["Austria"]
    assert (entry.orders, entry.has_orders) == ((), False)


@pytest.mark.parametrize(("language", "line"), [
    ("en", "spiel1: running, phase S1901M, deadline Friday, 4 December 2026, 11:00 CET (Europe/Berlin)"),
    ("de", "spiel1: läuft, Phase S1901M, Frist Freitag, 4. Dezember 2026, 11:00 Uhr CET (Europe/Berlin)"),
])
def test_phase_gives_the_phase_and_deadline(table: Table, language: str, line: str) -> None:  # noqa: F811
    _game(table, language)
    assert table.ack("x@else.test", "PHASE spiel1").section("PHASE spiel1") == [line]
    assert table.ack(address("Austria"), signon("Austria"), "PHASE").section("PHASE") == [line]


@pytest.mark.parametrize(("language", "joined"), [
    ("en", "Signed on as England in spiel1."), ("de", "Angemeldet als England in spiel1."),
])
def test_signon_with_the_power_initial_before_the_game(table: Table, language: str, joined: str) -> None:  # noqa: F811
    _game(table, language)
    ack = table.ack(address("England"), "SIGNON Espiel1 pw-england", "F Lon - Nth")
    assert ack.section("SIGNON England spiel1 ****")[0] == joined
    assert table.store.submissions("spiel1", "S1901M")["England"].orders == ("F LON - NTH",)
    wrong = table.ack(address("England"), "SIGNON Xspiel1 pw-england")
    assert wrong.section("line 1")[0].startswith("Error in line 1, column 26: SIGNON is missing <password>")


@pytest.mark.parametrize("retreat", ["A Gal R Boh", "A Gal retreats to Boh", "A Galizien zieht zurück nach Böhmen"])
def test_retreats_written_the_njudge_and_the_german_way(english: Table, retreat: str) -> None:
    from tests.test_service_commands import to_retreat
    to_retreat(english)
    ack = english.ack(address("Russia"), signon("Russia"), retreat)
    assert ack.sections()[1][1][0] == "line 2: A GAL - BOH"


# --- 8. Aliases ---------------------------------------------------------------------


def test_30jk_powers_and_places_by_their_short_names(table: Table) -> None:  # noqa: F811
    table.create(variant="30jk", language="de")
    ack = table.ack("braunschweig@players.test", "ANMELDEN Braunschweig spiel1 geheim-123")
    assert ack.section("SIGNON Braunschweig spiel1 ****")[0] == (
        "Du spielst jetzt Braunschweig-Lüneburg in spiel1. Merke dir dein Passwort: jede Mail braucht es.")
    from adjudicator.games.diplomacy.core.mapdata import load_map
    game_map = load_map("30jk")
    assert game_map.lookup_place("Wien") == "NOes" and game_map.lookup_place("Köln") == "EbKo"
    assert game_map.lookup_power("Holland") == "Vereinigte Niederlande"
    assert game_map.lookup_power("Oesterreich") == "Österreich"


# --- 3. The game's language everywhere ---------------------------------------------


@pytest.mark.parametrize(("language", "lines"), [
    ("en", ["line 2, column 1: ERROR in \"A Lvp - Iri\": an army cannot move to a sea",
            "line 3, column 1: ERROR in \"A Lvp - Yor\": superseded"]),
    ("de", ["Zeile 2, Spalte 1: FEHLER in \"A Lvp - Iri\": eine Armee kann nicht auf ein Meer ziehen",
            "Zeile 3, Spalte 1: FEHLER in \"A Lvp - Yor\": ersetzt durch einen späteren Befehl für dieselbe Einheit"]),
])
def test_error_reasons_are_in_the_game_language(table: Table, language: str, lines: list[str]) -> None:  # noqa: F811
    _game(table, language)
    ack = table.ack(address("England"), signon("England"), "A Lvp - Iri", "A Lvp - Yor", "A Lvp - Wal")
    assert ack.sections()[1][1][:2] == lines


@pytest.mark.parametrize(("language", "bounced"), [("en", "fails (bounced)"), ("de", "gescheitert (abgeprallt)")])
def test_report_reasons_are_in_the_game_language(table: Table, language: str, bounced: str) -> None:  # noqa: F811
    _game(table, language)
    out = everyone_ready(table, {"Germany": ("A Mun - Bur",), "France": ("A Par - Bur",)})
    report = out.one("report", address("Germany")).text
    line = next(line for line in report.splitlines() if "A MUN - BUR" in line)
    assert " ".join(line.split()) == f"A MUN - BUR {bounced}"


@pytest.mark.parametrize(("language", "done", "change"), [
    ("en", "Done: paused", "GM PAUSE (paused in S1901M)"),
    ("de", "Erledigt: angehalten", "SL PAUSE (angehalten in S1901M)"),
])
def test_gm_answers_and_the_change_log_are_in_the_game_language(table: Table, language: str, done: str,  # noqa: F811
                                                                change: str) -> None:
    _game(table, language)
    secret = "gm-secret"
    from adjudicator.service.auth import hash_password
    game = table.store.game("spiel1")
    assert game is not None
    with table.store.transaction() as db:
        table.store.update_game(db, records.replace(
            game, settings={**game.settings, "gm_password_hash": hash_password(secret)}))
    out = table.send("gm@pbem.test", f"GAMEMASTER spiel1 {secret}", "GM PAUSE")
    ack = out.one("acknowledgement", "gm@pbem.test")
    assert ack.section("GM PAUSE") == [done]
    history = table.ack("x@else.test", "HISTORY spiel1").section("HISTORY spiel1")
    assert any(line.endswith(change) for line in history), history
    started = [line for line in history if "S1901M" in line and ("started" in line or "gestartet" in line)]
    assert started and started[0].endswith("started: phase S1901M" if language == "en"
                                           else "gestartet: Phase S1901M")


# --- 7. The start mail ---------------------------------------------------------------


@pytest.mark.parametrize(("language", "lines"), [
    ("en", ["You play England.", "Your home centres: EDI, LON, LVP", "Your units: F LON, F EDI, A LVP"]),
    ("de", ["Du spielst England.", "Deine Heimatzentren: EDI, LON, LVP", "Deine Einheiten: F LON, F EDI, A LVP"]),
])
def test_the_start_mail_gives_power_centres_units_deadline_and_map(table: Table, language: str,  # noqa: F811
                                                                   lines: list[str]) -> None:
    table.create(language=language)
    out = table.seat_everyone()
    start = out.one("start", address("England"))
    text = start.text.splitlines()
    first = text.index(lines[0])
    assert text[first:first + 3] == lines
    assert ("Phase S1901M, deadline Friday" if language == "en" else "Phase S1901M, Frist Freitag") in start.text
    assert ("attached as spiel1-S1901M.png" if language == "en" else "hängt als spiel1-S1901M.png an") in start.text
    assert b"spiel1-S1901M.png" in start.raw and b"image/png" in start.raw


def test_a_30jk_start_mail_names_the_random_confession(table: Table) -> None:  # noqa: F811
    from adjudicator.service.turns import create_game
    create_game(table.store, table.config, "jk", "30jk", {"language": "de", "confessions": "random"}, table.now,
                seed=7)
    powers = [seat.power for seat in table.store.players("jk")]
    for index, power in enumerate(powers):
        table.deliver(f"p{index}@players.test", f"ANMELDEN {power} jk geheimes-wort")
    out = table.poll()
    game = table.store.game("jk")
    assert game is not None and game.status == "active"
    for index, power in enumerate(powers):
        mail = out.one("start", f"p{index}@players.test")
        state = game.state["confessions"][power]["state"]
        word = {"catholic": "katholisch", "protestant": "protestantisch"}[state]
        assert f"Deine Konfession: {word}" in mail.text
        assert "Deine Einheiten: " in mail.text and "Deine Heimatzentren: " in mail.text


# --- 10. GM paper cuts -------------------------------------------------------------------


GM_ADDRESS = "gm@pbem.test"
GM_SECRET = "gm-secret"


def _with_gm(table: Table) -> None:  # noqa: F811
    """Give spiel1 the GM password ``GM_SECRET``."""
    import dataclasses

    from adjudicator.service.auth import hash_password
    game = table.store.game("spiel1")
    assert game is not None
    with table.store.transaction() as db:
        table.store.update_game(db, records.replace(
            game, settings={**game.settings, "gm_password_hash": hash_password(GM_SECRET)}))


def _gm_mail(table: Table, *lines: str):  # type: ignore[no-untyped-def]  # noqa: F811
    return table.send(GM_ADDRESS, f"GAMEMASTER spiel1 {GM_SECRET}", *lines)


@pytest.mark.parametrize(("language", "line"), [
    ("en", "spiel1 starts with S1901M. Nobody took these powers; they are in civil disorder: France, Germany, "
           "Italy, Russia, Turkey"),
    ("de", "spiel1 beginnt mit S1901M. Niemand hat diese Mächte genommen; sie sind in Anarchie: Frankreich, "
           "Deutschland, Italien, Russland, Türkei"),
])
def test_start_lists_exactly_the_open_powers(table: Table, language: str, line: str) -> None:  # noqa: F811
    table.create(language=language)
    _with_gm(table)
    for power in ("Austria", "England"):
        table.ack(address(power), signon(power))
    ack = _gm_mail(table, "GM START").one("acknowledgement", GM_ADDRESS)
    assert ack.section("GM START") == [line]


def test_pause_and_resume_keep_the_deadline_on_a_whole_minute(english: Table) -> None:
    from datetime import datetime, timedelta
    _with_gm(english)
    english.now += timedelta(seconds=12.4)
    _gm_mail(english, "GM PAUSE")
    english.now += timedelta(hours=5, seconds=0.6)
    _gm_mail(english, "GM RESUME")
    game = english.store.game("spiel1")
    assert game is not None and game.deadline is not None
    deadline = datetime.fromisoformat(game.deadline)
    assert (deadline.second, deadline.microsecond) == (0, 0)


def test_several_gm_commands_in_one_mail_send_each_player_one_notice(english: Table) -> None:
    _with_gm(english)
    out = _gm_mail(english, "GM DEADLINE +24h", "GM PAUSE", "GM RESUME")
    to_austria = [m for m in out if m.to == address("Austria")]
    assert len(to_austria) == 1
    assert to_austria[0].subject.endswith("spiel1: changes by the game master")
    assert "changed the deadline" in to_austria[0].text and "paused" in to_austria[0].text


def test_preview_attaches_its_map(english: Table) -> None:
    _with_gm(english)
    ack = _gm_mail(english, "GM PREVIEW").one("acknowledgement", GM_ADDRESS)
    assert b"image/png" in ack.raw and b"spiel1-S1901M.png" in ack.raw


def test_dryrun_shows_each_distinct_mail_once_with_its_recipients(english: Table) -> None:
    _with_gm(english)
    ack = _gm_mail(english, "GM DRYRUN PAUSE").one("acknowledgement", GM_ADDRESS)
    lines = ack.section("GM DRYRUN PAUSE")
    would = [line for line in lines if line.startswith("  Mail to ") or line.startswith("Mail to ")]
    assert len(would) == 1, lines
    assert all(address(power) in would[0] for power in ("Austria", "Turkey"))


@pytest.mark.parametrize("language", ["en", "de"])
def test_gm_answers_show_no_json_paths(table: Table, language: str) -> None:  # noqa: F811
    _game(table, language)
    _with_gm(table)
    ack = _gm_mail(table, "GM UNIT ADD A Vie Austria").one("acknowledgement", GM_ADDRESS)
    answer = " ".join(ack.section("GM UNIT ADD A Vie Austria"))
    assert "units." not in answer and "[" not in answer and "VIE" in answer


def test_the_welcome_mail_carries_the_essentials(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import dataclasses

    made = Table(tmp_path)
    made.config = records.replace(made.config, admin="admin@pbem.test", admin_password="admin-pw")
    made.judge.config = made.config
    out = made.send("admin@pbem.test", "ADMIN admin-pw", f"GM CREATE neu standard {GM_ADDRESS}")
    welcome = next(m for m in out if m.to == GM_ADDRESS)
    assert "GM HELP lists every command with an example" in welcome.text
    assert "GM DRYRUN <command> shows what a command would do" in welcome.text
    assert "docs/" not in welcome.text
    made.store.close()


# --- Done when: a German game through every phase kind, no English word ------------


def _english_in(text: str) -> set[str]:
    """English words of a German mail outside names: machine lines (``::``),
    echoed commands (``> ...``) and order notation (upper case) left out."""
    import re

    from tests.test_catalogue import _english_words
    kept = []
    for line in text.splitlines():
        if line.startswith((":: ", "> ")):
            continue
        kept.append(" ".join(w for w in line.split() if not (w.isupper() or w.strip("(),.:;").isupper())))
    return _english_words(re.sub(r"\S+@\S+", " ", "\n".join(kept)))


def test_a_german_game_through_movement_retreat_and_adjustment_reads_german(table: Table) -> None:  # noqa: F811
    table.create(language="de")
    mails = list(table.seat_everyone())
    mails += table.send(address("Austria"), signon("Austria"), "A Vie - Tyr", "F Con - Bul", "PRESSE AN Italien",
                        "Hallo", "ENDE", "ORDERS", "SUMMARY", "HISTORY spiel1")
    mails += everyone_ready(table, {
        "Russia": ("A War - Gal", "F Sev - Bla", "A Mos - Ukr"),
        "Austria": ("A Vie H", "A Bud H", "F Tri - Alb"),
    })
    mails += everyone_ready(table, {
        "Austria": ("A Vie - Gal", "A Bud S A Vie - Gal", "F Alb - Gre"),
        "Russia": ("A Gal H", "A Ukr - Rum", "F Bla - Ank"),
    })
    assert table.phase() == "F1901R"
    mails += table.send(address("Russia"), signon("Russia"), "A Gal R Boh", "BEREIT")
    assert table.phase() == "W1901A"
    mails += everyone_ready(table, {"Austria": ("Build A Vie",)})
    assert table.phase() == "S1902M"
    kinds = {mail.kind for mail in mails}
    assert {"start", "acknowledgement", "report", "press"} <= kinds
    assert sum(1 for mail in mails if mail.kind == "report") >= 7 * 4
    for mail in mails:
        assert _english_in(mail.text) == set(), (mail.to, mail.kind, mail.text)
