"""Who may see what: every route of the app walked as anonymous, a player, another game's GM,
the game's GM and the judgekeeper; CSRF on every form; sign-in, its limit, and sign-out."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import fastapi.routing
import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from sqlalchemy import select
from starlette.routing import Mount, Route

from app.db.models import Game, InboundMessage
from app.web import create_app
from tests.server.conftest import player
from tests.web.conftest import (
    GM,
    GM_PASSWORD,
    KEEPER,
    OTHER_GM,
    OTHER_PASSWORD,
    World,
    csrf_of,
    keeper_account,
    played,
    sign_in,
    signed_in,
)

# Routes anyone may use.  Every other route of the app must refuse all but the game's GM.
PUBLIC = {
    ("GET", "/healthz"), ("GET", "/signin"), ("POST", "/signin"), ("POST", "/signout"),
    ("POST", "/signin/code/send"), ("POST", "/signin/code"),
    ("GET", "/public"), ("GET", "/public/games/{name}"),
    ("GET", "/public/games/{name}/map.svg"), ("GET", "/public/games/{name}/phases/{code}/map.svg"),
    ("GET", "/openapi.json"),  # no /docs or /redoc (issue 19.9: they loaded from a CDN)
}


def _flat_routes(world: World) -> list[Any]:
    """The app's routes with included routers flattened (FastAPI >= 0.16x keeps them nested)."""
    flatten = getattr(fastapi.routing, "iter_route_contexts", None)
    return list(flatten(world.app.routes)) if flatten else list(world.app.routes)


def all_routes(world: World) -> list[tuple[str, str]]:
    out = []
    for route in _flat_routes(world):
        original = getattr(route, "original_route", route)
        if isinstance(original, Mount):
            assert route.path == "/static", f"unexpected mount {route.path}"
            continue
        assert isinstance(original, (APIRoute, Route)), route
        for method in sorted((route.methods or set()) - {"HEAD"}):
            out.append((method, route.path))
    assert len(out) >= 12, out
    return out


def concrete(world: World, path: str) -> str:
    with world.judge.sessions.begin() as db:
        game = db.scalar(select(Game).where(Game.name == "alpha"))
        assert game is not None
        mail_id = db.scalar(select(InboundMessage.id).where(InboundMessage.game_id == game.id))
    values = {"name": "alpha", "code": "S1901M", "direction": "in", "mail_id": str(mail_id), "contest_id": "999"}
    for key, value in values.items():
        path = path.replace("{" + key + "}", value)
    assert "{" not in path, f"the walk does not know a value for {path}"
    return path


def request(client: TestClient, method: str, url: str) -> object:
    headers = {}
    if method not in ("GET", "HEAD", "OPTIONS"):
        # the right token: the session's own once signed in (from a page's form), else the anonymous cookie's
        token = csrf_of(client, "/") if client.cookies.get("pj_session") else client.cookies.get("pj_csrf") or ""
        headers["X-CSRF-Token"] = token
    return client.request(method, url, headers=headers)


def guarded(world: World) -> list[tuple[str, str]]:
    routes = [r for r in all_routes(world) if r not in PUBLIC]
    paths = {path for _method, path in routes}
    # the walk is not vacuous: the GM's pages and the API are among the guarded routes
    assert {"/", "/games/{name}", "/games/{name}/phases/{code}", "/games/{name}/mail/{direction}/{mail_id}",
            "/api/games", "/api/games/{name}", "/api/games/{name}/phases/{code}"} <= paths
    # and so are the dashboard's maps, the override and contests, administration and the mailbox
    assert {"/games/{name}/map.svg", "/games/{name}/phases/{code}/map.svg", "/games/{name}/phases/{code}/override",
            "/games/{name}/contests/{contest_id}/answer", "/games/new", "/games/{name}/pause", "/games/{name}/resume",
            "/games/{name}/process", "/games/{name}/deadline", "/games/{name}/replace",
            "/games/{name}/mail/out/{mail_id}/resend", "/games/{name}/mail/in/{mail_id}/resolve", "/mailbox",
            "/mailbox/send", "/api/games/{name}/phases/{code}/override/preview",
            "/api/games/{name}/phases/{code}/override/commit"} <= paths
    return routes


# Routes of no one game: the overview and the list of games show another GM their own games only.
OWN_LISTS = {("GET", "/"), ("GET", "/api/games")}


def assert_admitted(response: object, path: str) -> None:
    """Not refused: no redirect to the sign-in page, no 401/403.  A GET answers 200; a form posted
    empty is refused for what it lacks (400) or done (303 back to the game), never for who sent it."""
    status = response.status_code  # type: ignore[attr-defined]
    assert status not in (401, 403), (path, status)
    if status in (302, 303):
        assert not response.headers["location"].startswith("/signin"), path  # type: ignore[attr-defined]


def assert_refused(response: object, path: str, *, signed_in_elsewhere: bool) -> None:
    status = response.status_code  # type: ignore[attr-defined]
    if path.startswith("/api/"):
        assert status == (403 if signed_in_elsewhere else 401), (path, status)
    else:
        assert status == 303, (path, status)
        assert response.headers["location"].startswith("/signin?next=/"), path  # type: ignore[attr-defined]


def test_every_guarded_route_refuses_anonymous(world: World) -> None:
    client = world.client()
    csrf_of(client)  # even with a valid anonymous CSRF cookie
    for method, path in guarded(world):
        assert_refused(request(client, method, concrete(world, path)), path, signed_in_elsewhere=False)


