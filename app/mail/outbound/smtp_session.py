"""Mails over one SMTP connection (``SmtpMailer.session()``: the outbox drain's batch), pipelined
(RFC 2920) when the server's EHLO offers ``PIPELINING``.

Step by step, a mail costs five round trips (RSET, MAIL, RCPT, DATA, then the message), each a
wait for the server and a turn of the event loop.  Pipelined, ``RSET`` (when a transaction may be
open), ``MAIL``, every ``RCPT`` and ``DATA`` go in one write, their replies are read in order, and
the message follows the ``354``: two round trips.  aiosmtplib connects, says EHLO, starts TLS and
logs in as before; a pipelining session then takes the connection over (``_Pipe``: aiosmtplib's
protocol keeps one reply at a time and drops what arrives while one waits, so it cannot read a
group's replies).  Without ``PIPELINING`` the mails go step by step through aiosmtplib.

The outcome is the same either way, decided by the first reply that fails, in the order of the
commands: a refused recipient means nothing is sent (the mail goes, or is tried again, whole; a
``354`` the server gave all the same is answered by closing the connection, which makes the server
drop the transaction, RFC 5321 4.1.1.4); ``421`` (the server closes the connection) opens another
once; a connection lost or a reply that never comes opens another once, then ``MailerUnavailable``;
any other 4xx or 5xx is ``MailerDeferred`` or ``MailerRejected``.  A failure mid-group reads the
group's remaining replies so that the connection stays in step (or closes it).
"""

from __future__ import annotations

import asyncio
import re
from collections import deque
from typing import NamedTuple, Protocol

import aiosmtplib
from aiosmtplib.email import quote_address

from app.mail.outbound.outcomes import MailerUnavailable, by_code, check_envelope

__all__ = ["SmtpSession", "wire_data"]


class _Connects(Protocol):
    """What a session needs of its mailer (``SmtpMailer``)."""

    host: str
    port: int
    timeout: float
    pipelining: bool

    def client(self) -> aiosmtplib.SMTP: ...


class _Reply(NamedTuple):
    code: int
    message: str


