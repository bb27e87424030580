"""Issue 29 items 6 and 7, on PostgreSQL with parallel requests: a one-time code opens one
session however many requests bring it at once (the others get a 400, never a 500), and the
limit of wrong codes holds however many come at once.  Item 11: asking for a code takes as long
whether one is mailed or not."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from statistics import median

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from app.db.models_web import GmAccount, SignInAttempt, WebSession
from app.services.games.signin_limits import ADDRESS_FAILURES, CODES_PER_ADDRESS, PAIR_FAILURES
from app.web import create_app
from tests.web.conftest import KEEPER, World, ask_code, csrf_of, keeper_account, mailed_codes, make_harness

pytestmark = pytest.mark.argon2  # the production hasher: a code is checked in tens of milliseconds, as in use

NEWCOMER = "newcomer@example.com"


@pytest.fixture
def world(postgres_template) -> Iterator[World]:  # type: ignore[no-untyped-def]
    with postgres_template.copy() as url:
        harness = make_harness(url)
        yield World(harness, create_app(harness.judge, keeper_address=KEEPER))
        harness.judge.sessions.kw["bind"].dispose()


def _in_parallel(world: World, count: int, data: dict[str, str], path: str = "/signin/code") -> list[int]:
    """``count`` browsers post a sign-in form (the code's) at the same moment; their status codes."""
    clients = [TestClient(world.app, follow_redirects=False, raise_server_exceptions=False) for _ in range(count)]
    tokens = [csrf_of(client) for client in clients]
    start = threading.Barrier(count)
    statuses: list[int] = []

    def post(client: TestClient, token: str) -> None:
        start.wait()
        statuses.append(client.post(path, data={**data, "csrf_token": token}).status_code)

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


def test_parallel_wrong_passwords_never_pass_the_limit(world: World) -> None:
    keeper_account(world)
    statuses = _in_parallel(world, 2 * ADDRESS_FAILURES, {"address": KEEPER, "password": "wrong-password",
                                                          "next": "/"}, path="/signin")
    checked = _count(world, select(func.count()).select_from(SignInAttempt).where(
        SignInAttempt.address == KEEPER, SignInAttempt.ok.is_(False)))
    assert checked == ADDRESS_FAILURES
    assert 303 not in statuses


# -- item 11: "Mail me a code" takes as long whether a code is made or not ---------------------------


def _timed_ask(client: TestClient, token: str, address: str) -> float:
    began = time.perf_counter()
    response = client.post("/signin/code/send", data={"address": address, "csrf_token": token})
    assert response.status_code == 200
    return time.perf_counter() - began


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_asking_for_a_code_takes_as_long_whether_one_is_mailed_or_not(backend: str, request: pytest.FixtureRequest,
                                                                       tmp_path) -> None:  # type: ignore[no-untyped-def]
    if backend == "sqlite":
        harness = make_harness(f"sqlite:///{tmp_path / 'judge.sqlite3'}")
        world = World(harness, create_app(harness.judge, keeper_address=KEEPER))
    else:
        world = request.getfixturevalue("world")
    client = world.client()
    token = csrf_of(client)
    for _ in range(CODES_PER_ADDRESS):  # the address has its share: no further code is made for it
        _timed_ask(client, token, "full@example.com")
    mailed, not_mailed = [], []
    for number in range(12):  # interleaved, so that the machine's load falls on both alike
        mailed.append(_timed_ask(client, token, f"fresh{number}@example.com"))
        not_mailed.append(_timed_ask(client, token, "full@example.com"))
    assert len(mailed_codes(world, "full@example.com")) == CODES_PER_ADDRESS
    slow, fast = max(median(mailed), median(not_mailed)), min(median(mailed), median(not_mailed))
    assert (slow - fast) / slow < 0.3, f"mailed {median(mailed) * 1000:.1f} ms, not mailed {median(not_mailed) * 1000:.1f} ms"
