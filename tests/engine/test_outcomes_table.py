"""Every order result carries a typed outcome naming what decided it; `judge adjudicate`
prints it as an `outcome` object beside the stable `reason` and `explanation`.

Each row: a position and orders, then for one order line its reason, its explanation
and its outcome object (the schema in docs/engine-api.md)."""

from __future__ import annotations

from typing import Any

import pytest

from app import jsonapi
from app.engine import outcomes as oc
from app.engine.explain import explain

Row = tuple[str, str, dict[str, list[str]], dict[str, list[str]], dict[str, Any], str, str, str, dict[str, Any]]

FRANCE_GERMANY = {"FRANCE": ["A PAR", "A MAR"], "GERMANY": ["A BUR"]}
CONVOY = {"ENGLAND": ["A LON", "F NTH"], "FRANCE": ["F ENG", "F BEL"]}
PARADOX = {"ENGLAND": ["F LON", "F WAL"], "FRANCE": ["A BRE", "F ENG"]}
PARADOX_ORDERS = {
    "ENGLAND": ["F London Supports F Wales - English Channel", "F Wales - English Channel"],
    "FRANCE": ["A Brest - London", "F English Channel Convoys A Brest - London"],
}
RETREATS = {
    "GERMANY": {
        "A RUH": {"attacker_from": "BUR", "retreats": ["KIE"]},
        "A HOL": {"attacker_from": "BEL", "retreats": ["KIE"]},
    },
    "ITALY": {"A TYR": {"attacker_from": "VEN", "retreats": []}},
}

