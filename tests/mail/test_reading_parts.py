"""Step 1 of the reading: every text part a client shows, in its order; what is not read is named."""

from __future__ import annotations

from email.message import EmailMessage
from email.mime.application import MIMEApplication
from email.mime.image import MIMEImage
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText

from app.mail.reading.messages import parse_message

PNG = b"\x89PNG\r\n\x1a\n" + b"\0" * 40


def _mixed(*parts: object) -> bytes:
    msg = MIMEMultipart("mixed")
    msg["From"], msg["To"], msg["Subject"] = "p@example.org", "judge@judge.test", "orders"
    for part in parts:
        msg.attach(part)  # type: ignore[arg-type]
    return msg.as_bytes()


def _alternative(plain: str, html: str) -> MIMEMultipart:
    alt = MIMEMultipart("alternative")
    alt.attach(MIMEText(plain, "plain", "utf-8"))
    alt.attach(MIMEText(html, "html", "utf-8"))
    return alt


def test_apple_mail_text_photo_text_reads_both_texts_in_order() -> None:
    mail = parse_message(_mixed(MIMEText("SIGNON Gclients pw\nA Ber-Pru\n"), MIMEImage(PNG, "png"),
                                MIMEText("A Mun-Bur\nF Kie-Hol\n")))
    assert [line for line in mail.text.splitlines() if line] == ["SIGNON Gclients pw", "A Ber-Pru", "A Mun-Bur",
                                                                  "F Kie-Hol"]
    assert mail.unread_parts == ()  # a picture could not hold orders: not mentioned


def test_nested_alternatives_inside_mixed_each_give_their_plain_text() -> None:
    mail = parse_message(_mixed(_alternative("A Ber-Pru\n", "<div>A Ber-Pru</div>"), MIMEImage(PNG, "png"),
                                _alternative("A Mun-Bur\n", "<div>A Mun-Bur</div>")))
    assert [line for line in mail.text.splitlines() if line] == ["A Ber-Pru", "A Mun-Bur"]


def test_html_only_parts_around_a_picture_are_both_read() -> None:
    mail = parse_message(_mixed(MIMEText("<div>A Ber-Pru</div>", "html"), MIMEImage(PNG, "png"),
                                MIMEText("<div>A Mun-Bur</div>", "html")))
    assert [line for line in mail.text.splitlines() if line] == ["A Ber-Pru", "A Mun-Bur"]


def test_a_named_text_part_without_attachment_disposition_is_inline() -> None:
    named = MIMEText("A Mun-Bur\n")
    named.set_param("name", "orders.txt")
    mail = parse_message(_mixed(MIMEText("A Ber-Pru\n"), named))
    assert [line for line in mail.text.splitlines() if line] == ["A Ber-Pru", "A Mun-Bur"]


def test_an_attached_text_file_is_not_read_and_is_named() -> None:
    attached = MIMEText("A Mun-Bur\n")
    attached.add_header("Content-Disposition", "attachment", filename="orders.txt")
    mail = parse_message(_mixed(MIMEText("A Ber-Pru\n"), attached))
    assert mail.text == "A Ber-Pru\n"
    assert mail.unread_parts == ("the attached file 'orders.txt' (text/plain)",)


def test_a_mail_whose_only_text_is_an_attached_file_says_so() -> None:
    attached = MIMEText("A Mun-Bur\n")
    attached.add_header("Content-Disposition", "attachment", filename="orders.txt")
    mail = parse_message(_mixed(attached))
    assert mail.text == ""
    assert any("only text is in attached files" in p and "orders.txt" in p for p in mail.problems)


def test_outlook_rich_text_winmail_dat_is_explained() -> None:
    tnef = MIMEApplication(b"\x78\x9f\x3e\x22" + b"\0" * 60, "ms-tnef")
    tnef.add_header("Content-Disposition", "attachment", filename="winmail.dat")
    mail = parse_message(_mixed(tnef))
    assert mail.unread_parts == ("Outlook's rich text (winmail.dat)",)
    assert any("rich text format (winmail.dat)" in p and "plain text or HTML" in p for p in mail.problems)


def test_a_forwarded_message_is_not_read_and_is_named() -> None:
    inner = EmailMessage()
    inner["From"] = "judge@judge.test"
    inner.set_content("Current orders for Germany:\n  A BER - SIL\n")
    outer = EmailMessage()
    outer["From"] = "p@example.org"
    outer.set_content("A Ber-Pru\n")
    outer.add_attachment(inner)
    mail = parse_message(outer.as_bytes())
    assert mail.text == "A Ber-Pru\n"
    assert mail.unread_parts == ("a forwarded message attached to the mail",)


def test_signed_mail_reads_its_text_not_its_signature() -> None:
    signed = MIMEMultipart("signed", protocol="application/pgp-signature")
    signed.attach(MIMEText("A Ber-Pru\n"))
    signed.attach(MIMEApplication(b"-----BEGIN PGP SIGNATURE-----", "pgp-signature"))
    signed["From"] = "p@example.org"
    assert parse_message(signed.as_bytes()).text == "A Ber-Pru\n"
