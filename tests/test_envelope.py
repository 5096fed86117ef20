"""A stored mail's Message-ID and sender read without the email package
are what the package reads (S49): wherever ``envelope`` answers, its
answer is the package's, and the store keeps the same values."""

from __future__ import annotations

from email import message_from_bytes
from email.utils import parseaddr

from hypothesis import given, settings, strategies as st

from adjudicator.service.envelope import address_of, first_header
from adjudicator.service.store import _head_fields


def package_message_id(raw: bytes) -> str | None:
    """What the store kept as a mail's Message-ID before S49 (the mails here
    are far from the depth at which a whole parse gives up, S50)."""
    try:
        value = message_from_bytes(raw[:65536]).get("Message-ID")
    except Exception:
        return None
    text = str(value).strip() if value else ""
    return text or None


def package_sender(raw: bytes) -> str:
    """What the store kept as a mail's sender before S49."""
    try:
        value = message_from_bytes(raw[:65536]).get("From")
        return parseaddr(str(value))[1].strip().lower()[:320] if value else ""
    except Exception:
        return ""


PLAIN = (b"From: Player <player@example.org>\nTo: judge@pbem.test\nSubject: orders\n"
         b"Message-ID: <startup-1@example.org>\n\nSIGNON England bench secret\nF Lon - Nth\n")

PIECES = (
    "From: Player <player@example.org>", "from: \"Last, First\" <A.B@Example.ORG>", "FROM:a@b", "From:  x@y.z  ",
    "From: a@b (comment)", "From: <a@b>", "From: a@b, c@d", "From: =?utf-8?q?J=C3=BCrgen?= <j@x.de>",
    "From: Dr. Who <who@tardis.uk>", "From: \"q\\\"uote\" <q@x.org>", "From: group: a@b;", "From:", "From: ",
    "From: <@route:a@b>", "From: a.@b", "From: a..b@c", "From: a@[1.2.3.4]", "From: Name\t<n@x.org>",
    "From: \"a\"b <c@d>", "From: x <a@b.>", "From: a@-b.c", "From: x <a@b> y", "From: \"\" <e@f>", "From: <a@b>>",
    "Message-ID: <m1@x>", "message-id:<m2@x>  ", "Message-ID:", "Message-Id: \t<m3@x>", "Message-ID : <m4@x>",
    "Subject: hello", "X-Thing: a: b", ":no name", "From someone@else Mon Jan  1 00:00:00 2026", "From x",
    " continued", "\tcontinued <c@d>", "Content-Type: text/plain", "Content-Type: multipart/mixed; boundary=b",
    "Content-Type: message/rfc822", "Received: from a by b", "X-8bit: caf\xe9", "X-ctl: a\x0bb", "X-cr: a\rb",
    "no colon here", "", "--b", "body line",
)


@st.composite
def mails(draw: st.DrawFn) -> bytes:
    lines = draw(st.lists(st.sampled_from(PIECES), max_size=12))
    ending = draw(st.sampled_from(("\n", "\r\n")))
    text = ending.join(lines) + draw(st.sampled_from(("", ending, ending + ending + "body" + ending)))
    return text.encode("latin-1")


@settings(max_examples=400, deadline=None)
@given(mails())
def test_where_the_envelope_reader_answers_it_answers_as_the_email_package(raw: bytes) -> None:
    message = message_from_bytes(raw)
    for name in ("From", "Message-ID", "Subject"):
        value = first_header(raw, name)
        if value is not None:
            assert value == (message.get(name) or ""), (name, raw)
            address = address_of(value)
            if address is not None:
                assert address == parseaddr(value)[1], (value, raw)
    assert _head_fields(raw) == (package_message_id(raw), package_sender(raw))


def test_the_envelope_reader_reads_a_plain_mail_itself_and_leaves_the_rest_to_the_package() -> None:
    # The test above would pass if the reader never answered: here it must.
    assert first_header(PLAIN, "Message-ID") == "<startup-1@example.org>"
    assert first_header(PLAIN, "from") == "Player <player@example.org>" and first_header(PLAIN, "Cc") == ""
    assert address_of("Player <player@example.org>") == "player@example.org"
    assert address_of('"Last, First" <A.B@Example.ORG>') == "A.B@Example.ORG" and address_of(" a@b ") == "a@b"
    folded = b"Message-ID:\r\n <folded@x>\r\nFrom: a@b\r\n\r\nbody"
    assert first_header(folded, "Message-ID") == "\r\n <folded@x>" == message_from_bytes(folded)["Message-ID"]
    for raw in (b"From: caf\xe9 <a@b>\n\n", b"X: a\rb\nFrom: a@b\n\n", b"Subject: x\n" + b"--b\n" * 100):
        assert first_header(raw, "From") is None, raw  # 8-bit, a bare CR, deep nesting: the package's reading
    for value in ("a@b (comment)", "<a@b>", "a@b, c@d", "Dr. Who <w@x>", "N <a@b> (c)", "<@r:a@b>"):
        assert address_of(value) is None, value
    assert _head_fields(PLAIN) == (package_message_id(PLAIN), package_sender(PLAIN)) \
        == ("<startup-1@example.org>", "player@example.org")
