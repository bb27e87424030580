"""One rule for the hours of a phase timing (issue 20.3): the use case (``gm.set_timing``) decides the
range (to the deadline 1 to 336 hours, grace 0 to 336: the 14 days that cap SET DEADLINE), and
both doors answer with its words: a mail's ``SET MOVE NEXT``, the game page's settings form and the
new-game form (which no longer checks a range of its own)."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from app.db.models import Game
from app.web import create_app
from tests.web.conftest import GM, GM_PASSWORD, KEEPER, World, csrf_of, played, signed_in


@pytest.fixture(scope="module")
def world(sqlite_played_template: Path, tmp_path_factory: pytest.TempPathFactory) -> World:
    harness = played(sqlite_played_template, tmp_path_factory.mktemp('timing') / "judge.sqlite3")
    return World(harness, create_app(harness.judge, keeper_address=KEEPER))


def _post(client: TestClient, path: str, data: dict[str, str], page: str) -> object:
    return client.post(path, data={**data, "csrf_token": csrf_of(client, page)})


def _timing(world: World, name: str) -> dict[str, object] | None:
    with world.judge.sessions() as db:
        game = db.scalar(select(Game).where(Game.name == name))
        return None if game is None else dict((game.settings or {}).get("timing") or {})


@pytest.mark.parametrize(("mail", "field", "hours", "answer"), [
    ("SET MOVE NEXT", "movement_next_hours", "500", "hours to the deadline are 1 to 336 (14 days), not 500"),
    ("SET MOVE NEXT", "movement_next_hours", "0", "hours to the deadline are 1 to 336 (14 days), not 0"),
    ("SET RETREAT NEXT", "retreat_next_hours", "721", "hours to the deadline are 1 to 336 (14 days), not 721"),
    ("SET ADJUST GRACE", "adjustment_grace_hours", "337", "grace hours are 0 to 336 (14 days), not 337"),
    ("SET MOVE GRACE", "movement_grace_hours", "-1", "grace hours are 0 to 336 (14 days), not -1"),
])
def test_both_doors_refuse_the_same_hours_with_the_same_words(world: World, mail: str, field: str, hours: str,
                                                               answer: str) -> None:
    h = world.harness
    before = _timing(world, "alpha")
    h.send(GM, f"SIGNON master@alpha {GM_PASSWORD}\n{mail} {hours}\nSIGNOFF")
    assert answer in h.last_reply(GM), h.last_reply(GM)
    client = signed_in(world, GM, GM_PASSWORD)
    page = _post(client, "/games/alpha/settings", {field: hours}, "/games/alpha")
    assert page.status_code == 400 and answer in page.text  # type: ignore[attr-defined]
    assert _timing(world, "alpha") == before
    created = _post(client, "/games/new", {"name": "delta", "password": "deltapw", "press": "grey", field: hours},
                    "/games/new")
    assert created.status_code == 400 and answer in created.text  # type: ignore[attr-defined]
    assert 'value="delta"' in created.text  # type: ignore[attr-defined]  # the form again, filled in
    assert _timing(world, "delta") is None  # nothing created


def test_both_doors_take_the_bounds(world: World) -> None:
    h = world.harness
    h.send(GM, f"SIGNON master@alpha {GM_PASSWORD}\nSET RETREAT NEXT 336\nSET RETREAT GRACE 0\nSIGNOFF")
    assert "retreat: next hours = 336" in h.last_reply(GM), h.last_reply(GM)
    assert (_timing(world, "alpha") or {})["retreat"] == {"next_hours": 336.0, "grace_hours": 0.0}
    client = signed_in(world, GM, GM_PASSWORD)
    saved = _post(client, "/games/alpha/settings", {"movement_next_hours": "1", "movement_grace_hours": "336"},
                  "/games/alpha")
    assert saved.status_code == 303, saved.text  # type: ignore[attr-defined]
    assert (_timing(world, "alpha") or {})["movement"] == {"next_hours": 1.0, "grace_hours": 336.0}
