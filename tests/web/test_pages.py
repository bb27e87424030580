"""What the pages and the API show: the GM's overview and game, the phase outcomes, the public
page (published things only), and player text escaped everywhere."""

from __future__ import annotations

from fastapi.testclient import TestClient
from markupsafe import escape

from tests.web.conftest import EVIL, GM, GM_PASSWORD, World, signed_in

ESCAPED = str(escape(EVIL))


def _gm(world: World) -> TestClient:
    return signed_in(world, GM, GM_PASSWORD)


def test_overview_shows_each_game_with_phase_deadline_and_who_has_not_ordered(world: World) -> None:
    page = _gm(world).get("/")
    assert page.status_code == 200
    text = page.text
    assert 'href="/games/alpha"' in text and "standard" in text and "F1901M" in text
    assert "Tue Mar 03 2026 12:00 UTC" in text  # the next deadline
    # England and Russia ordered one unit each (incomplete); France and the others none this phase
    row = text.split('href="/games/alpha"', 1)[1].split("</tr>", 1)[0]
    assert "France" in row and "Austria" in row
    assert "incomplete: England, Russia" in row
    assert "beta" not in text  # another GM's game


def test_overview_flags_late_absent_civil_disorder_and_quarantine(world: World) -> None:
    from sqlalchemy import select

    from app.db.models import Game, InboundMessage, Player

    client = _gm(world)
    with world.judge.sessions.begin() as db:
        game = db.scalar(select(Game).where(Game.name == "alpha"))
        assert game is not None
        seats = {s.power: s for s in db.scalars(select(Player).where(Player.game_id == game.id))}
        seats["ITALY"].status, seats["TURKEY"].status = "absent", "cd"
        mail = db.scalar(select(InboundMessage).where(InboundMessage.game_id == game.id))
        assert mail is not None
        mail.status = "quarantined"
    world.harness.clock.advance(days=3)  # past the F1901M deadline
    try:
        api = {g["name"]: g for g in client.get("/api/games").json()}["alpha"]
        codes = {a["code"] for a in api["attention"]}
        assert codes == {"late", "absent", "civil_disorder", "quarantined_mail"}, api["attention"]
        page = client.get("/").text
        assert "absent: Italy" in page and "civil disorder: Turkey" in page and "1 quarantined mail" in page
    finally:
        world.harness.clock.advance(days=-3)
        with world.judge.sessions.begin() as db:
            for seat in db.scalars(select(Player).where(Player.power.in_(["ITALY", "TURKEY"]))):
                seat.status = "active"
            db.get(InboundMessage, mail.id).status = "done"  # type: ignore[union-attr]


def test_game_page_shows_orders_with_times_press_mail_log_and_history(world: World) -> None:
    page = _gm(world).get("/games/alpha")
    assert page.status_code == 200
    text = page.text
    assert "F LON - NTH" in text and "F Lon - Nth" in text  # England's current order, as parsed and as written
    assert "Sun Mar 01 2026 12:00 UTC" in text  # its submission time
    assert "Secret plan for France only" in text  # private press: the GM sees it
    assert "S1901M" in text and "Movement results for Spring of 1901" in text  # history with results
    assert "/games/alpha/mail/in/" in text and "/games/alpha/mail/out/" in text  # the mail log, both ways
    assert "<svg" in text  # the centre chart (start and 1901)


def test_raw_mail_is_plain_text(world: World) -> None:
    client = _gm(world)
    detail = client.get("/api/games/alpha").json()
    first = detail["mail"][-1]
    raw = client.get(f"/games/alpha/mail/{first['direction']}/{first['id']}")
    assert raw.status_code == 200 and raw.headers["content-type"].startswith("text/plain")
    assert raw.headers["x-content-type-options"] == "nosniff"
    assert "Subject:" in raw.text
    assert client.get("/games/alpha/mail/in/999999").status_code == 404


