"""The dashboard commits before it answers (issue 20.1): a write that fails at commit answers 500,
never the 303 of a change that was rolled back."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event, select
from sqlalchemy.orm import Session

from app.db.models import Game
from app.db.models_web import GmAccount
from app.web import create_app
from tests.web.conftest import GM, GM_PASSWORD, KEEPER, World, csrf_of, played, sign_in


@pytest.fixture
def fresh(sqlite_played_template: Path, tmp_path) -> Iterator[World]:  # type: ignore[no-untyped-def]
    harness = played(sqlite_played_template, tmp_path / "judge.sqlite3")
    yield World(harness, create_app(harness.judge, keeper_address=KEEPER))


def test_a_write_that_fails_at_commit_is_not_answered_as_done(fresh: World) -> None:
    client = TestClient(fresh.app, follow_redirects=False, raise_server_exceptions=False)
    assert sign_in(client, GM, GM_PASSWORD).status_code == 303  # type: ignore[attr-defined]
    csrf = csrf_of(client, "/")

    def clash(session: Session) -> None:  # a row that breaks a unique constraint, flushed at commit
        session.add(GmAccount(email=GM, password_hash="x"))

    event.listen(fresh.judge.sessions, "before_commit", clash)
    try:
        response = client.post("/games/alpha/pause", data={"csrf_token": csrf})
    finally:
        event.remove(fresh.judge.sessions, "before_commit", clash)
    assert response.status_code == 500
    with fresh.judge.sessions() as db:
        assert db.scalar(select(Game.status).where(Game.name == "alpha")) == "active"  # rolled back
    assert client.post("/games/alpha/pause", data={"csrf_token": csrf}).status_code == 303
    with fresh.judge.sessions() as db:
        assert db.scalar(select(Game.status).where(Game.name == "alpha")) == "paused"
