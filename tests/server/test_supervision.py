"""Issue 19 item 4: the judge's loops are supervised (a crash is logged, counted and restarted with
back-off) and ``/healthz`` reports each loop's last good round, answering 503 when one went stale."""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.mail.inbox import MemoryInbox
from app.mail.runners.poller import run_poller
from app.services.kernel.health import LoopHealth
from app.supervisor import Backoff, supervise, supervise_async
from app.web import create_app
from tests.web.conftest import make_harness


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_the_back_off_doubles_up_to_its_longest_and_starts_again_after_good_running() -> None:
    waits = Backoff(first=1.0, longest=8.0)
    assert [waits.after(0.1) for _ in range(6)] == [1.0, 2.0, 4.0, 8.0, 8.0, 8.0]
    assert waits.after(30.0) == 1.0  # it ran well for a while: the next crash waits little again


def test_a_crashing_thread_loop_is_logged_counted_and_restarted(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="app")  # whatever level another test left the app's loggers at
    health = LoopHealth()
    stop = threading.Event()
    runs: list[float] = []

    def loop() -> None:
        runs.append(time.monotonic())
        if len(runs) < 3:
            raise RuntimeError(f"crash {len(runs)}")
        health.ok("poller")
        stop.wait()

    thread = supervise("poller", loop, health, stop, backoff=Backoff(first=0.05, longest=0.2))
    deadline = time.monotonic() + 10
    while len(runs) < 3 and time.monotonic() < deadline:
        time.sleep(0.01)
    stop.set()
    thread.join(timeout=5)
    assert len(runs) == 3 and not thread.is_alive()
    assert runs[2] - runs[1] >= 0.09  # the second wait is twice the first
    [report] = health.reports()
    assert (report.name, report.crashes, report.last_error, report.healthy) == ("poller", 2, "RuntimeError", True)
    assert sum("the poller loop stopped (RuntimeError: crash" in r.getMessage() for r in caplog.records) == 2


def test_a_loop_that_returns_unasked_is_restarted_too() -> None:
    health = LoopHealth()
    stop = asyncio.Event()
    runs = 0

    async def loop() -> None:
        nonlocal runs
        runs += 1
        if runs == 2:
            stop.set()

    asyncio.run(supervise_async("drain", loop, health, stop, backoff=Backoff(first=0.01)))
    assert runs == 2 and health.reports()[0].crashes == 1


def test_a_loop_is_healthy_while_recent_or_busy_and_unhealthy_when_stale() -> None:
    clock = FakeClock()
    health = LoopHealth(stale_after=60, busy_limit=600, clock=clock)
    health.watch("poller")
    health.watch("scheduler", stale_after=120)
    assert health.healthy()
    clock.now += 61  # nobody reported a good round yet: the poller is stale
    assert [r.name for r in health.reports() if not r.healthy] == ["poller"]
    health.ok("poller")
    health.begin("scheduler")  # a long turn: busy, not dead
    clock.now += 500
    assert [r.name for r in health.reports() if not r.healthy] == ["poller"]
    clock.now += 101  # the turn runs for 601 s: past the busy limit
    health.ok("poller")
    assert [r.name for r in health.reports() if not r.healthy] == ["scheduler"]
    health.failed("scheduler", ValueError("x"))
    health.ok("scheduler")
    assert health.healthy() and health.reports()[1].crashes == 1


def test_healthz_reports_every_loop_and_answers_503_for_a_dead_one(tmp_path: Path) -> None:
    harness = make_harness(f"sqlite:///{tmp_path / 'judge.sqlite3'}")
    clock = FakeClock()
    harness.judge.health = LoopHealth(stale_after=300, clock=clock)
    health = harness.judge.health
    for name in ("poller", "drain", "scheduler"):
        health.watch(name)
        health.ok(name)
    client = TestClient(create_app(harness.judge))
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok" and sorted(body["loops"]) == ["drain", "poller", "scheduler"]
    assert body["loops"]["poller"]["healthy"] and body["loops"]["poller"]["last_ok"]
    clock.now += 200
    health.ok("drain")
    health.ok("scheduler")
    clock.now += 200  # the poller died 400 s ago
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["status"] == "unhealthy" and not response.json()["loops"]["poller"]["healthy"]


def test_the_poller_reports_its_rounds_and_survives_an_inbox_that_fails(tmp_path: Path) -> None:
    harness = make_harness(f"sqlite:///{tmp_path / 'judge.sqlite3'}")

    class Flaky(MemoryInbox):
        def __init__(self) -> None:
            super().__init__()
            self.failures = 2

        def fetch_new(self):  # type: ignore[no-untyped-def]
            if self.failures:
                self.failures -= 1
                raise OSError("the IMAP server went away")
            return super().fetch_new()

    box = Flaky()
    box.deliver(b"From: p@example.com\r\nMessage-ID: <p1@example.com>\r\nSubject: x\r\n\r\nHELP\r\n")
    stop = threading.Event()
    thread = threading.Thread(target=run_poller, args=(harness.judge, box, stop), kwargs={"wait": 0.05}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not box.done and time.monotonic() < deadline:
        time.sleep(0.05)
    stop.set()
    thread.join(timeout=10)
    assert box.done
    [report] = harness.judge.health.reports()
    assert report.crashes == 2 and report.last_error == "OSError" and report.last_ok is not None


def test_a_loop_that_fails_round_after_round_is_unhealthy_though_always_busy() -> None:
    clock = FakeClock()
    health = LoopHealth(stale_after=60, busy_limit=600, clock=clock)
    health.watch("poller")
    for _ in range(7):  # the IMAP server is down: each round reconnects for a while, then fails
        health.begin("poller")
        clock.now += 10
        health.failed("poller", OSError("connection refused"))
        health.begin("poller")
    [report] = health.reports()
    assert not report.healthy and report.crashes == 7 and report.busy_seconds == 0
