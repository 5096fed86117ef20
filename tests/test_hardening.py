"""The judge on the open internet (issue 12): every attack mail of the
issue, fed through the public intake (the judge's mailbox, taken in by
``Judge.poll``, or ``adjudicator receive``), and the outcome it must have.

Each test states the attack mail and the expected outcome; the budget
tests assert the work done (lines read, bytes stored, answers queued),
never a time (the timings are in ``benchmarks/pathological.py``).
"""

from __future__ import annotations

import os
import stat
from datetime import timedelta
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator import records
from adjudicator.service import auth
from adjudicator.service.auth import check_admin_password, hash_password
from adjudicator.service.intake import read_pipe
from adjudicator.service.store import Store
from tests.test_service_commands import (  # noqa: F401 - fixtures
    GM,
    JUDGE,
    POWERS,
    SIGN_ON_FIRST,
    SIGNON_FAILED,
    Mail,
    Table,
    address,
    password,
    signon,
    started,
    table,
)

NOT_TRIED = ("Not tried: too many sign-ons in this mail, or too many failed attempts from this address or for "
             "this target; try again later.")
EVE = "eve@evil.test"


def raw_mail(sender: str, body: str, **headers: str) -> bytes:
    message = EmailMessage()
    message["From"] = sender
    message["To"] = JUDGE
    message["Subject"] = headers.pop("Subject", "orders")
    message["Message-ID"] = make_msgid(domain="players.test")
    for name, value in headers.items():
        message[name.replace("_", "-")] = value
    message.set_content(body + "\n")
    return bytes(message)


def deliver_raw(table: Table, raw: bytes) -> None:
    table.mailbox.box.append(read_pipe(raw))


def ack_to(table: Table, to: str) -> Mail:
    out = table.poll()
    assert [(m.kind, m.to) for m in out] == [("acknowledgement", to)], [(m.kind, m.to) for m in out]
    return out[0]


# --- 1. Authentication cost and limits ------------------------------------------


def test_one_mail_tries_at_most_three_sign_ons_and_never_says_which_was_right(started: Table) -> None:
    """Attack: one mail of ten SIGNON England lines, the fifth with the
    right password.  Outcome: three are tried, the rest are "not tried";
    all ten read alike, no line is signed on, and the orders after them
    are not taken."""
    guesses = [f"SIGNON England spiel1 guess-{n}" for n in range(10)]
    guesses[4] = signon("England")
    ack = started.ack(EVE, *guesses, "A Lon - Nth")
    sections = ack.sections()
    assert [echo for echo, _ in sections[:10]] == ["SIGNON ****"] * 10
    assert [lines for _, lines in sections[:3]] == [[SIGNON_FAILED]] * 3
    assert [lines for _, lines in sections[3:10]] == [[NOT_TRIED]] * 7
    assert sections[10][1] == [SIGN_ON_FIRST]
    assert started.store.submissions("spiel1", "S1901M").get("England") is None
    assert password("England") not in ack.text and "guess-" not in ack.text


def test_a_right_password_beside_a_wrong_one_fails_alike(started: Table) -> None:
    """Attack: two guesses in one mail, one right.  Outcome: both lines
    answer "sign-on failed", exactly like a mail of two wrong guesses."""
    mixed = started.ack(EVE, "SIGNON England spiel1 wrong-one", signon("England"))
    both_wrong = started.ack(EVE, "SIGNON England spiel1 wrong-one", "SIGNON England spiel1 wrong-two")
    assert mixed.sections() == both_wrong.sections() == [("SIGNON ****", [SIGNON_FAILED])] * 2


def test_failed_sign_ons_lock_out_sender_and_target_across_a_restart(started: Table) -> None:
    """Attack: six mails with one wrong guess each for England.  Outcome:
    five failures are free, the sixth locks sender and seat out (even the
    right password is not tried), the count is in the database, so a
    restarted judge keeps the lock; after the lock-out (a minute, doubling
    with each further failure) the right password works again, and the
    answer goes to the seat's registered address, not to the sender."""
    for n in range(6):
        assert started.ack(EVE, f"SIGNON England spiel1 guess-{n}").sections() == [("SIGNON ****", [SIGNON_FAILED])]
    assert started.ack(EVE, signon("England")).sections() == [("SIGNON ****", [NOT_TRIED])]
    restarted = Table.__new__(Table)
    restarted.__dict__.update(started.__dict__)
    started.store.close()
    restarted.store = Store(started.config.database)
    restarted.judge = type(started.judge)(started.config, restarted.store, started.mailbox, clock=lambda: restarted.now)
    assert restarted.ack("mallory@evil.test", "SIGNON England spiel1 guess-x").sections() == [
        ("SIGNON ****", [NOT_TRIED])]  # the seat itself is locked now: the sixth failure for it
    assert restarted.ack(EVE, signon("England")).sections() == [("SIGNON ****", [NOT_TRIED])]
    restarted.now += timedelta(minutes=5)
    restarted.deliver(EVE, signon("England"))
    ok = ack_to(restarted, address("England"))
    assert ok.sections()[0][1][0] == "Signed on as England in spiel1."
    started.store = restarted.store


def test_a_locked_seat_still_opens_to_its_registered_address(started: Table) -> None:
    """Attack: strangers lock England's seat with failed guesses.  Outcome:
    England's player, from the registered address, still signs on."""
    for n in range(8):
        started.ack(f"eve{n}@evil.test", f"SIGNON England spiel1 guess-{n}")
    assert started.ack("zed@evil.test", signon("England")).sections() == [("SIGNON ****", [NOT_TRIED])]
    ack = started.ack(address("England"), signon("England"), "F Lon - Nth")
    assert ack.sections()[0] == ("SIGNON England spiel1 ****", [
        "Signed on as England in spiel1.",
        "Phase S1901M, deadline Friday, 4 December 2026, 11:00 CET (Europe/Berlin)."])
    assert started.store.submissions("spiel1", "S1901M")["England"].orders == ("F LON - NTH",)


def test_every_password_check_costs_one_slow_hash(started: Table, scrypt_calls: list[int]) -> None:
    """Seat, GM and administrator passwords are all checked with one scrypt
    each, whether the target exists or not (equal cost); a password not
    verified before in this process (issue 20 remembers successes only)."""
    calls = scrypt_calls
    for line in (signon("England"), "SIGNON England spiel1 wrong-pw", "SIGNON Atlantis spiel1 wrong-pw",
                 "SIGNON England nosuchgame wrong-pw", "GAMEMASTER spiel1 wrong-pw", "GAMEMASTER nogame wrong-pw",
                 "ADMIN wrong-pw"):
        calls.clear()
        auth.forget_verified()
        started.ack(f"probe{len(line)}@players.test" if "England spiel1 pw" not in line else address("England"), line)
        assert calls == [2**14], (line, calls)


