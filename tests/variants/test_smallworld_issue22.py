"""Issue 22.15 in the engine: a failed Fast Ferry landing is reported as the army staying
aboard (Davis rule 2), and an A/F order through a canal closed to A/Fs is refused with the
rule's reason whichever line of the mail it is (rule 10.1)."""

from __future__ import annotations

from app import jsonapi
from tests.variants._play import adjudicate, entry

V = "smallworld8"


def test_a_failed_fast_ferry_landing_of_one_power_is_an_army_aboard() -> None:
    r = adjudicate(V, "S02M", {"WESTERN_EUROPE": ["A ENG", "F NTH"], "RUSSIA": ["A SCA"]},
                   {"WESTERN_EUROPE": ["F NTH C A ENG - SCA", "A ENG - SCA"], "RUSSIA": ["A SCA H"]})
    army = entry(r, "A ENG - SCA")
    assert (army["result"], army["reason"]) == ("fails", "bounce")
    assert army["outcome"]["kind"] == "landing_failed" and army["outcome"]["stage"] == "ferry"
    assert army["outcome"]["via"] == "NTH" and army["outcome"]["cause"]["kind"] == "bounced"
    assert "the army stays aboard F NTH as an A/F" in army["explanation"]
    assert r["units"]["WESTERN_EUROPE"] == ["A/F NTH"]


def test_a_foreign_ferry_brings_the_army_back_and_says_only_bounce() -> None:
    r = adjudicate(V, "S02M", {"WESTERN_EUROPE": ["A ENG"], "RUSSIA": ["A SCA", "F NTH"]},
                   {"WESTERN_EUROPE": ["A ENG - SCA"], "RUSSIA": ["A SCA H", "F NTH C A ENG - SCA"]})
    army = entry(r, "A ENG - SCA")
    assert army["outcome"]["kind"] == "bounced" and "aboard" not in army["explanation"]
    assert r["units"]["WESTERN_EUROPE"] == ["A ENG"]


def test_rule_10_1_refuses_every_line_that_would_sail_the_new_af_through_the_canal() -> None:
    state = {"variant": V, "phase": "S02M", "units": {"NORTH_AMERICA": ["A MEX", "F CAR"]}}
    lines = ["A Mexico boards F Caribbean", "A/F Caribbean - Galapagos", "F Caribbean - Galapagos"]
    board, af, fleet = jsonapi.check_orders(state, "NORTH_AMERICA", lines)
    assert board["ok"]
    for refused in (af, fleet):
        assert not refused["ok"] and refused["unit"] == "F CAR", refused
        assert "Panama Canal is closed to A/Fs" in refused["error"] and "(rule 10.1)" in refused["error"]
    # a line that stays on this side of the canal is still accepted after the refused one
    *_, ok = jsonapi.check_orders(state, "NORTH_AMERICA", [*lines, "A/F Caribbean - Gulf of Mexico"])
    assert ok["ok"] and ok["order"] == "A/F CAR - GOM", ok


def test_the_suez_canal_refusal_cites_the_rule_too() -> None:
    state = {"variant": V, "phase": "S02M", "units": {"ISLAM": ["A/F EMS"]}}
    [checked] = jsonapi.check_orders(state, "ISLAM", ["A/F Eastern Mediterranean - Red Sea"])
    assert not checked["ok"] and "Suez Canal is closed to A/Fs" in checked["error"], checked


def test_an_earlier_order_of_the_army_that_boards_is_left_as_it_was() -> None:
    state = {"variant": V, "phase": "S02M", "units": {"NORTH_AMERICA": ["A MEX", "F CAR"]}}
    held, board = jsonapi.check_orders(state, "NORTH_AMERICA", ["A Mexico H", "A Mexico boards F Caribbean"])
    assert held["ok"] and held["order"] == "A MEX H" and board["ok"], (held, board)
