"""Supervision of the judge's long-running loops (``judge serve``): a loop that raises, or returns
before it was asked to stop, is logged, counted in ``LoopHealth`` and started again after a
back-off (1 s, doubling up to a minute; back to 1 s after a minute of good running).  A loop that
keeps crashing stops reporting good rounds, so ``/healthz`` turns unhealthy."""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from app.services.kernel.health import LoopHealth

__all__ = ["Backoff", "supervise", "supervise_async"]

log = logging.getLogger(__name__)


@dataclass
class Backoff:
    first: float = 1.0
    longest: float = 60.0
    _next: float = 0.0

    def after(self, ran_for: float) -> float:
        """The wait before the next start of a loop that ran ``ran_for`` seconds before it died."""
        self._next = self.first if ran_for >= self.longest or not self._next else min(self._next * 2, self.longest)
        return self._next


class _Returned(RuntimeError):
    """A loop came back although nobody asked it to stop."""


def _crashed(health: LoopHealth, name: str, error: BaseException, delay: float) -> None:
    health.failed(name, error)
    log.error("the %s loop stopped (%s: %s); restarting it in %.0f s", name, type(error).__name__, error, delay,
              exc_info=not isinstance(error, _Returned))


def supervise(name: str, loop: Callable[[], None], health: LoopHealth, stop: threading.Event, *,
              backoff: Backoff | None = None) -> threading.Thread:
    """Run ``loop`` in a daemon thread ``judge-<name>`` until ``stop`` is set, restarting it when it dies."""
    waits = backoff or Backoff()

    def run() -> None:
        while not stop.is_set():
            started = time.monotonic()
            try:
                loop()
                if stop.is_set():
                    return
                raise _Returned("the loop returned")
            except Exception as error:
                delay = waits.after(time.monotonic() - started)
                _crashed(health, name, error, delay)
                stop.wait(delay)

    thread = threading.Thread(target=run, name=f"judge-{name}", daemon=True)
    thread.start()
    return thread


async def supervise_async(name: str, loop: Callable[[], Awaitable[None]], health: LoopHealth, stop: asyncio.Event,
                          *, backoff: Backoff | None = None) -> None:
    """The same for a coroutine loop, in the caller's event loop; returns once ``stop`` is set."""
    waits = backoff or Backoff()
    while not stop.is_set():
        started = time.monotonic()
        try:
            await loop()
            if stop.is_set():
                return
            raise _Returned("the loop returned")
        except Exception as error:
            delay = waits.after(time.monotonic() - started)
            _crashed(health, name, error, delay)
            try:
                await asyncio.wait_for(stop.wait(), timeout=delay)
            except TimeoutError:
                pass
