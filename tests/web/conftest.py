"""Fixtures of the dashboard tests: a judge with games played by mail (SQLite and a throwaway
PostgreSQL database), the app over it, and browsers signed in as various people."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from app import jsonapi
from app.db.session import make_engine, make_sessionmaker
from app.services.context import Judge
from app.settings import Settings
from app.web import create_app
from tests.server.conftest import POWERS, Clock, Harness, player, signon
from tests.support.databases import copy_sqlite, migrate

KEEPER = "keeper@example.com"
GM = "gm@example.com"
GM_PASSWORD = "masterpw"
OTHER_GM = "other@example.com"
OTHER_PASSWORD = "otherpw"
EVIL = "<script>alert('x')</script><b>bold</b>"
_CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A migrated database (a copy of the template: tests/conftest.py) for the module's world."""
    if request.param == "sqlite":
        yield copy_sqlite(request.getfixturevalue("sqlite_template"), tmp_path_factory.mktemp("web") / "judge.sqlite3")
    else:
        with request.getfixturevalue("postgres_template").copy() as url:
            yield url


def make_harness(url: str) -> Harness:
    migrate(url)
    settings = Settings(database_url=url, judge_address="judge@judge.test", admin_address=KEEPER,
                        outage_minutes=10**7)
    judge = Judge(settings=settings, sessions=make_sessionmaker(make_engine(url)), api=jsonapi, clock=Clock())
    return Harness(judge, judge.clock)  # type: ignore[arg-type]


def play_games(h: Harness) -> None:
    """Game 'alpha' (GM gm@example.com) one movement phase in, with orders, press and HTML in player
    text; game 'beta' (GM other@example.com) forming."""
    assert h.send(GM, f"CREATE alpha {GM_PASSWORD}\nSET REMINDER 0\nSIGNOFF").status == "done"
    for power in POWERS:
        assert h.send(player(power), f"JOIN alpha pw{power.lower()} {power}").status == "done"
    assert h.send(OTHER_GM, f"CREATE beta {OTHER_PASSWORD}\nSIGNOFF").status == "done"
    h.send(player("FRANCE"), signon("FRANCE") + "A Par - Bur\nA Mar - Spa\nF Bre - Mao")
    h.send(player("GERMANY"), signon("GERMANY") + "A Mun - Bur\n")
    h.send(GM, f"SIGNON master@alpha {GM_PASSWORD}\nPROCESS")
    # S1901M processed; now in F1901M: current orders, press (public and private), HTML everywhere.
    h.send(player("ENGLAND"), signon("ENGLAND") + f"F Lon - Nth\nBROADCAST\nPublic {EVIL}\nENDPRESS",
           subject=f"orders {EVIL}")
    h.send(player("ITALY"), signon("ITALY") + "PRESS TO FRANCE\nSecret plan for France only\nENDPRESS")
    h.send(player("RUSSIA"), signon("RUSSIA") + f"F Sev - Bla\nPRESS TO TURKEY\nPrivate {EVIL}\nENDPRESS")


@dataclass
class World:
    harness: Harness
    app: FastAPI
    inbox: list[bytes] = field(default_factory=list)  # what the embedded mailbox wrote to the judge

    @property
    def judge(self) -> Judge:
        return self.harness.judge

    def client(self) -> TestClient:
        return TestClient(self.app, follow_redirects=False)


@pytest.fixture(scope="module")
def world(database: str) -> Iterator[World]:
    harness = make_harness(database)
    play_games(harness)
    inbox: list[bytes] = []
    yield World(harness, create_app(harness.judge, keeper_address=KEEPER, inbox_writer=inbox.append), inbox)
    harness.judge.sessions.kw["bind"].dispose()


def csrf_of(client: TestClient, path: str = "/signin") -> str:
    page = client.get(path)
    found = _CSRF.search(page.text)
    assert found, f"no CSRF token on {path}"
    return found.group(1)


def sign_in(client: TestClient, address: str, password: str, *, next_url: str = "/") -> object:
    token = csrf_of(client)
    return client.post("/signin", data={"address": address, "password": password, "next": next_url,
                                        "csrf_token": token})


def signed_in(world: World, address: str, password: str) -> TestClient:
    client = world.client()
    response = sign_in(client, address, password)
    assert response.status_code == 303, getattr(response, "text", "")  # type: ignore[attr-defined]
    return client


def keeper_account(world: World, password: str = "keeper-secret") -> None:
    from app.services.actor import Actor, Role
    from app.services.gm_accounts import set_gm_password

    with world.judge.sessions.begin() as db:
        set_gm_password(world.judge, db, Actor("cli", Role.KEEPER), KEEPER, password)


ARTEFACTS = Path(__file__).resolve().parents[2] / "test-artefacts"
