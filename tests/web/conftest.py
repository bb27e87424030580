"""Fixtures of the dashboard tests: a judge with games played by mail (SQLite and a throwaway
PostgreSQL database), the app over it, and browsers signed in as various people."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import select

from app.db.models_web import GmAccount
from app.db.session import make_engine, make_sessionmaker
from app.services.games.gm_accounts import link_game, open_session, set_gm_password
from app.services.kernel.actor import Actor, Role
from app.services.kernel.context import Judge
from app.settings import Settings
from app.web import create_app
from tests.server.conftest import POWERS, Clock, Harness, player, signon
from tests.support.databases import PostgresTemplate, copy_sqlite, migrate, prepared_sqlite
from tests.support.units import unit

KEEPER = "keeper@example.com"
GM = "gm@example.com"
GM_PASSWORD = "masterpw"
OTHER_GM = "other@example.com"
OTHER_PASSWORD = "otherpw1"
EVIL = "<script>alert('x')</script><b>bold</b>"
_CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The database of the module's world: a copy of the template after ``play_games`` (below)."""
    with played_url(request, request.param, tmp_path_factory.mktemp("web") / "judge.sqlite3") as url:
        yield url


def make_harness(url: str) -> Harness:
    migrate(url)
    settings = Settings(database_url=url, judge_address="judge@judge.test", admin_address=KEEPER,
                        outage_minutes=10**7)
    judge = Judge(settings=settings, sessions=make_sessionmaker(make_engine(url)), clock=Clock())
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
    gm_account(h, GM, GM_PASSWORD, "alpha")
    gm_account(h, OTHER_GM, OTHER_PASSWORD, "beta")


def _play_games_in(url: str) -> None:
    harness = make_harness(url)
    try:
        play_games(harness)
    finally:
        harness.judge.sessions.kw["bind"].dispose()


@pytest.fixture(scope="session")
def sqlite_played_template(sqlite_template: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The SQLite template after ``play_games`` (the mails sent once per test process; the clock is
    the harness's, which starts at the same time for every harness)."""
    return prepared_sqlite(sqlite_template, tmp_path_factory.mktemp("played") / "judge.sqlite3", _play_games_in)


@pytest.fixture(scope="session")
def postgres_played_template(postgres_template: PostgresTemplate) -> Iterator[PostgresTemplate]:
    """The PostgreSQL template after ``play_games`` (once per test process)."""
    template = PostgresTemplate(based_on=postgres_template, prepare=_play_games_in)
    yield template
    template.drop()


@contextmanager
def played_url(request: pytest.FixtureRequest, kind: str, path: Path) -> Iterator[str]:
    """A database of ``kind`` (sqlite, at ``path``, or postgresql) that holds what ``play_games``
    leaves: a copy of the played template."""
    if kind == "sqlite":
        yield copy_sqlite(request.getfixturevalue("sqlite_played_template"), path)
    else:
        with request.getfixturevalue("postgres_played_template").copy() as url:
            yield url


def played(template: Path, path: Path) -> Harness:
    """A harness on a copy at ``path`` of ``sqlite_played_template``: what ``play_games`` leaves."""
    return make_harness(copy_sqlite(template, path))


def gm_account(h: Harness, address: str, password: str, *games: str) -> None:
    """A GM account made as the judgekeeper makes one (``judge dashboard account``), with ``games``
    linked as the signed-in GM links them (their master password, here the account's)."""
    with unit(h.judge) as uow:
        db = uow.session
        set_gm_password(h.judge, uow, Actor("cli", Role.KEEPER), address, password)
        account = db.scalar(select(GmAccount).where(GmAccount.email == address))
        assert account is not None
        principal = open_session(uow, account, KEEPER, h.judge.now()).principal
        for name in games:
            link_game(h.judge, uow, principal, name, password, client="fixture")


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
    harness = make_harness(database)  # the games are played (``database``)
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


_CODE = re.compile(r"Your code: ([A-Z0-9]{5}-[A-Z0-9]{5})")


def ask_code(client: TestClient, address: str) -> object:
    """Ask the judge to mail a sign-in code to ``address`` (the sign-in page's second form)."""
    return client.post("/signin/code/send", data={"address": address, "csrf_token": csrf_of(client)})


def mailed_codes(world: World, address: str) -> list[str]:
    """The sign-in codes the judge queued for ``address``, oldest first (read from the outbox)."""
    return [found.group(1) for mail in world.harness.outbox(to=address, kind="signin_code")
            if (found := _CODE.search(mail.body_text))]


def use_code(client: TestClient, address: str, code: str, password: str = "", next_url: str = "/") -> object:
    return client.post("/signin/code", data={"address": address, "code": code, "password": password,
                                             "next": next_url, "csrf_token": csrf_of(client)})


def proven_by_code(world: World, address: str, password: str = "") -> TestClient:
    """A browser signed in with a code mailed to ``address``, which proves its owner reads it."""
    client = world.client()
    ask_code(client, address)
    response = use_code(client, address, mailed_codes(world, address)[-1], password)
    assert response.status_code == 303, getattr(response, "text", "")  # type: ignore[attr-defined]
    return client


def keeper_account(world: World, password: str = "keeper-secret") -> None:
    with unit(world.judge) as uow:
        set_gm_password(world.judge, uow, Actor("cli", Role.KEEPER), KEEPER, password)


ARTEFACTS = Path(__file__).resolve().parents[2] / "test-artefacts"
