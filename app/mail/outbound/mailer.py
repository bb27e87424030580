"""Where mail goes out: the ``Mailer`` protocol and its three transports.

- ``SmtpMailer``: production, an SMTP server through aiosmtplib.
- ``MaildirMailer``: the embedded mode, ``<root>/<recipient>/new/...`` per recipient.
- ``MemoryMailer``: the in-memory twin for unit tests.

``send`` raises ``MailerUnavailable`` when the message may be sent again later (server
unreachable, dropped, or a 4xx answer: ``MailerDeferred``, that mail alone) and ``MailerRejected``
when retrying cannot help (5xx).  For exactly-once delivery send to one recipient per call: a partly
accepted multi-recipient send raises, and sending it again would repeat it for those accepted.

``session()`` sends many mails over one connection (the outbox drain's batch): ``RSET`` between two
mails, and a connection lost between or during mails opened again once before the send gives up;
its commands pipelined when the server offers it (``app.mail.outbound.smtp_session``).
"""

from __future__ import annotations

import asyncio
import socket
import ssl
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import aiosmtplib

from app.mail.maildir import deliver, mailbox_for
from app.mail.outbound.outcomes import MailerDeferred, MailerRejected, MailerUnavailable, check_envelope
from app.mail.outbound.smtp_session import SmtpSession, wire_data

__all__ = [
    "Mailer",
    "MailerDeferred",
    "MailerRejected",
    "MailerSession",
    "MailerUnavailable",
    "MaildirMailer",
    "MemoryMailer",
    "SentMail",
    "SmtpMailer",
    "wire_data",
]


class MailerSession(Protocol):
    async def send(self, message_bytes: bytes, sender: str, recipients: list[str]) -> None: ...


class Mailer(Protocol):
    async def send(self, message_bytes: bytes, sender: str, recipients: list[str]) -> None: ...

    def session(self) -> AbstractAsyncContextManager[MailerSession]: ...


@asynccontextmanager
async def _itself(mailer: MailerSession) -> AsyncIterator[MailerSession]:
    """The session of a transport without connections: the transport itself."""
    yield mailer


@dataclass(frozen=True)
class SentMail:
    message_bytes: bytes
    sender: str
    recipients: tuple[str, ...]


class MemoryMailer:
    """The in-memory twin.  Set ``unavailable = True`` to simulate a server that is down."""

    def __init__(self) -> None:
        self.sent: list[SentMail] = []
        self.unavailable = False

    async def send(self, message_bytes: bytes, sender: str, recipients: list[str]) -> None:
        check_envelope(sender, recipients)
        if self.unavailable:
            raise MailerUnavailable("memory mailer set unavailable")
        self.sent.append(SentMail(bytes(message_bytes), sender, tuple(recipients)))

    def session(self) -> AbstractAsyncContextManager[MailerSession]:
        return _itself(self)


class MaildirMailer:
    """Delivers into ``<root>/<recipient address>/`` (a maildir each), like a local MTA."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)

    async def send(self, message_bytes: bytes, sender: str, recipients: list[str]) -> None:
        check_envelope(sender, recipients)
        boxes = [(rcpt, mailbox_for(self.root, rcpt)) for rcpt in recipients]  # all valid first
        for rcpt, box in boxes:
            trace = f"Return-Path: <{sender}>\r\nDelivered-To: {rcpt.strip().lower()}\r\n".encode()
            try:
                await asyncio.to_thread(deliver, box, trace + message_bytes)
            except OSError as exc:
                raise MailerUnavailable(f"cannot write to {box}: {exc}") from exc

    def session(self) -> AbstractAsyncContextManager[MailerSession]:
        return _itself(self)


class SmtpMailer:
    """Sends through an SMTP server.  Connects per call (or per ``session()``): nothing is opened
    in the constructor.

    ``local_hostname`` is the EHLO name (default: this host's name, without a DNS look-up).
    """

    def __init__(
        self,
        host: str,
        port: int = 25,
        *,
        username: str | None = None,
        password: str | None = None,
        starttls: bool = False,
        use_tls: bool = False,
        tls_context: ssl.SSLContext | None = None,
        timeout: float = 30.0,
        local_hostname: str | None = None,
        pipelining: bool = True,
    ) -> None:
        self.host, self.port = host, port
        self.username, self._password = username or None, password or None
        self.starttls, self.use_tls, self.tls_context = starttls, use_tls, tls_context
        self.timeout = timeout
        self.local_hostname = local_hostname
        self.pipelining = pipelining  # when the server offers it (RFC 2920): off, every command waits for its reply

    async def send(self, message_bytes: bytes, sender: str, recipients: list[str]) -> None:
        async with self.session() as session:
            await session.send(message_bytes, sender, recipients)

    @asynccontextmanager
    async def session(self) -> AsyncIterator[MailerSession]:
        """One connection for many mails (opened at the first, closed at the end)."""
        session = SmtpSession(self)
        try:
            yield session
        finally:
            await session.close()

    def client(self) -> aiosmtplib.SMTP:
        return aiosmtplib.SMTP(
            hostname=self.host,
            port=self.port,
            username=self.username,
            password=self._password,
            start_tls=self.starttls,
            use_tls=self.use_tls,
            tls_context=self.tls_context,
            timeout=self.timeout,
            # the EHLO name; aiosmtplib would otherwise ask DNS (socket.getfqdn) on every connection
            local_hostname=self.local_hostname or socket.gethostname() or "localhost",
        )
