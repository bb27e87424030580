"""Games of the world variants through the server: their own start and hidden builds."""

from __future__ import annotations

from app import jsonapi
from app.services.results.report import publishable
from app.services.ruleset.stored import stored_result, stored_state
from tests.server.conftest import Harness

ZEUS_POWERS = ["BRITAIN", "CHINA", "GERMANY", "ITALY", "JAPAN", "USA", "USSR"]


def _zeus_game(harness: Harness) -> None:
    harness.send("gm@example.com", "CREATE zeta masterpw zeus5\nSET REMINDER 0\nSIGNOFF")
    for power in ZEUS_POWERS:
        out = harness.send(f"{power.lower()}@example.com", f"JOIN zeta pw{power.lower()} {power}")
        assert out.status == "done", out


def test_publishable_hides_a_secret_build_site() -> None:
    state = jsonapi.initial_state("zeus5")
    result = jsonapi.adjudicate_request({**state, "orders": {"USA": ["Build F California"]}})
    public, after = publishable(stored_result(result), stored_state(jsonapi.next_state(result)))
    assert "F CAL" in result["units"]["USA"]
    assert after.units["USA"] == ("F NYK/CAL",)
    assert public.units["USA"] == ("F NYK/CAL",)
    assert all("CAL" not in (o.normalized or "").replace("NYK/CAL", "") for o in public.orders)


def test_zeus_game_starts_with_winter_1939_builds_and_keeps_the_usa_site_secret(harness: Harness) -> None:
    _zeus_game(harness)
    reply = harness.send("usa@example.com", "SIGNON Azeta pwusa\nBuild F California\nBuild A Washington\nBuild F Hawaii")
    assert reply.status == "done"
    text = harness.last_reply("usa@example.com")
    assert "BUILD F CAL" in text  # the USA itself sees where it built
    harness.send("gm@example.com", "SIGNON master@zeta masterpw\nPROCESS")
    results = harness.outbox(to="britain@example.com", kind="results")
    assert results, "the Winter 1939 results reach every player"
    body = results[-1].body_text
    assert "Winter" in body and "1939" in body
    assert "New York or California" in body, body


SMALL_WORLD_7 = ["NORTH_AMERICA", "AFRICA", "CHINA", "ISLAM", "RUSSIA", "SOUTH_AMERICA", "WESTERN_EUROPE"]


def test_small_world_game_runs_on_its_two_digit_calendar(harness: Harness) -> None:
    harness.send("gm@example.com", "CREATE swgame masterpw smallworld7\nSET REMINDER 0\nSIGNOFF")
    for number, power in enumerate(SMALL_WORLD_7):
        out = harness.send(f"p{number}@example.com", f"JOIN swgame pw{number} {power}")
        assert out.status == "done", out
    harness.send("p2@example.com", "SIGNON Cswgame pw2\nF Peking - Yellow Sea")
    assert "F PEK - YEL" in harness.last_reply("p2@example.com")  # China reveals a fleet in Peking
    harness.send("p3@example.com", "SIGNON Iswgame pw3\nA Persia - India")
    assert "nobody may attack India" in harness.last_reply("p3@example.com")
    harness.send("gm@example.com", "SIGNON master@swgame masterpw\nPROCESS")
    body = harness.outbox(to="p0@example.com", kind="results")[-1].body_text
    assert "Spring of 01" in body or "Spring 01" in body, body
    assert "Yellow Sea" in body
