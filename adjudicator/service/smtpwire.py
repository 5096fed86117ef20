"""The SMTP DATA encoding of aiosmtplib, made cheap for the judge's own mails (S41, issue 20).

Before it hands a mail over, aiosmtplib turns every lone CR or LF into
CRLF (twice per mail: for the SIZE option and for DATA) and doubles each
dot that starts a line, with regular expressions over the whole mail.
For a report of 83 KiB (a base64 map: about 1,100 lines) that was half
of the sending's CPU, about a third of the judge's own per game in a
deadline storm.  The judge's mails are composed with CRLF line ends
throughout, so those passes change nothing but cost a substitution per
line.

``install`` puts in their place functions that give the same bytes for
every input: a mail without a lone CR or LF is checked with three counts
(no substitution), any other mail goes through aiosmtplib's own regular
expression, and the dots are doubled with one ``bytes.replace``.  What
the SMTP server receives is therefore byte for byte what it received
before.  Where aiosmtplib does not have these names and patterns (another
version), nothing is replaced and sending works as the library does it.

Even those passes (three counts and a replacement over some 83 KiB) cost
about half a millisecond per mail, and a report's eight mails share one
body (S40).  So the sender may ``prime`` a mail it knows as a head plus
the body the outbox names by its SHA-256: the body's checks and doubled
dots are made once per body (the last ``KEPT_BODIES`` kept), only the
head's for each mail, and aiosmtplib's two steps then find their results
for exactly that message object.  The bytes are those of the passes over
the whole mail.

aiosmtplib also parses each address of a mail twice with the email
package's address parser (some 35 µs each, four per mail: the sender's
the same in every mail); ``install`` has its ``parse_address`` remember
the last ``ADDRESSES`` answers (a pure function of the text: an address
it refuses is refused again each time).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from types import ModuleType
from typing import Any

_LINE_ENDINGS = rb"(?:\r\n|\n|\r(?!\n))"
_PERIOD = rb"(?m)^\."


KEPT_BODIES = 4
"""Bodies whose checks and doubled dots are kept (a round sends the mails
of one report after another)."""

_LAST: list[tuple[bytes, bytes]] = [(b"", b"\r\n")]
"""The last message encoded and its CRLF form (aiosmtplib's sendmail encodes
each mail twice: for SIZE, then for DATA), as one tuple: threads that send
read it whole."""

_DOUBLED: list[tuple[bytes, bytes]] = [(b"", b"")]
"""The last primed CRLF form and its doubled dots."""

_BODIES: dict[str, tuple[int, bool, bytes]] = {}
"""Body id -> its length, whether its line ends are all CRLF, and its dots doubled (for a body after a line end)."""

_INSTALLED: list[bool] = [False]

ADDRESSES = 1024
"""Addresses whose parsed form aiosmtplib's ``parse_address`` remembers."""


def remembered(parse: Callable[[str], str]) -> Callable[[str], str]:
    """``parse`` (aiosmtplib's ``parse_address``) remembering its last
    ``ADDRESSES`` results for texts (what it raises is raised again)."""
    cached = lru_cache(maxsize=ADDRESSES)(parse)

    def parse_address(address: str) -> str:
        return cached(address) if type(address) is str else parse(address)

    setattr(parse_address, "_adjudicator_fast", True)
    return parse_address


def crlf_only(data: bytes) -> bool:
    """True when every CR and LF of ``data`` is part of a CRLF."""
    crlf = data.count(b"\r\n")
    return data.count(b"\r") == crlf and data.count(b"\n") == crlf


def prime(message: bytes, head_length: int, body_id: str) -> bool:
    """Make the encoding of ``message`` (its first ``head_length`` bytes a
    head ending in CRLF, the rest the outbox body ``body_id``, the SHA-256
    of those bytes) from the body's checks and doubled dots made once per
    body: the next ``normalize_message_line_endings`` and ``PERIOD_REGEX``
    over exactly this message object give what the passes over the whole
    mail give.  False (nothing primed, the passes run as before) when the
    encoding is not installed, the head does not end in CRLF, or the head
    or the body has a lone CR or LF."""
    head = message[:head_length]
    if not _INSTALLED[0] or not head.endswith(b"\r\n") or not crlf_only(head):
        return False
    body_length = len(message) - head_length
    kept = _BODIES.get(body_id)
    if kept is None or kept[0] != body_length:
        body = message[head_length:]
        kept = (body_length, crlf_only(body), body.replace(b"\n.", b"\n.."))
        _BODIES.pop(body_id, None)
        _BODIES[body_id] = kept
        while len(_BODIES) > KEPT_BODIES:
            del _BODIES[next(iter(_BODIES))]
    _, clean, body_doubled = kept
    if not clean:
        return False
    done = message if message.endswith(b"\r\n") else message + b"\r\n"
    doubled = dots_doubled(head) + (b"." if body_doubled.startswith(b".") else b"") + body_doubled
    _LAST[0] = (message, done)
    _DOUBLED[0] = (done, doubled if done is message else doubled + b"\r\n")
    return True


