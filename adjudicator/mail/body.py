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
from email.errors import InvalidBase64CharactersDefect, InvalidBase64LengthDefect
from email.message import EmailMessage, Message
from html import unescape
from html.parser import HTMLParser

# A line that starts the quoted history of a reply; it and all after it go.
_HISTORY = re.compile(
    r"""^\s*(?:
        Am\s.+\sschrieb\s.+:                       # Thunderbird, Apple Mail (German)
      | On\s.+\swrote:                             # the same in English
      | -{2,}\s*(?:Ursprüngliche\sNachricht|Original\sMessage|Weitergeleitete\sNachricht|Forwarded\smessage)\s*-{2,}
      | (?:Von|From):\s.+                          # Outlook's header block, when followed by Gesendet/Sent
    )\s*$""",
    re.IGNORECASE | re.VERBOSE,
)
_OUTLOOK_NEXT = re.compile(r"^\s*(?:Gesendet|Sent|Datum|Date|An|To|Betreff|Subject):", re.IGNORECASE)
_SIGNATURE = re.compile(r"^-- ?$")

_BLOCK_TAGS = {"br", "p", "div", "tr", "li", "h1", "h2", "h3", "h4", "h5", "h6", "table", "pre", "blockquote"}


class _HtmlText(HTMLParser):
    """Collects the visible text of an HTML body, one line per block,
    leaving out styles, scripts and quoted replies (``blockquote``)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("style", "script", "head", "blockquote"):
            self._hidden += 1
        if tag in _BLOCK_TAGS:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("style", "script", "head", "blockquote"):
            self._hidden = max(0, self._hidden - 1)
        if tag in _BLOCK_TAGS:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not self._hidden:
            self.parts.append(data)


def html_to_text(html: str) -> str:
    """Visible text of an HTML body, one line per block element, blank
    lines and runs of spaces dropped."""
    parser = _HtmlText()
    parser.feed(html)
    parser.close()
    text = unescape("".join(parser.parts)).replace("\xa0", " ")
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


def _parts(message: Message) -> Iterator[Message]:
    """The leaf parts of a message in order, leaving out attachments and
    attached mails (message/rfc822: someone else's text, not the player's)."""
    stack = [message]
    while stack:  # no recursion: a hostile mail may nest parts very deeply
        part = stack.pop()
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


def _text_part(message: Message) -> tuple[str, str] | None:
    """(subtype, decoded text) of the best text part: plain before HTML,
    attachments never.  ``ValueError`` when there is none because the MIME
    structure is broken."""
    plain = html = None
    broken = None
    for part in _parts(message):
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
    and quoted history under a reply header; keep everything else."""
    kept: list[str] = []
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    for index, line in enumerate(lines):
        if _SIGNATURE.match(line):
            break
        if _HISTORY.match(line):
            if re.match(r"^\s*(?:Von|From):", line, re.IGNORECASE):
                following = lines[index + 1 : index + 3]
                if not any(_OUTLOOK_NEXT.match(n) for n in following):
                    kept.append(line)
                    continue
            break
        if line.lstrip().startswith(">"):
            continue
        kept.append(line)
    return "\n".join(kept).strip("\n")


def player_text(message: Message | EmailMessage) -> str:
    """What the player wrote: the best text part, decoded, HTML turned into
    text, without signature, quotes and quoted history ("" when the mail
    has no text part).  ``ValueError`` (saying why) when the text cannot
    be read: a broken MIME structure or base64 encoding."""
    found = _text_part(message)
    if found is None:
        return ""
    subtype, text = found
    if subtype == "html":
        text = html_to_text(text)
    return strip_reply_noise(text)
