"""A text-only mail written directly (issue 20) is byte for byte the mail
the email package composes: same headers, same folding, same encoding."""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone
from email import message_from_bytes, policy

import pytest

import adjudicator.mail.compose as compose_module
from adjudicator.mail.compose import compose

WORDS = ["Re:", "Befehle", "g1", "orders", "Frühjahr", "1901", "=?utf-8?q?x?=", "(x)", '"quoted"', "a,b", "<id>",
         "Ünïcödé", "tab\there", "\u2028", "", "x" * 90, "Grüße", "—", "ok.", "From", "\U0001F600", ";:", "\\"]
LINES = ["Hallo,", "", "SIGNON Austria g0 ****", "A Vie - Gal", "> lines 1–1 (greeting)", "  Ignored: Gruss",
         "From the judge", ".", "   trailing   ", "x" * 77, "x" * 78, "y" * 79, "ü" * 40, "a=b=c", "tab\tin",
         "form\x0cfeed", "=?utf-8?q?x?=", "end with space ", "\u00a0nbsp", "€uro"]


def _both(**kwargs: object) -> tuple[bytes, bytes | None]:
    """(what compose writes, what the email package writes) for the same arguments."""
    fast = compose(**kwargs)  # type: ignore[arg-type]
    taken = compose_module._plain_mail
    compose_module._plain_mail = lambda *args: None  # type: ignore[assignment]
    try:
        slow = compose(**kwargs)  # type: ignore[arg-type]
    finally:
        compose_module._plain_mail = taken
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
