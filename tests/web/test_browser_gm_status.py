"""What a DPjudge GM and njudge veterans hold a GM to, in a real browser (issue 28, items 1-7, 10 and
the dashboard's part of 21): the settings page (every SET setting, a refusal beside its field, the
deadline's "set it anyway" box, absence grants), rule changes told to the players and audited with
old and new values, co-GMs and a handover, mail to one player, civil disorder by hand and revival,
the phone's mail log, a correction preview without order keys.  Each test runs its own game (by
mail, on the module's judge), so they go in any order.  Screenshots: test-artefacts/dashboard/."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from sqlalchemy import select

from app.db.models import AuditEntry, Game, Player
from app.db.models_web import GmAccount
from app.services.games.gm_accounts import GmPrincipal, link_game
from app.web import create_app
from tests.server.conftest import POWERS, Harness, player, signon
from tests.support.units import unit
from tests.web.conftest import GM, GM_PASSWORD, KEEPER, played
from tests.web.test_browser import _shot, browser_path, chromium, serving  # noqa: F401  -- fixtures
from tests.web.test_browser_flow import Served

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page

_CODE = re.compile(r"Your code: ([A-Z0-9]{5}-[A-Z0-9]{5})")


@pytest.fixture(scope="module")
def served(sqlite_played_template: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    harness = played(sqlite_played_template, tmp_path_factory.mktemp('gmstatus') / "judge.sqlite3")
    harness.judge.settings = harness.judge.settings.model_copy(update={"creates_per_day": 100})  # a game a test
    with serving(create_app(harness.judge, keeper_address=KEEPER), "dashboard-gm-status") as url:
        yield Served(url, harness, [])


def new_game(h: Harness, name: str, variant: str = "", *, powers: list[str] | None = None) -> None:
    """A game run by GM (its master password GM_PASSWORD) with every power joined (so started),
    linked to the GM's dashboard account."""
    assert h.send(GM, f"CREATE {name} {GM_PASSWORD} {variant}".rstrip() + "\nSET REMINDER 0\nSIGNOFF").status == "done"
    for power in powers if powers is not None else POWERS:
        assert h.send(player(power), f"JOIN {name} pw{power.lower()} {power}").status == "done"
    with unit(h.judge) as uow:
        db = uow.session
        account = db.scalar(select(GmAccount).where(GmAccount.email == GM))
        assert account is not None
        link_game(h.judge, uow, GmPrincipal(account.id, GM, False, "fixture"), name, GM_PASSWORD, client="fixture")


def signed_in(browser: Browser, base: str, *, width: int = 1280, address: str = GM,
              password: str = GM_PASSWORD) -> tuple[BrowserContext, Page]:
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    page.goto(f"{base}/signin")
    page.locator("#address").fill(address)
    page.locator("#password").fill(password)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(f"{base}/")
    return context, page


def _game(h: Harness, name: str) -> Game:
    with h.judge.sessions() as db:
        game = db.scalar(select(Game).where(Game.name == name))
        assert game is not None
        db.expunge(game)
        return game


def _audit(h: Harness, name: str) -> list[tuple[str, str, dict[str, object]]]:
    with h.judge.sessions() as db:
        game = db.scalar(select(Game).where(Game.name == name))
        assert game is not None
        return [(a.actor, a.action, dict(a.detail or {})) for a in db.scalars(
            select(AuditEntry).where(AuditEntry.game_id == game.id).order_by(AuditEntry.id))]


