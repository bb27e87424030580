"""Zeus 5: one test (or table) per seed rule, as positions and orders through
app.jsonapi.adjudicate_request. The seed is /work/shared/seeds/zeus5-rules.txt
("rule N" below); the map is variants/zeus5/variant.toml (see its NOTES.md).

Each table says what must succeed and what must fail.
"""

from __future__ import annotations

import pytest

from app import jsonapi
from tests.variants._play import (
    adjudicate,
    centre_count,
    centres_of,
    check,
    entry,
    outcome,
    owner_of,
)

V = "zeus5"

HOMES = {  # rule 3
    "BRITAIN": ["LON", "EDI", "CAN", "EGY", "MDE"],
    "CHINA": ["CHU", "CTN", "PEK"],
    "GERMANY": ["BER", "HAM", "MUN"],
    "ITALY": ["ROM", "VEN", "TRI"],
    "JAPAN": ["TOK", "SAP", "SEN"],
    "USA": ["WAS", "HAW", "NYK"],
    "USSR": ["MOS", "LEN", "STA", "MAG"],
}


def one_move(power: str, unit: str, line: str, phase: str = "S1940M", others: dict | None = None):
    units = {power: [unit]}
    for p, us in (others or {}).items():
        units.setdefault(p, []).extend(us)
    return adjudicate(V, phase, units, {power: [line]})


def assert_move(result, power: str, line: str, start: str, target: str, ok: bool) -> None:
    if ok:
        assert outcome(result, line) == "succeeds", entry(result, line)
        owner = owner_of(result, target)
        assert owner is not None and owner[0] == power
        assert owner_of(result, start) is None
    else:
        assert outcome(result, line) == "invalid", entry(result, line)
        owner = owner_of(result, start)
        assert owner is not None and owner[0] == power


# -- rule 2: 41 centres, 21 to win ------------------------------------------------


def test_rule2_41_centres_21_to_win():
    assert centre_count(V) == 41
    assert jsonapi.variant_info(V)["victory_centres"] == 21


def _centres_with(n: int) -> dict[str, list[str]]:
    """GERMANY owns n centres (never Venice), ITALY owns Venice and Rome."""
    pool = [c for c in centres_of(V) if c not in ("VEN", "ROM")]
    return {"GERMANY": pool[:n], "ITALY": ["VEN", "ROM"]}


@pytest.mark.parametrize(
    "phase, owned, winner, venice_german",
    [
        ("F1945M", 20, "GERMANY", True),   # the 21st centre, taken in Fall: victory
        ("F1945M", 19, None, True),        # 20 centres: no victory
        ("S1945M", 20, None, False),       # taken in Spring: centres change only after Fall
    ],
)
def test_rule2_victory_at_21_after_fall(phase, owned, winner, venice_german):
    centers = _centres_with(owned)
    assert len(centers["GERMANY"]) == owned
    result = adjudicate(V, phase, {"GERMANY": ["A AUS"]}, {"GERMANY": ["A AUS - VEN"]}, centers=centers)
    assert outcome(result, "A AUS - VEN") == "succeeds"
    assert result["winner"] == winner
    assert ("VEN" in result["centers"].get("GERMANY", [])) is venice_german
    assert len(result["centers"]["GERMANY"]) == owned + (1 if venice_german else 0)


# -- rule 3 / 4: the game opens with Winter 1939 builds in the home centres --------


def test_rule4_game_starts_with_winter_1939_builds():
    state = jsonapi.initial_state(V)
    assert state["phase"] == "W1939A"
    assert {p: u for p, u in state["units"].items() if p != "NEUTRAL"} in ({}, {p: [] for p in HOMES})
    assert jsonapi.variant_info(V)["start_phase"] == "W1939A"
    for power, homes in HOMES.items():
        assert sorted(state["centers"][power]) == sorted(homes)


@pytest.mark.parametrize("power", sorted(HOMES))
def test_rule4_each_power_builds_in_its_home_centres(power):
    state = jsonapi.initial_state(V)
    homes = HOMES[power]
    what = jsonapi.orderable(state, power)
    assert what["kind"] == "adjustment"
    assert what["builds"] == len(homes)
    assert set(homes) <= set(what["sites"])
    assert set(what["sites"]) - set(homes) <= ({"CAL"} if power == "USA" else set())
    lines = [f"BUILD A {home}" for home in homes]
    result = jsonapi.adjudicate_request({**state, "orders": {power: lines}})
    assert "error" not in result
    for line in lines:
        assert outcome(result, line) == "succeeds", entry(result, line)
    assert sorted(result["units"][power]) == sorted(f"A {h}" for h in homes)
    assert result["next_phase"] == "S1940M"


