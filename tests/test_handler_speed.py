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
