"""render_message: OutgoingMail -> RFC 5322 bytes; and no header injection, whatever we are given."""

from __future__ import annotations

from datetime import UTC, datetime
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import default

import pytest

from app.mail.reading.messages import Attachment, OutgoingMail, parse_message, render_message

JUDGE = "Postal Judge <judge@judge.test>"
WHEN = datetime(1901, 3, 1, 12, 0, tzinfo=UTC)


def parsed(raw: bytes) -> EmailMessage:
    msg = message_from_bytes(raw, policy=default)
    assert isinstance(msg, EmailMessage)
    return msg


def content(part: object) -> str:
    """The decoded text of a part, line ends as in Python (the wire has CRLF)."""
    assert isinstance(part, EmailMessage)
    text = part.get_content()
    assert isinstance(text, str)
    return text.replace("\r\n", "\n")


def test_plain_text_mail() -> None:
    raw = render_message(
        OutgoingMail(to="france@example.org", subject="Spring 1901 results", text="A PAR-BUR\nF BRE-MAO"),
        JUDGE,
        date=WHEN,
    )
    msg = parsed(raw)
    assert msg["From"] == JUDGE
    assert msg["To"] == "france@example.org"
    assert msg["Subject"] == "Spring 1901 results"
    assert msg["Auto-Submitted"] == "auto-replied"
    assert msg["Date"] == "Fri, 01 Mar 1901 12:00:00 +0000"
    assert msg["Message-ID"].endswith("@judge.test>")
    assert msg.get_content_type() == "text/plain"
    assert content(msg) == "A PAR-BUR\nF BRE-MAO\n"
    assert b"\r\n" in raw and b"\n" not in raw.replace(b"\r\n", b"")


def test_output_is_seven_bit_and_round_trips_unicode() -> None:
    mail = OutgoingMail(
        to="Élise Müller <elise@example.org>",
        subject="Résultats — Printemps 1901 ✓",
        text="Armée à Paris\nАрмия в Москве\n",
        html="<p>Armée à Paris</p>",
    )
    raw = render_message(mail, JUDGE)
    assert raw.isascii()
    assert all(len(line) <= 998 for line in raw.split(b"\r\n"))
    incoming = parse_message(raw)
    assert incoming.subject == mail.subject
    assert incoming.text == mail.text
    assert incoming.to == ("elise@example.org",)
    assert incoming.automatic  # our own mail must never be answered by another judge


def test_text_and_html_are_alternatives() -> None:
    raw = render_message(
        OutgoingMail(to="a@example.org", subject="s", text="plain", html="<b>rich</b>"), JUDGE
    )
    msg = parsed(raw)
    assert msg.get_content_type() == "multipart/alternative"
    assert [p.get_content_type() for p in msg.iter_parts()] == ["text/plain", "text/html"]
    assert content(msg.get_body(("html",))) == "<b>rich</b>\n"


def test_attachments() -> None:
    png = b"\x89PNG\r\n\x1a\n" + bytes(range(256))
    mail = OutgoingMail(
        to="a@example.org",
        subject="map",
        text="see the map",
        html="<p>see the map</p>",
        attachments=(Attachment("spring-1901.png", "image/png", png),),
    )
    msg = parsed(render_message(mail, JUDGE))
    assert msg.get_content_type() == "multipart/mixed"
    [attachment] = list(msg.iter_attachments())
    assert attachment.get_filename() == "spring-1901.png"
    assert attachment.get_content() == png
    assert parse_message(render_message(mail, JUDGE)).text == "see the map\n"


def test_threading_and_reply_headers() -> None:
    mail = OutgoingMail(
        to="a@example.org",
        subject="Re: orders",
        text="ok",
        message_id="<ack-1@judge.test>",
        in_reply_to="<orders-1@example.org>",
        reply_to="judge+t0k3n@judge.test",
        sender="Fgame judge <judge+game@judge.test>",
    )
    msg = parsed(render_message(mail, JUDGE))
    assert msg["Message-ID"] == "<ack-1@judge.test>"
    assert msg["In-Reply-To"] == "<orders-1@example.org>"
    assert msg["References"] == "<orders-1@example.org>"
    assert msg["Reply-To"] == "judge+t0k3n@judge.test"
    assert msg["From"] == "Fgame judge <judge+game@judge.test>"


