"""Small World II-R (7 and 8 players): the seed rules as positions and orders through
app.jsonapi.adjudicate_request. The seed is /work/shared/seeds/small-world-II-R-rules.txt
("rule N", "Clarification N"); the A/F module is
/work/shared/reference/smallworld/AF-module.md; the map is variants/smallworld/variant.toml.

Each table says what must succeed and what must fail.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from app import jsonapi
from tests.variants._play import (
    adjudicate,
    centre_count,
    centres_of,
    entry,
    outcome,
    owner_of,
)

EIGHT, SEVEN = "smallworld8", "smallworld7"
BOTH = [EIGHT, SEVEN]

# rule 2: units by power, as (type, province); Peking may be A or F (rule 6.2)
SEED_UNITS = {
    "NORTH_AMERICA": {("F", "NYK"), ("F", "CAL"), ("A", "TEX")},
    "AFRICA": {("F", "SAF"), ("A", "ETH"), ("A", "NIG")},
    "CHINA": {("F", "CAN"), ("A", "MUK"), ("?", "PEK")},
    "ISLAM": {("F", "ARA"), ("F", "EGY"), ("A", "PER")},
    "RUSSIA": {("F", "LEN"), ("F", "VLA"), ("A", "MOS"), ("A", "SAM"), ("A", "IRK")},
    "SOUTH_AMERICA": {("F", "LAP"), ("F", "PRU"), ("A", "BRA")},
    "WESTERN_EUROPE": {("F", "FRA"), ("A", "GER"), ("A", "SPA"), ("F", "BUR")},
    "PACIFIC_EMPIRE": {("F", "JAP"), ("F", "NZL"), ("F", "SYD")},
}


def _as_pairs(units: list[str]) -> set[tuple[str, str]]:
    pairs = set()
    for unit in units:
        kind, where = unit.split(" ", 1)
        province = where.split("/")[0]
        pairs.add(("?" if province == "PEK" else kind, province))
    return pairs


# -- rules 2, 4, 15: the two set-ups ---------------------------------------------------


@pytest.mark.parametrize(
    "variant, powers, neutral, centres, homes, to_win",
    [
        (EIGHT, 8, {("A", "IND"), ("A", "HAW")}, 48, 27, 24),
        (SEVEN, 7, {("A", "IND"), ("A", "JAP")}, 46, 24, 23),
    ],
)
def test_rules_2_4_15_start_positions(variant, powers, neutral, centres, homes, to_win):
    state = jsonapi.initial_state(variant)
    info = jsonapi.variant_info(variant)
    assert len(info["powers"]) == powers
    assert info["victory_centres"] == to_win
    assert centre_count(variant) == centres
    assert sum(len(c) for c in state["centers"].values()) == homes
    expected = {p: u for p, u in SEED_UNITS.items() if variant == EIGHT or p != "PACIFIC_EMPIRE"}
    got = {p: _as_pairs(u) for p, u in state["units"].items() if p != "NEUTRAL"}
    assert got == expected
    assert _as_pairs(state["units"]["NEUTRAL"]) == neutral
    assert state["phase"] == "S01M"


def test_rule15_seven_players_centres():
    eight, seven = set(centres_of(EIGHT)), set(centres_of(SEVEN))
    assert eight - seven == {"ANT", "HAW"}          # 15.3: ordinary spaces with 7 players
    assert {"JAP", "NZL", "SYD"} <= seven            # 15.1, 15.2: neutral centres
    state = jsonapi.initial_state(SEVEN)
    owned = {c for cs in state["centers"].values() for c in cs}
    assert not owned & {"JAP", "NZL", "SYD"}


# -- rule 6.1, 6.2: the secret starting choices, disclosed with the Spring 01 orders ---------


@pytest.mark.parametrize("variant", BOTH)
@pytest.mark.parametrize(
    "power, line, after",
    [
        ("ISLAM", "F ARA/WC - RED", "F RED"),       # the Arabia fleet turns out to be on the west coast
        ("ISLAM", "F ARA/EC - ARB", "F ARB"),
        ("RUSSIA", "F LEN/NC - NWG", "F NWG"),
        ("RUSSIA", "F LEN/SC - BAL", "F BAL"),
        ("WESTERN_EUROPE", "F FRA/SC - WMS", "F WMS"),
        ("WESTERN_EUROPE", "F FRA/NC - NTH", "F NTH"),
        ("CHINA", "F PEK - YEL", "F YEL"),          # the Peking unit turns out to be a fleet
        ("CHINA", "A PEK - MON", "A MON"),
    ],
)
def test_rule6_hidden_choices_made_with_spring_01_orders(variant, power, line, after):
    state = jsonapi.initial_state(variant)
    r = jsonapi.adjudicate_request({**state, "orders": {power: [line]}})
    assert outcome(r, line) == "succeeds", entry(r, line)
    assert after in r["units"][power]


@pytest.mark.parametrize(
    "units, line",
    [
        (["F ARA/EC"], "F ARA/WC - RED"),   # after Spring 01 the coast is fixed
        (["F LEN/SC"], "F LEN/NC - NWG"),
        (["A PEK"], "F PEK - YEL"),          # ... and so is the unit type
    ],
)
def test_rule6_choices_are_fixed_after_spring_01(units, line):
    power = "CHINA"
    r = adjudicate(EIGHT, "S02M", {power: units}, {power: [line]})
    assert outcome(r, line) == "invalid", entry(r, line)
    assert r["units"][power] == units


# -- rule 3: phase names ---------------------------------------------------------------


@pytest.mark.parametrize("variant", BOTH)
def test_rule3_phase_names(variant):
    state = jsonapi.initial_state(variant)
    assert state["phase"] == "S01M"
    assert jsonapi.describe_phase("S01M", variant).startswith("Spring 01")
    r = jsonapi.adjudicate_request({**state, "orders": {}})
    assert r["phase"] == "S01M" and r["next_phase"] == "F01M"
    r = jsonapi.adjudicate_request({**jsonapi.next_state(r, variant), "orders": {"WESTERN_EUROPE": ["A SPA - MOR"]}})
    assert outcome(r, "A SPA - MOR") == "succeeds"
    assert r["next_phase"] == "W01A"                  # Western Europe gained Morocco
    r = jsonapi.adjudicate_request({**jsonapi.next_state(r, variant), "orders": {}})
    assert r["next_phase"] == "S02M"
    assert jsonapi.describe_phase("W01A", variant).startswith("Winter 01")


# -- rule 5: standing armies; no attack on India in 01 -------------------------------------


@pytest.mark.parametrize("variant", BOTH)
@pytest.mark.parametrize("phase, legal", [("S01M", False), ("F01M", False), ("S02M", True), ("F05M", True)])
def test_rule5_1_no_attack_on_india_in_year_01(variant, phase, legal):
    units = {"NEUTRAL": ["A IND"], "ISLAM": ["A PAK", "A AFG"], "WESTERN_EUROPE": ["F BOB"]}
    orders = {"ISLAM": ["A PAK - IND", "A AFG S A PAK - IND"], "WESTERN_EUROPE": ["F BOB S A PAK - IND"]}
    r = adjudicate(variant, phase, units, orders)
    if legal:
        assert outcome(r, "A PAK - IND") == "succeeds"
        assert outcome(r, "A AFG S A PAK - IND") == "succeeds"
        assert owner_of(r, "IND") == ("ISLAM", "A IND")
        assert not r["dislodged"]                   # the standing army never retreats
    else:
        for line in orders["ISLAM"] + orders["WESTERN_EUROPE"]:
            assert outcome(r, line) == "invalid", entry(r, line)
        assert owner_of(r, "IND") == ("NEUTRAL", "A IND")


@pytest.mark.parametrize("variant", BOTH)
def test_rule5_1_unsupported_attack_on_india_bounces_in_02(variant):
    units = {"NEUTRAL": ["A IND"], "ISLAM": ["A PAK"]}
    r = adjudicate(variant, "S02M", units, {"ISLAM": ["A PAK - IND"]})
    assert outcome(r, "A PAK - IND") == "fails"
    assert owner_of(r, "IND") == ("NEUTRAL", "A IND")


def test_rule5_2_hawaii_may_be_attacked_in_01():
    units = {"NEUTRAL": ["A HAW"], "NORTH_AMERICA": ["F NPO", "F SPO"]}
    orders = {"NORTH_AMERICA": ["F NPO - HAW", "F SPO S F NPO - HAW"]}
    r = adjudicate(EIGHT, "S01M", units, orders)
    assert outcome(r, "F NPO - HAW") == "succeeds"
    assert owner_of(r, "HAW") == ("NORTH_AMERICA", "F HAW")
    assert not r["dislodged"]
    assert r["next_phase"] == "F01M"


def test_rule15_1_japan_standing_army_with_seven_players():
    units = {"NEUTRAL": ["A JAP"], "CHINA": ["F ECS", "F SOJ"]}
    r = adjudicate(SEVEN, "S02M", units, {"CHINA": ["F ECS - JAP"]})
    assert outcome(r, "F ECS - JAP") == "fails"
    r = adjudicate(SEVEN, "S02M", units, {"CHINA": ["F ECS - JAP", "F SOJ S F ECS - JAP"]})
    assert outcome(r, "F ECS - JAP") == "succeeds"
    assert owner_of(r, "JAP") == ("CHINA", "F JAP")
    assert not r["dislodged"]


def test_rule5_standing_army_taken_in_fall_is_owned():
    units = {"NEUTRAL": ["A IND"], "ISLAM": ["A PAK", "A AFG"]}
    r = adjudicate(EIGHT, "F02M", units, {"ISLAM": ["A PAK - IND", "A AFG S A PAK - IND"]},
                   centers={"ISLAM": ["ARA", "EGY", "PER"]})
    assert "IND" in r["centers"]["ISLAM"]


# -- rules 5, 6, 15.4: build rights ----------------------------------------------------------

BUILDS = [
    # (variant, power, units, centres, order, legal)
    (EIGHT, "RUSSIA", ["A MOS", "A SAM", "A IRK", "F VLA", "F LEN/SC"], ["LEN", "VLA", "MOS", "SAM", "IRK", "SCA"], "BUILD F UKR", True),
    (EIGHT, "RUSSIA", ["A MOS", "A SAM", "A IRK", "F VLA", "F LEN/SC"], ["LEN", "VLA", "MOS", "SAM", "IRK", "SCA"], "BUILD A UKR", False),
    (SEVEN, "RUSSIA", ["A MOS", "A SAM", "A IRK", "F VLA", "F LEN/SC"], ["LEN", "VLA", "MOS", "SAM", "IRK", "SCA"], "BUILD F UKR", True),
    (EIGHT, "NORTH_AMERICA", ["F NYK", "F CAL", "A TEX"], ["NYK", "CAL", "TEX", "MEX"], "BUILD F ONT", True),
    (EIGHT, "NORTH_AMERICA", ["F NYK", "F CAL", "A TEX"], ["NYK", "CAL", "TEX", "MEX"], "BUILD A ONT", False),
    (EIGHT, "CHINA", ["F CAN", "A MUK", "A PEK"], ["CAN", "MUK", "PEK", "KOR"], "BUILD A SIN", True),
    (EIGHT, "CHINA", ["F CAN", "A MUK", "A PEK"], ["CAN", "MUK", "PEK", "KOR"], "BUILD F SIN", False),
    (EIGHT, "RUSSIA", ["A MOS", "A SAM", "A IRK", "F VLA", "F LEN/SC"], ["LEN", "VLA", "MOS", "SAM", "IRK", "SCA"], "BUILD A SIN", False),
    (EIGHT, "WESTERN_EUROPE", ["F FRA/NC", "A GER", "A SPA"], ["FRA", "GER", "SPA", "ENG"], "BUILD F ENG", True),
    (EIGHT, "WESTERN_EUROPE", ["F FRA/NC", "A GER", "A SPA"], ["FRA", "GER", "SPA", "ENG"], "BUILD A ENG", True),
    (SEVEN, "WESTERN_EUROPE", ["F FRA/NC", "A GER", "A SPA"], ["FRA", "GER", "SPA", "ENG"], "BUILD F ENG", True),
    (EIGHT, "WESTERN_EUROPE", ["F FRA/NC", "A GER", "A SPA"], ["FRA", "GER", "SPA", "ENG", "BEN"], "BUILD F BUR", False),
    (EIGHT, "WESTERN_EUROPE", ["A GER", "A SPA"], ["FRA", "GER", "SPA", "ENG"], "BUILD F FRA", False),
    (EIGHT, "WESTERN_EUROPE", ["A GER", "A SPA"], ["FRA", "GER", "SPA", "ENG"], "BUILD F FRA/SC", True),
    (EIGHT, "ISLAM", ["F EGY", "A PER"], ["ARA", "EGY", "PER", "TUR"], "BUILD F TUR", True),
    (EIGHT, "ISLAM", ["F EGY", "A PER"], ["ARA", "EGY", "PER", "TUR"], "BUILD A TUR", True),
    (SEVEN, "ISLAM", ["F EGY", "A PER"], ["ARA", "EGY", "PER", "TUR"], "BUILD A TUR", True),
    (EIGHT, "ISLAM", ["F EGY", "A PER"], ["ARA", "EGY", "PER", "GRE"], "BUILD A TUR", False),
    (EIGHT, "ISLAM", ["F EGY", "A PER"], ["ARA", "EGY", "PER", "TUR"], "BUILD F ARA", False),
    (EIGHT, "ISLAM", ["F EGY", "A PER"], ["ARA", "EGY", "PER", "TUR"], "BUILD F ARA/WC", True),
    (EIGHT, "RUSSIA", ["A MOS", "A SAM", "A IRK", "F VLA"], ["LEN", "VLA", "MOS", "SAM", "IRK"], "BUILD F LEN", False),
    (EIGHT, "RUSSIA", ["A MOS", "A SAM", "A IRK", "F VLA"], ["LEN", "VLA", "MOS", "SAM", "IRK"], "BUILD F LEN/NC", True),
    (EIGHT, "AFRICA", ["F SAF", "A ETH", "A NIG"], ["SAF", "ETH", "NIG", "TUR"], "BUILD A TUR", False),
    # whoever owns India (Hawaii with 8 players, Japan with 7) may build there
    (EIGHT, "CHINA", ["F CAN", "A MUK", "A PEK"], ["CAN", "MUK", "PEK", "IND"], "BUILD A IND", True),
    (SEVEN, "AFRICA", ["F SAF", "A ETH", "A NIG"], ["SAF", "ETH", "NIG", "IND"], "BUILD F IND", True),
    (EIGHT, "RUSSIA", ["A MOS", "A SAM", "A IRK", "F VLA", "F LEN/SC"], ["LEN", "VLA", "MOS", "SAM", "IRK", "SCA"], "BUILD A IND", False),
    (EIGHT, "SOUTH_AMERICA", ["F LAP", "F PRU", "A BRA"], ["LAP", "PRU", "BRA", "HAW"], "BUILD F HAW", True),
    (EIGHT, "NORTH_AMERICA", ["F NYK", "F CAL", "A TEX"], ["NYK", "CAL", "TEX", "HAW"], "BUILD A HAW", True),
    (SEVEN, "NORTH_AMERICA", ["F NYK", "F CAL", "A TEX"], ["NYK", "CAL", "TEX", "MEX"], "BUILD F HAW", False),
    (SEVEN, "CHINA", ["F CAN", "A MUK", "A PEK"], ["CAN", "MUK", "PEK", "JAP"], "BUILD F JAP", True),
    (EIGHT, "CHINA", ["F CAN", "A MUK", "A PEK"], ["CAN", "MUK", "PEK", "JAP"], "BUILD F JAP", False),
    # 15.4: Alaska, a North American home centre while NA owns it, with 7 players only
    (SEVEN, "NORTH_AMERICA", ["F NYK", "F CAL", "A TEX"], ["NYK", "CAL", "TEX", "ALA"], "BUILD F ALA", True),
    (SEVEN, "NORTH_AMERICA", ["F NYK", "F CAL", "A TEX"], ["NYK", "CAL", "TEX", "ALA"], "BUILD A ALA", True),
    (EIGHT, "NORTH_AMERICA", ["F NYK", "F CAL", "A TEX"], ["NYK", "CAL", "TEX", "ALA"], "BUILD F ALA", False),
    (SEVEN, "SOUTH_AMERICA", ["F LAP", "F PRU", "A BRA"], ["LAP", "PRU", "BRA", "ALA"], "BUILD F ALA", False),
]


@pytest.mark.parametrize(
    "variant, power, units, centers, line, legal", BUILDS, ids=[f"{b[0]}-{b[1]}-{b[4]}" for b in BUILDS]
)
def test_rules_5_6_15_build_rights(variant, power, units, centers, line, legal):
    r = adjudicate(variant, "W01A", {power: units}, {power: [line]}, centers={power: centers})
    unit = line.split(" ", 1)[1]
    if legal:
        assert outcome(r, line) == "succeeds", entry(r, line)
        assert unit in r["units"][power]
    else:
        assert outcome(r, line) == "invalid", entry(r, line)
        assert unit not in r["units"].get(power, [])


# -- rules 7, 8, 13, 14 and the clarifications: movement ------------------------------------

MOVES = [
    # rule 7: canals, whoever holds Egypt/Arabia or Central America/Colombia
    ("F EMS", "F EMS - RED", True),
    ("F RED", "F RED - EMS", True),
    ("F CAR", "F CAR - GAL", True),
    ("F GAL", "F GAL - CAR", True),
    ("F EMS", "F EMS - EGY", True),
    ("F EGY", "F EGY - RED", True),
    ("F CAM", "F CAM - GAL", True),
    ("F COL", "F COL - CAR", True),
    ("F EMS", "F EMS - BLA", False),            # Clarification 3
    ("F BLA", "F BLA - EMS", False),
    ("F EMS", "F EMS - TUR", True),             # Turkey on both sides of the straits
    ("F TUR", "F TUR - BLA", True),
    # rule 8: direct passages, armies and fleets
    ("A SPA", "A SPA - MOR", True),
    ("A MOR", "A MOR - SPA", True),
    ("F SPA", "F SPA - MOR", True),
    ("A ETH", "A ETH - ADE", True),
    ("A ADE", "A ADE - ETH", True),
    ("F ETH", "F ETH - ADE", True),
    ("A MAL", "A MAL - INO", True),
    ("A INO", "A INO - MAL", True),
    ("F INO", "F INO - MAL", True),
    ("A GER", "A GER - SCA", True),
    ("A SCA", "A SCA - GER", True),
    ("F GER", "F GER - SCA", True),
    # ... without affecting the seas beside them
    ("F WMS", "F WMS - MAO", True),
    ("F MAO", "F MAO - WMS", True),
    ("F RED", "F RED - ARB", True),
    ("F ARB", "F ARB - RED", True),
    ("F BOB", "F BOB - SCS", True),
    ("F SCS", "F SCS - BOB", True),
    ("F NTH", "F NTH - BAL", True),
    ("F BAL", "F BAL - NTH", True),
    # rule 14: coastal crawls
    ("F LEN/NC", "F LEN/NC - SCA", True),
    ("F SCA", "F SCA - LEN/SC", True),
    ("F QUE", "F QUE - NFL", True),
    ("F ARA/WC", "F ARA/WC - ADE", True),
    ("F ARA/EC", "F ARA/EC - ADE", True),
    ("F FRA/NC", "F FRA/NC - SPA", True),
    ("F FRA/SC", "F FRA/SC - SPA", True),
    ("F SIA", "F SIA - MAL", True),
    # Clarifications 2 and 3
    ("A AFG", "A AFG - IND", True),
    ("A PAK", "A PAK - SIN", False),
    ("F ALA", "F ALA - KAM", False),
    ("A PRU", "A PRU - VEN", False),
    # rule 13: the north is impassable
    ("F NWG", "F NWG - ARC", False),
    ("A LEN", "A LEN - ARC", False),
]


@pytest.mark.parametrize("variant", BOTH)
@pytest.mark.parametrize("unit, line, legal", MOVES, ids=[m[1] for m in MOVES])
def test_rules_7_8_13_14_moves(variant, unit, line, legal):
    start = unit.split()[1].split("/")[0]
    target = line.split(" - ")[1].split("/")[0]
    units = {"WESTERN_EUROPE": [unit]}
    if line in ("F EMS - RED", "F RED - EMS", "F EMS - EGY"):
        units["AFRICA"] = ["A ARA"]               # a foreign army beside the canal
    if line in ("F EMS - RED", "F RED - EMS"):
        units["CHINA"] = ["A EGY"]                # ... and one in Egypt itself
    if line in ("F CAR - GAL", "F GAL - CAR"):
        units["AFRICA"] = ["A CAM", "A COL"]
    r = adjudicate(variant, "S02M", units, {"WESTERN_EUROPE": [line]})
    if legal:
        assert outcome(r, line) == "succeeds", entry(r, line)
        owner = owner_of(r, target)
    else:
        assert outcome(r, line) == "invalid", entry(r, line)
        owner = owner_of(r, start)
    assert owner is not None and owner[0] == "WESTERN_EUROPE"


def test_rule8_support_across_a_direct_passage():
    units = {"AFRICA": ["A MOR"], "ISLAM": ["A ALG", "A SPA"]}
    orders = {"ISLAM": ["A ALG - MOR", "A SPA S A ALG - MOR"]}
    r = adjudicate(EIGHT, "S02M", units, orders)
    assert outcome(r, "A SPA S A ALG - MOR") == "succeeds"
    assert outcome(r, "A ALG - MOR") == "succeeds"
    assert owner_of(r, "MOR") == ("ISLAM", "A MOR")


# -- rules 9 and 10: Fast Ferry and the A/F ---------------------------------------------------


@pytest.mark.parametrize(
    "units, orders, mover",
    [
        ({"WESTERN_EUROPE": ["A SPA", "F WMS"]}, {"WESTERN_EUROPE": ["A SPA - ALG", "F WMS Fast Ferry A SPA - ALG"]}, "WESTERN_EUROPE"),
        ({"WESTERN_EUROPE": ["A SPA", "F WMS"]}, {"WESTERN_EUROPE": ["A SPA - ALG", "F WMS C A SPA - ALG"]}, "WESTERN_EUROPE"),
        # a fleet may ferry another power's army (module rule 1)
        ({"ISLAM": ["A SPA"], "WESTERN_EUROPE": ["F WMS"]}, {"ISLAM": ["A SPA - ALG"], "WESTERN_EUROPE": ["F WMS Fast Ferry A SPA - ALG"]}, "ISLAM"),
    ],
)
def test_rule9_fast_ferry_across_one_sea(units, orders, mover):
    r = adjudicate(EIGHT, "S02M", units, orders)
    assert outcome(r, "A SPA - ALG") == "succeeds", entry(r, "A SPA - ALG")
    assert owner_of(r, "ALG") == (mover, "A ALG")
    assert owner_of(r, "SPA") is None


@pytest.mark.parametrize(
    "units, orders",
    [
        # no fleet at all: an army never crosses a sea by itself
        ({"WESTERN_EUROPE": ["A SPA"]}, {"WESTERN_EUROPE": ["A SPA - ALG"]}),
        ({"WESTERN_EUROPE": ["A FRA"]}, {"WESTERN_EUROPE": ["A FRA - ENG"]}),
        # two seas by ordinary convoy: only an A/F may do that (rule 10)
        ({"WESTERN_EUROPE": ["A SPA", "F WMS", "F EMS"]},
         {"WESTERN_EUROPE": ["A SPA - EGY", "F WMS C A SPA - EGY", "F EMS C A SPA - EGY"]}),
        ({"WESTERN_EUROPE": ["A SPA", "F WMS", "F EMS"]},
         {"WESTERN_EUROPE": ["A SPA - EGY", "F WMS Fast Ferry A SPA - EGY", "F EMS Fast Ferry A SPA - EGY"]}),
        ({"WESTERN_EUROPE": ["A SPA", "F MAO", "F NTH"]},
         {"WESTERN_EUROPE": ["A SPA - SCA", "F MAO C A SPA - SCA", "F NTH C A SPA - SCA"]}),
    ],
)
def test_rules_9_10_no_crossing_without_ferry_or_af(units, orders):
    army_order = orders["WESTERN_EUROPE"][0]
    start = army_order.split()[1]
    target = army_order.split(" - ")[1]
    r = adjudicate(EIGHT, "S02M", units, orders)
    assert outcome(r, army_order) != "succeeds", entry(r, army_order)
    assert owner_of(r, start) == ("WESTERN_EUROPE", f"A {start}")
    assert owner_of(r, target) is None


@pytest.mark.parametrize(
    "variant, units, orders, after",
    [
        # boarding: army and fleet become one A/F at sea
        (EIGHT, ["A SPA", "F MAO"], ["A SPA boards F MAO"], {"A/F MAO"}),
        (EIGHT, ["A SPA", "F MAO"], ["A Spain boards F Mid-Atlantic"], {"A/F MAO"}),
        # board, sail, land in one move (Davis's example)
        (EIGHT, ["A SPA", "F WMS"], ["A SPA boards F WMS", "A/F WMS - EMS", "A disembarks GRE"], {"A GRE", "F EMS"}),
        # an A/F moves like a fleet, across any sea border
        (EIGHT, ["A/F NTH"], ["A/F NTH - NWG"], {"A/F NWG"}),
        (EIGHT, ["A/F NTH"], ["A/F NTH - BAL"], {"A/F BAL"}),       # rule 10.2
        (EIGHT, ["A/F BAL"], ["A/F BAL - NTH"], {"A/F NTH"}),
        (EIGHT, ["A/F WMS"], ["A/F WMS - MAO"], {"A/F MAO"}),       # beside a direct passage
        (EIGHT, ["A/F RED"], ["A/F RED - ARB"], {"A/F ARB"}),
        (EIGHT, ["A/F BOB"], ["A/F BOB - SCS"], {"A/F SCS"}),
        # landing, in the three accepted forms
        (EIGHT, ["A/F NWG"], ["A/F NWG disembarks SCA"], {"A SCA", "F NWG"}),
        (EIGHT, ["A/F NWG"], ["A disembarks SCA"], {"A SCA", "F NWG"}),
        (EIGHT, ["A/F NWG"], ["A/F NWG - SCA"], {"A SCA", "F NWG"}),
        # the army may land in Indonesia (the A/F itself may not stand there)
        (EIGHT, ["A/F BOB"], ["A/F BOB - INO"], {"A INO", "F BOB"}),
        # rule 10.3: an A/F may operate in Hawaii (an ordinary space with 7 players)
        (SEVEN, ["A/F NPO"], ["A/F NPO - HAW"], {"A/F HAW"}),
        (SEVEN, ["A/F HAW"], ["A/F HAW - SPO"], {"A/F SPO"}),
        (SEVEN, ["A/F HAW"], ["A/F HAW H"], {"A/F HAW"}),
    ],
)
def test_rule10_army_fleet_succeeds(variant, units, orders, after):
    r = adjudicate(variant, "S02M", {"WESTERN_EUROPE": units}, {"WESTERN_EUROPE": orders})
    for line in orders:
        assert outcome(r, line) == "succeeds", entry(r, line)
    assert set(r["units"]["WESTERN_EUROPE"]) == after


@pytest.mark.parametrize(
    "variant, units, orders, line, stays",
    [
        # rule 10.1: no A/F through the canals
        (EIGHT, {"WESTERN_EUROPE": ["A/F EMS"]}, {"WESTERN_EUROPE": ["A/F EMS - RED"]}, "A/F EMS - RED", "A/F EMS"),
        (EIGHT, {"WESTERN_EUROPE": ["A/F RED"]}, {"WESTERN_EUROPE": ["A/F RED - EMS"]}, "A/F RED - EMS", "A/F RED"),
        (EIGHT, {"WESTERN_EUROPE": ["A/F CAR"]}, {"WESTERN_EUROPE": ["A/F CAR - GAL"]}, "A/F CAR - GAL", "A/F CAR"),
        # rule 10.3: not in Indonesia: no A/F formed on a fleet there
        (EIGHT, {"WESTERN_EUROPE": ["A MAL", "F INO"]}, {"WESTERN_EUROPE": ["A MAL boards F INO"]}, "A MAL boards F INO", "A MAL"),
        # rule 10.4: one power only
        (EIGHT, {"WESTERN_EUROPE": ["A SPA"], "ISLAM": ["F MAO"]}, {"WESTERN_EUROPE": ["A SPA boards F MAO"]}, "A SPA boards F MAO", "A SPA"),
        # the army lands only next to the A/F's sea
        (EIGHT, {"WESTERN_EUROPE": ["A/F NWG"]}, {"WESTERN_EUROPE": ["A/F NWG disembarks GER"]}, "A/F NWG disembarks GER", "A/F NWG"),
        # boarding needs a fleet next to the army
        (EIGHT, {"WESTERN_EUROPE": ["A SPA", "F NTH"]}, {"WESTERN_EUROPE": ["A SPA boards F NTH"]}, "A SPA boards F NTH", "A SPA"),
    ],
)
def test_rule10_army_fleet_fails(variant, units, orders, line, stays):
    r = adjudicate(variant, "S02M", units, orders)
    assert outcome(r, line) == "invalid", entry(r, line)
    assert stays in r["units"]["WESTERN_EUROPE"]


@pytest.mark.parametrize("variant", BOTH)
def test_rule10_3_no_af_stands_in_indonesia(variant):
    result = jsonapi.adjudicate_request(
        {"variant": variant, "phase": "S02M", "units": {"WESTERN_EUROPE": ["A/F INO"]}, "orders": {}}
    )
    assert "error" in result


# -- rule 11.1 and 11.2: retreats, Just's Right-Hand Rule ---------------------------------------

# Sahara's neighbours clockwise (variant.toml): LIB SUD CON NIG WAF MOR ALG.
# The attack comes from Congo with support from Algeria. Along the line from the
# attacker to the dislodged unit (Congo -> Sahara, heading north-west), "right" is
# north-east: the first province to the right is Sudan, the first to the left
# Nigeria, then Libya (second right), West Africa (second left), Algeria (third
# right: the supporter stands there), Morocco (third left).
RIGHT_HAND = [
    ([], "SUD"),
    (["SUD"], "NIG"),
    (["SUD", "NIG"], "LIB"),
    (["SUD", "NIG", "LIB"], "WAF"),
    (["SUD", "NIG", "LIB", "WAF"], "MOR"),
    (["SUD", "NIG", "LIB", "WAF", "MOR"], None),   # no retreat: annihilated
]


def _sahara_attack(variant: str, occupied: list[str]) -> dict:
    units = {
        "AFRICA": ["A SAH"],
        "ISLAM": ["A CON", "A ALG"],
        "NORTH_AMERICA": [f"A {p}" for p in occupied],
    }
    orders = {"ISLAM": ["A CON - SAH", "A ALG S A CON - SAH"]}
    r = adjudicate(variant, "S02M", units, orders)
    assert outcome(r, "A CON - SAH") == "succeeds"
    return r


def test_right_hand_ring_is_as_documented():
    """The position below relies on Sahara's clockwise ring in the map data."""
    data = tomllib.loads((Path(__file__).resolve().parents[2] / "variants/smallworld/variant.toml").read_text())
    ring = data["provinces"]["SAH"]["clockwise"]
    start = ring.index("LIB")
    assert ring[start:] + ring[:start] == ["LIB", "SUD", "CON", "NIG", "WAF", "MOR", "ALG"]


