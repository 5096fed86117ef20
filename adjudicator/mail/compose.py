"""Writing the judge's outgoing mail as bytes ready for the outbox.

``compose`` builds one complete MIME message (``email.policy.SMTP``: CRLF
line ends, headers RFC 2047 encoded, bodies in UTF-8 made 7-bit clean with
quoted-printable, so no SMTP extension is needed to send it).  Every mail
carries the headers that keep the judge out of mail loops
(``Auto-Submitted: auto-replied`` and the judge's ``X-Loop``) and the
threading headers of the mail it answers.

Text that may come from players (subjects, names, the message ids of the
mails being answered) cannot inject headers: control characters and line
breaks become spaces before anything is written, and addresses that could
smuggle in other recipients are refused with ``ValueError``.
"""

from __future__ import annotations

import binascii
import functools
import random
import re
import sys
import secrets
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from email import policy as email_policy
from email import quoprimime
from email.headerregistry import Address, BaseHeader, HeaderRegistry, UnstructuredHeader
from email.message import EmailMessage
from email.policy import Policy
from email.utils import format_datetime
from typing import Any, cast

from adjudicator.mail.loops import AUTO_SUBMITTED_REPLY

SUBJECT_LIMIT = 200
"""Subjects are cut to this many characters."""

# Message ids longer than this cannot be written on one header line
# (998 octets at most); such ids from other mails are left out.
_ID_LIMIT = 900
# A long References chain keeps its first id and the most recent ones.
_REFERENCES_LIMIT = 20

_MIME_TYPE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*$")
_ADDRESS_FORBIDDEN = set('<>,;:()[]"\\')


@dataclass(frozen=True)
class Attachment:
    """A file sent with a mail.

    With ``content_id`` set the file is also shown inline: the HTML body
    refers to it as ``cid:<content_id>`` (for example a PNG map), and it is
    attached as an ordinary file as well, for readers of the plain text.
    """

    filename: str
    mime_type: str
    data: bytes
    content_id: str | None = None


class _VerbatimHeader(UnstructuredHeader):
    """A header written as it is (ASCII), folded only at its spaces: message
    ids must never be RFC 2047 encoded, or threading breaks."""

    def fold(self, *, policy: Policy) -> str:
        return _fold_words(getattr(self, "name"), str(self), policy)


def _fold_words(name: str, value: str, policy: Policy) -> str:
    """The header ``name: value`` folded only at the spaces of ``value``."""
    limit = policy.max_line_length or 998
    lines: list[str] = []
    current = f"{name}:"
    for word in value.split():
        if len(current) + 1 + len(word) > limit and current.strip() != f"{name}:":
            lines.append(current)
            current = ""
        current += " " + word
    lines.append(current)
    return policy.linesep.join(lines) + policy.linesep


def _policy() -> Policy:
    registry = HeaderRegistry()
    for name in ("message-id", "in-reply-to", "references"):
        # typeshed does not know that the registry mixes BaseHeader in
        registry.map_to_type(name, cast("type[BaseHeader]", _VerbatimHeader))
    policy: Policy = email_policy.SMTP.clone(header_factory=registry)
    return policy


_POLICY = _policy()


def clean_text(value: str) -> str:
    """``value`` on one line: every control character and line or paragraph
    separator (CR, LF, TAB, NUL, U+2028, ...) replaced by a space, and the
    ends stripped.  What comes out cannot start another header."""
    return "".join(" " if unicodedata.category(c) in ("Cc", "Zl", "Zp") else c for c in value).strip()


def _header_text(value: str) -> str:
    """``clean_text`` made safe for a header: the email package decodes
    RFC 2047 encoded words (``=?charset?q?...?=``) in header values it is
    given, and a decoded word may hold a line break; so ``=?`` is written
    as ``= ?`` and no encoded word is left to decode."""
    text = clean_text(value)
    while "=?" in text:
        text = text.replace("=?", "= ?")
    return text


