"""Order legality, row by row: DATC 4.E.1 (an illegal order is reported and its unit
holds), coasts, and the variant specials (Zeus 5 canals and land crossings, Small
World's A/F and protected India). Each row says why it is there."""

from __future__ import annotations

import pytest

from tests.engine._tables import Row, check, params

ILLEGAL_HOLDS = [  # DATC 4.E.1: the unit of an illegal order holds, and may be supported to hold
    Row("illegal-move-holds-with-support", "a unit ordered to a far province holds and receives hold support: "
        "the supported attack (2) bounces on hold (2)",
        {"FRANCE": ["A PAR", "A GAS"], "GERMANY": ["A BUR", "A PIC"]},
        {"FRANCE": ["A PAR - MOS", "A GAS S A PAR"], "GERMANY": ["A BUR - PAR", "A PIC S A BUR - PAR"]},
        {"A PAR - MOS": "invalid:illegal", "A GAS S A PAR": "succeeds", "A BUR - PAR": "fails:bounce"},
        after={"FRANCE": ["A PAR", "A GAS"], "GERMANY": ["A BUR", "A PIC"]}),
    Row("illegal-support-gives-nothing", "an illegal support adds no strength: the attack stays 1 vs 1",
        {"FRANCE": ["A PAR", "A MAR"], "GERMANY": ["A BUR"]},
        {"FRANCE": ["A PAR - PIC", "A MAR S A PAR - PIC"], "GERMANY": ["A BUR - PIC"]},
        {"A MAR S A PAR - PIC": "invalid:illegal", "A PAR - PIC": "fails:bounce", "A BUR - PIC": "fails:bounce"}),
    Row("foreign-unit", "a power may not order another power's unit; the unit holds",
        {"FRANCE": ["A PAR"]},
        {"GERMANY": ["A PAR - BUR"]},
        {"A PAR - BUR": "invalid:illegal"},
        after={"FRANCE": ["A PAR"]}),
    Row("no-such-unit", "an order for an empty province is refused",
        {"FRANCE": ["A PAR"]},
        {"FRANCE": ["A BUR - PAR"]},
        {"A BUR - PAR": "invalid:illegal"}),
    Row("wrong-unit-type", "DATC 4.C.2 choice b (docs/rules.md): a wrong unit type is ignored, the order stands",
        {"FRANCE": ["A PAR"]},
        {"FRANCE": ["F PAR - BUR"]},
        {"F PAR - BUR": "succeeds"},
        after={"FRANCE": ["A BUR"]}),
    Row("unreadable", "an order that cannot be read says so, with its own reason code",
        {"FRANCE": ["A PAR"]},
        {"FRANCE": ["A Par - Burgundi"]},
        {"A Par - Burgundi": "invalid:unreadable"},
        explains={"A Par - Burgundi": "Burgundy"}),
    Row("two-orders-one-unit", "a unit given two different orders holds (DATC 4.D.3): neither order is carried out",
        {"FRANCE": ["A PAR"]},
        {"FRANCE": ["A PAR - BUR", "A PAR - PIC"]},
        {"A PAR - BUR": "invalid:duplicate", "A PAR - PIC": "invalid:duplicate"},
        after={"FRANCE": ["A PAR"]}),
    Row("coastal-fleet-cannot-convoy", "only fleets at sea convoy: a fleet in a coastal province may not",
        {"FRANCE": ["A PIC", "F BRE"]},
        {"FRANCE": ["A PIC - LON", "F BRE C A PIC - LON"]},
        {"F BRE C A PIC - LON": "invalid:illegal"},
        after={"FRANCE": ["A PIC", "F BRE"]}),
    Row("army-to-sea", "an army never moves to a sea", {"FRANCE": ["A BRE"]}, {"FRANCE": ["A BRE - MAO"]},
        {"A BRE - MAO": "invalid:illegal"}),
    Row("fleet-inland", "a fleet never moves inland", {"FRANCE": ["F BRE"]}, {"FRANCE": ["F BRE - PAR"]},
        {"F BRE - PAR": "invalid:illegal"}),
    Row("no-shared-coast", "Apulia and Rome touch by land only: a fleet cannot pass", {"ITALY": ["F APU"]},
        {"ITALY": ["F APU - ROM"]}, {"F APU - ROM": "invalid:illegal"}),
    Row("retreat-order-in-movement", "a retreat order in a movement phase is refused, the unit holds",
        {"FRANCE": ["A PAR"]}, {"FRANCE": ["A PAR R BUR"]}, {"A PAR R BUR": "invalid:illegal"},
        after={"FRANCE": ["A PAR"]}),
]

