"""SmtpMailer against the real test SMTP server, which delivers into dovecot; and that server's handler."""

from __future__ import annotations

import asyncio
import smtplib
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller

from app.mail.inbox import MaildirInbox
from app.mail.outbound.mailer import MailerRejected, MailerUnavailable, SmtpMailer
from app.mail.reading.messages import OutgoingMail, parse_message, render_message
from tests.support.mail_services import MailServices
from tests.support.smtp_server import MaildirDeliveryHandler

JUDGE = "judge@judge.test"


def inbox_of(services: MailServices, address: str) -> list[bytes]:
    with services.imap(address) as client:
        uids = sorted(client.search("ALL"))
        data = client.fetch(uids, ["BODY.PEEK[]"]) if uids else {}
        return [data[u][b"BODY[]"] for u in uids]


@pytest.fixture
def mailer(mail_services: MailServices) -> SmtpMailer:
    return SmtpMailer(mail_services.smtp_host, mail_services.smtp_port, timeout=10)


def test_results_reach_every_players_imap_inbox(mail_services: MailServices, mailer: SmtpMailer) -> None:
    players = [mail_services.new_address(power) for power in ("france", "england", "russia")]
    for player in players:
        mail = OutgoingMail(
            to=player, subject="Spring 1901 results", text="A PAR-BUR\nF BRE-MAO (*bounce*)\n"
        )
        asyncio.run(mailer.send(render_message(mail, JUDGE), JUDGE, [player]))
    for player in players:
        [raw] = inbox_of(mail_services, player)
        incoming = parse_message(raw)
        assert incoming.subject == "Spring 1901 results"
        assert incoming.text == "A PAR-BUR\nF BRE-MAO (*bounce*)\n"
        assert incoming.to == (player,)
        assert incoming.automatic  # Auto-Submitted: auto-replied, so no loops with other robots
        assert raw.startswith(f"Return-Path: <{JUDGE}>\r\nDelivered-To: {player}\r\n".encode())


def test_one_send_to_several_recipients(mail_services: MailServices, mailer: SmtpMailer) -> None:
    a, b = mail_services.new_address("a"), mail_services.new_address("b")
    raw = render_message(OutgoingMail(to=a, subject="press", text="hello"), JUDGE)
    asyncio.run(mailer.send(raw, JUDGE, [a, b]))
    assert len(inbox_of(mail_services, a)) == 1 and len(inbox_of(mail_services, b)) == 1


def test_server_down_raises_unavailable_then_recovers(
    mail_services: MailServices, mailer: SmtpMailer
) -> None:
    player = mail_services.new_address("germany")
    raw = render_message(OutgoingMail(to=player, subject="results", text="x"), JUDGE)
    mail_services.smtp_down()
    try:
        with pytest.raises(MailerUnavailable):
            asyncio.run(mailer.send(raw, JUDGE, [player]))
    finally:
        mail_services.smtp_up()
    asyncio.run(mailer.send(raw, JUDGE, [player]))
    assert len(inbox_of(mail_services, player)) == 1


def test_temporary_refusal_raises_unavailable(mail_services: MailServices, mailer: SmtpMailer) -> None:
    player = mail_services.new_address("italy")
    raw = render_message(OutgoingMail(to=player, subject="results", text="x"), JUDGE)
    mail_services.smtp_tempfail(True)
    try:
        with pytest.raises(MailerUnavailable, match="451"):
            asyncio.run(mailer.send(raw, JUDGE, [player]))
    finally:
        mail_services.smtp_tempfail(False)
    assert inbox_of(mail_services, player) == []


def test_permanent_refusal_raises_rejected(mailer: SmtpMailer) -> None:
    raw = render_message(OutgoingMail(to="x@judge.test", subject="s", text="t"), JUDGE)
    with pytest.raises(MailerRejected, match="550"):
        asyncio.run(mailer.send(raw, JUDGE, ["../escape@judge.test"]))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


def test_nothing_listening_raises_unavailable() -> None:
    port = free_port()
    with pytest.raises(MailerUnavailable):
        asyncio.run(
            SmtpMailer("127.0.0.1", port, timeout=5).send(b"Subject: x\r\n\r\nx\r\n", JUDGE, ["a@b.test"])
        )


@pytest.mark.parametrize("recipient", ["a@b.test\r\nRCPT TO:<evil@b.test>", "a@b.test>", ""])
def test_envelope_injection_is_refused_before_connecting(recipient: str) -> None:
    with pytest.raises(ValueError):
        asyncio.run(SmtpMailer("127.0.0.1", 1).send(b"x", JUDGE, [recipient]))


# ----------------------------------------------------------------- the handler, in process (no root needed)


