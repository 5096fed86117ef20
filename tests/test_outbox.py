"""Composing the judge's mail and sending the durable outbox, against the
real loopback mail servers (tests/mailserver.py): no mocks."""

from __future__ import annotations

import asyncio
import email
import email.policy
import socket
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta, timezone
from email.message import EmailMessage
from email.utils import parsedate_to_datetime
from pathlib import Path

import pytest

from adjudicator.mail.compose import SUBJECT_LIMIT, Attachment, compose, make_message_id
from adjudicator.mail.loops import why_not_answered
from adjudicator.service.outbox import SendSummary, SmtpSettings, retry_delay, send_due
from adjudicator.service.store import Store
from tests.mailserver import MailServer, MailUser

MakeUser = Callable[..., MailUser]
JUDGE = "judge@pbem.test"
LOOP = "judge@pbem.test"
NOW = datetime(2026, 11, 30, 10, 0, tzinfo=timezone.utc)
PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256))


def parse(raw: bytes) -> EmailMessage:
    message = email.message_from_bytes(raw.replace(b"\r\n", b"\n"), policy=email.policy.default)
    assert isinstance(message, EmailMessage)
    return message


def mail(**overrides: object) -> bytes:
    arguments: dict[str, object] = {
        "sender": JUDGE, "sender_name": "Der Spielleiter", "to": ["spieler@example.org"],
        "subject": "Frühjahr 1618: Ergebnisse", "text": "Grüße aus Köln!\nA Wien - Böhmen\n",
        "loop_id": LOOP, "date": NOW,
    }
    arguments.update(overrides)
    return compose(**arguments)  # type: ignore[arg-type]


def header_names(raw: bytes) -> list[str]:
    """The names of the top-level header lines, as a mail server sees them."""
    head = raw.split(b"\r\n\r\n", 1)[0].decode("ascii")
    return [line.split(":", 1)[0] for line in head.split("\r\n") if line and line[0] not in " \t"]


# ------------------------------------------------------------------ compose

def test_compose_writes_every_required_header() -> None:
    raw = mail(to=["spieler@example.org", "zweite@example.org"], message_id="<r1618@pbem.test>")
    assert raw.isascii() and b"\r\n" in raw and b"\n" not in raw.replace(b"\r\n", b"")
    message = parse(raw)
    sender = message["From"].addresses[0]
    assert (sender.display_name, sender.addr_spec) == ("Der Spielleiter", JUDGE)
    assert [a.addr_spec for a in message["To"].addresses] == ["spieler@example.org", "zweite@example.org"]
    assert message["Subject"] == "Frühjahr 1618: Ergebnisse"
    assert parsedate_to_datetime(message["Date"]) == NOW
    assert message["Message-ID"] == "<r1618@pbem.test>"
    assert message["Auto-Submitted"] == "auto-replied"
    assert message["X-Loop"] == LOOP
    assert message["MIME-Version"] == "1.0"
    assert "In-Reply-To" not in message and "References" not in message
    assert message.get_content_type() == "text/plain"
    assert message.get_content_charset() == "utf-8"
    assert message.get_content() == "Grüße aus Köln!\nA Wien - Böhmen\n"
    # The judge's loop guard recognises its own mail.
    assert why_not_answered(message, LOOP) is not None


def test_the_date_keeps_its_zone_and_must_have_one() -> None:
    berlin = datetime(2026, 7, 1, 18, 30, tzinfo=timezone(timedelta(hours=2)))
    assert parse(mail(date=berlin))["Date"] == "Wed, 01 Jul 2026 18:30:00 +0200"
    with pytest.raises(ValueError, match="timezone"):
        mail(date=datetime(2026, 7, 1, 18, 30))


def test_a_new_message_id_is_unique_and_on_the_senders_domain() -> None:
    first, second = parse(mail())["Message-ID"], parse(mail())["Message-ID"]
    assert first != second
    for value in (first, second, make_message_id("pbem.test")):
        assert value.startswith("<") and value.endswith("@pbem.test>") and " " not in value
    assert make_message_id("pbem.test") != make_message_id("pbem.test")