COASTS = [
    Row("coast-needed", "from the Mid-Atlantic both coasts of Spain are reachable: the coast must be written",
        {"FRANCE": ["F MAO"]}, {"FRANCE": ["F MAO - SPA"]}, {"F MAO - SPA": "invalid:illegal"},
        explains={"F MAO - SPA": "coast"}),
    Row("coast-implied", "from Gascony only the north coast is reachable: no coast needed",
        {"FRANCE": ["F GAS"]}, {"FRANCE": ["F GAS - SPA"]}, {"F GAS - SPA": "succeeds"},
        after={"FRANCE": ["F SPA/NC"]}),
    Row("coast-unreachable", "the Western Mediterranean does not touch Spain's north coast",
        {"FRANCE": ["F WES"]}, {"FRANCE": ["F WES - SPA/NC"]}, {"F WES - SPA/NC": "invalid:illegal"},
        after={"FRANCE": ["F WES"]}),
    Row("coast-given", "a reachable coast written by the player is used",
        {"FRANCE": ["F WES"]}, {"FRANCE": ["F WES - SPA/SC"]}, {"F WES - SPA/SC": "succeeds"},
        after={"FRANCE": ["F SPA/SC"]}),
    Row("from-the-wrong-coast", "a fleet on St Petersburg's north coast cannot reach the Gulf of Bothnia",
        {"RUSSIA": ["F STP/NC"]}, {"RUSSIA": ["F STP/NC - BOT"]}, {"F STP/NC - BOT": "invalid:illegal"}),
    Row("army-ignores-coasts", "an army moves into a two-coast province without any coast",
        {"FRANCE": ["A GAS"]}, {"FRANCE": ["A GAS - SPA"]}, {"A GAS - SPA": "succeeds"},
        after={"FRANCE": ["A SPA"]}),
    Row("support-to-a-coast-province", "a fleet supports into a province it reaches by its own coast; the "
        "supported coast does not matter for a support given without one (DATC 4.B.4)",
        {"FRANCE": ["F MAO", "F POR"], "ITALY": ["F WES"]},
        {"FRANCE": ["F MAO - SPA/NC", "F POR S F MAO - SPA"], "ITALY": ["F WES - SPA/SC"]},
        {"F POR S F MAO - SPA": "succeeds", "F MAO - SPA/NC": "succeeds", "F WES - SPA/SC": "fails:bounce"},
        after={"FRANCE": ["F SPA/NC", "F POR"], "ITALY": ["F WES"]}),
]

ZEUS5 = [
    Row("canal-no-direct-crossing", "rule 5: no sea-to-sea move across Suez; the fleet goes through Egypt",
        {"ITALY": ["F EMS"]}, {"ITALY": ["F EMS - INO"]}, {"F EMS - INO": "invalid:illegal"},
        variant="zeus5", phase="S1940M"),
    Row("canal-exit-either-side", "rule 5: a fleet in the Kiel canal (Hamburg) leaves to either sea",
        {"GERMANY": ["F HAM"]}, {"GERMANY": ["F HAM - BAL"]}, {"F HAM - BAL": "succeeds"},
        after={"GERMANY": ["F BAL"]}, variant="zeus5", phase="S1940M"),
    Row("canal-support-pacific", "rule 5: a fleet in Panama supports into the Pacific side",
        {"USA": ["F PAN", "F HAW"], "JAPAN": ["F SOL"]},
        {"USA": ["F PAN S F HAW - SPO", "F HAW - SPO"], "JAPAN": ["F SOL - SPO"]},
        {"F PAN S F HAW - SPO": "succeeds", "F HAW - SPO": "succeeds", "F SOL - SPO": "fails:bounce"},
        variant="zeus5", phase="S1940M"),
    Row("canal-support-atlantic", "rule 5: ... and into the Atlantic side",
        {"USA": ["F PAN", "F MAO"], "ITALY": ["F WMS"]},
        {"USA": ["F PAN S F MAO - SAO", "F MAO - SAO"], "ITALY": ["F WMS - SAO"]},
        {"F PAN S F MAO - SAO": "succeeds", "F MAO - SAO": "succeeds", "F WMS - SAO": "fails:bounce"},
        variant="zeus5", phase="S1940M"),
    Row("land-crossing-army", "rule 6: armies cross Denmark-Sweden", {"GERMANY": ["A DEN"]},
        {"GERMANY": ["A DEN - SWE"]}, {"A DEN - SWE": "succeeds"}, variant="zeus5", phase="S1940M"),
    Row("no-north-sea-baltic", "rule 6: no fleet passage North Sea-Baltic except through Denmark",
        {"BRITAIN": ["F NTH"]}, {"BRITAIN": ["F NTH - BAL"]}, {"F NTH - BAL": "invalid:illegal"},
        variant="zeus5", phase="S1940M"),
    Row("no-greece-turkey", "rule 6: Greece and Turkey do not border", {"ITALY": ["A GRE"]},
        {"ITALY": ["A GRE - TUR"]}, {"A GRE - TUR": "invalid:illegal"}, variant="zeus5", phase="S1940M"),
    Row("india-standing-army-holds", "rule 10: the standing army in India holds against an unsupported attack",
        {"NEUTRAL": ["A IND"], "BRITAIN": ["A BRM"]}, {"BRITAIN": ["A BRM - IND"]},
        {"A BRM - IND": "fails:bounce"}, after={"NEUTRAL": ["A IND"], "BRITAIN": ["A BRM"]},
        variant="zeus5", phase="S1940M"),
]

