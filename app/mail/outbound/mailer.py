"""Where mail goes out: the ``Mailer`` protocol and its three transports.

- ``SmtpMailer``: production, an SMTP server through aiosmtplib.
- ``MaildirMailer``: the embedded mode, ``<root>/<recipient>/new/...`` per recipient.
- ``MemoryMailer``: the in-memory twin for unit tests.

``send`` raises ``MailerUnavailable`` when the message may be sent again later (server
unreachable, dropped, or a 4xx answer: ``MailerDeferred``, that mail alone) and ``MailerRejected``
when retrying cannot help (5xx).  For exactly-once delivery send to one recipient per call: a partly
accepted multi-recipient send raises, and sending it again would repeat it for those accepted.

``session()`` sends many mails over one connection (the outbox drain's batch): ``RSET`` between two
mails, and a connection lost between or during mails opened again once before the send gives up.
"""

from __future__ import annotations

import asyncio
import re
import socket
import ssl
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import aiosmtplib

from app.mail.maildir import deliver, mailbox_for

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


class MailerUnavailable(Exception):
    """The mail could not be handed over now; the same send may succeed later."""


class MailerDeferred(MailerUnavailable):
    """The server put this mail off (4xx) and is still there: the next mails may go now."""


class MailerRejected(Exception):
    """The server refused the mail for good (5xx): sending it again will not help."""


class MailerSession(Protocol):
    async def send(self, message_bytes: bytes, sender: str, recipients: list[str]) -> None: ...


class Mailer(Protocol):
    async def send(self, message_bytes: bytes, sender: str, recipients: list[str]) -> None: ...

    def session(self) -> AbstractAsyncContextManager[MailerSession]: ...


@asynccontextmanager
async def _itself(mailer: MailerSession) -> AsyncIterator[MailerSession]:
    """The session of a transport without connections: the transport itself."""
    yield mailer


def _check_envelope(sender: str, recipients: list[str]) -> None:
    if not recipients:
        raise ValueError("no recipients")
    for rcpt in recipients:
        if "@" not in rcpt:
            raise ValueError(f"not an envelope recipient: {rcpt!r}")
    for address in (sender, *recipients):
        if any(ch in address for ch in "\r\n\0<>") or " " in address.strip():
            raise ValueError(f"not an envelope address: {address!r}")


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
        _check_envelope(sender, recipients)
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
        _check_envelope(sender, recipients)
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
    ) -> None:
        self.host, self.port = host, port
        self.username, self._password = username or None, password or None
        self.starttls, self.use_tls, self.tls_context = starttls, use_tls, tls_context
        self.timeout = timeout
        self.local_hostname = local_hostname

    async def send(self, message_bytes: bytes, sender: str, recipients: list[str]) -> None:
        async with self.session() as session:
            await session.send(message_bytes, sender, recipients)

    @asynccontextmanager
    async def session(self) -> AsyncIterator[MailerSession]:
        """One connection for many mails (opened at the first, closed at the end)."""
        session = _SmtpSession(self)
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


class _SmtpSession:
    """Mails over one SMTP connection: ``RSET`` before each mail but the first; a connection that
    is gone (closed by the server between two mails, or lost during one) is opened again once."""

    def __init__(self, mailer: SmtpMailer) -> None:
        self.mailer = mailer
        self._client: aiosmtplib.SMTP | None = None
        self._used = False

    async def send(self, message_bytes: bytes, sender: str, recipients: list[str]) -> None:
        _check_envelope(sender, recipients)
        for attempt in (1, 2):
            try:
                client = await self._ready()
                await client.mail(sender)
                self._used = True  # a transaction begun: RSET before the next
                refused: dict[str, int] = {}
                for rcpt in recipients:
                    try:
                        await client.rcpt(rcpt)
                    except aiosmtplib.SMTPRecipientRefused as exc:
                        refused[rcpt] = exc.code
                if refused:  # nothing sent: the mail goes (or is tried again) whole, never in part
                    raise _by_code(min(refused.values()), f"recipients refused: {refused}")
                await self._data(client, message_bytes)
            except (TimeoutError, aiosmtplib.SMTPConnectError, aiosmtplib.SMTPServerDisconnected, OSError) as exc:
                await self.close()  # the connection could not be opened, or is gone: once more, from the start
                if attempt == 1:
                    continue
                raise MailerUnavailable(f"SMTP {self.mailer.host}:{self.mailer.port} unavailable: {exc!r}") from exc
            except aiosmtplib.SMTPRecipientsRefused as exc:
                self._used = True
                codes = {rcpt.recipient: rcpt.code for rcpt in exc.recipients}
                raise _by_code(min(codes.values(), default=550), f"recipients refused: {codes}") from exc
            except aiosmtplib.SMTPResponseException as exc:
                if exc.code == 421 and attempt == 1:  # the server closes the connection: open another
                    await self.close()
                    continue
                self._used = True
                raise _by_code(exc.code, f"SMTP server answered {exc.code} {exc.message}") from exc
            except aiosmtplib.SMTPException as exc:  # the server misbehaves (not SMTP): later
                await self.close()
                raise MailerUnavailable(f"SMTP {self.mailer.host}:{self.mailer.port} unavailable: {exc!r}") from exc
            return

    async def _data(self, client: aiosmtplib.SMTP, message: bytes) -> None:
        """DATA, then the message as it goes on the wire (aiosmtplib's own `data` runs two regular
        expressions over every mail, which cost more than the rest of the send together)."""
        response = await client.execute_command(b"DATA")
        if response.code != 354:
            raise aiosmtplib.SMTPDataError(response.code, response.message)
        protocol = client.protocol
        if protocol is None:
            raise aiosmtplib.SMTPServerDisconnected("Connection lost")
        protocol.write(wire_data(message))
        response = await protocol.read_response(timeout=self.mailer.timeout)
        if response.code != 250:
            raise aiosmtplib.SMTPDataError(response.code, response.message)

    async def _ready(self) -> aiosmtplib.SMTP:
        if self._client is None or not self._client.is_connected:
            self._client = self.mailer.client()
            self._used = False
            await self._client.connect()
        elif self._used:
            await self._client.rset()
        return self._client

    async def close(self) -> None:
        client, self._client = self._client, None
        if client is not None and client.is_connected:
            try:
                await client.quit()
            except (TimeoutError, aiosmtplib.SMTPException, OSError):
                client.close()


_LINE_ENDS = re.compile(rb"\r\n|\n|\r")
_DOT_LINES = re.compile(rb"(?m)^\.")


def wire_data(message: bytes) -> bytes:
    """A message as DATA sends it (RFC 5321 4.5.2): every line ended by CRLF, a dot doubled at the
    start of a line, then the end mark.  A rendered mail needs neither change, which is checked
    (quickly) before rewriting anything."""
    crlf = message.count(b"\r\n")
    if message.count(b"\r") != crlf or message.count(b"\n") != crlf:
        message = _LINE_ENDS.sub(b"\r\n", message)
    if message.startswith(b".") or b"\n." in message:
        message = _DOT_LINES.sub(b"..", message)
    if not message.endswith(b"\r\n"):
        message += b"\r\n"
    return message + b".\r\n"


def _by_code(code: int, text: str) -> Exception:
    if 400 <= code < 500:
        return MailerDeferred(text)
    return MailerUnavailable(text) if code < 0 else MailerRejected(text)
