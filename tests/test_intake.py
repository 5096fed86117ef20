"""Taking mail in: stored before it is marked taken, never twice."""

from __future__ import annotations

import mailbox
from pathlib import Path

from adjudicator.service.intake import Incoming, MaildirIntake, read_pipe, take_in
from adjudicator.service.store import Store

MAIL = b"From: spieler@example.org\nMessage-ID: <1@example.org>\n\nA Aug H\n"
OTHER = b"From: spieler@example.org\nMessage-ID: <2@example.org>\n\nA BFre H\n"


def test_maildir_mail_is_stored_then_marked_seen(tmp_path: Path) -> None:
    box = mailbox.Maildir(tmp_path / "maildir", create=True)
    box.add(MAIL)
    box.add(OTHER)
    store = Store(tmp_path / "judge.sqlite3")
    intake = MaildirIntake(tmp_path / "maildir")
    stored = take_in(store, intake, "2026-11-30T10:00:00")
    assert [new for _, new in stored] == [True, True]
    assert sorted(m.raw for m in store.pending_inbound()) == sorted([MAIL, OTHER])
    assert take_in(store, intake, "2026-11-30T10:01:00") == []
    assert all("S" in message.get_flags() for message in mailbox.Maildir(tmp_path / "maildir").values())


class _CrashingBox:
    """A transport that dies after storing, before marking the mail taken."""

    def __init__(self) -> None:
        self.marked: list[str] = []
        self.crash = True

    def waiting(self):  # type: ignore[no-untyped-def]
        yield Incoming(MAIL, "imap:1:1")

    def taken(self, incoming: Incoming) -> None:
        if self.crash:
            raise KeyboardInterrupt("killed between storing and marking")
        self.marked.append(incoming.source)


def test_a_crash_between_storing_and_marking_loses_and_repeats_nothing(tmp_path: Path) -> None:
    store = Store(tmp_path / "judge.sqlite3")
    box = _CrashingBox()
    try:
        take_in(store, box, "2026-11-30T10:00:00+00:00")
    except KeyboardInterrupt:
        pass
    assert len(store.pending_inbound()) == 1
    box.crash = False
    assert [new for _, new in take_in(store, box, "2026-11-30T10:05:00+00:00")] == [False]
    assert box.marked == ["imap:1:1"] and len(store.pending_inbound()) == 1


def test_piped_mail_is_identified_by_its_bytes(tmp_path: Path) -> None:
    store = Store(tmp_path / "judge.sqlite3")
    first = read_pipe(MAIL)
    assert first.source.startswith("pipe:") and read_pipe(MAIL) == first
    assert store.save_inbound(first.raw, first.source, "now")[1] is True
    assert store.save_inbound(first.raw, first.source, "now")[1] is False


def test_maildir_files_are_renamed_not_rewritten(tmp_path: Path) -> None:
    """Issue 20: a taken mail's file keeps its bytes and delivery time and
    only changes its name (to cur/, Seen added to the flags it had); a
    mail already seen in cur/ is not taken again, an unseen one is."""
    import os
    from datetime import datetime, timezone

    box = mailbox.Maildir(tmp_path / "maildir", create=True)
    fresh = box.add(MAIL)
    flagged = mailbox.MaildirMessage(OTHER)
    flagged.set_subdir("cur")
    flagged.add_flag("F")
    flagged_key = box.add(flagged)
    seen = mailbox.MaildirMessage(b"From: a@example.org\nMessage-ID: <3@example.org>\n\nseen\n")
    seen.set_subdir("cur")
    seen.add_flag("S")
    box.add(seen)
    os.utime(tmp_path / "maildir" / "new" / fresh, (1_700_000_000, 1_700_000_000))
    intake = MaildirIntake(tmp_path / "maildir")
    waiting = list(intake.waiting())
    assert sorted(m.raw for m in waiting) == sorted([MAIL, OTHER])
    assert {m.source: m.arrived for m in waiting}[f"maildir:{fresh}"] == datetime.fromtimestamp(1_700_000_000,
                                                                                               timezone.utc)
    for incoming in waiting:
        intake.taken(incoming)
    assert list(intake.waiting()) == []
    names = sorted(os.listdir(tmp_path / "maildir" / "cur"))
    assert f"{fresh}:2,S" in names and f"{flagged_key}:2,FS" in names
    assert (tmp_path / "maildir" / "cur" / f"{fresh}:2,S").read_bytes() == MAIL
    assert os.stat(tmp_path / "maildir" / "cur" / f"{fresh}:2,S").st_mtime == 1_700_000_000
    reread = mailbox.Maildir(tmp_path / "maildir")
    assert sorted(reread[fresh].get_flags()) == ["S"] and sorted(reread[flagged_key].get_flags()) == ["F", "S"]


