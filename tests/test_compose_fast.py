"""A mail written directly (issue 20) is byte for byte the mail the email
package composes: same headers, same folding, same encoding, and for
mails with HTML or files the same MIME structure and boundaries (the
same draws of ``random``)."""

from __future__ import annotations

import random
import sys
from datetime import datetime, timedelta, timezone
from email import message_from_bytes, policy

import pytest

import adjudicator.mail.compose as compose_module
from adjudicator.mail.compose import Attachment, compose

WORDS = ["Re:", "Befehle", "g1", "orders", "Frühjahr", "1901", "=?utf-8?q?x?=", "(x)", '"quoted"', "a,b", "<id>",
         "Ünïcödé", "tab\there", "\u2028", "", "x" * 90, "Grüße", "—", "ok.", "From", "\U0001F600", ";:", "\\"]
LINES = ["Hallo,", "", "SIGNON Austria g0 ****", "A Vie - Gal", "> lines 1–1 (greeting)", "  Ignored: Gruss",
         "From the judge", ".", "   trailing   ", "x" * 77, "x" * 78, "y" * 79, "ü" * 40, "a=b=c", "tab\tin",
         "form\x0cfeed", "=?utf-8?q?x?=", "end with space ", "\u00a0nbsp", "€uro"]


def _both(seed: int | None = None, **kwargs: object) -> tuple[bytes, bytes]:
    """(what compose writes, what the email package writes) for the same
    arguments, ``random`` seeded alike (with ``seed``, else any) before
    each (the boundaries)."""
    seed = random.randrange(2**32) if seed is None else seed
    random.seed(seed)
    fast = compose(**kwargs)  # type: ignore[arg-type]
    plain, multipart = compose_module._plain_mail, compose_module._multipart_mail
    compose_module._plain_mail = lambda *args: None  # type: ignore[assignment]
    compose_module._multipart_mail = lambda *args: None  # type: ignore[assignment]
    try:
        random.seed(seed)
        slow = compose(**kwargs)  # type: ignore[arg-type]
    finally:
        compose_module._plain_mail, compose_module._multipart_mail = plain, multipart
    return fast, slow


def _case(rng: random.Random) -> dict[str, object]:
    words = lambda n: " ".join(rng.choice(WORDS) for _ in range(n))  # noqa: E731
    ids = [f"<m{rng.randrange(10**rng.randrange(1, 30))}@{rng.choice(['bench.test', 'x.example'])}>"
           for _ in range(rng.randrange(0, 30))]
    local = rng.choice(["g1-1", "first.last", "a+b", "o'neil", "x_y", "UPPER"])
    domain = rng.choice(["bench.test", "sub.bench.test", "bücher.example"])
    return {
        "sender": rng.choice(["judge@bench.test", "j@pbem.example"]),
        "sender_name": rng.choice(["Adjudicator", "Der Judge", "Jüdge", "J. R. \"Bob\"", "", "A, B"]),
        "to": [f"{local}@{domain}"],
        "subject": words(rng.randrange(0, 25)),
        "text": "\n".join(rng.choice(LINES) for _ in range(rng.randrange(0, 40))) + rng.choice(["", "\n", "\r\n"]),
        "in_reply_to": rng.choice([None, *ids]) if ids else None,
        "references": ids[:-1],
        "loop_id": rng.choice(["judge@bench.test", "judge loop id"]),
        "date": datetime(2026, 12, 1, 12, 0, rng.randrange(60), rng.randrange(10**6),
                         tzinfo=timezone(timedelta(minutes=rng.choice([0, 60, -330, 765])))),
        "message_id": f"<own{rng.randrange(10**9)}@bench.test>",
    }


def test_text_only_mails_are_the_email_packages_bytes() -> None:
    rng = random.Random(20)
    taken = 0
    for _ in range(600):
        case = _case(rng)
        fast, slow = _both(**case)
        assert fast == slow, case
        text = case["text"]
        assert isinstance(text, str)
        long_ascii = text.isascii() and any(len(line) > 78 for line in text.replace("\r", "").split("\n"))
        taken += not long_ascii
    assert taken > 300  # most cases went the direct way


HTML = ["<p>", "</p>", "<img src=\"cid:map-g1@adjudicator\">", "Grüße", "&amp;", "x" * 120, "<td>ok</td>", "=3D",
        "--===============0000000000000000000==", "\t", " ", "\u2192"]
NAMES = ["g1-S1901M.png", "map.png", "events.txt", "Grüße.png", "a b.png", "x" * 70 + ".png", "", "o'neil.png",
         "\"q\".png", "spiel1-F1901M.png"]


