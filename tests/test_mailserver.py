"""Smoke tests of the loopback mail servers that the service's end-to-end
tests stand on: what goes in by SMTP comes out by IMAP, intact."""

from __future__ import annotations

import email.policy
import os
import signal
import smtplib
import time
from collections.abc import Callable
from email.message import EmailMessage

import pytest
from imapclient.exceptions import LoginError  # type: ignore[import-untyped]

from tests import mailserver
from tests.mailserver import MailServer, MailServerError, MailUser

MakeUser = Callable[..., MailUser]
JUDGE = "judge@pbem.test"


def smtp(server: MailServer) -> smtplib.SMTP:
    return smtplib.SMTP(server.smtp_host, server.smtp_port, timeout=10)


def test_plain_message_arrives_in_the_inbox(mail_server: MailServer, mail_users: MakeUser) -> None:
    alice = mail_users("alice")
    raw = (
        f"From: Judge <{JUDGE}>\r\n"
        f"To: {alice.address}\r\n"
        "Subject: Spring 1901 orders\r\n"
        "Message-ID: <s1901@pbem.test>\r\n"
        "\r\n"
        "A Vie - Gal\r\n"
        ".A line that starts with a dot\r\n"
        "F Tri H\r\n"
    ).encode("ascii")
    with smtp(mail_server) as client:
        assert client.sendmail(JUDGE, [alice.address], raw) == {}
    # Delivery is synchronous: the message is there as soon as SMTP said 250.
    (message,) = mail_server.fetch_all(alice.address, alice.password)
    assert message["Subject"] == "Spring 1901 orders"
    assert message["From"].addresses[0].addr_spec == JUDGE
    assert message["Message-ID"] == "<s1901@pbem.test>"
    assert message.get_content().splitlines() == [
        "A Vie - Gal", ".A line that starts with a dot", "F Tri H"]
    assert message["Return-Path"] == f"<{JUDGE}>"


def test_german_umlauts_in_subject_and_body(mail_server: MailServer, mail_users: MakeUser) -> None:
    spieler = mail_users("spieler")
    subject = "Befehle für Frühjahr 1618 – Größe & Übermut"
    body = "Grüße aus Köln!\nA Wien nach Galizien; F Nordsee K A London – Norwegen\nß ä ö ü Ä Ö Ü €\n"

    # As mail programs send it: RFC 2047 encoded subject, 8-bit UTF-8 body.
    encoded = EmailMessage()
    encoded["From"] = f"Spieler <{spieler.address}>"
    encoded["To"] = JUDGE
    encoded["Subject"] = subject
    encoded.set_content(body)
    # And with raw UTF-8 headers (SMTPUTF8).
    raw = EmailMessage(policy=email.policy.SMTPUTF8)
    raw["From"] = f"Jörg Müller <{spieler.address}>"
    raw["To"] = spieler.address
    raw["Subject"] = subject + " (roh)"
    raw.set_content(body, cte="8bit")
    raw_bytes = raw.as_bytes()
    assert "Übermut".encode() in raw_bytes

    with smtp(mail_server) as client:
        client.send_message(encoded, to_addrs=[spieler.address])
        client.sendmail(spieler.address, [spieler.address], raw_bytes,
                        mail_options=["SMTPUTF8", "BODY=8BITMIME"])

    first, second = mail_server.fetch_all(spieler.address, spieler.password)
    assert first["Subject"] == subject
    assert first.get_content() == body
    assert second["Subject"] == subject + " (roh)"
    # Transported intact; but Python's parser leaves raw UTF-8 in address
    # headers as surrogate escapes, so a reader must decode those itself.
    second_raw = mail_server.fetch_raw(spieler.address, spieler.password)[1]
    assert "From: Jörg Müller <".encode() in second_raw
    assert second.get_content() == body


