"""The SMTP sink of ``benchmarks/deadline_to_inbox.py`` (``benchmarks/smtp_sink.py``, a buffer protocol): pipelined commands
answered in order, in one write a read; a mail's bytes counted exactly, however the reads cut it
(the end mark split between two reads too)."""

from __future__ import annotations

import multiprocessing
from typing import Any

import pytest

from benchmarks.smtp_sink import _Sink


class _Transport:
    def __init__(self) -> None:
        self.writes: list[bytes] = []
        self.closed = False

    def write(self, data: bytes) -> None:
        self.writes.append(data)

    def close(self) -> None:
        self.closed = True

    def abort(self) -> None:
        self.closed = True


def _sink() -> tuple[_Sink, _Transport, Any]:
    counts = multiprocessing.Array("d", 4)
    sink, transport = _Sink(counts), _Transport()
    sink.connection_made(transport)
    transport.writes.clear()
    return sink, transport, counts


def _feed(sink: _Sink, data: bytes) -> None:
    buffer = sink.get_buffer(-1)
    buffer[:len(data)] = data
    sink.buffer_updated(len(data))


GROUP = b"EHLO judge\r\nMAIL FROM:<j@judge.test>\r\nRCPT TO:<p@x.test>\r\nDATA\r\n"
MAIL = b"Subject: s\r\n\r\nline\r\n..dot\r\n.\r\r\n\r\n.x\r\nend\r\n"


def test_pipelined_commands_are_answered_in_order_in_one_write() -> None:
    sink, transport, _ = _sink()
    _feed(sink, GROUP)
    assert transport.writes == [b"250-sink\r\n250-8BITMIME\r\n250-PIPELINING\r\n250 SIZE 52428800\r\n"
                                b"250 OK\r\n250 OK\r\n354 go ahead\r\n"]


@pytest.mark.parametrize("cut", range(1, len(MAIL) + 3))
def test_a_mail_cut_anywhere_is_counted_exactly(cut: int) -> None:
    sink, transport, counts = _sink()
    _feed(sink, GROUP)
    wire = MAIL + b".\r\n" + b"RSET\r\nQUIT\r\n"
    _feed(sink, wire[:cut])
    _feed(sink, wire[cut:cut + 3])
    _feed(sink, wire[cut + 3:])
    assert counts[0] == 1 and counts[1] == len(MAIL)
    assert b"".join(transport.writes).endswith(b"250 2.0.0 accepted\r\n250 OK\r\n221 bye\r\n") and transport.closed


def test_an_empty_mail_and_mails_one_after_the_other() -> None:
    sink, transport, counts = _sink()
    _feed(sink, GROUP + b".\r\n")  # nothing between DATA and the end mark
    assert counts[0] == 1 and counts[1] == 0
    for _ in range(3):
        _feed(sink, b"RSET\r\nMAIL FROM:<j@judge.test>\r\nRCPT TO:<p@x.test>\r\nDATA\r\n")
        for byte in range(len(MAIL)):
            _feed(sink, MAIL[byte:byte + 1])
        _feed(sink, b".\r\n")
    assert counts[0] == 4 and counts[1] == 3 * len(MAIL)
    assert b"".join(transport.writes).count(b"354 go ahead") == 4


def test_a_large_mail_fills_the_buffer_many_times() -> None:
    sink, _, counts = _sink()
    _feed(sink, GROUP)
    body = (b"x" * 76 + b"\r\n") * 20_000  # 1.5 MB, more than the buffer
    for start in range(0, len(body), 60_000):
        _feed(sink, body[start:start + 60_000])
    _feed(sink, b".\r\n")
    assert counts[0] == 1 and counts[1] == len(body)
