"""The SMTP server of ``benchmarks/deadline_to_inbox.py``: it accepts every mail and counts what it
accepted, in a process of its own on the machine it measures (so it costs as little as it can).

    smtp_sink(port, counts, ready)  # counts: multiprocessing.Array("d", 4)
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

__all__ = ["smtp_sink"]


class _Sink(asyncio.BufferedProtocol):
    """Just enough SMTP (RFC 5321) to accept every mail: EHLO/HELO, MAIL, RCPT, DATA, RSET, NOOP,
    QUIT, pipelined or not (RFC 2920: it offers PIPELINING; the replies to a read's commands go in
    one write, in order); each accepted mail counted with its bytes (those between DATA's line and
    the end mark, exactly), the time of its `250` and the sink's CPU so far.

    It shares the machine's cores with the servers it measures, so it costs little: a buffer
    protocol (the socket reads into one buffer, never copied into another), the end mark looked
    for with `bytearray.find` over each read and the four bytes before it (a mark split between two
    reads), a mail's bytes never kept."""

    SIZE = 1 << 18  # bytes a read may fill

    def __init__(self, counts: Any) -> None:
        self.counts = counts
        self.buffer = bytearray(self.SIZE)
        self.view = memoryview(self.buffer)
        self.start = self.end = 0  # what is not read yet: buffer[start:end]
        self.in_data = False
        self.size = 0  # bytes of the mail being received, counted so far
        self.replies: list[bytes] = []

    def connection_made(self, transport: Any) -> None:
        self.transport = transport
        transport.write(b"220 sink ESMTP\r\n")

    def get_buffer(self, sizehint: int) -> memoryview:
        return self.view[self.end:]

    def buffer_updated(self, nbytes: int) -> None:
        self.end += nbytes
        self.read()
        if self.replies:
            self.transport.write(b"".join(self.replies))
            self.replies.clear()
        left = self.end - self.start  # a command line begun, or the last four bytes of a mail
        if left == self.SIZE:  # a command line as long as the buffer: not SMTP
            self.transport.abort()
        elif self.start:
            self.buffer[:left] = bytes(self.view[self.start:self.end])
            self.start, self.end = 0, left

    def read(self) -> None:
        buffer = self.buffer
        while self.start < self.end:
            if self.in_data:
                mark = buffer.find(b"\r\n.\r\n", self.start, self.end)
                if mark < 0:  # keep the last four bytes: the end mark may be split between two reads
                    keep = max(self.start, self.end - 4)
                    self.size += keep - self.start
                    self.start = keep
                    return
                self.size += mark - self.start
                self.start = mark + 5
                self.in_data = False
                with self.counts.get_lock():
                    self.counts[0] += 1
                    self.counts[1] += self.size
                    self.counts[2] = time.time()
                    self.counts[3] = time.process_time()
                self.replies.append(b"250 2.0.0 accepted\r\n")
                continue
            line_end = buffer.find(b"\r\n", self.start, self.end)
            if line_end < 0:
                return
            verb = bytes(buffer[self.start:self.start + 4]).upper()
            self.start = line_end + 2
            if verb == b"EHLO":
                self.replies.append(b"250-sink\r\n250-8BITMIME\r\n250-PIPELINING\r\n250 SIZE 52428800\r\n")
            elif verb == b"DATA":
                # the mail begins after DATA's line; its CRLF starts the end mark of an empty mail
                self.in_data, self.size = True, 0
                self.start -= 2
                self.replies.append(b"354 go ahead\r\n")
            elif verb == b"QUIT":
                self.replies.append(b"221 bye\r\n")
                self.transport.write(b"".join(self.replies))
                self.replies.clear()
                self.transport.close()
                self.start = self.end
                return
            else:  # HELO, MAIL, RCPT, RSET, NOOP
                self.replies.append(b"250 OK\r\n")


def smtp_sink(port: int, counts: Any, ready: Any) -> None:
    async def serve() -> None:
        loop = asyncio.get_running_loop()
        server = await loop.create_server(lambda: _Sink(counts), "127.0.0.1", port, backlog=512)
        ready.set()
        async with server:
            await server.serve_forever()

    asyncio.run(serve())
