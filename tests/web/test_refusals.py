"""A use case's refusal (DomainError) is answered by one handler (issue 20.4, app/web/errors.py): a
page with the refusal's words and the status its code and the method give, ``{"detail", "code"}``
under /api/, and the request's writes rolled back; the real routes keep their statuses."""

from __future__ import annotations

import pytest
from fastapi import HTTPException
from sqlalchemy import select

from app.db import queries
from app.db.models import Game
from app.services.errors import DomainError
from app.web import create_app
from app.web.deps import Uow
from tests.web.conftest import GM, GM_PASSWORD, KEEPER, World, csrf_of, gm_account, make_harness, signed_in

MESSAGE = "refused: <b>because</b>"
SHOWN = "refused: &lt;b&gt;because&lt;/b&gt;"  # player text, and so every refusal, escaped


@pytest.fixture
def world(tmp_path) -> World:  # type: ignore[no-untyped-def]
    harness = make_harness(f"sqlite:///{tmp_path / 'judge.sqlite3'}")
    assert harness.send(GM, f"CREATE alpha {GM_PASSWORD}\nSIGNOFF").status == "done"
    gm_account(harness, GM, GM_PASSWORD, "alpha")
    app = create_app(harness.judge, keeper_address=KEEPER)

    def refuse(name: str, code: str, uow: Uow) -> None:
        db = uow.session
        game = queries.game_by_name(db, name)
        if game is None:
            raise HTTPException(status_code=404)
        game.status = "paused"  # a write the refusal must undo
        db.flush()
        raise DomainError(code, MESSAGE)

    for path in ("/games/{name}/refuse/{code}", "/api/games/{name}/refuse/{code}"):
        app.add_api_route(path, refuse, methods=["GET", "POST"])
    return World(harness, app)


def _status(world: World) -> str:
    with world.judge.sessions() as db:
        return str(db.scalar(select(Game.status).where(Game.name == "alpha")))


@pytest.mark.parametrize(("method", "code", "status"), [
    ("GET", "no_phase", 404), ("GET", "no_game", 404), ("GET", "not_gm", 403),
    ("GET", "not_running", 400), ("GET", "too_many_attempts", 429),
    ("POST", "no_phase", 400), ("POST", "not_gm", 400), ("POST", "bad_hours", 400), ("POST", "too_many_codes", 429),
])
def test_a_refusal_is_a_page_or_json_with_its_status_and_nothing_written(world: World, method: str, code: str,
                                                                          status: int) -> None:
    client = world.client()
    page = client.request(method, f"/games/alpha/refuse/{code}")
    assert page.status_code == status, page.text
    assert page.headers["content-type"].startswith("text/html")
    assert SHOWN in page.text and MESSAGE not in page.text
    assert 'href="/public/games/alpha"' in page.text  # the error page's way back to the game
    api = client.request(method, f"/api/games/alpha/refuse/{code}")
    assert api.status_code == status
    assert api.json() == {"detail": MESSAGE, "code": code}
    assert _status(world) == "forming"  # the route's write rolled back with the refusal


def test_the_routes_keep_their_statuses(world: World) -> None:
    """What the hand-written blocks answered: a phase or a mail not there 404, a refused change 400."""
    client = signed_in(world, GM, GM_PASSWORD)
    missing = client.get("/games/alpha/phases/S1999M")
    assert missing.status_code == 404 and "has no phase S1999M" in missing.text
    assert client.get("/games/alpha/mail/in/999999").status_code == 404
    assert client.get("/games/alpha/phases/S1901M/map.svg").status_code == 404
    assert client.get("/public/games/nosuch").status_code == 404
    api = client.get("/api/games/alpha/phases/S1999M")
    assert api.status_code == 404 and api.json()["code"] == "no_phase"
    csrf = csrf_of(client, "/games/alpha")
    refused = client.post("/games/alpha/pause", data={"csrf_token": csrf})  # a forming game is not running
    assert refused.status_code == 400 and "alpha" in refused.text and "Back to alpha" in refused.text
    preview = client.post("/api/games/alpha/phases/S1901M/override/preview", json={"orders": {"FRANCE": ["A PAR H"]}},
                          headers={"X-CSRF-Token": client.get("/api/session").json()["csrf_token"]})
    assert preview.status_code == 400 and "no processed phase" in preview.json()["detail"]  # docs/api.md
    assert _status(world) == "forming"