def test_threading_headers_list_the_references_then_the_parent_once() -> None:
    message = parse(mail(in_reply_to="<p3@example.org>",
                         references=["<p1@example.org>", "<p2@example.org>", "<p1@example.org>"]))
    assert message["In-Reply-To"] == "<p3@example.org>"
    assert message["References"].split() == ["<p1@example.org>", "<p2@example.org>", "<p3@example.org>"]
    # The parent already among the references keeps its place.
    again = parse(mail(in_reply_to="<p1@example.org>", references=["<p1@example.org>", "<p2@example.org>"]))
    assert again["References"].split() == ["<p1@example.org>", "<p2@example.org>"]
    # Without references the parent alone is the chain.
    alone = parse(mail(in_reply_to="<only@example.org>"))
    assert alone["References"] == "<only@example.org>"


def test_long_message_ids_stay_verbatim() -> None:
    long_id = "<" + "x" * 150 + "@mail.example.org>"
    raw = mail(in_reply_to=long_id, references=[f"<{n}.{'y' * 60}@example.org>" for n in range(6)])
    assert long_id.encode() in raw  # not RFC 2047 encoded, not broken up
    assert b"=?" not in raw.split(b"\r\n\r\n", 1)[0].split(b"References:", 1)[1].split(b"\r\nAuto")[0]
    message = parse(raw)
    assert message["In-Reply-To"] == long_id
    assert message["References"].split()[-1] == long_id
    assert len(message["References"].split()) == 7


def test_german_umlauts_round_trip_in_subject_body_and_names() -> None:
    subject = "Befehle für Frühjahr 1618 – Größe & Übermut"
    text = "Grüße, Jörg!\nß ä ö ü Ä Ö Ü €\n" + "Sehr lange Zeile mit Umlauten äöü " * 10 + "\n"
    raw = mail(sender_name="Jörg Müller (Spielleitung)", subject=subject, text=text,
               to=["spieler@example.org"])
    assert raw.isascii()  # 7-bit clean: RFC 2047 headers, quoted-printable body
    head = raw.split(b"\r\n\r\n", 1)[0]
    assert b"=?utf-8?" in head and "Müller".encode() not in head
    message = parse(raw)
    assert message["From"].addresses[0].display_name == "Jörg Müller (Spielleitung)"
    assert message["Subject"] == subject
    assert message.get_content() == text


def test_html_makes_multipart_alternative_with_plain_text_first() -> None:
    message = parse(mail(html="<p>Grüße aus <b>Köln</b></p>"))
    assert message.get_content_type() == "multipart/alternative"
    parts = list(message.iter_parts())
    assert [p.get_content_type() for p in parts] == ["text/plain", "text/html"]
    assert parts[0].get_content() == "Grüße aus Köln!\nA Wien - Böhmen\n"
    assert parts[1].get_content() == "<p>Grüße aus <b>Köln</b></p>\n"
    assert message["Auto-Submitted"] == "auto-replied" and message["X-Loop"] == LOOP


def test_an_inline_map_sits_with_the_html_once() -> None:
    csv = "Land,Zentren\nÖsterreich,5\n".encode()
    message = parse(mail(
        html='<p>Die Karte:</p><img src="cid:karte-1618@pbem.test">',
        attachments=[Attachment("karte.png", "image/png", PNG, content_id="karte-1618@pbem.test"),
                     Attachment("stände.csv", "text/csv", csv)],
    ))
    assert message.get_content_type() == "multipart/mixed"
    body, table = message.iter_parts()
    assert body.get_content_type() == "multipart/alternative"
    plain, related = body.iter_parts()
    assert plain.get_content_type() == "text/plain"
    assert related.get_content_type() == "multipart/related"
    html, inline = related.iter_parts()
    assert html.get_content_type() == "text/html" and "cid:karte-1618@pbem.test" in html.get_content()
    assert inline.get_content_type() == "image/png"
    assert inline["Content-ID"] == "<karte-1618@pbem.test>"
    assert inline.get_content_disposition() == "inline"
    assert inline.get_content() == PNG
    # The map once (issue 13 point 11), with its file name for mail readers; the table attached.
    assert inline.get_filename() == "karte.png"
    assert sum(1 for p in message.walk() if p.get_content_type() == "image/png") == 1
    assert table.get_filename() == "stände.csv" and table.get_content_type() == "text/csv"
    assert table.get_payload(decode=True) == csv
    assert [p.get_filename() for p in message.iter_attachments()] == ["stände.csv"]


