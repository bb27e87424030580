"""Issue 28 item 8 on the dashboard, in a real browser: the GM ends a game by a ruling (a draw among
the powers ticked, with a statement) from the game page; every player is mailed it, and SUMMARY and
HISTORY keep it.  Refusals come back as the error page and change nothing."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from app.db import queries
from app.web import create_app
from tests.server.conftest import player
from tests.web.conftest import GM, GM_PASSWORD, KEEPER, World, played, signed_in
from tests.web.test_browser import _shot, browser_path, chromium, serving  # noqa: F401  -- fixtures
from tests.web.test_browser_flow import Served

if TYPE_CHECKING:
    from playwright.sync_api import Browser


@pytest.fixture(scope="module")
def served(sqlite_played_template: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    harness = played(sqlite_played_template, tmp_path_factory.mktemp('ending') / "judge.sqlite3")
    with serving(create_app(harness.judge, keeper_address=KEEPER), "dashboard-ending") as url:
        yield Served(url, harness, [])


def test_the_gm_declares_a_draw_from_the_game_page(chromium: Browser, served: Served) -> None:  # noqa: F811
    base, h = served.url, served.harness
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(f"{base}/games/alpha")
    page.get_by_label("Address").fill(GM)
    page.get_by_label("Password").fill(GM_PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(f"{base}/games/alpha")
    page.get_by_role("button", name="Declare a draw or a concession").click()
    page.wait_for_url(f"{base}/games/alpha/end?")
    page.get_by_label("Austria").check()
    page.get_by_label("England").check()
    page.get_by_label("France").check()
    page.get_by_label("Your statement").fill("The three survivors of the western alliance agreed.")
    page.get_by_label("I mean it: end the game and mail every player").check()
    _shot(page, "end-game", full_page=False)
    page.get_by_role("button", name="End the game").click()
    page.wait_for_url(f"{base}/games/alpha?done=*")
    assert "Done: game ended in a draw." in page.content()
    context.close()
    with h.judge.sessions.begin() as db:
        game = queries.game_by_name(db, "alpha")
        assert game is not None and game.status == "finished"
    text = h.outbox(to=player("TURKEY"), kind="end")[-1].body_text
    assert "Game 'alpha' has been declared a draw between Austria, England, and France." in text, text
    assert "The three survivors of the western alliance agreed." in text
    h.send(player("TURKEY"), "SUMMARY alpha")
    assert "The three survivors of the western alliance agreed." in h.last_reply(player("TURKEY"))


def test_a_refused_ruling_ends_nothing(world: World) -> None:
    client = signed_in(world, GM, GM_PASSWORD)
    page = client.get("/games/alpha/end")
    assert page.status_code == 200 and "End alpha by your ruling" in page.text
    token = page.text.split('name="csrf_token" value="')[1].split('"')[0]
    unconfirmed = client.post("/games/alpha/end", data={"csrf_token": token, "how": "draw", "power": "AUSTRIA"})
    assert unconfirmed.status_code == 400 and "Tick the box to confirm" in unconfirmed.text
    one = client.post("/games/alpha/end", data={"csrf_token": token, "how": "draw", "power": "AUSTRIA",
                                                 "confirm": "yes"})
    assert one.status_code == 400 and "a draw is among two powers or more" in one.text
    with world.judge.sessions.begin() as db:
        game = queries.game_by_name(db, "alpha")
        assert game is not None and game.status == "active"


def test_a_plain_set_draw_shows_as_a_vote_for_every_survivor(world: World) -> None:
    """Issue 28.12 on the game page: a DIAS vote (stored as such) reads "every survivor"."""
    h = world.harness
    h.send(player("FRANCE"), "SIGNON Falpha pwfrance\nSET DRAW")
    h.send(player("GERMANY"), "SIGNON Galpha pwgermany\nSET DRAW")
    page = signed_in(world, GM, GM_PASSWORD).get("/games/alpha").text
    assert "Draw votes: <strong>2 of 7</strong> (all so far for Austria, England, France, Germany, Italy, " \
           "Russia, Turkey)" in page, page
    assert '<td data-label="Draw vote">every survivor</td>' in page
    assert '<td data-label="Draw vote">*</td>' not in page
