"""Serving the dashboard with uvicorn inside the judge's own event loop."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator

import uvicorn
from fastapi import FastAPI

from app.services.kernel.context import Judge
from app.web.app import create_app
from app.web.routes_mailbox import InboxWriter

__all__ = ["DEFAULT_PORT", "make_server", "serve_dashboard"]

DEFAULT_PORT = 8000


class _Server(uvicorn.Server):
    """A uvicorn server that leaves the process's signals to its owner (`judge serve`)."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


def make_server(app: FastAPI, *, host: str = "127.0.0.1", port: int = DEFAULT_PORT,
                log_level: str = "warning", trusted_proxies: tuple[str, ...] = ()) -> uvicorn.Server:
    """Forwarded headers (client address, https) are believed only from ``trusted_proxies``."""
    config = uvicorn.Config(app, host=host, port=port, log_level=log_level, access_log=False,
                            lifespan="off", proxy_headers=bool(trusted_proxies),
                            forwarded_allow_ips=list(trusted_proxies) if trusted_proxies else None)
    return _Server(config)


async def serve_dashboard(judge: Judge, stop: asyncio.Event, *, host: str = "0.0.0.0", port: int = DEFAULT_PORT,
                          keeper_address: str | None = None, secure_cookies: bool = False,
                          inbox_writer: InboxWriter | None = None) -> None:
    """Serve the dashboard until ``stop`` is set (run it beside the outbox drain in `judge serve`)."""
    server = make_server(create_app(judge, keeper_address=keeper_address, secure_cookies=secure_cookies,
                                    inbox_writer=inbox_writer),
                         host=host, port=port, trusted_proxies=judge.settings.trusted_proxies)

    async def _watch() -> None:
        await stop.wait()
        server.should_exit = True

    watcher = asyncio.create_task(_watch())
    try:
        await server.serve()
    finally:
        watcher.cancel()