def test_an_inline_image_without_html_is_an_ordinary_attachment() -> None:
    message = parse(mail(attachments=[Attachment("karte.png", "image/png", PNG, content_id="k@pbem.test")]))
    assert message.get_content_type() == "multipart/mixed"
    assert [p.get_content_type() for p in message.iter_parts()] == ["text/plain", "image/png"]
    (png,) = message.iter_attachments()
    assert png.get_content() == PNG and png.get_content_disposition() == "attachment"


@pytest.mark.parametrize("subject, name", [
    ("Ergebnisse\r\nBcc: opfer@example.org", "Spielleiter\r\nX-Evil: 1"),
    ("Ergebnisse\nBcc: opfer@example.org\n\nGefälschter Text", "Spielleiter\rX-Evil: 1"),
    ("Ergebnisse\u2028Bcc: opfer@example.org\x00\x1b", "Spielleiter\x85X-Evil: 1"),
    # encoded words that the email package would decode into a line break
    ("=?utf-8?q?=0D=0ABcc:_opfer@example.org?=", "=?utf-8?q?=0D=0AX-Evil:_1?="),
])
def test_header_injection_in_subject_and_name_adds_no_header(subject: str, name: str) -> None:
    raw = mail(subject=subject, sender_name=name, in_reply_to="<p@example.org>\r\nX-Evil: 2",
               references=["<a@example.org>\nBcc: opfer@example.org"])
    expected = ["From", "To", "Subject", "Date", "Message-ID", "In-Reply-To", "References",
                "Auto-Submitted", "X-Loop", "MIME-Version", "Content-Type", "Content-Transfer-Encoding"]
    assert sorted(header_names(raw)) == sorted(expected)
    message = parse(raw)
    assert sorted(message.keys()) == sorted(expected)
    assert "Bcc" not in message and "X-Evil" not in message
    assert [a.addr_spec for a in message["To"].addresses] == ["spieler@example.org"]
    assert "\n" not in message["Subject"] and "\r" not in message["Subject"]
    assert "Bcc" in message["Subject"]  # kept as text, on the subject's own line
    assert message.get_content() == "Grüße aus Köln!\nA Wien - Böhmen\n"


def test_over_long_subjects_are_cut() -> None:
    message = parse(mail(subject="Ä" * 500))
    assert message["Subject"] == "Ä" * SUBJECT_LIMIT
    assert all(len(line) <= 998 for line in mail(subject="x" * 5000).split(b"\r\n"))


@pytest.mark.parametrize("address", [
    "spieler @example.org", "spieler@example.org\r\nBcc: opfer@example.org", "spieler@example.org\n",
    "ohne-at-zeichen", "", "a@example.org, b@example.org", "<a@example.org>", "a@", "@example.org",
    "tab\t@example.org",
])
def test_a_bad_address_raises(address: str) -> None:
    with pytest.raises(ValueError):
        mail(to=[address])
    with pytest.raises(ValueError):
        mail(sender=address)


def test_no_recipient_raises() -> None:
    with pytest.raises(ValueError):
        mail(to=[])


# -------------------------------------------------------------- retry_delay

def test_retry_delay_grows_and_caps() -> None:
    delays = [retry_delay(n).total_seconds() for n in range(1, 10)]
    assert delays == [30, 60, 120, 240, 480, 960, 1920, 3600, 3600]
    assert retry_delay(0) == retry_delay(1) == timedelta(seconds=30)
    assert retry_delay(10_000) == timedelta(hours=1)
    assert retry_delay(3, base=5, cap=12) == timedelta(seconds=12)
    assert retry_delay(2, base=5, cap=12) == timedelta(seconds=10)


def test_smtp_settings_are_checked_and_hide_the_password() -> None:
    settings = SmtpSettings("smtp.example.org", 587, "starttls", JUDGE, user="judge", password="geheim-123")
    assert "geheim-123" not in repr(settings)
    with pytest.raises(ValueError):
        SmtpSettings("smtp.example.org", 587, "tls-please", JUDGE)
    with pytest.raises(ValueError):
        SmtpSettings("smtp.example.org", 587, "none", "no address")
    with pytest.raises(ValueError):
        SmtpSettings("smtp.example.org", 587, "none", JUDGE, user="judge")


# ------------------------------------------------------------------ sending

@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    opened = Store(tmp_path / "judge.sqlite3")
    yield opened
    opened.close()