ROWS: list[Row] = [
    ("standard", "S1901M", {"FRANCE": ["A PAR"], "GERMANY": ["A MUN"]},
     {"FRANCE": ["A PAR - BUR"], "GERMANY": ["A MUN - BUR"]}, {}, "A PAR - BUR",
     "bounce", "bounced: equal strength 1 vs 1 with A MUN",
     {"kind": "bounced", "by": "MUN", "attack": 1, "opposing": 1, "against": "prevent"}),
    ("standard", "S1901M", {**FRANCE_GERMANY, "ITALY": ["A PIE"]},
     {"FRANCE": ["A PAR - BUR", "A MAR S A PAR - BUR"], "GERMANY": ["A BUR H"], "ITALY": ["A PIE - MAR"]}, {},
     "A PAR - BUR", "bounce", "bounced: equal strength 1 vs 1 with A BUR",
     {"kind": "bounced", "by": "BUR", "attack": 1, "opposing": 1, "against": "hold"}),
    ("standard", "S1901M", {**FRANCE_GERMANY, "ITALY": ["A PIE"]},
     {"FRANCE": ["A PAR - BUR", "A MAR S A PAR - BUR"], "GERMANY": ["A BUR H"], "ITALY": ["A PIE - MAR"]}, {},
     "A MAR S A PAR - BUR", "cut", "support cut by A PIE", {"kind": "support_cut", "by": ["PIE"]}),
    ("standard", "S1901M", FRANCE_GERMANY,
     {"FRANCE": ["A PAR - BUR", "A MAR S A PAR - BUR"], "GERMANY": ["A BUR - PAR"]}, {},
     "A BUR - PAR", "dislodged",
     "bounced: lost the head-to-head battle, 1 vs 2 with A PAR; dislodged by A PAR",
     {"kind": "dislodged", "by": "PAR", "attack": 2, "hold": 1, "order": "move",
      "failed": {"kind": "bounced", "by": "PAR", "attack": 1, "opposing": 2, "against": "head_to_head"}}),
    ("standard", "S1901M", FRANCE_GERMANY,
     {"FRANCE": ["A PAR - BUR", "A MAR S A PAR - BUR"], "GERMANY": ["A BUR - PAR"]}, {},
     "A PAR - BUR", "ok", "moves to BUR, dislodging A BUR",
     {"kind": "moved", "to": "BUR", "by_convoy": False, "dislodged": "BUR"}),
    ("standard", "S1901M", {"FRANCE": ["A PAR", "A MAR"], "GERMANY": ["A MUN"]},
     {"FRANCE": ["A PAR H", "A MAR S A PAR - BUR"]}, {}, "A MAR S A PAR - BUR",
     "void", "void: A PAR did not move to BUR", {"kind": "support_void", "supported": "PAR", "target": "BUR"}),
    ("standard", "S1901M", {"GERMANY": ["A BUR", "A MUN"]}, {"GERMANY": ["A MUN - BUR"]}, {}, "A MUN - BUR",
     "bounce", "bounced: cannot dislodge A BUR of its own power", {"kind": "own_unit", "unit": "BUR"}),
    ("standard", "S1901M", CONVOY,
     {"ENGLAND": ["A LON - HOL", "F NTH C A LON - HOL"], "FRANCE": ["F ENG - NTH", "F BEL S F ENG - NTH"]}, {},
     "A LON - HOL", "no_convoy", "no convoy: the convoy was disrupted",
     {"kind": "convoy_disrupted", "fleets": ["NTH"], "by": ["ENG"]}),
    ("standard", "S1901M", CONVOY,
     {"ENGLAND": ["A LON - HOL", "F NTH C A LON - HOL"], "FRANCE": ["F ENG - NTH", "F BEL S F ENG - NTH"]}, {},
     "F NTH C A LON - HOL", "dislodged", "convoy disrupted: dislodged by F ENG",
     {"kind": "dislodged", "by": "ENG", "attack": 2, "hold": 1, "order": "convoy", "failed": None}),
    ("standard", "S1901M", {"ENGLAND": ["A LON", "F NTH"]}, {"ENGLAND": ["A LON - HOL", "F NTH H"]}, {},
     "A LON - HOL", "no_convoy", "no convoy: no fleet was ordered to convoy this army", {"kind": "no_convoy_route"}),
    ("standard", "S1901M", {"ENGLAND": ["A LON", "F NTH"]}, {"ENGLAND": ["A LON H", "F NTH C A LON - HOL"]}, {},
     "F NTH C A LON - HOL", "void", "void: A LON did not move to HOL",
     {"kind": "convoy_void", "army": "LON", "target": "HOL"}),
    ("standard", "S1901M", PARADOX, PARADOX_ORDERS, {}, "A Brest - London", "paradox",
     "no convoy: the convoy is part of a paradox, and by Szykman's rule its fleets hold",
     {"kind": "paradox", "rule": "szykman", "convoying": False}),
    ("standard", "S1901M", PARADOX, PARADOX_ORDERS, {}, "F English Channel Convoys A Brest - London", "paradox",
     "convoy paradox: by Szykman's rule this fleet holds; dislodged by F WAL",
     {"kind": "paradox", "rule": "szykman", "convoying": True}),
    ("standard", "S1901M", {"FRANCE": ["A PAR"]}, {"FRANCE": ["A PAR - BUR", "A PAR - PIC"]}, {}, "A PAR - PIC",
     "duplicate", "this unit was given different orders, so it holds", {"kind": "duplicate"}),
    ("standard", "S1901M", {"FRANCE": ["A PAR"]}, {"FRANCE": ["A Par - Mars"]}, {}, "A Par - Mars",
     "illegal", "the army at Paris cannot reach Marseilles",
     {"kind": "illegal", "message": "the army at Paris cannot reach Marseilles"}),
    ("standard", "S1901M", {"FRANCE": ["A PAR"]}, {"FRANCE": ["A Paris - Xyzzy"]}, {}, "A Paris - Xyzzy",
     "unreadable", "unknown province 'Xyzzy'", {"kind": "unreadable", "message": "unknown province 'Xyzzy'"}),
    ("standard", "F1901R", {"FRANCE": ["A BUR"]}, {"GERMANY": ["A RUH - KIE", "A HOL - KIE"]},
     {"dislodged": RETREATS}, "A RUH - KIE", "standoff", "bounced with A HOL: disbanded",
     {"kind": "retreat_standoff", "others": ["A HOL"]}),
    ("standard", "F1901R", {"FRANCE": ["A BUR"]}, {"GERMANY": ["A RUH - KIE", "A HOL - KIE"]},
     {"dislodged": RETREATS}, "A TYR D", "disbanded", "no order received: no retreat possible: disbanded",
     {"kind": "disbanded", "no_retreat": True}),
    ("standard", "F1901R", {"FRANCE": ["A BUR"]}, {"GERMANY": ["A RUH - KIE"]},
     {"dislodged": RETREATS}, "A RUH - KIE", "ok", "retreats to KIE", {"kind": "retreated", "to": "KIE"}),
    ("standard", "W1901A", {"FRANCE": ["A PAR"]}, {"FRANCE": ["Build A MAR", "Build F BRE", "Waive"]},
     {"centers": {"FRANCE": ["PAR", "MAR", "BRE"]}}, "Build A MAR", "ok", "builds A MAR",
     {"kind": "built", "unit": "A MAR"}),
    ("standard", "W1901A", {"FRANCE": ["A PAR"]}, {"FRANCE": ["Build A MAR", "Build F BRE", "Waive"]},
     {"centers": {"FRANCE": ["PAR", "MAR", "BRE"]}}, "Waive", "too_many", "no build left: 2 builds allowed",
     {"kind": "too_many", "owed": 2, "builds": True}),
    ("standard", "W1901A", {"GERMANY": ["A MUN", "A BER", "F KIE"]}, {"GERMANY": ["Remove A MUN", "Remove A MUN"]},
     {"centers": {"GERMANY": ["MUN"]}}, "REMOVE F KIE", "civil_disorder",
     "no removal ordered: removed by the civil disorder rule", {"kind": "civil_disorder_removal", "unit": "F KIE"}),
    ("standard", "W1901A", {"GERMANY": ["A MUN", "A BER", "F KIE"]},
     {"GERMANY": ["Remove A MUN", "Remove A MUN", "Remove F KIE"]}, {"centers": {"GERMANY": ["MUN"]}},
     "Remove F KIE", "ok", "removes F KIE", {"kind": "removed", "unit": "F KIE"}),
    ("smallworld8", "S01M", {"WESTERN_EUROPE": ["A SPA", "F WMS"], "ISLAM": ["A GRE"]},
     {"WESTERN_EUROPE": ["A SPA boards F WMS", "A/F WMS - EMS", "A disembarks GRE"]}, {},
     "A SPA boards F WMS", "ok", "boards the fleet at WMS: an A/F", {"kind": "boarded", "fleet": "WMS"}),
    ("smallworld8", "S01M", {"WESTERN_EUROPE": ["A SPA", "F WMS"], "ISLAM": ["A GRE"]},
     {"WESTERN_EUROPE": ["A SPA boards F WMS", "A/F WMS - EMS", "A disembarks GRE"]}, {},
     "A disembarks GRE", "bounce", "could not land (bounced: equal strength 1 vs 1 with A GRE): the army stays aboard",
     {"kind": "landing_failed", "stage": "land", "via": "EMS",
      "cause": {"kind": "bounced", "by": "GRE", "attack": 1, "opposing": 1, "against": "hold"}}),
    ("smallworld8", "S01M", {"WESTERN_EUROPE": ["A/F NWG"]}, {"WESTERN_EUROPE": ["A/F NWG - SCA"]}, {},
     "A/F NWG - SCA", "ok", "the army lands at SCA", {"kind": "landed", "at": "SCA"}),
]


