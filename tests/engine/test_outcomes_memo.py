"""What the engine remembers per map (parsed orders, units, legal orders) never leaks
from one position into another: the same order text on another board gets its own answer."""

from __future__ import annotations

from typing import Any

from app import jsonapi


def _check(units: dict[str, list[str]], power: str, line: str) -> dict[str, Any]:
    [check] = jsonapi.check_orders({"variant": "standard", "phase": "S1901M", "units": units}, power, [line])
    return check


def test_a_unit_remembered_for_one_power_is_not_another_powers() -> None:
    assert _check({"FRANCE": ["A PAR"]}, "FRANCE", "A PAR H")["ok"]
    refused = _check({"GERMANY": ["A PAR"]}, "FRANCE", "A PAR H")
    assert not refused["ok"] and refused["error"] == "the unit at Paris is not yours"
    assert _check({"FRANCE": ["A PAR"]}, "FRANCE", "A PAR H")["ok"]


def test_a_move_via_convoy_is_read_again_when_fleets_stand() -> None:
    by_land = _check({"FRANCE": ["A BRE"]}, "FRANCE", "A BRE - PIC VIA")
    assert by_land["ok"] and by_land["order"] == "A BRE - PIC"  # no fleet to take: by land
    by_sea = _check({"FRANCE": ["A BRE", "F ENG"]}, "FRANCE", "A BRE - PIC VIA")
    assert by_sea["ok"] and by_sea["order"] == "A BRE - PIC VIA"


def test_supports_follow_the_supported_unit() -> None:
    assert _check({"FRANCE": ["A MAR", "A PAR"]}, "FRANCE", "A MAR S A PAR - BUR")["ok"]
    refused = _check({"FRANCE": ["A MAR", "F PIC"]}, "FRANCE", "A MAR S PIC - BUR")
    assert not refused["ok"]
    assert _check({"FRANCE": ["A MAR"], "GERMANY": ["A PAR"]}, "FRANCE", "A MAR S A PAR - BUR")["ok"]
