"""parse_message: raw bytes -> IncomingMail, for good mail and for every kind of bad mail."""

from __future__ import annotations

import base64
from email.message import EmailMessage
from email.policy import SMTP

import pytest

from app.mail.reading.messages import TEXT_LIMIT, IncomingMail, derived_message_id, parse_message

PLAIN = (
    b"From: Alice Example <Alice@Example.ORG>\r\n"
    b"To: judge@judge.test\r\n"
    b"Cc: Bob <bob@example.org>, judge@judge.test\r\n"
    b"Subject: Spring 1901 orders\r\n"
    b"Message-ID: <orders-1@example.org>\r\n"
    b"In-Reply-To: <results-7@judge.test>\r\n"
    b"Content-Type: text/plain; charset=us-ascii\r\n"
    b"\r\n"
    b"SIGNON Fgame secret\r\n"
    b"A PAR-BUR\r\n"
    b"SIGNOFF\r\n"
)


def mime(
    text: str | None = None,
    html: str | None = None,
    *,
    headers: dict[str, str] | None = None,
    attachments: tuple[tuple[str, str, bytes], ...] = (),
) -> bytes:
    msg = EmailMessage(policy=SMTP)
    msg["From"] = "player@example.org"
    msg["To"] = "judge@judge.test"
    msg["Subject"] = "orders"
    for name, value in (headers or {}).items():
        msg[name] = value
    if text is not None:
        msg.set_content(text)
        if html is not None:
            msg.add_alternative(html, subtype="html")
    elif html is not None:
        msg.set_content(html, subtype="html")
    for filename, ctype, data in attachments:
        maintype, _, subtype = ctype.partition("/")
        msg.add_attachment(data, maintype=maintype, subtype=subtype, filename=filename)
    return msg.as_bytes()


def single_part(charset: str, body: bytes, subject: bytes = b"orders", cte: str = "8bit") -> bytes:
    return (
        b"From: player@example.org\r\nTo: judge@judge.test\r\nSubject: " + subject + b"\r\n"
        b"MIME-Version: 1.0\r\nContent-Type: text/plain; charset=" + charset.encode() + b"\r\n"
        b"Content-Transfer-Encoding: " + cte.encode() + b"\r\n\r\n" + body
    )


def test_plain_message_fields() -> None:
    mail = parse_message(PLAIN)
    assert mail == IncomingMail(
        message_id="<orders-1@example.org>",
        sender="alice@example.org",
        sender_name="Alice Example",
        to=("judge@judge.test", "bob@example.org"),
        subject="Spring 1901 orders",
        text="SIGNON Fgame secret\nA PAR-BUR\nSIGNOFF\n",
        in_reply_to="<results-7@judge.test>",
        automatic=False,
        problems=(),
    )


def test_recipients_include_delivered_to_and_original_to() -> None:
    raw = b"Delivered-To: Judge+Tok3n@judge.test\r\nX-Original-To: judge+tok3n@judge.test\r\n" + PLAIN
    assert parse_message(raw).to == ("judge@judge.test", "bob@example.org", "judge+tok3n@judge.test")


def test_prefers_plain_part_of_alternative() -> None:
    mail = parse_message(mime("A PAR-BUR\n", "<p>HTML version</p>"))
    assert mail.text == "A PAR-BUR\n"
    assert mail.problems == ()


def test_html_only_mail_is_converted_to_text() -> None:
    html = (
        "<html><head><style>p {color: red}</style><title>x</title></head><body>"
        "<p>SIGNON Fgame secret</p><div>A PAR&nbsp;-&gt; BUR<br>F BRE - MAO</div>"
        "<ul><li>one</li><li>two</li></ul><script>alert(1)</script>"
        "<blockquote><p>old results</p></blockquote><p>SIGNOFF</p></body></html>"
    )
    mail = parse_message(mime(html=html))
    assert mail.text.splitlines() == [
        "SIGNON Fgame secret",
        "A PAR\xa0-> BUR",
        "F BRE - MAO",
        "- one",
        "- two",
        "> old results",
        "SIGNOFF",
    ]
    assert "alert" not in mail.text and "color" not in mail.text


@pytest.mark.parametrize(
    ("charset", "text"),
    [
        ("iso-8859-1", "Armée de Paris -> Bourgogne, ça marche"),
        ("latin-1", "Flotte à Brest"),
        ("iso-2022-jp", "ドイツ軍 ベルリン から キール"),
        ("koi8-r", "Армия Москва - Севастополь"),
        ("windows-1252", "“Quoted” – dash"),
        ("utf-8", "Αθήνα ✓"),
        ("shift_jis", "東京"),
    ],
)
def test_charsets_are_decoded(charset: str, text: str) -> None:
    raw = single_part(charset, text.encode(charset) + b"\r\n")
    mail = parse_message(raw)
    assert mail.text == text + "\n"
    assert mail.problems == ()


