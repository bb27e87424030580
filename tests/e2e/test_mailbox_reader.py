"""The end-to-end tests' own mailbox reader (tests/e2e/conftest.py ``Mailbox``): a connection the
IMAP server resets is read again, and a server that stays away still fails the test."""

from __future__ import annotations

import socket
import struct
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from tests.e2e.conftest import IMAP_PORT, Mailbox, send_mail, unique


@contextmanager
def resetting_proxy(resets: int) -> Iterator[int]:
    """A loopback port whose first ``resets`` connections are reset at once (as a loaded dovecot
    drops one before its greeting); later ones are passed on to the test IMAP server."""
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    done = threading.Event()

    def pipe(source: socket.socket, target: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                target.sendall(data)
        except OSError:
            pass
        finally:
            for end in (source, target):
                try:
                    end.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def serve() -> None:
        left = resets
        listener.settimeout(0.2)
        while not done.is_set():
            try:
                client, _ = listener.accept()
            except TimeoutError:
                continue
            if left > 0:
                left -= 1
                client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                client.close()  # linger 0: the peer reads ECONNRESET
                continue
            upstream = socket.create_connection(("127.0.0.1", IMAP_PORT))
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=pipe, args=(a, b), daemon=True).start()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield port
    finally:
        done.set()
        thread.join(timeout=5)
        listener.close()


def test_a_reset_connection_is_read_again(mail_services: None) -> None:
    address = unique("reader")
    send_mail("someone@players.test", address, "hello")
    Mailbox(address).wait_for(lambda m: True, what="the test mail")
    with resetting_proxy(resets=2) as port:
        messages = Mailbox(address, port=port).fetch_all()
    assert [str(m["Subject"]) for _, m in messages] == ["Diplomacy"]


def test_a_server_that_stays_away_fails_the_read(mail_services: None) -> None:
    with resetting_proxy(resets=100) as port, pytest.raises(ConnectionResetError):
        Mailbox(unique("reader"), port=port).fetch_all()