@pytest.mark.parametrize(
    "power, line, ok",
    [
        ("BRITAIN", "BUILD F CAN", False),      # Canada has two coasts: name one
        ("BRITAIN", "BUILD F CAN/EC", True),
        ("BRITAIN", "BUILD F CAN/WC", True),
        ("USSR", "BUILD F LEN", False),         # Leningrad has two coasts
        ("USSR", "BUILD F LEN/NC", True),
        ("USSR", "BUILD F LEN/SC", True),
        ("BRITAIN", "BUILD F MDE", False),      # Middle East has two coasts
        ("BRITAIN", "BUILD F MDE/SC", True),
        ("BRITAIN", "BUILD F MDE/WC", True),
        ("BRITAIN", "BUILD F EGY", True),       # canal province: one coast
        ("GERMANY", "BUILD F HAM", True),       # canal province: one coast
        ("JAPAN", "BUILD F TOK", True),         # Tokyo: one coast (rule 6)
        ("USSR", "BUILD F MOS", False),         # inland
        ("CHINA", "BUILD F CHU", False),        # inland
        ("GERMANY", "BUILD A LON", False),      # not a German home centre
        ("ITALY", "BUILD A PAR", False),        # neutral centre
    ],
)
def test_rule4_winter_1939_builds_and_coasts(power, line, ok):
    state = jsonapi.initial_state(V)
    result = jsonapi.adjudicate_request({**state, "orders": {power: [line]}})
    assert "error" not in result
    unit = line.split(" ", 1)[1]
    if ok:
        assert outcome(result, line) == "succeeds", entry(result, line)
        assert unit in result["units"].get(power, [])
    else:
        assert outcome(result, line) == "invalid", entry(result, line)
        assert unit not in result["units"].get(power, [])


# -- rules 3 and 11: the USA may build in California while it owns it ----------------


@pytest.mark.parametrize(
    "lines",
    [
        ["BUILD A CAL", "BUILD A WAS", "BUILD A HAW"],     # California instead of New York
        ["BUILD F CAL", "BUILD A NYK", "BUILD A WAS"],     # instead of Hawaii
    ],
)
def test_rule11_usa_builds_in_california_in_1939(lines):
    state = jsonapi.initial_state(V)
    result = jsonapi.adjudicate_request({**state, "orders": {"USA": lines}})
    assert "error" not in result
    for line in lines:
        assert outcome(result, line) == "succeeds", entry(result, line)
    assert sorted(result["units"]["USA"]) == sorted(line.split(" ", 1)[1] for line in lines)


USA_WINTER = {
    "units": {"USA": ["A WAS", "A NYK", "A HAW"]},
    "centers": {"USA": ["WAS", "NYK", "HAW", "PAN", "MID"], "JAPAN": ["TOK", "SAP", "SEN"]},
}


def test_rule11_usa_builds_in_california_while_home_centres_are_full():
    state = {"variant": V, "phase": "W1941A", **USA_WINTER}
    what = jsonapi.orderable(state, "USA")
    assert "CAL" in what["sites"]
    assert what["builds"] >= 1
    result = jsonapi.adjudicate_request({**state, "orders": {"USA": ["BUILD F CAL"]}})
    assert outcome(result, "BUILD F CAL") == "succeeds", entry(result, "BUILD F CAL")
    assert "F CAL" in result["units"]["USA"]