def test_the_settings_page_saves_every_setting_tells_the_players_once_and_audits_old_and_new(
        chromium: Browser, served: Served) -> None:  # noqa: F811
    """Items 1, 2 and 4: one save of layout, press with observers, the NMR policy, a grace and a rule
    option mails every player and observer ONE notice (old -> new, in the game's new layout), is printed
    with the next results, and the audit log says `movement grace 24 h → 0 h`."""
    base, h = served.url, served.harness
    new_game(h, "setg")
    assert h.send("watcher@example.org", "OBSERVE setg watchpw").status == "done"
    context, page = signed_in(chromium, base)
    page.goto(f"{base}/games/setg")
    page.get_by_role("link", name="All settings").first.click()
    page.wait_for_url(f"{base}/games/setg/settings")
    assert page.get_by_role("heading", name="Settings of setg").count() == 1
    before = len(h.outbox(kind="notice"))
    page.get_by_label("Press", exact=True).select_option("grey")
    page.get_by_label("Observers may send press").check()
    page.get_by_label("When a player sends no orders (NMR)").select_option("hold")
    page.get_by_label("Results layout").select_option("zine")
    page.get_by_label("movement: grace hours").fill("0")
    page.locator("#rule_option").select_option("retreat_default")
    page.locator("#rule_value").select_option("right_hand")
    _shot(page, "settings-page")
    page.get_by_role("button", name="Save the settings").click()
    page.wait_for_url(f"{base}/games/setg/settings?done=saved")
    notices = [m for m in h.outbox(kind="notice")[before:] if m.subject == "Diplomacy settings changed setg"]
    told = sorted(r for m in notices for r in m.recipients)
    assert told == sorted([player(p) for p in POWERS] + ["watcher@example.org"])  # one each: players, observer
    text = notices[0].body_text
    assert "-" * 72 in text  # the players' layout, zine, as the change made it
    assert "press" in text and "white -> grey (observers may send press)" in text
    assert "NMR policy" in text and "cd -> hold" in text
    assert "movement grace" in text and "24 h -> 0 h" in text
    assert "rule retreat_default" in text and "default -> right_hand" in text
    game = _game(h, "setg")
    assert game.settings["observer_press"] is True and game.settings["layout"] == "zine"
    assert game.settings["rules"] == {"retreat_default": "right_hand"}
    # the GM notes of the next results
    assert h.send(GM, f"SIGNON master@setg {GM_PASSWORD}\nPROCESS").status == "done"
    results = [" ".join(m.body_text.split()) for m in h.outbox(to=player("FRANCE"))
               if m.subject == "Diplomacy results setg S1901M"]
    assert len(results) == 1 and "GM NOTES The master changed the settings: NMR policy cd -> hold;" in results[0], results
    # the audit log says what changed, and who changed it
    page.goto(f"{base}/games/setg/audit")
    row = page.locator("tr", has_text="set timing")
    assert row.get_by_text("movement grace 24 h → 0 h").count() == 1
    assert row.get_by_text(GM).count() == 1
    assert page.locator("tr", has_text="NMR policy cd → hold").count() == 1
    _shot(page, "audit-detail", full_page=False)
    context.close()
    phone, small = signed_in(chromium, base, width=390)
    small.goto(f"{base}/games/setg/settings")
    assert small.evaluate("document.documentElement.scrollWidth") <= 390
    _shot(small, "settings-page-phone", full_page=False)
    phone.close()


def test_a_refused_setting_comes_back_filled_in_with_the_error_beside_its_field(
        chromium: Browser, served: Served) -> None:  # noqa: F811
    """Item 3: `movement hours 500` no longer answers a bare 400 page that loses the other edits."""
    base, h = served.url, served.harness
    new_game(h, "refg")
    context, page = signed_in(chromium, base)
    page.goto(f"{base}/games/refg/settings")
    page.get_by_label("When a player sends no orders (NMR)").select_option("hold")
    page.get_by_label("Time zone").fill("Europe/Paris")
    page.get_by_label("movement: hours to the deadline").fill("500")
    page.get_by_role("button", name="Save the settings").click()
    page.wait_for_load_state()
    beside = page.locator("#err-movement_next_hours")
    assert beside.inner_text() == "hours to the deadline are 1 to 336 (14 days), not 500"
    field = page.get_by_label("movement: hours to the deadline")
    assert field.input_value() == "500" and field.get_attribute("aria-describedby") == "err-movement_next_hours"
    assert page.get_by_label("When a player sends no orders (NMR)").input_value() == "hold"  # the other edits kept
    assert page.get_by_label("Time zone").input_value() == "Europe/Paris"
    assert page.get_by_role("alert").inner_text().startswith("Nothing was changed: hours to the deadline are 1 to 336")
    field.scroll_into_view_if_needed()
    _shot(page, "settings-refused", full_page=False)
    game = _game(h, "refg")
    assert "nmr" not in game.settings or game.settings["nmr"] == "cd"  # nothing of the refused save
    assert game.settings.get("timezone", "UTC") == "UTC"
    context.close()