def settings_for(server: MailServer, **overrides: object) -> SmtpSettings:
    values: dict[str, object] = {"host": server.smtp_host, "port": server.smtp_port, "tls": "none",
                                 "envelope_from": JUDGE, "timeout": 10.0}
    values.update(overrides)
    return SmtpSettings(**values)  # type: ignore[arg-type]


def queue(store: Store, recipients: list[str], raw: bytes, when: datetime = NOW) -> str:
    with store.transaction() as db:
        return store.queue_mail(db, tuple(recipients), raw, when.isoformat())


def send(store: Store, settings: SmtpSettings, now: datetime) -> SendSummary:
    return asyncio.run(send_due(store, settings, now))


def test_send_due_delivers_queued_mail_exactly_once(
    mail_server: MailServer, mail_users: MakeUser, store: Store
) -> None:
    alice, bob = mail_users("alice"), mail_users("bob")
    first = mail(to=[alice.address], message_id="<erste@pbem.test>")
    second = mail(to=[alice.address, bob.address], subject="Herbst 1618", message_id="<zweite@pbem.test>",
                  html="<p>Grüße</p>")
    ids = [queue(store, [alice.address], first), queue(store, [alice.address, bob.address], second)]
    settings = settings_for(mail_server)

    summary = send(store, settings, NOW)
    assert summary == SendSummary(sent=2, failed=0, errors=())
    for mail_id in ids:
        stored = store.outbound(mail_id)
        assert stored.sent_at == NOW.isoformat() and stored.attempts == 1 and stored.last_error == ""
    assert store.unsent_mail() == []

    inbox = mail_server.fetch_all(alice.address, alice.password)
    assert [m["Message-ID"] for m in inbox] == ["<erste@pbem.test>", "<zweite@pbem.test>"]
    assert inbox[0]["Subject"] == "Frühjahr 1618: Ergebnisse"
    assert inbox[0].get_content() == "Grüße aus Köln!\nA Wien - Böhmen\n"
    assert inbox[0]["Return-Path"] == f"<{JUDGE}>"
    assert [m["Message-ID"] for m in mail_server.fetch_all(bob.address, bob.password)] == ["<zweite@pbem.test>"]

    # Nothing is due any more: nothing is sent twice.
    assert send(store, settings, NOW + timedelta(days=1)) == SendSummary(sent=0, failed=0, errors=())
    assert len(mail_server.fetch_all(alice.address, alice.password)) == 2


def test_an_outage_keeps_the_mail_and_it_is_sent_once_after_it(
    mail_server: MailServer, mail_users: MakeUser, store: Store
) -> None:
    carla = mail_users("carla")
    mail_id = queue(store, [carla.address], mail(to=[carla.address], message_id="<ausfall@pbem.test>"))
    settings = settings_for(mail_server, timeout=5.0)
    server = f"{mail_server.smtp_host}:{mail_server.smtp_port}"

    mail_server.stop()
    try:
        summary = send(store, settings, NOW)
        assert (summary.sent, summary.failed) == (0, 1)
        assert len(summary.errors) == 1 and server in summary.errors[0]
        stored = store.outbound(mail_id)
        assert stored.sent_at is None and stored.attempts == 1
        assert stored.next_try == (NOW + timedelta(seconds=30)).isoformat()
        assert server in stored.last_error and "connect" in stored.last_error
        # Not due again before its next try ...
        assert send(store, settings, NOW + timedelta(seconds=10)) == SendSummary(0, 0, ())
        # ... and after it the back-off doubles while the server stays away.
        later = NOW + timedelta(seconds=31)
        assert send(store, settings, later).failed == 1
        stored = store.outbound(mail_id)
        assert stored.attempts == 2 and stored.next_try == (later + timedelta(seconds=60)).isoformat()
        assert [m.id for m in store.unsent_mail()] == [mail_id]
    finally:
        mail_server.start()

    assert mail_server.fetch_all(carla.address, carla.password) == []
    back = NOW + timedelta(minutes=5)
    assert send(store, settings, back) == SendSummary(sent=1, failed=0, errors=())
    assert store.outbound(mail_id).sent_at == back.isoformat()
    assert send(store, settings, back + timedelta(hours=2)) == SendSummary(0, 0, ())
    inbox = mail_server.fetch_all(carla.address, carla.password)
    assert [m["Message-ID"] for m in inbox] == ["<ausfall@pbem.test>"]


