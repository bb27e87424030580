"""The dashboard over games that are not a map game in play: Days of Decision III, forming, finished."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.testclient import TestClient
from sqlalchemy import select

from app.db.models import Game
from app.web import create_app
from tests.web.conftest import KEEPER, World, gm_account, make_harness, signed_in

GM = "dodgm@example.com"


def test_a_days_of_decision_game_has_its_pages(tmp_path: Path) -> None:
    h = make_harness(f"sqlite:///{tmp_path / 'judge.sqlite3'}")
    assert h.send(GM, "DOD3 CREATE mailgame secretpw PRESET 5").status == "done"
    body = "SIGNON master@mailgame secretpw\n" + "\n".join(
        f"DOD3 SEAT {name} p{i}@example.com pw{i}" for i, name in enumerate(["GE", "JA+IT", "CW+FR", "CH+US", "RU"]))
    h.send(GM, body)  # each seat's address confirms (the harness answers)
    h.send(GM, "SIGNON master@mailgame secretpw\nDOD3 START")
    world = World(h, create_app(h.judge, keeper_address=KEEPER))
    gm_account(h, GM, "secretpw", "mailgame")
    gm = signed_in(world, GM, "secretpw")
    for path in ("/", "/games/mailgame", "/api/games", "/api/games/mailgame"):
        assert gm.get(path).status_code == 200, path
    assert world.client().get("/public/games/mailgame").status_code == 200
    summary = gm.get("/api/games").json()[0]
    assert summary["variant"] == "dod3" and summary["status"] == "active"
    page = gm.get("/games/mailgame").text
    assert 'id="dod3"' in page and "Days of Decision III" in page  # the GM's status report: track and numbers
    assert "map.svg" not in page  # no map for a game without one
    assert gm.get("/games/mailgame/map.svg").status_code == 404
    confirm = gm.get("/games/mailgame/process")  # the processing confirmation of a game without a map
    assert confirm.status_code == 200 and "closes step JF1936B now" in confirm.text, confirm.text
    assert "adjudicates" not in confirm.text and "Powers that will be defaulted" not in confirm.text  # issue 28.11
    token = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert token
    done = gm.post("/games/mailgame/dod3/record", data={"csrf_token": token.group(1), "text": "Poland <falls>"})
    assert done.status_code == 303
    changed = gm.post("/games/mailgame/dod3/number",
                      data={"csrf_token": token.group(1), "power": "GE", "field": "money", "value": "+3"})
    assert changed.status_code == 303
    page = gm.get("/games/mailgame").text
    assert "Poland &lt;falls&gt;" in page and "Poland <falls>" not in page  # in the record, escaped
    germany = next(line for line in page.splitlines() if line.strip().startswith("Germany "))
    assert germany.split()[3] == "3", germany  # Money
    bad = gm.post("/games/mailgame/dod3/number",
                  data={"csrf_token": token.group(1), "power": "GE", "field": "money", "value": "lots"})
    assert bad.status_code == 400 and "a number is like 4, +2 or -1/2" in bad.text


def test_forming_and_finished_games(tmp_path: Path) -> None:
    h = make_harness(f"sqlite:///{tmp_path / 'judge.sqlite3'}")
    assert h.send("gm@example.com", "CREATE forming1 masterpw\nSIGNOFF").status == "done"
    assert h.send("gm@example.com", "CREATE ended masterpw\nSIGNOFF").status == "done"
    with h.judge.sessions.begin() as db:
        ended = db.scalar(select(Game).where(Game.name == "ended"))
        assert ended is not None
        ended.status = "finished"
    world = World(h, create_app(h.judge, keeper_address=KEEPER))
    gm_account(h, "gm@example.com", "masterpw", "forming1", "ended")
    gm: TestClient = signed_in(world, "gm@example.com", "masterpw")
    games = {g["name"]: g for g in gm.get("/api/games").json()}
    assert games["forming1"]["status"] == "forming" and games["ended"]["status"] == "finished"
    assert games["forming1"]["not_ordered"] == [] and games["forming1"]["attention"] == []
    for name in games:
        assert gm.get(f"/games/{name}").status_code == 200
        assert world.client().get(f"/public/games/{name}").status_code == 200