@pytest.mark.parametrize("cte", ["base64", "quoted-printable"])
def test_transfer_encodings_are_decoded(cte: str) -> None:
    text = "Armée à Paris\n"
    body = base64.encodebytes(text.encode("latin-1")) if cte == "base64" else b"Arm=E9e =E0 Paris\r\n"
    assert parse_message(single_part("iso-8859-1", body, cte=cte)).text == text


def test_encoded_words_in_headers() -> None:
    raw = (
        b"From: =?koi8-r?b?98HT0Q==?= <vasya@example.ru>\r\n"
        b"Subject: =?iso-2022-jp?b?GyRCJUklJCVEGyhC?= orders\r\n"
        b"To: judge@judge.test\r\n\r\nbody\r\n"
    )
    mail = parse_message(raw)
    assert mail.sender_name == "Вася"
    assert mail.subject == "ドイツ orders"


@pytest.mark.parametrize("encoding", ["utf-8", "cp1252"])
def test_raw_8bit_headers(encoding: str) -> None:
    raw = "From: Élise <Elise@example.org>\r\nSubject: Armée à Paris\r\n\r\nx\r\n".encode(encoding)
    mail = parse_message(raw)
    assert (mail.subject, mail.sender_name, mail.sender) == ("Armée à Paris", "Élise", "elise@example.org")


def test_undeclared_charset_falls_back_to_windows_1252() -> None:
    raw = b"From: p@example.org\r\nSubject: x\r\n\r\nArm\xe9e\r\n"
    mail = parse_message(raw)
    assert mail.text == "Armée\n"
    assert any("not UTF-8" in p for p in mail.problems)


def test_undeclared_charset_reads_utf8() -> None:
    assert parse_message("From: p@example.org\r\n\r\nArmée\r\n".encode()).text == "Armée\n"


def test_mislabelled_ascii_that_is_utf8() -> None:
    mail = parse_message(single_part("us-ascii", "Armée\n".encode()))
    assert mail.text == "Armée\n"
    assert mail.problems == ()


def test_unknown_charset_is_reported_and_read_as_utf8() -> None:
    mail = parse_message(single_part("x-klingon", b"A PAR-BUR\n"))
    assert mail.text == "A PAR-BUR\n"
    assert any("unknown charset 'x-klingon'" in p for p in mail.problems)


@pytest.mark.parametrize("charset", ["unicode_escape", "idna", "base64", "rot13", "zlib"])
def test_charsets_that_are_not_text_encodings_are_refused(charset: str) -> None:
    mail = parse_message(single_part(charset, b"A PAR-BUR \\u0041\n"))
    assert mail.text.startswith("A PAR-BUR")
    assert any("charset" in p for p in mail.problems)


def test_bytes_invalid_in_declared_charset_are_replaced_and_reported() -> None:
    mail = parse_message(single_part("utf-8", b"A PAR\xff\xfe-BUR\n"))
    assert mail.text == "A PAR\ufffd\ufffd-BUR\n"
    assert any("were replaced" in p for p in mail.problems)


def test_attachments_are_ignored() -> None:
    raw = mime(
        "A PAR-BUR\n",
        attachments=(
            ("orders.txt", "text/plain", b"F LON-NTH\n"),
            ("map.png", "image/png", b"\x89PNG\r\n\x1a\n" + bytes(range(256))),
        ),
    )
    mail = parse_message(raw)
    assert mail.text == "A PAR-BUR\n"
    assert mail.problems == ()


def test_only_an_attachment_means_no_text() -> None:
    msg = EmailMessage()
    msg["From"] = "p@example.org"
    msg.add_attachment(b"data", maintype="application", subtype="pdf", filename="orders.pdf")
    mail = parse_message(msg.as_bytes())
    assert mail.text == ""
    assert any("no text part" in p for p in mail.problems)


def test_forwarded_message_text_is_not_read_as_the_senders() -> None:
    inner = mime("SIGNON Xgame stolen\n")
    raw = (
        b"From: p@example.org\r\nMIME-Version: 1.0\r\n"
        b'Content-Type: multipart/mixed; boundary="b"\r\n\r\n'
        b"--b\r\nContent-Type: message/rfc822\r\n\r\n" + inner + b"\r\n--b--\r\n"
    )
    assert "stolen" not in parse_message(raw).text


