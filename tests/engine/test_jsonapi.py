"""The JSON interface of issue 2 (`judge adjudicate`), through app.jsonapi.

Each scenario is a request and what its answer must show; the tests read them.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from app import jsonapi

INITIAL = jsonapi.initial_state("standard")
ORDER_KEYS = {"power", "order", "result", "reason", "explanation"}
RESULT_KEYS = {"id", "phase", "orders", "units", "dislodged", "centers", "next_phase"}


def run(request: dict[str, Any]) -> dict[str, Any]:
    return jsonapi.adjudicate_request(copy.deepcopy(request))


def entry(result: dict[str, Any], order: str) -> dict[str, Any]:
    """The result of the order written as `order` (the given one, not a default)."""
    found = [o for o in result["orders"] if o["order"] == order and not o.get("default")]
    assert len(found) == 1, f"{order!r} in {result['orders']}"
    return found[0]


def board(result: dict[str, Any]) -> dict[str, list[str]]:
    return {p: sorted(us) for p, us in result["units"].items() if us}


# A French attack on Burgundy, supported: the German army there is dislodged.
DISLODGE = {
    "id": "d1",
    "variant": "standard",
    "phase": "S1901M",
    "units": {"FRANCE": ["A PAR", "A MAR"], "GERMANY": ["A BUR", "A MUN"]},
    "centers": {"FRANCE": ["PAR", "MAR"], "GERMANY": ["MUN", "BER"]},
    "orders": {"FRANCE": ["A PAR - BUR", "A MAR S A PAR - BUR"], "GERMANY": ["A MUN - RUH"]},
}


# -- ids and shapes ---------------------------------------------------------------


@pytest.mark.parametrize("request_id", ["c1", 17, "x" * 40, 0, ""])
def test_id_is_echoed(request_id: Any) -> None:
    result = run({**INITIAL, "id": request_id, "orders": {"FRANCE": ["A PAR - BUR"]}})
    assert result["id"] == request_id


@pytest.mark.parametrize(
    "req",
    [
        {**INITIAL, "id": "k1", "orders": {"FRANCE": ["A PAR - BUR"], "ENGLAND": ["F LON - NTH"]}},
        DISLODGE,
        {**INITIAL, "id": "k3", "orders": {}},
    ],
    ids=["opening", "dislodge", "no-orders"],
)
def test_output_keys(req: dict[str, Any]) -> None:
    result = run(req)
    assert "error" not in result, result
    assert set(result) >= RESULT_KEYS
    assert result["phase"] == req["phase"]
    for order in result["orders"]:
        assert set(order) >= ORDER_KEYS, order
        assert order["result"] in ("succeeds", "fails", "invalid")
        assert isinstance(order["reason"], str) and order["reason"]
        assert isinstance(order["explanation"], str) and order["explanation"]
    for units in result["units"].values():
        assert all(isinstance(u, str) for u in units)
    for centres in result["centers"].values():
        assert all(isinstance(c, str) for c in centres)


def test_orders_come_back_in_the_order_given() -> None:
    lines = {"FRANCE": ["A PAR - BUR", "A MAR - SPA", "F BRE - MAO"], "ENGLAND": ["F LON - NTH", "A LVP - YOR"]}
    result = run({**INITIAL, "id": "o", "orders": lines})
    given = [(o["power"], o["order"]) for o in result["orders"] if not o.get("default")]
    assert given == [(p, line) for p, ls in lines.items() for line in ls]


def test_the_issue_example_request() -> None:
    result = run(
        {
            "id": "c1", "variant": "standard", "phase": "S1901M",
            "units": {"ENGLAND": ["F LON", "A YOR"], "FRANCE": ["A PAR", "F SPA/SC"]},
            "centers": {"ENGLAND": ["LON", "EDI", "LVP"]},
            "orders": {"ENGLAND": ["F LON - NTH", "A YOR - NWY VIA"], "FRANCE": ["A PAR - BUR"]},
        }
    )
    assert result["id"] == "c1"
    assert entry(result, "F LON - NTH")["result"] == "succeeds"
    assert entry(result, "A PAR - BUR")["result"] == "succeeds"
    # F LON moved away, so nothing stands in the North Sea to convoy A YOR
    assert entry(result, "A YOR - NWY VIA")["result"] in ("fails", "invalid")
    assert board(result) == {"ENGLAND": ["A YOR", "F NTH"], "FRANCE": ["A BUR", "F SPA/SC"]}


# -- the phase sequence -----------------------------------------------------------


def _after_spring(orders: dict[str, list[str]]) -> dict[str, Any]:
    return jsonapi.next_state(run({**INITIAL, "orders": orders}), variant="standard")


PHASES = [
    # (request, next phase)
    ({**INITIAL, "orders": {"FRANCE": ["A PAR - BUR"]}}, "F1901M"),
    (DISLODGE, "S1901R"),
    ({**INITIAL, "phase": "F1901M", "orders": {"FRANCE": ["A PAR - BUR"]}}, "S1902M"),
    ({**_after_spring({"FRANCE": ["A PAR - PIC"]}), "orders": {"FRANCE": ["A PIC - BEL"]}}, "W1901A"),
    ({**_after_spring({"FRANCE": ["A PAR - PIC"]}), "orders": {"FRANCE": ["A PIC - BUR"]}}, "S1902M"),
    ({**INITIAL, "phase": "W1901A", "units": {**INITIAL["units"], "FRANCE": ["A PAR", "A MAR"]},
      "orders": {"FRANCE": ["build F BRE"]}}, "S1902M"),
    ({**INITIAL, "phase": "F1901M", "units": {**INITIAL["units"], "FRANCE": ["A PAR", "A MAR"]}, "orders": {}}, "W1901A"),
    ({**INITIAL, "phase": "S1905M", "orders": {}}, "F1905M"),
    ({**INITIAL, "phase": "F1905M", "orders": {}}, "S1906M"),
]


@pytest.mark.parametrize("req, next_phase", PHASES, ids=[f"{r['phase']}->{n}-{i}" for i, (r, n) in enumerate(PHASES)])
def test_next_phase(req: dict[str, Any], next_phase: str) -> None:
    result = run(req)
    assert "error" not in result, result
    assert result["next_phase"] == next_phase
    if next_phase.endswith("R"):
        assert any(result["dislodged"].values())
    else:
        assert not any(result["dislodged"].values())


def test_dislodged_object() -> None:
    result = run(DISLODGE)
    assert result["dislodged"] == {"GERMANY": {"A BUR": {"attacker_from": "PAR", "retreats": ["BEL", "GAS", "MUN", "PIC"]}}}
    assert entry(result, "A PAR - BUR")["result"] == "succeeds"
    assert board(result) == {"FRANCE": ["A BUR", "A MAR"], "GERMANY": ["A RUH"]}


def _retreat_state(dislodged: Any) -> dict[str, Any]:
    state = jsonapi.next_state(run(DISLODGE), variant="standard")
    if dislodged is not None:
        state["dislodged"] = dislodged
    return state


DISLODGED_FORMS = {
    "full": None,  # exactly what the movement result gave
    "short": {"GERMANY": {"A BUR": "PAR"}},
    "short-lower": {"germany": {"a bur": "par"}},
    "full-no-retreats": {"GERMANY": {"A BUR": {"attacker_from": "PAR"}}},
}

RETREATS = [
    # (order, result, units of GERMANY after)
    ("A BUR - PIC", "succeeds", ["A PIC", "A RUH"]),
    ("A Bur R Munich", "succeeds", ["A MUN", "A RUH"]),
    ("A BUR D", "succeeds", ["A RUH"]),
    ("A BUR - PAR", "invalid", ["A RUH"]),  # where the attacker came from
    ("A BUR - RUH", "invalid", ["A RUH"]),  # occupied
    ("A BUR - BUR", "invalid", ["A RUH"]),
]


@pytest.mark.parametrize("form", list(DISLODGED_FORMS))
@pytest.mark.parametrize("order, outcome, after", RETREATS, ids=[o for o, _r, _a in RETREATS])
def test_retreat_phase_accepts_both_dislodged_forms(form: str, order: str, outcome: str, after: list[str]) -> None:
    state = _retreat_state(DISLODGED_FORMS[form])
    assert state["phase"] == "S1901R"
    result = run({**state, "id": form, "orders": {"GERMANY": [order]}})
    assert "error" not in result, result
    assert result["id"] == form
    assert entry(result, order)["result"] == outcome
    assert board(result)["GERMANY"] == after
    assert board(result)["FRANCE"] == ["A BUR", "A MAR"]
    assert result["next_phase"] == "F1901M"
    assert not any(result["dislodged"].values())


def test_retreat_without_order_disbands() -> None:
    result = run({**_retreat_state(None), "orders": {}})
    assert board(result) == {"FRANCE": ["A BUR", "A MAR"], "GERMANY": ["A RUH"]}
    [default] = [o for o in result["orders"] if o.get("default")]
    assert default["power"] == "GERMANY"
    assert "disband" in default["explanation"]


def test_retreats_to_one_province_both_disband() -> None:
    request = {
        "phase": "F1901R",
        "units": {"FRANCE": ["A BUR", "A RUH"], "GERMANY": ["A MUN"]},
        "centers": {"FRANCE": ["PAR", "MAR", "BRE"], "GERMANY": ["MUN", "BER", "KIE"]},
        "dislodged": {"GERMANY": {"A BEL": "BUR"}, "ITALY": {"A KIE": "RUH"}},
        "orders": {"GERMANY": ["A BEL - HOL"], "ITALY": ["A KIE - HOL"]},
    }
    result = run(request)
    assert "error" not in result, result
    assert entry(result, "A BEL - HOL")["result"] == "fails"
    assert entry(result, "A KIE - HOL")["result"] == "fails"
    assert "HOL" not in {u.split()[1] for us in result["units"].values() for u in us}


# -- invalid orders, missing orders, explanations -----------------------------------

INVALID = [
    ("FRANCE", "A Par - Mun"),  # not adjacent
    ("FRANCE", "A Par - Burgundi"),  # unknown province
    ("FRANCE", "F Par - ENG"),  # armies cannot move to sea
    ("FRANCE", "A Par S A Mun - Ber"),
    ("FRANCE", "A Par frobnicate"),
]


@pytest.mark.parametrize("power, order", INVALID, ids=[o for _p, o in INVALID])
def test_invalid_order_is_reported_and_the_unit_holds(power: str, order: str) -> None:
    # German A BUR attacks Paris unsupported: it bounces only if A PAR holds.
    request = {
        "phase": "S1901M",
        "units": {"FRANCE": ["A PAR"], "GERMANY": ["A BUR", "A MUN"]},
        "centers": {"FRANCE": ["PAR"], "GERMANY": ["MUN"]},
        "orders": {power: [order], "GERMANY": ["A BUR - PAR"]},
    }
    result = run(request)
    invalid = entry(result, order)
    assert invalid["result"] == "invalid"
    assert invalid["reason"] and invalid["explanation"]
    assert entry(result, "A BUR - PAR")["result"] == "fails"
    assert board(result)["FRANCE"] == ["A PAR"]
    assert board(result)["GERMANY"] == ["A BUR", "A MUN"]


def test_unit_without_order_holds() -> None:
    result = run({**INITIAL, "orders": {"GERMANY": ["A MUN - BUR"]}})
    assert board(result) == {**INITIAL["units"], "GERMANY": ["A BER", "A BUR", "F KIE"]}
    defaults = {o["order"] for o in result["orders"] if o.get("default")}
    assert "A PAR H" in defaults and "A MUN H" not in defaults
    assert len(defaults) == 21


EXPLANATIONS = [
    # (units, orders, order, result, reason, words in the explanation)
    (
        {"FRANCE": ["A PAR", "A MAR"], "GERMANY": ["A BUR"], "ITALY": ["A PIE"]},
        {"FRANCE": ["A PAR - BUR", "A MAR S A PAR - BUR"], "ITALY": ["A PIE - MAR"]},
        "A MAR S A PAR - BUR", "fails", "cut", ["support cut by", "pie"],
    ),
    (
        {"FRANCE": ["A PAR", "A MAR"], "GERMANY": ["A BUR"], "ITALY": ["A PIE"]},
        {"FRANCE": ["A PAR - BUR", "A MAR S A PAR - BUR"], "ITALY": ["A PIE - MAR"]},
        "A PAR - BUR", "fails", "bounce", ["bounced: equal strength", "1 vs 1", "bur"],
    ),
    (
        {"FRANCE": ["A PAR", "A MAR", "F BRE"], "GERMANY": ["A BUR", "A MUN", "A RUH"]},
        {"FRANCE": ["A PAR - BUR", "A MAR S A PAR - BUR", "F BRE H"], "GERMANY": ["A MUN S A BUR", "A RUH H"]},
        "A PAR - BUR", "fails", "bounce", ["bounced: equal strength", "2 vs 2", "bur"],
    ),
    (
        {"FRANCE": ["A PAR", "A MAR"], "GERMANY": ["A MUN"]},
        {"FRANCE": ["A PAR - BUR", "A MAR - BUR"]},
        "A PAR - BUR", "fails", "bounce", ["bounced: equal strength", "1 vs 1", "mar"],
    ),
    (
        {"FRANCE": ["A PAR", "A MAR"], "GERMANY": ["A BUR"]},
        {"FRANCE": ["A PAR - BUR", "A MAR S A PAR - BUR"]},
        "A PAR - BUR", "succeeds", "ok", ["bur"],
    ),
    (
        {"FRANCE": ["A PAR", "A MAR"], "GERMANY": ["A BUR"]},
        {"FRANCE": ["A PAR - BUR", "A MAR S A PAR - BUR"]},
        "A MAR S A PAR - BUR", "succeeds", "ok", ["support"],
    ),
    (
        {"FRANCE": ["A PAR", "A MAR"], "GERMANY": ["A BUR"]},
        {"FRANCE": ["A PAR H", "A MAR S A PAR - BUR"]},
        "A MAR S A PAR - BUR", "fails", "void", ["void"],
    ),
    (
        {"ENGLAND": ["A LON", "F NTH"], "FRANCE": ["F ENG", "F BEL"]},
        {"ENGLAND": ["A LON - NWY", "F NTH C A LON - NWY"], "FRANCE": ["F ENG - NTH", "F BEL S F ENG - NTH"]},
        "A LON - NWY", "fails", "no_convoy", ["convoy"],
    ),
]


@pytest.mark.parametrize(
    "units, orders, order, outcome, reason, words", EXPLANATIONS,
    ids=[f"{i}:{e[2]}:{e[4]}" for i, e in enumerate(EXPLANATIONS)],
)
def test_explanations(units: dict, orders: dict, order: str, outcome: str, reason: str, words: list[str]) -> None:
    result = run({"id": "e", "phase": "S1901M", "units": units, "orders": orders})
    got = entry(result, order)
    assert (got["result"], got["reason"]) == (outcome, reason), got
    for word in words:
        assert word in got["explanation"].lower(), got


# -- requests that are not well formed ------------------------------------------------

ERRORS = [
    {"variant": "nosuch"},
    {"variant": "standard", "orders": {"ATLANTIS": ["A PAR H"]}},
    {"variant": "standard", "units": {"ATLANTIS": ["A PAR"]}},
    {"phase": "X1901Q"},
    {"phase": "W1901M"},
    {"units": {"FRANCE": ["Q PAR"]}},
    {"units": {"FRANCE": ["A PAR", "F PAR"]}},
    {"units": {"FRANCE": ["F SPA"]}},  # a fleet in Spain needs its coast
    {"phase": "S1901R", "units": {"FRANCE": ["A PAR"]}},  # retreats without dislodged units
    {"centers": {"FRANCE": ["BUR"]}},  # not a supply centre
    # units on terrain they cannot stand on
    {"units": {"FRANCE": ["A NTH"]}},
    {"units": {"FRANCE": ["F BUR"]}},
    {"units": {"FRANCE": ["A SWI"]}},
    # wrong JSON shapes: an error, never an exception
    {"orders": ["A PAR H"]},
    {"units": ["A PAR"]},
    {"orders": {"FRANCE": [5]}},
    {"units": {"FRANCE": [None]}},
    {"phase": "S1901R", "units": {"GERMANY": ["A BUR"]}, "dislodged": {"FRANCE": {"A PAR": 5}}},
]


@pytest.mark.parametrize("req", ERRORS, ids=[repr(r) for r in ERRORS])
def test_bad_requests_get_an_error(req: dict[str, Any]) -> None:
    result = run({"id": "bad", **req})
    assert result.get("id") == "bad"
    assert isinstance(result.get("error"), str) and result["error"], result


# -- victory -----------------------------------------------------------------------

SEVENTEEN = ["BRE", "MAR", "PAR", "BEL", "HOL", "SPA", "POR", "LON", "LVP", "EDI", "MUN", "KIE", "BER", "DEN", "NWY", "SWE", "TUN"]
VICTORY = [
    # (phase, order, winner, French centres after)
    ("F1905M", "A TYR - VEN", "FRANCE", 18),
    ("S1905M", "A TYR - VEN", None, 17),  # centres change hands after Fall only
    ("F1905M", "A TYR - MUN", None, 17),  # already French
    ("F1905M", "A TYR H", None, 17),
]


@pytest.mark.parametrize("phase, order, winner, centres", VICTORY, ids=[f"{p}:{o}" for p, o, _w, _c in VICTORY])
def test_victory(phase: str, order: str, winner: str | None, centres: int) -> None:
    result = run(
        {
            "id": "v", "phase": phase,
            "units": {"FRANCE": ["A TYR"], "ITALY": ["A ROM"]},
            "centers": {"FRANCE": SEVENTEEN, "ITALY": ["ROM", "NAP"]},
            "orders": {"FRANCE": [order]},
        }
    )
    assert "error" not in result, result
    assert len(result["centers"]["FRANCE"]) == centres
    assert result.get("winner") == winner


def test_victory_after_fall_retreats() -> None:
    """A Fall with a retreat: the centres (and the winner) are settled after the retreats."""
    request = {
        "phase": "F1905M",
        "units": {"FRANCE": ["A TYR", "A TRI", "A PIE"], "ITALY": ["A VEN"]},
        "centers": {"FRANCE": SEVENTEEN, "ITALY": ["ROM", "NAP", "VEN"]},
        "orders": {"FRANCE": ["A TYR - VEN", "A TRI S A TYR - VEN", "A PIE H"]},
    }
    movement = run(request)
    assert movement["next_phase"] == "F1905R"
    assert movement.get("winner") is None
    retreat = run({**jsonapi.next_state(movement, variant="standard"), "orders": {"ITALY": ["A VEN - ROM"]}})
    assert "error" not in retreat, retreat
    assert "VEN" in retreat["centers"]["FRANCE"]
    assert retreat.get("winner") == "FRANCE"


# -- adjustments -------------------------------------------------------------------


def test_build_and_remove_then_spring() -> None:
    request = {
        "phase": "W1901A",
        "units": {"FRANCE": ["A BUR", "A MAR"], "GERMANY": ["A MUN", "A RUH", "A BEL", "F KIE"]},
        "centers": {"FRANCE": ["PAR", "MAR", "BRE"], "GERMANY": ["MUN", "BER", "KIE"]},
        "orders": {"FRANCE": ["build A par", "build F bre"], "GERMANY": ["remove A bel"]},
    }
    result = run(request)
    assert "error" not in result, result
    assert entry(result, "build A par")["result"] == "succeeds"
    assert entry(result, "remove A bel")["result"] == "succeeds"
    assert entry(result, "build F bre")["result"] == "fails"  # one build only
    assert board(result) == {"FRANCE": ["A BUR", "A MAR", "A PAR"], "GERMANY": ["A MUN", "A RUH", "F KIE"]}
    assert result["next_phase"] == "S1902M"


def test_unordered_removal_follows_civil_disorder() -> None:
    request = {
        "phase": "W1901A",
        "units": {"GERMANY": ["A MUN", "A RUH", "A BEL", "F KIE"]},
        "centers": {"GERMANY": ["MUN", "BER", "KIE"]},
        "orders": {},
    }
    result = run(request)
    assert len(result["units"]["GERMANY"]) == 3
    assert any(o.get("default") and o["power"] == "GERMANY" for o in result["orders"])


# -- explanations do not depend on the order the powers are listed in ----------------

TWO_CUTTERS = [
    # (units, orders, the order whose explanation is compared)
    (
        {"FRANCE": ["A BUR"], "ITALY": ["A TYR"], "GERMANY": ["A MUN", "A KIE"]},
        {"FRANCE": ["A BUR - MUN"], "ITALY": ["A TYR - MUN"], "GERMANY": ["A MUN S A KIE"]},
        "A MUN S A KIE",
    ),
    (
        {"FRANCE": ["A PIC"], "GERMANY": ["A RUH"], "ENGLAND": ["A BEL", "A HOL"]},
        {"GERMANY": ["A RUH - BEL"], "FRANCE": ["A PIC - BEL"], "ENGLAND": ["A BEL S A HOL"]},
        "A BEL S A HOL",
    ),
]


@pytest.mark.parametrize("units, orders, order", TWO_CUTTERS, ids=[o for _u, _o, o in TWO_CUTTERS])
def test_explanation_is_the_same_whatever_the_listing_order(units: dict, orders: dict, order: str) -> None:
    """A support cut by two attackers: the sentence must not depend on which power is listed first."""
    forward = run({"phase": "S1901M", "units": units, "orders": orders})
    backward = run({"phase": "S1901M", "units": units, "orders": dict(reversed(list(orders.items())))})
    assert entry(forward, order)["reason"] == entry(backward, order)["reason"] == "cut"
    assert entry(forward, order)["explanation"] == entry(backward, order)["explanation"]


# -- adjustments, table ------------------------------------------------------------------

ADJUSTMENTS = [
    # (units, centres, orders, {order: result}, units after)
    ({"RUSSIA": []}, {"RUSSIA": ["STP"]}, ["build F stp/nc", "build A stp"],
     {"build F stp/nc": "succeeds", "build A stp": "fails"}, {"RUSSIA": ["F STP/NC"]}),
    ({"RUSSIA": []}, {"RUSSIA": ["STP"]}, ["build F stp"], {"build F stp": "invalid"}, {}),  # needs a coast
    ({"RUSSIA": []}, {"RUSSIA": ["MOS"]}, ["build F mos"], {"build F mos": "invalid"}, {}),  # inland
    ({"FRANCE": []}, {"FRANCE": ["PAR", "SPA"]}, ["build F spa/sc"], {"build F spa/sc": "invalid"}, {}),  # not home
    ({"FRANCE": ["A PAR"]}, {"FRANCE": ["PAR", "BRE"]}, ["build A par"], {"build A par": "invalid"}, {"FRANCE": ["A PAR"]}),
    ({"FRANCE": []}, {"FRANCE": ["PAR", "BRE"]}, ["waive", "build A par"],
     {"waive": "succeeds", "build A par": "succeeds"}, {"FRANCE": ["A PAR"]}),
    ({"FRANCE": []}, {"FRANCE": ["PAR"]}, ["waive", "build A par"],
     {"waive": "succeeds", "build A par": "fails"}, {}),
    ({"RUSSIA": ["A MOS", "A WAR", "F SEV"]}, {"RUSSIA": ["MOS"]}, ["remove A MOS", "remove A MOS"],
     {"remove A MOS": "-"}, "one unit"),  # a repeated removal counts once; civil disorder takes the other
    ({"RUSSIA": ["A MOS", "A WAR"]}, {"RUSSIA": ["MOS"]}, ["remove A war"], {"remove A war": "succeeds"}, {"RUSSIA": ["A MOS"]}),
    ({"RUSSIA": ["A MOS", "A WAR"]}, {"RUSSIA": ["MOS"]}, ["remove A ber"], {"remove A ber": "invalid"}, "one unit"),
    ({"RUSSIA": ["A MOS"], "GERMANY": ["A BER"]}, {"RUSSIA": ["MOS"], "GERMANY": []}, [],
     {}, {"RUSSIA": ["A MOS"]}),  # Germany has no centre: its unit goes by civil disorder
]


@pytest.mark.parametrize(
    "units, centres, orders, results, after", ADJUSTMENTS, ids=[f"{i}:{'/'.join(o) or 'none'}" for i, (_u, _c, o, _r, _a) in enumerate(ADJUSTMENTS)]
)
def test_adjustments_table(units: dict, centres: dict, orders: list[str], results: dict[str, str], after: Any) -> None:
    power = next(iter(units))
    result = run({"phase": "W1901A", "units": units, "centers": centres, "orders": {power: orders} if orders else {}})
    assert "error" not in result, result
    assert result["next_phase"] == "S1902M"
    for order, outcome in results.items():
        found = [o for o in result["orders"] if o["order"] == order and not o.get("default")]
        assert found, result["orders"]
        if outcome != "-":
            assert found[0]["result"] == outcome, found
    if after == "one unit":
        assert sum(len(u) for u in result["units"].values()) == 1, result["units"]
    else:
        assert board(result) == after