def test_rule11_no_california_build_once_the_usa_lost_it():
    """Japan takes California in Fall 1941 and leaves in Spring 1942: the USA no
    longer owns it, so it may not build there in Winter 1942."""
    units = {"USA": ["A WAS", "A NYK", "A HAW"], "JAPAN": ["A ORE"]}
    state = {"variant": V, "phase": "F1941M", "units": units, "centers": USA_WINTER["centers"]}
    r = jsonapi.adjudicate_request({**state, "orders": {"JAPAN": ["A ORE - CAL"]}})
    assert outcome(r, "A ORE - CAL") == "succeeds"
    assert r["next_phase"] == "W1941A"
    r = jsonapi.adjudicate_request({**jsonapi.next_state(r, V), "orders": {}})
    assert r["next_phase"] == "S1942M"
    r = jsonapi.adjudicate_request({**jsonapi.next_state(r, V), "orders": {"JAPAN": ["A CAL - ORE"]}})
    assert outcome(r, "A CAL - ORE") == "succeeds"
    r = jsonapi.adjudicate_request({**jsonapi.next_state(r, V), "orders": {}})
    assert r["next_phase"] == "W1942A"
    winter = jsonapi.next_state(r, V)
    assert "CAL" not in jsonapi.orderable(winter, "USA").get("sites", [])
    r = jsonapi.adjudicate_request({**winter, "orders": {"USA": ["BUILD A CAL"]}})
    assert outcome(r, "BUILD A CAL") == "invalid"
    assert "A CAL" not in r["units"]["USA"]


# -- rule 5: canals -------------------------------------------------------------------


@pytest.mark.parametrize(
    "sea_in, canal, sea_out",
    [
        ("EMS", "EGY", "INO"),   # Suez: Eastern Med -> Egypt -> Indian Ocean
        ("INO", "EGY", "EMS"),
        ("BAL", "HAM", "HEL"),   # Kiel canal: Baltic -> Hamburg -> Helgoland
        ("HEL", "HAM", "BAL"),
        ("MAO", "PAN", "SPO"),   # Panama: Mid-Atlantic -> Panama -> South Pacific
        ("SPO", "PAN", "SAO"),
    ],
)
def test_rule5_fleet_passes_a_canal_in_two_moves(sea_in, canal, sea_out):
    power = "ITALY"
    # the one-move crossing is not allowed: no sea-to-sea link across a canal
    direct = f"F {sea_in} - {sea_out}"
    assert_move(one_move(power, f"F {sea_in}", direct), power, direct, sea_in, sea_out, False)
    # through the canal province, one move at a time
    first = f"F {sea_in} - {canal}"
    r = one_move(power, f"F {sea_in}", first)
    assert_move(r, power, first, sea_in, canal, True)
    second = f"F {canal} - {sea_out}"
    r = jsonapi.adjudicate_request({**jsonapi.next_state(r, V), "orders": {power: [second]}})
    assert_move(r, power, second, canal, sea_out, True)


# -- rule 6: land crossings; no North Sea-Baltic etc.; no Greece-Turkey ------------------


MOVES = [
    # (unit, order, legal)
    ("A DEN", "A DEN - SWE", True),
    ("A SWE", "A SWE - DEN", True),
    ("F DEN", "F DEN - SWE", True),
    ("F SWE", "F SWE - DEN", True),
    ("A KOR", "A KOR - KYU", True),
    ("F KYU", "F KYU - KOR", True),
    ("A TOK", "A TOK - KYU", True),
    ("F KYU", "F KYU - TOK", True),
    ("A SPA", "A SPA - NAF", True),
    ("A NAF", "A NAF - SPA", True),
    ("F SPA", "F SPA - NAF", True),
    ("F NAF", "F NAF - SPA", True),
    # fleets cross North Sea/Baltic and Sea of Japan/Yellow Sea/Okinawa only via the land
    ("F NTH", "F NTH - BAL", False),
    ("F BAL", "F BAL - NTH", False),
    ("F NTH", "F NTH - DEN", True),
    ("F DEN", "F DEN - BAL", True),
    ("F SOJ", "F SOJ - YEL", False),
    ("F YEL", "F YEL - SOJ", False),
    ("F SOJ", "F SOJ - OKI", False),
    ("F OKI", "F OKI - SOJ", False),
    ("F SOJ", "F SOJ - KYU", True),
    ("F KYU", "F KYU - YEL", True),
    # no move Greece-Turkey
    ("A GRE", "A GRE - TUR", False),
    ("A TUR", "A TUR - GRE", False),
    ("F GRE", "F GRE - TUR", False),
    ("F TUR", "F TUR - GRE", False),
    # rule 7: the straits
    ("F WMS", "F WMS - MAO", True),
    ("F MAO", "F MAO - WMS", True),
    ("F WMS", "F WMS - SAO", True),
    ("F SAO", "F SAO - WMS", True),
    ("F EMS", "F EMS - BLA", True),
    ("F BLA", "F BLA - EMS", True),
    # rule 8: the Pacific islands; armies walk in, fleets sail through
    ("A CAL", "A CAL - HAW", True),
    ("A HAW", "A HAW - MID", True),
    ("A MID", "A MID - CAL", True),
    ("A PAN", "A PAN - HAW", True),
    ("A KYU", "A KYU - OKI", True),
    ("A TOK", "A TOK - OKI", True),
    ("A OKI", "A OKI - SOL", True),
    ("A SOL", "A SOL - OKI", True),
    ("F SPO", "F SPO - HAW", True),
    ("F HAW", "F HAW - MID", True),
    ("F MID", "F MID - CAR", True),
    ("F CPO", "F CPO - SOL", True),
    ("F SOL", "F SOL - SPO", True),
    ("F ECS", "F ECS - OKI", True),
    ("F OKI", "F OKI - CAR", True),
    ("A HAW", "A HAW - CPO", False),        # an army never enters a sea
    # rule 9: Western Britain, one coastal space
    ("A LON", "A LON - WBR", True),
    ("A WBR", "A WBR - EDI", True),
    ("F WBR", "F WBR - MAO", True),
    ("F MAO", "F MAO - WBR", True),
    ("F BIS", "F BIS - WBR", True),
    ("F WBR", "F WBR - NAO", True),
]


