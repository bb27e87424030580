"""Small World II-R rule 11.2 (issue 8.3): Fall retreats are ordered with the Winter
adjustments, one deadline: retreats first, then centre ownership, then adjustments."""

from __future__ import annotations

import pytest

from app import jsonapi
from app.engine.api import RuleOptionError
from app.engine.rules import rule_options
from tests.variants._play import adjudicate, entry, outcome

SW = "smallworld"

# Fall 02: Islam dislodges Africa's army in the Sahara (Right-Hand Rule: Sudan).
UNITS = {"AFRICA": ["A SAH", "A ETH", "A NIG"], "ISLAM": ["A CON", "A ALG"]}
CENTRES = {"AFRICA": ["SAF", "ETH", "NIG"], "ISLAM": ["ARA", "EGY", "PER", "CON"]}
ATTACK = {"ISLAM": ["A CON - SAH", "A ALG S A CON - SAH"]}


def fall(variant: str = SW, units: dict | None = None, centres: dict | None = None) -> dict:
    result = adjudicate(variant, "F02M", units or UNITS, ATTACK, centers=centres or CENTRES)
    assert outcome(result, "A CON - SAH") == "succeeds"
    return result


def winter(result: dict, orders: dict[str, list[str]], variant: str = SW) -> dict:
    state = jsonapi.next_state(result, variant)
    answer = jsonapi.adjudicate_request({**state, "orders": orders})
    assert "error" not in answer, answer
    return answer


@pytest.mark.parametrize("variant", [SW, "smallworld7"])
def test_the_phase_after_a_fall_move_with_retreats_is_the_winter_phase(variant):
    result = fall(variant)
    assert result["next_phase"] == "W02A"
    state = jsonapi.next_state(result, variant)
    assert "A SAH" in state["dislodged"]["AFRICA"]  # carried, waiting to retreat


def test_standard_keeps_its_fall_retreat_phase():
    units = {"FRANCE": ["A PAR"], "GERMANY": ["A BUR", "A PIC"]}
    r = adjudicate("standard", "F1901M", units, {"GERMANY": ["A BUR - PAR", "A PIC S A BUR - PAR"]})
    assert r["next_phase"] == "F1901R"


def test_retreat_and_adjustment_orders_are_accepted_in_one_set():
    state = jsonapi.next_state(fall(), SW)
    checks = jsonapi.check_orders(state, "AFRICA", ["A SAH - WAF"])
    assert checks[0]["error"] is None, checks
    checks = jsonapi.check_orders(state, "ISLAM", ["BUILD A ARA", "A CON - EGY"])
    assert checks[0]["error"] is None, checks
    assert checks[1]["error"] is not None  # not a retreat: Islam has no unit waiting to retreat
    todo = jsonapi.orderable(state, "AFRICA")
    assert todo["kind"] == "adjustment"


def test_retreats_resolve_first_then_adjustments():
    r = winter(fall(), {"AFRICA": ["A SAH - WAF"], "ISLAM": ["BUILD A ARA"]})
    assert outcome(r, "A SAH - WAF") == "succeeds"
    assert outcome(r, "BUILD A ARA") == "succeeds"
    assert sorted(r["units"]["AFRICA"]) == ["A ETH", "A NIG", "A WAF"]
    assert "A ARA" in r["units"]["ISLAM"]
    assert r["next_phase"] == "S03M"


def test_unordered_retreat_takes_the_right_hand_rule():
    r = winter(fall(), {})
    assert "A SUD" in r["units"]["AFRICA"]


def test_a_retreat_into_a_centre_takes_it_before_the_builds_are_counted():
    """Africa's army retreats into the neutral Congo... held by Islam: no. Into Kenya,
    a neutral centre: Africa gains it, so its build counts (4 centres, 4 units)."""
    units = {"AFRICA": ["A SAH", "A ETH", "A NIG"], "ISLAM": ["A CON", "A ALG"]}
    centres = {"AFRICA": ["SAF", "ETH", "NIG", "KEN"], "ISLAM": ["ARA", "EGY", "PER"]}
    r = winter(fall(units=units, centres=centres), {"AFRICA": ["A SAH - WAF", "BUILD A SAF"]})
    assert outcome(r, "BUILD A SAF") == "succeeds", entry(r, "BUILD A SAF")


def test_a_build_beyond_the_resolved_position_is_void_and_said_so():
    """Africa: 3 centres, 3 units (one waiting to retreat): a build is one too many."""
    r = winter(fall(), {"AFRICA": ["A SAH - WAF", "BUILD A SAF"]})
    failed = entry(r, "BUILD A SAF")
    assert failed["result"] != "succeeds"
    assert failed["explanation"]
    assert "A SAF" not in r["units"]["AFRICA"]


def test_missing_removals_fall_to_least_impact_and_the_fall_retreat_goes_first():
    """Africa has 2 centres and 3 units and sends no orders. The army that was dislodged
    this Fall (it retreats to Sudan by the Right-Hand Rule) is removed (rule 11.3 with
    11.2), not the army in Ethiopia that least impact alone would pick."""
    units = {"AFRICA": ["A SAH", "A ETH", "A LIB"], "ISLAM": ["A CON", "A ALG"]}
    centres = {"AFRICA": ["SAF", "ETH"], "ISLAM": ["ARA", "EGY", "PER", "CON", "NIG"]}
    r = winter(fall(units=units, centres=centres), {})
    assert sorted(r["units"]["AFRICA"]) == ["A ETH", "A LIB"]
    removal = next(o for o in r["orders"] if o["order"].startswith("REMOVE"))
    assert removal["default"] is True


def test_the_option_is_named_and_checked():
    assert rule_options({"retreats_with_adjustments": True}).retreats_with_adjustments is True
    with pytest.raises(RuleOptionError):
        rule_options({"retreats_with_adjustments": "sometimes"})
