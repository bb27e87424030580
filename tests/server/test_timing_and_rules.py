"""Deadline days (njudge's DAYS) and a game's own rule options (SET RULE)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from app import jsonapi
from app.db import queries
from app.services.ruleset.options import GameOptions, parse_days
from app.services.ruleset.timing import next_deadline
from tests.server.conftest import Harness

SATURDAY_NOON = datetime(2026, 11, 28, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("days", "hours", "expected_weekday"),
    [
        (None, 24, 6),  # Sunday: no restriction
        ("-MTWTF-", 24, 0),  # weekdays only: Sunday becomes Monday
        ("-MTWTF-", 0, 0),  # Saturday becomes Monday
        ("S-----S", 48, 5),  # weekends only: Monday becomes the next Saturday
    ],
)
def test_deadlines_fall_on_allowed_days(days: str | None, hours: int, expected_weekday: int) -> None:
    settings = {"timing": {"movement": {"next_hours": hours, "days": days}}}
    when = next_deadline(GameOptions.decode(settings), "S1901M", SATURDAY_NOON)
    assert when.weekday() == expected_weekday
    assert when.hour == 12


def test_days_patterns_are_checked() -> None:
    assert parse_days("-mtwtf-") == "-MTWTF-"
    assert parse_days("all") is None
    for bad in ("MTWTF", "-------", "XMTWTF-"):
        with pytest.raises(ValueError):
            parse_days(bad)


def test_set_move_days_by_mail(started: Harness) -> None:
    started.send("gm@example.com", "SIGNON master@alpha masterpw\nSET MOVE DAYS -MTWTF-")
    assert "days = -MTWTF-" in started.last_reply("gm@example.com")
    started.send("gm@example.com", "SIGNON master@alpha masterpw\nSET MOVE DAYS MTWTF")
    assert "seven letters" in started.last_reply("gm@example.com")


def test_set_rule_by_mail_reaches_the_adjudicator(started: Harness) -> None:
    started.send("gm@example.com", "SIGNON master@alpha masterpw\nSET RULE removal_default least_impact")
    assert "Rule removal_default = least_impact" in started.last_reply("gm@example.com")
    started.send("gm@example.com", "SIGNON master@alpha masterpw\nSET RULE victory_groups on")
    assert "rule not changed" in started.last_reply("gm@example.com")  # standard has no groups
    started.send("gm@example.com", "SIGNON master@alpha masterpw\nSET RULE no_such_option 1")
    refused = started.last_reply("gm@example.com")
    assert "unknown rule options: no_such_option" in refused and "options: edition," in refused
    with started.judge.sessions.begin() as db:
        game = queries.game_by_name(db, "alpha")
        assert game is not None and game.settings["rules"] == {"removal_default": "least_impact"}


def _small_world_solo(groups: bool | None) -> dict:
    """Western Europe reaches 24 centres, none of them in the Americas."""
    state = jsonapi.initial_state("smallworld8")
    from app.variants import load_variant

    provinces = load_variant("smallworld8").map.provinces
    europe_asia = [p for p, prov in provinces.items() if prov.centre and prov.group != "americas"][:24]
    request = {
        **state,
        "phase": "F03M",
        "units": {"WESTERN_EUROPE": [f"A {p}" for p in europe_asia if provinces[p].terrain.value != "sea"][:3]},
        "centers": {"WESTERN_EUROPE": europe_asia},
        "orders": {},
    }
    if groups is not None:
        request["rules"] = {"victory_groups": groups}
    return jsonapi.adjudicate_request(request)


def test_three_group_victory_is_switchable_per_game() -> None:
    assert _small_world_solo(None)["winner"] == "WESTERN_EUROPE"
    assert _small_world_solo(False)["winner"] == "WESTERN_EUROPE"
    assert _small_world_solo(True)["winner"] is None