def test_the_administrator_password_may_be_configured_as_a_hash(table: Table) -> None:
    """``judge.admin_password`` as a hash (``adjudicator hash-password``)
    works like the password itself, and both are checked by the slow hash."""
    hashed = hash_password("admin-secret-1")
    assert check_admin_password("admin-secret-1", hashed) and not check_admin_password("admin-secret", hashed)
    assert check_admin_password("admin-secret-1", "admin-secret-1") and not check_admin_password("x", "")
    table.config = records.replace(table.config, admin="root@pbem.test", admin_password=hashed)
    table.judge.config = table.config
    out = table.send("root@pbem.test", "ADMIN admin-secret-1", "GM CREATE neu standard gm2@pbem.test")
    ack = out.one("acknowledgement", "root@pbem.test")
    assert out.recipients("notice") == ["gm2@pbem.test"]
    assert ack.sections()[0] == ("ADMIN ****", ["Signed on as administrator. GM CREATE <game> <variant> <gm-address> creates a game."])
    assert table.store.game("neu") is not None
    assert "admin-secret-1" not in ack.text and hashed not in ack.text


def test_a_seat_password_must_have_the_minimum_length(table: Table) -> None:
    """Joining with a seven-character password is refused, saying why; the
    GM may ask for more (GM MINPASSWORD 12); PASSWORD obeys it too."""
    table.create()
    ack = table.ack("anna@players.test", "SIGNON England spiel1 seven77")
    assert ack.sections()[0][1] == ["The password is too short: at least 8 characters."]
    assert next(p for p in table.store.players("spiel1") if p.power == "England").status == "open"
    gm_password = _gm_password(table)
    table.ack(GM, f"GAMEMASTER spiel1 {gm_password}", "GM MINPASSWORD 12")
    ack = table.ack("anna@players.test", "SIGNON England spiel1 eleven-chr")
    assert ack.sections()[0][1] == ["The password is too short: at least 12 characters."]
    ack = table.ack("anna@players.test", "SIGNON England spiel1 twelve-chars", "PASSWORD short-pw")
    assert ack.sections()[1] == ("PASSWORD ****", ["The password is too short: at least 12 characters."])


def _gm_password(table: Table) -> str:
    """Give spiel1 a known GM password (as GM CREATE would have mailed it)."""
    game = table.store.game("spiel1")
    assert game is not None
    with table.store.transaction() as db:
        table.store.update_game(db, records.replace(
            game, settings={**game.settings, "gm_password_hash": hash_password("gm-password-1")}))
    return "gm-password-1"


# --- 9. Echoes -----------------------------------------------------------------


@pytest.mark.parametrize("lines, secret", [
    pytest.param(("SIGNON England spiel1 pwEngland thanks",), "pwEngland", id="extra-word-after-signon"),
    pytest.param(("SIGNON England spiel1 pw\u200bEngland",), "pw\u200bEngland", id="invisible-character"),
    pytest.param(("SIGNON England spiel1 pw-england\x01",), "pw-england", id="control-character"),
    pytest.param(("GAMEMASTER spiel1 gm-password-1", "GM PASSWORD new-secret extra"), "new-secret",
                 id="gm-password-with-extra-word"),
    pytest.param(("GAMEMASTER spiel1 gm-password-1", "GM DRYRUN PASSWORD dry-secret"), "dry-secret",
                 id="gm-dryrun-password"),
    pytest.param(("GAMEMASTER spiel1 gm-password-1", "GM PASSWORD"), "gm-password-1", id="gm-password-missing"),
    pytest.param(("SIGNON England spiel1 pw-england", "PASSWORD new-seat-pw extra"), "new-seat-pw",
                 id="password-with-extra-word"),
    pytest.param(("SIGNON England spiel1 pw-england", "pw-england", "A Lon - pw-england"), "pw-england",
                 id="password-quoted-as-an-order"),
    pytest.param(("ADMIN admin-guess-1 extra",), "admin-guess-1", id="admin-with-extra-word"),
    pytest.param(("GAMEMASTER spiel1 gm-password-1", "GM ASSIGN England nobody@players.test"), None,
                 id="generated-seat-password"),
])
def test_no_answer_quotes_a_password(started: Table, lines: tuple[str, ...], secret: str | None) -> None:
    """Attack: a password where the judge would quote it (an extra word, an
    invisible character, an order line, a GM line, a generated password).
    Outcome: the answer, its subject included, never holds it."""
    _gm_password(started)
    started.deliver(address("England"), "\n".join(lines))
    out = started.poll()
    (ack,) = out.of("acknowledgement")  # to England, or to the GM's registered address
    secrets = {secret} if secret else set()
    for mail in out:
        if mail.to == "nobody@players.test":  # the seat mail to the new player carries its password
            secrets.add(mail.text.split("password: ")[-1].split()[0] if "password: " in mail.text else "")
    for word in {s for s in secrets if s}:
        assert word not in ack.text and word not in ack.subject, (word, ack.text)
    assert "****" in ack.text


KNOWN = tuple(password(p) for p in POWERS) + ("gm-password-1", "admin-secret-1")
_WORD = st.sampled_from(KNOWN)
_NOISE = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\n"), max_size=12)
_POWER = st.sampled_from(POWERS + ("Atlantis",))
_AUTH_LINE = st.one_of(
    st.builds(lambda p, w: f"SIGNON {p} spiel1 {w}", _POWER, _WORD),
    st.builds(lambda p, w, n: f"SIGNON {p} spiel1 {w} {n}", _POWER, _WORD, _NOISE),
    st.builds(lambda p, w, c: f"SIGNON {p} spiel1 {w}{c}", _POWER, _WORD, st.sampled_from(["\u200b", "\x00", "\x07"])),
    st.builds(lambda w: f"GAMEMASTER spiel1 {w}", _WORD),
    st.builds(lambda w, n: f"ADMIN {w} {n}", _WORD, _NOISE),
    st.builds(lambda w: f"ADMIN {w}", _WORD),
)
_AFTER_LINE = st.one_of(
    st.builds(lambda w, n: f"PASSWORD {w}{n}", _WORD, _NOISE),
    st.builds(lambda w: f"GM PASSWORD {w} extra", _WORD),
    st.builds(lambda w: f"GM DRYRUN PASSWORD {w}", _WORD),
    st.sampled_from(["A Lon - Nth", "F Lon - Nth", "HELP", "LIST spiel1", "READY", "HISTORY spiel1", "GM PREVIEW",
                     "GM ASSIGN England new@players.test"]),
    _NOISE,
)


