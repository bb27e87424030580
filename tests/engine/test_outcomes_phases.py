"""A retreat phase follows a movement phase only when some dislodged unit can retreat
(issue 8.1): units with nowhere to go are destroyed at once and the game goes on."""

from __future__ import annotations

import json
from typing import Any

from app import jsonapi
from app.db import codec
from app.engine import api as engine
from app.engine.orders import Unit
from app.variants import load_variant

# Issue 8.1's game: the Turkish fleet in Ankara is dislodged with every way out blocked.
ANKARA: dict[str, Any] = {  # a JSON request
    "variant": "standard",
    "units": {"RUSSIA": ["A ARM", "F BLA"], "TURKEY": ["F ANK", "A CON", "A SMY", "A BUL"]},
    "centers": {"RUSSIA": ["SEV"], "TURKEY": ["ANK", "CON", "SMY"]},
    "orders": {"RUSSIA": ["A Arm-Ank", "F Bla S A Arm-Ank"], "TURKEY": ["F Ank H", "A Con H", "A Smy H", "A Bul H"]},
}


def _run(phase: str, **changes: Any) -> dict[str, Any]:
    result = jsonapi.adjudicate_request({**ANKARA, "phase": phase, **changes})
    assert "error" not in result, result
    return result


def test_no_retreat_phase_when_no_dislodged_unit_can_retreat() -> None:
    result = _run("S1902M")
    assert result["next_phase"] == "F1902M"
    assert result["dislodged"] == {"TURKEY": {"F ANK": {"attacker_from": "ARM", "retreats": []}}}
    assert "F ANK" not in result["units"]["TURKEY"]
    after = jsonapi.next_state(result)
    assert after["phase"] == "F1902M" and after["dislodged"] == {}
    follow = jsonapi.adjudicate_request({**after, "orders": {}})
    assert "error" not in follow and follow["phase"] == "F1902M"


def test_a_fall_without_retreats_goes_on_to_the_centres_and_adjustments() -> None:
    result = _run("F1902M", centers={"RUSSIA": ["SEV", "MOS"], "TURKEY": ["ANK", "CON", "SMY"]})
    assert result["next_phase"] == "W1902A"  # Russia took Ankara and may build
    assert "ANK" in result["centers"]["RUSSIA"]
    assert "F ANK" not in result["units"]["TURKEY"]


def test_a_retreat_phase_still_follows_when_one_unit_can_retreat() -> None:
    units = {**ANKARA["units"], "AUSTRIA": ["A SER", "A GRE"]}
    orders = {**ANKARA["orders"], "AUSTRIA": ["A Ser-Bul", "A Gre S A Ser-Bul"]}
    result = _run("S1902M", units=units, orders=orders)
    assert result["next_phase"] == "S1902R"
    assert result["dislodged"]["TURKEY"]["F ANK"]["retreats"] == []
    assert result["dislodged"]["TURKEY"]["A BUL"]["retreats"] == ["RUM"]
    retreats = jsonapi.adjudicate_request({**jsonapi.next_state(result), "orders": {"TURKEY": ["A Bul-Rum"]}})
    assert "A RUM" in retreats["units"]["TURKEY"] and "F ANK" not in retreats["units"]["TURKEY"]


def test_the_typed_result_names_the_destroyed_units() -> None:
    variant = load_variant("standard")
    state = codec.state_from_json({**ANKARA, "phase": "S1902M"}, variant)
    result = engine.adjudicate(variant, state, ANKARA["orders"])
    assert [(d.power, d.unit) for d in result.destroyed] == [("TURKEY", Unit("F", "ANK"))]
    assert ("TURKEY", Unit("F", "ANK")) in result.removed
    assert engine.state_after(result).dislodged == {}
    stored = json.loads(json.dumps(codec.result_to_json(result, variant)))
    back = codec.result_from_json(stored, variant)
    assert back.destroyed == result.destroyed
    assert codec.result_to_json(back, variant) == stored