def normalized(message: bytes, slow: Callable[[bytes], bytes]) -> bytes:
    """``message`` with every line end CRLF and a CRLF at its end, as
    ``slow`` (aiosmtplib's ``normalize_message_line_endings``) makes it;
    ``slow`` runs only when the message has a lone CR or LF."""
    crlf = message.count(b"\r\n")
    if message.count(b"\r") != crlf or message.count(b"\n") != crlf:
        return slow(message)
    return message if message.endswith(b"\r\n") else message + b"\r\n"


def dots_doubled(message: bytes) -> bytes:
    """``re.sub(rb"(?m)^\\.", b"..", message)``: each line that starts with
    a dot (after an LF, or at the very start) gets a second one."""
    doubled = message.replace(b"\n.", b"\n..")
    return b"." + doubled if doubled.startswith(b".") else doubled


class _Periods:
    """Stands for aiosmtplib's ``PERIOD_REGEX``: ``sub(b"..", message)``
    is ``dots_doubled``; any other use goes to the regular expression."""

    def __init__(self, pattern: re.Pattern[bytes]) -> None:
        self._pattern = pattern
        self.pattern = pattern.pattern

    def sub(self, replacement: Any, string: Any, count: int = 0) -> Any:
        if replacement == b".." and isinstance(string, bytes) and not count:
            primed, doubled = _DOUBLED[0]
            return doubled if primed is string else dots_doubled(string)
        return self._pattern.sub(replacement, string, count)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._pattern, name)


def install() -> bool:
    """Replace aiosmtplib's DATA encoding by the cheap one of the same
    bytes, and have it remember the addresses it parsed (once; later calls
    do nothing); False when this aiosmtplib lacks what is replaced (its
    own encoding and parsing then stay)."""
    try:
        import aiosmtplib.protocol as protocol
        import aiosmtplib.smtp as smtp
    except ImportError:  # pragma: no cover - a dependency of the judge
        return False
    slow = getattr(protocol, "normalize_message_line_endings", None)
    periods = getattr(protocol, "PERIOD_REGEX", None)
    endings = getattr(protocol, "LINE_ENDINGS_REGEX", None)
    if getattr(slow, "_adjudicator_fast", False):
        _INSTALLED[0] = True
        return True
    if slow is None or not isinstance(periods, re.Pattern) or periods.pattern != _PERIOD \
            or not isinstance(endings, re.Pattern) or endings.pattern != _LINE_ENDINGS:
        return False
    original: Callable[[bytes], bytes] = slow

    def fast(message: bytes) -> bytes:
        seen, done = _LAST[0]
        if seen is not message:
            done = normalized(message, original)
            _LAST[0] = (message, done)
        return done

    setattr(fast, "_adjudicator_fast", True)
    modules: tuple[ModuleType, ...] = (protocol, smtp)
    for module in modules:
        if getattr(module, "normalize_message_line_endings", None) is original:
            setattr(module, "normalize_message_line_endings", fast)
    setattr(protocol, "PERIOD_REGEX", _Periods(periods))
    _remember_addresses()
    _INSTALLED[0] = True
    return True


def _remember_addresses() -> None:
    """Put ``remembered(parse_address)`` where aiosmtplib looks it up (its
    ``email`` module, for ``quote_address`` too, and ``smtp``)."""
    import aiosmtplib.email as addresses
    import aiosmtplib.smtp as smtp

    parse = getattr(addresses, "parse_address", None)
    if parse is None or getattr(parse, "_adjudicator_fast", False):
        return
    fast = remembered(parse)
    setattr(addresses, "parse_address", fast)
    if getattr(smtp, "parse_address", None) is parse:
        setattr(smtp, "parse_address", fast)
