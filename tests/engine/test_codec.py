"""The codec (app/db/codec.py): stored JSON ⇄ engine values, for every variant."""

from __future__ import annotations

import json
from typing import Any

import pytest

from app.db import codec
from app.engine import api as engine
from app.engine.orders import (
    ARMY_FLEET,
    Board,
    Build,
    Convoy,
    Disband,
    Hold,
    Land,
    Move,
    Order,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
    Unit,
    Waive,
)
from app.engine.phase_result import HiddenBuild, RevealedStart
from app.variants import available, load_variant

VARIANTS = available()


def _round_trip_state(variant_name: str, data: dict[str, Any]) -> None:
    variant = load_variant(variant_name)
    state = codec.state_from_json(data, variant)
    stored = json.loads(json.dumps(codec.state_to_json(state, variant)))
    assert codec.state_from_json(stored, variant) == state
    assert codec.state_to_json(codec.state_from_json(stored, variant), variant) == stored


@pytest.mark.parametrize("name", VARIANTS)
def test_initial_state_round_trips(name: str) -> None:
    variant = load_variant(name)
    data = codec.initial_state_to_json(variant)
    assert codec.state_from_json(data, variant) == engine.initial_state(variant)
    _round_trip_state(name, data)


@pytest.mark.parametrize(
    ("name", "data"),
    [
        (
            "standard",
            {
                "phase": "S1901R",
                "units": {"FRANCE": ["A BUR", "F SPA/SC"], "GERMANY": ["A MUN"]},
                "centers": {"FRANCE": ["PAR", "SPA"], "GERMANY": ["MUN"]},
                "dislodged": {"GERMANY": {"A BUR": {"attacker_from": "PAR", "retreats": ["RUH"]}}},
            },
        ),
        (
            "standard",  # the short form: the retreats are worked out from the board
            {
                "phase": "F1901R",
                "units": {"FRANCE": ["A BUR"], "GERMANY": ["A MUN", "A RUH"]},
                "centers": {"FRANCE": ["PAR"]},
                "dislodged": {"GERMANY": {"A BUR": "PAR"}},
            },
        ),
        (
            "smallworld8",  # A/Fs at sea, their moves at sea, a dislodged A/F
            {
                "phase": "F01R",
                "units": {"WESTERN_EUROPE": ["A/F NTH", "F MAO"], "RUSSIA": ["F NWG"]},
                "centers": {"WESTERN_EUROPE": ["LON"]},
                "dislodged": {"RUSSIA": {"A/F BAR": {"attacker_from": "NWG", "retreats": [], "af_moves": 2}}},
                "af_moves": {"NTH": 1},
                "retreated": ["MAO"],
            },
        ),
        (
            "zeus5",
            {
                "phase": "S1940M",
                "units": {"USA": ["F CAL", "A WAS"]},
                "centers": {"USA": ["WAS", "NYK"]},
            },
        ),
    ],
    ids=["dislodged", "dislodged-short", "army-fleet", "zeus5"],
)
def test_positions_round_trip(name: str, data: dict[str, Any]) -> None:
    _round_trip_state(name, data)


def test_hidden_starts_are_in_the_initial_state() -> None:
    data = codec.initial_state_to_json(load_variant("smallworld8"))
    hidden = {h["power"]: h for h in data["hidden"]}
    assert hidden["ISLAM"] == {
        "power": "ISLAM", "unit": "F ARA/EC", "options": ["F ARA/EC", "F ARA/WC"], "reveal_with": "S01M"
    }
    assert "hidden" not in codec.initial_state_to_json(load_variant("standard"))


def _unit(kind: str, location: str) -> Unit:
    return Unit(kind, location)


ORDERS: list[Order] = [
    Hold(_unit("A", "PAR")),
    Move(_unit("A", "LON"), "NWY", True),
    Move(_unit("F", "SPA/SC"), "WES"),
    SupportHold(_unit("F", "NTH"), "LON"),
    SupportMove(_unit("A", "MAR"), "PAR", "BUR"),
    Convoy(_unit("F", "NTH"), "LON", "NWY"),
    Board(_unit("A", "SPA"), "MAO"),
    Land(_unit(ARMY_FLEET, "WMS"), "GRE", "EMS"),
    Land(_unit(ARMY_FLEET, "NWG"), "SCA"),
    Retreat(_unit("F", "NTH"), "EDI"),
    Disband(_unit("A", "BUR")),
    Build(_unit("F", "STP/NC")),
    Build(_unit("?", "PAR")),
    Remove(_unit("A", "WAR")),
    Waive(),
]


@pytest.mark.parametrize("order", ORDERS, ids=[str(o) for o in ORDERS])
def test_orders_round_trip(order: Order) -> None:
    stored = json.loads(json.dumps(codec.order_to_json(order)))
    assert codec.order_from_json(stored) == order


