"""The dashboard's reads take no write lock (issue 27 item 7): on embedded SQLite every GET used to
open its unit of work with ``BEGIN IMMEDIATE``, the write lock the poller and the scheduler need,
so a page (and ``/healthz``) waited for a turn being processed, and a busy page held up the mail.
A GET now runs in a read-only unit: a deferred ``BEGIN`` on SQLite, ``READ ONLY`` on PostgreSQL."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from sqlalchemy.exc import DBAPIError

from app.db.models_web import GmAccount
from app.services.bootstrap import read_only
from app.services.kernel.uow import OrdersChanged
from app.web import create_app
from tests.web.conftest import GM, GM_PASSWORD, KEEPER, World, make_harness, play_games, sign_in, signed_in

WAIT = 5.0  # seconds: far more than a page takes, far less than the 30 s busy timeout it used to wait


@pytest.fixture(scope="module")
def embedded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[World, Path]]:
    path = tmp_path_factory.mktemp("readonly") / "judge.sqlite3"
    harness = make_harness(f"sqlite:///{path}")
    play_games(harness)
    yield World(harness, create_app(harness.judge, keeper_address=KEEPER)), path


def _while_locked(path: Path, get: Callable[[], int]) -> int | None:
    """``get()`` run while another connection (the poller, a turn) holds the write lock; its status,
    or None when it had not answered after ``WAIT`` seconds (it was waiting for the lock)."""
    writer = sqlite3.connect(path, isolation_level=None)
    answered: list[int] = []
    thread = threading.Thread(target=lambda: answered.append(get()), daemon=True)
    try:
        writer.execute("BEGIN IMMEDIATE")
        thread.start()
        thread.join(WAIT)
        in_time = list(answered)
    finally:
        writer.execute("ROLLBACK")
        writer.close()
    thread.join(60)  # released, a request that waited goes on: let it end before the next test
    return in_time[0] if in_time else None


@pytest.mark.parametrize("path", ["/healthz", "/public", "/public/games/alpha", "/signin"])
def test_a_page_answers_while_the_write_lock_is_held(embedded: tuple[World, Path], path: str) -> None:
    world, db_path = embedded
    client = TestClient(world.app, follow_redirects=False, raise_server_exceptions=False)
    status = _while_locked(db_path, lambda: client.get(path).status_code)
    assert status is not None, f"GET {path} waited for the write lock"
    assert status in (200, 503)  # /healthz: 503 when a loop is not running here; the page answered


def test_a_signed_in_gms_pages_answer_while_the_write_lock_is_held(embedded: tuple[World, Path]) -> None:
    world, db_path = embedded
    client = signed_in(world, GM, GM_PASSWORD)
    for path in ("/", "/games/alpha", "/games/alpha/settings", "/api/games"):
        status = _while_locked(db_path, lambda p=path: client.get(p).status_code)  # type: ignore[misc]
        assert status == 200, f"GET {path}: {status}"


def test_a_post_still_takes_the_write_lock(embedded: tuple[World, Path]) -> None:
    """A write is not made read-only: signing in (a POST) waits for the lock, then goes through."""
    world, db_path = embedded
    client = TestClient(world.app, follow_redirects=False, raise_server_exceptions=False)
    client.get("/signin")
    assert _while_locked(db_path, lambda: sign_in(client, GM, GM_PASSWORD).status_code) is None  # type: ignore[attr-defined]


def test_the_read_only_unit_refuses_writes_and_events(database: str) -> None:
    """A read-only unit records no event and writes nothing: PostgreSQL refuses the statement (READ
    ONLY), SQLite's unit sees the rows changed at its commit and rolls them back."""
    judge = make_harness(database).judge
    with read_only(judge) as uow:
        accounts = uow.session.scalar(select(func.count()).select_from(GmAccount))  # the database's own
        with pytest.raises(RuntimeError, match="read-only"):
            uow.record(OrdersChanged(1))
    with pytest.raises((RuntimeError, DBAPIError)), read_only(judge) as uow:
        uow.session.add(GmAccount(email="read-only-unit@example.com", password_hash=""))
    with read_only(judge) as uow:
        assert uow.session.scalar(select(func.count()).select_from(GmAccount)) == accounts
