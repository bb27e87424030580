"""Issue 30: a mail read as the player's own client shows it, through the judge (SQLite and PostgreSQL)."""

from __future__ import annotations

from email.mime.application import MIMEApplication
from email.mime.image import MIMEImage
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText

from sqlalchemy import select

from app.db.models import Press
from app.mail.runners.inbound import handle_raw
from tests.server.conftest import Harness, player, signon, token_address

NEW = "A Ber-Pru\nA Mun-Bur\nF Kie-Hol\n"
NEW_ORDERS = ["A BER - PRU", "A MUN - BUR", "F KIE - HOL"]


def orders(harness: Harness, reply: str | None = None) -> list[str]:
    """Germany's current orders, as the judge's last answer to Germany lists them."""
    text = reply if reply is not None else harness.last_reply(player("GERMANY"))
    block = text.rsplit("Current orders for Germany:\n", 1)[1].split("End of orders.", 1)[0]
    return [line.strip() for line in block.splitlines() if line.strip()]


def errors(harness: Harness) -> list[str]:
    return [line for line in harness.last_reply(player("GERMANY")).splitlines() if "Error" in line]


def _send_mime(harness: Harness, msg: MIMEMultipart | MIMEText, to: str = "judge@judge.test") -> None:
    msg["From"] = msg["From"] or player("GERMANY")
    msg["To"] = to
    msg["Subject"] = "RE: Diplomacy orders alpha S1901M"
    handle_raw(harness.judge, msg.as_bytes())


def _acknowledged(harness: Harness) -> str:
    """Germany orders A Ber-Sil (etc.) and gets the judge's acknowledgement back."""
    harness.send(player("GERMANY"), signon("GERMANY") + "A Ber-Sil\nA Mun H\nF Kie H\n")
    ack = harness.last_reply(player("GERMANY"))
    assert orders(harness, ack) == ["A BER - SIL", "A MUN H", "F KIE H"]
    return ack


def test_an_outlook_reply_to_the_acknowledgement_does_not_rerun_it(started: Harness) -> None:
    ack = _acknowledged(started)
    body = (NEW + "\nFrom: judge@judge.test <judge@judge.test>\nSent: Thursday, December 3, 2026 6:02 PM\n"
            "To: Germany <germany@example.com>\nSubject: Diplomacy orders alpha S1901M\n\n" + ack)
    started.send(player("GERMANY"), body, to=token_address(started, "GERMANY"))
    assert orders(started) == NEW_ORDERS
    assert errors(started) == []
    reply = started.last_reply(player("GERMANY"))
    assert "reading stopped at line 5 of your mail: a quoted message's header begins ('From: judge@judge.test" in reply
    assert "non-blank lines were not read" in reply


def test_the_judges_own_lines_stop_reading_whatever_separator_a_client_writes(started: Harness) -> None:
    ack = _acknowledged(started)
    started.send(player("GERMANY"), NEW + "\n<<< your last mail >>>\n\n" + ack, to=token_address(started, "GERMANY"))
    assert orders(started) == NEW_ORDERS
    assert "a line of the judge's own making (':: Judge:" in started.last_reply(player("GERMANY"))


def test_the_zine_acknowledgement_is_not_rerun_either(started: Harness) -> None:
    started.send("gm@example.com", "SIGNON master@alpha masterpw\nSET LAYOUT zine")
    started.send(player("GERMANY"), signon("GERMANY") + "A Ber-Sil\nA Mun H\nF Kie H\n")
    ack = started.last_reply(player("GERMANY"))
    assert "GERMANY: YOUR ORDERS FOR S1901M" in ack
    started.send(player("GERMANY"), NEW + "\n" + ack, to=token_address(started, "GERMANY"))
    reply = started.last_reply(player("GERMANY"))
    block = reply.split("GERMANY: YOUR ORDERS FOR S1901M\n", 1)[1].split("Deadline:", 1)[0]
    assert [line.strip() for line in block.splitlines() if line.strip()] == NEW_ORDERS


def test_furniture_never_voids_a_whole_set_submission(started: Harness) -> None:
    started.send("gm@example.com", "SIGNON master@alpha masterpw\nSET ORDERS whole_set")
    body = (signon("GERMANY") + NEW + "\nSent from my iPhone\n\nOn Thu, Dec 3, 2026 at 6:02 PM judge "
            "<judge@judge.test>\nwrote:\n\n> Current orders for Germany:\n>   A BER H\n\n"
            "_______________________________________________\nDiplomacy mailing list\nhttps://lists.example.org/\n")
    started.send(player("GERMANY"), body)
    assert orders(started) == NEW_ORDERS
    assert errors(started) == []


