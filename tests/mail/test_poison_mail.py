"""Issue 19, items 1-4: poison mail never freezes the inbox, on SQLite and PostgreSQL, through the
in-memory twin and the real dovecot IMAP door.

- a Subject that decodes to a lone surrogate (``=?utf-7?q?+2AA-?=``) is stored, answered;
- a Message-ID of 401-500 characters (longer than the columns that keep it) is answered;
- a mail whose processing fails is quarantined after its tries whatever the failure (even when its
  notices fail), and its sender answered once;
- 50 poison mails in the IMAP batch do not hold 3 legitimate ones;
- a pending poison mail left by an earlier run does not kill the poller.
"""

from __future__ import annotations

import base64
import codecs
import threading
import time
from collections.abc import Iterator
from email.message import EmailMessage

import pytest
from sqlalchemy import select

from app.db.models import InboundMessage, OutboundMessage
from app.mail.inbox import MemoryInbox
from app.mail.inbox.imap import ImapInbox
from app.mail.reading.messages import parse_message
from app.mail.runners import inbound
from app.mail.runners.poller import poll_once, run_poller
from benchmarks.fuzz_headers import python_charsets
from tests.server.conftest import Harness
from tests.support.mail_services import MailServices
from tests.web.conftest import make_harness

SURROGATE_SUBJECT = "=?utf-7?q?+2AA-?="


@pytest.fixture(params=["sqlite", "postgresql"])
def harness(request: pytest.FixtureRequest, tmp_path: object) -> Iterator[Harness]:
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path}/judge.sqlite3"
        yield make_harness(url)
    else:
        with request.getfixturevalue("postgres_template").copy() as url:
            h = make_harness(url)
            yield h
            h.judge.sessions.kw["bind"].dispose()


def raw_mail(sender: str, body: str, *, subject: str = "orders", message_id: str | None = None) -> bytes:
    """A mail as a client would send it; the Subject and Message-ID go in as given."""
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = "judge@judge.test"
    msg.set_content(body)
    head = f"Subject: {subject}\n"
    if message_id is not None:
        head += f"Message-ID: {message_id}\n"
    return head.encode() + msg.as_bytes()


def long_message_id(n: int, length: int = 450) -> str:
    local = f"long{n}." + "x" * length
    return f"<{local[: length - len('@players.test>') - 1]}@players.test>"


def replies_to(h: Harness, address: str) -> list[OutboundMessage]:
    return h.outbox(to=address, kind="reply")


def inbound_rows(h: Harness) -> list[InboundMessage]:
    with h.judge.sessions.begin() as db:
        return list(db.scalars(select(InboundMessage).order_by(InboundMessage.id)))


# ----------------------------------------------------------------------------- 1, 2: the poisons


def test_a_subject_with_a_lone_surrogate_is_stored_and_answered(harness: Harness) -> None:
    raw = raw_mail("surrogate@example.com", "HELP", subject=SURROGATE_SUBJECT, message_id="<s1@players.test>")
    outcome = inbound.handle_raw(harness.judge, raw)
    assert outcome.status == "done"
    [row] = inbound_rows(harness)
    assert row.raw == raw and row.subject == "\ufffd" and row.sender == "surrogate@example.com"
    [answer] = replies_to(harness, "surrogate@example.com")
    # A stranger's answer quotes nothing of its mail, its subject included (issue 29 item 5).
    assert answer.in_reply_to == "<s1@players.test>" and answer.subject == "Judge reply"


@pytest.mark.parametrize("length", [401, 450, 500])
def test_a_message_id_longer_than_its_column_is_answered(harness: Harness, length: int) -> None:
    message_id = long_message_id(1, length)
    assert len(message_id) == length
    raw = raw_mail("longid@example.com", "HELP", message_id=message_id)
    outcome = inbound.handle_raw(harness.judge, raw)
    assert outcome.status == "done"
    [answer] = replies_to(harness, "longid@example.com")
    assert "HELP" in answer.body_text or "commands" in answer.body_text
    [row] = inbound_rows(harness)
    assert row.raw == raw and len(row.message_id) <= 400
    again = inbound.handle_raw(harness.judge, raw)  # delivered twice: the same key, answered once
    assert again.status == "duplicate" and len(replies_to(harness, "longid@example.com")) == 1


# ----------------------------------------------------------------------------- 2: quarantined whatever the failure


