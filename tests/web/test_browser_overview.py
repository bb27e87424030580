"""The overview sorted by what needs the GM today, and several games paused at once (issue 28.9), in
a real browser.  The module's judge holds one GM's games in every state the sort cares about: an
open contest, a takeover request, every power missing a deadline, powers late in the grace period,
a deadline within 24 hours, a quiet game, a forming one.  Screenshots: overview-today (1280 and
390 px wide) in test-artefacts/dashboard/."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest
from sqlalchemy import select

from app.db.models import Game
from app.scheduler import tick
from app.web import create_app
from tests.server.conftest import POWERS, Harness, player, signon
from tests.web.conftest import GM, GM_PASSWORD, KEEPER, gm_account, make_harness
from tests.web.test_browser import _shot, browser_path, chromium, serving  # noqa: F401  -- fixtures
from tests.web.test_browser_flow import Served
from tests.web.test_browser_gm_status import signed_in

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

MASTER = f"SIGNON master@{{}} {GM_PASSWORD}\n"
GAMES = ("gone", "late", "soon", "calm", "contested", "vacant", "forming")


def _create(h: Harness, name: str, settings: str = "", powers: list[str] | None = None) -> None:
    assert h.send(GM, f"CREATE {name} {GM_PASSWORD}\nSET REMINDER 0\n{settings}SIGNOFF").status == "done"
    for power in POWERS if powers is None else powers:
        assert h.send(player(power), f"JOIN {name} pw{power.lower()} {power}").status == "done"


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    h = make_harness(f"sqlite:///{tmp_path_factory.mktemp('overview') / 'judge.sqlite3'}")
    h.judge.settings = h.judge.settings.model_copy(update={"creates_per_day": 100})
    # two games whose first deadline passes with no orders at all: one processes at once (no grace),
    # the other waits in its grace period
    _create(h, "gone", "SET GRACE 0\n")
    _create(h, "late")
    h.clock.advance(hours=49)
    tick(h.judge)
    # then, with the clock where it is now
    _create(h, "calm")
    _create(h, "soon")
    h.send(GM, MASTER.format("soon") + "SET DEADLINE +12h")
    _create(h, "contested")
    h.send(GM, MASTER.format("contested") + "PROCESS")
    h.send(player("FRANCE"), signon("FRANCE", "contested") + "CONTEST S1901M Paris never moved")
    _create(h, "vacant")
    h.send(GM, MASTER.format("vacant") + "EJECT Italy")
    h.send("newcomer@example.org", "TAKEOVER italy@vacant newcomerpw")
    _create(h, "forming", powers=["FRANCE"])
    gm_account(h, GM, GM_PASSWORD, *GAMES)
    with serving(create_app(h.judge, keeper_address=KEEPER), "dashboard-overview") as url:
        yield Served(url, h, [])


def _rows(page: Page) -> list[str]:
    return page.locator("table.games tbody th[scope=row] a").all_inner_texts()


def test_the_overview_lists_what_needs_the_gm_today_first(chromium: Browser, served: Served) -> None:  # noqa: F811
    base = served.url
    context, page = signed_in(chromium, base)
    assert _rows(page) == ["contested", "vacant", "gone", "late", "soon", "calm", "forming"]
    today = {name: page.locator("tr", has=page.locator(f"th >> text='{name}'")).locator("td").first.inner_text()
             for name in GAMES}
    assert "1 contested phase" in today["contested"]
    assert "1 takeover request to approve" in today["vacant"]
    assert "every power missed the last deadline" in today["gone"]
    assert today["late"].startswith("late: Austria, England, France")
    assert "deadline within 24 hours" in today["soon"]
    assert today["calm"] == "—" and today["forming"] == "—"
    late = page.locator("tr", has=page.locator("th >> text='late'"))
    assert late.get_by_text("passed; grace ends Wed Mar 04 2026 12:00 UTC").count() == 1  # not "—"
    assert page.get_by_text("5 needing you today").count() == 1
    _shot(page, "overview-today", full_page=False)
    phone = chromium.new_context(viewport={"width": 390, "height": 900})
    small = phone.new_page()
    small.goto(page.url)
    phone.add_cookies([{"name": cookie["name"], "value": cookie["value"], "domain": cookie["domain"], "path": cookie["path"],
                        "httpOnly": cookie["httpOnly"], "secure": cookie["secure"], "sameSite": cookie["sameSite"]}
                       for cookie in context.cookies()])
    small.goto(f"{base}/")
    assert _rows(small)[:2] == ["contested", "vacant"]
    width = small.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width
    _shot(small, "overview-today-phone", full_page=False)
    phone.close()
    context.close()


def test_several_games_are_paused_at_once_and_resumed(chromium: Browser, served: Served) -> None:  # noqa: F811
    base, h = served.url, served.harness
    context, page = signed_in(chromium, base)
    assert page.locator("tr", has=page.locator("th >> text='forming'")).get_by_role("checkbox").count() == 0
    page.get_by_label("Select calm").check()
    page.get_by_label("Select soon").check()
    page.get_by_role("button", name="Pause the selected games").click()
    page.wait_for_url(f"{base}/?done=*")
    assert page.get_by_role("status").inner_text() == "Done: paused soon, calm."  # in the overview's order
    with h.judge.sessions() as db:
        status = {g.name: g.status for g in db.scalars(select(Game))}
    assert status["calm"] == status["soon"] == "paused" and status["late"] == "active"
    assert sorted(m.subject for m in h.outbox(to=player("FRANCE")) if m.subject.endswith("paused")) == [
        "Diplomacy game calm paused", "Diplomacy game soon paused"]
    page.get_by_label("Select calm").check()
    page.get_by_label("Select soon").check()
    page.get_by_role("button", name="Resume the selected games").click()
    page.wait_for_url(f"{base}/?done=*")
    assert page.get_by_role("status").inner_text() == "Done: resumed soon, calm."
    with h.judge.sessions() as db:
        assert {g.status for g in db.scalars(select(Game).where(Game.name.in_(("calm", "soon"))))} == {"active"}
    context.close()