def test_a_deadline_inside_an_absence_takes_the_set_it_anyway_box_and_a_past_one_offers_process_now(
        chromium: Browser, served: Served) -> None:  # noqa: F811
    """Items 4 and 27.2: no `CONFIRM` typed into the date field, no "use PROCESS" on a web page; and the
    absence's end is told alike by mail and on the dashboard (item 21: 23:59, not 00:00)."""
    base, h = served.url, served.harness
    new_game(h, "absg")
    h.send(player("FRANCE"), signon("FRANCE", "absg") + "SET ABSENCE 2026-03-10 TO 2026-03-12")
    assert "to Thu Mar 12 2026 23:59 UTC" in h.last_reply(player("FRANCE"))
    context, page = signed_in(chromium, base)
    page.goto(f"{base}/games/absg")
    assert page.locator("#players tr", has_text="France").get_by_text(
        "Tue Mar 10 2026 00:00 UTC to Thu Mar 12 2026 23:59 UTC").count() == 1
    page.goto(f"{base}/games/absg/settings")
    assert page.locator("#absences tr", has_text="France").get_by_text("to Thu Mar 12 2026 23:59 UTC").count() == 1
    page.get_by_label(re.compile("New deadline")).fill("2026-03-11 12:00")
    page.get_by_role("button", name="Set the deadline").click()
    page.wait_for_load_state()
    beside = page.locator("#err-when")
    assert "France is absent" in beside.inner_text() and "set it anyway" in beside.inner_text()
    assert "CONFIRM" not in page.content()
    assert page.get_by_label(re.compile("New deadline")).input_value() == "2026-03-11 12:00"  # kept
    _shot(page, "settings-deadline-absence", full_page=False)
    page.get_by_label("Set it anyway, even inside a player's absence").check()
    page.get_by_role("button", name="Set the deadline").click()
    page.wait_for_url(f"{base}/games/absg/settings?done=deadline")
    game = _game(h, "absg")
    assert game.deadline is not None and game.deadline.strftime("%m-%d %H:%M") == "03-11 12:00"
    page.get_by_label(re.compile("New deadline")).fill("2020-01-01 10:00")
    page.get_by_role("button", name="Set the deadline").click()
    page.wait_for_load_state()
    assert "is not in the future" in page.locator("#err-when").inner_text()
    assert "PROCESS" not in page.content()
    page.get_by_role("button", name="Process now").click()
    page.wait_for_url(f"{base}/games/absg/process*")
    context.close()


def test_an_absence_is_granted_on_the_settings_page(chromium: Browser, served: Served) -> None:  # noqa: F811
    """Item 4: GRANT ABSENCE from the settings page."""
    base, h = served.url, served.harness
    new_game(h, "grag")
    context, page = signed_in(chromium, base)
    page.goto(f"{base}/games/grag/settings")
    page.get_by_label("Power", exact=True).select_option(label="Italy")
    page.get_by_label("Days over the cap").fill("7")
    page.get_by_role("button", name="Grant the absence").click()
    page.wait_for_url(f"{base}/games/grag/settings?done=absence*")
    assert page.locator("#absences tr", has_text="Italy").locator("td").last.inner_text() == "7"
    assert _game(h, "grag").settings["absence_grants"] == {"ITALY": 7}
    page.get_by_label("Days over the cap").fill("999")
    page.get_by_role("button", name="Grant the absence").click()
    page.wait_for_load_state()
    assert "grant between 0 and 365 days" in page.locator("#err-days").inner_text()
    context.close()