def test_api_phase_has_every_order_with_result_and_reason(world: World) -> None:
    phase = _gm(world).get("/api/games/alpha/phases/s1901m").json()
    assert phase["code"] == "S1901M" and phase["status"] == "processed"
    bur = {o["order"]: o for o in phase["orders"]}
    assert bur["A PAR - BUR"]["result"] == "fails" and bur["A PAR - BUR"]["reason"] == "bounce"
    assert bur["A MAR - SPA"]["result"] == "succeeds"
    assert all("outcome" in o for o in phase["orders"])  # the structured outcome, null until the engine stores one
    assert "A SPA" in phase["units_after"]["FRANCE"]


def test_openapi_documents_the_api(world: World) -> None:
    schema = world.client().get("/openapi.json").json()
    assert {"/api/games", "/api/games/{name}", "/api/games/{name}/phases/{code}"} <= set(schema["paths"])
    assert "/signin" not in schema["paths"]


def test_public_page_shows_only_what_was_published(world: World) -> None:
    page = world.client().get("/public/games/alpha")
    assert page.status_code == 200
    text = page.text
    assert "Movement results for Spring of 1901" in text  # published results
    assert "Public " in text  # broadcast press
    assert "Secret plan" not in text and "Private " not in text  # private press
    assert "F LON - NTH" not in text and "F Lon - Nth" not in text and "F SEV - BLA" not in text  # current orders
    assert "A SPA" in text  # the published position


def test_player_text_is_escaped_on_every_page(world: World) -> None:
    gm = _gm(world)
    pages = {
        "/": gm, "/games/alpha": gm, "/games/alpha/phases/S1901M": gm,
        "/public": world.client(), "/public/games/alpha": world.client(),
    }
    for path, client in pages.items():
        text = client.get(path).text
        assert "<script>alert" not in text and "<b>bold" not in text, path
    game = gm.get("/games/alpha").text
    assert game.count(ESCAPED) >= 3, "press (public and private) and the mail subject, escaped"
    assert ESCAPED in world.client().get("/public/games/alpha").text
    api = gm.get("/api/games/alpha")
    assert api.headers["content-type"] == "application/json"
    assert any(EVIL in p["body"] for p in api.json()["press"])  # JSON carries the text as data


def test_pages_send_a_content_security_policy(world: World) -> None:
    response = world.client().get("/public/games/alpha")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    assert response.headers["x-frame-options"] == "DENY"


def test_unknown_game_and_phase(world: World) -> None:
    gm = _gm(world)
    assert gm.get("/games/nosuch").status_code == 303  # a GM cannot probe for others' games
    assert gm.get("/api/games/nosuch").status_code == 403
    assert gm.get("/api/games/alpha/phases/F1905M").status_code == 404
    assert world.client().get("/public/games/nosuch").status_code == 404


def test_order_text_is_escaped_too(world: World) -> None:
    """Mail cannot store an order line with markup (the parser refuses it), so one is written
    straight into the table, as a later GM edit might: the page still shows it as text."""
    from sqlalchemy import select

    from app.db.models import OrderRow

    with world.judge.sessions.begin() as db:
        row = db.scalar(select(OrderRow).where(OrderRow.power == "ENGLAND", OrderRow.phase == "F1901M"))
        assert row is not None
        original = row.line
        row.line = f"F Lon - Nth {EVIL}"
    try:
        for path in ("/games/alpha", "/public/games/alpha"):
            text = _gm(world).get(path).text
            assert "<script>alert" not in text, path
        assert f"F Lon - Nth {ESCAPED}" in _gm(world).get("/games/alpha").text
    finally:
        with world.judge.sessions.begin() as db:
            row = db.scalar(select(OrderRow).where(OrderRow.power == "ENGLAND", OrderRow.phase == "F1901M"))
            assert row is not None
            row.line = original


def test_an_error_page_below_a_game_links_back_to_the_game(world: World) -> None:
    """Issue 21, item 11: the way back from an error inside a game is the game, not the game list."""
    page = _gm(world).get("/games/alpha/phases/F1905M")
    assert page.status_code == 404
    assert '<a href="/games/alpha">Back to alpha</a>' in page.text
    public = world.client().get("/public/games/alpha/phases/F1905M/map.svg")
    assert public.status_code == 404 and '<a href="/public/games/alpha">Back to alpha</a>' in public.text
    assert "Back to" not in world.client().get("/public/games/nosuch").text