def test_a_recipient_refused_for_good_is_not_tried_again_and_listed(
    mail_server: MailServer, mail_users: MakeUser, store: Store
) -> None:
    """Issue 12 point 12: a permanent refusal (5xx) marks the mail failed
    for good; temporary ones keep their back-off."""
    dora = mail_users("dora")
    unknown = "niemand-hier@pbem.test"
    lost = queue(store, [unknown], mail(to=[unknown], message_id="<verloren@pbem.test>"))
    fine = queue(store, [dora.address], mail(to=[dora.address], message_id="<gut@pbem.test>"))
    summary = send(store, settings_for(mail_server), NOW)
    assert (summary.sent, summary.failed, summary.refused) == (1, 0, (lost,))
    refused = store.outbound(lost)
    assert refused.sent_at is None and refused.gave_up_at == NOW.isoformat()
    assert "550" in refused.last_error and unknown in refused.last_error
    assert f"{mail_server.smtp_host}:{mail_server.smtp_port}" in refused.last_error
    assert store.due_mail((NOW + timedelta(days=30)).isoformat()) == []  # never tried again
    assert [m.id for m in store.refused_mail()] == [lost]
    # The failure did not spoil the connection for the next mail.
    assert store.outbound(fine).sent_at == NOW.isoformat()
    assert [m["Message-ID"] for m in mail_server.fetch_all(dora.address, dora.password)] == ["<gut@pbem.test>"]


def test_a_mail_taken_for_some_recipients_is_sent_and_the_rest_reported(
    mail_server: MailServer, mail_users: MakeUser, store: Store
) -> None:
    emil = mail_users("emil")
    unknown = "auch-niemand@pbem.test"
    mail_id = queue(store, [emil.address, unknown], mail(to=[emil.address, unknown]))
    summary = send(store, settings_for(mail_server), NOW)
    assert (summary.sent, summary.failed) == (1, 0)
    assert len(summary.errors) == 1 and unknown in summary.errors[0] and "550" in summary.errors[0]
    assert store.outbound(mail_id).sent_at == NOW.isoformat()  # never sent again to emil
    assert len(mail_server.fetch_all(emil.address, emil.password)) == 1


def test_login_works_and_a_wrong_password_is_never_shown(
    mail_server: MailServer, mail_users: MakeUser, store: Store
) -> None:
    judge, fritz = mail_users("judge"), mail_users("fritz")
    wrong = "falsches-passwort-4711"
    mail_id = queue(store, [fritz.address], mail(to=[fritz.address]))
    refused = send(store, settings_for(mail_server, user=judge.address, password=wrong), NOW)
    assert refused.failed == 1 and "535" in refused.errors[0]
    assert wrong not in refused.errors[0] and wrong not in store.outbound(mail_id).last_error
    assert mail_server.fetch_all(fritz.address, fritz.password) == []

    good = settings_for(mail_server, user=judge.address, password=judge.password)
    assert send(store, good, NOW + timedelta(minutes=1)).sent == 1
    assert len(mail_server.fetch_all(fritz.address, fritz.password)) == 1


def test_a_server_that_never_answers_times_out(store: Store) -> None:
    silent = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        silent.bind(("127.0.0.1", 0))
        silent.listen(5)  # connections complete, but no greeting ever comes
        port = silent.getsockname()[1]
        mail_id = queue(store, ["spieler@example.org"], mail())
        settings = SmtpSettings("127.0.0.1", port, "none", JUDGE, timeout=0.5)
        summary = send(store, settings, NOW)
    finally:
        silent.close()
    assert (summary.sent, summary.failed) == (0, 1)
    stored = store.outbound(mail_id)
    assert f"127.0.0.1:{port}" in stored.last_error and "imeout" in stored.last_error
    assert stored.sent_at is None and stored.next_try > NOW.isoformat()


def test_ssl_against_a_plain_server_fails_without_raising(
    mail_server: MailServer, mail_users: MakeUser, store: Store
) -> None:
    gerd = mail_users("gerd")
    mail_id = queue(store, [gerd.address], mail(to=[gerd.address]))
    summary = send(store, settings_for(mail_server, tls="ssl", timeout=5.0), NOW)
    assert (summary.sent, summary.failed) == (0, 1)
    assert store.outbound(mail_id).sent_at is None
    assert mail_server.fetch_all(gerd.address, gerd.password) == []