def _split_address(address: str) -> tuple[str, str]:
    """The local part and (ASCII, IDNA-encoded) domain of a plain address;
    ``ValueError`` for anything that is not one."""
    if not isinstance(address, str) or not address:
        raise ValueError(f"not a mail address: {address!r}")
    if any(c.isspace() or unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") for c in address):
        raise ValueError(f"a mail address must not contain spaces or line breaks: {address!r}")
    if "@" not in address:
        raise ValueError(f"a mail address needs an '@': {address!r}")
    if any(c in _ADDRESS_FORBIDDEN for c in address):
        raise ValueError(f"a mail address must not contain any of <>,;:()[]\"\\: {address!r}")
    local, domain = address.rsplit("@", 1)
    if not local or not domain or "@" in local:
        raise ValueError(f"not a mail address: {address!r}")
    if not local.isascii():
        raise ValueError(f"a mail address with a non-ASCII local part cannot be sent: {address!r}")
    if not domain.isascii():
        try:
            domain = domain.encode("idna").decode("ascii")
        except UnicodeError as error:
            raise ValueError(f"not a mail domain: {address!r} ({error})") from None
    if domain.startswith(".") or domain.endswith(".") or ".." in domain:
        raise ValueError(f"not a mail domain: {address!r}")
    return local, domain


def check_address(address: str) -> str:
    """``address`` as it will be written (an internationalised domain in
    its ASCII form); ``ValueError`` when it holds spaces, line breaks,
    control characters, list punctuation or no ``@``."""
    local, domain = _split_address(address)
    return f"{local}@{domain}"


@functools.lru_cache(maxsize=64)
def _checked_domain(domain: str) -> str:
    """``domain`` when ``x@domain`` is an address (``check_address``), else ``ValueError`` (raised again each time)."""
    check_address(f"x@{domain}")
    return domain


def make_message_id(domain: str) -> str:
    """A new, unique Message-ID on ``domain``: ``<128 random bits@domain>``."""
    _checked_domain(domain)
    return f"<{secrets.token_hex(16)}@{domain}>"


def _message_id(value: str) -> str | None:
    """A message id cleaned for a header, in angle brackets; ``None`` when
    nothing usable is left (empty, non-ASCII or too long)."""
    text = clean_text(value)
    if not text or not text.isascii() or "=?" in text:
        return None
    if not text.startswith("<"):
        text = "<" + text
    if not text.endswith(">"):
        text += ">"
    return text if len(text) <= _ID_LIMIT else None


def _references(references: Sequence[str], in_reply_to: str | None) -> list[str]:
    ids: list[str] = []
    for value in [*references, *([in_reply_to] if in_reply_to is not None else [])]:
        cleaned = _message_id(value)
        # A cleaned id may hold spaces where control characters were; each
        # piece is a reference of its own then.
        for piece in (cleaned.split() if cleaned is not None else []):
            if piece not in ids:
                ids.append(piece)
    if len(ids) > _REFERENCES_LIMIT:
        ids = [ids[0], *ids[-(_REFERENCES_LIMIT - 1):]]
    return ids


def _mailbox(name: str, address: str) -> Address:
    local, domain = _split_address(address)
    return Address(display_name=_header_text(name), username=local, domain=domain)


def _text_cte(text: str) -> str | None:
    """None lets the email package pick 7bit for short ASCII lines (or an
    encoding for long ones); anything non-ASCII goes quoted-printable."""
    return None if text.isascii() else "quoted-printable"


def _normalise_lines(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _attachment_kwargs(attachment: Attachment) -> dict[str, Any]:
    if not _MIME_TYPE.match(attachment.mime_type):
        raise ValueError(f"not a MIME type: {attachment.mime_type!r}")
    maintype, subtype = attachment.mime_type.lower().split("/", 1)
    if maintype == "multipart":
        raise ValueError(f"an attachment cannot be {attachment.mime_type!r}")
    return {
        "maintype": maintype,
        "subtype": subtype,
        "filename": _header_text(attachment.filename) or "attachment",
    }


def _content_id(attachment: Attachment) -> str:
    assert attachment.content_id is not None
    cid = attachment.content_id.strip()
    if cid.startswith("<") and cid.endswith(">"):
        cid = cid[1:-1]
    if not cid or not cid.isascii() or any(not c.isprintable() or c.isspace() or c in "<>" for c in cid):
        raise ValueError(f"not a content id: {attachment.content_id!r}")
    return f"<{cid}>"


def compose(
    *,
    sender: str,
    sender_name: str,
    to: Sequence[str],
    subject: str,
    text: str,
    html: str | None = None,
    in_reply_to: str | None = None,
    references: Sequence[str] = (),
    loop_id: str,
    date: datetime,
    message_id: str | None = None,
    attachments: Sequence[Attachment] = (),
) -> bytes:
    """One complete mail from the judge, as bytes with CRLF line ends.

    Guarantees:

    - headers ``From`` (``sender_name`` RFC 2047 encoded when not ASCII,
      and ``sender``), ``To``, ``Subject`` (at most 200 characters),
      ``Date`` (RFC 2822, from ``date``, which must be timezone-aware),
      ``Message-ID`` (``message_id``, else a new unique one on the sender's
      domain), ``Auto-Submitted: auto-replied``, ``X-Loop: <loop_id>``,
      ``MIME-Version``, and when answering ``In-Reply-To`` and
      ``References`` (``references`` then ``in_reply_to``, each once, in
      that order);
    - the body is text/plain in UTF-8; with ``html`` it is
      multipart/alternative, plain text first and HTML last; attachments
      with a ``content_id`` sit in a multipart/related next to the HTML,
      with their file name, and are carried only there (once per mail;
      without HTML they are ordinary attachments); the whole is
      multipart/mixed when there are other attachments;
    - no header can be injected: control characters and line breaks in
      subject, names, file names and message ids become spaces, ``=?`` in
      them is written ``= ?`` (no RFC 2047 word that could decode to a
      line break), and ids of other mails that are not ASCII are left
      out; an address with spaces, line breaks, list punctuation
      (``<>,;:`` ...) or no ``@`` raises ``ValueError`` (pass the bare
      ``local@domain``, not ``Name <local@domain>``), as do an empty
      ``to``, an empty ``loop_id``, an unusable ``message_id``, an invalid
      attachment MIME type or content id, and a naive ``date``.
    """
    if isinstance(to, str):
        raise ValueError("to must be a sequence of addresses, not one string")
    if not to:
        raise ValueError("a mail needs at least one recipient")
    if date.tzinfo is None or date.utcoffset() is None:
        raise ValueError("the date of a mail must be timezone-aware")
    loop = _header_text(loop_id)
    if not loop:
        raise ValueError("loop_id must not be empty")

    from_address = _mailbox(sender_name, sender)
    recipients = [_mailbox("", address) for address in to]
    if message_id is None:
        own_id = make_message_id(from_address.domain)
    else:
        cleaned = clean_text(message_id)
        if not cleaned or not cleaned.isascii() or "=?" in cleaned or len(cleaned) > _ID_LIMIT:
            raise ValueError(f"not a usable Message-ID: {message_id!r}")
        own_id = cleaned if cleaned.startswith("<") else f"<{cleaned}>"
    parent = _message_id(in_reply_to) if in_reply_to is not None else None
    chain = _references(references, in_reply_to)

    # written directly (the same bytes); the email package where a header needs its quoting
    fast = _plain_mail(from_address, recipients, subject, date, own_id, parent, chain, loop, text) \
        if html is None and not attachments else \
        _multipart_mail(from_address, recipients, subject, date, own_id, parent, chain, loop, text, html, attachments)
    if fast is not None:
        return fast
    message = EmailMessage(policy=_POLICY)
    message["From"] = from_address
    message["To"] = recipients
    message["Subject"] = _header_text(subject)[:SUBJECT_LIMIT].strip()
    message["Date"] = format_datetime(date)
    message["Message-ID"] = own_id
    if parent is not None:
        message["In-Reply-To"] = parent
    if chain:
        message["References"] = " ".join(chain)
    message["Auto-Submitted"] = AUTO_SUBMITTED_REPLY
    message["X-Loop"] = loop

    plain = _normalise_lines(text)
    message.set_content(plain, subtype="plain", charset="utf-8", cte=_text_cte(plain))
    if html is not None:
        markup = _normalise_lines(html)
        message.add_alternative(markup, subtype="html", charset="utf-8", cte=_text_cte(markup))
        html_part = list(message.iter_parts())[-1]
        for attachment in attachments:
            if attachment.content_id is not None:
                html_part.add_related(
                    attachment.data, cid=_content_id(attachment), disposition="inline",
                    **_attachment_kwargs(attachment),
                )
    for attachment in attachments:
        if attachment.content_id is not None and html is None:
            _content_id(attachment)  # the same checks with or without HTML
        if attachment.content_id is not None and html is not None:
            continue  # carried once: inline beside the HTML, with its file name
        message.add_attachment(attachment.data, disposition="attachment", **_attachment_kwargs(attachment))
    if "MIME-Version" not in message:
        message["MIME-Version"] = "1.0"
    return message.as_bytes()


_SIMPLE_VALUE = re.compile(r"[!-~]+(?: [!-~]+)*")
_LINE_LIMIT = _POLICY.max_line_length or 78


def _header_line(name: str, value: str | list[Address]) -> bytes:
    """One header as the email package writes it under ``_POLICY``."""
    message = EmailMessage(policy=_POLICY)
    message[name] = value
    return message.as_bytes().partition(b"\r\n\r\n")[0] + b"\r\n"


@functools.lru_cache(maxsize=4096)
def _address_line(name: str, mailboxes: tuple[tuple[str, str, str], ...]) -> bytes:
    """An address header (``(display name, local part, domain)`` each) as
    the email package writes it, remembered: the judge's own From and its
    players' addresses recur."""
    return _header_line(name, [Address(display_name=n, username=u, domain=d) for n, u, d in mailboxes])


def _addresses_key(addresses: list[Address]) -> tuple[tuple[str, str, str], ...]:
    return tuple((a.display_name, a.username, a.domain) for a in addresses)


def _text_line(name: str, value: str) -> bytes:
    """An unstructured header: written directly when it is printable ASCII
    with single spaces on one line (as the email package writes it then),
    else by the email package (encoded words, folding)."""
    if len(name) + 2 + len(value) <= _LINE_LIMIT and _SIMPLE_VALUE.fullmatch(value):
        return f"{name}: {value}\r\n".encode("ascii")
    return _header_line(name, value)


def _head(from_address: Address, recipients: list[Address], subject: str, date: datetime, own_id: str,
          parent: str | None, chain: list[str], loop: str) -> bytes:
    """The headers ``compose`` writes before the MIME headers, From to
    X-Loop, as the email package writes them."""
    verbatim = [("Message-ID", own_id)] + ([("In-Reply-To", parent)] if parent is not None else [])
    if chain:
        verbatim.append(("References", " ".join(chain)))
    return b"".join([
        _address_line("From", _addresses_key([from_address])), _address_line("To", _addresses_key(recipients)),
        _text_line("Subject", _header_text(subject)[:SUBJECT_LIMIT].strip()),
        f"Date: {format_datetime(date)}\r\n".encode("ascii"),
        *(_fold_words(name, value, _POLICY).encode("ascii") for name, value in verbatim),
        f"Auto-Submitted: {AUTO_SUBMITTED_REPLY}\r\n".encode("ascii"), _text_line("X-Loop", loop)])


def _encoded_text(text: str) -> tuple[str, bytes]:
    """The Content-Transfer-Encoding and the encoded body (CRLF line ends)
    the email package's ``set_content`` gives ``text`` as ``compose``
    passes it: quoted-printable when not ASCII, else the package's own
    choice (7bit for lines within the limit, else whichever of
    quoted-printable and base64 its sniff of the first ten lines finds
    shorter)."""
    plain = _normalise_lines(text)
    lines = plain.encode("utf-8").splitlines()
    normal = b"\n".join(lines) + b"\n"
    if not plain.isascii():
        encoding, payload = "quoted-printable", quoprimime.body_encode(normal.decode("latin-1"), _LINE_LIMIT)
    elif max((len(line) for line in lines), default=0) <= _LINE_LIMIT:
        encoding, payload = "7bit", normal.decode("ascii")
    else:
        sniff = b"\r\n".join(lines[:10]) + b"\r\n"
        sniff_qp = quoprimime.body_encode(sniff.decode("latin-1"), _LINE_LIMIT)
        if len(sniff_qp) > len(binascii.b2a_base64(sniff)):
            encoding, payload = "base64", _base64_lines(b"\r\n".join(lines) + b"\r\n").decode("ascii")
        elif len(lines) <= 10:
            encoding, payload = "quoted-printable", sniff_qp
        else:
            encoding, payload = "quoted-printable", quoprimime.body_encode(normal.decode("latin-1"), _LINE_LIMIT)
    return encoding, "\r\n".join(payload.split("\n")).encode("ascii")


def _base64_lines(data: bytes, end: bytes = b"\n") -> bytes:
    """``data`` in base64 as the email package writes it: 76 characters
    (57 bytes) a line, each line ended by ``end``."""
    encoded = binascii.b2a_base64(data, newline=False)
    return b"".join(encoded[i:i + 76] + end for i in range(0, len(encoded), 76))


def _plain_mail(from_address: Address, recipients: list[Address], subject: str, date: datetime, own_id: str,
                parent: str | None, chain: list[str], loop: str, text: str) -> bytes | None:
    """The bytes ``compose`` makes of a text-only mail, written directly
    (the email package takes about a millisecond per mail to make the
    same bytes; issue 20); never None here (None, from a stand-in in the
    tests, makes ``compose`` use the email package).
    ``tests/test_compose_fast.py`` compares both byte for byte."""
    encoding, body = _encoded_text(text)
    return b"".join([_head(from_address, recipients, subject, date, own_id, parent, chain, loop),
                     f'Content-Type: text/plain; charset="utf-8"\r\nContent-Transfer-Encoding: {encoding}\r\n'
                     f"MIME-Version: 1.0\r\n\r\n".encode("ascii"), body])


_SIMPLE_TYPE = re.compile(r"[a-z0-9][a-z0-9.+-]*/[a-z0-9][a-z0-9.+-]*")
_SIMPLE_NAME = re.compile(r"[A-Za-z0-9._-]+")
_SIMPLE_CID = re.compile(r"<[A-Za-z0-9._-]+@[A-Za-z0-9._-]+>")
_MIME_VERSION = b"MIME-Version: 1.0\r\n"


def _text_part(subtype: str, text: str, mime_version: bool = False) -> bytes:
    """A text part (headers, blank line, body) as the email package writes it."""
    encoding, body = _encoded_text(text)
    head = f'Content-Type: text/{subtype}; charset="utf-8"\r\nContent-Transfer-Encoding: {encoding}\r\n'
    return head.encode("ascii") + (_MIME_VERSION if mime_version else b"") + b"\r\n" + body


def _file_part(attachment: Attachment, disposition: str, cid: str | None) -> bytes | None:
    """An attachment's part as the email package writes it (base64), or
    None when a header of it is not plain enough to be written directly
    (the email package quotes, encodes or folds it then)."""
    kwargs = _attachment_kwargs(attachment)
    mime_type, filename = f"{kwargs['maintype']}/{kwargs['subtype']}", kwargs["filename"]
    head = [f"Content-Type: {mime_type}", "Content-Transfer-Encoding: base64",
            f'Content-Disposition: {disposition}; filename="{filename}"']
    if cid is not None:
        head.append(f"Content-ID: {cid}")
    if (not _SIMPLE_TYPE.fullmatch(mime_type) or not _SIMPLE_NAME.fullmatch(filename)
            or (cid is not None and not _SIMPLE_CID.fullmatch(cid)) or max(map(len, head)) > _LINE_LIMIT):
        return None
    return ("\r\n".join(head) + "\r\nMIME-Version: 1.0\r\n\r\n").encode("ascii") + \
        _base64_lines(attachment.data, b"\r\n")


@functools.lru_cache(maxsize=64)
def _boundary_header(subtype: str, shape: str) -> bytes:
    """The Content-Type header of a multipart/``subtype`` as the email
    package folds it, for a boundary of ``shape`` (its digits written 0)."""
    return _header_line("Content-Type", f'multipart/{subtype}; boundary="{shape}"')


_ZEROS = str.maketrans("123456789", "000000000")
_TOKEN_WIDTH = len(repr(sys.maxsize - 1))
"""Digits of a boundary's random token (as ``email.generator`` writes them)."""


def _multipart(subtype: str, parts: list[bytes], head: bytes = b"") -> bytes:
    """A multipart/``subtype`` part of ``parts`` (each written whole):
    ``head``, its Content-Type, a blank line and the parts between
    boundaries; the boundary made as the email package makes it (the same
    draw of ``random``, checked against the parts' text in the same way)."""
    boundary = "=" * 15 + f"{random.randrange(sys.maxsize):0{_TOKEN_WIDTH}d}" + "=="
    text = b"\r\n".join(parts)
    unique, counter = boundary, 0
    while b"--" + unique.encode("ascii") in text and \
            re.search(b"^--" + re.escape(unique.encode("ascii")) + b"(--)?$", text, re.MULTILINE):
        unique, counter = f"{boundary}.{counter}", counter + 1  # (the regular expression only where it can match)
    shape = unique.translate(_ZEROS)
    line = _boundary_header(subtype, shape).replace(shape.encode("ascii"), unique.encode("ascii"), 1)
    marker = unique.encode("ascii")
    return b"".join([head, line, b"\r\n--", marker, b"\r\n", (b"\r\n--" + marker + b"\r\n").join(parts),
                     b"\r\n--", marker, b"--\r\n"])


def _multipart_mail(from_address: Address, recipients: list[Address], subject: str, date: datetime, own_id: str,
                    parent: str | None, chain: list[str], loop: str, text: str, html: str | None,
                    attachments: Sequence[Attachment]) -> bytes | None:
    """The bytes ``compose`` makes of a mail with HTML or attachments,
    written directly in the structure the email package gives it
    (multipart/alternative of the text and the HTML, the inline files in a
    multipart/related beside the HTML, multipart/mixed around it all when
    other files come along; the same headers in the same order, the
    boundaries drawn from ``random`` in the same order, innermost first):
    the email package takes about ten milliseconds for a report with its
    map (issue 20).  None when a file's headers need the email package's
    quoting or folding.  ``tests/test_compose_fast.py`` compares both
    byte for byte."""
    files: list[bytes] = []
    related: list[bytes] = []
    for attachment in attachments:
        cid = _content_id(attachment) if attachment.content_id is not None else None
        inline = cid is not None and html is not None
        part = _file_part(attachment, "inline" if inline else "attachment", cid if inline else None)
        if part is None:
            return None
        (related if inline else files).append(part)
    head = _head(from_address, recipients, subject, date, own_id, parent, chain, loop) + _MIME_VERSION
    plain = _text_part("plain", text)
    if html is None:
        return _multipart("mixed", [plain, *files], head)
    markup = _text_part("html", html, mime_version=not related)
    if related:
        markup = _multipart("related", [markup, *related], _MIME_VERSION)
    if not files:
        return _multipart("alternative", [plain, markup], head)
    return _multipart("mixed", [_multipart("alternative", [plain, markup]), *files], head)


@functools.lru_cache(maxsize=1024)
def _addr_spec(to: str) -> str:
    """The address ``to`` as a To field of ``readdressed`` writes it (the
    last answers remembered: a report goes to the same seats each phase;
    ``ValueError`` raised again each time)."""
    return str(_mailbox("", to).addr_spec)


def readdressed(message: bytes, to: str) -> bytes:
    """A mail ``compose`` made, sent to ``to`` instead (a bare address,
    checked as ``compose`` checks it) with a new Message-ID on the
    sender's domain; every other byte stays, so a report composed once
    goes to each player without being composed again."""
    spec = _addr_spec(to)
    head, separator, body = message.partition(b"\r\n\r\n")
    lines: list[bytes] = []
    skipping = False
    domain = ""
    for line in head.split(b"\r\n"):
        if skipping and line[:1] in (b" ", b"\t"):
            continue  # a folded continuation of a header being replaced
        skipping = False
        name = line.split(b":", 1)[0].lower()
        if name == b"from":
            domain = line.rsplit(b"@", 1)[-1].strip(b"> \t").decode("ascii", "replace")
        if name in (b"to", b"message-id"):
            skipping = True
            continue
        lines.append(line)
    if not separator or not domain:
        raise ValueError("not a mail composed by compose()")
    lines.insert(1, f"To: {spec}".encode("ascii"))
    lines.insert(2, f"Message-ID: {make_message_id(domain)}".encode("ascii"))
    return b"\r\n".join(lines) + separator + body
