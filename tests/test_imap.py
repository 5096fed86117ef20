"""The IMAP intake against a real Dovecot on loopback: unseen mail comes in
with its exact bytes and a stable source, is marked seen only once taken,
and an outage is reported and survived."""

from __future__ import annotations

import logging
import re
import secrets
from collections.abc import Callable
from pathlib import Path

import pytest

from adjudicator.service.imap import Backoff, ImapIntake, ImapSettings, MailboxUnavailable
from adjudicator.service.intake import Incoming, take_in
from adjudicator.service.store import Store
from tests.mailserver import MailServer, MailUser

MakeUser = Callable[..., MailUser]
PLAYER = "spieler@example.org"
SOURCE = re.compile(r"^imap:(?P<box>[^;]+);UIDVALIDITY=(?P<validity>\d+);UID=(?P<uid>\d+)$")


def settings(server: MailServer, user: MailUser, **changes: object) -> ImapSettings:
    values: dict[str, object] = dict(
        host=server.imap_host, port=server.imap_port, tls="none",
        user=user.address, password=user.password, timeout=10.0,
    )
    values.update(changes)
    return ImapSettings(**values)  # type: ignore[arg-type]


def order_mail(to: str, body: str, subject: str = "Orders") -> bytes:
    """A mail as a player sends it, CRLF line ends, unique Message-ID."""
    return (
        f"From: Spieler <{PLAYER}>\r\n"
        f"To: {to}\r\n"
        f"Subject: {subject}\r\n"
        f"Message-ID: <{secrets.token_hex(8)}@example.org>\r\n"
        "\r\n"
        f"{body}\r\n"
    ).encode("ascii")


def deliver(server: MailServer, user: MailUser, raw: bytes) -> None:
    server.deliver(PLAYER, [user.address], raw)


def seen_flags(server: MailServer, user: MailUser) -> dict[int, bool]:
    """UID -> whether the message has \\Seen, read without changing anything."""
    with server.imap(user.address, user.password) as client:
        client.select_folder("INBOX", readonly=True)
        flags = client.get_flags(client.search("ALL"))
    return {uid: b"\\Seen" in f for uid, f in flags.items()}


def test_new_mail_is_yielded_oldest_first_with_exact_bytes_and_stable_sources(
    mail_server: MailServer, mail_users: MakeUser
) -> None:
    judge = mail_users("judge")
    sent = [order_mail(judge.address, f"A Vie - Gal {n}") for n in range(3)]
    for raw in sent:
        deliver(mail_server, judge, raw)

    with ImapIntake(settings(mail_server, judge)) as intake:
        first = list(intake.waiting())
        again = list(intake.waiting())

    # Exactly the bytes the server holds (Dovecot adds Return-Path and
    # Delivered-To in front of what was sent), in delivery order.
    assert [m.raw for m in first] == mail_server.fetch_raw(judge.address, judge.password)
    assert all(m.raw.endswith(s) for m, s in zip(first, sent, strict=True))
    matches = [SOURCE.match(m.source) for m in first]
    assert all(matches)
    box = f"{judge.address}@{mail_server.imap_host}:{mail_server.imap_port}/INBOX"
    assert {m["box"] for m in matches if m} == {box}
    uids = [int(m["uid"]) for m in matches if m]
    assert uids == sorted(uids) and len(set(uids)) == 3

    # Not marked seen by reading; the same sources on a new connection.
    assert again == first
    with ImapIntake(settings(mail_server, judge)) as other:
        assert [m.source for m in other.waiting()] == [m.source for m in first]
    assert seen_flags(mail_server, judge) == {uid: False for uid in uids}


