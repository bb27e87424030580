"""Issue 29 items 6 and 7, on PostgreSQL with parallel requests: a one-time code opens one
session however many requests bring it at once (the others get a 400, never a 500), and the
limit of wrong codes holds however many come at once."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from app.db.models_web import GmAccount, SignInAttempt, WebSession
from app.services.games.signin_limits import PAIR_FAILURES
from app.web import create_app
from tests.web.conftest import KEEPER, World, ask_code, csrf_of, mailed_codes, make_harness

pytestmark = pytest.mark.argon2  # the production hasher: a code is checked in tens of milliseconds, as in use

NEWCOMER = "newcomer@example.com"


@pytest.fixture
def world(postgres_template) -> Iterator[World]:  # type: ignore[no-untyped-def]
    with postgres_template.copy() as url:
        harness = make_harness(url)
        yield World(harness, create_app(harness.judge, keeper_address=KEEPER))
        harness.judge.sessions.kw["bind"].dispose()


def _in_parallel(world: World, count: int, data: dict[str, str]) -> list[int]:
    """``count`` browsers post the code form at the same moment; their status codes."""
    clients = [TestClient(world.app, follow_redirects=False, raise_server_exceptions=False) for _ in range(count)]
    tokens = [csrf_of(client) for client in clients]
    start = threading.Barrier(count)
    statuses: list[int] = []

    def post(client: TestClient, token: str) -> None:
        start.wait()
        statuses.append(client.post("/signin/code", data={**data, "csrf_token": token}).status_code)

    threads = [threading.Thread(target=post, args=pair) for pair in zip(clients, tokens, strict=True)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return statuses


def _count(world: World, stmt) -> int:  # type: ignore[no-untyped-def]
    with world.judge.sessions() as db:
        return int(db.scalar(stmt) or 0)


def test_a_code_brought_by_sixteen_requests_at_once_opens_one_session(world: World) -> None:
    ask_code(world.client(), NEWCOMER)
    (code,) = mailed_codes(world, NEWCOMER)
    statuses = _in_parallel(world, 16, {"address": NEWCOMER, "code": code, "password": "a-good-password",
                                        "next": "/"})
    assert sorted(statuses) == [303] + [400] * 15
    assert _count(world, select(func.count()).select_from(GmAccount).where(GmAccount.email == NEWCOMER)) == 1
    assert _count(world, select(func.count()).select_from(WebSession)) == 1


def test_parallel_wrong_codes_never_pass_the_limit(world: World) -> None:
    ask_code(world.client(), NEWCOMER)  # a live code: every wrong one is checked against it
    statuses = _in_parallel(world, 2 * PAIR_FAILURES, {"address": NEWCOMER, "code": "WRONG-WRONG",
                                                       "password": "a-good-password", "next": "/"})
    checked = _count(world, select(func.count()).select_from(SignInAttempt).where(
        SignInAttempt.address == NEWCOMER, SignInAttempt.ok.is_(False)))
    assert checked == PAIR_FAILURES
    assert statuses.count(400) + statuses.count(429) == 2 * PAIR_FAILURES
