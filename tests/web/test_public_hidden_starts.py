"""Issue 22.15: Small World's secret starts (rules 6.1-6.2) stay undeclared on the public page
until the Spring 01 results are published, as the map draws them ("?")."""

from __future__ import annotations

from pathlib import Path

from app.web import create_app
from tests.web.conftest import KEEPER, World, make_harness

SEVEN = ["NORTH_AMERICA", "AFRICA", "CHINA", "ISLAM", "RUSSIA", "SOUTH_AMERICA", "WESTERN_EUROPE"]


def test_public_page_shows_the_secret_starts_undeclared_until_spring_01(tmp_path: Path) -> None:
    h = make_harness(f"sqlite:///{tmp_path / 'judge.sqlite3'}")
    assert h.send("gm@example.com", "CREATE swpub masterpw smallworld7\nSET REMINDER 0\nSIGNOFF").status == "done"
    for number, power in enumerate(SEVEN):
        assert h.send(f"p{number}@example.com", f"JOIN swpub pw{number} {power}").status == "done"
    world = World(h, create_app(h.judge, keeper_address=KEEPER))
    public = world.client().get("/public/games/swpub").text
    assert "A PEK or F PEK (undeclared)" in public and "F FRA/NC or F FRA/SC (undeclared)" in public, public
    h.send("p2@example.com", "SIGNON Cswpub pw2\nF Peking - Yellow Sea")
    h.send("gm@example.com", "SIGNON master@swpub masterpw\nPROCESS")
    public = world.client().get("/public/games/swpub").text
    assert "undeclared" not in public and "F YEL" in public, public
