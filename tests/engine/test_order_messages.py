"""Issue 22 item 7: what an order the judge refuses is told, in the player's terms."""

from __future__ import annotations

from typing import Any

from app import jsonapi


def _error(state: dict[str, Any], power: str, line: str) -> str:
    (check,) = jsonapi.check_orders(state, power, [line])
    assert not check["ok"], check
    return str(check["error"])


def test_a_conditional_order_is_said_to_be_unsupported() -> None:
    state = {**jsonapi.initial_state("standard"), "phase": "S1901M"}
    for line in ("IF A War-Gal THEN A Mos-Ukr", "if war - gal then mos - ukr"):
        error = _error(state, "RUSSIA", line)
        assert "conditional orders" in error and "not supported" in error, error
        assert "unknown province" not in error


def _winter() -> dict[str, Any]:
    state = jsonapi.initial_state("standard")
    return {**state, "phase": "W1901A", "units": {**state["units"], "AUSTRIA": ["A SER", "F TRI"]},
            "centers": {**state["centers"], "AUSTRIA": ["BUD", "SER", "TRI", "VIE"]}}


def test_a_build_in_an_occupied_centre_that_is_no_home_centre_says_so() -> None:
    assert _error(_winter(), "AUSTRIA", "BUILD A Ser") == "Serbia is not one of your home centres"


def test_a_build_in_an_occupied_home_centre_is_occupied() -> None:
    assert _error(_winter(), "AUSTRIA", "BUILD F Tri") == "Trieste is occupied"
