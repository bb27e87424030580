"""A real browser (Debian's chromium driven by Playwright) against the dashboard served by uvicorn:
sign in, the overview, a game, a phase, the public page, on a desktop and on a phone.
Screenshots go to test-artefacts/dashboard/."""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from app.web import create_app, make_server
from tests.web.conftest import ARTEFACTS, GM, GM_PASSWORD, KEEPER, played

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

CHROMIUM = os.environ.get("JUDGE_CHROMIUM", "/usr/bin/chromium")
SHOTS = ARTEFACTS / "dashboard"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def serving(app: object, name: str) -> Iterator[str]:
    """The dashboard ``app`` served by uvicorn on a free loopback port, in a thread: its base URL."""
    port = _free_port()
    server = make_server(app, host="127.0.0.1", port=port)  # type: ignore[arg-type]
    thread = threading.Thread(target=server.run, name=name, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser_path() -> str:
    if not Path(CHROMIUM).exists() or shutil.which(CHROMIUM) is None:
        message = f"no chromium at {CHROMIUM}: run scripts/browser.sh"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(reason=message)
    return CHROMIUM


@pytest.fixture(scope="module")
def base_url(sqlite_played_template: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    harness = played(sqlite_played_template, tmp_path_factory.mktemp('browser') / "judge.sqlite3")
    port = _free_port()
    server = make_server(create_app(harness.judge, keeper_address=KEEPER), host="127.0.0.1", port=port)
    thread = threading.Thread(target=server.run, name="dashboard", daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def chromium(browser_path: str) -> Iterator[Browser]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=browser_path, args=["--no-sandbox"], headless=True)
        yield browser
        browser.close()


def _shot(page: Page, name: str, *, full_page: bool = True) -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=full_page)
    return path


def _sign_in(page: Page, base_url: str) -> None:
    page.goto(f"{base_url}/games/alpha")
    assert "/signin?next=/games/alpha" in page.url
    page.get_by_label("Address").fill(GM)
    page.get_by_label("Password").fill(GM_PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(f"{base_url}/games/alpha")


def test_sign_in_overview_game_phase_and_public_page(chromium: Browser, base_url: str) -> None:
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.goto(f"{base_url}/signin")
    _shot(page, "signin")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == "Skip to the content"
    _sign_in(page, base_url)
    assert page.get_by_role("heading", level=1).first.inner_text().startswith("alpha")
    assert page.get_by_text("F Lon - Nth", exact=True).count() == 1  # England's current order
    assert page.locator("svg[role=img]").count() == 1  # the centre chart
    _shot(page, "game")
    _shot(page, "game-top", full_page=False)
    page.get_by_role("link", name="Your games").click()
    page.wait_for_url(f"{base_url}/")
    assert page.get_by_role("link", name="alpha").count() == 1
    _shot(page, "overview")
    page.goto(f"{base_url}/games/alpha")
    page.locator("details.phase summary").first.click()
    page.get_by_role("link", name="Every order with its outcome and reason").click()
    assert page.get_by_role("cell", name="bounce").count() >= 2
    _shot(page, "phase")
    page.goto(f"{base_url}/public/games/alpha")
    assert page.get_by_text("Secret plan").count() == 0 and page.get_by_text("F Lon - Nth").count() == 0
    _shot(page, "public")
    # the escaped script in press and subjects never ran, and nothing was blocked or broken
    assert page.evaluate("typeof window.__pwned") == "undefined"
    assert not errors, errors
    page.get_by_role("button", name="Sign out").click()
    page.wait_for_url(f"{base_url}/signin")
    page.goto(f"{base_url}/games/alpha")
    assert "/signin" in page.url
    context.close()


def test_phone_layout(chromium: Browser, base_url: str) -> None:
    context = chromium.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2,
                                   is_mobile=True, has_touch=True)
    page = context.new_page()
    _sign_in(page, base_url)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the game page scrolls sideways on a phone ({width}px)"
    _shot(page, "game-phone", full_page=False)
    page.goto(f"{base_url}/")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    _shot(page, "overview-phone", full_page=False)
    unlabelled = page.evaluate(
        "[...document.querySelectorAll('input:not([type=hidden]), button')]"
        ".filter(e => !(e.labels && e.labels.length) && !e.textContent.trim() && !e.getAttribute('aria-label')).length")
    assert unlabelled == 0
    context.close()


_COLOURS = """(el) => {
  let node = el, background = null;
  while (node && !background) {
    const b = getComputedStyle(node).backgroundColor;
    if (b && b !== 'rgba(0, 0, 0, 0)' && b !== 'transparent') background = b;
    node = node.parentElement;
  }
  return [getComputedStyle(el).color, background || 'rgb(255, 255, 255)'];
}"""


def _luminance(css: str) -> float:
    channels = [int(float(v)) / 255 for v in css[css.index("(") + 1:css.index(")")].split(",")[:3]]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def test_the_mail_logs_buttons_can_be_read(chromium: Browser, base_url: str) -> None:
    """Issue 21, item 9: the mail log's resend buttons were white on white (WCAG 1.4.3)."""
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    _sign_in(page, base_url)
    buttons = page.locator("button.link", has_text="resend")
    assert buttons.count() > 0
    colour, background = buttons.first.evaluate(_COLOURS)
    light, dark = sorted((_luminance(colour), _luminance(background)), reverse=True)
    ratio = (light + 0.05) / (dark + 0.05)
    assert ratio >= 4.5, f"resend: {colour} on {background} (contrast {ratio:.2f})"
    context.close()
