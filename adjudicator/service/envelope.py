"""A stored mail's Message-ID and sender read without the email package
when the mail is plain enough to be sure of the answer (issue 20, S49).

``Store`` keeps with each incoming mail its Message-ID and its From
address as the email package reads them (``message_from_bytes``, policy
compat32, then ``parseaddr``).  Importing that package is a quarter of
what ``adjudicator receive`` does, so ``first_header`` reads the header
block as the package's feed parser does (the same line breaks, the same
test for a header line, continuation lines joined as compat32 joins
them, the first field of a name) when every header line is printable
ASCII and nothing in the mail could make the package fail (it gives up,
and the store then keeps no value, only on nesting deep enough to
exhaust Python's recursion); ``address_of`` gives ``parseaddr``'s address
for the plain forms ``a@b``, ``Name <a@b>`` and ``"Name" <a@b>``.  For
anything else both answer ``None`` and the caller asks the package.
"""

from __future__ import annotations

_PRINTABLE = bytes(range(0x20, 0x7F)) + b"\t"
"""The bytes a header line read here may hold: printable ASCII and tabs."""

_ATEXT = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!#$%&'*+/=?^_`{|}~-")
_DOMAIN = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-")
_SPACE = " \t\r\n"

NESTING = 100
"""Boundary lines or Content-Type fields from which on a mail is left to the
package: it could nest parts deep enough to make the package give up."""


def first_header(raw: bytes, name: str) -> str | None:
    """The value ``email.message_from_bytes(raw).get(name)`` gives (compat32:
    the unfolded source text after the colon), ``""`` for a mail without
    that field, or ``None`` when the mail is not plain enough to be sure."""
    if raw.count(b"\n--") >= NESTING or raw.lower().count(b"content-type") >= NESTING:
        return None
    wanted = name.lower()
    found: list[str] | None = None  # the value's source lines
    current: list[str] | None = None  # the lines of the field being read
    start = 0
    while start < len(raw):
        end = raw.find(b"\n", start)
        line = raw[start:] if end < 0 else raw[start:end + 1]
        start = len(raw) if end < 0 else end + 1
        body = line[:-2] if line.endswith(b"\r\n") else line[:-1] if line.endswith(b"\n") else line
        if body.translate(None, _PRINTABLE):
            return None  # a bare CR, a control character or 8-bit text: the package's own reading
        text = line.decode("ascii")
        colon = text.find(":")
        # ``feedparser.headerRE``: "From ", a name of printable non-space characters and a colon, or a blank first
        if not (text.startswith(("From ", " ", "\t")) or (colon >= 0 and " " not in text[:colon]
                                                          and "\t" not in text[:colon])):
            break  # the empty line, or the first line of the body
        if text[0] in " \t":
            if current is not None:
                current.append(text)
            continue  # a first line that continues nothing is dropped, as the package drops it
        current = None
        if text.startswith("From "):
            continue  # the envelope's From line (or a misplaced one): no field
        if colon == 0:
            continue  # no field name: dropped, and what continues it with it
        current = [text]
        if found is None and text[:colon].lower() == wanted:
            found = current
    if found is None:
        return ""
    value = found[0].split(":", 1)[1].lstrip(" \t") + "".join(found[1:])
    return value.rstrip("\r\n")


def address_of(value: str) -> str | None:
    """``email.utils.parseaddr(value)[1]`` for the plain forms ``a@b``,
    ``Name <a@b>`` and ``"Name, Title" <a@b>`` (dot-atoms, a name of atoms
    and quoted strings without escapes; no comments, routes or groups),
    whose address ``parseaddr`` gives as written; else ``None``."""
    text = value.strip(_SPACE)
    if text.endswith(">"):
        cut = text.rfind("<")
        if cut < 0 or not _is_name(text[:cut].rstrip(_SPACE)):
            return None
        text = text[cut + 1:-1]
    local, at, domain = text.partition("@")
    if not at or not all(part and _ATEXT.issuperset(part) for part in local.split(".")):
        return None
    if not all(part and _DOMAIN.issuperset(part) for part in domain.split(".")):
        return None
    return text


def _is_name(name: str) -> bool:
    """True for a display name of atoms and quoted strings without escapes or line breaks."""
    if not name:
        return False
    while name:
        if name[0] == '"':
            end = name.find('"', 1)
            if end < 0 or any(c in name[1:end] for c in "\\\r\n"):
                return False
            name = name[end + 1:].lstrip(_SPACE)
            continue
        length = 0
        while length < len(name) and name[length] in _ATEXT:
            length += 1
        if length == 0:
            return False
        name = name[length:].lstrip(_SPACE)
    return True