@pytest.mark.parametrize("variant", BOTH)
@pytest.mark.parametrize("occupied, expected", RIGHT_HAND)
def test_rule11_2_right_hand_rule(variant, occupied, expected):
    r = _sahara_attack(variant, occupied)
    free = {"SUD", "NIG", "LIB", "WAF", "MOR"} - set(occupied)
    if expected is not None:
        assert r["next_phase"] == "S02R"
        info = r["dislodged"]["AFRICA"]["A SAH"]
        assert {p.split("/")[0] for p in info["retreats"]} == free
    if r["next_phase"].endswith("R"):
        r = jsonapi.adjudicate_request({**jsonapi.next_state(r, variant), "orders": {}})
        assert "error" not in r
    assert r["next_phase"] == "F02M"
    if expected is None:
        assert "AFRICA" not in r["units"] or not r["units"]["AFRICA"]
    else:
        assert r["units"]["AFRICA"] == [f"A {expected}"]


@pytest.mark.parametrize("variant", BOTH)
def test_rule11_1_no_disband_order_when_a_retreat_exists(variant):
    r = _sahara_attack(variant, [])
    state = jsonapi.next_state(r, variant)
    for line in ("A SAH D", "A SAH disband", "A SAH off the board"):
        checked = jsonapi.check_orders(state, "AFRICA", [line])[0]
        assert not checked["ok"], checked
    r = jsonapi.adjudicate_request({**state, "orders": {"AFRICA": ["A SAH D"]}})
    assert outcome(r, "A SAH D") == "invalid"
    assert r["units"]["AFRICA"] == ["A SUD"]       # the Right-Hand Rule applies instead