@pytest.mark.parametrize("unit, line, ok", MOVES, ids=[m[1] for m in MOVES])
def test_rules_6_to_9_moves(unit, line, ok):
    start = unit.split()[1]
    target = line.split(" - ")[1]
    assert_move(one_move("BRITAIN", unit, line), "BRITAIN", line, start, target, ok)


def test_rule6_support_across_a_land_crossing():
    """Denmark-Sweden is an ordinary border: a unit in Sweden supports into Denmark."""
    units = {"GERMANY": ["A HAM", "F SWE"], "BRITAIN": ["A DEN"]}
    orders = {"GERMANY": ["A HAM - DEN", "F SWE S A HAM - DEN"]}
    r = adjudicate(V, "S1940M", units, orders)
    assert outcome(r, "A HAM - DEN") == "succeeds"
    assert owner_of(r, "DEN") == ("GERMANY", "A DEN")


def test_rule8_fleets_convoy_through_island_spaces():
    units = {"USA": ["A CAL", "F HAW", "F CPO"]}
    orders = {"USA": ["A CAL - SOL", "F HAW C A CAL - SOL", "F CPO C A CAL - SOL"]}
    r = adjudicate(V, "S1940M", units, orders)
    assert outcome(r, "A CAL - SOL") == "succeeds", entry(r, "A CAL - SOL")
    assert owner_of(r, "SOL") == ("USA", "A SOL")


@pytest.mark.parametrize(
    "written, normalized",
    [
        ("A LON - Wales", "A LON - WBR"),
        ("A LON - Ireland", "A LON - WBR"),
        ("F MAO - Irish Sea", "F MAO - WBR"),
        ("A EDI - SW England", "A EDI - WBR"),
    ],
)
def test_rule9_western_britain_names(written, normalized):
    units = {"BRITAIN": ["A LON", "A EDI", "F MAO"]}
    [checked] = jsonapi.check_orders({"variant": V, "phase": "S1940M", "units": units}, "BRITAIN", [written])
    assert checked["ok"], checked
    assert checked["order"] == normalized


def test_rule9_western_britain_is_one_space():
    """Wales and Ireland are the same space: two moves into them bounce."""
    units = {"BRITAIN": ["A LON"], "USA": ["F NAO"]}
    orders = {"BRITAIN": ["A LON - Wales"], "USA": ["F NAO - Ireland"]}
    r = adjudicate(V, "S1940M", units, orders)
    assert outcome(r, "A LON - Wales") == "fails"
    assert outcome(r, "F NAO - Ireland") == "fails"
    assert owner_of(r, "WBR") is None


# -- rule 10: India's standing army --------------------------------------------------


INDIA = {"NEUTRAL": ["A IND"]}


def test_rule10_india_has_a_standing_army_at_the_start():
    assert "A IND" in jsonapi.initial_state(V)["units"].get("NEUTRAL", [])


def test_rule10_standing_army_holds_against_an_unsupported_attack():
    units = {**INDIA, "USSR": ["A KAZ"]}
    r = adjudicate(V, "S1940M", units, {"USSR": ["A KAZ - IND"]})
    assert outcome(r, "A KAZ - IND") == "fails"
    assert owner_of(r, "IND") == ("NEUTRAL", "A IND")
    assert owner_of(r, "KAZ") == ("USSR", "A KAZ")