def _run(variant: str, phase: str, units: dict[str, list[str]], orders: dict[str, list[str]],
         extra: dict[str, Any]) -> dict[str, Any]:
    result = jsonapi.adjudicate_request({"variant": variant, "phase": phase, "units": units, "orders": orders, **extra})
    assert "error" not in result, result
    return result


@pytest.mark.parametrize(
    ("variant", "phase", "units", "orders", "extra", "line", "reason", "explanation", "outcome"),
    ROWS, ids=[f"{r[5]}-{r[8]['kind']}" for r in ROWS],
)
def test_each_result_names_what_decided_it(
    variant: str, phase: str, units: dict[str, list[str]], orders: dict[str, list[str]], extra: dict[str, Any],
    line: str, reason: str, explanation: str, outcome: dict[str, Any],
) -> None:
    result = _run(variant, phase, units, orders, extra)
    [entry] = [o for o in result["orders"] if o["order"] == line][-1:]
    assert entry["reason"] == reason
    assert entry["explanation"] == explanation
    assert entry["outcome"] == outcome


def test_every_order_of_a_phase_has_an_outcome() -> None:
    for variant, phase, units, orders, extra, *_ in ROWS:
        for entry in _run(variant, phase, units, orders, extra)["orders"]:
            assert entry["outcome"]["kind"] in oc.OUTCOME_TYPES, entry


