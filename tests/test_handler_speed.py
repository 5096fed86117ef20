"""The handler's faster ways (issue 20) give the same answers as before."""

from __future__ import annotations

import random
import unicodedata

from adjudicator.service.handler import MAX_SHOWN, shown


def _shown_char_by_char(text: str, limit: int = MAX_SHOWN) -> str:
    """What ``shown`` wrote before: each character looked up on its own."""
    if len(text) > limit:
        text = text[: limit - 1] + "\u2026"
    out = []
    for char in text:
        if char == "\t" or unicodedata.category(char) != "Cc":
            out.append(char)
        else:
            code = ord(char)
            out.append(chr(0x2400 + code) if code < 0x20 else "\u2421" if code == 0x7F else "\ufffd")
    return "".join(out)


def test_shown_makes_every_control_character_visible_as_before() -> None:
    rng = random.Random(20)
    alphabet = [chr(c) for c in range(0, 0xA0)] + ["ü", "\u2028", "\u200b", "\U0001F600", "\t"]
    for _ in range(2000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 300)))
        assert shown(text) == _shown_char_by_char(text)
        assert shown(text, 50) == _shown_char_by_char(text, 50)
    assert shown("a\x00b\x1b\x7f\x85\tc") == "a\u2400b\u241b\u2421\ufffd\tc"


# --- header fields parsed once (budget.READING) ---------------------------------

ODD_HEADS = [
    b"From: =?utf-8?q?J=C3=BCrgen_M=C3=BCller?= <juergen@example.org>\r\nSubject: =?iso-8859-1?q?Befehle_f=FCr?="
    b" =?utf-8?b?U3DDpHRlcg==?=\r\nContent-Type: text/plain; charset=\"utf-8\"\r\n\r\nA Vie H\r\n",
    b"From: Folded\r\n Name\r\n\t<folded@example.org>\r\nSubject: one\r\n two\r\n  three\r\n"
    b"Content-Type: multipart/mixed;\r\n boundary=\"b1\"\r\n\r\n--b1\r\nContent-Type: text/plain\r\n\r\nx\r\n--b1--\r\n",
    b"From: a@example.org\r\nFrom: b@example.org\r\nSubject: first\r\nSubject: second\r\n"
    b"X-Loop: judge@example.org\r\nX-Loop: other\r\nReferences: <1@x> <2@x>\r\nReferences: <3@x>\r\n\r\nbody\r\n",
    b"Subject: no sender\r\nMessage-ID: <nosender@example.org>\r\nContent-Type: text/html; charset=latin-1\r\n\r\n<p>hi</p>\r\n",
    b"From: huge@example.org\r\nSubject: " + b"x" * 9000 + b"\r\nX-Long: " + b"y " * 3000 + b"\r\n"
    b"Content-Type: text/plain; " + b"; ".join(b"p%d=%d" % (i, i) for i in range(100)) + b"\r\n\r\nbody\r\n",
    b"From: <>\r\nFrom: \"Broken <a@b\r\nContent-Type: text/plain; charset=\r\nContent-Type: text/html\r\n"
    b"Auto-Submitted: auto-replied\r\nReturn-Path: <>\r\nSubject: =?bogus?x?zz?=\r\n\r\nbody\r\n",
    b"From: x@example.org\r\nContent-Type: multipart/report; report-type=delivery-status; boundary=q\r\n"
    b"Message-ID:\r\nDate: not a date\r\n\r\n--q\r\n\r\n--q--\r\n",
]


def _everything_read(message: object, raw: bytes) -> list[object]:
    """What the judge reads from a mail's headers and body: sender, loop
    check, threading headers, text, and each header's value and defects."""
    from adjudicator.mail.body import read_text
    from adjudicator.mail.loops import why_not_answered
    from adjudicator.service.handler import _addresses, _header, sender_of

    assert isinstance(message, __import__("email.message").message.Message)
    seen: list[object] = [sender_of(message), why_not_answered(message, "judge@example.org"),
                          _addresses(message, "Reply-To"), message.get_content_type(), message.get_params(),
                          message.get_content_charset(), message.get_boundary()]
    seen += [_header(message, name) for name in ("Message-ID", "References", "Subject", "From", "Date")]
    for name, value in message.items():
        seen.append((name, str(value), [type(d).__name__ for d in getattr(value, "defects", ())]))
    try:
        seen.append(read_text(message))
    except ValueError as error:
        seen.append(str(error))
    return seen


