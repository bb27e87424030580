"""ImapInbox against a real dovecot on loopback (started by the ``mail_services`` fixture)."""

from __future__ import annotations

import smtplib
import socket
import threading
import time
from collections.abc import Iterator

import pytest
from imapclient import SEEN

from app.mail.inbox import ImapInbox, Inbox, InboxUnavailable
from app.mail.reading.messages import parse_message
from tests.mail.mail_proxy import CuttingProxy
from tests.support.mail_services import MailServices


def message(n: int, body: str = "A PAR-BUR") -> bytes:
    return (
        f"From: player{n}@example.org\r\nTo: judge@judge.test\r\nSubject: orders {n}\r\n"
        f"Message-ID: <orders-{n}@example.org>\r\n\r\n{body}\r\n"
    ).encode()


def append(services: MailServices, address: str, *raws: bytes) -> None:
    with services.imap(address) as client:
        for raw in raws:
            client.append("INBOX", raw)


def folder_contents(services: MailServices, address: str, folder: str) -> list[tuple[bytes, bool]]:
    """(raw, seen) of every message in ``folder``, by UID."""
    with services.imap(address, folder) as client:
        uids = sorted(client.search("ALL"))
        data = client.fetch(uids, ["BODY.PEEK[]", "FLAGS"]) if uids else {}
        return [(data[u][b"BODY[]"], SEEN in data[u][b"FLAGS"]) for u in uids]


class Sleeps:
    """Records the backoff instead of sleeping it."""

    def __init__(self) -> None:
        self.calls: list[float] = []

    def __call__(self, seconds: float) -> None:
        self.calls.append(seconds)


@pytest.fixture
def judge(mail_services: MailServices) -> str:
    return mail_services.new_address("judge")


@pytest.fixture
def inbox(mail_services: MailServices, judge: str) -> Iterator[ImapInbox]:
    box = ImapInbox(mail_services.imap_host, mail_services.imap_port, judge, mail_services.password)
    yield box
    box.close()


def test_fetch_mark_done_quarantine(mail_services: MailServices, judge: str, inbox: ImapInbox) -> None:
    raws = [message(1), message(2), message(3)]
    append(mail_services, judge, *raws)
    protocol: Inbox = inbox

    mails = protocol.fetch_new()
    assert [m.raw for m in mails] == raws  # oldest first, byte for byte
    assert protocol.fetch_new() == mails  # nothing marked: same mails, same uids
    protocol.mark_done(mails[0].uid)
    protocol.quarantine(mails[1].uid)
    assert [m.raw for m in protocol.fetch_new()] == [raws[2]]

    assert folder_contents(mail_services, judge, "Processed") == [(raws[0], True)]
    assert folder_contents(mail_services, judge, "Quarantine") == [(raws[1], False)]
    assert folder_contents(mail_services, judge, "INBOX") == [(raws[2], False)]  # fetch never sets \Seen


def test_uids_are_stable_and_marks_are_idempotent(
    mail_services: MailServices, judge: str, inbox: ImapInbox
) -> None:
    append(mail_services, judge, message(1))
    [first] = inbox.fetch_new()
    validity, _, number = first.uid.partition(":")
    assert validity.isdigit() and number.isdigit()
    inbox.mark_done(first.uid)
    inbox.mark_done(first.uid)  # again: nothing happens
    inbox.quarantine(first.uid)  # already done: nothing happens
    append(mail_services, judge, message(2))
    [second] = inbox.fetch_new()
    assert int(second.uid.partition(":")[2]) > int(number)
    inbox.mark_done(f"{int(validity) + 1}:{second.uid.partition(':')[2]}")  # other numbering: ignored
    assert inbox.fetch_new() == [second]
    with pytest.raises(ValueError):
        inbox.mark_done("not-a-uid")
    assert folder_contents(mail_services, judge, "Processed") == [(message(1), True)]
    assert folder_contents(mail_services, judge, "Quarantine") == []


def test_fetch_is_batched_oldest_first(mail_services: MailServices, judge: str) -> None:
    raws = [message(i) for i in range(5)]
    append(mail_services, judge, *raws)
    box = ImapInbox(mail_services.imap_host, mail_services.imap_port, judge, "secret", batch_size=2)
    try:
        seen = []
        while mails := box.fetch_new():
            assert len(mails) <= 2
            seen += [m.raw for m in mails]
            for mail in mails:
                box.mark_done(mail.uid)
        assert seen == raws
    finally:
        box.close()


