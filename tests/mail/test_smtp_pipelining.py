"""Issue 26 item 2 (the send path): SMTP PIPELINING (RFC 2920).  Against a small scripted SMTP
server in this process, a session whose server offers PIPELINING sends RSET, MAIL, RCPT and DATA
in one write; and every failure (a refused recipient, 421, a dropped connection, 4xx and 5xx on
DATA, a server that never answers, one that takes DATA with no recipient) ends as it does step by
step (``SmtpMailer(pipelining=False)``): the same exception, the same mails delivered."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from app.mail.outbound.mailer import SmtpMailer

JUDGE = "judge@judge.test"


@dataclass
class Script:
    """What the server does: ``refuse`` recipients (address -> code), ``mail_reply`` (the n-th MAIL
    over all connections -> a reply, or "drop" to close the connection unanswered), ``data_reply``
    (the DATA command, or the end of the message: n-th -> reply), ``silent`` (never answer MAIL)."""

    refuse: dict[str, int] = field(default_factory=dict)
    mail_reply: dict[int, str] = field(default_factory=dict)
    mail_always: str | None = None
    data_command_reply: dict[int, str] = field(default_factory=dict)
    data_end_reply: dict[int, str] = field(default_factory=dict)
    data_without_recipients: bool = False  # a broken server: 354 although no recipient was accepted
    silent: bool = False


class ScriptedSmtp(asyncio.Protocol):
    def __init__(self, server: Server) -> None:
        self.server, self.script = server, server.script
        self.buffer = b""
        self.in_data = False
        self.rcpts: list[str] = []
        self.message = b""

    def connection_made(self, transport: Any) -> None:
        self.transport = transport
        self.server.connections += 1
        transport.write(b"220 scripted ESMTP\r\n")

    def data_received(self, data: bytes) -> None:
        self.server.reads.append(data)
        self.buffer += data
        while self.buffer and not self.transport.is_closing():
            if self.in_data:
                end = self.buffer.find(b"\r\n.\r\n")
                if end < 0:
                    return
                self.message, self.buffer = self.buffer[:end + 2], self.buffer[end + 5:]
                self.in_data = False
                self.server.data_ends += 1
                reply = self.script.data_end_reply.get(self.server.data_ends, "250 2.0.0 accepted")
                if reply.startswith("250"):
                    self.server.delivered += [(rcpt, self.message) for rcpt in self.rcpts]
                self.rcpts = []
                self._say(reply)
                continue
            line, sep, rest = self.buffer.partition(b"\r\n")
            if not sep:
                return
            self.buffer = rest
            self._command(line.decode())

    def _say(self, reply: str) -> None:
        if reply == "drop":
            self.transport.close()
            return
        self.transport.write(reply.encode() + b"\r\n")
        if reply.startswith("421"):
            self.transport.close()

    def _command(self, line: str) -> None:
        verb = line[:4].upper()
        self.server.commands.append(verb)
        script = self.script
        if verb == "EHLO":
            self._say("250-scripted\r\n250-8BITMIME\r\n" + ("250-PIPELINING\r\n" if self.server.pipelining else "")
                      + "250 SIZE 10485760")
        elif verb == "RSET":
            self.rcpts = []
            self._say("250 OK")
        elif verb == "MAIL":
            self.server.mails += 1
            if script.silent:
                return
            self.rcpts = []
            self._say(script.mail_always or script.mail_reply.get(self.server.mails, "250 OK"))
        elif verb == "RCPT":
            address = line.partition("<")[2].rstrip(">")
            code = script.refuse.get(address)
            if code:
                self._say(f"{code} no such user here")
            else:
                self.rcpts.append(address)
                self._say("250 OK")
        elif verb == "DATA":
            self.server.data_commands += 1
            reply = script.data_command_reply.get(self.server.data_commands)
            if reply is None and not self.rcpts and not script.data_without_recipients:
                reply = "554 5.5.1 no valid recipients"
            if reply is None:
                self.in_data = True
                reply = "354 go ahead"
            self._say(reply)
        elif verb == "QUIT":
            self._say("221 bye")
            self.transport.close()
        else:
            self._say("250 OK")


class Server:
    def __init__(self, script: Script, pipelining: bool) -> None:
        self.script, self.pipelining = script, pipelining
        self.connections = self.mails = self.data_commands = self.data_ends = 0
        self.reads: list[bytes] = []
        self.commands: list[str] = []
        self.delivered: list[tuple[str, bytes]] = []


def _mail(n: int) -> bytes:
    return f"Subject: mail {n}\r\nMessage-ID: <m{n}@judge.test>\r\n\r\nbody {n}\r\n".encode()


Sends = list[tuple[int, list[str]]]  # (mail number, recipients)


def run(script: Script, sends: Sends, *, pipelined: bool, timeout: float = 5.0) -> tuple[list[str], Server]:
    """The ``sends`` over one session; each one's outcome (``sent`` or the exception's name)."""
    server = Server(script, pipelining=pipelined)

    async def main() -> list[str]:
        listening = await asyncio.get_running_loop().create_server(lambda: ScriptedSmtp(server), "127.0.0.1", 0)
        port = listening.sockets[0].getsockname()[1]
        outcomes: list[str] = []
        mailer = SmtpMailer("127.0.0.1", port, timeout=timeout, pipelining=pipelined)
        try:
            async with mailer.session() as session:
                for number, recipients in sends:
                    try:
                        await session.send(_mail(number), JUDGE, recipients)
                    except Exception as exc:
                        outcomes.append(type(exc).__name__)
                    else:
                        outcomes.append("sent")
        finally:
            listening.close()
        return outcomes

    return asyncio.run(main()), server


def both(script: Callable[[], Script], sends: Sends, **kw: Any) -> tuple[list[str], Server, Server]:
    """The outcomes pipelined and step by step, which must be the same, and the two servers."""
    piped, piped_server = run(script(), sends, pipelined=True, **kw)
    stepped, stepped_server = run(script(), sends, pipelined=False, **kw)
    assert piped == stepped
    assert piped_server.delivered == stepped_server.delivered
    return piped, piped_server, stepped_server


THREE: Sends = [(1, ["a@x.test"]), (2, ["b@x.test"]), (3, ["c@x.test"])]


def test_a_pipelining_server_gets_each_mail_s_commands_in_one_write() -> None:
    outcomes, piped, stepped = both(Script, THREE)
    assert outcomes == ["sent"] * 3 and [rcpt for rcpt, _ in piped.delivered] == ["a@x.test", "b@x.test", "c@x.test"]
    assert piped.delivered[1][1] == _mail(2)
    assert piped.connections == stepped.connections == 1
    assert piped.commands == stepped.commands  # the same commands: RSET between two mails
    assert piped.commands.count("RSET") == 2
    groups = [read for read in piped.reads if b"MAIL FROM:" in read]
    assert groups == [b"MAIL FROM:<judge@judge.test>\r\nRCPT TO:<a@x.test>\r\nDATA\r\n",
                      b"RSET\r\nMAIL FROM:<judge@judge.test>\r\nRCPT TO:<b@x.test>\r\nDATA\r\n",
                      b"RSET\r\nMAIL FROM:<judge@judge.test>\r\nRCPT TO:<c@x.test>\r\nDATA\r\n"]
    assert all(read.count(b"\r\n") == 1 for read in stepped.reads if b"MAIL FROM:" in read)  # one command a read


@pytest.mark.parametrize(("code", "failure"), [(550, "MailerRejected"), (451, "MailerDeferred")])
def test_a_refused_recipient_sends_nothing_and_the_next_mails_go(code: int, failure: str) -> None:
    outcomes, piped, _ = both(lambda: Script(refuse={"b@x.test": code}), THREE)
    assert outcomes == ["sent", failure, "sent"]
    assert [rcpt for rcpt, _ in piped.delivered] == ["a@x.test", "c@x.test"]
    assert piped.connections == 1  # DATA answered 554: the connection stays in step


def test_one_of_two_recipients_refused_sends_to_neither() -> None:
    """The server takes DATA for the recipient it accepted: the message must not go, so the
    connection is closed instead (the server drops the transaction), and the next mail goes."""
    sends: Sends = [(1, ["a@x.test", "bad@x.test"]), (2, ["c@x.test"])]
    outcomes, piped, _ = both(lambda: Script(refuse={"bad@x.test": 550}), sends)
    assert outcomes == ["MailerRejected", "sent"]
    assert [rcpt for rcpt, _ in piped.delivered] == ["c@x.test"] and piped.data_ends == 1


def test_a_server_taking_data_without_recipients_gets_no_message() -> None:
    outcomes, piped, _ = both(lambda: Script(refuse={"b@x.test": 550}, data_without_recipients=True), THREE)
    assert outcomes == ["sent", "MailerRejected", "sent"]
    assert [rcpt for rcpt, _ in piped.delivered] == ["a@x.test", "c@x.test"] and piped.data_ends == 2


def test_421_opens_another_connection_once() -> None:
    outcomes, piped, stepped = both(lambda: Script(mail_reply={2: "421 4.3.0 closing"}), THREE)
    assert outcomes == ["sent"] * 3 and piped.connections == stepped.connections == 2


def test_421_again_puts_the_mail_off() -> None:
    outcomes, piped, _ = both(lambda: Script(mail_always="421 4.3.0 closing"), THREE[:1])
    assert outcomes == ["MailerDeferred"] and piped.connections == 2 and not piped.delivered


def test_a_connection_lost_is_opened_again_once_then_unavailable() -> None:
    outcomes, piped, _ = both(lambda: Script(mail_reply={2: "drop"}), THREE)
    assert outcomes == ["sent"] * 3 and piped.connections == 2
    outcomes, piped, _ = both(lambda: Script(mail_always="drop"), THREE[:1])
    assert outcomes == ["MailerUnavailable"] and piped.connections == 2


@pytest.mark.parametrize(("where", "reply", "failure"), [
    ("end", "452 4.3.1 insufficient storage", "MailerDeferred"),
    ("end", "550 5.7.1 content refused", "MailerRejected"),
    ("command", "451 4.3.0 try later", "MailerDeferred"),
    ("command", "554 5.3.4 too big", "MailerRejected"),
])
def test_a_failing_data_fails_that_mail_alone(where: str, reply: str, failure: str) -> None:
    def script() -> Script:
        return Script(data_end_reply={2: reply}) if where == "end" else Script(data_command_reply={2: reply})

    outcomes, piped, _ = both(script, THREE)
    assert outcomes == ["sent", failure, "sent"] and piped.connections == 1
    assert [rcpt for rcpt, _ in piped.delivered] == ["a@x.test", "c@x.test"]


def test_a_server_that_never_answers_is_unavailable() -> None:
    outcomes, piped, _ = both(lambda: Script(silent=True), THREE[:1], timeout=0.3)
    assert outcomes == ["MailerUnavailable"] and piped.connections == 2 and not piped.delivered


def test_replies_cut_anywhere_are_read_whole() -> None:
    """The replies of a group arrive in pieces (here one byte a read): each is read whole, in order."""
    from app.mail.outbound.smtp_session import _one_reply

    stream = b"250 OK\r\n250-first\r\n250-second\r\n250 last\r\n354 go ahead\r\nxyz\r\n"
    buffer, replies = bytearray(), []
    for byte in stream:
        buffer.append(byte)
        while (reply := _one_reply(buffer)) is not None:
            replies.append(reply)
    assert [(r.code, r.message) for r in replies[:3]] == [  # type: ignore[union-attr]
        (250, "OK"), (250, "first\nsecond\nlast"), (354, "go ahead")]
    assert isinstance(replies[3], Exception) and not buffer

