"""Reading mail as people send it: parts, encodings, charsets, signatures,
quotes and the quoted history of German and English mail clients; and
recognising mail that must never be answered."""

from __future__ import annotations

import email
from email import policy
from email.message import EmailMessage
from email.mime.application import MIMEApplication
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText

import pytest

from adjudicator.mail.body import html_to_text, player_text, strip_reply_noise
from adjudicator.mail.loops import why_not_answered

ORDERS = "A Wien - Galizien\nA Budapest U A Wien - Galizien"


def parse(raw: bytes) -> EmailMessage:
    message = email.message_from_bytes(raw, policy=policy.default)
    assert isinstance(message, EmailMessage)
    return message


def test_plain_utf8() -> None:
    message = EmailMessage()
    message["From"] = "spieler@example.org"
    message.set_content("A München - Böhmen\n")
    assert player_text(parse(message.as_bytes())) == "A München - Böhmen"


@pytest.mark.parametrize("charset", ["iso-8859-1", "windows-1252", "utf-8"])
@pytest.mark.parametrize("encoding", ["quoted-printable", "base64", "8bit"])
def test_charsets_and_transfer_encodings(charset: str, encoding: str) -> None:
    text = "A München - Böhmen\nF Nordsee K A London – Norwegen\n"
    if charset == "iso-8859-1":
        text = text.replace("–", "-")
    part = MIMEText(text, "plain", charset)
    del part["Content-Transfer-Encoding"]
    part.set_payload(text.encode(charset))
    if encoding == "quoted-printable":
        email.encoders.encode_quopri(part)
    elif encoding == "base64":
        email.encoders.encode_base64(part)
    else:
        part["Content-Transfer-Encoding"] = "8bit"
    part["From"] = "spieler@example.org"
    assert player_text(parse(part.as_bytes())) == text.strip()


def test_undeclared_latin1_falls_back() -> None:
    raw = b"From: a@b.c\nContent-Type: text/plain; charset=unknown-8bit\n\nA M\xfcnchen - B\xf6hmen\n"
    assert player_text(parse(raw)) == "A München - Böhmen"


def test_alternative_prefers_plain() -> None:
    message = MIMEMultipart("alternative")
    message.attach(MIMEText("A Vie - Gal", "plain", "utf-8"))
    message.attach(MIMEText("<p>WRONG</p>", "html", "utf-8"))
    assert player_text(parse(message.as_bytes())) == "A Vie - Gal"


def test_html_only_is_turned_into_text() -> None:
    html = (
        "<html><head><style>p {color: red}</style></head><body>"
        "<div>A Wien - Galizien</div><p>A Budapest U A Wien&nbsp;- Galizien<br></p>"
        "<blockquote>F Tri - Alb (quoted)</blockquote></body></html>"
    )
    message = MIMEMultipart("alternative")
    message.attach(MIMEText(html, "html", "utf-8"))
    assert player_text(parse(message.as_bytes())) == ORDERS


def test_attachment_only_gives_no_text() -> None:
    message = MIMEMultipart()
    message.attach(MIMEApplication(b"\x00\x01binary", Name="orders.bin"))
    assert player_text(parse(message.as_bytes())) == ""


def test_text_attachment_is_not_the_body() -> None:
    message = MIMEMultipart()
    message.attach(MIMEText("A Vie - Gal", "plain", "utf-8"))
    attachment = MIMEText("F Tri - Alb", "plain", "utf-8")
    attachment.add_header("Content-Disposition", "attachment", filename="old.txt")
    message.attach(attachment)
    assert player_text(parse(message.as_bytes())) == "A Vie - Gal"


@pytest.mark.parametrize(
    "tail",
    [
        "-- \nMax Mustermann\nA Ber - Sil",
        "\n> A Tri - Ven\n> F Alb H",
        "\nAm 29.11.2026 um 20:15 schrieb Judge <judge@example.org>:\n> alte Befehle\nA Ber - Sil",
        "\nOn Sun, 29 Nov 2026 at 20:15, Judge <judge@example.org> wrote:\nA Ber - Sil",
        "\n-----Ursprüngliche Nachricht-----\nVon: Judge\nGesendet: Sonntag\nA Ber - Sil",
        "\n-----Original Message-----\nFrom: Judge\nA Ber - Sil",
        "\nVon: Judge <judge@example.org>\nGesendet: Sonntag, 29. November 2026 20:15\nAn: spieler\nA Ber - Sil",
    ],
)
def test_reply_noise_is_ignored(tail: str) -> None:
    assert strip_reply_noise(f"{ORDERS}\n{tail}") == ORDERS


def test_a_von_line_without_outlook_headers_is_kept() -> None:
    text = "Von: mir persönlich\nA Vie - Gal"
    assert strip_reply_noise(text) == text


def test_html_entities_and_breaks() -> None:
    assert html_to_text("A&nbsp;M&uuml;nchen&nbsp;-&nbsp;B&ouml;hmen<br>F Kie H") == "A München - Böhmen\nF Kie H"


# --- mail that is never answered ------------------------------------------------


def _mail(**headers: str) -> EmailMessage:
    message = EmailMessage()
    message["From"] = headers.pop("From", "spieler@example.org")
    for name, value in headers.items():
        message[name.replace("_", "-")] = value
    message.set_content("A Vie - Gal")
    return message


@pytest.mark.parametrize(
    "headers, reason",
    [
        ({"Auto_Submitted": "auto-replied"}, "Auto-Submitted: auto-replied"),
        ({"Auto_Submitted": "auto-generated"}, "Auto-Submitted: auto-generated"),
        ({"Precedence": "bulk"}, "Precedence: bulk"),
        ({"Precedence": "list"}, "Precedence: list"),
        ({"X_Loop": "judge@example.org"}, "the judge's own X-Loop header"),
        ({"List_Id": "<dip.example.org>"}, "mailing-list mail"),
        ({"From": "MAILER-DAEMON@example.org"}, "sent by mailer-daemon@example.org"),
        ({"Return_Path": "<>"}, "a bounce (empty Return-Path)"),
    ],
)
def test_never_answered(headers: dict[str, str], reason: str) -> None:
    assert why_not_answered(_mail(**headers), "judge@example.org") == reason


def test_delivery_reports_are_not_answered() -> None:
    report = MIMEMultipart("report")
    report["From"] = "someone@example.org"
    assert why_not_answered(report, "judge@example.org") == "a delivery or read report"


def test_a_players_mail_is_answered() -> None:
    assert why_not_answered(_mail(Auto_Submitted="no", X_Loop="other@example.org"), "judge@example.org") is None


def test_undeclared_8bit_text_is_read_as_utf8_and_latin1_still_works() -> None:
    utf8 = email.message_from_bytes("From: a@b.c\n\nSIGNON Österreich spiel1 pw\n".encode(), policy=policy.default)
    assert player_text(utf8) == "SIGNON Österreich spiel1 pw"
    latin = email.message_from_bytes("From: a@b.c\n\nSIGNON Österreich spiel1 pw\n".encode("latin-1"), policy=policy.default)
    assert player_text(latin) == "SIGNON Österreich spiel1 pw"
