"""Two whole games run from the dashboard in a real browser (issue 21, "Done when"): a standard game
from forming through two years with a correction of an older phase, and a Days of Decision III
game from the new-game form to its first reveal of bids.  Screenshots go to
test-artefacts/dashboard/ (gm-flow-*.png); docs/dashboard/ keeps copies of a few."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from sqlalchemy import select

from app.db.models import Game
from app.web import create_app
from tests.server.conftest import POWERS, Harness, player, signon
from tests.web.conftest import GM, GM_PASSWORD, KEEPER, played
from tests.web.test_browser import _shot, browser_path, chromium, serving  # noqa: F401  -- fixtures
from tests.web.test_browser_flow import Served

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page

GAME = "gmflow"
DOD = "dodflow"


@pytest.fixture(scope="module")
def served(sqlite_played_template: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    harness = played(sqlite_played_template, tmp_path_factory.mktemp('gmflows') / "judge.sqlite3")
    with serving(create_app(harness.judge, keeper_address=KEEPER), "dashboard-gm-flows") as url:
        yield Served(url, harness, [])


def _signed_in_page(browser: Browser, base: str) -> tuple[BrowserContext, Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(f"{base}/")
    page.get_by_label("Address").fill(GM)
    page.get_by_label("Password").fill(GM_PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(f"{base}/")
    return context, page


def _create(page: Page, base: str, name: str, variant: str, grouping: str | None = None) -> None:
    page.get_by_role("link", name="Create a game").click()
    page.get_by_label("Name").fill(name)
    page.get_by_label("Master password").fill(f"{name}pw")
    page.get_by_label("Variant").select_option(variant)
    if grouping:
        page.get_by_label("Players and their powers (rule 3.1 grouping)").select_option(grouping)
    page.get_by_role("button", name="Create the game").click()
    page.wait_for_url(f"{base}/games/{name}?done=created*")


def _orders(h: Harness, power: str, body: str) -> None:
    outcome = h.send(player(power), signon(power, GAME) + body)
    assert outcome.status == "done", outcome.error


def _process(page: Page, base: str, phase: str) -> None:
    """Process the open phase from the game page, through its confirmation page."""
    page.goto(f"{base}/games/{GAME}")
    page.get_by_role("button", name=f"Review processing {phase}").click()
    page.wait_for_url(f"{base}/games/{GAME}/process?")
    assert page.get_by_role("heading", name="Powers that will be defaulted").count() == 1
    if phase == "S1901M":
        _shot(page, "gm-flow-process-confirm", full_page=False)
    page.get_by_role("button", name=f"Process {phase} now").click()
    page.wait_for_url(f"{base}/games/{GAME}?done=processed#admin")


def test_a_standard_game_from_forming_through_two_years_with_an_older_phase_corrected(
        chromium: Browser, served: Served) -> None:  # noqa: F811
    base, h = served.url, served.harness
    context, page = _signed_in_page(chromium, base)
    _create(page, base, GAME, "standard")
    with h.judge.sessions.begin() as db:  # wait for the GM's START when full, as `judge game create` does
        game = db.scalar(select(Game).where(Game.name == GAME))
        assert game is not None
        game.settings = {**game.settings, "auto_start": False}

    # the players JOIN by mail; the GM sees them, gives England its power and starts the game
    for power in POWERS:
        assert h.send(player(power), f"JOIN {GAME} pw{power.lower()} {power}").status == "done"
    page.reload()
    joined = page.get_by_role("region", name="Players joined")
    assert joined.get_by_role("cell", name=player("TURKEY")).count() == 1
    page.get_by_label("Player", exact=True).select_option(label=player("ENGLAND"))
    page.locator("#as-power").select_option(label="England")
    page.get_by_role("button", name="Assign").click()
    page.wait_for_url(f"{base}/games/{GAME}?done=assigned#forming")
    assert joined.get_by_role("cell", name="England", exact=True).count() == 2  # preferred and assigned
    assert joined.get_by_role("cell", name="at the start", exact=True).count() == 6
    _shot(page, "gm-flow-forming", full_page=False)
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(f"{base}/games/{GAME}?done=started#powers")
    assert page.locator("article.power", has_text="France").get_by_text(player("FRANCE")).count() == 1

    # two years: orders by mail, every phase processed from the dashboard
    _orders(h, "FRANCE", "A Par - Bur\nA Mar - Spa\nF Bre - Mao")
    _orders(h, "GERMANY", "A Mun - Ruh\nF Kie - Den\nA Ber - Kie")
    _process(page, base, "S1901M")
    _orders(h, "FRANCE", "A Spa - Por\nF Mao - Bre")
    _process(page, base, "F1901M")
    _process(page, base, "W1901A")
    _orders(h, "FRANCE", "A Bur - Mun")
    _process(page, base, "S1902M")
    _process(page, base, "F1902M")
    if page.get_by_role("button", name="Review processing W1902A").count():
        _process(page, base, "W1902A")
    assert page.get_by_role("button", name="Review processing S1903M").count() == 1

    # the GM corrects S1901M, two years back: France's army went to Picardy, not Burgundy
    page.goto(f"{base}/games/{GAME}/phases/S1901M")
    assert page.get_by_role("heading", name="Corrections").count() == 0
    page.locator("textarea[name=orders_FRANCE]").fill("A PAR - PIC\nA MAR - SPA\nF BRE - MAO")
    page.get_by_role("button", name="Preview the correction").click()
    page.wait_for_url(f"{base}/games/{GAME}/phases/S1901M/override")
    assert page.locator("#order-diff").get_by_text("A PAR - PIC").count() >= 1
    assert page.get_by_role("heading", name="Replayed: S1902M").count() == 1
    reason = "France's first order read A Par - Pic: the judge misread the mail."
    page.get_by_label("Reason (every player is mailed it with the correction)").fill(reason)
    page.get_by_role("button", name="Commit the correction").click()
    page.wait_for_url(f"{base}/games/{GAME}/phases/S1901M?corrected=*")
    corrections = page.locator("#corrections")
    assert corrections.locator("p", has_text="Reason:").get_by_text(reason).count() == 1
    assert corrections.locator("pre", has_text=reason).count() == 1  # the correction mail the players got
    assert corrections.get_by_role("heading", name="S1901M corrected", exact=False).count() == 1
    assert corrections.get_by_role("heading", name="Results as first mailed").count() == 1
    corrections.evaluate("section => section.scrollIntoView()")  # its top, under the sticky menu
    _shot(page, "gm-flow-phase-corrected", full_page=False)
    replayed = page.request.get(f"{base}/api/games/{GAME}/phases/S1901M").json()
    assert "A PIC" in replayed["units_after"]["FRANCE"]
    page.goto(f"{base}/games/{GAME}")
    assert page.get_by_text(reason).count() >= 1  # the game page lists the correction too
    assert len({m.recipients[0] for m in h.outbox(kind="correction")}) >= 7
    page.goto(f"{base}/games/{GAME}/audit")  # the audit log: the processing and the override, by whom
    assert page.get_by_text(reason).count() >= 1
    assert page.get_by_role("cell", name="override", exact=True).count() == 1
    assert page.get_by_role("cell", name="process", exact=True).count() == 6
    _shot(page, "gm-flow-audit", full_page=False)
    context.close()


def test_a_dod3_game_from_the_new_game_form_to_its_first_reveal_of_bids(
        chromium: Browser, served: Served) -> None:  # noqa: F811
    base, h = served.url, served.harness
    context, page = _signed_in_page(chromium, base)
    _create(page, base, DOD, "dod3", grouping="4b")
    seats = page.get_by_role("region", name="Players and their powers")
    groups = [row.inner_text() for row in seats.locator("tbody th").all()]
    assert len(groups) == 4 and seats.get_by_text("no one yet").count() == 4
    assert page.get_by_role("button", name="Start the game").is_disabled()
    addresses: dict[str, tuple[str, str]] = {}  # power code -> (address, password)
    for number in range(4):
        form = page.locator("form", has=page.get_by_role("heading", name="Seat a player"))
        form.get_by_label("Player", exact=True).select_option(index=number)
        form.get_by_label("Address").fill(f"dod{number}@example.com")
        form.get_by_label("Password").fill(f"dodpw{number}")
        form.get_by_role("button", name="Seat").click()
        page.wait_for_url(f"{base}/games/{DOD}?done=*")
    assert h.confirm_targets() == 4  # each address seated answers its confirmation (issue 29)
    page.reload()
    for row in seats.locator("tbody tr").all():
        cells = row.locator("th, td").all_inner_texts()
        for code in cells[1].split(", "):
            addresses[code] = (cells[2], f"dodpw{cells[2][3]}")
    assert sorted(addresses) == ["CH", "CW", "FR", "GE", "IT", "JA", "RU", "US"]
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(f"{base}/games/{DOD}?done=started*")
    assert page.get_by_role("heading", name="Days of Decision III").count() == 1

    def send(code: str, body: str) -> None:
        address, password = addresses[code]
        outcome = h.send(address, f"SIGNON {code.lower()}@{DOD} {password}\n{body}")
        assert outcome.status == "done", outcome.error

    # Jan/Feb 1936: no bids; the GM processes step B, each power in the initial order passes its
    # option (step C), the GM processes the end of the turn
    gm = f"SIGNON master@{DOD} {DOD}pw\nDOD3 PROCESS"
    assert h.send(GM, gm).status == "done"
    for code in ("GE", "IT", "CW", "FR", "RU", "JA", "US", "CH"):
        send(code, f"PASS {code}")
    assert h.send(GM, gm).status == "done"
    assert "next step MA1936A" in h.last_reply(GM)

    # the GM gives every power its bid points with the dashboard's number form
    page.reload()
    dod3 = page.locator("#dod3")
    assert "MA1936A" in dod3.locator("p.facts").inner_text()
    number_form = page.locator("form", has=page.get_by_role("heading", name="A power's number"))
    for code in sorted(addresses):
        number_form.get_by_label("Power (code or name)").fill(code)
        number_form.get_by_label("Number", exact=True).select_option(label="Bid points")
        number_form.get_by_label("Value (+2 or -1/2 adds, 4 sets)").fill("8")
        number_form.get_by_role("button", name="Change").click()
        page.wait_for_url(f"{base}/games/{DOD}?done=number*")

    # step A of Mar/Apr 1936: the bids stay hidden from the GM until every power has bid
    send("RU", "BID RU 7")
    page.reload()
    facts = dod3.locator("p.facts").inner_text()
    assert "Bids in RU" in facts and "Bids missing GE, IT, CW, FR, JA, US, CH" in facts, facts
    assert "bid 7" not in dod3.locator("pre.results").inner_text() and "BID RU 7" not in page.content()
    send("GE", "BID GE 1\nBID IT 1\nBID JA 1")
    send("CW", "BID CW 1\nBID FR 1")
    send("US", "BID US 1\nBID CH 1")
    page.reload()
    report = dod3.locator("pre.results").inner_text()
    assert "the bids revealed" in report, report
    assert re.search(r"1st Soviet Union +bid 7 \+2 = 9", report), report
    assert re.search(r"8th Nationalist China +bid 1 \+0 = 1", report), report
    dod3.evaluate("section => section.scrollIntoView()")
    _shot(page, "gm-flow-dod3-reveal", full_page=False)
    context.close()
