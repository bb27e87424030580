"""How long a draw vote stands (issue 28.12, ``SET DRAW EXPIRES PHASE|NEVER``) on the settings page
(issue 28.4: every setting a GM can ``SET`` by mail), in a real browser: saved, told to the players
in the one settings notice, audited with its old and new value, and applied to the votes."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from sqlalchemy import select

from app.db.models import AuditEntry, Game, Player
from app.web import create_app
from tests.server.conftest import POWERS, player, signon
from tests.web.conftest import GM, GM_PASSWORD, KEEPER, played
from tests.web.test_browser import browser_path, chromium, serving  # noqa: F401  -- fixtures
from tests.web.test_browser_flow import Served
from tests.web.test_browser_gm_status import new_game, signed_in

if TYPE_CHECKING:
    from playwright.sync_api import Browser


@pytest.fixture(scope="module")
def served(sqlite_played_template: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    harness = played(sqlite_played_template, tmp_path_factory.mktemp("drawexp") / "judge.sqlite3")
    harness.judge.settings = harness.judge.settings.model_copy(update={"creates_per_day": 100})
    with serving(create_app(harness.judge, keeper_address=KEEPER), "dashboard-draw-expiry") as url:
        yield Served(url, harness, [])


def test_the_settings_page_sets_how_long_a_draw_vote_stands(chromium: Browser, served: Served) -> None:  # noqa: F811
    base, h = served.url, served.harness
    new_game(h, "drawx")
    context, page = signed_in(chromium, base)
    page.goto(f"{base}/games/drawx/settings")
    field = page.get_by_label("A player's draw vote or concession stands")
    assert field.input_value() == "never"  # the default: until withdrawn
    before = len(h.outbox(kind="notice"))
    field.select_option("phase")
    page.get_by_role("button", name="Save the settings").click()
    page.wait_for_url(f"{base}/games/drawx/settings?done=saved")
    assert page.get_by_label("A player's draw vote or concession stands").input_value() == "phase"
    with h.judge.sessions() as db:
        game = db.scalar(select(Game).where(Game.name == "drawx"))
        assert game is not None and game.settings["draw_expires"] == "phase"
        audit = [a.detail for a in db.scalars(select(AuditEntry).where(AuditEntry.game_id == game.id,
                                                                       AuditEntry.action == "set"))]
    assert audit[-1]["changes"] == [["draw votes", "until withdrawn", "good for one phase"]]
    notices = [m for m in h.outbox(kind="notice")[before:] if m.subject == "Diplomacy settings changed drawx"]
    assert sorted(r for m in notices for r in m.recipients) == sorted(player(p) for p in POWERS)  # one each
    assert "Draw votes: until withdrawn -> good for one phase" in notices[0].body_text
    page.goto(f"{base}/games/drawx/audit")
    assert page.locator("tr", has_text="draw votes until withdrawn → good for one phase").count() == 1
    context.close()
    # the option is the game's: a vote cast now is good for this phase only
    h.send(player("FRANCE"), signon("FRANCE", "drawx") + "SET DRAW")
    assert "It is good for this phase only (SET DRAW EXPIRES PHASE)" in h.last_reply(player("FRANCE"))
    h.send(GM, f"SIGNON master@drawx {GM_PASSWORD}\nPROCESS")
    with h.judge.sessions() as db:
        game = db.scalar(select(Game).where(Game.name == "drawx"))
        assert game is not None
        seat = db.scalar(select(Player).where(Player.game_id == game.id, Player.power == "FRANCE"))
        assert seat is not None and seat.draw is None