class SmtpSession:
    """Mails over one SMTP connection: ``RSET`` before each mail but the first; a connection that
    is gone (closed by the server between two mails, or lost during one) is opened again once."""

    def __init__(self, mailer: _Connects) -> None:
        self.mailer = mailer
        self._client: aiosmtplib.SMTP | None = None  # step by step
        self._pipe: _Pipe | None = None  # pipelined
        self._used = False  # a transaction may be open: RSET before the next

    async def send(self, message_bytes: bytes, sender: str, recipients: list[str]) -> None:
        check_envelope(sender, recipients)
        for attempt in (1, 2):
            try:
                pipe = await self._ready()
                if pipe is not None:
                    await self._pipelined(pipe, message_bytes, sender, recipients)
                else:
                    await self._stepwise(message_bytes, sender, recipients)
            except (TimeoutError, aiosmtplib.SMTPConnectError, aiosmtplib.SMTPServerDisconnected, OSError) as exc:
                await self.close()  # the connection could not be opened, or is gone: once more, from the start
                if attempt == 1:
                    continue
                raise MailerUnavailable(f"SMTP {self.mailer.host}:{self.mailer.port} unavailable: {exc!r}") from exc
            except aiosmtplib.SMTPRecipientsRefused as exc:
                self._used = True
                codes = {rcpt.recipient: rcpt.code for rcpt in exc.recipients}
                raise by_code(min(codes.values(), default=550), f"recipients refused: {codes}") from exc
            except aiosmtplib.SMTPResponseException as exc:
                if exc.code == 421 and attempt == 1:  # the server closes the connection: open another
                    await self.close()
                    continue
                self._used = True
                raise by_code(exc.code, f"SMTP server answered {exc.code} {exc.message}") from exc
            except aiosmtplib.SMTPException as exc:  # the server misbehaves (not SMTP): later
                await self.close()
                raise MailerUnavailable(f"SMTP {self.mailer.host}:{self.mailer.port} unavailable: {exc!r}") from exc
            return

    async def _ready(self) -> _Pipe | None:
        """The connection (opened, with EHLO, when there is none): its pipe when it pipelines."""
        if self._pipe is not None and self._pipe.usable():
            return self._pipe
        if self._client is not None and self._client.is_connected:
            return None
        await self.close()
        client = self.mailer.client()
        self._used = False
        await client.connect()
        self._client = client
        if client.is_ehlo_or_helo_needed:
            try:
                await client.ehlo()
            except aiosmtplib.SMTPHeloError:
                if not client.is_connected:
                    raise
                await client.helo()
        if self.mailer.pipelining and client.supports_extension("pipelining"):
            self._pipe, self._client = _Pipe.take_over(client), None
        return self._pipe

    async def _stepwise(self, message: bytes, sender: str, recipients: list[str]) -> None:
        client = self._client
        assert client is not None
        if self._used:
            await client.rset()
        await client.mail(sender)
        self._used = True  # a transaction begun: RSET before the next
        refused: dict[str, int] = {}
        for rcpt in recipients:
            try:
                await client.rcpt(rcpt)
            except aiosmtplib.SMTPRecipientRefused as exc:
                refused[rcpt] = exc.code
        if refused:  # nothing sent: the mail goes (or is tried again) whole, never in part
            raise by_code(min(refused.values()), f"recipients refused: {refused}")
        response = await client.execute_command(b"DATA")
        if response.code != 354:
            raise aiosmtplib.SMTPDataError(response.code, response.message)
        protocol = client.protocol
        if protocol is None:
            raise aiosmtplib.SMTPServerDisconnected("Connection lost")
        # the message as it goes on the wire (aiosmtplib's own `data` runs two regular expressions
        # over every mail, which cost more than the rest of the send together)
        protocol.write(wire_data(message))
        response = await protocol.read_response(timeout=self.mailer.timeout)
        if response.code != 250:
            raise aiosmtplib.SMTPDataError(response.code, response.message)

    async def _pipelined(self, pipe: _Pipe, message: bytes, sender: str, recipients: list[str]) -> None:
        rset = self._used
        group = [b"RSET\r\n"] if rset else []
        group.append(b"MAIL FROM:" + quote_address(sender).encode("ascii") + b"\r\n")
        group += [b"RCPT TO:" + quote_address(rcpt).encode("ascii") + b"\r\n" for rcpt in recipients]
        group.append(b"DATA\r\n")
        pipe.write(b"".join(group))
        self._used = True
        left = len(group)
        try:
            if rset:
                left -= 1
                reply = await pipe.reply()
                if reply.code != 250:
                    raise aiosmtplib.SMTPResponseException(reply.code, reply.message)
            left -= 1
            reply = await pipe.reply()
            if reply.code != 250:
                raise aiosmtplib.SMTPSenderRefused(reply.code, reply.message, sender)
            refused: dict[str, int] = {}
            for rcpt in recipients:
                left -= 1
                reply = await pipe.reply()
                if reply.code not in (250, 251):
                    refused[rcpt] = reply.code
            left -= 1
            reply = await pipe.reply()  # to DATA
        except aiosmtplib.SMTPResponseException as exc:  # the transaction ends here: the rest answered
            await self._settle(pipe, left, exc.code)
            raise
        if refused:  # nothing sent: the mail goes (or is tried again) whole, never in part
            if reply.code == 354:  # the server waits for a message that must not go: drop the connection
                self._drop()
            raise by_code(min(refused.values()), f"recipients refused: {refused}")
        if reply.code != 354:
            raise aiosmtplib.SMTPDataError(reply.code, reply.message)
        pipe.write(wire_data(message))
        reply = await pipe.reply()
        if reply.code != 250:
            raise aiosmtplib.SMTPDataError(reply.code, reply.message)

    async def _settle(self, pipe: _Pipe, left: int, code: int) -> None:
        """Read the ``left`` replies of a group that failed, so that the connection stays in step;
        closed instead when the server is closing it (421), or it took the DATA (354), or is gone."""
        try:
            if code == 421 or code < 0:
                raise ConnectionError("the server closes the connection, or does not speak SMTP")
            for _ in range(left):
                if (await pipe.reply()).code == 354:
                    raise ConnectionError("the server waits for a message that must not go")
        except (ConnectionError, TimeoutError, aiosmtplib.SMTPException):
            self._drop()

    def _drop(self) -> None:
        """Close the connection without a word (no QUIT: the server may be reading a message)."""
        pipe, self._pipe = self._pipe, None
        if pipe is not None:
            pipe.abort()

    async def close(self) -> None:
        pipe, self._pipe = self._pipe, None
        if pipe is not None:
            await pipe.quit()
        client, self._client = self._client, None
        if client is not None and client.is_connected:
            try:
                await client.quit()
            except (TimeoutError, aiosmtplib.SMTPException, OSError):
                client.close()