@pytest.mark.parametrize("variant", BOTH)
def test_rule11_1_ordered_retreat_is_obeyed(variant):
    r = _sahara_attack(variant, [])
    r = jsonapi.adjudicate_request({**jsonapi.next_state(r, variant), "orders": {"AFRICA": ["A SAH R WAF"]}})
    assert outcome(r, "A SAH R WAF") == "succeeds"
    assert r["units"]["AFRICA"] == ["A WAF"]


# -- rule 11.3: removals when a player sends none ----------------------------------------------


@pytest.mark.parametrize("variant", BOTH)
def test_rule11_3_least_impact_removal(variant):
    """Russia must remove one of F KOR (on its only centre, next to a Chinese army)
    and A URA (an ordinary space, far from anyone): the GM removes the army."""
    units = {"RUSSIA": ["F KOR", "A URA"], "CHINA": ["A MUK"]}
    centers = {"RUSSIA": ["KOR"], "CHINA": ["MUK", "PEK", "CAN"]}
    r = adjudicate(variant, "W02A", units, {}, centers=centers)
    assert r["units"]["RUSSIA"] == ["F KOR"]
    # an explicit removal order is obeyed
    r = adjudicate(variant, "W02A", units, {"RUSSIA": ["REMOVE F KOR"]}, centers=centers)
    assert outcome(r, "REMOVE F KOR") == "succeeds"
    assert r["units"]["RUSSIA"] == ["A URA"]


