"""Where mail goes out: the ``Mailer`` protocol and its three transports.

- ``SmtpMailer``: production, an SMTP server through aiosmtplib.
- ``MaildirMailer``: the embedded mode, ``<root>/<recipient>/new/...`` per recipient.
- ``MemoryMailer``: the in-memory twin for unit tests.

``send`` raises ``MailerUnavailable`` when the message may be sent again later (server
unreachable, dropped, or a 4xx answer) and ``MailerRejected`` when retrying cannot help
(5xx).  For exactly-once delivery send to one recipient per call: a partly accepted
multi-recipient send raises, and sending it again would repeat it for those accepted.
"""

from __future__ import annotations

import asyncio
import socket
import ssl
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import aiosmtplib

from app.mail.maildir import deliver, mailbox_for

__all__ = [
    "Mailer",
    "MailerRejected",
    "MailerUnavailable",
    "MaildirMailer",
    "MemoryMailer",
    "SentMail",
    "SmtpMailer",
]


class MailerUnavailable(Exception):
    """The mail could not be handed over now; the same send may succeed later."""


class MailerRejected(Exception):
    """The server refused the mail for good (5xx): sending it again will not help."""


class Mailer(Protocol):
    async def send(self, message_bytes: bytes, sender: str, recipients: list[str]) -> None: ...


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


class SmtpMailer:
    """Sends through an SMTP server.  Connects per call: nothing is opened in the constructor.

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
        _check_envelope(sender, recipients)
        try:
            errors, _ = await aiosmtplib.send(
                message_bytes,
                sender=sender,
                recipients=recipients,
                hostname=self.host,
                port=self.port,
                username=self.username,
                password=self._password,
                start_tls=self.starttls,
                use_tls=self.use_tls,
                tls_context=self.tls_context,
                timeout=self.timeout,
                # the EHLO name; aiosmtplib would otherwise ask DNS (socket.getfqdn) on every send
                local_hostname=self.local_hostname or socket.gethostname() or "localhost",
            )
        except aiosmtplib.SMTPRecipientsRefused as exc:
            codes = {rcpt.recipient: rcpt.code for rcpt in exc.recipients}
            raise _by_code(min(codes.values(), default=550), f"recipients refused: {codes}") from exc
        except aiosmtplib.SMTPResponseException as exc:
            raise _by_code(exc.code, f"SMTP server answered {exc.code} {exc.message}") from exc
        except (TimeoutError, aiosmtplib.SMTPException, OSError) as exc:
            raise MailerUnavailable(f"SMTP {self.host}:{self.port} unavailable: {exc!r}") from exc
        if errors:
            codes = {rcpt: response.code for rcpt, response in errors.items()}
            raise _by_code(min(codes.values()), f"some recipients refused: {codes}")


def _by_code(code: int, text: str) -> Exception:
    return MailerUnavailable(text) if 400 <= code < 500 or code < 0 else MailerRejected(text)