def test_a_co_gm_runs_the_game_and_is_handed_it_and_the_audit_says_who_did_what(
        chromium: Browser, served: Served) -> None:  # noqa: F811
    """Item 5: a co-GM added by address, proven by a code mailed to it, pauses the game; only the
    master hands it over; the audit names each GM."""
    base, h = served.url, served.harness
    new_game(h, "cogm")
    co = "cogm-helper@example.org"
    context, page = signed_in(chromium, base)
    page.goto(f"{base}/games/cogm/settings")
    page.get_by_label(re.compile("^Address")).fill(co)
    page.get_by_role("button", name="Add as co-GM").click()
    page.wait_for_url(f"{base}/games/cogm/settings?done=co-GM*")
    assert page.locator("#masters").get_by_text(co).count() == 1
    assert [m.subject for m in h.outbox(to=co)] == ["Diplomacy game cogm: you are a co-GM"]
    # the co-GM proves the address with a mailed code, then finds the game among its games
    helper = chromium.new_context(viewport={"width": 1280, "height": 900})
    other = helper.new_page()
    other.goto(f"{base}/signin")
    other.get_by_label("Mail a code to").fill(co)
    other.get_by_role("button", name="Mail me a code").click()
    code = _CODE.search(h.outbox(to=co, kind="signin_code")[-1].body_text)
    assert code
    other.get_by_label("Code").fill(code.group(1))
    other.get_by_label(re.compile("New password")).fill("helper-secret")
    other.get_by_role("button", name="Sign in").click()
    other.wait_for_url(f"{base}/")
    row = other.locator("tr", has_text="cogm")
    assert row.get_by_text("co-GM").count() == 1
    row.get_by_role("link", name="cogm").click()
    other.get_by_role("button", name="Pause the game").click()
    other.wait_for_url(f"{base}/games/cogm?done=paused*")
    other.goto(f"{base}/games/cogm/settings")
    assert other.get_by_role("button", name="Hand the game over").count() == 0  # the master's business
    assert (co, "pause") in [(who, what) for who, what, _ in _audit(h, "cogm")]
    # the master hands the game over; the old master stays a co-GM of it
    page.reload()
    page.get_by_label(re.compile("^Address")).fill(co)
    page.get_by_role("button", name="Hand the game over").click()
    page.wait_for_url(f"{base}/?done=*")
    assert _game(h, "cogm").master_email == co
    assert any(m.subject == "Diplomacy game cogm: you are its master" for m in h.outbox(to=co))
    # the old master stays a co-GM, and runs the game again once its account proves its address
    assert page.locator("tr", has_text="cogm").count() == 0
    other.goto(f"{base}/")
    assert other.locator("tr", has_text="cogm").get_by_text("co-GM").count() == 0  # its own game now
    other.goto(f"{base}/games/cogm/audit")
    assert other.locator("tr", has_text="co master add").get_by_text(GM).count() == 1
    assert other.locator("tr", has_text="pause").get_by_text(co).count() == 1
    assert other.locator("tr", has_text="handover").get_by_text(f"new master {co}").count() == 1
    _shot(other, "audit-co-gm", full_page=False)
    helper.close()
    context.close()


