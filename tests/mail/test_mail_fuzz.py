"""Fuzz: parse_message never raises, on arbitrary bytes and on mutated real messages."""

from __future__ import annotations

import unicodedata
from datetime import UTC, datetime
from email.message import EmailMessage

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.mail.reading import read_text
from app.mail.reading.messages import IncomingMail, OutgoingMail, parse_message, render_message
from tests.support.hypothesis_profiles import examples


def _multipart() -> bytes:
    msg = EmailMessage()
    msg["From"] = "Élise <elise@example.org>"
    msg["To"] = "judge@judge.test"
    msg["Subject"] = "Ordres — printemps"
    msg["Message-ID"] = "<m1@example.org>"
    msg.set_content("SIGNON Fgame pw\nA PAR-BUR\nSIGNOFF\n")
    msg.add_alternative("<p>SIGNON Fgame pw</p><p>A PAR-BUR</p>", subtype="html")
    msg.add_attachment(b"\x00\x01binary", maintype="application", subtype="octet-stream", filename="x.bin")
    return msg.as_bytes()


SEEDS = [
    _multipart(),
    render_message(
        OutgoingMail(to="a@example.org", subject="Résultats", text="Armée\n", html="<b>x</b>"),
        "j@judge.test",
        date=datetime(1901, 1, 1, tzinfo=UTC),
    ),
    b"From: p@example.org\r\nContent-Type: text/plain; charset=koi8-r\r\n"
    b"Content-Transfer-Encoding: base64\r\n\r\n4dLNydEK\r\n",
    b"From: =?iso-2022-jp?b?GyRCJUklJCVEGyhC?= <p@example.org>\r\nAuto-Submitted: auto-replied\r\n"
    b'Content-Type: multipart/report; boundary="r"\r\n\r\n--r\r\nContent-Type: text/plain\r\n\r\nx\r\n'
    b"--r\r\nContent-Type: message/rfc822\r\n\r\nFrom: q@example.org\r\n\r\ninner\r\n--r--\r\n",
]

TOKENS = [
    b"\r\n",
    b"\n",
    b"\r\n\r\n",
    b"--",
    b'boundary="',
    b"Content-Type: multipart/mixed; boundary=",
    b"Content-Type: message/rfc822\r\n",
    b"Content-Transfer-Encoding: base64\r\n",
    b"Content-Transfer-Encoding: quoted-printable\r\n",
    b"charset=",
    b"=?utf-8?b?",
    b"=?x-unknown?q?",
    b"?=",
    b"=\r\n",
    b"=FF",
    b":",
    b";",
    b"\x00",
    b"\xff\xfe",
    b"<",
    b">",
    b"From: ",
    b"filename*=utf-8''",
]


def check(mail: IncomingMail) -> None:
    assert isinstance(mail, IncomingMail)
    for value in (mail.message_id, mail.sender, mail.sender_name, mail.subject):
        assert isinstance(value, str) and "\r" not in value and "\n" not in value
    assert all(isinstance(a, str) and "@" in a for a in mail.to)
    assert isinstance(mail.text, str)
    assert all(isinstance(p, str) for p in mail.problems)
    for text in (mail.message_id, mail.sender_name, mail.subject, mail.text, *mail.to, *mail.problems):
        text.encode("utf-8")  # storable: no lone surrogates


@settings(max_examples=examples(400), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=4000))
def test_arbitrary_bytes(raw: bytes) -> None:
    check(parse_message(raw))


@st.composite
def mutated(draw: st.DrawFn) -> bytes:
    data = bytearray(draw(st.sampled_from(SEEDS)))
    for _ in range(draw(st.integers(1, 8))):
        position = draw(st.integers(0, len(data)))
        action = draw(st.sampled_from(["insert", "delete", "flip", "token", "truncate"]))
        if action == "insert":
            data[position:position] = draw(st.binary(min_size=1, max_size=20))
        elif action == "delete":
            del data[position : position + draw(st.integers(1, 200))]
        elif action == "flip" and position < len(data):
            data[position] = draw(st.integers(0, 255))
        elif action == "token":
            data[position:position] = draw(st.sampled_from(TOKENS))
        elif action == "truncate":
            del data[position:]
    return bytes(data)


@settings(max_examples=examples(600), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_mutated_real_messages(raw: bytes) -> None:
    check(parse_message(raw))


@settings(max_examples=examples(300), deadline=None)
@given(st.text(max_size=300), st.text(max_size=300))
def test_rendered_mail_round_trips_or_is_refused(subject: str, text: str) -> None:
    mail = OutgoingMail(to="a@example.org", subject=subject, text=text)
    try:
        raw = render_message(mail, "judge@judge.test")
    except ValueError:
        # refused only for characters that could break a header line
        assert any(unicodedata.category(ch) in ("Cc", "Zl", "Zp") and ch != "\t" for ch in subject)
        return
    assert raw.isascii()
    expected = text.replace("\r\n", "\n").replace("\r", "\n")
    expected = (expected if expected.endswith("\n") else expected + "\n").replace("\x00", "")
    incoming = parse_message(raw)
    assert incoming.text == read_text(expected).text  # as sent, less what the reading leaves out (quotes, furniture)
    assert incoming.subject == " ".join(subject.split())
    assert [name for name in _header_names(raw) if name.lower() in ("bcc", "cc")] == []


def _header_names(raw: bytes) -> list[str]:
    head = raw.split(b"\r\n\r\n", 1)[0].decode("ascii")
    return [line.split(":", 1)[0] for line in head.split("\r\n") if line and not line[0].isspace()]
