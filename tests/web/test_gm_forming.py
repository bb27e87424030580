"""The GM runs a game from the dashboard from its forming to its end (issue 21, items 1, 2, 7, 13):
who has joined and what they prefer, powers assigned and the game started; a DoD III game set up
with its rule 3.1 grouping and seats; invitations whose command the judge accepts; the game's
settings after creation; START, EJECT, TERMINATE, a note and a broadcast."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from app.db.models import Game, Player
from app.web import create_app
from tests.server.conftest import POWERS, player
from tests.web.conftest import GM, GM_PASSWORD, KEEPER, World, csrf_of, make_harness, play_games, signed_in


@pytest.fixture
def fresh(tmp_path) -> World:  # type: ignore[no-untyped-def]
    harness = make_harness(f"sqlite:///{tmp_path / 'judge.sqlite3'}")
    play_games(harness)
    inbox: list[bytes] = []
    return World(harness, create_app(harness.judge, keeper_address=KEEPER, inbox_writer=inbox.append), inbox)


def _post(client: TestClient, path: str, data: dict[str, str], page: str = "/games/alpha") -> object:
    return client.post(path, data={**data, "csrf_token": csrf_of(client, page)})


def _create(client: TestClient, name: str, **fields: str) -> object:
    return _post(client, "/games/new", {"name": name, "password": f"{name}pw", **fields}, page="/games/new")


def _invited_line(body: str) -> str:
    found = re.search(r"with the line:\n\n    (.+)\n", body)
    assert found, body
    return found.group(1)


def test_the_invitation_gives_commands_the_judge_accepts(fresh: World) -> None:
    """Issue 21.7: the invitation said ``TAKEOVER demo <power> <password>``, which the judge refuses
    ("say which power: TAKEOVER power@game password")."""
    h = fresh.harness
    client = signed_in(fresh, GM, GM_PASSWORD)
    # a running game with a vacant power: TAKEOVER power@game password (docs/commands.md)
    assert h.send(GM, f"SIGNON master@alpha {GM_PASSWORD}\nEJECT Italy").status == "done"
    assert _post(client, "/games/alpha/invite", {"address": "newcomer@example.com"}).status_code == 303  # type: ignore[attr-defined]
    line = _invited_line(h.outbox(to="newcomer@example.com", kind="invite")[-1].body_text)
    assert line == "TAKEOVER <power>@alpha <password>"
    assert h.send("newcomer@example.com", line.replace("<power>", "italy").replace("<password>", "newpass1")
                  ).status == "done"
    answer = h.last_reply("newcomer@example.com")
    assert "say which power" not in answer and "TAKEOVER" in answer and "Italy" in answer, answer
    # a forming game: JOIN game password [preferences]
    assert _create(client, "delta").status_code == 303  # type: ignore[attr-defined]
    assert _post(client, "/games/delta/invite", {"address": "joiner@example.com"},
                 page="/games/delta").status_code == 303  # type: ignore[attr-defined]
    line = _invited_line(h.outbox(to="joiner@example.com", kind="invite")[-1].body_text)
    assert line == "JOIN delta <password> [preferences]"
    assert h.send("joiner@example.com", line.replace("<password>", "joinpass1").replace("[preferences]", "France")
                  ).status == "done"
    with fresh.judge.sessions.begin() as db:
        game = db.scalar(select(Game).where(Game.name == "delta"))
        assert game is not None
        seats = [(s.email, s.preferences) for s in game.players if s.role == "player"]
    assert seats == [("joiner@example.com", "FRANCE")]