SMALL_WORLD = [
    Row("india-protected-01", "rule 5.1: no attack on India in year 01, and no support of one",
        {"NEUTRAL": ["A IND"], "ISLAM": ["A PAK", "A AFG"]},
        {"ISLAM": ["A PAK - IND", "A AFG S A PAK - IND"]},
        {"A PAK - IND": "invalid:illegal", "A AFG S A PAK - IND": "invalid:illegal"},
        after={"NEUTRAL": ["A IND"], "ISLAM": ["A PAK", "A AFG"]}, variant="smallworld8", phase="F01M"),
    Row("india-hold-support-01", "rule 5.1 forbids attacks only: a support to hold next to India stays legal",
        {"ISLAM": ["A PAK", "A AFG"]}, {"ISLAM": ["A AFG S A PAK"]}, {"A AFG S A PAK": "succeeds"},
        variant="smallworld8", phase="F01M"),
    Row("india-open-02", "rule 5.1: from year 02 India may be attacked; two armies take it",
        {"NEUTRAL": ["A IND"], "ISLAM": ["A PAK", "A AFG"]},
        {"ISLAM": ["A PAK - IND", "A AFG S A PAK - IND"]},
        {"A PAK - IND": "succeeds", "A AFG S A PAK - IND": "succeeds"},
        after={"ISLAM": ["A IND", "A AFG"]}, variant="smallworld8", phase="S02M"),
    Row("af-cannot-convoy", "rule 10: an A/F moves and supports as a fleet but cannot convoy",
        {"WESTERN_EUROPE": ["A/F WMS", "A SPA"]},
        {"WESTERN_EUROPE": ["A/F WMS C A SPA - ALG", "A SPA - ALG"]},
        {"A/F WMS C A SPA - ALG": "invalid:illegal"},
        variant="smallworld8", phase="S02M"),
    Row("af-supports-as-fleet", "rule 10: an A/F gives a fleet's support",
        {"WESTERN_EUROPE": ["A/F WMS", "F MAO"], "ISLAM": ["F SPA"]},
        {"WESTERN_EUROPE": ["F MAO - SPA", "A/F WMS S F MAO - SPA"], "ISLAM": ["F SPA H"]},
        {"A/F WMS S F MAO - SPA": "succeeds", "F MAO - SPA": "succeeds", "F SPA H": "fails:dislodged"},
        variant="smallworld8", phase="S02M"),
    Row("af-no-canal", "rule 10.1: no A/F through the Suez canal (Eastern Med-Red Sea)",
        {"WESTERN_EUROPE": ["A/F EMS"]}, {"WESTERN_EUROPE": ["A/F EMS - RED"]}, {"A/F EMS - RED": "invalid:illegal"},
        after={"WESTERN_EUROPE": ["A/F EMS"]}, variant="smallworld8", phase="S02M"),
    Row("af-landing-bounces", "a landing that bounces leaves the army aboard: the A/F stays whole",
        {"WESTERN_EUROPE": ["A/F NWG"], "RUSSIA": ["A SCA"]},
        {"WESTERN_EUROPE": ["A/F NWG - SCA"], "RUSSIA": ["A SCA H"]},
        {"A/F NWG - SCA": "fails:bounce", "A SCA H": "succeeds"},
        after={"WESTERN_EUROPE": ["A/F NWG"], "RUSSIA": ["A SCA"]}, variant="smallworld8", phase="S02M"),
]


@pytest.mark.parametrize("row", params(ILLEGAL_HOLDS))
def test_illegal_orders_hold(row: Row) -> None:
    check(row)


@pytest.mark.parametrize("row", params(COASTS))
def test_coasts(row: Row) -> None:
    check(row)


@pytest.mark.parametrize("row", params(ZEUS5))
def test_zeus5_specials(row: Row) -> None:
    check(row)


@pytest.mark.parametrize("row", params(SMALL_WORLD))
def test_small_world_specials(row: Row) -> None:
    check(row)


def test_a_remembered_legal_order_is_not_legal_once_the_unit_belongs_to_another_power() -> None:
    """The legality memo once ignored who owns the unit: France's `A BUR - PIC`, legal while
    the army in Burgundy was French, stayed legal after a German army took Burgundy."""
    from app import jsonapi

    state = jsonapi.initial_state("standard")
    state["phase"] = "F1901M"
    state["units"] = {**state["units"], "FRANCE": ["A BUR", "A MAR", "F BRE"]}
    assert jsonapi.check_orders(state, "FRANCE", ["A BUR - PIC"])[0]["ok"]
    state["units"] = {**state["units"], "FRANCE": ["A MAR", "F BRE"], "GERMANY": ["A BUR", "A RUH", "F KIE"]}
    (check,) = jsonapi.check_orders(state, "FRANCE", ["A BUR - PIC"])
    assert not check["ok"] and "not yours" in check["error"]
    result = jsonapi.adjudicate_request({**state, "orders": {"FRANCE": ["A BUR - PIC"], "GERMANY": ["A BUR H"]}})
    assert [(o["result"], o["reason"]) for o in result["orders"] if o["order"] == "A BUR - PIC"] == [("invalid", "illegal")]
