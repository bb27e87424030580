"""A loopback TCP proxy that can cut a connection in the middle of an IMAP FETCH response.

It forwards bytes both ways between a client and a real server.  When armed with
``cut_fetch_after(n)``, the next connection whose client sends a ``FETCH`` command gets
``n`` bytes of the server's answer, then both of its sockets are closed: exactly what a
network drop in the middle of a download looks like to the client.
"""

from __future__ import annotations

import contextlib
import socket
import threading


class CuttingProxy:
    def __init__(self, target_host: str, target_port: int) -> None:
        self.target = (target_host, target_port)
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = self._listener.getsockname()[1]
        self._lock = threading.Lock()
        self._cut_after: int | None = None
        self.connections = 0
        self.cuts = 0
        self._sockets: list[socket.socket] = []
        self._closed = False
        self._thread = threading.Thread(target=self._accept, daemon=True)

    def __enter__(self) -> CuttingProxy:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def cut_fetch_after(self, n: int) -> None:
        with self._lock:
            self._cut_after = n

    def _accept(self) -> None:
        while not self._closed:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            upstream = socket.create_connection(self.target)
            with self._lock:
                self.connections += 1
                self._sockets += [client, upstream]
            state = {"fetch_seen": False}
            threading.Thread(target=self._up, args=(client, upstream, state), daemon=True).start()
            threading.Thread(target=self._down, args=(upstream, client, state), daemon=True).start()

    def _up(self, client: socket.socket, upstream: socket.socket, state: dict[str, bool]) -> None:
        """client -> server: notice the FETCH command."""
        try:
            while data := client.recv(65536):
                if b"FETCH" in data.upper():
                    state["fetch_seen"] = True
                upstream.sendall(data)
        except OSError:
            pass
        _close(client, upstream)

    def _down(self, upstream: socket.socket, client: socket.socket, state: dict[str, bool]) -> None:
        """server -> client: forward, or cut after the armed number of bytes of a FETCH answer."""
        sent_since_fetch = 0
        try:
            while data := upstream.recv(65536):
                with self._lock:
                    limit = self._cut_after if state["fetch_seen"] else None
                if limit is not None and sent_since_fetch + len(data) >= limit:
                    client.sendall(data[: limit - sent_since_fetch])
                    with self._lock:
                        self._cut_after = None
                        self.cuts += 1
                    break
                if state["fetch_seen"]:
                    sent_since_fetch += len(data)
                client.sendall(data)
        except OSError:
            pass
        _close(client, upstream)

    def close(self) -> None:
        self._closed = True
        self._listener.close()
        with self._lock:
            for sock in self._sockets:
                _close(sock)


def _close(*sockets: socket.socket) -> None:
    for sock in sockets:
        with contextlib.suppress(OSError):
            sock.shutdown(socket.SHUT_RDWR)
        sock.close()