def test_taken_marks_the_mail_seen_so_it_does_not_come_again(
    mail_server: MailServer, mail_users: MakeUser
) -> None:
    judge = mail_users("judge")
    for n in range(3):
        deliver(mail_server, judge, order_mail(judge.address, f"F Tri H {n}"))
    with ImapIntake(settings(mail_server, judge)) as intake:
        first, second, third = intake.waiting()
        intake.taken(second)
        assert [m.source for m in intake.waiting()] == [first.source, third.source]
        intake.taken(first)
        intake.taken(third)
        assert list(intake.waiting()) == []
        # Mail that arrives later is seen by the next poll on the same connection.
        late = order_mail(judge.address, "A Bud - Ser")
        deliver(mail_server, judge, late)
        (news,) = intake.waiting()
        assert news.raw.endswith(late) and news.source not in {first.source, second.source, third.source}
    assert sorted(seen_flags(mail_server, judge).values()) == [False, True, True, True]



def test_a_batch_is_marked_seen_together_once_stored_and_a_crash_before_leaves_it_unseen(
    mail_server: MailServer, mail_users: MakeUser, tmp_path: Path
) -> None:
    judge = mail_users("judge")
    for order in ("A Mun - Ruh", "A Ber - Kie", "F Kie - Den"):
        deliver(mail_server, judge, order_mail(judge.address, order))
    store = Store(tmp_path / "judge.sqlite3")
    batches: list[int] = []

    def between() -> None:
        batches.append(len(store.pending_inbound()))
        if len(batches) == 2:
            raise KeyboardInterrupt("killed between storing the second batch and marking it")

    try:
        with ImapIntake(settings(mail_server, judge)) as intake:
            with pytest.raises(KeyboardInterrupt):
                take_in(store, intake, "2026-11-30T10:00:00", between=between, batch=2)
            assert batches == [2, 3]
            assert seen_flags(mail_server, judge) == {1: True, 2: True, 3: False}
            again = take_in(store, intake, "2026-11-30T10:05:00", batch=2)
            assert [new for _, new in again] == [False]
        assert seen_flags(mail_server, judge) == {1: True, 2: True, 3: True}
        assert len(store.pending_inbound()) == 3
    finally:
        store.close()

def test_take_in_stores_then_marks_and_a_crash_in_between_repeats_nothing(
    mail_server: MailServer, mail_users: MakeUser, tmp_path: Path
) -> None:
    judge = mail_users("judge")
    deliver(mail_server, judge, order_mail(judge.address, "A Mun - Ruh"))
    deliver(mail_server, judge, order_mail(judge.address, "A Ber - Kie"))
    store = Store(tmp_path / "judge.sqlite3")
    try:
        # The judge stores the first mail, then dies before marking it taken.
        with ImapIntake(settings(mail_server, judge)) as crashed:
            incoming = next(iter(crashed.waiting()))
            mail, new = store.save_inbound(incoming.raw, incoming.source, "2026-11-30T10:00:00")
            assert new is True and mail.source == incoming.source
        assert seen_flags(mail_server, judge) == {1: False, 2: False}

        # After the restart the mail comes again and is known; the other is new.
        with ImapIntake(settings(mail_server, judge)) as intake:
            stored = take_in(store, intake, "2026-11-30T10:05:00")
            assert [(m.raw, new) for m, new in stored] == [(incoming.raw, False), (stored[1][0].raw, True)]
            assert list(intake.waiting()) == []
            assert take_in(store, intake, "2026-11-30T10:10:00") == []
        # the second was taken in with its INTERNALDATE, never later than the intake's clock
        assert [m.received_at for m in store.pending_inbound()] == ["2026-11-30T10:00:00",
                                                                    "2026-11-30T10:05:00+00:00"]
        assert seen_flags(mail_server, judge) == {1: True, 2: True}
    finally:
        store.close()


def test_utf8_and_8bit_bytes_survive(mail_server: MailServer, mail_users: MakeUser, tmp_path: Path) -> None:
    judge = mail_users("judge")
    raw = (
        f"From: Spieler <{PLAYER}>\r\nTo: {judge.address}\r\n"
        "Subject: =?utf-8?q?Befehle_f=C3=BCr_Fr=C3=BChjahr?=\r\n"
        "Message-ID: <umlaut@example.org>\r\n"
        "MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n"
        "\r\n"
        "Grüße aus Köln – A Wien nach Galizien € ß\r\n"
    ).encode("utf-8") + b"latin-1 left over: \xe4\xf6\xfc\xff\r\n"
    deliver(mail_server, judge, raw)
    store = Store(tmp_path / "judge.sqlite3")
    try:
        with ImapIntake(settings(mail_server, judge)) as intake:
            (incoming,) = intake.waiting()
            assert incoming.raw.endswith(raw)
            ((mail, new),) = take_in(store, intake, "2026-11-30T10:00:00+00:00")
        assert new is True and mail.raw == incoming.raw and mail.message_id == "<umlaut@example.org>"
        assert "Grüße aus Köln – A Wien nach Galizien € ß".encode() in store.pending_inbound()[0].raw
    finally:
        store.close()