def test_the_gm_mails_one_player_from_the_game_page(chromium: Browser, served: Served) -> None:  # noqa: F811
    """Item 6: GM press to one power, in the mail log and the audit."""
    base, h = served.url, served.harness
    new_game(h, "onep")
    context, page = signed_in(chromium, base)
    page.goto(f"{base}/games/onep")
    page.get_by_label(re.compile("^To \\(as")).select_option(label=f"France ({player('FRANCE')})")
    page.get_by_label("Message").fill("Your orders bounce: write A Par - Bur, not A Paris-Burgundy.")
    page.get_by_role("button", name="Send to this player").click()
    page.wait_for_url(f"{base}/games/onep?done=mailed*")
    mails = [m for m in h.outbox(kind="press") if m.game_id == _game(h, "onep").id]
    assert [m.recipients for m in mails] == [[player("FRANCE")]]
    assert mails[0].body_text.startswith("Message from the GM to France in 'onep':")
    page.goto(f"{base}/games/onep?mail_dir=out#mail")
    assert page.locator("#mail tr", has_text="Diplomacy press onep").count() == 1
    assert any(what == "press" and detail.get("to") == "France" and "A Par - Bur" in str(detail.get("text"))
               for _, what, detail in _audit(h, "onep"))
    page.goto(f"{base}/games/onep/audit")
    assert page.get_by_text("to France: Your orders bounce").count() == 1
    context.close()


def test_civil_disorder_by_hand_and_revival_are_told_to_the_board(chromium: Browser, served: Served) -> None:  # noqa: F811
    """Item 7: DUMMY and REVIVE from the game page."""
    base, h = served.url, served.harness
    new_game(h, "dumg")
    context, page = signed_in(chromium, base)
    page.goto(f"{base}/games/dumg")
    page.get_by_label(re.compile("^Power \\(as DUMMY")).select_option("ITALY")
    page.get_by_role("button", name="Put into civil disorder").click()
    page.wait_for_url(f"{base}/games/dumg?done=Italy*civil*")
    assert page.locator("#players tr", has_text="Italy").get_by_text("civil disorder (by the GM)").count() == 1
    told = [m for m in h.outbox(kind="notice") if m.subject == "Diplomacy game dumg: Italy in civil disorder"]
    assert sorted(r for m in told for r in m.recipients) == sorted([player(p) for p in POWERS] + [GM])
    italy_told = [m for m in told if m.recipients == [player("ITALY")]]
    assert len(italy_told) == 1 and italy_told[0].reply_to is None  # no personal reply address to act with
    italy = h.send(player("ITALY"), signon("ITALY", "dumg") + "A Ven H")
    assert "wrong password" in h.last_reply(player("ITALY")), italy
    page.get_by_label(re.compile("^Power \\(as DUMMY")).select_option("ITALY")
    page.get_by_role("button", name="Revive").click()
    page.wait_for_url(f"{base}/games/dumg?done=Italy*given*")
    welcome = [m for m in h.outbox(to=player("ITALY")) if m.subject == "Diplomacy game dumg: you play Italy again"]
    found = re.search(r"Your password is (\w+)\.", welcome[-1].body_text)
    assert found
    h.send(player("ITALY"), f"SIGNON Idumg {found.group(1)}\nA Ven H")
    assert "A VEN HOLD" in h.last_reply(player("ITALY")).upper() or "Ven" in h.last_reply(player("ITALY"))
    with h.judge.sessions() as db:
        seat = db.scalar(select(Player).join(Game).where(Game.name == "dumg", Player.power == "ITALY"))
        assert seat is not None and seat.status == "active"
    context.close()


def test_on_a_phone_the_mail_log_cards_fit_the_screen(chromium: Browser, served: Served) -> None:  # noqa: F811
    """Item 10: the mail log's cards were 702 px wide in a 366 px scroller at 390 px."""
    base, h = served.url, served.harness
    new_game(h, "phon")
    context, page = signed_in(chromium, base, width=390)
    page.goto(f"{base}/games/phon#mail")
    cards = page.locator("table.mail-log tbody tr")
    assert cards.count() > 3
    scroller = page.locator("#mail .table-wrap").evaluate("e => [e.clientWidth, e.scrollWidth]")
    assert scroller[1] <= scroller[0] + 1, scroller  # nothing to scroll sideways
    widths = cards.evaluate_all("rows => rows.map(r => r.getBoundingClientRect().width)")
    assert max(widths) <= 390, widths
    _shot(page, "mail-log-phone", full_page=False)
    context.close()


