"""Issue 19.5, the web door: text from a browser is stored on PostgreSQL as on SQLite.  PostgreSQL's
text holds no NUL character (SQLite's does): a NUL in a form field was a 500, and a sign-in with
one was not even counted by the rate limit (its attempt row rolled back with the error)."""

from __future__ import annotations

from sqlalchemy import func, select

from app.db.models_web import Contest, SignInAttempt
from tests.server.conftest import player, signon
from tests.web.conftest import GM, GM_PASSWORD, World, csrf_of, signed_in


def _attempts(world: World, address: str) -> int:
    with world.judge.sessions.begin() as db:
        return int(db.scalar(select(func.count()).select_from(SignInAttempt).where(SignInAttempt.address == address))
                   or 0)


def test_a_sign_in_with_a_nul_is_refused_and_counted(world: World) -> None:
    client = world.client()
    token = csrf_of(client)
    before = _attempts(world, "gm@example.com")
    response = client.post("/signin", data={"address": "gm@example.com\x00", "password": "wrong\x00",
                                            "csrf_token": token})
    assert response.status_code == 401, response.text
    assert _attempts(world, "gm@example.com") == before + 1


def test_a_contest_answered_with_a_nul(world: World) -> None:
    h = world.harness
    h.send(player("FRANCE"), signon("FRANCE") + "CONTEST S1901M my support was not cut")
    with world.judge.sessions.begin() as db:
        contest = db.scalars(select(Contest).order_by(Contest.id.desc())).first()
        assert contest is not None
        contest_id = contest.id
    client = signed_in(world, GM, GM_PASSWORD)
    response = client.post(f"/games/alpha/contests/{contest_id}/answer",
                           data={"verdict": "answered", "answer": "It was\x00 cut.",
                                 "csrf_token": csrf_of(client, "/games/alpha")})
    assert response.status_code == 303, response.text
    with world.judge.sessions.begin() as db:
        assert db.get_one(Contest, contest_id).answer == "It was cut."
    assert "It was cut." in h.last_reply(player("FRANCE")) or any(
        "It was cut." in row.body_text for row in h.outbox(to=player("FRANCE"), kind="contest"))