class _Pipe(asyncio.Protocol):
    """A connection taken over from aiosmtplib once it has said EHLO (``transport.set_protocol``):
    the server's replies parsed as they come and kept in order, however they are cut into reads."""

    def __init__(self, transport: asyncio.Transport, timeout: float) -> None:
        self.transport, self.timeout = transport, timeout
        self.buffer = bytearray()
        self.replies: deque[_Reply | Exception] = deque()
        self.asked = 0  # replies read or awaited
        self.waiter: asyncio.Future[None] | None = None
        self.lost = False

    @classmethod
    def take_over(cls, client: aiosmtplib.SMTP) -> _Pipe:
        transport = client.transport
        if not isinstance(transport, asyncio.Transport) or transport.is_closing():
            raise aiosmtplib.SMTPServerDisconnected("Connection lost")
        pipe = cls(transport, client.timeout or 60.0)
        transport.set_protocol(pipe)
        client.transport = None  # the client lets go of the connection (its close() leaves it open)
        client.close()
        return pipe

    def usable(self) -> bool:
        """Open, and nothing said that was not asked for (a server that speaks out of turn, as it
        closes for instance, is not trusted with the next mail)."""
        return not self.lost and not self.transport.is_closing() and not self.replies and not self.buffer

    # ------------------------------------------------------------------ asyncio.Protocol

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        while (reply := _one_reply(self.buffer)) is not None:
            self.replies.append(reply)
            if isinstance(reply, Exception):
                break
        if len(self.buffer) > 65536:  # no reply is that long
            self.replies.append(aiosmtplib.SMTPResponseException(-1, "SMTP reply too long"))
        if self.replies and isinstance(self.replies[-1], Exception):  # not SMTP: never trusted again
            self.buffer.clear()
            self.lost = True
            self.transport.abort()
        self._wake()

    def eof_received(self) -> bool:
        return False  # the transport closes: connection_lost follows

    def connection_lost(self, exc: Exception | None) -> None:
        self.lost = True
        self._wake()

    def _wake(self) -> None:
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_result(None)

    # ------------------------------------------------------------------ the session's side

    def write(self, data: bytes) -> None:
        if self.lost or self.transport.is_closing():
            raise aiosmtplib.SMTPServerDisconnected("Connection lost")
        self.transport.write(data)

    async def reply(self) -> _Reply:
        """The next reply, in order (``TimeoutError`` after ``timeout`` seconds of silence)."""
        while not self.replies:
            if self.lost:
                raise aiosmtplib.SMTPServerDisconnected("Connection lost")
            self.waiter = asyncio.get_running_loop().create_future()
            try:
                await asyncio.wait_for(self.waiter, self.timeout)
            finally:
                self.waiter = None
        reply = self.replies.popleft()
        if isinstance(reply, Exception):
            raise reply
        return reply

    def abort(self) -> None:
        self.lost = True
        self.transport.abort()

    async def quit(self) -> None:
        """QUIT, its reply awaited a little, then the connection closed whatever happens."""
        try:
            if self.usable():
                self.write(b"QUIT\r\n")
                self.timeout = min(self.timeout, 5.0)
                await self.reply()
        except (ConnectionError, TimeoutError, aiosmtplib.SMTPException, OSError):
            pass
        finally:
            self.lost = True
            self.transport.close()


_REPLY_LINE = re.compile(rb"(\d{3})([ -]?)([^\n]*)\n")


def _one_reply(buffer: bytearray) -> _Reply | Exception | None:
    """The first whole reply in ``buffer`` (taken out of it), or None while it is not whole.  A
    reply is lines ``NNN-text`` ended by one ``NNN text`` (RFC 5321 4.2.1)."""
    lines: list[str] = []
    offset = 0
    while True:
        end = buffer.find(b"\n", offset)
        if end < 0:
            return None
        match = _REPLY_LINE.match(buffer, offset, end + 1)
        if match is None:
            text = bytes(buffer[offset:end]).decode("utf-8", "replace")
            del buffer[:end + 1]
            return aiosmtplib.SMTPResponseException(-1, f"malformed SMTP reply line: {text!r}")
        lines.append(match.group(3).decode("utf-8", "surrogateescape").strip())
        offset = end + 1
        if match.group(2) != b"-":
            code = int(match.group(1))  # before the buffer changes: a match reads it when asked
            del buffer[:offset]
            return _Reply(code, "\n".join(lines))


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
