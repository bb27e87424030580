"""The local transports: maildir inbox and mailer (embedded mode) and the in-memory twins."""

from __future__ import annotations

import asyncio
import os
import threading
import time
from pathlib import Path

import pytest

from app.mail.inbox import Inbox, MaildirInbox, MemoryInbox
from app.mail.maildir import deliver, flags_of, mailbox_for
from app.mail.outbound.mailer import MaildirMailer, Mailer, MailerUnavailable, MemoryMailer

MSG = b"From: p@example.org\r\nSubject: orders\r\n\r\nA PAR-BUR\r\n"


def maildir_files(path: Path, sub: str) -> list[str]:
    return sorted(os.listdir(path / sub)) if (path / sub).is_dir() else []


# ----------------------------------------------------------------------------- maildir basics


def test_deliver_is_atomic_and_unique(tmp_path: Path) -> None:
    box = tmp_path / "box"
    paths = [deliver(box, MSG + str(i).encode()) for i in range(50)]
    assert len({p.name for p in paths}) == 50
    assert maildir_files(box, "tmp") == []
    assert len(maildir_files(box, "new")) == 50
    assert paths[7].read_bytes() == MSG + b"7"


@pytest.mark.parametrize(
    "address",
    ["", "no-at-sign", "../etc@passwd", "a/b@example.org", ".hidden@example.org", "a b@x.org", "a\0@x.org"],
)
def test_mailbox_for_refuses_addresses_that_could_escape(tmp_path: Path, address: str) -> None:
    with pytest.raises(ValueError):
        mailbox_for(tmp_path, address)


def test_mailbox_for_lower_cases(tmp_path: Path) -> None:
    assert mailbox_for(tmp_path, " France@Example.ORG ") == tmp_path / "france@example.org"


def test_flags_of() -> None:
    assert flags_of("123.P1Q2.host:2,FS") == "FS"
    assert flags_of("123.P1Q2.host") == ""


# ----------------------------------------------------------------------------- MaildirInbox


def test_maildir_inbox_fetch_mark_done_quarantine(tmp_path: Path) -> None:
    inbox: Inbox = MaildirInbox(tmp_path / "inbox")
    assert inbox.fetch_new() == []  # creates the folder
    first = deliver(tmp_path / "inbox", MSG + b"1")
    time.sleep(0.01)
    deliver(tmp_path / "inbox", MSG + b"2")
    time.sleep(0.01)
    deliver(tmp_path / "inbox", MSG + b"3")

    mails = inbox.fetch_new()
    assert [m.raw[-1:] for m in mails] == [b"1", b"2", b"3"]  # oldest first
    assert mails[0].uid == first.name
    assert inbox.fetch_new() == mails  # not marked: handed over again, same uids

    inbox.mark_done(mails[0].uid)
    inbox.quarantine(mails[1].uid)
    assert [m.raw for m in inbox.fetch_new()] == [MSG + b"3"]
    assert maildir_files(tmp_path / "inbox", "cur") == [f"{mails[0].uid}:2,S"]
    assert maildir_files(tmp_path / "inbox" / ".Quarantine", "cur") == [f"{mails[1].uid}:2,"]
    assert (tmp_path / "inbox" / ".Quarantine" / "cur" / f"{mails[1].uid}:2,").read_bytes() == MSG + b"2"

    inbox.mark_done(mails[0].uid)  # again: nothing happens
    inbox.mark_done("no-such-uid")
    inbox.quarantine("../../etc/passwd")
    assert [m.raw for m in inbox.fetch_new()] == [MSG + b"3"]


def test_maildir_inbox_reads_unseen_mail_in_cur(tmp_path: Path) -> None:
    box = tmp_path / "inbox"
    path = deliver(box, MSG)
    os.rename(path, box / "cur" / f"{path.name}:2,F")  # a mail client touched it
    inbox = MaildirInbox(box)
    [mail] = inbox.fetch_new()
    inbox.mark_done(mail.uid)
    assert maildir_files(box, "cur") == [f"{path.name}:2,FS"]
    assert inbox.fetch_new() == []