def test_a_mail_readdressed_differs_only_in_its_recipient_and_message_id() -> None:
    from datetime import datetime, timezone
    from email import message_from_bytes, policy

    from adjudicator.mail.compose import Attachment, compose, readdressed

    original = compose(sender="judge@pbem.test", sender_name="Schiri", to=["first-player-with-a-rather-long-address"
                       "-that-might-fold@example.org"], subject="Spiel g1: S1901M", text="Bericht\n", html="<p>B</p>",
                       loop_id="judge@pbem.test", date=datetime(2026, 12, 1, tzinfo=timezone.utc),
                       attachments=[Attachment("m.png", "image/png", b"\x89PNG", "map@x")])
    other = readdressed(original, "second@example.org")
    first, second = (message_from_bytes(m, policy=policy.default) for m in (original, other))
    assert second["To"] == "second@example.org" and len(second.get_all("To")) == 1
    assert second["Message-ID"] != first["Message-ID"] and second["Message-ID"].endswith("@pbem.test>")
    assert sorted(first.keys()) == sorted(second.keys())
    for key in ("From", "Subject", "Date", "Auto-Submitted", "X-Loop"):
        assert second[key] == first[key]
    assert original.partition(b"\r\n\r\n")[2] == other.partition(b"\r\n\r\n")[2]
    with pytest.raises(ValueError):
        readdressed(original, "two@x.org, three@y.org")


def test_after_an_smtp_outage_every_waiting_mail_goes_at_once(
    mail_server: MailServer, mail_users: MakeUser, store: Store
) -> None:
    """Issue 12 point 11: three mails failed during an outage and wait for
    later tries (an hour away); a new mail is due.  Once the server takes
    the new one, the waiting ones are due at once and go out in the same
    round, oldest first."""
    fritz = mail_users("fritz")
    waiting = [queue(store, [fritz.address], mail(to=[fritz.address], message_id=f"<w{n}@pbem.test>"))
               for n in range(3)]
    for mail_id in waiting:
        store.mark_failed(mail_id, (NOW + timedelta(hours=1)).isoformat(), "SMTP server down")
    fresh = queue(store, [fritz.address], mail(to=[fritz.address], message_id="<new@pbem.test>"))
    summary = send(store, settings_for(mail_server), NOW)
    assert (summary.sent, summary.failed) == (4, 0)
    assert all(store.outbound(m).sent_at == NOW.isoformat() for m in [*waiting, fresh])
    received = [m["Message-ID"] for m in mail_server.fetch_all(fritz.address, fritz.password)]
    assert received == ["<new@pbem.test>", "<w0@pbem.test>", "<w1@pbem.test>", "<w2@pbem.test>"]


