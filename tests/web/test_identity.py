"""Dashboard accounts are proven by control of the mailbox (issue 18.1, 18.9): a forged mail that
sets a game's master password opens no session; sign-up and reset take a code mailed to the
address; the judgekeeper's account is made only on the command line; a game is linked by its
signed-in GM with its master password; failed sign-ins for one address never block another, and
a locked address still gets in with a code; the client is the forwarded one only behind a trusted
proxy."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from app.db.models_web import EmailCode, GmAccount, SignInAttempt
from app.services.games.signin_limits import CLIENT_FAILURES
from app.settings import Settings
from app.web import create_app
from app.web.serve import make_server
from tests.web.conftest import (
    GM,
    GM_PASSWORD,
    KEEPER,
    OTHER_GM,
    OTHER_PASSWORD,
    World,
    ask_code,
    csrf_of,
    keeper_account,
    mailed_codes,
    make_harness,
    played_url,
    sign_in,
    signed_in,
    use_code,
)


@pytest.fixture(params=["sqlite", "postgresql"])
def fresh(request: pytest.FixtureRequest, tmp_path) -> Iterator[World]:  # type: ignore[no-untyped-def]
    """A judge of its own per test, on SQLite and on PostgreSQL, the games played (a copy of the
    played template: tests/web/conftest.py)."""
    with played_url(request, request.param, tmp_path / "judge.sqlite3") as url:
        harness = make_harness(url)
        yield World(harness, create_app(harness.judge, keeper_address=KEEPER))
        harness.judge.sessions.kw["bind"].dispose()


def _client(world: World, host: str = "testclient") -> TestClient:
    return TestClient(world.app, follow_redirects=False, client=(host, 1000))


def _accounts(world: World, address: str) -> int:
    with world.judge.sessions() as db:
        return int(db.scalar(select(func.count()).select_from(GmAccount).where(GmAccount.email == address)) or 0)


# -- 18.1: a password a mail set is no key ---------------------------------------------------


@pytest.mark.parametrize("victim", [KEEPER, GM])
def test_a_master_password_set_by_a_forged_mail_opens_no_session(fresh: World, victim: str) -> None:
    """Anyone can forge ``From: <victim>`` and CREATE a game with a master password of their own:
    that password signs in neither the judgekeeper nor a GM whose account exists."""
    assert fresh.harness.send(victim, "CREATE evilkeep evilkeeper1\nSIGNOFF").status == "done"
    client = fresh.client()
    response = sign_in(client, victim, "evilkeeper1")
    assert response.status_code == 401  # type: ignore[attr-defined]
    assert "pj_session" not in client.cookies
    assert client.get("/games/evilkeep").status_code == 303
    assert client.get("/games/alpha").status_code == 303
    assert _accounts(fresh, KEEPER) == 0  # the judgekeeper's account was not made by it
    if victim == GM:  # the real account still works, and its owner does not get the forged game
        owner = signed_in(fresh, GM, GM_PASSWORD)
        assert owner.get("/games/evilkeep").status_code == 303


def test_signing_up_takes_a_one_time_code_mailed_to_the_address(fresh: World) -> None:
    newcomer = "newgm@example.com"
    client = fresh.client()
    page = ask_code(client, newcomer)
    assert page.status_code == 200 and "a code is on its way" in page.text  # type: ignore[attr-defined]
    (code,) = mailed_codes(fresh, newcomer)
    with fresh.judge.sessions() as db:  # stored hashed only
        (row,) = db.scalars(select(EmailCode).where(EmailCode.email == newcomer))
        assert code.replace("-", "") not in row.code_hash and row.code_hash.startswith("$argon2")
    assert use_code(client, newcomer, "ABCDE-FGHJK", "a-good-password").status_code == 400  # type: ignore[attr-defined]
    assert use_code(client, newcomer, code, "short").status_code == 400  # type: ignore[attr-defined]
    assert _accounts(fresh, newcomer) == 0
    response = use_code(client, newcomer, code.lower(), "a-good-password")
    assert response.status_code == 303 and "pj_session" in client.cookies  # type: ignore[attr-defined]
    assert client.get("/").status_code == 200
    with fresh.judge.sessions() as db:
        account = db.scalar(select(GmAccount).where(GmAccount.email == newcomer))
        assert account is not None and account.proven_at is not None
    again = fresh.client()
    assert use_code(again, newcomer, code, "another-password").status_code == 400  # type: ignore[attr-defined]
    assert sign_in(again, newcomer, "a-good-password").status_code == 303  # type: ignore[attr-defined]


def test_a_code_expires(fresh: World) -> None:
    client = fresh.client()
    ask_code(client, GM)
    (code,) = mailed_codes(fresh, GM)
    fresh.harness.clock.advance(minutes=31)
    assert use_code(client, GM, code).status_code == 400  # type: ignore[attr-defined]


def test_a_password_reset_takes_a_code_and_ends_the_other_sessions(fresh: World) -> None:
    old = signed_in(fresh, GM, GM_PASSWORD)
    client = fresh.client()
    ask_code(client, GM)
    (code,) = mailed_codes(fresh, GM)
    assert use_code(client, GM, code, "brand-new-password").status_code == 303  # type: ignore[attr-defined]
    assert client.get("/games/alpha").status_code == 200  # the links stay
    assert old.get("/").status_code == 303  # signed out
    assert sign_in(fresh.client(), GM, GM_PASSWORD).status_code == 401  # type: ignore[attr-defined]
    assert sign_in(fresh.client(), GM, "brand-new-password").status_code == 303  # type: ignore[attr-defined]


def test_the_keepers_account_is_made_only_on_the_command_line(fresh: World) -> None:
    client = fresh.client()
    page = ask_code(client, KEEPER)
    assert page.status_code == 200  # type: ignore[attr-defined]  # says the same as for anyone
    assert mailed_codes(fresh, KEEPER) == []  # but mails nothing
    for guess in ("ABCDE-FGHJK", "23456-789AB"):
        response = use_code(client, KEEPER, guess, "keeper-password")
        assert response.status_code == 400  # type: ignore[attr-defined]
    assert "command line" in response.text  # type: ignore[attr-defined]
    assert _accounts(fresh, KEEPER) == 0
    keeper_account(fresh)  # `judge dashboard account`
    ask_code(client, KEEPER)
    (code,) = mailed_codes(fresh, KEEPER)
    assert use_code(client, KEEPER, code).status_code == 303  # type: ignore[attr-defined]
    assert client.get("/games/beta").status_code == 200  # the keeper sees every game


def test_a_game_is_linked_by_its_signed_in_gm_with_its_master_password(fresh: World) -> None:
    h = fresh.harness
    assert h.send(GM, "CREATE gamma gammapass\nSIGNOFF").status == "done"
    client = signed_in(fresh, GM, GM_PASSWORD)
    assert client.get("/games/gamma").status_code == 303  # not linked by signing in

    def link(who: TestClient, password: str) -> int:
        return who.post("/account/link", data={"name": "gamma", "password": password,
                                               "csrf_token": csrf_of(who, "/")}).status_code

    assert link(client, "wrong-password") == 400
    assert client.get("/games/gamma").status_code == 303
    other = signed_in(fresh, OTHER_GM, OTHER_PASSWORD)
    assert link(other, "gammapass") == 400  # another address's game, even with its password
    assert other.get("/games/gamma").status_code == 303
    assert fresh.client().post("/account/link", data={"name": "gamma", "password": "gammapass"}).status_code == 403
    assert link(client, "gammapass") == 303
    assert client.get("/games/gamma").status_code == 200


# -- 18.9: the lock-out is no denial of service ----------------------------------------------


def test_failures_for_other_addresses_never_block_a_gm_on_the_same_client(fresh: World) -> None:
    client = _client(fresh, "192.0.2.7")
    for n in range(12):
        assert sign_in(client, f"guess{n}@example.com", "wrong").status_code == 401  # type: ignore[attr-defined]
    assert sign_in(client, GM, GM_PASSWORD).status_code == 303  # type: ignore[attr-defined]


def test_a_locked_address_gets_in_with_a_code_mailed_to_it(fresh: World) -> None:
    """Ten wrong passwords for the GM from ten clients lock password sign-ins for that address (the
    right password included) and for no other; a code mailed to it still lets its owner in."""
    for n in range(10):
        assert sign_in(_client(fresh, f"198.51.100.{n}"), GM, "wrong").status_code == 401  # type: ignore[attr-defined]
    owner = _client(fresh, "203.0.113.5")
    response = sign_in(owner, GM, GM_PASSWORD)
    assert response.status_code == 429 and "code" in response.text  # type: ignore[attr-defined]
    assert sign_in(owner, OTHER_GM, OTHER_PASSWORD).status_code == 303  # type: ignore[attr-defined]
    owner = _client(fresh, "203.0.113.5")
    ask_code(owner, GM)
    (code,) = mailed_codes(fresh, GM)
    # strangers guessing codes for the address do not spend the owner's code
    for n in range(3):
        stranger = _client(fresh, f"198.51.100.{n}")
        for _ in range(6):
            use_code(stranger, GM, "ABCDE-FGHJK")
    assert use_code(owner, GM, code, next_url="/games/alpha").status_code == 303  # type: ignore[attr-defined]
    assert owner.get("/games/alpha").status_code == 200
    fresh.harness.clock.advance(minutes=16)
    assert sign_in(fresh.client(), GM, GM_PASSWORD).status_code == 303  # type: ignore[attr-defined]


def test_code_tries_are_limited_per_client(fresh: World) -> None:
    client = _client(fresh, "198.51.100.99")
    ask_code(client, GM)
    (code,) = mailed_codes(fresh, GM)
    statuses = [use_code(client, GM, "ABCDE-FGHJK").status_code for _ in range(16)]  # type: ignore[attr-defined]
    assert statuses[:15] == [400] * 15 and statuses[15] == 429
    assert use_code(client, GM, code).status_code == 429  # type: ignore[attr-defined]  # this client is done
    assert use_code(_client(fresh, "203.0.113.9"), GM, code).status_code == 303  # type: ignore[attr-defined]


def test_codes_mailed_to_an_address_are_limited(fresh: World) -> None:
    client = fresh.client()
    for _ in range(5):
        assert ask_code(client, "someone@example.com").status_code == 200  # type: ignore[attr-defined]
    assert len(mailed_codes(fresh, "someone@example.com")) == 3
    assert ask_code(client, "not an address").status_code == 400  # type: ignore[attr-defined]
    assert ask_code(client, "judge+abc@judge.test").status_code == 400  # type: ignore[attr-defined]


def test_the_per_client_limit_is_high_and_counts_the_real_client_behind_a_trusted_proxy(fresh: World) -> None:
    """Behind a trusted proxy (JUDGE_WEB_TRUSTED_PROXIES) each client is counted apart; a client
    naming another in X-Forwarded-For without a trusted proxy is counted as itself."""
    proxied = create_app(fresh.judge, keeper_address=KEEPER, trusted_proxies=("10.0.0.0/24",))
    via_proxy = TestClient(proxied, follow_redirects=False, client=("10.0.0.2", 1000))
    for n in range(CLIENT_FAILURES):
        client_ip = "203.0.113.66" if n < CLIENT_FAILURES - 1 else "203.0.113.67"
        csrf = csrf_of(via_proxy)
        response = via_proxy.post("/signin", data={"address": f"guess{n}@example.com", "password": "x",
                                                   "csrf_token": csrf},
                                  headers={"X-Forwarded-For": f"{client_ip}, 10.0.0.1"})
        assert response.status_code == 401
    with fresh.judge.sessions() as db:
        clients = dict(db.execute(select(SignInAttempt.client, func.count()).where(SignInAttempt.ok.is_(False))
                                  .group_by(SignInAttempt.client)).all())
    assert clients == {"203.0.113.66": CLIENT_FAILURES - 1, "203.0.113.67": 1}
    response = via_proxy.post("/signin", data={"address": GM, "password": GM_PASSWORD, "csrf_token": csrf_of(via_proxy)},
                              headers={"X-Forwarded-For": "203.0.113.66"})
    assert response.status_code == 303  # one short of the limit: still in
    csrf = csrf_of(via_proxy)
    via_proxy.post("/signin", data={"address": "x@example.com", "password": "x", "csrf_token": csrf},
                   headers={"X-Forwarded-For": "203.0.113.66"})
    blocked = via_proxy.post("/signin", data={"address": GM, "password": GM_PASSWORD,
                                              "csrf_token": csrf_of(via_proxy)},
                             headers={"X-Forwarded-For": "203.0.113.66"})
    assert blocked.status_code == 429
    other = via_proxy.post("/signin", data={"address": GM, "password": GM_PASSWORD, "csrf_token": csrf_of(via_proxy)},
                           headers={"X-Forwarded-For": "203.0.113.68"})
    assert other.status_code == 303  # the next client behind the same proxy is not
    direct = TestClient(fresh.app, follow_redirects=False, client=("198.51.100.1", 1000))  # no trusted proxy
    direct.post("/signin", data={"address": "y@example.com", "password": "x", "csrf_token": csrf_of(direct)},
                headers={"X-Forwarded-For": "203.0.113.99"})
    with fresh.judge.sessions() as db:
        assert db.scalar(select(SignInAttempt.client).order_by(SignInAttempt.id.desc()).limit(1)) == "198.51.100.1"


def test_uvicorn_trusts_forwarded_headers_only_from_the_named_proxies(tmp_path) -> None:  # type: ignore[no-untyped-def]
    harness = make_harness(f"sqlite:///{tmp_path / 'judge.sqlite3'}")
    app = create_app(harness.judge, keeper_address=KEEPER)
    plain = make_server(app)
    assert plain.config.proxy_headers is False
    behind = make_server(app, trusted_proxies=Settings(web_trusted_proxies="172.28.0.10, ::1").trusted_proxies)
    assert behind.config.proxy_headers is True and behind.config.forwarded_allow_ips == ["172.28.0.10", "::1"]


def test_accounts_made_before_mailbox_proof_must_prove_it(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Accounts before revision 0008 were made by a game's master password (a forged mail could set
    one): revision 0008 clears their passwords and sessions, so each proves its address once."""
    from sqlalchemy import text

    from app.db.migrate import upgrade
    from app.db.session import make_engine
    from app.services.kernel.security import hash_password

    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    upgrade(url, "0007")
    engine = make_engine(url)
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO gm_accounts (id, email, password_hash, created_at) "
                          "VALUES (1, :email, :hash, '2026-01-01 00:00:00')"),
                     {"email": KEEPER, "hash": hash_password("evilkeeper1")})
        conn.execute(text("INSERT INTO web_sessions (token_hash, account_id, csrf_token, created_at, expires_at) "
                          "VALUES ('x', 1, 'y', '2026-01-01 00:00:00', '2099-01-01 00:00:00')"))
    upgrade(url)
    with engine.begin() as conn:
        assert conn.execute(text("SELECT password_hash, proven_at FROM gm_accounts")).all() == [("", None)]
        assert conn.execute(text("SELECT count(*) FROM web_sessions")).scalar() == 0
    engine.dispose()
    harness = make_harness(url)
    world = World(harness, create_app(harness.judge, keeper_address=KEEPER))
    assert sign_in(world.client(), KEEPER, "evilkeeper1").status_code == 401  # type: ignore[attr-defined]