def test_five_megabyte_body_is_truncated_and_reported() -> None:
    line = "A PAR-BUR\n"
    body = line * (5 * 1024 * 1024 // len(line))
    mail = parse_message(mime(body))
    assert TEXT_LIMIT - len(line) < len(mail.text) <= TEXT_LIMIT
    assert mail.text.startswith(line * 10)
    assert set(mail.text.split("\n")) == {"A PAR-BUR", ""}  # the line across the cut is dropped (issue 18.13)
    assert any("truncated" in p for p in mail.problems)


def test_five_megabyte_html_body() -> None:
    html = "<p>A PAR-BUR</p>" * (5 * 1024 * 1024 // 16)
    mail = parse_message(mime(html=html))
    assert mail.text.startswith("A PAR-BUR\nA PAR-BUR\n")
    assert len(mail.text) <= TEXT_LIMIT
    assert any("truncated" in p for p in mail.problems)


@pytest.mark.parametrize(
    "raw",
    [
        # boundary declared but never used
        b"From: p@example.org\r\nContent-Type: multipart/mixed; boundary=zzz\r\n\r\nA PAR-BUR\r\n",
        # no boundary parameter at all
        b"From: p@example.org\r\nContent-Type: multipart/alternative\r\n\r\nA PAR-BUR\r\n",
        # unterminated multipart
        b"From: p@example.org\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\n"
        b"Content-Type: text/plain\r\n\r\nA PAR-BUR\r\n",
        # broken base64
        b"From: p@example.org\r\nContent-Type: text/plain\r\nContent-Transfer-Encoding: base64\r\n\r\n"
        b"QSBQQVI=tLUJVUg!!!\r\n",
        # header without a colon, then body
        b"From: p@example.org\r\nthis is not a header\r\n\r\nA PAR-BUR\r\n",
        # garbage content type
        b"From: p@example.org\r\nContent-Type: ;;;===\r\n\r\nA PAR-BUR\r\n",
    ],
)
def test_malformed_mime_never_raises_and_is_reported(raw: bytes) -> None:
    mail = parse_message(raw)
    assert mail.sender == "p@example.org"
    assert isinstance(mail.text, str)
    assert mail.problems or "A PAR-BUR" in mail.text


def test_unterminated_multipart_still_yields_the_text() -> None:
    raw = (
        b"From: p@example.org\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\n"
        b"Content-Type: text/plain\r\n\r\nA PAR-BUR\r\n"
    )
    mail = parse_message(raw)
    assert "A PAR-BUR" in mail.text
    assert any("malformed MIME" in p for p in mail.problems)


def test_mime_nested_too_deep_still_yields_the_sender() -> None:
    body = b"".join(
        b'Content-Type: multipart/mixed; boundary="b%d"\r\n\r\n--b%d\r\n' % (i, i) for i in range(3000)
    )
    mail = parse_message(b"From: p@example.org\r\nSubject: deep\r\n" + body + b"\r\nA PAR-BUR\r\n")
    assert (mail.sender, mail.subject, mail.text) == ("p@example.org", "deep", "")
    assert any("unreadable message body" in p for p in mail.problems)


def test_twenty_thousand_parts() -> None:
    parts = b"".join(b"--b\r\nContent-Type: text/plain\r\n\r\npart %d\r\n" % i for i in range(20000))
    raw = b'From: p@example.org\r\nContent-Type: multipart/mixed; boundary="b"\r\n\r\n' + parts + b"--b--\r\n"
    text = parse_message(raw).text  # every inline text part is read (a client shows them all), up to TEXT_LIMIT
    assert text.startswith("part 0\n\npart 1\n\npart 2\n")  # the CRLF before a boundary belongs to it
    assert len(text) <= TEXT_LIMIT


@pytest.mark.parametrize("raw", [bytearray(PLAIN), memoryview(PLAIN), PLAIN.decode()])
def test_bytes_like_input(raw: object) -> None:
    assert parse_message(raw).sender == "alice@example.org"  # type: ignore[arg-type]


def test_missing_headers() -> None:
    raw = b"\r\nA PAR-BUR\r\n"
    mail = parse_message(raw)
    assert mail.sender == "" and mail.sender_name == "" and mail.to == () and mail.subject == ""
    assert mail.in_reply_to is None
    assert mail.message_id == derived_message_id(raw)
    assert "no sender address (From)" in mail.problems
    assert mail.text == "A PAR-BUR\n"


def test_derived_message_id_is_stable_and_distinct() -> None:
    a = b"From: p@example.org\r\n\r\norders 1\r\n"
    b = b"From: p@example.org\r\n\r\norders 2\r\n"
    assert parse_message(a).message_id == parse_message(a).message_id
    assert parse_message(a).message_id != parse_message(b).message_id


@pytest.mark.parametrize("raw", [b"", b"\r\n\r\n", b"   "])
def test_empty_mail(raw: bytes) -> None:
    mail = parse_message(raw)
    assert mail.text.strip() == ""
    assert "empty message" in mail.problems


def test_unparseable_from_is_reported() -> None:
    mail = parse_message(b"From: not an address at all\r\n\r\nhi\r\n")
    assert mail.sender == ""
    assert any("From" in p for p in mail.problems)


def test_injection_in_incoming_headers_is_neutralised() -> None:
    # Encoded words can smuggle line breaks past the transport; they must not survive.
    raw = (
        b"From: =?utf-8?q?Eve=0D=0ABcc=3A_victim=40example=2Eorg?= <eve@example.org>\r\n"
        b"Subject: =?utf-8?q?hello=0D=0ABcc=3A_victim=40example=2Eorg?=\r\n"
        b"Message-ID: <x@y>\r\n\r\nbody\r\n"
    )
    mail = parse_message(raw)
    for value in (mail.subject, mail.sender_name, mail.message_id):
        assert "\r" not in value and "\n" not in value
    assert mail.subject == "hello Bcc: victim@example.org"
    assert mail.sender == "eve@example.org"


def test_overlong_subject_is_capped() -> None:
    raw = b"From: p@example.org\r\nSubject: " + b"x" * 50_000 + b"\r\n\r\nbody\r\n"
    assert len(parse_message(raw).subject) == 1000


AUTOMATIC = [
    ("Auto-Submitted: auto-replied", True),
    ("Auto-Submitted: auto-generated; foo=bar", True),
    ("Auto-Submitted: no", False),
    ("Precedence: bulk", True),
    ("Precedence: junk", True),
    ("Precedence: list", True),
    ("Precedence: first-class", False),
    ("List-Id: <players.example.org>", True),
    ("X-Autoreply: yes", True),
    ("X-Autorespond: vacation", True),
    ("Return-Path: <>", True),
    ("Return-Path: <player@example.org>", False),
]


@pytest.mark.parametrize(("header", "automatic"), AUTOMATIC)
def test_automatic_mail_detection(header: str, automatic: bool) -> None:
    raw = header.encode() + b"\r\n" + PLAIN
    assert parse_message(raw).automatic is automatic


@pytest.mark.parametrize("sender", ["MAILER-DAEMON@mx.example.org", "postmaster@example.org"])
def test_bounce_senders_are_automatic(sender: str) -> None:
    raw = f"From: Mail Delivery System <{sender}>\r\nSubject: Undelivered\r\n\r\nsorry\r\n".encode()
    assert parse_message(raw).automatic


def test_delivery_report_is_automatic() -> None:
    raw = (
        b"From: someone@example.org\r\nMIME-Version: 1.0\r\n"
        b'Content-Type: multipart/report; report-type=delivery-status; boundary="r"\r\n\r\n'
        b"--r\r\nContent-Type: text/plain\r\n\r\nYour message could not be delivered.\r\n"
        b"--r\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; mx\r\n\r\n"
        b"Final-Recipient: rfc822; x@y\r\nAction: failed\r\nStatus: 5.0.0\r\n\r\n--r--\r\n"
    )
    mail = parse_message(raw)
    assert mail.automatic
    assert mail.text.startswith("Your message could not be delivered.")


def test_a_normal_mail_is_not_automatic() -> None:
    assert not parse_message(PLAIN).automatic


@pytest.mark.parametrize(("header", "name", "address"), [
    (b"Smith, John <John@Example.org>", "Smith, John", "john@example.org"),
    (b"Dr. Who, III <who@example.org>", "Dr. Who, III", "who@example.org"),
    (b'"Smith, John" <john@example.org>', "Smith, John", "john@example.org"),
    (b"john@example.org", "", "john@example.org"),
])
def test_the_sender_is_the_last_angle_address_even_after_an_unquoted_comma(header: bytes, name: str,
                                                                          address: str) -> None:
    mail = parse_message(b"From: " + header + b"\r\nSubject: orders\r\n\r\nA PAR-BUR\r\n")
    assert (mail.sender_name, mail.sender) == (name, address)
