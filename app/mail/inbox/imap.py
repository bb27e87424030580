"""The production inbox: one mailbox on an IMAP server, read by UID with imapclient.

- Nothing connects in the constructor; the first operation does.
- The processed and quarantine folders are created when missing.
- ``fetch_new`` reads ``BODY.PEEK[]`` (never sets \\Seen itself) of every message not
  flagged \\Deleted, oldest UID first, at most ``batch_size`` per call.
- A dropped connection (network error, server BYE, ``doveadm kick``), even in the middle
  of a fetch, is reconnected with exponential backoff and the whole operation retried:
  nothing is lost, since a message leaves the folder only through ``mark_done`` or
  ``quarantine``.  After ``max_attempts`` failures ``InboxUnavailable`` is raised.
- uids are ``"<UIDVALIDITY>:<UID>"``: if the server renumbers the folder, marks aimed at
  the old numbering are ignored rather than applied to the wrong message.
- ``wait_for_mail`` uses IDLE when the server offers it, else polls with NOOP.
- A message the server refuses to hand over (a ``NO`` or ``BAD`` to its FETCH, not a dropped
  connection) never stops the inbox: the batch is fetched again one by one, the unreadable
  message is moved to the quarantine folder and listed by ``take_unreadable``.
"""

from __future__ import annotations

import imaplib
import logging
import socket
import ssl as ssl_module
import time
from collections.abc import Callable
from typing import TypeVar

from imapclient import DELETED, SEEN, IMAPClient
from imapclient.exceptions import LoginError

from app.mail.inbox.rawmail import InboxUnavailable, RawMail

__all__ = ["ImapInbox"]

log = logging.getLogger(__name__)

T = TypeVar("T")
_MAX_IDLE = 20 * 60.0
_DROPPED = (OSError, EOFError, imaplib.IMAP4.error)  # abort (BYE, EOF) is an IMAP4.error too