def test_order_json_names_its_kind_and_fields() -> None:
    assert codec.order_to_json(Move(_unit("A", "LON"), "NWY", True)) == {
        "kind": "move", "unit": {"type": "A", "location": "LON"}, "target": "NWY", "via_convoy": True,
    }
    assert codec.orders_from_json(codec.orders_to_json({"FRANCE": ORDERS[:3]})) == {"FRANCE": ORDERS[:3]}


@pytest.mark.parametrize(
    "data",
    [{"kind": "teleport"}, {"kind": "move", "unit": "A PAR", "target": "BUR"}, {"kind": "move", "target": "BUR"}],
)
def test_bad_orders_are_refused(data: dict[str, Any]) -> None:
    with pytest.raises(codec.CodecError):
        codec.order_from_json(data)


def _phase(name: str, data: dict[str, Any], orders: dict[str, list[str]]) -> engine.PhaseResult:
    variant = load_variant(name)
    return engine.adjudicate(variant, codec.state_from_json(data, variant), orders)


PHASES = [
    ("standard", {}, {"FRANCE": ["A PAR - BUR", "F BRE - MAO"], "GERMANY": ["A MUN - BUR"]}),
    (
        "standard",
        {
            "phase": "F1901M",
            "units": {"FRANCE": ["A PAR", "A MAR"], "GERMANY": ["A BUR"]},
            "centers": {"FRANCE": ["PAR", "MAR"], "GERMANY": ["MUN"]},
        },
        {"FRANCE": ["A PAR - BUR", "A MAR S A PAR - BUR"]},
    ),
    (
        "standard",
        {
            "phase": "S1901R",
            "units": {"FRANCE": ["A BUR"], "GERMANY": ["A MUN"]},
            "dislodged": {"GERMANY": {"A RUH": {"attacker_from": "BUR", "retreats": ["KIE", "HOL"]}}},
        },
        {"GERMANY": ["A RUH R KIE"]},
    ),
    ("zeus5", {}, {"USA": ["Build F California", "Build A Washington"]}),
    ("smallworld8", {}, {"ISLAM": ["F ARA/WC - RED"]}),
    (
        "smallworld8",
        {"phase": "S01M", "units": {"WESTERN_EUROPE": ["A SPA", "F WMS"]}},
        {"WESTERN_EUROPE": ["A SPA boards F WMS", "A/F WMS - EMS", "A disembarks GRE"]},
    ),
    (
        "smallworld7",
        {"phase": "W01A", "units": {"CHINA": ["A PEK"]}, "centers": {"CHINA": ["PEK", "MUK", "CAN"]}},
        {},
    ),
]


@pytest.mark.parametrize(("name", "data", "orders"), PHASES, ids=[f"{p[0]}-{i}" for i, p in enumerate(PHASES)])
def test_phase_results_round_trip(name: str, data: dict[str, Any], orders: dict[str, list[str]]) -> None:
    variant = load_variant(name)
    result = _phase(name, data, orders)
    stored = json.loads(json.dumps(codec.result_to_json(result, variant)))
    back = codec.result_from_json(stored, variant)
    assert back.phase == result.phase
    assert back.results == result.results
    assert back.state == result.state
    assert back.winner == result.winner
    assert back.hidden_builds == result.hidden_builds
    assert back.revealed == result.revealed
    assert codec.result_to_json(back, variant) == stored


def test_zeus5_new_york_or_california_build_is_hidden_in_the_result() -> None:
    result = _phase("zeus5", {}, {"USA": ["Build F California", "Build A Washington"]})
    assert result.hidden_builds == (HiddenBuild("USA", Unit("F", "CAL"), "F NYK/CAL", "S1940M"),)
    stored = codec.result_to_json(result, load_variant("zeus5"))
    assert stored["hidden"] == [{"power": "USA", "unit": "F CAL", "public": "F NYK/CAL", "reveal_after": "S1940M"}]


def test_zeus5_builds_in_both_sites_hide_nothing() -> None:
    result = _phase("zeus5", {}, {"USA": ["Build F California", "Build F New York"]})
    assert result.hidden_builds == ()
    assert "hidden" not in codec.result_to_json(result, load_variant("zeus5"))


def test_small_world_hidden_starts_are_revealed_by_the_spring_orders() -> None:
    result = _phase("smallworld8", {}, {"ISLAM": ["F ARA/WC - RED"]})
    revealed = {r.power: r.unit for r in result.revealed}
    assert revealed["ISLAM"] == Unit("F", "ARA/WC")
    assert revealed["RUSSIA"] == Unit("F", "LEN/SC")  # no order: its default
    assert RevealedStart("ISLAM", Unit("F", "ARA/WC")) in result.revealed
    later = _phase("smallworld8", {"phase": "F01M"}, {})
    assert later.revealed == ()


def test_a_stored_result_gives_the_next_state() -> None:
    variant = load_variant("standard")
    result = _phase("standard", {}, {"FRANCE": ["A PAR - BUR"]})
    stored = codec.result_to_json(result, variant)
    state = codec.state_from_json(codec.next_state_json(stored), variant)
    assert state == engine.state_after(result)