@pytest.mark.parametrize("variant", BOTH)
def test_rule11_3_dislodged_units_removed_first(variant):
    """Fall 02: Western Europe dislodges Russia's A POL; Russia then has three units
    for two centres and sends no orders at all. The dislodged unit is the one that
    goes (rule 11.3), although the Right-Hand Rule would have found it a retreat
    (Poland's ring: LEN MOS UKR AUS GER BAL; attack from Germany, Austria and Ukraine
    occupied, so it would retreat to Leningrad) and least impact alone would remove
    the army in the Urals."""
    units = {
        "RUSSIA": ["A POL", "A MOS", "A URA"],
        "WESTERN_EUROPE": ["A GER", "A AUS", "F BAL"],
        "AFRICA": ["A UKR"],
    }
    centers = {"RUSSIA": ["MOS", "LEN"], "WESTERN_EUROPE": ["GER", "FRA", "SPA", "ENG"], "AFRICA": ["SAF", "ETH", "NIG"]}
    orders = {"WESTERN_EUROPE": ["A GER - POL", "A AUS S A GER - POL"]}
    r = adjudicate(variant, "F02M", units, orders, centers=centers)
    assert outcome(r, "A GER - POL") == "succeeds"
    for _ in range(3):
        if r["next_phase"] == "S03M":
            break
        r = jsonapi.adjudicate_request({**jsonapi.next_state(r, variant), "orders": {}})
        assert "error" not in r
    assert sorted(r["units"]["RUSSIA"]) == ["A MOS", "A URA"]


