"""Liveness of the judge's loops (the poller, the drain, the scheduler), as ``/healthz`` reports it.

Each loop calls ``begin(name)`` when a round starts, ``ok(name)`` when it ended well and
``failed(name, error)`` when it raised.  A loop is healthy while its last good round is recent
(``stale_after`` seconds; since it was first seen, before its first round) or while a round that
began recently is still running and nothing failed since the last good one (``busy_limit``: a long
turn is not a dead loop).  A loop that died, hangs or fails round after round stops being healthy,
and so does the judge.

A loop in trouble is seen within ``failing_after`` seconds (30), whatever its stale limit: a round
that failed, or a connection its client lost mid-round (``trouble``: the IMAP inbox reconnecting
again and again), starts a failing spell that only a good round ends; a spell longer than
``failing_after`` makes the loop unhealthy, with the reason (issue 29 item 9).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime

__all__ = ["LoopHealth", "LoopReport"]


@dataclass(frozen=True)
class LoopReport:
    name: str
    healthy: bool
    last_ok: datetime | None  # the end of the last good round (UTC)
    seconds_since_ok: float | None
    busy_seconds: float | None  # how long the round under way has been running
    crashes: int  # rounds that raised, and restarts of the loop
    last_error: str | None  # the type of the last error (its text is in the log)
    reason: str | None = None  # why it is unhealthy, in a sentence (None: healthy)


@dataclass
class _Loop:
    seen: float
    stale_after: float
    busy_limit: float
    last_ok: float | None = None
    last_ok_wall: datetime | None = None
    busy_since: float | None = None
    crashes: int = 0
    last_error: str | None = None
    failing: bool = False  # a round failed since the last good one
    failing_since: float | None = None  # the first failure (or trouble) since the last good round
    trouble: str | None = None  # the type of the last trouble (a lost connection) since the last good round


@dataclass
class LoopHealth:
    """Thread-safe: the loops report from their threads, ``/healthz`` reads from the web's."""

    stale_after: float = 300.0
    busy_limit: float = 3600.0
    failing_after: float = 30.0
    clock: Callable[[], float] = time.monotonic
    _loops: dict[str, _Loop] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def watch(self, name: str, *, stale_after: float | None = None, busy_limit: float | None = None) -> None:
        """Expect ``name`` to report from now on (the composition root calls it before starting the loop)."""
        with self._lock:
            self._loops[name] = _Loop(seen=self.clock(), stale_after=stale_after or self.stale_after,
                                      busy_limit=busy_limit or self.busy_limit)

    def _loop(self, name: str) -> _Loop:
        loop = self._loops.get(name)
        if loop is None:
            loop = self._loops[name] = _Loop(seen=self.clock(), stale_after=self.stale_after,
                                             busy_limit=self.busy_limit)
        return loop

    def begin(self, name: str) -> None:
        with self._lock:
            self._loop(name).busy_since = self.clock()

    def ok(self, name: str) -> None:
        with self._lock:
            loop = self._loop(name)
            loop.last_ok, loop.last_ok_wall, loop.busy_since, loop.failing = self.clock(), datetime.now(UTC), None, False
            loop.failing_since, loop.trouble = None, None

    def failed(self, name: str, error: BaseException) -> None:
        with self._lock:
            loop = self._loop(name)
            loop.crashes += 1
            loop.last_error = type(error).__name__
            loop.busy_since, loop.failing = None, True
            if loop.failing_since is None:
                loop.failing_since = self.clock()

    def trouble(self, name: str, error: BaseException) -> None:
        """Something the round needs failed and is being tried again (a lost connection): the
        round goes on, but a failing spell starts (a good round ends it)."""
        with self._lock:
            loop = self._loop(name)
            loop.trouble = type(error).__name__
            if loop.failing_since is None:
                loop.failing_since = self.clock()

    def reports(self) -> list[LoopReport]:
        now = self.clock()
        with self._lock:
            return [_report(name, loop, now, self.failing_after) for name, loop in sorted(self._loops.items())]

    def healthy(self) -> bool:
        return all(report.healthy for report in self.reports())


def _report(name: str, loop: _Loop, now: float, failing_after: float) -> LoopReport:
    idle = now - (loop.last_ok if loop.last_ok is not None else loop.seen)
    busy = now - loop.busy_since if loop.busy_since is not None else None
    failing = now - loop.failing_since if loop.failing_since is not None else None
    reason = None
    if failing is not None and failing > failing_after:
        why = loop.last_error if loop.failing else loop.trouble
        reason = f"failing for {failing:.0f} s ({why}), no good round since"
    elif not (idle <= loop.stale_after or (busy is not None and busy <= loop.busy_limit and not loop.failing)):
        reason = (f"a round running for {busy:.0f} s" if busy is not None and not loop.failing
                  else f"no good round for {idle:.0f} s" + (f" ({loop.last_error})" if loop.failing else ""))
    return LoopReport(name=name, healthy=reason is None, last_ok=loop.last_ok_wall,
                      seconds_since_ok=None if loop.last_ok is None else now - loop.last_ok,
                      busy_seconds=busy, crashes=loop.crashes, last_error=loop.last_error, reason=reason)