def test_least_impact_removal_is_its_own_outcome() -> None:
    units = {"WESTERN_EUROPE": ["A GER", "A SPA", "F BUR"]}
    result = _run("smallworld8", "W01A", units, {}, {"centers": {"WESTERN_EUROPE": ["GER"]}})
    removals = [o for o in result["orders"] if o.get("default")]
    assert len(removals) == 2
    for entry in removals:
        assert entry["reason"] == "least_impact"
        assert entry["outcome"]["kind"] == "least_impact_removal"
        assert entry["explanation"] == "no removal ordered: removed by the least-impact rule"


@pytest.mark.parametrize(
    ("outcome", "sentence"),
    [
        (oc.Bounced("MUN", 1, 2, "prevent"), "bounced: weaker, 1 vs 2 with A MUN"),
        (oc.Bounced("MUN", 2, 2, "head_to_head"), "bounced: equal strength 2 vs 2 with A MUN"),
        (oc.SupportCut(("MUN", "RUH")), "support cut by A MUN and A RUH"),
        (oc.SupportVoid("MUN"), "void: A MUN did not hold"),
        (oc.Moved("BUR", by_convoy=True), "moves by convoy to BUR"),
        (oc.LandingFailed("sea", oc.Bounced("MUN", 1, 1, "hold"), "NTH"),
         "the A/F could not reach NTH (bounced: equal strength 1 vs 1 with A MUN): the army stays aboard"),
        (oc.TooMany(-2, builds=False), "no removal left: 2 removals owed"),
    ],
)
def test_explanations_are_made_from_outcomes(outcome: oc.Outcome, sentence: str) -> None:
    assert explain(outcome, lambda province: f"A {province}") == sentence


def test_an_army_lost_to_rations_is_said_in_the_result() -> None:
    units = {"WESTERN_EUROPE": ["A/F NTH"]}
    lost = _run("smallworld8", "S02M", units, {"WESTERN_EUROPE": ["A/F NTH - NWG"]}, {"af_moves": {"NTH": 3}})
    [entry] = lost["orders"]
    assert entry["reason"] == "ok" and entry["result"] == "succeeds"
    assert entry["explanation"] == "moves to NWG; its army ran out of rations at sea and is lost"
    assert entry["outcome"] == {
        "kind": "army_starved", "then": {"kind": "moved", "to": "NWG", "by_convoy": False, "dislodged": None}
    }
    assert lost["units"] == {"WESTERN_EUROPE": ["F NWG"]}
    unordered = _run("smallworld8", "S02M", units, {}, {"af_moves": {"NTH": 3}})
    assert unordered["orders"][0]["explanation"] == (
        "no order received: the unit holds; its army ran out of rations at sea and is lost"
    )
    fed = _run("smallworld8", "S02M", units, {"WESTERN_EUROPE": ["A/F NTH - NWG"]}, {"af_moves": {"NTH": 2}})
    assert fed["orders"][0]["outcome"]["kind"] == "moved" and fed["units"] == {"WESTERN_EUROPE": ["A/F NWG"]}