def test_maildir_inbox_wait_returns_on_new_mail(tmp_path: Path) -> None:
    box = tmp_path / "inbox"
    inbox = MaildirInbox(box, poll_interval=0.05)
    deliver(box, MSG)
    inbox.wait_for_mail(5)  # mail not fetched yet: at once
    inbox.fetch_new()
    started = time.monotonic()
    inbox.wait_for_mail(0.3)  # only an already fetched mail: waits the timeout
    assert time.monotonic() - started >= 0.3
    timer = threading.Timer(0.2, deliver, (box, MSG))
    timer.start()
    started = time.monotonic()
    inbox.wait_for_mail(10)
    assert time.monotonic() - started < 5
    assert len(inbox.fetch_new()) == 2
    timer.join()


# ----------------------------------------------------------------------------- MemoryInbox


def test_memory_inbox_behaves_like_the_others() -> None:
    inbox = MemoryInbox()
    uids = [inbox.deliver(MSG + str(i).encode()) for i in range(3)]
    assert [m.uid for m in inbox.fetch_new()] == uids
    inbox.mark_done(uids[0])
    inbox.quarantine(uids[1])
    inbox.mark_done(uids[0])
    assert [m.uid for m in inbox.fetch_new()] == [uids[2]]
    assert list(inbox.done) == [uids[0]] and list(inbox.quarantined) == [uids[1]]


def test_memory_inbox_wait() -> None:
    inbox = MemoryInbox()
    started = time.monotonic()
    inbox.wait_for_mail(0.1)
    assert time.monotonic() - started >= 0.1
    timer = threading.Timer(0.1, inbox.deliver, (MSG,))
    timer.start()
    inbox.wait_for_mail(10)
    assert len(inbox.fetch_new()) == 1
    timer.join()


# ----------------------------------------------------------------------------- mailers


def test_maildir_mailer_delivers_per_recipient(tmp_path: Path) -> None:
    mailer: Mailer = MaildirMailer(tmp_path)
    asyncio.run(mailer.send(MSG, "judge@judge.test", ["France@Example.org", "england@example.org"]))
    for rcpt in ("france@example.org", "england@example.org"):
        [name] = maildir_files(tmp_path / rcpt, "new")
        data = (tmp_path / rcpt / "new" / name).read_bytes()
        assert data == f"Return-Path: <judge@judge.test>\r\nDelivered-To: {rcpt}\r\n".encode() + MSG
    # what the maildir mailer writes, the maildir inbox reads
    [mail] = MaildirInbox(tmp_path / "france@example.org").fetch_new()
    assert mail.raw.endswith(MSG)


@pytest.mark.parametrize(
    ("sender", "recipients"),
    [
        ("judge@judge.test", []),
        ("judge@judge.test", ["ok@example.org", "../../escape@example.org"]),
        ("judge@judge.test", ["ok@example.org", "a@example.org\r\nRCPT TO:<b@example.org>"]),
        ("judge@judge.test\r\n", ["ok@example.org"]),
    ],
)
def test_maildir_mailer_refuses_bad_envelopes_and_writes_nothing(
    tmp_path: Path, sender: str, recipients: list[str]
) -> None:
    with pytest.raises(ValueError):
        asyncio.run(MaildirMailer(tmp_path).send(MSG, sender, recipients))
    assert list(tmp_path.iterdir()) == []


def test_maildir_mailer_unwritable_root_is_unavailable(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with pytest.raises(MailerUnavailable):
        asyncio.run(MaildirMailer(blocker).send(MSG, "judge@judge.test", ["a@example.org"]))


def test_memory_mailer_records_and_can_be_down() -> None:
    mailer = MemoryMailer()
    asyncio.run(mailer.send(MSG, "judge@judge.test", ["a@example.org"]))
    mailer.unavailable = True
    with pytest.raises(MailerUnavailable):
        asyncio.run(mailer.send(MSG, "judge@judge.test", ["b@example.org"]))
    assert [(s.recipients, s.message_bytes) for s in mailer.sent] == [(("a@example.org",), MSG)]