@st.composite
def _hostile_mail(draw: st.DrawFn) -> tuple[str, list[str]]:
    auth = draw(st.lists(_AUTH_LINE, min_size=1, max_size=3))
    used = [w for w in KNOWN if any(w in line for line in auth)]
    echoes = [draw(st.sampled_from([f"{w}", f"A Lon - {w}", f"> {w}", f"SIGNON {w}", f"LIST {w}"]))
              for w in draw(st.lists(st.sampled_from(used), max_size=2))] if used else []
    rest = draw(st.lists(_AFTER_LINE, max_size=4))
    lines = draw(st.permutations(auth + echoes + rest))
    sender = draw(st.sampled_from([address("England"), address("France"), GM, EVE, "root@pbem.test"]))
    return sender, list(lines)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture],
          derandomize=True)
@given(_hostile_mail())
def test_no_answer_to_any_generated_mail_contains_a_stored_password(
        started: Table, generated: tuple[str, list[str]]) -> None:
    """Property: whatever mail is sent (sign-on lines with any known
    password in any position, extra words, invisible characters, password
    changes, GM lines, the password repeated as an order or a quote), no
    answer and no notice holds a password the store knows: a seat's, the
    GM's or the administrator's."""
    _gm_password(started)
    started.config = records.replace(started.config, admin="root@pbem.test", admin_password="admin-secret-1")
    started.judge.config = started.config
    sender, lines = generated
    started.deliver(sender, "\n".join(lines))
    for mail in started.poll():
        for secret in KNOWN:
            assert secret not in mail.text and secret not in mail.subject, (secret, lines, mail.text)


# --- 2. A time and size budget for every mail ---------------------------------------

_WORDS_LINE = " ".join(f"w{n}" for n in range(4000))  # ~24 KB of words in one order line


def _html_bomb() -> str:
    return "<html><body>" + "<a " * 40_000 + "</body></html>"


PATHOLOGICAL = [
    # (id, body, extra headers, what the answer must say)
    pytest.param(signon("England") + "\nA Lon " + _WORDS_LINE, {},
                 "Line(s) 2 longer than 1000 characters: not read.", id="24kb-order-line-of-words"),
    pytest.param(signon("England") + "\n" + ("; ".join(["F Lon - Nth"] * 50) + "\n") * 300, {},
                 "The mail has 15001 lines; only the first 2000 were read.", id="15000-orders-by-semicolons"),
    pytest.param("".join(f"Am {n}. schrieb jemand etwas Am Mo schrieb wer:" for n in range(7000)), {},
                 "The mail's text has", id="300kb-of-am-schrieb-fragments"),
]


@pytest.mark.parametrize("body, headers, said", PATHOLOGICAL)
def test_pathological_mails_are_answered_within_their_budget(
        started: Table, body: str, headers: dict[str, str], said: str) -> None:
    """Attack: the mails that froze the judge (a 24 KB order line of words,
    15,000 orders joined by ';' (the 1.3 MB mail of 99,950 is over the
    stored-bytes cap), 300 KB of reply-header fragments).
    Outcome: one answer that says what was not read, at most 2,000 pieces
    checked, nothing stored beyond them."""
    started.deliver(address("England"), body)
    ack = ack_to(started, address("England"))
    assert said in ack.text
    stored = started.store.submissions("spiel1", "S1901M").get("England")
    assert stored is None or len(stored.orders) <= 2000
    assert len(ack.raw) < 256_000  # one short line per piece read, at most


def test_an_html_body_with_unclosed_tags_is_read_in_one_pass(started: Table) -> None:
    """Attack: an HTML-only body of 120 KB of unclosed ``<a`` tags (quadratic
    for the standard HTML parser).  Outcome: answered; the converter makes
    one pass (every ``find`` moves on), so it stops at the first tag that
    never closes."""
    from adjudicator.mail.body import html_to_text

    assert html_to_text("<p>SIGNON x</p>" + "<a " * 40_000) == "SIGNON x"
    assert html_to_text("<!--" * 30_000 + "A Lon H") == ""
    message = EmailMessage()
    message["From"] = address("England")
    message["To"] = JUDGE
    message["Subject"] = "html"
    message["Message-ID"] = make_msgid(domain="players.test")
    message.set_content(f"<p>{signon('England')}</p><p>F Lon - Nth</p>" + "<a " * 40_000, subtype="html")
    deliver_raw(started, bytes(message))
    ack = ack_to(started, address("England"))
    assert "line 2: F LON - NTH" in ack.text


def test_a_huge_reply_to_is_left_out_and_the_mail_answered_to_from(started: Table) -> None:
    """Attack: an 830 KB Reply-To of addresses.  Outcome: the header is
    longer than ``limits.header_bytes`` and is not read at all; the answer
    goes to From."""
    huge = ", ".join(f"victim{n}@third.test" for n in range(40_000))
    deliver_raw(started, raw_mail(address("England"), signon("England") + "\nF Lon - Nth", Reply_To=huge))
    ack = ack_to(started, address("England"))
    assert "line 2: F LON - NTH" in ack.text