def test_due_mail_is_read_claimed_and_marked_in_bounded_batches(
    mail_server: MailServer, mail_users: MakeUser, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 20 point 3: seven due mails with a batch of three: the outbox
    is read three mails at a time (never all at once, one message in
    memory), claimed and marked sent with one commit per batch, and every
    mail arrives once, oldest first."""
    from adjudicator.service import outbox

    hanna = mail_users("hanna")
    ids = [queue(store, [hanna.address], mail(to=[hanna.address], message_id=f"<b{n}@pbem.test>")) for n in range(7)]
    monkeypatch.setattr(outbox, "BATCH", 3)
    reads: list[int] = []
    marks: list[int] = []
    real_heads, real_marks = Store.due_mail_heads, Store.mark_sent_many

    def heads(self: Store, now: str, after_seq: int = 0, limit: int = 100) -> list[tuple[str, int, int]]:
        found = real_heads(self, now, after_seq, limit)
        reads.append(len(found))
        return found

    def mark(self: Store, mail_ids: list[str], now: str) -> None:
        marks.append(len(mail_ids))
        real_marks(self, mail_ids, now)

    monkeypatch.setattr(Store, "due_mail_heads", heads)
    monkeypatch.setattr(Store, "mark_sent_many", mark)
    monkeypatch.setattr(Store, "due_mail", lambda self, now: pytest.fail("every due mail read at once"))
    assert send(store, settings_for(mail_server), NOW) == SendSummary(sent=7, failed=0, errors=())
    assert max(reads) == 3 and sum(reads) == 7 and marks == [3, 3, 1]
    assert all(store.outbound(m).sent_at == NOW.isoformat() and store.outbound(m).attempts == 1 for m in ids)
    received = [m["Message-ID"] for m in mail_server.fetch_all(hanna.address, hanna.password)]
    assert received == [f"<b{n}@pbem.test>" for n in range(7)]
    assert send(store, settings_for(mail_server), NOW + timedelta(hours=1)) == SendSummary(0, 0, ())


def test_mail_the_server_accepted_is_marked_sent_even_when_the_round_is_cut_off(
    mail_server: MailServer, mail_users: MakeUser, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A round cut off after two accepted mails (cancelled, as at shutdown)
    still commits their sent-marks before it ends: they are not sent again;
    the claimed mails it never touched are free again at once."""
    from adjudicator.service import outbox

    ida = mail_users("ida")
    ids = [queue(store, [ida.address], mail(to=[ida.address], message_id=f"<c{n}@pbem.test>")) for n in range(4)]
    real_send = outbox._send_one
    handed: list[str] = []

    async def send_one(client: object, settings: SmtpSettings, message: object) -> dict[str, str]:
        if len(handed) == 2:
            raise asyncio.CancelledError
        handed.append(str(getattr(message, "id")))
        return await real_send(client, settings, message)  # type: ignore[arg-type]

    monkeypatch.setattr(outbox, "_send_one", send_one)
    with pytest.raises(asyncio.CancelledError):
        send(store, settings_for(mail_server), NOW)
    assert handed == ids[:2]
    assert [store.outbound(m).sent_at for m in ids] == [NOW.isoformat(), NOW.isoformat(), None, None]
    # the mail cut off while being handed over may have reached the server:
    # it stays claimed (until its lease ends); the one never touched is free
    assert [mail_id for mail_id, _, _ in store.claimed_outbound(NOW.isoformat())] == [ids[2]]
    monkeypatch.setattr(outbox, "_send_one", real_send)
    assert send(store, settings_for(mail_server), NOW + timedelta(seconds=1)).sent == 1
    received = [m["Message-ID"] for m in mail_server.fetch_all(ida.address, ida.password)]
    assert received == ["<c0@pbem.test>", "<c1@pbem.test>", "<c3@pbem.test>"]


def test_mails_sharing_a_body_reach_the_smtp_server_as_the_same_bytes_as_whole_mails(store: Store) -> None:
    """S40: a report to several players stores its body once, yet each
    player's mail leaves byte for byte as the mail stored whole would
    (the judge's readdressed copy, Message-ID aside, which is random)."""
    import re

    from aiosmtpd.controller import Controller

    from adjudicator.config import Config
    from adjudicator.mail.compose import readdressed
    from adjudicator.service.notify import composed_mail, queue_to_all
    from adjudicator.service.store import content_hash

    received: list[bytes] = []

    class Keep:
        async def handle_DATA(self, server: object, session: object, envelope: object) -> str:
            received.append(bytes(getattr(envelope, "original_content")))
            return "250 OK"

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    controller = Controller(Keep(), hostname="127.0.0.1", port=port)
    controller.start()
    try:
        config = Config()
        addresses = ["erster@example.org", "zweite@example.org", "dritter@example.org"]
        images = [Attachment("karte.png", "image/png", PNG * 40, "karte@pbem.test")]
        text = "Frühjahr 1618\n.\n..Zeile mit Punkt\nA Wien - Böhmen\n"
        whole = composed_mail(config, addresses[0], "Spiel g1: F1618", text, NOW, html="<p>Bericht</p>",
                              attachments=images)
        assert b"\r\n..Zeile" in whole or b"\r\n.\r\n" in whole  # a line the SMTP encoding has to dot-stuff
        with store.transaction() as db:
            ids = queue_to_all(store, db, config, addresses, "Spiel g1: F1618", text, NOW, composed=whole)
        assert store.connection.execute("SELECT COUNT(*) FROM outbox_bodies").fetchone() == (1,)
        heads = store.connection.execute("SELECT SUM(LENGTH(message)) FROM outbox").fetchone()[0]
        assert heads < len(whole) // 2  # the body, the most of each mail, is not stored per player
        send(store, SmtpSettings(host="127.0.0.1", port=port, tls="none", envelope_from=JUDGE, timeout=10.0), NOW)
    finally:
        controller.stop()

    message_id = re.compile(rb"^Message-ID: <[^>]*>$", re.MULTILINE)
    assert len(received) == 3
    for index, (address, mail_id, got) in enumerate(zip(addresses, ids, received)):
        stored = store.outbound(mail_id)
        assert got == stored.message
        assert content_hash(stored.message) == mail_id and stored.recipients == (address,)
        expected = whole if index == 0 else readdressed(whole, address)
        own = message_id.search(stored.message.replace(b"\r\n", b"\n"))
        assert own is not None
        assert message_id.sub(own.group(0), expected.replace(b"\r\n", b"\n")) == stored.message.replace(b"\r\n", b"\n")
    assert received[0] == whole


@pytest.mark.parametrize("message", [
    b"", b".", b"..", b"\r\n", b"a\r\nb", b"a\r\nb\r\n", b".a\r\n.b\r\n..c\r\n", b"a\nb", b"a\rb", b"a\r\r\nb",
    b"a\n\rb", b"\n.x", b"\r.x\r\n", b".\r\n.\r\n", b"x\r\n.\n.\r.", "Grüße\r\n.ä\r\n".encode(),
    b"\r\n".join([b"QUJD" * 19] * 500) + b"\r\n.\r\n",
])
def test_the_cheap_smtp_encoding_gives_the_bytes_of_aiosmtplibs_own(message: bytes) -> None:
    import re

    from adjudicator.service import smtpwire

    endings, periods = re.compile(rb"(?:\r\n|\n|\r(?!\n))"), re.compile(rb"(?m)^\.")

    def slow(raw: bytes) -> bytes:  # aiosmtplib 5's normalize_message_line_endings
        raw = endings.sub(b"\r\n", raw)
        return raw if raw.endswith(b"\r\n") else raw + b"\r\n"

    assert smtpwire.normalized(message, slow) == slow(message)
    assert smtpwire.dots_doubled(message) == periods.sub(b"..", message)
    assert smtpwire.dots_doubled(slow(message)) == periods.sub(b"..", slow(message))


def test_the_cheap_smtp_encoding_is_the_one_aiosmtplib_uses() -> None:
    import aiosmtplib.protocol
    import aiosmtplib.smtp

    from adjudicator.service import smtpwire

    assert smtpwire.install() and smtpwire.install()  # installed with the outbox; again: nothing changes
    assert aiosmtplib.protocol.normalize_message_line_endings is aiosmtplib.smtp.normalize_message_line_endings
    assert getattr(aiosmtplib.protocol.normalize_message_line_endings, "_adjudicator_fast", False)
    encode = aiosmtplib.protocol.normalize_message_line_endings
    first, second = b"a\nb", b"c\r\n"
    assert [encode(first), encode(first), encode(second), encode(first)] == [b"a\r\nb\r\n"] * 2 + [second, b"a\r\nb\r\n"]
    assert aiosmtplib.protocol.PERIOD_REGEX.sub(b"..", b".a\r\n.b") == b"..a\r\n..b"
    assert aiosmtplib.protocol.PERIOD_REGEX.sub(b"!", b".a\n.b") == b"!a\n!b"  # any other use: the expression


def test_the_remembered_envelope_addresses_are_aiosmtplibs_own_parse() -> None:
    # issue 20: aiosmtplib parses each envelope address three times per mail; kept, the same strings and errors
    import aiosmtplib.email
    import aiosmtplib.smtp

    from adjudicator.service import smtpwire

    def outcome(function: Callable[[str], str], address: str) -> str:
        try:
            return f"value {function(address)}"
        except ValueError as error:
            return f"error {error}"

    assert smtpwire.install()
    addresses = ["Spieler <A@x.test>", "a@x.test", " b@x.test ", "\"q r\"@x.test", "x", "<>",
                 "a@x.test\r\nRCPT TO:<evil@x.test>", "a@x.test>\nDATA"]
    for name in ("parse_address", "quote_address"):
        kept, own = getattr(aiosmtplib.smtp, name), getattr(aiosmtplib.email, name)
        assert kept is not own and getattr(kept, "_adjudicator_fast", False)
        expected = [outcome(own, address) for address in addresses]
        assert sum(e.startswith("error") for e in expected) >= 1  # "<>" and the like are refused
        assert [outcome(kept, address) for address in addresses * 2] == expected * 2
        assert kept.cache_info().hits >= 4