def _attachments(rng: random.Random) -> list[Attachment]:
    found = []
    for _ in range(rng.choice([0, 1, 1, 1, 2, 3])):
        data = bytes(rng.randrange(256) for _ in range(rng.choice([0, 1, 56, 57, 58, 300, 4000])))
        cid = rng.choice([None, "map-g1-S1901M@adjudicator", "<k@pbem.test>", "x" * 80 + "@y", "a.b@c-d"])
        found.append(Attachment(rng.choice(NAMES), rng.choice(["image/png", "text/plain", "application/json",
                                                                "Image/PNG", "application/vnd.x+json"]), data, cid))
    return found


def test_mails_with_html_and_files_are_the_email_packages_bytes() -> None:
    rng = random.Random(47)
    taken = cases = 0
    for _ in range(250):
        case = _case(rng)
        case["html"] = rng.choice([None, *["\n".join(rng.choice(HTML) for _ in range(rng.randrange(0, 30)))
                                          + rng.choice(["", "\n"])] * 3])
        case["attachments"] = _attachments(rng)
        if case["html"] is None and not case["attachments"]:
            continue
        fast, slow = _both(**case)
        assert fast == slow, case
        cases += 1
        taken += compose_module._multipart_mail(*_arguments(case)) is not None
    assert taken > cases // 3  # many cases went the direct way (the rest have names the package must quote)


def test_a_report_is_written_directly_as_the_email_package_writes_it() -> None:
    png = bytes(range(256)) * 200
    case = {"sender": "judge@bench.test", "sender_name": "Adjudicator", "to": ["g1-0@bench.test"],
            "subject": "g1 S1901M", "text": "Report \u2192 A Vie - Gal\n" + "y" * 100 + "\n",
            "html": "<p>Report</p>\n<img src=\"cid:map-g1-S1901M@adjudicator\">\n",
            "loop_id": "judge@bench.test", "date": datetime(2026, 12, 1, 20, 0, tzinfo=timezone.utc),
            "message_id": "<r1@bench.test>",
            "attachments": [Attachment("g1-S1901M.png", "image/png", png, "map-g1-S1901M@adjudicator")]}
    assert compose_module._multipart_mail(*_arguments(case)) is not None
    fast, slow = _both(**case)
    assert fast == slow
    random.seed(20)
    drawn = f"{'=' * 15}{random.randrange(sys.maxsize):019d}=="  # the related part's boundary, drawn first
    clash, slow_clash = _both(20, **{**case, "html": f"<p>\n--{drawn}\n</p>\n"})
    # the package looks for the boundary in the parts as a line ending in LF, which CRLF lines never are
    assert clash == slow_clash and f'boundary="{drawn}"'.encode() in clash
    message = message_from_bytes(fast, policy=policy.default)
    assert message.get_content_type() == "multipart/alternative"
    plain, related = message.get_payload()  # type: ignore[misc]
    assert related.get_content_type() == "multipart/related"
    assert related.get_payload()[1].get_content() == png


def _arguments(case: dict[str, object]) -> tuple[object, ...]:
    """The arguments compose gives ``_multipart_mail`` for ``case``."""
    from_address = compose_module._mailbox(str(case["sender_name"]), str(case["sender"]))
    recipients = [compose_module._mailbox("", str(address)) for address in case["to"]]  # type: ignore[attr-defined]
    return (from_address, recipients, case["subject"], case["date"], case["message_id"], None, [], case["loop_id"],
            case["text"], case["html"], case["attachments"])


def test_a_written_mail_reads_back_as_sent() -> None:
    text = "Bestätigt.\n> lines 1–1 (greeting)\n" + "ä" * 100 + "\nEnde\n"
    raw = compose(sender="judge@bench.test", sender_name="Adjudicator", to=["p@bench.test"], subject="Re: Grüße",
                  text=text, in_reply_to="<m1@bench.test>", loop_id="judge@bench.test",
                  date=datetime(2026, 12, 1, tzinfo=timezone.utc))
    message = message_from_bytes(raw, policy=policy.default)
    assert message.get_content().replace("\r\n", "\n") == text  # type: ignore[attr-defined]
    assert message["Subject"] == "Re: Grüße" and message["References"] == "<m1@bench.test>"
    assert b"\r\n" in raw and b"\n" not in raw.replace(b"\r\n", b"")
    assert all(len(line) <= 78 for line in raw.split(b"\r\n"))


@pytest.mark.parametrize("to", [["a b@bench.test"], ["x@bench.test\r\nBcc: y@z"], ["<x@y>"]])
def test_the_direct_way_refuses_what_compose_refuses(to: list[str]) -> None:
    with pytest.raises(ValueError):
        compose(sender="judge@bench.test", sender_name="J", to=to, subject="s", text="t", loop_id="l",
                date=datetime(2026, 12, 1, tzinfo=timezone.utc))
