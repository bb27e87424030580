"""Where mail comes in: the ``Inbox`` protocol and its three transports.

- ``ImapInbox``: production, a mailbox on an IMAP server (``app.mail.inbox.imap``).
- ``MaildirInbox``: the embedded mode, a local maildir folder (``app.mail.inbox.maildir``).
- ``MemoryInbox``: the in-memory twin for unit tests.

A consumer loops: ``fetch_new()``; for each message store it, process it, then
``mark_done(uid)`` (or ``quarantine(uid)`` after repeated failures); then
``wait_for_mail(timeout)``.  A message not marked comes back from the next
``fetch_new()``: delivery is at least once, so consumers dedupe (by Message-ID).
``mark_done`` and ``quarantine`` of a uid that is no longer waiting do nothing.
"""

from __future__ import annotations

import threading
from typing import Protocol

from app.mail.inbox.imap import ImapInbox
from app.mail.inbox.maildir import MaildirInbox
from app.mail.inbox.rawmail import InboxUnavailable, RawMail

__all__ = ["ImapInbox", "Inbox", "InboxUnavailable", "MaildirInbox", "MemoryInbox", "RawMail"]


class Inbox(Protocol):
    def fetch_new(self) -> list[RawMail]:
        """Messages neither done nor quarantined, oldest first."""
        ...

    def mark_done(self, uid: str) -> None:
        """Flag the message seen and move it out of the way (processed)."""
        ...

    def quarantine(self, uid: str) -> None:
        """Move the message to the quarantine folder: it is never fetched again."""
        ...

    def wait_for_mail(self, timeout: float) -> None:
        """Return when mail arrived since the last ``fetch_new``, or after ``timeout`` seconds.

        Never raises for a lost connection: the next ``fetch_new`` reconnects.
        """
        ...

    def close(self) -> None: ...


class MemoryInbox:
    """The in-memory twin: ``deliver()`` mail in, inspect ``done`` and ``quarantined``."""

    def __init__(self) -> None:
        self._waiting: dict[str, bytes] = {}
        self.done: dict[str, bytes] = {}
        self.quarantined: dict[str, bytes] = {}
        self._next = 1
        self._fetched_upto = 0
        self._arrived = threading.Condition()
        self.closed = False

    def deliver(self, raw: bytes) -> str:
        """Add a message; returns its uid."""
        with self._arrived:
            uid = str(self._next)
            self._next += 1
            self._waiting[uid] = raw
            self._arrived.notify_all()
        return uid

    def fetch_new(self) -> list[RawMail]:
        with self._arrived:
            self._fetched_upto = self._next - 1
            return [RawMail(uid, raw) for uid, raw in self._waiting.items()]

    def mark_done(self, uid: str) -> None:
        with self._arrived:
            if uid in self._waiting:
                self.done[uid] = self._waiting.pop(uid)

    def quarantine(self, uid: str) -> None:
        with self._arrived:
            if uid in self._waiting:
                self.quarantined[uid] = self._waiting.pop(uid)

    def wait_for_mail(self, timeout: float) -> None:
        with self._arrived:
            self._arrived.wait_for(lambda: self._next - 1 > self._fetched_upto, timeout)

    def close(self) -> None:
        self.closed = True