def test_five_megabyte_message_arrives_intact(
    mail_services: MailServices, judge: str, inbox: ImapInbox
) -> None:
    big = message(9, "A PAR-BUR\r\n" * (5 * 1024 * 1024 // 11))
    append(mail_services, judge, big)
    [mail] = inbox.fetch_new()
    assert mail.raw == big
    parsed = parse_message(mail.raw)
    assert parsed.sender == "player9@example.org"
    assert any("truncated" in p for p in parsed.problems)


def test_connection_dropped_mid_fetch_loses_nothing(mail_services: MailServices, judge: str) -> None:
    raws = [message(1), message(2, "x" * 1_000_000), message(3)]
    append(mail_services, judge, *raws)
    sleeps = Sleeps()
    with CuttingProxy(mail_services.imap_host, mail_services.imap_port) as proxy:
        box = ImapInbox(mail_services.imap_host, proxy.port, judge, "secret", sleep=sleeps)
        try:
            proxy.cut_fetch_after(300_000)  # in the middle of the 1 MB message
            mails = box.fetch_new()
            assert proxy.cuts == 1, "the proxy did not cut the fetch"
            assert [m.raw for m in mails] == raws
            assert box.reconnects == 1 and sleeps.calls == [0.5]
            assert proxy.connections == 2
            for mail in mails:
                box.mark_done(mail.uid)
        finally:
            box.close()
    assert [raw for raw, _ in folder_contents(mail_services, judge, "Processed")] == raws
    assert folder_contents(mail_services, judge, "INBOX") == []


def test_connection_kicked_by_the_server_is_reconnected(mail_services: MailServices, judge: str) -> None:
    append(mail_services, judge, message(1), message(2))
    sleeps = Sleeps()
    box = ImapInbox(mail_services.imap_host, mail_services.imap_port, judge, "secret", sleep=sleeps)
    try:
        first, second = box.fetch_new()
        mail_services.kick(judge)
        box.mark_done(first.uid)
        assert box.reconnects == 1
        mail_services.kick(judge)
        assert box.fetch_new() == [second]
        assert box.reconnects == 2
    finally:
        box.close()
    assert folder_contents(mail_services, judge, "Processed") == [(message(1), True)]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


def test_unreachable_server_backs_off_then_raises() -> None:
    sleeps = Sleeps()
    box = ImapInbox("127.0.0.1", free_port(), "judge@judge.test", "secret", max_attempts=4, sleep=sleeps)
    with pytest.raises(InboxUnavailable):
        box.fetch_new()
    assert sleeps.calls == [0.5, 1.0, 2.0]
    box.wait_for_mail(0.01)  # never raises: the next fetch reports the outage


def test_backoff_is_bounded() -> None:
    sleeps = Sleeps()
    box = ImapInbox(
        "127.0.0.1", free_port(), "j@judge.test", "x", max_attempts=8, max_backoff=5.0, sleep=sleeps
    )
    with pytest.raises(InboxUnavailable):
        box.fetch_new()
    assert sleeps.calls == [0.5, 1.0, 2.0, 4.0, 5.0, 5.0, 5.0]


def test_wrong_password_is_not_retried(mail_services: MailServices, judge: str) -> None:
    sleeps = Sleeps()
    box = ImapInbox(mail_services.imap_host, mail_services.imap_port, judge, "wrong", sleep=sleeps)
    with pytest.raises(InboxUnavailable, match="login refused"):
        box.fetch_new()
    assert sleeps.calls == []


def test_idle_wakes_up_on_new_mail(mail_services: MailServices, judge: str, inbox: ImapInbox) -> None:
    assert inbox.fetch_new() == []

    def send() -> None:
        with smtplib.SMTP(mail_services.smtp_host, mail_services.smtp_port, "localhost") as smtp:
            smtp.sendmail("player1@example.org", [judge], message(1))

    timer = threading.Timer(1.0, send)
    timer.start()
    started = time.monotonic()
    inbox.wait_for_mail(60)
    elapsed = time.monotonic() - started
    timer.join()
    assert 0.9 <= elapsed < 15, elapsed
    [mail] = inbox.fetch_new()
    assert mail.raw.endswith(message(1))
    assert mail.raw.startswith(f"Return-Path: <player1@example.org>\r\nDelivered-To: {judge}\r\n".encode())


def test_idle_times_out_without_mail(mail_services: MailServices, inbox: ImapInbox) -> None:
    inbox.fetch_new()
    started = time.monotonic()
    inbox.wait_for_mail(1.5)
    assert 1.4 <= time.monotonic() - started < 5


def test_wait_returns_at_once_for_mail_not_yet_fetched(
    mail_services: MailServices, judge: str, inbox: ImapInbox
) -> None:
    inbox.fetch_new()
    append(mail_services, judge, message(1))
    started = time.monotonic()
    inbox.wait_for_mail(30)
    assert time.monotonic() - started < 5
    inbox.fetch_new()
    started = time.monotonic()
    inbox.wait_for_mail(1.0)  # fetched but not done is not new
    assert time.monotonic() - started >= 0.9


def test_wait_survives_a_kick_during_idle(mail_services: MailServices, judge: str, inbox: ImapInbox) -> None:
    inbox.fetch_new()
    timer = threading.Timer(0.5, mail_services.kick, (judge,))
    timer.start()
    started = time.monotonic()
    inbox.wait_for_mail(20)  # returns early, without raising
    timer.join()
    assert time.monotonic() - started < 15
    append(mail_services, judge, message(1))
    assert [m.raw for m in inbox.fetch_new()] == [message(1)]