def test_a_five_megabyte_mail_is_stored_cut_and_answered_too_large(tmp_path: Path) -> None:
    """Attack: a 5 MB mail through ``adjudicator receive``.  Outcome: only
    ``limits.stored_bytes`` (1 MiB) are stored, and the answer says the
    mail was too large to be read."""
    import subprocess
    import sys

    config = tmp_path / "judge.toml"
    config.write_text('[judge]\naddress = "judge@pbem.test"\nlanguage = "en"\n', encoding="utf-8")
    raw = raw_mail(EVE, "SIGNON England spiel1 x\n" + "garbage line\n" * 400_000)
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    run = [sys.executable, "-m", "adjudicator", "--config", str(config)]
    assert subprocess.run([*run, "game", "create", "spiel1", "--variant", "standard"], capture_output=True,
                          cwd=tmp_path, env=env, timeout=120).returncode == 0  # receive makes no database (issue 13)
    assert subprocess.run([*run, "receive"], input=raw, capture_output=True, cwd=tmp_path, env=env,
                          timeout=120).returncode == 0
    store = Store(tmp_path / "var" / "adjudicator.sqlite3")
    (mail,) = store.pending_inbound()
    assert len(mail.raw) == 1024 * 1024 and mail.size == len(raw) > 5_000_000
    store.close()
    assert subprocess.run([*run, "serve", "--once"], capture_output=True, cwd=tmp_path, env=env,
                          timeout=120).returncode == 0
    (answer,) = (tmp_path / "var" / "mail" / "sent" / "new").iterdir()
    text = answer.read_text(encoding="utf-8", errors="replace")
    assert f"The mail is too large ({len(raw)} bytes; at most 1048576) and was not read." in text.replace("=\n", "")


def test_deeply_nested_mime_is_answered_as_unreadable(started: Table) -> None:
    """Attack: MIME nested 2,000 deep.  Outcome: not parsed at all (more
    boundaries than ``limits.mime_parts``); the sender is told."""
    body = b"SIGNON England spiel1 pw-england\r\n"
    for level in range(2000, 0, -1):
        body = (b'Content-Type: multipart/mixed; boundary="n%d"\r\n\r\n--n%d\r\n' % (level, level) + body
                + b"\r\n--n%d--\r\n" % level)
    head = (f"From: {address('England')}\r\nTo: {JUDGE}\r\nSubject: deep\r\n"
            f"Message-ID: {make_msgid(domain='players.test')}\r\nMIME-Version: 1.0\r\n").encode()
    deliver_raw(started, head + body)
    ack = ack_to(started, address("England"))
    assert "The mail's text could not be read (the mail has more than 100 MIME parts)." in ack.text


