"""Issue 29 item 9: ``/healthz`` answers 503 with the reason, never a bare 500, while the database
is down; a loop in trouble (the IMAP server gone) shows within ``failing_after`` seconds, not
after the 300 s stale limit."""

from __future__ import annotations

import socket
import threading
import time
from pathlib import Path

from fastapi.testclient import TestClient

from app.db.session import make_engine, make_sessionmaker
from app.mail.inbox.imap import ImapInbox
from app.mail.runners.poller import run_poller
from app.services.kernel.context import Judge
from app.services.kernel.health import LoopHealth
from app.settings import Settings
from app.web import create_app
from tests.web.conftest import make_harness


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])  # nothing listens there once the probe is closed


def test_healthz_answers_503_with_the_reason_while_postgresql_is_down() -> None:
    url = f"postgresql+psycopg://postgres@127.0.0.1:{_closed_port()}/judge"
    judge = Judge(settings=Settings(database_url=url), sessions=make_sessionmaker(make_engine(url)))
    response = TestClient(create_app(judge), raise_server_exceptions=False).get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "unhealthy" and body["database"]["healthy"] is False
    assert any("database does not answer" in reason for reason in body["reasons"])


def test_a_loop_failing_again_and_again_is_unhealthy_within_failing_after() -> None:
    clock = FakeClock()
    health = LoopHealth(stale_after=300, busy_limit=300, failing_after=30, clock=clock)
    health.watch("poller")
    health.ok("poller")
    health.begin("poller")  # a round reconnecting to a dead server: busy, and in trouble
    health.trouble("poller", ConnectionRefusedError())
    clock.now += 29
    assert health.healthy()
    clock.now += 2
    [report] = health.reports()
    assert not report.healthy and report.reason and "failing for 31 s (ConnectionRefusedError)" in report.reason
    health.ok("poller")  # the server is back
    assert health.healthy()


def test_an_imap_outage_shows_in_healthz_while_the_round_still_retries(tmp_path: Path) -> None:
    harness = make_harness(f"sqlite:///{tmp_path / 'judge.sqlite3'}")
    harness.judge.health = LoopHealth(stale_after=300, busy_limit=300, failing_after=0.5)
    harness.judge.health.watch("poller")
    stop = threading.Event()

    def sleep(seconds: float) -> None:  # the round retries for a long while, until the test ends
        if stop.is_set():
            raise RuntimeError("the test is over")
        time.sleep(seconds)

    inbox = ImapInbox("127.0.0.1", _closed_port(), "judge@judge.test", "pw", max_attempts=1000, backoff=0.05,
                      max_backoff=0.05, timeout=2, sleep=sleep)
    thread = threading.Thread(target=run_poller, args=(harness.judge, inbox, stop), kwargs={"wait": 0.05},
                              daemon=True)
    thread.start()
    client = TestClient(create_app(harness.judge))
    try:
        deadline = time.monotonic() + 10
        while (response := client.get("/healthz")).status_code == 200 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert response.status_code == 503
        assert response.json()["loops"]["poller"]["reason"].startswith("failing for")
        assert any(reason.startswith("poller: failing for") for reason in response.json()["reasons"])
    finally:
        stop.set()
        thread.join(timeout=10)
    assert not thread.is_alive()