def test_polls_fetch_in_batches(
    mail_server: MailServer, mail_users: MakeUser, caplog: pytest.LogCaptureFixture
) -> None:
    judge = mail_users("judge")
    sent = [order_mail(judge.address, f"A Par - Bur {n}") for n in range(5)]
    for raw in sent:
        deliver(mail_server, judge, raw)
    with ImapIntake(settings(mail_server, judge), batch_size=2) as intake:
        with caplog.at_level(logging.DEBUG, logger="imapclient.imaplib"):
            got = list(intake.waiting())
    assert [m.raw[-len(s):] for m, s in zip(got, sent, strict=True)] == sent
    fetches = [r.getMessage() for r in caplog.records if "UID FETCH" in r.getMessage() and "> " in r.getMessage()]
    assert len(fetches) == 3, fetches  # 2 + 2 + 1
    assert all("BODY.PEEK[]" in line for line in fetches)


def test_taken_ignores_a_stale_uidvalidity_and_refuses_other_mailboxes(
    mail_server: MailServer, mail_users: MakeUser
) -> None:
    judge, other = mail_users("judge"), mail_users("other")
    deliver(mail_server, judge, order_mail(judge.address, "A Rom H"))
    with ImapIntake(settings(mail_server, judge)) as intake:
        (incoming,) = intake.waiting()
        validity, uid = intake.parse_source(incoming.source)
        intake.taken(Incoming(incoming.raw, intake.source(validity + 1, uid)))
        assert list(intake.waiting()) == [incoming]  # still unseen
        foreign = ImapIntake(settings(mail_server, other)).source(validity, uid)
        with pytest.raises(ValueError, match="not a mail of"):
            intake.taken(Incoming(incoming.raw, foreign))
        with pytest.raises(ValueError, match="malformed"):
            intake.taken(Incoming(incoming.raw, incoming.source.replace(";UID=", ";UIX=")))
    assert seen_flags(mail_server, judge) == {uid: False}


def test_a_wrong_password_is_a_clear_error_without_the_password(
    mail_server: MailServer, mail_users: MakeUser
) -> None:
    judge = mail_users("judge")
    wrong = "not-the-password-" + secrets.token_hex(4)
    intake = ImapIntake(settings(mail_server, judge, password=wrong))
    with pytest.raises(MailboxUnavailable) as caught:
        list(intake.waiting())
    text = str(caught.value)
    assert judge.address in text and "login refused" in text
    assert f"{mail_server.imap_host}:{mail_server.imap_port}" in text
    assert wrong not in text and judge.password not in text
    assert caught.value.user == judge.address and caught.value.port == mail_server.imap_port
    assert wrong not in repr(intake.settings)
    intake.close()  # nothing to log out from; must not raise


def test_tls_is_never_given_up_for_plain_text(mail_server: MailServer, mail_users: MakeUser) -> None:
    judge = mail_users("judge")
    deliver(mail_server, judge, order_mail(judge.address, "A Mos H"))
    # The test Dovecot offers no TLS: STARTTLS and SSL must fail, not log in in clear.
    with pytest.raises(MailboxUnavailable, match="STARTTLS failed"):
        list(ImapIntake(settings(mail_server, judge, tls="starttls")).waiting())
    with pytest.raises(MailboxUnavailable, match="cannot connect"):
        list(ImapIntake(settings(mail_server, judge, tls="ssl")).waiting())


