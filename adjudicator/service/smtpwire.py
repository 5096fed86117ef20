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

The envelope addresses are parsed by the email package (``parseaddr``)
three times per mail and recipient (checked, then quoted for MAIL FROM
and RCPT TO): a seventh of the sending thread's CPU for an
acknowledgement.  The parse depends on the address text alone, so
``install`` also keeps aiosmtplib's ``parse_address`` and
``quote_address`` results for the last ``ADDRESSES_KEPT`` addresses
(an address it refuses raises each time, as before).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from types import ModuleType
from typing import Any

_LINE_ENDINGS = rb"(?:\r\n|\n|\r(?!\n))"
_PERIOD = rb"(?m)^\."


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
            return dots_doubled(string)
        return self._pattern.sub(replacement, string, count)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._pattern, name)


ADDRESSES_KEPT = 1024
"""Envelope addresses whose parsed and quoted forms are kept."""


def _remember_addresses(smtp: ModuleType) -> None:
    """aiosmtplib's ``parse_address`` and ``quote_address``, as ``smtp``
    (its client module) calls them, remembered for the last
    ``ADDRESSES_KEPT`` address texts: the same strings, the same errors."""
    for name in ("parse_address", "quote_address"):
        function = getattr(smtp, name, None)
        if callable(function) and not getattr(function, "_adjudicator_fast", False):
            kept = lru_cache(maxsize=ADDRESSES_KEPT)(function)
            setattr(kept, "_adjudicator_fast", True)
            setattr(smtp, name, kept)


def install() -> bool:
    """Replace aiosmtplib's DATA encoding by the cheap one of the same
    bytes (once; later calls do nothing); False when this aiosmtplib lacks
    what is replaced (its own encoding then stays)."""
    try:
        import aiosmtplib.protocol as protocol
        import aiosmtplib.smtp as smtp
    except ImportError:  # pragma: no cover - a dependency of the judge
        return False
    slow = getattr(protocol, "normalize_message_line_endings", None)
    periods = getattr(protocol, "PERIOD_REGEX", None)
    endings = getattr(protocol, "LINE_ENDINGS_REGEX", None)
    if getattr(slow, "_adjudicator_fast", False):
        return True
    _remember_addresses(smtp)
    if slow is None or not isinstance(periods, re.Pattern) or periods.pattern != _PERIOD \
            or not isinstance(endings, re.Pattern) or endings.pattern != _LINE_ENDINGS:
        return False
    original: Callable[[bytes], bytes] = slow
    # aiosmtplib's sendmail encodes each mail twice (for SIZE, then for DATA):
    # the last one is kept, as one tuple (threads that send read it whole)
    last: list[tuple[bytes, bytes]] = [(b"", b"\r\n")]

    def fast(message: bytes) -> bytes:
        seen, done = last[0]
        if seen is not message:
            done = normalized(message, original)
            last[0] = (message, done)
        return done

    setattr(fast, "_adjudicator_fast", True)
    modules: tuple[ModuleType, ...] = (protocol, smtp)
    for module in modules:
        if getattr(module, "normalize_message_line_endings", None) is original:
            setattr(module, "normalize_message_line_endings", fast)
    setattr(protocol, "PERIOD_REGEX", _Periods(periods))
    return True