def test_a_failing_mail_is_quarantined_and_answered_once_even_when_its_notices_fail(
        harness: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    def explode(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the commands exploded")

    def no_game(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the notice exploded too")

    monkeypatch.setattr(inbound, "run_commands", explode)
    monkeypatch.setattr(inbound, "_game_of", no_game)  # the detailed answer and the GM's notice fail
    raw = raw_mail("doomed@example.com", "SIGNON Falpha pw\nA Par-Bur", message_id="<doomed@players.test>")
    outcomes = [inbound.handle_raw(harness.judge, raw).status for _ in range(4)]
    assert outcomes == ["failed", "failed", "quarantined", "quarantined"]
    [row] = inbound_rows(harness)
    assert row.status == "quarantined" and row.attempts == 3 and "the commands exploded" in (row.error or "")
    [answer] = replies_to(harness, "doomed@example.com")
    assert "could not be processed" in answer.body_text
    assert harness.outbox(to=harness.judge.settings.admin_address, kind="quarantine")


def test_a_failing_mail_is_quarantined_in_the_round_that_fetched_it(
        harness: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    real = inbound.run_commands

    def poisoned(ctx: object, lines: list[str]) -> int:
        if any("POISON" in line for line in lines):
            raise RuntimeError("poison")
        return real(ctx, lines)  # type: ignore[arg-type]

    monkeypatch.setattr(inbound, "run_commands", poisoned)
    box = MemoryInbox()
    for n in range(5):
        box.deliver(raw_mail(f"bad{n}@example.com", "POISON", message_id=f"<bad{n}@players.test>"))
    box.deliver(raw_mail("good@example.com", "HELP", message_id="<good@players.test>"))
    poll_once(harness.judge, box)
    assert len(box.quarantined) == 5 and len(box.done) == 1 and box.fetch_new() == []
    for n in range(5):
        assert len(replies_to(harness, f"bad{n}@example.com")) == 1
    assert len(replies_to(harness, "good@example.com")) == 1


# ----------------------------------------------------------------------------- 4: the poller lives on


def test_a_pending_poison_mail_from_an_earlier_run_does_not_kill_the_poller(harness: Harness) -> None:
    """As an earlier version left it: a mail with a 450-character Message-ID stored under its first
    400 characters, failed twice; retrying it at start raised and the poller thread died."""
    message_id = long_message_id(2)
    raw = raw_mail("pending@example.com", "HELP", message_id=message_id)
    with harness.judge.sessions.begin() as db:
        db.add(InboundMessage(message_id=message_id[:400], sender="pending@example.com", subject="orders", raw=raw,
                              status="failed", attempts=3))
    box = MemoryInbox()
    box.deliver(raw_mail("fresh@example.com", "HELP", message_id="<fresh@players.test>"))
    stop = threading.Event()
    thread = threading.Thread(target=run_poller, args=(harness.judge, box, stop), kwargs={"wait": 0.1}, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 60
        while not box.done and time.monotonic() < deadline and thread.is_alive():
            time.sleep(0.1)
        assert thread.is_alive(), "the poller thread died"
        assert len(box.done) == 1
    finally:
        stop.set()
        thread.join(timeout=30)
    [row, _fresh] = inbound_rows(harness)
    assert row.status == "quarantined"
    assert len(replies_to(harness, "pending@example.com")) == 1  # answered once, without the long reference
    assert [report.name for report in harness.judge.health.reports() if report.healthy] == ["poller"]


# ----------------------------------------------------------------------------- 3: the IMAP door


@pytest.fixture
def imap_box(mail_services: MailServices) -> Iterator[tuple[MailServices, str, ImapInbox]]:
    address = mail_services.new_address("judge")
    box = ImapInbox(mail_services.imap_host, mail_services.imap_port, address, mail_services.password)
    yield mail_services, address, box
    box.close()


def test_fifty_poison_mails_do_not_hold_three_legitimate_ones_on_imap(
        harness: Harness, imap_box: tuple[MailServices, str, ImapInbox]) -> None:
    services, address, box = imap_box
    harness.judge.settings.stranger_cap = 100  # 53 strangers in an hour: past the default cap (issue 29 item 5)
    with services.imap(address) as client:
        for n in range(25):
            client.append("INBOX", raw_mail(f"poison{n}@example.com", "HELP", message_id=long_message_id(n)))
            client.append("INBOX", raw_mail(f"surrogate{n}@example.com", "HELP", subject=SURROGATE_SUBJECT,
                                            message_id=f"<surrogate{n}@players.test>"))
        for n in range(3):
            client.append("INBOX", raw_mail(f"human{n}@example.com", "HELP", message_id=f"<human{n}@players.test>"))
    assert box.batch_size == 50
    for _ in range(3):
        poll_once(harness.judge, box)
    for n in range(3):
        assert len(replies_to(harness, f"human{n}@example.com")) == 1, f"human{n} not answered"
    for n in range(25):
        assert len(replies_to(harness, f"poison{n}@example.com")) == 1
        assert len(replies_to(harness, f"surrogate{n}@example.com")) == 1
    assert box.fetch_new() == []
    with services.imap(address, "Processed") as client:
        assert len(client.search("ALL")) == 53


# ----------------------------------------------------------------------------- 1: every charset


@pytest.mark.parametrize("charset", sorted({codecs.lookup(name).name for name in python_charsets()}))
def test_an_encoded_word_in_any_charset_python_knows_is_read_as_storable_text(charset: str) -> None:
    for data in (b"+2AA-", b"+2D3cAA-", bytes(range(256)), "Grüße Привет".encode(), b"\xed\xa0\x80"):
        for word in (f"=?{charset}?B?{base64.b64encode(data).decode()}?=",
                     f"=?{charset}?Q?{''.join(f'={byte:02X}' for byte in data)}?="):
            mail = parse_message(raw_mail("any@example.com", "HELP", subject=word, message_id=word))
            for text in (mail.subject, mail.message_id, mail.text, *mail.problems):
                text.encode("utf-8")  # no lone surrogate: storable in any column
            assert len(mail.message_id) <= 400