def test_every_guarded_route_refuses_a_player(world: World) -> None:
    client = world.client()
    response = sign_in(client, player("FRANCE"), "pwfrance")  # a seated player has no GM account
    assert response.status_code == 401  # type: ignore[attr-defined]
    assert "pj_session" not in client.cookies
    for method, path in guarded(world):
        assert_refused(request(client, method, concrete(world, path)), path, signed_in_elsewhere=False)


def test_every_guarded_route_refuses_the_gm_of_another_game(world: World) -> None:
    client = signed_in(world, OTHER_GM, OTHER_PASSWORD)
    for method, path in guarded(world):
        response = request(client, method, concrete(world, path))
        if "{name}" in path:
            assert_refused(response, path, signed_in_elsewhere=True)
        elif (method, path) in OWN_LISTS:  # the overview, the list of games: theirs only, not alpha
            assert response.status_code == 200, path  # type: ignore[attr-defined]
            assert "beta" in response.text and "alpha" not in response.text, path  # type: ignore[attr-defined]
        else:  # creating a game, the mailbox: any GM, nothing of alpha's
            assert_admitted(response, path)
            assert "alpha" not in response.text, path  # type: ignore[attr-defined]
    page = client.get("/games/alpha", follow_redirects=True)
    assert "not the GM of that game" in page.text


@pytest.mark.parametrize("who", ["gm", "keeper"])
def test_every_route_admits_the_gm_of_the_game_and_the_judgekeeper(world: World, who: str) -> None:
    if who == "keeper":
        keeper_account(world)
        client = signed_in(world, KEEPER, "keeper-secret")
    else:
        client = signed_in(world, GM, GM_PASSWORD)
    for method, path in guarded(world):
        response = request(client, method, concrete(world, path))
        if method == "GET":
            assert response.status_code == 200, (path, response.status_code)  # type: ignore[attr-defined]
        else:
            assert_admitted(response, path)


def test_public_routes_answer_anyone(world: World) -> None:
    client = world.client()
    for method, path in sorted(PUBLIC):
        if method != "GET":
            continue
        response = client.get(concrete(world, path))
        assert response.status_code == 200, path
    assert client.get("/healthz").json() == {"status": "ok", "reasons": [], "database": {"healthy": True}, "loops": {}}


def test_posts_without_the_csrf_token_are_refused(world: World) -> None:
    client = world.client()
    csrf_of(client)
    for data in ({"address": GM, "password": GM_PASSWORD},
                 {"address": GM, "password": GM_PASSWORD, "csrf_token": "forged-token-forged-token"}):
        assert client.post("/signin", data=data).status_code == 403
    assert "pj_session" not in client.cookies
    client = signed_in(world, GM, GM_PASSWORD)
    assert client.post("/signout", data={}).status_code == 403
    # the anonymous cookie's token is no good once signed in: the session has its own
    assert client.post("/signout", data={"csrf_token": client.cookies.get("pj_csrf")}).status_code == 403
    assert client.get("/games/alpha").status_code == 200  # still signed in
    for method, path in all_routes(world):
        if method in ("GET", "HEAD", "OPTIONS"):
            continue
        assert client.request(method, concrete(world, path)).status_code == 403, path


def test_the_session_cookie_is_httponly_and_lax_and_secure_when_asked(world: World) -> None:
    client = world.client()
    response = sign_in(client, GM, GM_PASSWORD)
    cookie = response.headers["set-cookie"]  # type: ignore[attr-defined]
    assert "pj_session=" in cookie and "HttpOnly" in cookie and "SameSite=lax" in cookie
    assert "Secure" not in cookie
    secure = TestClient(create_app(world.judge, keeper_address=KEEPER, secure_cookies=True),
                        base_url="https://testserver", follow_redirects=False)
    cookie = sign_in(secure, GM, GM_PASSWORD).headers["set-cookie"]  # type: ignore[attr-defined]
    assert "Secure" in cookie and "HttpOnly" in cookie


def test_sign_out_ends_the_session_even_for_a_kept_cookie(world: World) -> None:
    client = signed_in(world, GM, GM_PASSWORD)
    token = client.cookies.get("pj_session")
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', client.get("/").text)
    assert csrf
    response = client.post("/signout", data={"csrf_token": csrf.group(1)})
    assert response.status_code == 303 and response.headers["location"] == "/signin"
    stale = world.client()
    stale.cookies.set("pj_session", token or "")
    assert stale.get("/").status_code == 303
    assert stale.get("/api/games").status_code == 401


def test_next_only_goes_to_a_local_page(world: World) -> None:
    client = world.client()
    response = sign_in(client, GM, GM_PASSWORD, next_url="https://evil.example/")
    assert response.headers["location"] == "/"  # type: ignore[attr-defined]
    response = sign_in(client, GM, GM_PASSWORD, next_url="/games/alpha")
    assert response.headers["location"] == "/games/alpha"  # type: ignore[attr-defined]


@pytest.fixture
def fresh(sqlite_played_template: Path, tmp_path) -> World:  # type: ignore[no-untyped-def]
    harness = played(sqlite_played_template, tmp_path / "judge.sqlite3")
    return World(harness, create_app(harness.judge, keeper_address=KEEPER))


def test_a_wrong_password_or_unknown_address_is_refused(fresh: World) -> None:
    client = fresh.client()
    for address, password in ((GM, "wrong"), ("nobody@example.com", GM_PASSWORD), (OTHER_GM, GM_PASSWORD)):
        response = sign_in(client, address, password)
        assert response.status_code == 401  # type: ignore[attr-defined]
        assert "Unknown address or wrong password" in response.text  # type: ignore[attr-defined]


