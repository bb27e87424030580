"""Zeus 5's secret build site stays secret on the public page until its reveal phase is published."""

from __future__ import annotations

from pathlib import Path

from app.web import create_app
from tests.web.conftest import KEEPER, World, gm_account, make_harness, signed_in

ZEUS_POWERS = ["BRITAIN", "CHINA", "GERMANY", "ITALY", "JAPAN", "USA", "USSR"]


def test_public_page_hides_the_usa_build_site_until_spring_1940(tmp_path: Path) -> None:
    h = make_harness(f"sqlite:///{tmp_path / 'judge.sqlite3'}")
    assert h.send("gm@example.com", "CREATE zeta masterpw zeus5\nSET REMINDER 0\nSIGNOFF").status == "done"
    for power in ZEUS_POWERS:
        assert h.send(f"{power.lower()}@example.com", f"JOIN zeta pw{power.lower()} {power}").status == "done"
    h.send("usa@example.com", "SIGNON Azeta pwusa\nBuild F California\nBuild A Washington\nBuild F Hawaii")
    h.send("gm@example.com", "SIGNON master@zeta masterpw\nPROCESS")
    world = World(h, create_app(h.judge, keeper_address=KEEPER))
    public = world.client().get("/public/games/zeta").text
    assert "F NYK/CAL" in public and "F CAL" not in public
    for path in ("/public/games/zeta/map.svg", "/public/games/zeta/phases/W1939A/map.svg"):  # the maps too
        svg = world.client().get(path).text
        assert "(F NYK/CAL)" in svg and "(F CAL)" not in svg, path
    gm_account(h, "gm@example.com", "masterpw", "zeta")
    gm = signed_in(world, "gm@example.com", "masterpw")
    usa = next(p for p in gm.get("/api/games/zeta").json()["powers"] if p["power"] == "USA")
    assert "F CAL" in usa["units"]  # the GM sees where it really is
    h.send("gm@example.com", "SIGNON master@zeta masterpw\nPROCESS")  # S1940M: the site is revealed
    public = world.client().get("/public/games/zeta").text
    assert "F CAL" in public and "F NYK/CAL" not in public
    svg = world.client().get("/public/games/zeta/map.svg").text
    assert "(F CAL)" in svg and "(F NYK/CAL)" not in svg