def test_a_disabled_start_button_looks_disabled(chromium: Browser, served: Served) -> None:  # noqa: F811
    """Item 10: the Start button of a game not yet full looked like every other button."""
    base, h = served.url, served.harness
    new_game(h, "phoneform", powers=["FRANCE"])  # forming: one player of seven
    context, page = signed_in(chromium, base, width=390)
    page.goto(f"{base}/games/phoneform#forming")
    start = page.get_by_role("button", name="Start the game")
    assert start.is_disabled()
    look = start.evaluate("b => [getComputedStyle(b).backgroundColor, getComputedStyle(b).cursor]")
    enabled = page.get_by_role("button", name="Send the invitation").evaluate(
        "b => getComputedStyle(b).backgroundColor")
    assert look[0] != enabled and look[1] == "not-allowed", (look, enabled)
    context.close()


def test_the_correction_preview_names_no_order_key(chromium: Browser, served: Served) -> None:  # noqa: F811
    """Item 21: a WAIVE was shown as `#WAIVE#10` in the correction preview's unit column."""
    base, h = served.url, served.harness
    new_game(h, "waiv")
    gm = f"SIGNON master@waiv {GM_PASSWORD}\nPROCESS"
    h.send(player("FRANCE"), signon("FRANCE", "waiv") + "A Par - Bur\nA Mar - Spa\nF Bre - Mao")
    h.send(GM, gm)
    h.send(player("FRANCE"), signon("FRANCE", "waiv") + "A Spa - Por\nF Mao - Spa/nc")
    h.send(GM, gm)
    h.send(player("FRANCE"), signon("FRANCE", "waiv") + "WAIVE\nWAIVE")
    h.send(GM, gm)
    context, page = signed_in(chromium, base)
    page.goto(f"{base}/games/waiv/phases/W1901A")
    page.locator("textarea[name=orders_FRANCE]").fill("BUILD A PAR\nWAIVE")
    page.get_by_role("button", name="Preview the correction").click()
    page.wait_for_url(f"{base}/games/waiv/phases/W1901A/override")
    diff = page.locator("#order-diff")
    assert diff.get_by_text("BUILD A PAR").count() >= 1
    assert "#WAIVE" not in diff.inner_text() and "#" not in diff.locator("td:nth-child(2)").all_inner_texts()
    context.close()


SMALL_WORLD = ["NORTH_AMERICA", "AFRICA", "CHINA", "ISLAM", "RUSSIA", "SOUTH_AMERICA", "WESTERN_EUROPE", "PACIFIC_EMPIRE"]


@pytest.mark.parametrize("width", [1280, 768])
def test_long_power_names_keep_the_players_table_in_its_columns(chromium: Browser, served: Served,  # noqa: F811
                                                                width: int) -> None:
    """Item 21: Small World's "North America", "Western Europe" broke over two lines, and the players'
    table ran out of its box on a tablet."""
    base, h = served.url, served.harness
    name = f"smallw{width}"
    new_game(h, name, "smallworld", powers=SMALL_WORLD)
    context, page = signed_in(chromium, base, width=width)
    page.goto(f"{base}/games/{name}#players")
    lines = page.evaluate("() => [...document.querySelectorAll('table.seats td:first-child strong')]"
                          ".map(s => [s.innerText, s.getClientRects().length])")
    assert len(lines) == 8 and all(count == 1 for _, count in lines), lines
    box = page.locator("#players .table-wrap").evaluate("e => [e.clientWidth, e.scrollWidth]")
    assert box[1] <= box[0] + 1, box
    _shot(page, f"players-small-world-{width}", full_page=False)
    context.close()