class _CountingBox:
    """A transport of ``count`` mails that marks them taken in batches and
    can die after storing its ``crash_after``-th batch, before marking it."""

    def __init__(self, count: int, crash_after: int | None = None) -> None:
        self.mails = [Incoming(b"From: p%d@example.org\nMessage-ID: <%d@example.org>\n\nA Aug H\n" % (n, n),
                               f"imap:1:{n}") for n in range(count)]
        self.batches: list[list[str]] = []
        self.crash_after = crash_after

    def waiting(self):  # type: ignore[no-untyped-def]
        marked = {s for batch in self.batches for s in batch}
        return iter([m for m in self.mails if m.source not in marked])

    def taken(self, incoming: Incoming) -> None:
        raise AssertionError("marked one at a time")

    def taken_many(self, incoming: list[Incoming]) -> None:
        if self.crash_after is not None and len(self.batches) + 1 == self.crash_after:
            raise KeyboardInterrupt("killed between storing a batch and marking it")
        self.batches.append([i.source for i in incoming])


def test_mail_is_stored_a_batch_in_one_transaction_and_then_marked_together(tmp_path: Path) -> None:
    store = Store(tmp_path / "judge.sqlite3")
    box = _CountingBox(5)
    stored_batches: list[int] = []
    stored = take_in(store, box, "2026-11-30T10:00:00+00:00", batch=2,
                     between=lambda: stored_batches.append(len(store.pending_inbound())))
    assert [new for _, new in stored] == [True] * 5
    assert stored_batches == [2, 4, 5]  # each batch stored whole before it is marked
    assert box.batches == [["imap:1:0", "imap:1:1"], ["imap:1:2", "imap:1:3"], ["imap:1:4"]]


def test_a_crash_between_storing_a_batch_and_marking_it_loses_and_repeats_nothing(tmp_path: Path) -> None:
    store = Store(tmp_path / "judge.sqlite3")
    box = _CountingBox(5, crash_after=2)
    try:
        take_in(store, box, "2026-11-30T10:00:00+00:00", batch=2)
    except KeyboardInterrupt:
        pass
    assert len(store.pending_inbound()) == 4 and box.batches == [["imap:1:0", "imap:1:1"]]
    box.crash_after = None
    again = take_in(store, box, "2026-11-30T10:05:00+00:00", batch=2)
    assert [(m.source, new) for m, new in again] == [("imap:1:2", False), ("imap:1:3", False), ("imap:1:4", True)]
    assert [m.source for m in store.pending_inbound()] == [f"imap:1:{n}" for n in range(5)]


def test_a_maildir_another_process_has_only_begun_is_completed_for_reading_and_writing(tmp_path: Path) -> None:
    # Another process making the same Maildir at this moment has made its
    # folder but not yet tmp/, new/, cur/: ``mailbox.Maildir(create=True)``
    # would take it as made, and the first mail written would fail (two
    # judges sharing an outgoing Maildir met it).
    from datetime import datetime, timezone

    from adjudicator.service.runner import deliver_to_maildir

    for name in ("inbox", "sent"):
        (tmp_path / name).mkdir(mode=0o700)
    intake = MaildirIntake(tmp_path / "inbox")
    assert list(intake.waiting()) == []
    store = Store(tmp_path / "judge.sqlite3")
    with store.transaction() as db:
        store.queue_mail(db, ("spieler@example.org",), MAIL, "2026-11-30T10:00:00+00:00")
    summary = deliver_to_maildir(store, tmp_path / "sent", datetime(2026, 11, 30, 10, 1, tzinfo=timezone.utc))
    assert summary.sent == 1
    assert len(mailbox.Maildir(tmp_path / "sent", factory=None)) == 1
    for name in ("inbox", "sent"):
        for folder in ("tmp", "new", "cur"):
            assert (tmp_path / name / folder).stat().st_mode & 0o077 == 0  # owner-only, as Maildir makes them
