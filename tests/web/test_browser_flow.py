"""A whole contested turn in a real browser (Debian's chromium driven by Playwright): the GM signs in,
creates a game, the players join and order by mail, the GM processes two phases, reviews the
first, a player contests it by mail, the GM overrides one order with the diff shown and commits;
the correction mail goes out and the later phase is replayed.  Screenshots of every main page go
to test-artefacts/dashboard/."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from app.web import create_app, make_server
from tests.server.conftest import POWERS, Harness, player
from tests.web.conftest import GM, GM_PASSWORD, KEEPER, played
from tests.web.test_browser import _free_port, _shot, browser_path, chromium  # noqa: F401  -- fixtures

if TYPE_CHECKING:
    from playwright.sync_api import Browser

EVIL_CONTEST = "<script>window.__pwned=1</script>Germany never ordered Munich to Burgundy"


@dataclass
class Served:
    url: str
    harness: Harness
    inbox: list[bytes]


@pytest.fixture(scope="module")
def served(sqlite_played_template: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    harness = played(sqlite_played_template, tmp_path_factory.mktemp('flow') / "judge.sqlite3")
    inbox: list[bytes] = []
    port = _free_port()
    server = make_server(create_app(harness.judge, keeper_address=KEEPER, inbox_writer=inbox.append),
                         host="127.0.0.1", port=port)
    thread = threading.Thread(target=server.run, name="dashboard-flow", daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.05)
    yield Served(f"http://127.0.0.1:{port}", harness, inbox)
    server.should_exit = True
    thread.join(timeout=10)


def _mail(h: Harness, power: str, body: str) -> None:
    assert h.send(player(power), f"SIGNON {power[0]}delta pw{power.lower()}\n{body}").status == "done"


def test_a_contested_turn_from_creation_to_correction(chromium: Browser, served: Served) -> None:  # noqa: F811
    base, h = served.url, served.harness
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)

    # sign in, create a game
    page.goto(f"{base}/")
    page.get_by_label("Address").fill(GM)
    page.get_by_label("Password").fill(GM_PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(f"{base}/")
    page.get_by_role("link", name="Create a game").click()
    page.get_by_label("Name").fill("delta")
    page.get_by_label("Master password").fill("deltapw")
    page.get_by_label("movement: hours to the deadline").fill("72")
    _shot(page, "new-game")
    page.get_by_role("button", name="Create the game").click()
    page.wait_for_url(f"{base}/games/delta?done=created")

    # the players join and the first turn is played by mail
    for power in POWERS:
        assert h.send(player(power), f"JOIN delta pw{power.lower()} {power}").status == "done"
    _mail(h, "FRANCE", "A Par - Bur\nA Mar - Spa\nF Bre - Mao")
    _mail(h, "GERMANY", "A Mun - Bur\nF Kie - Den\nA Ber - Kie")
    page.goto(f"{base}/games/delta")
    assert page.get_by_role("img", name="Position of delta now").count() == 1
    page.get_by_role("button", name="Review processing S1901M").click()  # a confirmation first (issue 21.10)
    page.wait_for_url(f"{base}/games/delta/process?")
    assert page.get_by_role("heading", name="Powers that will be defaulted").count() == 1
    _shot(page, "process-confirm")
    page.get_by_role("button", name="Process S1901M now").click()
    page.wait_for_url(f"{base}/games/delta?done=processed#admin")
    _mail(h, "FRANCE", "A Par - Pic\nA Spa - Por\nF Mao - Bre")
    page.get_by_role("button", name="Review processing F1901M").click()
    page.get_by_role("button", name="Process F1901M now").click()
    page.wait_for_url(f"{base}/games/delta?done=processed#admin")
    _shot(page, "game-flow")

    # review S1901M: the bounce with its strengths, next to the map with the order arrows
    page.goto(f"{base}/games/delta/phases/S1901M")
    assert page.get_by_text("Bounced: A PAR (1) vs A MUN (1)", exact=False).count() == 1
    assert page.get_by_text("Bounced: A MUN (1) vs A PAR (1)", exact=False).count() == 1
    assert page.get_by_role("img", name="Orders and results of S1901M").count() == 1
    page.wait_for_function("[...document.images].every(i => i.complete && i.naturalWidth > 0)")
    _shot(page, "phase-review")
    _shot(page, "phase-review-top", full_page=False)

    # France contests it by mail; the GM sees the contest on the overview and on the phase
    _mail(h, "FRANCE", f"CONTEST S1901M {EVIL_CONTEST}")
    page.goto(f"{base}/")
    assert page.get_by_text("1 contested phase").count() == 1
    _shot(page, "overview-contested")
    page.goto(f"{base}/games/delta/phases/S1901M")
    assert page.get_by_text("Germany never ordered Munich to Burgundy", exact=False).count() >= 1
    assert page.evaluate("typeof window.__pwned") == "undefined"

    # override Germany's order as it was meant; the preview shows old and new side by side
    page.locator("textarea[name=orders_GERMANY]").fill("A MUN - RUH\nF KIE - DEN\nA BER - KIE")
    page.get_by_role("button", name="Preview the correction").click()
    page.wait_for_url(f"{base}/games/delta/phases/S1901M/override")
    diff = page.locator("#order-diff")
    assert diff.get_by_text("A PAR - BUR").count() == 2  # fails before, succeeds after
    assert page.get_by_role("heading", name="Replayed: F1901M").count() == 1
    assert page.get_by_role("img", name="Corrected: S1901M").count() == 1
    page.wait_for_function("[...document.images].every(i => i.complete && i.naturalWidth > 0)")
    _shot(page, "override-preview")
    _shot(page, "override-preview-top", full_page=False)
    page.get_by_label("Reason (every player is mailed it with the correction)").fill(
        "Germany's order was A Mun - Ruh: the judge misread it.")
    before = len(h.outbox(kind="correction"))
    page.get_by_role("button", name="Commit the correction").click()
    page.wait_for_url(f"{base}/games/delta/phases/S1901M?corrected=*")
    assert page.get_by_text("The phase was corrected").count() == 1
    assert page.get_by_text("upheld", exact=True).count() >= 1
    _shot(page, "phase-corrected")

    # the correction went out to every player and the GM; the later phase was replayed
    corrections = h.outbox(kind="correction")[before:]
    assert {player(p) for p in POWERS} | {GM} <= {m.recipients[0] for m in corrections}
    assert all("misread" in m.body_text for m in corrections)
    answer = h.outbox(to=player("FRANCE"), kind="contest")
    assert answer and "upheld" in answer[-1].subject
    replayed = page.request.get(f"{base}/api/games/delta/phases/F1901M").json()
    assert "A BUR" in replayed["units_after"]["FRANCE"]

    # the public page and the embedded mailbox
    page.goto(f"{base}/public/games/delta")
    assert page.get_by_text("Germany never ordered").count() == 0
    _shot(page, "public-flow")
    page.goto(f"{base}/mailbox?address={player('FRANCE')}")
    page.get_by_label("Mail").fill("SIGNON Fdelta pwfrance\nA Bur - Mun")
    page.get_by_role("button", name="Send to the judge").click()
    page.wait_for_url(f"{base}/mailbox?address=*&sent=1")
    assert len(served.inbox) == 1 and b"A Bur - Mun" in served.inbox[0]
    assert page.get_by_text("Diplomacy correction delta S1901M").count() >= 1
    _shot(page, "mailbox")
    assert not errors, errors
    context.close()