def test_multipart_message_with_attachment(mail_server: MailServer, mail_users: MakeUser) -> None:
    bob = mail_users("bob")
    payload = bytes(range(256)) * 40
    message = EmailMessage()
    message["From"] = JUDGE
    message["To"] = bob.address
    message["Subject"] = "Results of Spring 1618"
    message.set_content("Die Ergebnisse hängen an.\n")
    message.add_alternative("<p>Die Ergebnisse h&auml;ngen an.</p>\n", subtype="html")
    message.add_attachment(payload, maintype="application", subtype="octet-stream",
                           filename="Ergebnisse-Frühjahr-1618.bin")
    message.add_attachment("A WIE - BOH\n", subtype="plain", filename="orders.txt")

    mail_server.send(JUDGE, bob.address, message)

    (got,) = mail_server.fetch_all(bob.address, bob.password)
    assert got.is_multipart()
    text = got.get_body(preferencelist=("plain",))
    html = got.get_body(preferencelist=("html",))
    assert text is not None and text.get_content() == "Die Ergebnisse hängen an.\n"
    assert html is not None and "h&auml;ngen" in html.get_content()
    attachments = {part.get_filename(): part.get_content() for part in got.iter_attachments()}
    assert attachments == {"Ergebnisse-Frühjahr-1618.bin": payload, "orders.txt": "A WIE - BOH\n"}


def test_unknown_recipient_is_refused_with_550(mail_server: MailServer, mail_users: MakeUser) -> None:
    carol = mail_users("carol")
    nobody = f"nobody-{time.time_ns()}@pbem.test"
    raw = b"Subject: to whom it may concern\r\n\r\nhello\r\n"
    with smtp(mail_server) as client:
        with pytest.raises(smtplib.SMTPRecipientsRefused) as refused:
            client.sendmail(JUDGE, [nobody], raw)
        assert refused.value.recipients[nobody][0] == 550
        client.rset()
        # With a known recipient too, only the unknown one is refused.
        assert set(client.sendmail(JUDGE, [nobody, carol.address], raw)) == {nobody}
    assert len(mail_server.fetch_all(carol.address, carol.password)) == 1


def test_mailboxes_are_separate(mail_server: MailServer, mail_users: MakeUser) -> None:
    alice, bob, carol = mail_users("alice"), mail_users("bob"), mail_users("carol")
    mail_server.send(JUDGE, alice.address, b"Subject: for Alice\r\n\r\nA\r\n")
    mail_server.send(JUDGE, bob.address, b"Subject: for Bob\r\n\r\nB\r\n")
    mail_server.send(JUDGE, [alice.address, bob.address], b"Subject: for both\r\n\r\nAB\r\n")

    def subjects(user: MailUser) -> list[str]:
        return [m["Subject"] for m in mail_server.fetch_all(user.address, user.password)]

    assert subjects(alice) == ["for Alice", "for both"]
    assert subjects(bob) == ["for Bob", "for both"]
    assert subjects(carol) == []
    with pytest.raises(LoginError):
        mail_server.fetch_all(alice.address, bob.password)


def test_wrong_imap_password_is_refused_quickly(mail_server: MailServer, mail_users: MakeUser) -> None:
    dave = mail_users("dave")
    mail_server.send(JUDGE, dave.address, b"Subject: hello\r\n\r\nhi\r\n")
    start = time.monotonic()
    for _ in range(3):
        with pytest.raises(LoginError):
            mail_server.fetch_all(dave.address, "wrong password")
    with pytest.raises(LoginError):
        mail_server.fetch_all(f"nobody-{time.time_ns()}@pbem.test", "whatever")
    failed = time.monotonic() - start
    start = time.monotonic()
    assert len(mail_server.fetch_all(dave.address, dave.password)) == 1
    good = time.monotonic() - start
    # Dovecot's defaults (auth_failure_delay, the anvil auth penalty) would
    # make these take seconds.
    assert failed < 2.0, f"four failed logins took {failed:.2f} s"
    assert good < 1.0, f"a good login after failed ones took {good:.2f} s"


def test_smtp_auth_is_optional_and_checks_passwords(mail_server: MailServer, mail_users: MakeUser) -> None:
    erin = mail_users("erin")
    with smtp(mail_server) as client:
        with pytest.raises(smtplib.SMTPAuthenticationError) as refused:
            client.login(erin.address, "wrong")
        assert refused.value.smtp_code == 535
        client.login(erin.address, erin.password)
        client.sendmail(erin.address, [erin.address], b"Subject: authenticated\r\n\r\nok\r\n")
    assert [m["Subject"] for m in mail_server.wait_for(erin.address, erin.password, 1)] == ["authenticated"]