@pytest.fixture
def local_smtp(tmp_path: Path) -> Iterator[tuple[int, Path]]:
    handler = MaildirDeliveryHandler(tmp_path / "mail", tempfail_file=tmp_path / "tempfail")
    port = free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port, server_hostname="mail.test")
    controller.start()
    try:
        yield port, tmp_path
    finally:
        controller.stop()


def test_handler_delivers_into_each_recipients_maildir(local_smtp: tuple[int, Path]) -> None:
    port, root = local_smtp
    raw = render_message(OutgoingMail(to="a@judge.test", subject="s", text="orders"), JUDGE)
    asyncio.run(SmtpMailer("127.0.0.1", port).send(raw, JUDGE, ["A@judge.test", "b@judge.test"]))
    for rcpt in ("a@judge.test", "b@judge.test"):
        [mail] = MaildirInbox(root / "mail" / rcpt).fetch_new()
        assert mail.raw.endswith(raw)
        assert parse_message(mail.raw).text == "orders\n"


def test_handler_tempfail_switch(local_smtp: tuple[int, Path]) -> None:
    port, root = local_smtp
    (root / "tempfail").touch()
    with (
        smtplib.SMTP("127.0.0.1", port, "localhost") as smtp,
        pytest.raises(smtplib.SMTPSenderRefused) as refused,
    ):
        smtp.sendmail(JUDGE, ["a@judge.test"], b"Subject: x\r\n\r\nx\r\n")
    assert refused.value.smtp_code == 451
    assert not (root / "mail").exists()


def test_the_test_smtp_server_delivers_a_sub_address_to_its_base_mailbox() -> None:
    from tests.support.smtp_server import base_address

    assert base_address("judge+tok3n@judge.test") == "judge@judge.test"
    assert base_address("judge-ab12+t@judge.test") == "judge-ab12@judge.test"
    assert base_address("plain@judge.test") == "plain@judge.test"
    assert base_address("+only@judge.test") == "+only@judge.test"


def test_a_line_starting_with_a_dot_arrives_whole(local_smtp: tuple[int, Path]) -> None:
    """DATA doubles a dot at the start of a line (RFC 5321 4.5.2): the server takes it off again."""
    port, root = local_smtp
    text = ".\n..two dots\n.hidden\nend.\n"
    raw = render_message(OutgoingMail(to="a@judge.test", subject="s", text=text), JUDGE)
    asyncio.run(SmtpMailer("127.0.0.1", port).send(raw, JUDGE, ["a@judge.test"]))
    [mail] = MaildirInbox(root / "mail" / "a@judge.test").fetch_new()
    assert mail.raw.endswith(raw)
    assert parse_message(mail.raw).text == text


@pytest.mark.parametrize(
    ("message", "wire"),
    [
        (b"Subject: x\r\n\r\nbody\r\n", b"Subject: x\r\n\r\nbody\r\n.\r\n"),
        (b"Subject: x\r\n\r\n.dot\r\n", b"Subject: x\r\n\r\n..dot\r\n.\r\n"),
        (b".\r\nx", b"..\r\nx\r\n.\r\n"),
        (b"a\nb\rc\r\nd", b"a\r\nb\r\nc\r\nd\r\n.\r\n"),
        (b"a\n.b", b"a\r\n..b\r\n.\r\n"),
    ],
)
def test_data_is_sent_with_crlf_lines_and_leading_dots_doubled(message: bytes, wire: bytes) -> None:
    from app.mail.outbound.mailer import wire_data

    assert wire_data(message) == wire


@pytest.mark.parametrize("pipelining", [True, False])
def test_a_session_to_the_test_server_pipelined_or_not(local_smtp: tuple[int, Path], pipelining: bool) -> None:
    """The test server offers PIPELINING (as Postfix does); pipelined or step by step, a session's
    mails arrive each whole, and a refused recipient among them fails alone."""
    port, root = local_smtp
    with smtplib.SMTP("127.0.0.1", port, "localhost") as smtp:
        smtp.ehlo()
        assert smtp.has_extn("pipelining")
    mails = [render_message(OutgoingMail(to=f"p{n}@judge.test", subject=f"s{n}", text=f"orders {n}"), JUDGE)
             for n in range(3)]

    async def send_all() -> list[str]:
        outcomes = []
        async with SmtpMailer("127.0.0.1", port, timeout=10, pipelining=pipelining).session() as session:
            for n, raw in enumerate(mails):
                try:
                    await session.send(raw, JUDGE, ["../bad@judge.test" if n == 1 else f"p{n}@judge.test"])
                    outcomes.append("sent")
                except MailerRejected:
                    outcomes.append("rejected")
        return outcomes

    assert asyncio.run(send_all()) == ["sent", "rejected", "sent"]
    for n in (0, 2):
        [mail] = MaildirInbox(root / "mail" / f"p{n}@judge.test").fetch_new()
        assert mail.raw.endswith(mails[n])