class ImapInbox:
    def __init__(
        self,
        host: str,
        port: int = 143,
        username: str = "",
        password: str = "",
        *,
        ssl: bool = False,
        ssl_context: ssl_module.SSLContext | None = None,
        folder: str = "INBOX",
        processed_folder: str = "Processed",
        quarantine_folder: str = "Quarantine",
        timeout: float = 30.0,
        max_attempts: int = 6,
        backoff: float = 0.5,
        max_backoff: float = 30.0,
        batch_size: int = 50,
        poll_interval: float = 5.0,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
        client_factory: Callable[[], IMAPClient] | None = None,
    ) -> None:
        self.host, self.port = host, port
        self.username, self._password = username, password
        self.ssl, self.ssl_context = ssl, ssl_context
        self.folder = folder
        self.processed_folder = processed_folder
        self.quarantine_folder = quarantine_folder
        self.timeout = timeout
        self.max_attempts = max(1, max_attempts)
        self.backoff, self.max_backoff = backoff, max_backoff
        self.batch_size = max(1, batch_size)
        self.poll_interval = poll_interval
        self._sleep, self._clock = sleep, clock
        self._client_factory = client_factory or self._new_client
        self._client: IMAPClient | None = None
        self._uidvalidity: int | None = None
        self._fetched_upto = 0
        self.reconnects = 0
        self._unreadable: list[tuple[str, str]] = []
        # told of every connection lost or refused, as it happens (the poller tells ``/healthz``:
        # an outage shows within a minute, not after the round's retries)
        self.on_trouble: Callable[[BaseException], None] | None = None

    # ------------------------------------------------------------------ connection

    def _new_client(self) -> IMAPClient:
        return IMAPClient(
            self.host, self.port, ssl=self.ssl, ssl_context=self.ssl_context, timeout=self.timeout
        )

    def _connected(self) -> IMAPClient:
        if self._client is not None:
            return self._client
        client = self._client_factory()
        try:
            client.login(self.username, self._password)
            for name in (self.folder, self.processed_folder, self.quarantine_folder):
                self._ensure_folder(client, name)
            selected = client.select_folder(self.folder)
        except BaseException:
            _quietly(client.shutdown)
            raise
        validity = int(selected.get(b"UIDVALIDITY", 0))
        if self._uidvalidity is not None and validity != self._uidvalidity:
            log.warning("UIDVALIDITY of %s changed (%s -> %s)", self.folder, self._uidvalidity, validity)
            self._fetched_upto = 0
        self._uidvalidity = validity
        self._client = client
        return client

    @staticmethod
    def _ensure_folder(client: IMAPClient, name: str) -> None:
        if client.folder_exists(name):
            return
        try:
            client.create_folder(name)
        except imaplib.IMAP4.error:
            if not client.folder_exists(name):  # not merely created by someone else meanwhile
                raise
        _quietly(lambda: client.subscribe_folder(name))

    def _trouble(self, error: BaseException) -> None:
        callback = self.on_trouble
        if callback is not None:
            _quietly(lambda: callback(error))

    def _drop(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            _quietly(client.shutdown)

    def _run(self, what: str, operation: Callable[[IMAPClient], T]) -> T:
        """Run ``operation`` on a live connection; reconnect and retry it when dropped."""
        delay = self.backoff
        for attempt in range(1, self.max_attempts + 1):
            try:
                return operation(self._connected())
            except LoginError as exc:
                self._drop()
                raise InboxUnavailable(f"IMAP login refused for {self.username}: {exc}") from exc
            except _DROPPED as exc:
                self._drop()
                self._trouble(exc)
                if attempt == self.max_attempts:
                    raise InboxUnavailable(
                        f"IMAP {self.host}:{self.port} unavailable during {what} "
                        f"after {attempt} attempts: {exc!r}"
                    ) from exc
                log.warning("IMAP connection lost during %s (%r); reconnecting in %.1fs", what, exc, delay)
                self.reconnects += 1
                self._sleep(delay)
                delay = min(delay * 2, self.max_backoff)
        raise AssertionError("unreachable")  # pragma: no cover

    # ------------------------------------------------------------------ the Inbox protocol

    def fetch_new(self) -> list[RawMail]:
        return self._run("fetch", self._fetch)

    def _fetch(self, client: IMAPClient) -> list[RawMail]:
        client.noop()  # dovecot shows mail delivered by others only after a sync point
        uids = sorted(client.search(["NOT", "DELETED"]))[: self.batch_size]
        mails = []
        if uids:
            try:
                data = client.fetch(uids, ["BODY.PEEK[]"])
            except imaplib.IMAP4.abort:
                raise  # the connection dropped: reconnect and retry (``_run``)
            except imaplib.IMAP4.error:  # the server refused: find the unreadable message(s)
                data = self._fetch_one_by_one(client, uids)
            for uid in uids:
                raw = data.get(uid, {}).get(b"BODY[]")
                if isinstance(raw, bytes):  # else expunged meanwhile
                    mails.append(RawMail(f"{self._uidvalidity}:{uid}", raw))
            self._fetched_upto = max(self._fetched_upto, uids[-1])
        return mails

    def _fetch_one_by_one(self, client: IMAPClient, uids: list[int]) -> dict[int, dict[bytes, object]]:
        data: dict[int, dict[bytes, object]] = {}
        for uid in uids:
            try:
                data.update(client.fetch([uid], ["BODY.PEEK[]"]))
            except imaplib.IMAP4.abort:
                raise
            except imaplib.IMAP4.error as error:
                name = f"{self._uidvalidity}:{uid}"
                log.error("unreadable message %s: %s", name, error)
                self._unreadable.append((name, f"{type(error).__name__}: {error}"))
                self._move(client, name, self.quarantine_folder, seen=False)
        return data

    def take_unreadable(self) -> list[tuple[str, str]]:
        """The (uid, error) of the messages moved to the quarantine unread since the last call."""
        taken, self._unreadable = self._unreadable, []
        return taken

    def mark_done(self, uid: str) -> None:
        self._run("mark_done", lambda client: self._move(client, uid, self.processed_folder, seen=True))

    def quarantine(self, uid: str) -> None:
        self._run("quarantine", lambda client: self._move(client, uid, self.quarantine_folder, seen=False))

    def _move(self, client: IMAPClient, uid: str, folder: str, *, seen: bool) -> None:
        validity, _, number = uid.partition(":")
        if not number.isdigit() or not validity.isdigit():
            raise ValueError(f"not an IMAP inbox uid: {uid!r}")
        if int(validity) != self._uidvalidity:
            log.warning("ignoring %s of %s: the folder was renumbered", folder, uid)
            return
        message = [int(number)]
        if seen:
            client.add_flags(message, [SEEN], silent=True)
        if client.has_capability("MOVE"):
            client.move(message, folder)
            return
        client.copy(message, folder)
        client.add_flags(message, [DELETED], silent=True)
        if client.has_capability("UIDPLUS"):
            client.uid_expunge(message)
        else:
            client.expunge()

    def wait_for_mail(self, timeout: float) -> None:
        # Servers end an IDLE after 30 minutes (RFC 2177): return, the caller waits again.
        deadline = self._clock() + min(timeout, _MAX_IDLE)
        try:
            client = self._connected()
            if self._has_new(client):
                return
            if client.has_capability("IDLE"):
                self._idle(client, deadline)
            else:
                self._poll(client, deadline)
        except _DROPPED as exc:
            log.warning("IMAP connection lost while waiting for mail (%r)", exc)
            self._drop()
            self._trouble(exc)
            self._sleep(max(0.0, min(self.backoff, deadline - self._clock())))

    def _has_new(self, client: IMAPClient) -> bool:
        client.noop()
        uids = client.search(["UID", f"{self._fetched_upto + 1}:*", "NOT", "DELETED"])
        return any(uid > self._fetched_upto for uid in uids)

    def _idle(self, client: IMAPClient, deadline: float) -> None:
        client.idle()
        try:
            while (left := deadline - self._clock()) > 0:
                asked = min(left, 300.0)
                started = self._clock()
                responses = client.idle_check(timeout=asked)
                if any(r and r[0] == b"BYE" for r in responses):
                    raise ConnectionError("the IMAP server said BYE during IDLE")
                if any(len(r) > 1 and r[1] == b"EXISTS" for r in responses):
                    return
                if not responses and self._clock() - started < asked / 2:
                    _raise_if_closed(client)  # idle_check returns at once on a dead socket
        finally:
            client.idle_done()

    def _poll(self, client: IMAPClient, deadline: float) -> None:
        while (left := deadline - self._clock()) > 0:
            self._sleep(min(self.poll_interval, left))
            client.noop()
            if self._has_new(client):
                return

    def close(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            _quietly(client.logout)
            _quietly(client.shutdown)


def _raise_if_closed(client: IMAPClient) -> None:
    try:
        data = client.socket().recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT)
    except (BlockingIOError, InterruptedError):
        return  # alive, merely nothing to read
    except ValueError:  # TLS sockets take no recv flags; an early empty idle_check means EOF
        data = b""
    if not data:
        raise ConnectionError("the IMAP server closed the connection during IDLE")


def _quietly(action: Callable[[], object]) -> None:
    """Run a clean-up step whose failure changes nothing (the connection is going anyway)."""
    try:
        action()
    except Exception as exc:
        log.debug("ignored during IMAP clean-up: %r", exc)