def test_flowed_text_is_read_as_one_line(started: Harness) -> None:
    text = signon("GERMANY") + "Army Berlin - Prussia, Army Munich - Burgundy, Fleet \nKiel - Holland\n"
    _send_mime(started, MIMEText(text.replace("\n", "\r\n"), "plain; format=flowed"))
    assert orders(started) == NEW_ORDERS
    assert errors(started) == []


def test_text_after_a_picture_is_read(started: Harness) -> None:
    msg = MIMEMultipart("mixed")
    msg.attach(MIMEText(signon("GERMANY") + "A Ber-Pru\n"))
    msg.attach(MIMEImage(b"\x89PNG\r\n\x1a\n" + b"\0" * 30, "png"))
    msg.attach(MIMEText("A Mun-Bur\nF Kie-Hol\n"))
    _send_mime(started, msg)
    assert orders(started) == NEW_ORDERS


def test_an_attached_text_file_is_named_in_the_answer(started: Harness) -> None:
    msg = MIMEMultipart("mixed")
    msg.attach(MIMEText(signon("GERMANY") + NEW))
    attached = MIMEText("F Kie-Den\n")
    attached.add_header("Content-Disposition", "attachment", filename="more-orders.txt")
    msg.attach(attached)
    _send_mime(started, msg)
    assert orders(started) == NEW_ORDERS
    assert "the attached file 'more-orders.txt' (text/plain) was not read" in started.last_reply(player("GERMANY"))


def test_a_webmail_footer_after_the_html_is_not_press(started: Harness) -> None:
    html = (f"<html><body><div>{signon('GERMANY')}</div><div>PRESS TO F</div><div>Hold the line.</div>"
            "<div>ENDPRESS</div><div>A Ber-Pru</div></body></html>Do You Yahoo!? Tired of spam? Yahoo! Mail "
            "has the best spam protection around http://mail.yahoo.com")
    _send_mime(started, MIMEText(html, "html"))
    assert errors(started) == []
    with started.judge.sessions.begin() as db:
        bodies = [row.body for row in db.scalars(select(Press))]
    assert len(bodies) == 1 and "Hold the line." in bodies[0] and "Yahoo" not in bodies[0]
    assert orders(started)[0] == "A BER - PRU"


def test_a_rich_text_only_outlook_mail_is_told_what_to_change(started: Harness) -> None:
    msg = MIMEMultipart("mixed")
    tnef = MIMEApplication(b"\x78\x9f\x3e\x22" + b"\0" * 60, "ms-tnef")
    tnef.add_header("Content-Disposition", "attachment", filename="winmail.dat")
    msg.attach(tnef)
    _send_mime(started, msg)
    reply = started.last_reply(player("GERMANY"))
    assert "rich text format (winmail.dat)" in reply and "plain text or HTML" in reply


def test_a_sender_name_with_an_unquoted_comma_is_answered(started: Harness) -> None:
    msg = MIMEText(signon("GERMANY") + NEW)
    msg["From"] = f"Bismarck, Otto <{player('GERMANY')}>"
    _send_mime(started, msg)
    assert orders(started) == NEW_ORDERS


def test_orders_written_as_a_list_are_read_as_orders(started: Harness) -> None:
    """Gmail's plain text of a bulleted list ('   - A Ber-Pru'), an Outlook numbered list ('1.  A Ber-Pru')
    and an HTML list (<li>, read as '- '): the list marker is the client's, the order the player's."""
    started.send(player("GERMANY"), signon("GERMANY") + "   - A Ber-Pru\n1.  A Mun-Bur\n2) F Kie-Hol\n")
    assert orders(started) == NEW_ORDERS
    assert errors(started) == []
    html = MIMEText("<html><body><ul><li>A Ber-Sil</li><li>A Mun H</li><li>F Kie H</li></ul></body></html>", "html")
    html["From"] = player("GERMANY")
    _send_mime(started, html, to=token_address(started, "GERMANY"))
    assert orders(started) == ["A BER - SIL", "A MUN H", "F KIE H"]
    assert errors(started) == []