def test_settings_are_checked() -> None:
    base = dict(host="imap.example.org", port=993, user="judge", password="pw")
    assert ImapSettings(tls="ssl", **base).folder == "INBOX"  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="tls"):
        ImapSettings(tls="tls", **base)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="port"):
        ImapSettings(**{**base, "port": 0}, tls="none")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="batch_size"):
        ImapIntake(ImapSettings(tls="none", **base), batch_size=0)  # type: ignore[arg-type]


def test_an_outage_is_reported_and_survived_by_the_same_intake(
    mail_server: MailServer, mail_users: MakeUser
) -> None:
    judge = mail_users("judge")
    first_mail = order_mail(judge.address, "A Con - Bul")
    deliver(mail_server, judge, first_mail)
    intake = ImapIntake(settings(mail_server, judge, timeout=5.0))
    try:
        (before,) = intake.waiting()  # the connection is open now
        mail_server.stop()
        try:
            with pytest.raises(MailboxUnavailable) as caught:
                list(intake.waiting())
            assert "cannot connect" in str(caught.value) and judge.address in str(caught.value)
            with pytest.raises(MailboxUnavailable):  # still down: still a clear error
                list(intake.waiting())
            with pytest.raises(MailboxUnavailable):  # marking cannot happen either
                intake.taken(before)
        finally:
            mail_server.start()
        # Back again: the same object reconnects, the source is unchanged.
        later_mail = order_mail(judge.address, "A Smy - Arm")
        deliver(mail_server, judge, later_mail)
        after = list(intake.waiting())
        assert [m.source for m in after][:1] == [before.source]
        assert after[0].raw == before.raw and after[1].raw.endswith(later_mail) and len(after) == 2
        intake.taken(after[0])
        assert [m.source for m in intake.waiting()] == [after[1].source]
    finally:
        intake.close()


def test_a_server_restart_between_polls_is_invisible(mail_server: MailServer, mail_users: MakeUser) -> None:
    judge = mail_users("judge")
    deliver(mail_server, judge, order_mail(judge.address, "F Lon - Nth"))
    with ImapIntake(settings(mail_server, judge)) as intake:
        (before,) = intake.waiting()
        mail_server.stop()
        mail_server.start()
        (after,) = intake.waiting()  # the broken connection is replaced once, silently
        assert after == before
        intake.taken(after)
        assert list(intake.waiting()) == []


def test_backoff_doubles_caps_and_resets() -> None:
    backoff = Backoff(base=2.0, cap=20.0)
    assert [backoff.failure() for _ in range(6)] == [2.0, 4.0, 8.0, 16.0, 20.0, 20.0]
    assert backoff.failures == 6
    backoff.success()
    assert backoff.failures == 0 and backoff.failure() == 2.0
    default = Backoff()
    assert [default.failure() for _ in range(3)] == [1.0, 2.0, 4.0]
    assert max(default.failure() for _ in range(5000)) == 300.0  # no overflow after a long outage
    with pytest.raises(ValueError):
        Backoff(base=0)
    with pytest.raises(ValueError):
        Backoff(base=10, cap=5)


def test_a_mail_counts_at_its_internaldate_not_at_the_poll(
    mail_server: MailServer, mail_users: MakeUser, tmp_path: Path
) -> None:
    """Issue 12 point 10: taken in an hour after it reached the mailbox, a
    mail is stored with the server's INTERNALDATE as its time of arrival."""
    from datetime import datetime, timedelta, timezone

    judge = mail_users("judge")
    before = datetime.now(timezone.utc).replace(microsecond=0) - timedelta(seconds=1)
    deliver(mail_server, judge, order_mail(judge.address, "A Mun - Ruh"))
    after = datetime.now(timezone.utc) + timedelta(seconds=1)
    store = Store(tmp_path / "judge.sqlite3")
    try:
        with ImapIntake(settings(mail_server, judge)) as intake:
            ((mail, new),) = take_in(store, intake, (after + timedelta(hours=1)).isoformat())
        assert new and before <= datetime.fromisoformat(mail.received_at) <= after
    finally:
        store.close()