def test_malformed_in_reply_to_is_left_out_not_fatal() -> None:
    mail = OutgoingMail(to="a@example.org", subject="s", text="t", in_reply_to="not a message id ü")
    assert parsed(render_message(mail, JUDGE))["In-Reply-To"] is None


INJECTIONS = [
    {"subject": "Results\r\nBcc: everyone@example.org"},
    {"subject": "Results\nBcc: everyone@example.org"},
    {"subject": "Results\rBcc: everyone@example.org"},
    {"subject": "Results\u2028Bcc: everyone@example.org"},
    {"subject": "Results\x85Bcc: everyone@example.org"},
    {"subject": "Results\x00"},
    {"to": "a@example.org\r\nBcc: everyone@example.org"},
    {"to": "a@example.org, b@example.org"},
    {"to": "a@example.org\nb@example.org"},
    {"to": "not an address"},
    {"to": ""},
    {"sender": "judge@judge.test\r\nBcc: everyone@example.org"},
    {"reply_to": "x@example.org\r\nBcc: everyone@example.org"},
    {"reply_to": "x@example.org, y@example.org"},
    {"message_id": "<a@b>\r\nBcc: everyone@example.org"},
    {"message_id": "no-angle-brackets"},
    {"in_reply_to": "<a@b>\r\nBcc: everyone@example.org"},
    {"attachments": (Attachment("x.txt\r\nBcc: e@example.org", "text/plain", b"x"),)},
    {"attachments": (Attachment("x.txt", "text/plain\r\nBcc: e@example.org", b"x"),)},
    {"attachments": (Attachment("x.txt", "nonsense", b"x"),)},
]


@pytest.mark.parametrize("changes", INJECTIONS, ids=lambda c: repr(c)[:60])
def test_header_injection_is_refused(changes: dict[str, object]) -> None:
    fields: dict[str, object] = {"to": "a@example.org", "subject": "Results", "text": "body"}
    fields.update(changes)
    with pytest.raises(ValueError):
        render_message(OutgoingMail(**fields), JUDGE)  # type: ignore[arg-type]


def test_injection_in_the_default_sender_is_refused() -> None:
    with pytest.raises(ValueError):
        render_message(OutgoingMail(to="a@example.org", subject="s", text="t"), "j@judge.test\r\nBcc: x@y.z")


def test_line_breaks_in_the_body_are_harmless() -> None:
    text = "line one\r\nBcc: everyone@example.org\r\n\r\nline three\rline four"
    raw = render_message(OutgoingMail(to="a@example.org", subject="s", text=text), JUDGE)
    msg = parsed(raw)
    assert msg["Bcc"] is None
    assert content(msg) == "line one\nBcc: everyone@example.org\n\nline three\nline four\n"


def test_a_subject_copied_from_a_hostile_incoming_mail_renders_safely() -> None:
    hostile = parse_message(
        b"From: eve@example.org\r\nSubject: =?utf-8?q?hi=0D=0ABcc=3A_all=40example=2Eorg?=\r\n\r\nx\r\n"
    )
    raw = render_message(OutgoingMail(to=hostile.sender, subject="Re: " + hostile.subject, text="ok"), JUDGE)
    msg = parsed(raw)
    assert msg["Bcc"] is None
    assert msg["Subject"] == "Re: hi Bcc: all@example.org"


def test_very_long_subject_is_folded() -> None:
    subject = "Results " + "word " * 100
    raw = render_message(OutgoingMail(to="a@example.org", subject=subject, text="t"), JUDGE)
    assert all(len(line) <= 78 for line in raw.split(b"\r\n\r\n")[0].split(b"\r\n"))
    assert parse_message(raw).subject == subject.strip()
