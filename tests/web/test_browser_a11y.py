"""Issue 21, item 9: every dashboard page passes axe-core's WCAG 2.1 A and AA rules with no violation,
on a desktop (1280 px) and on a phone (390 px); the phase review's "Why" column is on screen on a
phone; the mail log is paged and its addresses do not wrap a letter a line.

axe-core is the axe.min.js shipped by the PyPI package ``axe-playwright-python`` (a dev extra),
injected into the page and run with the WCAG 2.0/2.1 A and AA tags."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.web.test_browser import _shot, _sign_in, base_url, browser_path, chromium  # noqa: F401  (fixtures)

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize

AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
SIZES: dict[str, ViewportSize] = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


def _axe_source() -> str:
    axe = pytest.importorskip("axe_playwright_python", reason="pip install axe-playwright-python (dev extra)")
    return (Path(axe.__file__).parent / "axe.min.js").read_text(encoding="utf-8")


def _violations(page: Page) -> list[str]:
    page.evaluate(_axe_source())
    result = page.evaluate(
        "async (tags) => await axe.run(document, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']})",
        AXE_TAGS)
    return [f"{v['id']} ({v['impact']}): {v['help']} at " + json.dumps([n["target"] for n in v["nodes"]][:4])
            for v in result["violations"]]


def _context(chromium: Browser, size: str) -> BrowserContext:  # noqa: F811
    if size == "phone":
        return chromium.new_context(viewport=SIZES[size], device_scale_factor=2, is_mobile=True,
                                    has_touch=True)
    return chromium.new_context(viewport=SIZES[size])


@pytest.mark.parametrize("size", list(SIZES))
def test_every_page_passes_axe_wcag21_aa(chromium: Browser, base_url: str, size: str) -> None:  # noqa: F811
    context = _context(chromium, size)
    page = context.new_page()
    found: dict[str, list[str]] = {}
    page.goto(f"{base_url}/signin")
    found["sign-in"] = _violations(page)
    for path in ("/public", "/public/games/alpha"):
        page.goto(f"{base_url}{path}")
        found[path] = _violations(page)
    _sign_in(page, base_url)
    for path in ("/", "/games/alpha", "/games/alpha/settings", "/games/alpha/audit", "/games/alpha/phases/S1901M",
                 "/games/alpha/process", "/games/alpha?mail_dir=out&mail_page=2", "/games/new"):
        page.goto(f"{base_url}{path}")
        found[path] = _violations(page)
    page.goto(f"{base_url}/games/alpha/phases/S1901M")
    page.get_by_role("button", name="Preview the correction").click()
    page.wait_for_load_state()
    assert "Override alpha S1901M" in page.get_by_role("heading", level=1).inner_text()
    found["override preview"] = _violations(page)
    context.close()
    assert not {k: v for k, v in found.items() if v}, json.dumps({k: v for k, v in found.items() if v}, indent=1)


def test_the_phase_review_fits_a_phone(chromium: Browser, base_url: str) -> None:  # noqa: F811
    """The "Why" column of the review is on screen at 390 px (the table is laid out as cards)."""
    context = _context(chromium, "phone")
    page = context.new_page()
    _sign_in(page, base_url)
    page.goto(f"{base_url}/games/alpha/phases/S1901M")
    cells = page.locator(".review-table tbody td:nth-child(4)")  # the "Why" column
    assert cells.count() > 0
    for index in range(cells.count()):
        box = cells.nth(index).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, box
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    _shot(page, "phase-phone")
    context.close()


def test_the_mail_log_is_paged_and_addresses_do_not_wrap_a_letter_a_line(
        chromium: Browser, base_url: str) -> None:  # noqa: F811
    context = _context(chromium, "phone")
    page = context.new_page()
    _sign_in(page, base_url)
    rows = page.locator("#mail table.mail-log tbody tr")
    assert 0 < rows.count() <= 25
    _shot(page, "game-phone-full")
    address = page.locator("#mail .addr").first
    box = address.bounding_box()
    assert box is not None
    assert box["width"] >= 120, f"an address column {box['width']} px wide"
    context.close()