def test_a_mail_that_fails_twice_is_shunted_and_the_administrator_told(
        started: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    """A mail whose handling fails (or kills the judge) is tried again
    once; after ``limits.mail_attempts`` attempts it is shunted, never
    tried again, and the administrator is told."""
    from adjudicator.service import runner

    started.config = records.replace(started.config, admin="root@pbem.test", admin_password="admin-secret-1")
    started.judge.config = started.config
    real = runner.handle_mail

    def failing(store, config, mail, now):  # type: ignore[no-untyped-def]
        if b"poison" in mail.raw:
            raise RuntimeError("a bug the mail triggers")
        return real(store, config, mail, now)

    monkeypatch.setattr(runner, "handle_mail", failing)
    started.deliver(EVE, "poison")
    assert started.poll() == []
    (mail,) = started.store.pending_inbound()
    assert mail.attempts == 1
    out = started.poll()
    assert [(m.kind, m.to) for m in out] == [("notice", "root@pbem.test")]
    assert "could not be handled 2 times and was set aside (state shunted)" in out[0].text
    assert started.store.inbound(mail.id).state == "shunted" and started.store.pending_inbound() == []
    # a mail that killed the judge four times (claimed, never finished) is shunted without another try
    started.deliver(EVE, "LIST")
    started.judge.take_in()
    (killer,) = started.store.pending_inbound()
    expired = (started.now - timedelta(seconds=1)).isoformat()  # claims of judges that died, long expired
    for dead in ("dead-judge-1", "dead-judge-2", "dead-judge-3", "dead-judge-4"):
        started.store.claim_inbound_lease(killer.id, dead, started.now.isoformat(), expired)
    monkeypatch.setattr(runner, "handle_mail", lambda *a: pytest.fail("tried a third time"))
    assert [m.kind for m in started.poll()] == ["notice"]
    assert started.store.inbound(killer.id).state == "shunted"


def test_a_mail_out_of_time_is_answered_too_complex(started: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    """A mail whose handling takes longer than ``limits.mail_seconds`` is
    cut off (nothing it asked for is kept) and answered "too complex"."""
    import time

    from adjudicator.service import commands

    started.config = records.replace(started.config,
                                         limits=records.replace(started.config.limits, mail_seconds=1))
    started.judge.config = started.config
    real = commands.parse_mail

    def slow(text: str):  # type: ignore[no-untyped-def]
        if "slow-mail" in text:
            time.sleep(3)
        return real(text)

    monkeypatch.setattr(commands, "parse_mail", slow)
    started.deliver(address("England"), signon("England") + "\nF Lon - Nth\nslow-mail")
    ack = ack_to(started, address("England"))
    assert "The mail is too complex to read (time limit exceeded); it was not carried out." in ack.text
    assert started.store.submissions("spiel1", "S1901M").get("England") is None
    assert started.store.pending_inbound() == []


# --- 3. No amplification ----------------------------------------------------------


def test_answers_go_to_the_registered_address_never_to_reply_to(started: Table) -> None:
    """Attack: a mail with a forged From and a Reply-To of a third party.
    Outcome: a stranger is answered at From only; a mail that signs on is
    answered at the seat's registered address, whatever From says."""
    deliver_raw(started, raw_mail(EVE, "HELP", Reply_To="victim@third.test"))
    ack_to(started, EVE)
    deliver_raw(started, raw_mail("other@where.test", signon("England"), Reply_To="victim@third.test"))
    ack = ack_to(started, address("England"))
    assert ack.sections()[0][0] == "SIGNON England spiel1 ****"


def test_costly_commands_are_capped_per_mail(started: Table) -> None:
    """Attack: 2,000 HELP lines and 500 HISTORY lines of one phase in one
    mail.  Outcome: three are carried out, each of the others answered in
    one line; the answer stays small."""
    started.deliver(EVE, "\n".join(["HELP"] * 2000))
    ack = ack_to(started, EVE)
    sections = ack.sections()
    assert sum(1 for echo, _ in sections if echo == "HELP") == 2000
    assert sum(1 for _, lines in sections if lines == [
        "Not carried out: at most 3 HELP or HISTORY of a phase per mail."]) == 1997
    assert len(ack.raw) < 300_000


def test_press_reaches_each_power_once_per_mail(started: Table) -> None:
    """Attack: one player mail of 999 BROADCAST blocks.  Outcome: the first
    reaches every power once (and the GM), every later one is refused."""
    body = [signon("England")] + ["BROADCAST", "Hallo"] * 999
    out = started.send(address("England"), *body)
    press = [m for m in out if m.kind == "press"]
    assert sorted(m.to for m in press) == sorted([*(address(p) for p in POWERS if p != "England"), GM])
    ack = out.one("acknowledgement", address("England"))
    refused = [lines for echo, lines in ack.sections() if echo == "BROADCAST"][1:]
    assert len(refused) == 998 and all(lines == [
        "Not sent: each power gets at most one press message per mail."] for lines in refused)


def test_absences_tell_the_gm_once_per_mail(started: Table) -> None:
    """Attack: 1,999 ABSENT lines.  Outcome: one notice to the GM."""
    lines = [signon("England")] + [f"ABSENT 2027-01-{1 + n % 28:02d} 2027-02-01" for n in range(1999)]
    out = started.send(address("England"), *lines)
    assert [(m.kind, m.to) for m in out if m.to == GM] == [("notice", GM)]


def test_answers_to_strangers_are_capped_per_hour(started: Table) -> None:
    """Attack: 40 LIST mails with the forged From of a victim.  Outcome:
    30 answers in the hour, then none; an hour later again."""
    answered = 0
    for _ in range(40):
        started.deliver("victim@third.test", "LIST")
        answered += len(started.poll())
    assert answered == 30
    started.now += timedelta(hours=1, minutes=1)
    started.deliver("victim@third.test", "LIST")
    assert len(started.poll()) == 1


def test_maps_beyond_the_answer_budget_become_a_note(started: Table) -> None:
    """A HISTORY answer whose map does not fit ``limits.stranger_answer_bytes``
    carries a note instead of the map."""
    for power in POWERS:
        started.deliver(address(power), f"{signon(power)}\nREADY")
    started.poll()
    assert started.phase() == "F1901M"
    started.config = records.replace(started.config,
                                         limits=records.replace(started.config.limits,
                                                                    stranger_answer_bytes=20_000))
    started.judge.config = started.config
    started.deliver(EVE, "HISTORY spiel1 S1901M")
    ack = ack_to(started, EVE)
    assert "Attachment spiel1-S1901M.png left out: the answer would be too large." in ack.text
    assert b"image/png" not in ack.raw


# --- 4. Loops ------------------------------------------------------------------------


def test_an_auto_responder_without_loop_headers_gets_a_bounded_number_of_answers(table: Table) -> None:
    """Attack: a foreign auto-responder that sets no Auto-Submitted and
    drops X-Loop answers every answer of the judge ("I am on holiday").
    Outcome: after 10 answers without a successful command it is no longer
    answered."""
    answers = 0
    for _ in range(15):
        table.deliver("holiday@far.test", "I am on holiday until Monday.")
        answers += len(table.poll())
    assert answers == 10


def test_a_mail_quoting_the_last_answer_is_not_answered(started: Table) -> None:
    """Attack: an auto-responder that sends the judge's answer back,
    without quote marks.  Outcome: not answered, marked ignored."""
    first = started.ack(EVE, "LIST")
    started.deliver(EVE, "Thank you for your mail:\n" + first.text)
    assert started.poll() == []
    (mail,) = [m for m in started.store._db.execute("SELECT state, note FROM inbound ORDER BY seq DESC LIMIT 1")]
    assert mail == ("ignored", "quotes the judge's last answer to this address")
    started.deliver(EVE, "> " + first.text.replace("\n", "\n> ") + "\nLIST")  # a person's reply is answered
    assert len(started.poll()) == 1


# --- 5. Secrecy --------------------------------------------------------------------------


def test_anonymous_press_names_every_power_and_reads_the_same_for_all(started: Table) -> None:
    """Attack: the sender of grey press was the one power missing from its
    list.  Outcome: the list names the sender too, and every recipient
    reads the same text."""
    _gm_password(started)
    started.ack(GM, "GAMEMASTER spiel1 gm-password-1", "GM PRESS GREY")
    out = started.send(address("Russia"), signon("Russia"), "PRESS ANON TO Germany, Italy", "Wer war das?")
    press = {m.to: m.text for m in out if m.kind == "press" and m.to != GM}
    assert sorted(press) == [address("Germany"), address("Italy")]
    assert len(set(press.values())) == 1
    assert "Press from Anonymous to Germany, Italy, Russia:" in press[address("Germany")]


def test_a_gm_who_plays_is_refused_preview_and_dryrun(started: Table) -> None:
    """A GM who holds a seat of the game (here: England's address) may not
    see the would-be result of the orders."""
    game = started.store.game("spiel1")
    assert game is not None
    with started.store.transaction() as db:
        started.store.update_game(db, records.replace(game, gm=address("England")))
    _gm_password(started)
    ack = started.ack(address("England"), "GAMEMASTER spiel1 gm-password-1", "GM PREVIEW", "GM DRYRUN PROCESS S1901M")
    refusal = "Refused, nothing changed: you play in spiel1 yourself, so PREVIEW and DRYRUN are not allowed to you"
    assert ack.section("GM PREVIEW") == [refusal] and ack.section("GM DRYRUN PROCESS S1901M") == [refusal]


# --- 6. Seats -----------------------------------------------------------------------------


def test_one_address_takes_one_seat_unless_the_gm_allows_more(table: Table) -> None:
    """Attack: one stranger mail of seven SIGNON lines takes every seat and
    starts the game.  Outcome: the first seat only (and at most three lines
    are tried); with GM SEATS 2 a second one."""
    table.create()
    lines = [f"SIGNON {p} spiel1 stranger-pw" for p in POWERS]
    ack = table.ack(EVE, *lines)
    assert ack.sections()[0][1][0] == "You now play Austria in spiel1. Keep your password: every mail needs it."
    assert ack.sections()[1][1] == ["Your address already holds 1 seat(s) in spiel1; the game master allows no more."]
    assert ack.sections()[3][1] == [NOT_TRIED]
    assert [p.power for p in table.store.players("spiel1") if p.status == "playing"] == ["Austria"]
    _gm_password(table)
    table.ack(GM, "GAMEMASTER spiel1 gm-password-1", "GM SEATS 2")
    ack = table.ack(EVE, "SIGNON England spiel1 stranger-pw")
    assert ack.sections()[0][1][0] == "You now play England in spiel1. Keep your password: every mail needs it."


def test_random_powers_refuse_a_named_sign_on(table: Table) -> None:
    """Attack: ``SIGNON France g3 pw`` in a game whose GM set random powers.
    Outcome: refused with the way to apply."""
    table.create()
    _gm_password(table)
    table.ack(GM, "GAMEMASTER spiel1 gm-password-1", "GM RANDOM ON")
    ack = table.ack(EVE, "SIGNON France spiel1 stranger-pw")
    assert ack.sections()[0][1] == [
        "Powers in spiel1 are assigned at random: please use SIGNON ANY spiel1 <password>."]
    assert all(p.status == "open" for p in table.store.players("spiel1"))


def test_sign_ons_can_wait_for_the_gms_approval(table: Table) -> None:
    """With GM APPROVAL ON a sign-on waits; the GM is told, approves or
    rejects; a rejected seat is open again."""
    table.create()
    _gm_password(table)
    table.ack(GM, "GAMEMASTER spiel1 gm-password-1", "GM APPROVAL ON")
    out = table.send("anna@players.test", "SIGNON England spiel1 anna-pw-1")
    assert out.one("acknowledgement", "anna@players.test").sections()[0][1] == [
        "Your sign-on as England in spiel1 waits for the game master's approval; you will be told."]
    assert "GM APPROVE England" in out.one("notice", GM).text
    out = table.send(GM, "GAMEMASTER spiel1 gm-password-1", "GM APPROVE England")
    assert out.one("notice", "anna@players.test")
    table.send("bert@players.test", "SIGNON France spiel1 bert-pw-12")
    table.send(GM, "GAMEMASTER spiel1 gm-password-1", "GM REJECT France")
    seats = {p.power: p.status for p in table.store.players("spiel1")}
    assert (seats["England"], seats["France"]) == ("playing", "open")


# --- 12. Robustness --------------------------------------------------------------------


def test_a_malformed_gm_argument_gets_an_error_answer(table: Table) -> None:
    """Attack: ``GM ASSIGN Austria a,b@x.test`` (the judge crashed, the GM
    got no answer).  Outcome: refused, nothing changed."""
    table.create()
    _gm_password(table)
    ack = table.ack(GM, "GAMEMASTER spiel1 gm-password-1", "GM ASSIGN Austria a,b@x.test", "GM SEATS 0")
    assert ack.section("GM ASSIGN Austria a,b@x.test") == [
        "Refused, nothing changed: not a usable mail address: a,b@x.test"]
    assert ack.section("GM SEATS 0") == ["Refused, nothing changed: 0 is not between 1 and 50"]
    assert all(p.status == "open" for p in table.store.players("spiel1"))


def test_preview_and_dryrun_keep_sealed_plays_secret_and_are_audited(tmp_path: Path) -> None:
    """Attack: the GM of an 1848 game asks GM PREVIEW and GM DRYRUN PROCESS
    while one sealed play is in.  Outcome: only how many plays are in; the
    would-be mails without their content; both in the audit trail."""
    from tests.test_revolution1848_service import Table as CardTable
    from tests.test_revolution1848_service import seated

    cards = CardTable(tmp_path)
    seated(cards, "rev")
    phase = cards.phase("rev")
    play = cards.person("rev", "A")
    cards.play("rev", "A", play)
    game = cards.store.game("rev")
    assert game is not None
    with cards.store.transaction() as db:
        cards.store.update_game(db, records.replace(
            game, settings={**game.settings, "gm_password_hash": hash_password("gm-password-1")}))
    (ack,) = [m for m in cards.send(GM, "GAMEMASTER rev gm-password-1", "GM PREVIEW", f"GM DRYRUN PROCESS {phase}")
              if m.kind == "acknowledgement"]
    assert f"Preview of {phase}: 1 of 2 sealed plays are in; what they are stays secret until they are revealed." \
        in ack.text
    assert "(content hidden: sealed plays and hands stay secret until they are revealed)" in ack.text
    assert play.split()[1] not in ack.text
    assert [entry.command for entry in cards.store.audit("rev")][-2:] == ["PREVIEW", f"DRYRUN PROCESS {phase}"]
    assert cards.phase("rev") == phase
    cards.store.close()


# --- 8. At rest ----------------------------------------------------------------------------


def test_files_are_owner_only_and_raw_mail_is_masked_and_purged(tmp_path: Path) -> None:
    """The database, its WAL, the Maildirs and the lock are owner-only; the
    raw mail keeps no password once handled; ``adjudicator purge`` drops
    handled raw mail and sent mail after the retention."""
    import subprocess
    import sys

    config = tmp_path / "judge.toml"
    config.write_text('[judge]\naddress = "judge@pbem.test"\nlanguage = "en"\n[limits]\nretention = "1s"\n',
                      encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    run = [sys.executable, "-m", "adjudicator", "--config", str(config)]

    def cli(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run([*run, *args], input=stdin, capture_output=True, cwd=tmp_path, env=env, timeout=120)

    assert cli("game", "create", "spiel1", "--variant", "standard").returncode == 0
    assert cli("receive", stdin=raw_mail(address("England"), "SIGNON England spiel1 secret-pw-1")).returncode == 0
    assert cli("serve", "--once").returncode == 0
    var = tmp_path / "var"
    database = var / "adjudicator.sqlite3"
    for path in [database, *var.glob("adjudicator.sqlite3*"), *(var / "mail").rglob("*")]:
        mode = stat.S_IMODE(path.stat().st_mode)
        assert mode & 0o077 == 0, (path, oct(mode))
    store = Store(database)
    (mail,) = store._db.execute("SELECT raw, state FROM inbound").fetchall()
    assert mail[1] == "done" and b"secret-pw-1" not in bytes(mail[0]) and b"SIGNON England spiel1 ****" in bytes(mail[0])
    store.close()
    import time

    time.sleep(1.5)
    done = cli("purge")
    assert done.returncode == 0 and b"1 raw mails emptied, 1 sent mails" in done.stdout, done.stdout
    store = Store(database)
    assert store._db.execute("SELECT LENGTH(raw) FROM inbound").fetchall() == [(0,)]
    assert store._db.execute("SELECT COUNT(*) FROM outbox").fetchone() == (0,)
    store.close()
    again = cli("receive", stdin=b"")  # nothing on stdin: refused, nothing stored
    assert again.returncode == 2


# --- 10. Time ----------------------------------------------------------------------------


def test_a_mail_counts_at_its_arrival_time(tmp_path: Path) -> None:
    """The Maildir file's delivery time, the moment of ``receive``, and only
    without either the Date header, bounded to ten minutes before the
    intake; never later than the intake."""
    import mailbox
    from datetime import datetime, timezone
    from email.utils import format_datetime

    from adjudicator.service.intake import Incoming, MaildirIntake, arrival_time, take_in

    now = datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc)
    box = mailbox.Maildir(tmp_path / "in", create=True)
    key = box.add(mailbox.MaildirMessage(raw_mail(EVE, "LIST")))
    delivered = datetime(2026, 12, 1, 11, 0, tzinfo=timezone.utc)
    path = next((tmp_path / "in" / "new").iterdir())
    os.utime(path, (delivered.timestamp(), delivered.timestamp()))
    store = Store(tmp_path / "j.sqlite3")
    ((stored, _),) = take_in(store, MaildirIntake(tmp_path / "in"), now.isoformat())
    assert stored.source == f"maildir:{key}" and stored.received_at == delivered.isoformat()
    store.close()
    assert arrival_time(read_pipe(b"x", now), now) == now

    def dated(when: datetime) -> Incoming:
        return Incoming(raw_mail(EVE, "LIST", Date=format_datetime(when)), "test")

    assert arrival_time(dated(now - timedelta(minutes=5)), now) == now - timedelta(minutes=5)
    assert arrival_time(dated(now - timedelta(days=1)), now) == now - timedelta(minutes=10)
    assert arrival_time(dated(now + timedelta(days=1)), now) == now
    assert arrival_time(Incoming(b"Date: garbage\r\n\r\nx", "test"), now) == now


def test_an_order_arriving_after_the_deadline_counts_for_the_next_phase(started: Table) -> None:
    """Attack: an order dropped into the mailbox 2 s after the deadline,
    before the judge polled.  Outcome: the phase is resolved without it;
    it is stored for the next phase."""
    from tests.test_service_commands import FIRST_DEADLINE

    started.now = FIRST_DEADLINE + timedelta(seconds=2)
    started.deliver(address("Austria"), f"{signon('Austria')}\nA Vie - Tyr")
    started.now = FIRST_DEADLINE + timedelta(seconds=30)
    out = started.poll()
    assert started.store.phases("spiel1")[0].orders.get("Austria") in (None, [])
    ack = out.one("acknowledgement", address("Austria"))
    assert ack.machine("Phase") == ["F1901M"]
    assert started.store.submissions("spiel1", "F1901M")["Austria"].orders == ("A VIE - TYR",)


# --- 11. Start-up and restarts ---------------------------------------------------------------


def test_a_restart_after_a_missed_deadline_uses_exactly_the_last_sets_sent_before_it(started: Table) -> None:
    """The judge is down across the deadline while five players mail
    orders (three of them replacing sets handled before it went down) and
    one more mails after the deadline.  At the restart the mailbox is read
    first: the phase uses exactly each player's last set sent before the
    deadline, and the late mail counts for the next phase."""
    from tests.test_service_commands import FIRST_DEADLINE

    for power, line in (("Austria", "A Vie H"), ("England", "F Lon H"), ("France", "A Par H")):
        started.orders(power, line)  # handled before the judge went down
    started.now = FIRST_DEADLINE - timedelta(hours=2)
    latest = {"Austria": "A Vie - Tyr", "England": "F Lon - Nth", "France": "A Par - Bur",
              "Germany": "A Mun - Ruh", "Italy": "A Ven - Tyr"}
    for power, line in latest.items():
        started.deliver(address(power), f"{signon(power)}\n{line}")
        started.now += timedelta(minutes=10)
    started.now = FIRST_DEADLINE + timedelta(minutes=5)
    started.deliver(address("Russia"), f"{signon('Russia')}\nA War - Gal")
    started.now = FIRST_DEADLINE + timedelta(hours=6)
    restarted = type(started.judge)(started.config, started.store, started.mailbox, clock=lambda: started.now)
    restarted.start_up()
    orders = started.store.phases("spiel1")[0].orders
    assert {p: o for p, o in orders.items() if o} == {
        "Austria": ["A VIE - TYR"], "England": ["F LON - NTH"], "France": ["A PAR - BUR"],
        "Germany": ["A MUN - RUH"], "Italy": ["A VEN - TYR"]}
    assert started.phase() == "F1901M"
    assert started.store.submissions("spiel1", "F1901M")["Russia"].orders == ("A WAR - GAL",)
    report = next(m for m in started.sent() if m.kind == "report" and m.to == GM)
    assert "No orders received (NMR): Russia, Turkey" in report.text


class _Unreachable:
    """A mailbox that cannot be reached until ``up`` is set; then its mails."""

    def __init__(self, box: list) -> None:  # type: ignore[type-arg]
        self.up = False
        self.box = box
        self.tries = 0

    def waiting(self):  # type: ignore[no-untyped-def]
        from adjudicator.service.imap import ImapSettings, MailboxUnavailable

        self.tries += 1
        if not self.up:
            raise MailboxUnavailable(ImapSettings("imap.test", 993, "ssl", "judge", "secret"), "connection refused")
        yield from list(self.box)

    def taken(self, incoming):  # type: ignore[no-untyped-def]
        self.box.remove(incoming)


def test_a_deadline_inside_the_intake_back_off_waits_for_the_mailbox(started: Table) -> None:
    """The mailbox fails just before the deadline (the judge backs off);
    orders sent before the deadline wait in it.  The deadline tries the
    mailbox anyway, waits while it cannot be reached (the GM is told once),
    and resolves with those orders once it can; without the mailbox it
    waits at most ``limits.mailbox_wait``."""
    from tests.test_service_commands import FIRST_DEADLINE

    mailbox = _Unreachable(started.mailbox.box)
    started.judge.transport = mailbox
    started.now = FIRST_DEADLINE - timedelta(minutes=1)
    started.deliver(address("Austria"), f"{signon('Austria')}\nA Vie - Tyr")
    started.judge.poll()
    assert started.judge.mailbox_retry_at is not None  # backing off
    started.now = FIRST_DEADLINE + timedelta(seconds=1)
    tries = mailbox.tries
    out = started.poll()
    assert mailbox.tries > tries, "the deadline did not try the mailbox"
    assert started.phase() == "S1901M"
    assert [(m.kind, m.to) for m in out] == [("notice", GM)]
    assert "the mailbox cannot be reached" in out[0].text
    started.now += timedelta(minutes=2)
    assert started.poll() == [] and started.phase() == "S1901M"  # told once
    mailbox.up = True
    started.now += timedelta(minutes=2)
    started.poll()
    assert started.phase() == "F1901M"
    assert started.store.phases("spiel1")[0].orders["Austria"] == ["A VIE - TYR"]
    mailbox.up = False  # the next deadline: the mailbox stays away longer than the limit
    game = started.store.game("spiel1")
    assert game is not None and game.deadline is not None
    from datetime import datetime

    started.now = datetime.fromisoformat(game.deadline) + timedelta(hours=1, minutes=1)
    started.poll()
    assert started.phase() == "S1902M"


def test_a_redelivered_mail_without_message_id_is_answered_once(started: Table) -> None:
    """The same mail without a Message-ID delivered twice, with new trace
    headers: stored and answered once."""
    body = f"From: {EVE}\r\nTo: {JUDGE}\r\nSubject: list\r\n\r\nLIST\r\n".encode()
    first = b"Received: from a.test by mx.test; Tue, 1 Dec 2026 10:00:00 +0000\r\nDelivered-To: judge@pbem.test\r\n" + body
    again = b"Received: from b.test by mx2.test; Tue, 1 Dec 2026 11:00:00 +0000\r\nReturn-Path: <eve@evil.test>\r\n" + body
    deliver_raw(started, first)
    deliver_raw(started, again)
    assert [(m.kind, m.to) for m in started.poll()] == [("acknowledgement", EVE)]


def _serve_config(folder: Path) -> Path:
    config = folder / "judge.toml"
    config.write_text('[judge]\naddress = "judge@pbem.test"\nlanguage = "en"\n[service]\npoll_interval = 0.3\n',
                      encoding="utf-8")
    return config


def test_a_second_serve_on_one_database_is_refused(tmp_path: Path) -> None:
    """A second ``adjudicator serve`` on the same configuration exits 75
    with a clear message; the first keeps running."""
    import subprocess
    import sys
    import time

    config = _serve_config(tmp_path)
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    command = [sys.executable, "-m", "adjudicator", "--config", str(config), "serve"]
    first = subprocess.Popen(command, cwd=tmp_path, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        lock = tmp_path / "var" / "adjudicator.sqlite3.lock"
        for _ in range(300):
            if lock.exists() and lock.read_text().strip() == str(first.pid):
                break
            time.sleep(0.1)
        second = subprocess.run([*command, "--once"], cwd=tmp_path, env=env, capture_output=True, text=True,
                                timeout=120)
        assert second.returncode == 75
        assert f"another adjudicator serve is running on {tmp_path / 'var' / 'adjudicator.sqlite3'} " \
               f"(process {first.pid})" in second.stderr
        assert first.poll() is None
    finally:
        first.terminate()
        first.wait(timeout=30)


# A judge's polls as a plain process (no serve lock).  Its first heartbeat
# on SQLite takes over whatever any other instance holds (the one judge of
# an SQLite file, coordination.Coordinator.heartbeat): so both judges make
# it, and wait at a barrier of files in argv[3] until both have, before
# either claims a mail; from then on only the conditional claims keep
# them apart.
_JUDGE_LOOP = """
import asyncio, os, sys, time
from pathlib import Path
from adjudicator.config import load_config
from adjudicator.service.runner import Judge, make_transport
from adjudicator.service.store import Store
config = load_config(Path(sys.argv[1]))
store = Store(config.database)
judge = Judge(config, store, make_transport(config))
judge.peers.heartbeat()
barrier = Path(sys.argv[3])
(barrier / str(os.getpid())).touch()
deadline = time.monotonic() + 120
while len(list(barrier.iterdir())) < int(sys.argv[4]):
    assert time.monotonic() < deadline, "the other judge never started"
    time.sleep(0.01)
for _ in range(int(sys.argv[2])):
    judge.poll()
    asyncio.run(judge.send())
"""


def test_two_judges_on_one_database_never_answer_or_send_twice(tmp_path: Path) -> None:
    """With the lock bypassed (two judges run as plain processes on one
    database, one mailbox and one outgoing Maildir), 40 waiting mails are
    each answered once and each answer is delivered once: every claim is a
    conditional update."""
    import mailbox
    import subprocess
    import sys

    config = _serve_config(tmp_path)
    (tmp_path / "var" / "mail").mkdir(parents=True)
    inbox = mailbox.Maildir(tmp_path / "var" / "mail" / "inbox", create=True)
    for number in range(40):
        inbox.add(mailbox.MaildirMessage(raw_mail(f"player{number}@players.test", "LIST")))
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    barrier = tmp_path / "barrier"
    barrier.mkdir()
    judges = [subprocess.Popen([sys.executable, "-c", _JUDGE_LOOP, str(config), "6", str(barrier), "2"], cwd=tmp_path,
                               env=env, stderr=subprocess.PIPE) for _ in range(2)]
    for judge in judges:
        _, errors = judge.communicate(timeout=300)
        assert judge.returncode == 0, errors.decode()
    sent = [m for m in mailbox.Maildir(tmp_path / "var" / "mail" / "sent", create=False)]
    assert len(sent) == 40
    assert sorted(str(m["To"]) for m in sent) == sorted(f"player{n}@players.test" for n in range(40))
    store = Store(tmp_path / "var" / "adjudicator.sqlite3")
    assert store._db.execute("SELECT state, COUNT(*) FROM inbound GROUP BY state").fetchall() == [("done", 40)]
    assert store._db.execute("SELECT COUNT(*) FROM outbox").fetchone() == (40,)
    store.close()


def test_the_outbox_command_lists_a_mail_refused_for_good(table: Table) -> None:
    """``adjudicator outbox`` shows a mail the SMTP server refused for good."""
    import io
    import json

    from adjudicator.cli import main

    table.deliver(EVE, "LIST")
    table.judge.poll()
    (mail,) = table.store.unsent_mail()
    table.store.give_up(mail.id, table.now.isoformat(), "SMTP server smtp.test:25: 550 no such user")
    config = table.config.database.parent / "judge.toml"
    config.write_text(f'[database]\npath = "{table.config.database}"\n', encoding="utf-8")
    out = io.StringIO()
    assert main(["--config", str(config), "outbox", "--json"], stdout=out) == 0
    (listed,) = json.loads(out.getvalue())
    assert (listed["id"], listed["state"]) == (mail.id, "refused") and "550" in listed["last_error"]
    out = io.StringIO()
    assert main(["--config", str(config), "outbox"], stdout=out) == 0
    assert "refused for good" in out.getvalue()
