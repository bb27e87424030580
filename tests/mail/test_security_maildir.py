"""Issue 11: one unreadable file never stops inbound mail; two workers claim each file once."""

from __future__ import annotations

import errno
import threading
from pathlib import Path

import pytest

from app.mail.inbox.maildir import MaildirInbox
from app.mail.maildir import deliver

MSG = b"From: a@example.com\r\nTo: judge@judge.test\r\nSubject: t\r\n\r\nLIST\r\n"


def _files(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir()) if folder.is_dir() else []


def test_unreadable_file_is_moved_aside_and_the_rest_flows(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    box = tmp_path / "inbox"
    bad = deliver(box, MSG + b"bad")
    good = deliver(box, MSG + b"good")
    real_read = Path.read_bytes

    def read_bytes(self: Path) -> bytes:
        if self.name.startswith(bad.name):
            raise OSError(errno.EIO, "Input/output error")
        return real_read(self)

    monkeypatch.setattr(Path, "read_bytes", read_bytes)
    inbox = MaildirInbox(box)
    mails = inbox.fetch_new()
    assert [m.raw for m in mails] == [MSG + b"good"]
    assert _files(box / ".Quarantine" / "cur") == [f"{bad.name}:2,"]
    [(uid, error)] = inbox.take_unreadable()
    assert uid == bad.name and "Input/output error" in error
    assert inbox.take_unreadable() == []
    inbox.mark_done(good.name)
    assert inbox.fetch_new() == []


def test_permission_denied_file_with_the_poller(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from app.db.migrate import upgrade
    from app.db.session import make_engine, make_sessionmaker
    from app.mail.runners.poller import poll_once
    from app.services.kernel.context import Judge
    from app.settings import Settings
    from tests.server.conftest import Clock

    url = f"sqlite:///{tmp_path / 'judge.sqlite3'}"
    upgrade(url)
    engine = make_engine(url)

    judge = Judge(settings=Settings(database_url=url), sessions=make_sessionmaker(engine), clock=Clock())
    box = tmp_path / "inbox"
    bad = deliver(box, MSG)
    deliver(box, MSG.replace(b"Subject: t", b"Message-ID: <ok@x>\r\nSubject: t"))
    real_read = Path.read_bytes

    def read_bytes(self: Path) -> bytes:
        if self.name.startswith(bad.name):
            raise PermissionError(errno.EACCES, "Permission denied")
        return real_read(self)

    monkeypatch.setattr(Path, "read_bytes", read_bytes)
    assert poll_once(judge, MaildirInbox(box)) == 1
    from sqlalchemy import select

    from app.db.models import OutboundMessage

    with judge.sessions.begin() as db:
        rows = list(db.scalars(select(OutboundMessage)))
        kinds = sorted((r.recipients[0], r.kind) for r in rows)
    assert ("judgekeeper@judge.test", "quarantine") in kinds and ("a@example.com", "reply") in kinds
    assert len(_files(box / "cur")) == 1 and len(_files(box / ".Quarantine" / "cur")) == 1
    engine.dispose()


def test_two_workers_claim_each_file_once(tmp_path: Path) -> None:
    box = tmp_path / "inbox"
    for n in range(200):
        deliver(box, MSG + str(n).encode())
    got: dict[str, list[str]] = {"a": [], "b": []}
    errors: list[BaseException] = []

    def work(name: str) -> None:
        inbox = MaildirInbox(box)
        try:
            for _ in range(30):
                for mail in inbox.fetch_new():
                    got[name].append(mail.uid)
                    inbox.mark_done(mail.uid)
        except BaseException as error:  # a traceback in a worker fails the test
            errors.append(error)

    threads = [threading.Thread(target=work, args=(name,)) for name in got]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert len(got["a"]) + len(got["b"]) == 200
    assert not set(got["a"]) & set(got["b"])
    assert len(_files(box / "cur")) == 200 and _files(box / "new") == []


def test_a_dead_workers_claims_come_back(tmp_path: Path) -> None:
    box = tmp_path / "inbox"
    deliver(box, MSG)
    dead = MaildirInbox(box)
    assert len(dead.fetch_new()) == 1  # claimed, then the worker died
    alive = MaildirInbox(box, claim_timeout=0.0)
    [mail] = alive.fetch_new()
    alive.mark_done(mail.uid)
    assert len(_files(box / "cur")) == 1


def test_claims_of_a_process_that_died_come_back_at_once(tmp_path: Path) -> None:
    import subprocess
    import sys

    box = tmp_path / "inbox"
    deliver(box, MSG)
    code = ("import sys; from pathlib import Path; from app.mail.inbox.maildir import MaildirInbox; "
            "assert len(MaildirInbox(Path(sys.argv[1])).fetch_new()) == 1")
    subprocess.run([sys.executable, "-c", code, str(box)], check=True, cwd=Path(__file__).resolve().parents[2])
    assert _files(box / "new") == []  # claimed by the process, which is gone now
    [mail] = MaildirInbox(box).fetch_new()  # the default claim timeout: no wait for a dead process
    assert mail.raw == MSG


class _FakeImap:
    """Just enough of IMAPClient: message 2 cannot be fetched (the server answers NO)."""

    def __init__(self) -> None:
        self.messages = {1: MSG + b"1", 2: MSG + b"2", 3: MSG + b"3"}
        self.moved: list[tuple[int, str]] = []

    def login(self, user: str, password: str) -> None: ...
    def folder_exists(self, name: str) -> bool: return True
    def select_folder(self, name: str) -> dict[bytes, int]: return {b"UIDVALIDITY": 7}
    def noop(self) -> None: ...
    def shutdown(self) -> None: ...
    def has_capability(self, name: str) -> bool: return name == "MOVE"
    def add_flags(self, *args: object, **kwargs: object) -> None: ...

    def search(self, criteria: list[str]) -> list[int]:
        return sorted(self.messages)

    def fetch(self, uids: list[int], what: list[str]) -> dict[int, dict[bytes, bytes]]:
        from imapclient.exceptions import IMAPClientError

        if 2 in uids:
            raise IMAPClientError("fetch failed: NO [SERVERBUG] Internal error")
        return {uid: {b"BODY[]": self.messages[uid]} for uid in uids}

    def move(self, uids: list[int], folder: str) -> None:
        for uid in uids:
            self.messages.pop(uid)
            self.moved.append((uid, folder))


def test_imap_message_the_server_cannot_read_is_quarantined() -> None:
    from app.mail.inbox.imap import ImapInbox

    fake = _FakeImap()
    inbox = ImapInbox("imap.invalid", client_factory=lambda: fake, sleep=lambda _: None)  # type: ignore[arg-type,return-value]
    mails = inbox.fetch_new()
    assert [m.uid for m in mails] == ["7:1", "7:3"]
    assert fake.moved == [(2, "Quarantine")]
    [(uid, error)] = inbox.take_unreadable()
    assert uid == "7:2" and "SERVERBUG" in error
    assert [m.uid for m in inbox.fetch_new()] == ["7:1", "7:3"]
