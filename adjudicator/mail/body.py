"""The text a player wrote in a mail, as the judge should read it.

``player_text`` takes a parsed message and returns the plain text that
matters: the text/plain part when there is one (otherwise the HTML part
turned into text), decoded from whatever charset was declared (German
umlauts in UTF-8, ISO-8859-1 or Windows-1252), without the signature after
``-- ``, without quoted reply lines (``>``) and without the quoted history
that German and English mail clients put under a reply header.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from email.errors import InvalidBase64CharactersDefect, InvalidBase64LengthDefect
from email.message import EmailMessage, Message
from html import unescape

# A line that starts the quoted history of a reply; it and all after it go.
# Each test looks at one line of at most _HEADER_LINE characters and runs in
# time linear in it (no pattern that can backtrack over the line).
_HEADER_LINE = 500
_SEPARATOR = re.compile(
    r"^-{2,} ?(?:ursprüngliche nachricht|original message|weitergeleitete nachricht|forwarded message) ?-{2,}$"
)
_OUTLOOK_NEXT = re.compile(r"^\s*(?:Gesendet|Sent|Datum|Date|An|To|Betreff|Subject):", re.IGNORECASE)
_SIGNATURE = re.compile(r"^-- ?$")

_BLOCK_TAGS = {"br", "p", "div", "tr", "li", "h1", "h2", "h3", "h4", "h5", "h6", "table", "pre", "blockquote"}
_HIDDEN_TAGS = {"style", "script", "head", "blockquote"}
_TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9]{0,15})")

MAX_TEXT = 256 * 1024
"""The characters of a mail's text that are read by default (the rest is
left out, and the answer says so): config ``limits.text_bytes``."""

MAX_PARTS = 100
"""The MIME parts looked at by default: config ``limits.mime_parts``."""


def _history_kind(line: str) -> str | None:
    """``"header"`` for a line that starts quoted reply history (``Am …
    schrieb …:``, ``On … wrote:``, a separator line), ``"outlook"`` for an
    Outlook ``Von:``/``From:`` line (history only when Sent/Date follows),
    else None."""
    if len(line) > _HEADER_LINE:
        return None
    words = " ".join(line.split()).lower()
    if words.startswith("am ") and words.endswith(":") and " schrieb " in words:
        return "header"
    if words.startswith("on ") and words.endswith(" wrote:"):
        return "header"
    if _SEPARATOR.match(words):
        return "header"
    if words.startswith(("von: ", "from: ")):
        return "outlook"
    return None


def html_to_text(html: str) -> str:
    """Visible text of an HTML body, one line per block element, blank
    lines and runs of spaces dropped; styles, scripts and quoted replies
    (``blockquote``) left out.  One pass over the text: every search moves
    on past what it found, so the time is linear in the length whatever
    the markup (unclosed comments, tags and quotes included)."""
    parts: list[str] = []
    hidden = 0
    position, size = 0, len(html)
    while position < size:
        start = html.find("<", position)
        if start < 0:
            if not hidden:
                parts.append(html[position:])
            break
        if not hidden:
            parts.append(html[position:start])
        if html.startswith("<!--", start):
            end = html.find("-->", start + 4)
            position = size if end < 0 else end + 3
            continue
        tag = _TAG.match(html, start)
        if tag is None:
            if html.startswith(("<!", "<?"), start):
                end = html.find(">", start)
                position = size if end < 0 else end + 1
            else:
                if not hidden:
                    parts.append("<")
                position = start + 1
            continue
        end = html.find(">", tag.end())
        if end < 0:
            break
        name = tag.group(2).lower()
        if name in _HIDDEN_TAGS:
            hidden = max(0, hidden - 1) if tag.group(1) else hidden + 1
        if name in _BLOCK_TAGS:
            parts.append("\n")
        position = end + 1
    text = unescape("".join(parts)).replace("\xa0", " ")
    lines = (" ".join(line.split()) for line in text.splitlines())
    return "\n".join(line for line in lines if line)


def _decoded(part: Message) -> str:
    """A text part's content, decoded with its declared charset; 8-bit text
    declared (or defaulting to) US-ASCII is read as UTF-8 first; unknown or
    wrong charsets fall back to UTF-8, then Windows-1252 (a superset of
    ISO-8859-1).
    ``ValueError`` when its base64 encoding is broken: cut off, or with
    characters outside base64 that leave bytes that are no text."""
    payload = part.get_payload(decode=True)
    if not isinstance(payload, bytes):
        return str(part.get_payload())
    damaged = [d for d in part.defects if isinstance(d, (InvalidBase64CharactersDefect, InvalidBase64LengthDefect))]
    if any(isinstance(d, InvalidBase64LengthDefect) for d in damaged):
        raise ValueError("the base64 encoding of the text is cut off")
    declared = part.get_content_charset()
    charset = (declared or "us-ascii").lower()
    if charset in ("us-ascii", "ascii") and not payload.isascii():
        charset = "utf-8"  # 8-bit text without (or against) its declaration: most likely UTF-8
    elif charset in ("iso-8859-1", "latin-1", "latin1", "us-ascii", "ascii"):
        charset = "windows-1252"
    try:
        return payload.decode(charset)
    except (LookupError, UnicodeDecodeError):
        try:
            return payload.decode("utf-8")
        except UnicodeDecodeError:
            if damaged:
                raise ValueError("the base64 encoding of the text is invalid") from None
            return payload.decode("windows-1252", errors="replace")


def _parts(message: Message, limit: int = MAX_PARTS) -> Iterator[Message]:
    """The leaf parts of a message in order, leaving out attachments and
    attached mails (message/rfc822: someone else's text, not the player's);
    at most ``limit`` parts are looked at."""
    stack = [message]
    seen = 0
    while stack and seen < limit:  # no recursion: a hostile mail may nest parts very deeply
        part = stack.pop()
        seen += 1
        if part.get_content_disposition() == "attachment":
            continue
        if part is not message and part.get_content_maintype() == "message":
            continue
        payload = part.get_payload()
        if isinstance(payload, list):  # a multipart's (or attached mail's) parts
            stack.extend(reversed([p for p in payload if isinstance(p, Message)]))
        else:
            yield part


def _broken(part: Message) -> str | None:
    """What is wrong with a multipart part whose parts could not be found."""
    if part.get_content_maintype() != "multipart" or part.is_multipart():
        return None
    boundary = part.get_boundary()
    if boundary is None:
        return f"the {part.get_content_type()} part names no boundary"
    return f"the boundary {boundary!r} of the {part.get_content_type()} part never occurs"


def _text_part(message: Message, limit: int = MAX_PARTS) -> tuple[str, str] | None:
    """(subtype, decoded text) of the best text part: plain before HTML,
    attachments never.  ``ValueError`` when there is none because the MIME
    structure is broken."""
    plain = html = None
    broken = None
    for part in _parts(message, limit):
        broken = broken or _broken(part)
        if part.get_content_maintype() != "text":
            continue
        subtype = part.get_content_subtype()
        if subtype == "plain" and plain is None:
            plain = part
        elif subtype == "html" and html is None:
            html = part
    if plain is not None:
        return "plain", _decoded(plain)
    if html is not None:
        return "html", _decoded(html)
    if broken is not None:
        raise ValueError(f"the mail's MIME structure is broken: {broken}")
    return None


def strip_reply_noise(text: str) -> str:
    """Remove the signature (from a ``-- `` line on), quoted lines (``>``)
    and quoted history under a reply header; keep everything else.  Linear
    in the length of ``text``."""
    kept: list[str] = []
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    for index, line in enumerate(lines):
        if _SIGNATURE.match(line):
            break
        kind = _history_kind(line)
        if kind == "outlook":
            following = lines[index + 1 : index + 3]
            if not any(_OUTLOOK_NEXT.match(n[:_HEADER_LINE]) for n in following):
                kept.append(line)
                continue
        if kind is not None:
            break
        if line.lstrip().startswith(">"):
            continue
        kept.append(line)
    return "\n".join(kept).strip("\n")


@dataclass(frozen=True)
class ReadText:
    """What ``read_text`` found: the player's text, and whether it was cut
    to the limit (``total`` characters before the cut)."""

    text: str
    cut: bool = False
    total: int = 0


def read_text(message: Message | EmailMessage, max_chars: int = MAX_TEXT, max_parts: int = MAX_PARTS) -> ReadText:
    """What the player wrote (see ``player_text``), reading at most
    ``max_chars`` characters of the text part (cut before HTML is turned
    into text) and ``max_parts`` MIME parts."""
    found = _text_part(message, max_parts)
    if found is None:
        return ReadText("")
    subtype, text = found
    total = len(text)
    if total > max_chars:
        text = text[:max_chars]
    if subtype == "html":
        text = html_to_text(text)
    return ReadText(strip_reply_noise(text), total > max_chars, total)


def player_text(message: Message | EmailMessage) -> str:
    """What the player wrote: the best text part, decoded, HTML turned into
    text, without signature, quotes and quoted history ("" when the mail
    has no text part), at most ``MAX_TEXT`` characters of it read.
    ``ValueError`` (saying why) when the text cannot be read: a broken MIME
    structure or base64 encoding."""
    return read_text(message).text
