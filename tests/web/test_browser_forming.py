"""A forming game run from the dashboard in a real browser (issue 21.1): the GM creates it, sees who
joined by mail with their preferences, assigns a power and starts the game with the Start button."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from sqlalchemy import select

from app.db.models import Game
from app.web import create_app
from tests.server.conftest import POWERS, player
from tests.web.conftest import GM, GM_PASSWORD, KEEPER, played
from tests.web.test_browser import _shot, browser_path, chromium, serving  # noqa: F401  -- fixtures
from tests.web.test_browser_flow import Served

if TYPE_CHECKING:
    from playwright.sync_api import Browser


@pytest.fixture(scope="module")
def served(sqlite_played_template: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    harness = played(sqlite_played_template, tmp_path_factory.mktemp('forming') / "judge.sqlite3")
    with serving(create_app(harness.judge, keeper_address=KEEPER), "dashboard-forming") as url:
        yield Served(url, harness, [])


def test_the_gm_sees_who_joined_assigns_a_power_and_starts_the_game(chromium: Browser, served: Served) -> None:  # noqa: F811
    base, h = served.url, served.harness
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(f"{base}/")
    page.get_by_label("Address").fill(GM)
    page.get_by_label("Password").fill(GM_PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(f"{base}/")
    page.get_by_role("link", name="Create a game").click()
    page.get_by_label("Name").fill("forming1")
    page.get_by_label("Master password").fill("forming1pw")
    page.get_by_label("Variant").select_option("standard")
    page.get_by_role("button", name="Create the game").click()
    page.wait_for_url(f"{base}/games/forming1?done=created")
    with h.judge.sessions.begin() as db:  # wait for the GM's START when full, as `judge game create` does
        game = db.scalar(select(Game).where(Game.name == "forming1"))
        assert game is not None
        game.settings = {**game.settings, "auto_start": False}

    assert h.send("alice@example.com", "JOIN forming1 alicepw1 France").status == "done"
    page.reload()
    joined = page.get_by_role("region", name="Players joined")
    assert joined.get_by_role("cell", name="alice@example.com").count() == 1
    assert joined.get_by_role("cell", name="France").count() == 1
    assert page.get_by_role("button", name="Start the game").is_disabled()
    page.get_by_label("Player", exact=True).select_option(label="alice@example.com")
    page.locator("#as-power").select_option(label="Germany")
    page.get_by_role("button", name="Assign").click()
    page.wait_for_url(f"{base}/games/forming1?done=assigned#forming")
    assert joined.get_by_role("cell", name="Germany").count() == 1
    for power in [p for p in POWERS if p != "GERMANY"]:
        assert h.send(player(power), f"JOIN forming1 pw{power.lower()} {power}").status == "done"
    page.reload()
    _shot(page, "forming")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(f"{base}/games/forming1?done=started#powers")
    germany = page.locator("article.power", has_text="Germany")
    assert germany.get_by_text("alice@example.com", exact=False).count() == 1
    assert page.get_by_role("button", name="Review processing S1901M").count() == 1
    phone = context.new_page()  # the same session, on a phone's width
    phone.set_viewport_size({"width": 390, "height": 844})
    for path in ("/games/new", "/games/forming1"):
        phone.goto(f"{base}{path}")
        width = phone.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"{path} scrolls sideways on a phone ({width}px)"
    context.close()
