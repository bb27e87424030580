"""`serve_dashboard` serves on its port inside the caller's event loop and stops when told."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path

import httpx

from app.web import serve_dashboard
from tests.web.conftest import make_harness


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_serve_dashboard_until_stopped(tmp_path: Path) -> None:
    harness = make_harness(f"sqlite:///{tmp_path / 'judge.sqlite3'}")
    port = _free_port()

    async def main() -> tuple[int, str, bool]:
        stop = asyncio.Event()
        task = asyncio.create_task(serve_dashboard(harness.judge, stop, host="127.0.0.1", port=port))
        async with httpx.AsyncClient() as client:
            for _ in range(200):
                try:
                    response = await client.get(f"http://127.0.0.1:{port}/healthz")
                    break
                except httpx.ConnectError:
                    await asyncio.sleep(0.05)
            else:
                raise AssertionError("the dashboard did not start")
            signin = await client.get(f"http://127.0.0.1:{port}/signin")
        stop.set()
        await asyncio.wait_for(task, timeout=10)
        return response.status_code, signin.text, task.done()

    status, page, done = asyncio.run(main())
    assert status == 200 and "Sign in" in page and done
    with socket.socket() as sock:  # the port is free again
        sock.bind(("127.0.0.1", port))


def test_the_composition_root_gives_the_mailbox_an_inbox_writer_in_embedded_mode_only(tmp_path: Path) -> None:
    from app.main import inbox_writer
    from app.settings import Settings

    inbox = tmp_path / "inbox"
    writer = inbox_writer(Settings(mail_mode="embedded", maildir_inbox=inbox))
    assert writer is not None
    writer(b"From: france@example.com\r\nTo: judge@judge.test\r\nSubject: x\r\n\r\nA Par - Bur\r\n")
    delivered = list((inbox / "new").iterdir())
    assert len(delivered) == 1 and b"A Par - Bur" in delivered[0].read_bytes()
    assert inbox_writer(Settings(mail_mode="imap")) is None
