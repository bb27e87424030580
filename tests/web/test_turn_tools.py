"""Issue 21, items 10, 12, 16 and 17 on the game page: processing asks for a confirmation that lists
the powers defaulted and previews the results (nothing written before it); a rollback and a power's
orders entered by the GM from the dashboard; WAIT flags, draw and concession votes, absences and
missed deadlines; a mail log searched, filtered and paged."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from app.db.models import Game, OrderRow, OutboundMessage, Phase
from app.services.readmodels.mail_log import MAIL_PAGE_SIZE
from app.web import create_app
from tests.server.conftest import player, signon
from tests.web.conftest import GM, GM_PASSWORD, KEEPER, World, csrf_of, played, signed_in


@pytest.fixture
def fresh(sqlite_played_template: Path, tmp_path) -> World:  # type: ignore[no-untyped-def]
    harness = played(sqlite_played_template, tmp_path / "judge.sqlite3")
    return World(harness, create_app(harness.judge, keeper_address=KEEPER))


def _post(client: TestClient, path: str, data: dict[str, str]) -> object:
    return client.post(path, data={**data, "csrf_token": csrf_of(client, "/games/alpha")})


def _game(world: World) -> tuple[str | None, int, int]:
    with world.judge.sessions.begin() as db:
        game = db.scalar(select(Game).where(Game.name == "alpha"))
        assert game is not None
        mails = db.scalar(select(func.count()).select_from(OutboundMessage))
        phases = db.scalar(select(func.count()).select_from(Phase).where(Phase.game_id == game.id))
        return game.phase, int(mails or 0), int(phases or 0)


def test_processing_asks_first_lists_the_defaulted_and_previews_the_results(fresh: World) -> None:
    """Issue 21.10 (and the preview of 21.12)."""
    client = signed_in(fresh, GM, GM_PASSWORD)
    before = _game(fresh)
    game_page = client.get("/games/alpha").text
    assert 'action="/games/alpha/process" class="card">' in game_page and 'method="get"' in game_page
    page = client.get("/games/alpha/process")
    assert page.status_code == 200, page.text
    text = page.text
    assert "Process alpha F1901M?" in text
    defaulted = text[text.index('<ul class="defaulted">'):text.index("</ul>", text.index('<ul class="defaulted">'))]
    for name in ("Austria", "France", "Germany", "Italy", "Turkey"):
        assert f"<li>{name}</li>" in defaulted  # sent no orders for F1901M
    assert "England" not in defaulted and "Russia" not in defaulted
    assert "The results as they would be mailed" in text and "North Sea" in text  # England: F Lon - Nth
    assert 'name="confirm" value="yes"' in text
    assert _game(fresh) == before  # nothing written, nothing mailed
    # a post without the confirmation only leads to the confirmation page
    response = _post(client, "/games/alpha/process", {"phase": "F1901M"})
    assert response.status_code == 303 and response.headers["location"] == "/games/alpha/process"  # type: ignore[attr-defined]
    assert _game(fresh) == before
    response = _post(client, "/games/alpha/process", {"phase": "F1901M", "confirm": "yes"})
    assert response.status_code == 303, response.text  # type: ignore[attr-defined]
    assert _game(fresh)[0] != "F1901M"


def test_roll_back_a_phase_from_the_dashboard(fresh: World) -> None:
    """Issue 21.12: reopen S1901M (the ROLLBACK use case), after a confirmation box."""
    client = signed_in(fresh, GM, GM_PASSWORD)
    assert 'action="/games/alpha/rollback"' in client.get("/games/alpha").text
    refused = _post(client, "/games/alpha/rollback", {"phase": "S1901M"})
    assert refused.status_code == 400 and _game(fresh)[0] == "F1901M"  # type: ignore[attr-defined]
    done = _post(client, "/games/alpha/rollback", {"phase": "S1901M", "restore": "yes", "confirm": "yes"})
    assert done.status_code == 303, done.text  # type: ignore[attr-defined]
    assert "rolled%20back%20to%20S1901M" in done.headers["location"]  # type: ignore[attr-defined]
    with fresh.judge.sessions.begin() as db:
        game = db.scalar(select(Game).where(Game.name == "alpha"))
        assert game is not None and game.phase == "S1901M"
        kept = db.scalars(select(OrderRow.line).where(OrderRow.game_id == game.id, OrderRow.phase == "S1901M",
                                                      OrderRow.power == "FRANCE")).all()
        assert "A PAR - BUR" in kept  # RESTORE kept the orders it was adjudicated with
        told = db.scalars(select(OutboundMessage).where(OutboundMessage.subject.contains("rolled back"))).all()
        assert told


def test_the_gm_enters_a_powers_orders(fresh: World) -> None:
    """Issue 21.12: orders for a power, as BECOME does by mail, checked by the orders use case."""
    client = signed_in(fresh, GM, GM_PASSWORD)
    assert 'action="/games/alpha/orders"' in client.get("/games/alpha").text
    done = _post(client, "/games/alpha/orders", {"power": "AUSTRIA", "orders": "A Vie - Gal\nF Tri - Adr"})
    assert done.status_code == 303, done.text  # type: ignore[attr-defined]
    with fresh.judge.sessions.begin() as db:
        rows = db.scalars(select(OrderRow).where(OrderRow.phase == "F1901M", OrderRow.power == "AUSTRIA")).all()
        assert sorted(r.line for r in rows) == ["A Vie - Gal", "F Tri - Adr"]
        copy = db.scalars(select(OutboundMessage).where(OutboundMessage.subject.contains("entered orders"))).all()
        assert [m.recipients for m in copy] == [[player("AUSTRIA")]]
    page = client.get("/games/alpha").text
    assert "A VIE - GAL" in page.upper()
    # a refused order is shown with the judge's reason; the good one is stored
    receipt = _post(client, "/games/alpha/orders", {"power": "Austria", "orders": "A Bud - Lon\nA Bud - Ser"})
    assert receipt.status_code == 200 and "refused" in receipt.text  # type: ignore[attr-defined]
    assert _post(client, "/games/alpha/orders", {"power": "Narnia", "orders": "A Bud H"}).status_code == 400  # type: ignore[attr-defined]


def test_wait_draw_concession_absence_and_misses_on_the_game_page(fresh: World) -> None:
    """Issue 21.16 (and the missed deadlines and civil disorder of 21.15)."""
    h = fresh.harness
    start = (fresh.judge.now() + timedelta(days=3)).strftime("%Y-%m-%d")
    end = (fresh.judge.now() + timedelta(days=6)).strftime("%Y-%m-%d")
    assert h.send(player("ITALY"), signon("ITALY") + "SET WAIT").status == "done"
    assert h.send(player("FRANCE"), signon("FRANCE") + "SET DRAW France Germany").status == "done"
    assert h.send(player("TURKEY"), signon("TURKEY") + "SET CONCEDE Russia").status == "done"
    assert h.send(player("GERMANY"), signon("GERMANY") + f"SET ABSENCE {start} TO {end}").status == "done"
    client = signed_in(fresh, GM, GM_PASSWORD)
    page = client.get("/games/alpha").text
    assert '<section id="players">' in page
    players = page[page.index('<section id="players">'):page.index("</section>", page.index('<section id="players">'))]
    assert "Draw votes: <strong>1 of 7</strong>" in players
    rows = {row.split("</strong>")[0].split("<strong>")[-1]: row for row in players.split("<tr>")[2:]}
    assert "waiting" in rows["Italy"] and "waiting" not in rows["France"]
    assert "France, Germany" in rows["France"]
    assert "Russia" in rows["Turkey"]
    assert start[:4] in rows["Germany"] and "Absent" in rows["Germany"]
    assert "—" in rows["Austria"]


def test_the_mail_log_is_searched_filtered_and_paged(fresh: World) -> None:
    """Issue 21.17: search (subject or address), filter by power, way and status, page through."""
    client = signed_in(fresh, GM, GM_PASSWORD)
    for _ in range(3):  # enough mail for several pages
        for power in ("AUSTRIA", "TURKEY"):
            fresh.harness.send(player(power), signon(power) + "SET NOWAIT")
    page = client.get("/games/alpha").text
    log = page[page.index('<section id="mail">'):]
    assert log.count("<tr>") - 1 == MAIL_PAGE_SIZE  # one page (the header row aside)
    assert "page 1 of" in log and 'rel="next"' in log
    second = client.get("/games/alpha?mail_page=2").text
    assert 'rel="prev"' in second and "Page 2 of" in second
    only_in = client.get("/games/alpha?mail_dir=in").text
    rows = only_in[only_in.index('<section id="mail">'):].split("<tr>")[2:]
    assert rows and all('data-label="Way">in' in r for r in rows)
    turkey = client.get("/games/alpha?mail_power=TURKEY&mail_dir=out").text
    rows = turkey[turkey.index('<section id="mail">'):].split("<tr>")[2:]
    assert rows and all(player("TURKEY") in r for r in rows)
    assert all(player("AUSTRIA") not in r for r in rows)
    searched = client.get("/games/alpha", params={"mail_q": "orders <script>"}).text
    rows = searched[searched.index('<section id="mail">'):].split("<tr>")[2:]
    # England's mail and the judge's answer to it ("Re: <its subject>", issue 30.8), both escaped
    assert len(rows) == 2 and all("&lt;script&gt;" in row and "<script>" not in row for row in rows)
    assert sum("Re: " in row for row in rows) == 1
    none = client.get("/games/alpha?mail_status=quarantined").text
    assert "0 mails match" in none


def test_late_powers_vacancies_reliability_and_takeover_queue(fresh: World) -> None:
    """Issue 21.15: missed deadlines and reliability per player, civil disorder, vacant powers, the
    takeover requests waiting for the GM, approved with one click."""
    from app.db import queries
    from app.scheduler import tick

    h = fresh.harness
    h.send(GM, f"SIGNON master@alpha {GM_PASSWORD}\nSET NMR cd\nSET GRACE 0")
    with fresh.judge.sessions.begin() as db:
        game = queries.game_by_name(db, "alpha")
        assert game is not None
        game.deadline = h.clock.now + timedelta(hours=1)
        phase = queries.open_phase(db, game.id)
        assert phase is not None
        phase.deadline = game.deadline
    h.clock.advance(hours=2)
    assert "alpha" in tick(fresh.judge).processed  # F1901M at its deadline: five powers missed it
    assert h.send(GM, f"SIGNON master@alpha {GM_PASSWORD}\nEJECT Italy").status == "done"
    newcomer = "newcomer@example.com"
    assert h.send(newcomer, "TAKEOVER italy@alpha newcomerpw").status == "done"
    client = signed_in(fresh, GM, GM_PASSWORD)
    page = client.get("/games/alpha").text
    players = page[page.index('<section id="players">'):page.index("</section>", page.index('<section id="players">'))]
    rows = {row.split("</strong>")[0].split("<strong>")[-1]: row for row in players.split("<tr>")[2:]}
    assert "civil disorder" in rows["Austria"] and 'data-label="Missed deadlines">1 (1 in a row)<' in rows["Austria"]
    assert "0% <span" in rows["Austria"] and "of 1 deadline<" in rows["Austria"]
    assert "100%" in rows["England"] and "civil disorder" not in rows["England"]
    assert "vacant: open for takeover" in rows["Italy"] and "vacant" not in rows["France"]
    assert f"{newcomer} asks to take over <strong>Italy</strong>" in players
    assert f'name="address" value="{newcomer}"' in players
    approved = _post(client, "/games/alpha/replace", {"power": "ITALY", "address": newcomer})
    assert approved.status_code == 303, approved.text  # type: ignore[attr-defined]
    with fresh.judge.sessions.begin() as db:
        game = queries.game_by_name(db, "alpha")
        assert game is not None
        seat = queries.seat_for_power(db, game.id, "ITALY")
        assert seat is not None and seat.email == newcomer
    assert h.send(newcomer, "SIGNON Ialpha newcomerpw\nSIGNOFF").status == "done"  # the password they chose
    after = client.get("/games/alpha").text
    assert "asks to take over" not in after and "No request waiting." in after


def test_the_json_api_of_the_turn_tools(fresh: World) -> None:
    """The same read models over JSON: the processing preview, the players, the mail log."""
    client = signed_in(fresh, GM, GM_PASSWORD)
    before = _game(fresh)
    plan = client.get("/api/games/alpha/process/preview").json()
    assert plan["phase"] == "F1901M" and "Austria" in plan["defaulted"] and "England" not in plan["defaulted"]
    assert "North Sea" in plan["results_text"] and _game(fresh) == before
    fresh.harness.send(player("ITALY"), signon("ITALY") + "SET WAIT")
    seats = client.get("/api/games/alpha/players").json()
    assert [s["power"] for s in seats["seats"] if s["wait"]] == ["Italy"]
    log = client.get("/api/games/alpha/mail", params={"direction": "in", "power": "ITALY"}).json()
    assert log["total"] >= 2 and {e["direction"] for e in log["entries"]} == {"in"}
    assert {e["party"] for e in log["entries"]} == {player("ITALY")}
    assert client.get("/api/games/beta/mail").status_code == 403  # another GM's game


def test_orders_the_gm_enters_bring_early_processing_as_mail_does(fresh: World) -> None:
    """The unit of work handles ``OrdersChanged`` at the request's commit: when the GM's entries
    leave every power ready, the deadline moves to the end of the quiet period (SET EARLY), as it
    does when the last orders come by mail."""
    client = signed_in(fresh, GM, GM_PASSWORD)
    with fresh.judge.sessions.begin() as db:
        game = db.scalar(select(Game).where(Game.name == "alpha"))
        assert game is not None
        phase = db.scalar(select(Phase).where(Phase.game_id == game.id, Phase.status == "open"))
        assert phase is not None and game.deadline == phase.deadline
        units, deadline = phase.state_before["units"], phase.deadline
    powers = sorted(units)
    for power in powers:
        done = _post(client, "/games/alpha/orders", {"power": power, "orders": "\n".join(f"{u} H" for u in units[power])})
        assert done.status_code == 303, done.text  # type: ignore[attr-defined]
        with fresh.judge.sessions.begin() as db:
            now = db.scalar(select(Game.deadline).where(Game.name == "alpha"))
        if power != powers[-1]:
            assert now == deadline  # someone still has to order
    assert now is not None and deadline is not None and now < deadline