def test_new_users_are_unique_and_add_user_is_idempotent(mail_server: MailServer) -> None:
    a, b = mail_server.new_user("same"), mail_server.new_user("same")
    assert a.address != b.address and a.address.endswith("@pbem.test")
    address = f"Fixed-{time.time_ns()}@PBEM.test"
    user = mail_server.add_user(address, "secret")
    assert user.address == address.lower()
    assert mail_server.add_user(address, "secret") == user
    with pytest.raises(ValueError):
        mail_server.add_user(address, "another")
    # A user added right after logins of others can log in at once.
    mail_server.send(JUDGE, address, b"Subject: x\r\n\r\ny\r\n")
    assert len(mail_server.fetch_all(address.upper(), "secret")) == 1


def test_wait_for_times_out_with_the_dovecot_log(mail_server: MailServer, mail_users: MakeUser) -> None:
    frank = mail_users("frank")
    with pytest.raises(TimeoutError, match="expected 1 within 0.2 s") as waited:
        mail_server.wait_for(frank.address, frank.password, 1, timeout=0.2)
    assert "dovecot.log" in str(waited.value)


def test_a_second_server_starts_fast_and_stops_without_leftovers() -> None:
    mailserver.require_dovecot()
    start = time.monotonic()
    server = MailServer()
    try:
        server.start()
        started = time.monotonic() - start
        process = server._process
        assert process is not None
        user = server.new_user()
        server.send(JUDGE, user.address, b"Subject: s\r\n\r\nt\r\n")
        assert len(server.fetch_all(user.address, user.password)) == 1
    finally:
        server.stop()
        server.cleanup()
    assert started < 5.0, f"start-up took {started:.2f} s"
    assert process.returncode is not None
    assert not MailServer._group_alive(process.pid)  # nothing left of Dovecot
    for port in (server.imap_port, server.smtp_port, server.lmtp_port):
        with pytest.raises(OSError):
            smtplib.SMTP(server.smtp_host, port, timeout=2).close()
    assert not server.folder.exists()
    server.stop()  # twice is harmless


def test_a_restart_keeps_ports_users_and_mail() -> None:
    mailserver.require_dovecot()
    with MailServer() as server:
        user = server.new_user()
        server.send(JUDGE, user.address, b"Subject: before\r\n\r\n1\r\n")
        ports = (server.smtp_port, server.imap_port, server.lmtp_port)
        server.stop()
        assert not server.running
        with pytest.raises(OSError):
            server.send(JUDGE, user.address, b"Subject: during\r\n\r\n2\r\n")
        server.start()
        assert (server.smtp_port, server.imap_port, server.lmtp_port) == ports
        server.send(JUDGE, user.address, b"Subject: after\r\n\r\n3\r\n")
        assert [m["Subject"] for m in server.fetch_all(user.address, user.password)] == ["before", "after"]
    server.cleanup()


def test_a_broken_start_reports_the_dovecot_output(monkeypatch: pytest.MonkeyPatch) -> None:
    mailserver.require_dovecot()

    def broken(server: MailServer, uid: int) -> str:
        return "no_such_dovecot_setting = 1\n"

    monkeypatch.setattr(mailserver, "_config_23", broken)
    server = MailServer(start_timeout=5)
    try:
        with pytest.raises(MailServerError, match="no_such_dovecot_setting"):
            server.start()
        assert server._process is None  # start() cleaned up after itself
    finally:
        server.stop()
        server.cleanup()


def test_dovecot_logged_no_errors(mail_server: MailServer) -> None:
    assert mail_server.log_errors() == [], mail_server.log_tail()


def test_stop_survives_a_dovecot_that_died(monkeypatch: pytest.MonkeyPatch) -> None:
    mailserver.require_dovecot()
    server = MailServer()
    try:
        server.start()
        assert server._process is not None
        process = server._process
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=5)
    finally:
        server.stop()
        server.cleanup()
    assert not MailServer._group_alive(process.pid)