def test_headers_parsed_once_read_as_a_fresh_parse_does() -> None:
    from email import message_from_bytes, policy
    from email.parser import BytesHeaderParser

    from adjudicator.service.budget import READING, read_head, read_message

    for raw in ODD_HEADS:
        fresh_head = BytesHeaderParser(policy=policy.default).parsebytes(raw)
        fresh_whole = message_from_bytes(raw, policy=policy.default)
        for _ in range(3):  # the second and third time from what was kept
            assert _everything_read(read_head(raw, 10 ** 6), raw) == _everything_read(fresh_head, raw)
            assert _everything_read(read_message(raw, 10 ** 6, 50)[0], raw) == _everything_read(fresh_whole, raw)
            assert _everything_read(message_from_bytes(raw, policy=READING), raw) == _everything_read(fresh_whole, raw)


def test_headers_kept_stay_bounded() -> None:
    from email import message_from_bytes

    from adjudicator.service.budget import READING, REMEMBERED_CHARS, REMEMBERED_HEADERS

    registry = READING.header_factory
    for number in range(REMEMBERED_HEADERS * 2):
        raw = f"From: p{number}@example.org\r\nSubject: {'z' * (REMEMBERED_CHARS + 1)}\r\n\r\n".encode()
        message = message_from_bytes(raw, policy=READING)
        assert message["From"].addresses[0].addr_spec == f"p{number}@example.org"
        assert str(message["Subject"]) == "z" * (REMEMBERED_CHARS + 1)
    kept = registry._made  # type: ignore[attr-defined]
    assert len(kept) <= REMEMBERED_HEADERS
    assert all(len(value) <= REMEMBERED_CHARS for _, value in kept)


def test_fields_new_in_every_mail_do_not_push_a_players_from_out() -> None:
    """A Message-ID or Date is not kept (issue 20): the From of a player
    who mails again after many other mails is still remembered."""
    from email import message_from_bytes

    from adjudicator.service.budget import READING, REMEMBERED_HEADERS

    registry = READING.header_factory
    first = message_from_bytes(b"From: Spieler <again@example.org>\r\n\r\n", policy=READING)["From"]
    for number in range(REMEMBERED_HEADERS * 2):
        raw = f"Message-ID: <{number}@example.org>\r\nDate: {number}\r\nReceived: from {number}\r\n\r\n".encode()
        message = message_from_bytes(raw, policy=READING)
        assert str(message["Message-ID"]) == f"<{number}@example.org>"
    kept = registry._made  # type: ignore[attr-defined]
    assert not any(name.lower() in ("message-id", "date", "received") for name, _ in kept)
    again = message_from_bytes(b"From: Spieler <again@example.org>\r\n\r\n", policy=READING)["From"]
    assert again is first and str(again) == "Spieler <again@example.org>"


# --- orders parsed once per mail (arrival.as_written_alone) ----------------------

ORDER_MAILS = [
    "A Par - Bur\nA Mar S A Par - Bur\nF Bre - Mao",
    "  A Vie - Gal ;  A Bud - Ser;F Tri - Alb  \n\n   a vie h",
    "A Par - \nF Bre - Nowhere; A Mar S\nhello world\n F Lon C A Yor - Nwy ; ;",
    "A Mun -> Ruh\nF Kie - Den\tA Ber - Kie\nA Ber S F Kie - Den; A XYZ H\nF Stp/sc - Bot\nF StP(nc) - Bar",
    "Build A Par\nremove F Bre; waive\nA Par d\nF Nap - Ion via convoy\n\u00e4\u00f6\u00fc - Gal",
]


def test_orders_handed_to_the_adjudicator_are_those_parsing_their_texts_again_gives() -> None:
    from adjudicator.games.diplomacy.arrival import as_written_alone
    from adjudicator.games.diplomacy.core.mapdata import load_map
    from adjudicator.games.diplomacy.core.model import PhaseKind
    from adjudicator.games.diplomacy.core.notation import parse_orders
    from adjudicator.games.diplomacy.core.reports import parse_power_orders

    game_map = load_map("standard")
    rng = random.Random(20)
    pieces = [line for text in ORDER_MAILS for line in text.split("\n")]
    mails = ORDER_MAILS + ["\n".join(rng.choice(pieces) for _ in range(rng.randrange(1, 12))) for _ in range(60)]
    for kind in (PhaseKind.MOVEMENT, PhaseKind.RETREAT, PhaseKind.ADJUSTMENT):
        for text in mails:
            parsed = parse_orders(text, game_map, kind)
            kept = parsed[::2] if len(parsed) > 3 else parsed  # some dropped, as corrected orders are
            again = parse_power_orders(game_map, {"France": [p.text for p in kept]}, kind)["France"]
            assert as_written_alone(kept) == again
            assert [str(p.error) for p in as_written_alone(kept)] == [str(p.error) for p in again]
