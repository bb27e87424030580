"""A Days of Decision III game's page in a real browser (issue 28.11): none of a map game's parts
(an empty units section, Map and Centres links, "each replacing that unit's order", "adjudicates
JF1936B"), and the GM report's NEXT block names the open step and its deadline."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

from app.web import create_app
from tests.web.conftest import KEEPER, gm_account, make_harness
from tests.web.test_browser import _shot, browser_path, chromium, serving  # noqa: F401  -- fixtures
from tests.web.test_browser_flow import Served
from tests.web.test_browser_gm_status import signed_in

if TYPE_CHECKING:
    from playwright.sync_api import Browser

GM = "dodgm@example.com"
PASSWORD = "secretpw"


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    h = make_harness(f"sqlite:///{tmp_path_factory.mktemp('dod3page') / 'judge.sqlite3'}")
    assert h.send(GM, f"DOD3 CREATE decision {PASSWORD} PRESET 5").status == "done"
    seats = "\n".join(f"DOD3 SEAT {name} p{i}@example.com pw{i}"
                      for i, name in enumerate(["GE", "JA+IT", "CW+FR", "CH+US", "RU"]))
    h.send(GM, f"SIGNON master@decision {PASSWORD}\n{seats}")  # each address confirms (the harness answers)
    h.send(GM, f"SIGNON master@decision {PASSWORD}\nDOD3 START")
    gm_account(h, GM, PASSWORD, "decision")
    with serving(create_app(h.judge, keeper_address=KEEPER), "dashboard-dod3") as url:
        yield Served(url, h, [])


def test_a_days_of_decision_page_has_no_map_game_parts(chromium: Browser, served: Served) -> None:  # noqa: F811
    base = served.url
    context, page = signed_in(chromium, base, address=GM, password=PASSWORD)
    page.goto(f"{base}/games/decision")
    toc = page.get_by_role("navigation", name="On this page")
    assert toc.get_by_role("link", name="Map").count() == 0 and toc.get_by_role("link", name="Centres").count() == 0
    assert page.locator("section#map").count() == 0 and page.locator("section#centres").count() == 0
    powers = page.locator("section#powers")
    assert powers.get_by_role("heading", name="Powers", exact=True).count() == 1
    assert powers.get_by_text("Units").count() == 0 and powers.get_by_text("No orders needed.").count() == 0
    assert "each replacing that unit's order" not in page.content()
    assert page.get_by_role("heading", name="Orders for a power").count() == 0
    report = page.locator("section#dod3 pre.results").inner_text()
    assert "NEXT\n  JF1936B" in report and "by " in report.split("NEXT", 1)[1], report  # the open step, its deadline
    _shot(page, "dod3-page", full_page=False)
    page.get_by_role("button", name="Review processing JF1936B").click()
    page.wait_for_url(f"{base}/games/decision/process*")
    assert "adjudicates" not in page.content() and "closes step JF1936B now" in page.content()
    assert page.get_by_role("heading", name="Powers that will be defaulted").count() == 0
    context.close()


def test_the_gm_ends_a_days_of_decision_game_from_its_page(chromium: Browser, served: Served) -> None:  # noqa: F811
    """Issue 28.8 in DoD III: the End the game page lists its major powers; the ruling is mailed once
    to each player (a player of two powers gets one copy) and SUMMARY keeps it."""
    base, h = served.url, served.harness
    context, page = signed_in(chromium, base, address=GM, password=PASSWORD)
    page.goto(f"{base}/games/decision")
    page.get_by_role("button", name="Declare a draw or a concession").click()
    page.wait_for_url(f"{base}/games/decision/end?")
    for power in ("Germany", "Soviet Union", "Nationalist China", "USA", "Commonwealth"):
        assert page.get_by_label(power, exact=True).count() == 1
    page.get_by_label("Soviet Union", exact=True).check()
    page.get_by_label("USA", exact=True).check()
    page.get_by_label("Your statement").fill("The world stepped back from the brink.")
    page.get_by_label("I mean it: end the game and mail every player").check()
    page.get_by_role("button", name="End the game").click()
    page.wait_for_url(f"{base}/games/decision?done=*")
    context.close()
    ended = [m.recipients[0] for m in h.outbox(kind="end")]
    assert sorted(ended) == sorted([GM] + [f"p{i}@example.com" for i in range(5)])  # one copy each
    h.send("p4@example.com", "SUMMARY decision")
    summary = " ".join(h.last_reply("p4@example.com").split())
    assert "has been declared a draw between USA and Soviet Union." in summary, summary
    assert "The world stepped back from the brink." in summary and "Supply Center" not in summary
