"""The budget every mail is held to (docs/service.md S26-S28): bounded
headers, a MIME structure read only when it is small enough, a time limit
per mail, and no password echoed or kept.

Every function here runs in time linear in its input.
"""

from __future__ import annotations

import re
import signal
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from email import message_from_bytes, policy
from email.headerregistry import BaseHeader, HeaderRegistry
from email.message import Message
from email.parser import BytesHeaderParser
from types import FrameType
from typing import Any

MAX_HEADERS = 200
"""Header fields read at most; the rest of the head is left out."""

_BOUNDARY = re.compile(rb"boundary\s*=", re.IGNORECASE)


class MailTimeout(Exception):
    """Handling one mail took longer than ``limits.mail_seconds``."""


@contextmanager
def time_budget(seconds: float) -> Iterator[None]:
    """Raise ``MailTimeout`` in the block when it runs longer than
    ``seconds`` (a real-time alarm; only in the main thread, where the
    judge handles mail, and a no-op elsewhere)."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        yield
        return

    def expired(signum: int, frame: FrameType | None) -> None:
        raise MailTimeout(f"handling took longer than {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


REMEMBERED_HEADERS = 512
"""Parsed header fields the reading policy keeps at most (the oldest is
dropped first); only fields of at most ``REMEMBERED_CHARS`` characters."""
REMEMBERED_CHARS = 8192
RECURRING_FIELDS = frozenset({
    "from", "sender", "reply-to", "to", "cc", "subject", "return-path", "mime-version", "content-type",
    "content-transfer-encoding", "content-disposition", "precedence", "auto-submitted",
})
"""The fields the reading policy remembers: those whose values come again
in later mails (a player's From, a game's Subject, the MIME fields).  A
Message-ID, Date or Received field is new in every mail: kept, it would
only push a player's From out of the memory before his next mail."""


class _RememberingRegistry(HeaderRegistry):
    """``email``'s header registry, keeping the header objects it made of
    the ``RECURRING_FIELDS``:
    ``policy.default`` parses a field anew each time it is asked for
    (a mail's Content-Type some ten times as the parser, the loop checks
    and the body reader ask), and a parsed field depends on nothing but
    its name and value (issue 20).  Header objects are never changed once
    made, so the one kept is what a fresh parse would give."""

    def __init__(self) -> None:
        super().__init__()
        self._made: dict[tuple[str, str], BaseHeader] = {}

    def __call__(self, name: str, value: str) -> Any:
        key = (name, value)
        found = self._made.get(key)
        if found is None:
            found = super().__call__(name, value)
            if len(value) <= REMEMBERED_CHARS and name.lower() in RECURRING_FIELDS:
                if len(self._made) >= REMEMBERED_HEADERS:
                    del self._made[next(iter(self._made))]
                self._made[key] = found
        return found


READING = policy.default.clone(header_factory=_RememberingRegistry())
"""``policy.default`` for reading incoming mail, each header field parsed once."""


def bounded_head(raw: bytes, field_bytes: int, max_fields: int = MAX_HEADERS) -> bytes:
    """``raw`` with every header field longer than ``field_bytes`` (its
    folded lines together) left out, and at most ``max_fields`` fields; the
    body as it was.  A From or Reply-To too long to be a person's address
    is thus simply absent."""
    cut = min((i for i in (raw.find(b"\r\n\r\n"), raw.find(b"\n\n")) if i >= 0), default=len(raw))
    head, body = raw[:cut], raw[cut:]
    fields: list[list[bytes]] = []
    for line in head.splitlines(keepends=True):
        if line[:1] in (b" ", b"\t") and fields:
            fields[-1].append(line)
        else:
            fields.append([line])
    kept = [b"".join(f) for f in fields[:max_fields] if sum(len(part) for part in f) <= field_bytes]
    if len(kept) == len(fields):
        return raw
    return b"".join(kept) + body


def read_head(raw: bytes, field_bytes: int) -> Message:
    """Only the headers of ``raw`` (bounded as ``bounded_head`` does); its
    body is not parsed.  Linear in the mail's size."""
    return BytesHeaderParser(policy=READING).parsebytes(bounded_head(raw, field_bytes))


def read_message(raw: bytes, field_bytes: int, max_parts: int) -> tuple[Message, str | None]:
    """The parsed mail and, when its body cannot be read within the
    budget, why: more MIME boundaries than ``max_parts`` (nested or not)
    or a structure the parser gives up on.  Then only the headers are
    parsed, so the sender can still be told."""
    bounded = bounded_head(raw, field_bytes)
    if len(_BOUNDARY.findall(bounded)) > max_parts:
        problem = f"the mail has more than {max_parts} MIME parts"
    else:
        try:
            return message_from_bytes(bounded, policy=READING), None
        except RecursionError:
            problem = "the mail's MIME parts are nested too deeply"
    return BytesHeaderParser(policy=READING).parsebytes(bounded), problem


# --- secrets ----------------------------------------------------------------

_MASK = "****"
SHORTEST_SCRUBBED = 3
"""Secrets shorter than this are masked only as whole words (a one-letter
password must not blank every "a" of an answer)."""


def scrub(text: str, secrets: Iterable[str]) -> str:
    """``text`` with every secret replaced by ``****``: longest first, as a
    substring when it has at least ``SHORTEST_SCRUBBED`` characters, else
    as a whole word."""
    for secret in sorted({s for s in secrets if s}, key=len, reverse=True):
        if len(secret) >= SHORTEST_SCRUBBED:
            text = text.replace(secret, _MASK)
        else:
            text = re.sub(rf"(?<!\S){re.escape(secret)}(?!\S)", _MASK, text)
    return text


def masked_raw(raw: bytes, secrets: Iterable[str], text: str) -> bytes:
    """The mail to keep once it is handled: ``raw`` with every secret
    masked.  When a secret is not in the bytes as written (an encoded
    body), the head is kept with the read text, masked, as the body."""
    wanted = sorted({s for s in secrets if s}, key=len, reverse=True)
    result, missing = raw, False
    for secret in wanted:
        encoded = secret.encode("utf-8")
        if encoded in result:
            result = result.replace(encoded, _MASK.encode())
        else:
            missing = True
    if missing:
        cut = min((i for i in (result.find(b"\r\n\r\n"), result.find(b"\n\n")) if i >= 0), default=len(result))
        kept: list[bytes] = []
        skipping = False
        for line in result[:cut].splitlines():
            if line[:1] not in (b" ", b"\t"):
                skipping = line.lower().startswith((b"content-", b"mime-version"))
            if not skipping:
                kept.append(line)
        head = b"\r\n".join(kept)
        result = (head + b"\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"
                  + scrub(text, wanted).encode("utf-8"))
    return result


def quotes_answer(answer: str | None, text: str, needed: int = 3) -> bool:
    """True when ``text`` (what would be read of a mail) holds at least
    ``needed`` distinctive lines of the judge's ``answer``: an
    auto-responder sending the judge's own mail back."""
    if not answer:
        return False
    distinctive = {line.strip() for line in answer.splitlines() if len(line.strip()) >= 12}
    found = {line.strip() for line in text.splitlines()} & distinctive
    return len(found) >= min(needed, len(distinctive)) > 0