def test_rule10_standing_army_dislodged_is_destroyed_without_retreat():
    units = {**INDIA, "USSR": ["A KAZ", "A NEP"]}
    orders = {"USSR": ["A KAZ - IND", "A NEP S A KAZ - IND"]}
    r = adjudicate(V, "S1940M", units, orders)
    assert outcome(r, "A KAZ - IND") == "succeeds"
    assert owner_of(r, "IND") == ("USSR", "A IND")
    assert "NEUTRAL" not in r["dislodged"]
    assert not r["dislodged"]
    assert r["next_phase"] == "F1940M"          # no retreat phase for it
    assert "A IND" not in r["units"].get("NEUTRAL", [])


def test_rule10_india_taken_in_fall_is_owned():
    units = {**INDIA, "USSR": ["A KAZ", "A NEP"]}
    orders = {"USSR": ["A KAZ - IND", "A NEP S A KAZ - IND"]}
    centers = {p: list(h) for p, h in HOMES.items()}
    r = adjudicate(V, "F1940M", units, orders, centers=centers)
    assert outcome(r, "A KAZ - IND") == "succeeds"
    assert "IND" in r["centers"]["USSR"]
    assert r["next_phase"] == "W1940A"
    # an owned India is a normal centre: the USSR has a build for it (5 centres, 2 units)
    winter = jsonapi.next_state(r, V)
    assert jsonapi.orderable(winter, "USSR")["kind"] == "adjustment"


# -- rule 3 (and the map): Okhotsk is Magadan ------------------------------------------


@pytest.mark.parametrize(
    "units, written, normalized",
    [
        (["A MAG"], "A Okhotsk - Siberia", "A MAG - SIB"),
        (["A MAG"], "A Magadan - Siberia", "A MAG - SIB"),
        (["A SIB"], "A Siberia - Okhotsk", "A SIB - MAG"),
        (["F SOO"], "F Sea of Okhotsk - Okhotsk", "F SOO - MAG"),
        (["F SOO"], "F Sea of Okhotsk - Magadan", "F SOO - MAG"),
        # issue 22.16: a fleet order reads "Okhotsk" as the centre too, as a build does
        (["F MAG"], "F Okhotsk H", "F MAG H"),
        (["F MAG"], "F Okhotsk - Sea of Okhotsk", "F MAG - SOO"),
        (["F AMU"], "F Amursk - Okhotsk", "F AMU - MAG"),
        (["F ESS", "A SIB"], "F East Siberian Sea S A Siberia - Okhotsk", "F ESS S SIB - MAG"),
    ],
)
def test_rule3_okhotsk_and_magadan_are_one_province(units, written, normalized):
    checked = check(V, "S1940M", {"USSR": units}, "USSR", written)
    assert checked["ok"], checked
    assert checked["order"] == normalized


def test_rule3_ussr_builds_in_okhotsk():
    state = jsonapi.initial_state(V)
    r = jsonapi.adjudicate_request({**state, "orders": {"USSR": ["BUILD F Okhotsk"]}})
    assert outcome(r, "BUILD F Okhotsk") == "succeeds"
    assert "F MAG" in r["units"]["USSR"]


def test_rule3_okhotsk_names_magadan_in_every_order_that_can_name_a_fleet():
    """Issue 22.16: `BUILD F Okhotsk` builds in Magadan, so `F Okhotsk H` and
    `REMOVE F Okhotsk` order the fleet in Magadan, never "could name more than one place"."""
    units = {"USSR": ["F MAG", "F SOO"]}
    for written, normalized in [("F Okhotsk H", "F MAG H"), ("Fleet Okhotsk holds", "F MAG H"),
                                ("F Okhotsk S F Sea of Okhotsk", "F MAG S SOO")]:
        checked = check(V, "S1941M", units, "USSR", written)
        assert checked["ok"] and checked["order"] == normalized, checked
    removal = check(V, "W1941A", {"USSR": ["F MAG", "F SOO"]}, "USSR", "REMOVE F Okhotsk",
                    centers={"USSR": ["MOS"]})
    assert removal["ok"] and removal["order"] == "REMOVE F MAG", removal