# -- rule 4 / 15.3: victory ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "variant, owned, winner",
    [
        (EIGHT, 23, "WESTERN_EUROPE"),   # 24th centre
        (EIGHT, 22, None),               # 23 is not enough with 8 players
        (SEVEN, 22, "WESTERN_EUROPE"),   # 23rd centre wins with 7 players
        (SEVEN, 21, None),
    ],
)
def test_rule4_victory(variant, owned, winner):
    pool = [c for c in centres_of(variant) if c != "MOR"]
    centers = {"WESTERN_EUROPE": pool[:owned]}
    r = adjudicate(variant, "F05M", {"WESTERN_EUROPE": ["A SPA"]}, {"WESTERN_EUROPE": ["A SPA - MOR"]}, centers=centers)
    assert outcome(r, "A SPA - MOR") == "succeeds"
    assert len(r["centers"]["WESTERN_EUROPE"]) == owned + 1
    assert r["winner"] == winner


def test_rule4_no_victory_in_spring():
    pool = [c for c in centres_of(EIGHT) if c != "MOR"]
    r = adjudicate(EIGHT, "S05M", {"WESTERN_EUROPE": ["A SPA"]}, {"WESTERN_EUROPE": ["A SPA - MOR"]},
                   centers={"WESTERN_EUROPE": pool[:23]})
    assert r["winner"] is None
    assert "MOR" not in r["centers"]["WESTERN_EUROPE"]
