"""The reconstructed Small World II-R map against the facts its rules state.

Reads variants/smallworld/variant.toml with tomllib only. Each test names the rule
or Map Clarification of /work/shared/seeds/small-world-II-R-rules.txt it checks.
"""

from __future__ import annotations

import math
import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
VARIANT = ROOT / "variants" / "smallworld" / "variant.toml"

with VARIANT.open("rb") as fh:
    DATA = tomllib.load(fh)

PROVS: dict = DATA["provinces"]
POWERS: list = DATA["powers"]
SEVEN: dict = DATA["setups"]["seven"]
POWER_IDS = [p["id"] for p in POWERS]


# ---------------------------------------------------------------- helpers
def norm(text: str) -> str:
    return re.sub(r"[^0-9a-z]", "", text.lower())


def prov(loc: str) -> str:
    return loc.split("/", 1)[0]


def coasts(pid: str) -> dict:
    return PROVS[pid].get("coasts", {})


def locations(pid: str) -> list[str]:
    return [f"{pid}/{c}" for c in coasts(pid)] or [pid]


def fleet_of(loc: str) -> list[str]:
    pid = prov(loc)
    if "/" in loc:
        return coasts(pid)[loc.split("/", 1)[1]]["fleet"]
    return PROVS[pid].get("fleet", [])


def all_locations() -> set[str]:
    return {loc for pid in PROVS for loc in locations(pid)}


def army_adj(a: str, b: str) -> bool:
    return b in PROVS[a].get("army", [])


def fleet_adj(a: str, b: str) -> bool:
    """A fleet at location a may move to location b."""
    return b in fleet_of(a)


def fleet_touches(a: str, b: str) -> bool:
    """Some location of province a is a fleet neighbour of some location of province b."""
    return any(prov(x) == b for loc in locations(a) for x in fleet_of(loc))


def touches(a: str, b: str) -> bool:
    return army_adj(a, b) or fleet_touches(a, b)


def neighbours(pid: str) -> set[str]:
    result = set(PROVS[pid].get("army", []))
    for loc in locations(pid):
        result |= {prov(x) for x in fleet_of(loc)}
    result.discard(pid)
    return result


def seas_of(pid: str) -> set[str]:
    return {prov(x) for loc in locations(pid) for x in fleet_of(loc) if PROVS[prov(x)]["type"] == "sea"}


def alias_table() -> dict[str, set[str]]:
    table: dict[str, set[str]] = {}
    for pid, p in PROVS.items():
        for name in [pid, p["name"], *p.get("aliases", [])]:
            table.setdefault(norm(name), set()).add(pid)
    return table


ALIASES = alias_table()


def lookup(name: str) -> str:
    hits = ALIASES.get(norm(name), set())
    assert len(hits) == 1, f"{name!r} resolves to {sorted(hits)}"
    return next(iter(hits))


def is_centre_eight(pid: str) -> bool:
    return bool(PROVS[pid].get("centre"))


def is_centre_seven(pid: str) -> bool:
    return is_centre_eight(pid) and pid not in SEVEN["not_centres"]


def power(pid: str) -> dict:
    return next(p for p in POWERS if p["id"] == pid)


# ---------------------------------------------------------------- counts (rules 2, 4, 15)
def test_eight_player_counts():
    centres = [p for p in PROVS if is_centre_eight(p)]
    homes = [h for p in POWERS for h in p["home"]]
    assert len(POWERS) == 8
    assert len(centres) == 48
    assert len(homes) == 27 and len(set(homes)) == 27
    assert set(homes) <= set(centres)
    assert len(set(centres) - set(homes)) == 21
    assert DATA["victory_centres"] == 24
    assert DATA["setups"]["eight"]["victory_centres"] == 24


def test_seven_player_counts():
    playing = [power(p) for p in SEVEN["powers"]]
    assert len(playing) == 7 and "PACIFIC_EMPIRE" not in SEVEN["powers"]
    centres = [p for p in PROVS if is_centre_seven(p)]
    homes = {h for p in playing for h in p["home"]}
    assert len(centres) == 46
    assert len(homes) == 24
    assert len(set(centres) - homes) == 22
    assert SEVEN["victory_centres"] == 23
    assert SEVEN["centre_count"] == 46


def test_home_centres_and_starting_units_rule_2():
    expected = {
        "NORTH_AMERICA": {"F NYK", "F CAL", "A TEX"},
        "AFRICA": {"F SAF", "A ETH", "A NIG"},
        "CHINA": {"F CAN", "A MUK", "A PEK"},
        "ISLAM": {"F ARA/EC", "F EGY", "A PER"},
        "RUSSIA": {"F LEN/SC", "F VLA", "A MOS", "A SAM", "A IRK"},
        "SOUTH_AMERICA": {"F LAP", "F PRU", "A BRA"},
        "WESTERN_EUROPE": {"F FRA/NC", "A GER", "A SPA", "F BUR"},
        "PACIFIC_EMPIRE": {"F JAP", "F NZL", "F SYD"},
    }
    for pid, units in expected.items():
        p = power(pid)
        assert set(p["units"]) == units
        assert p["centres"] == p["home"]
        assert len(p["units"]) == len(p["centres"])
    assert set(power("WESTERN_EUROPE")["home"]) == {"FRA", "GER", "SPA", "ENG"}
    # the seed's names for the home centres
    names = {
        "NORTH_AMERICA": ["New York", "California", "Texas"],
        "AFRICA": ["South Africa", "Ethiopia", "Nigeria"],
        "CHINA": ["Canton", "Mukden", "Peking"],
        "ISLAM": ["Arabia", "Egypt", "Persia"],
        "RUSSIA": ["Leningrad", "Vladivastok", "Moscow", "Samarkand", "Irkutsk"],
        "SOUTH_AMERICA": ["LaPlata", "Peru", "Brazil"],
        "WESTERN_EUROPE": ["France", "Germany", "Spain", "England"],
        "PACIFIC_EMPIRE": ["Japan", "New Zealand", "Sydney"],
    }
    for pid, seed_names in names.items():
        assert {lookup(n) for n in seed_names} == set(power(pid)["home"])


def test_units_stand_where_they_can():
    for p in POWERS:
        for unit in p["units"]:
            kind, loc = unit.split()
            pid = prov(loc)
            assert pid in PROVS
            if kind == "A":
                assert PROVS[pid]["type"] in ("land", "coast") and "/" not in loc
            else:
                assert PROVS[pid]["type"] == "coast"
                assert loc in all_locations() and (not coasts(pid) or "/" in loc)


# ---------------------------------------------------------------- structure
def test_ids_and_types():
    for pid, p in PROVS.items():
        assert re.fullmatch(r"[A-Z]{3,4}", pid), pid
        assert p["type"] in ("land", "coast", "sea", "impassable")
        if p["type"] == "sea":
            assert "army" not in p and "fleet" in p
        if p["type"] == "land":
            assert "fleet" not in p and not coasts(pid)
        if p["type"] == "coast" and coasts(pid):
            assert "fleet" not in p
        if p["type"] == "coast" and not coasts(pid):
            assert p["fleet"], pid


def test_every_referenced_id_exists():
    locs = all_locations()
    for pid, p in PROVS.items():
        for other in p.get("army", []):
            assert other in PROVS, (pid, other)
        for loc in locations(pid):
            for other in fleet_of(loc):
                assert other in locs, (loc, other)
        for other in p.get("clockwise", []):
            assert other in PROVS
    for p in POWERS:
        assert set(p["home"]) | set(p["centres"]) <= set(PROVS)
        for unit in p["units"]:
            assert unit.split()[1] in locs
    for site in DATA["build_sites"]:
        assert site["power"] in POWER_IDS and site["province"] in PROVS
    for home in DATA["conditional_homes"]:
        assert home["power"] in POWER_IDS and home["province"] in PROVS
        assert home.get("setup", "eight") in DATA["setups"]
    for choice in DATA["hidden_choices"]:
        assert choice["power"] in POWER_IDS
        for option in choice["options"]:
            assert option.split()[1] in locs
    for item in DATA["canals"] + DATA["passages"]:
        assert set(item["provinces"]) | set(item["seas"]) <= set(PROVS)
    for name in ("eight", "seven"):
        setup = DATA["setups"][name]
        assert set(setup["powers"]) <= set(POWER_IDS)
        assert set(setup["standing_armies"]) <= set(PROVS)
    assert set(SEVEN["not_centres"]) <= set(PROVS)


def test_army_borders_are_symmetric():
    for pid, p in PROVS.items():
        for other in p.get("army", []):
            assert pid in PROVS[other].get("army", []), f"{pid}-{other}"


def test_fleet_borders_are_symmetric():
    for pid in PROVS:
        for loc in locations(pid):
            for other in fleet_of(loc):
                assert loc in fleet_of(other), f"{loc}-{other}"


def test_no_duplicate_borders():
    for pid, p in PROVS.items():
        assert len(set(p.get("army", []))) == len(p.get("army", []))
        for loc in locations(pid):
            assert len(set(fleet_of(loc))) == len(fleet_of(loc))


def test_coast_to_coast_fleet_borders_follow_a_shared_coastline():
    crossings = {frozenset(x["provinces"]) for x in DATA["passages"]} | {frozenset(("QUE", "NFL"))}
    for pid in PROVS:
        if PROVS[pid]["type"] != "coast":
            continue
        for loc in locations(pid):
            for other in fleet_of(loc):
                if PROVS[prov(other)]["type"] == "sea":
                    continue
                assert army_adj(pid, prov(other)) or frozenset((pid, prov(other))) in crossings, (loc, other)
                seas_a = {x for x in fleet_of(loc) if PROVS[prov(x)]["type"] == "sea"}
                seas_b = {x for x in fleet_of(other) if PROVS[prov(x)]["type"] == "sea"}
                assert seas_a & seas_b, (loc, other)


def test_clockwise_lists_every_neighbour_once():
    for pid, p in PROVS.items():
        if p["type"] == "impassable":
            continue
        cw = p["clockwise"]
        assert len(cw) == len(set(cw)), pid
        assert set(cw) == neighbours(pid), pid


def test_clockwise_follows_the_map_for_some_known_provinces():
    def rotate(seq):
        i = seq.index(min(seq))
        return seq[i:] + seq[:i]

    # checked by hand against the geography (north, then clockwise)
    assert rotate(PROVS["TUR"]["clockwise"]) == rotate(["BLA", "CAU", "PER", "ARA", "EMS", "GRE", "BLK"])
    assert rotate(PROVS["ENG"]["clockwise"]) == rotate(["NTH", "MAO", "NAO"])
    assert rotate(PROVS["EGY"]["clockwise"]) == rotate(["EMS", "ARA", "RED", "SUD", "LIB"])
    assert rotate(PROVS["BLA"]["clockwise"]) == rotate(["UKR", "CAU", "TUR", "BLK"])
    # the Strait of Malacca lies between Malaya and Indonesia, Bab-el-Mandeb between Aden and Ethiopia
    assert rotate(PROVS["BOB"]["clockwise"]) == rotate(["BUR", "MAL", "SCS", "INO", "IOC", "IND"])
    assert rotate(PROVS["RED"]["clockwise"]) == rotate(["EMS", "ARA", "ADE", "ARB", "ETH", "SUD", "EGY"])


def test_coordinates_inside_the_map():
    for pid, p in PROVS.items():
        for key in ("xy", "xy2"):
            if key in p:
                x, y = p[key]
                assert 0 <= x <= 2000 and 0 <= y <= 1000, pid


def test_map_is_connected():
    start = "MOS"
    seen = {start}
    todo = [start]
    while todo:
        here = todo.pop()
        for nxt in neighbours(here):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    playable = {p for p, v in PROVS.items() if v["type"] != "impassable"}
    assert seen == playable


def test_every_centre_has_a_group():
    for pid, p in PROVS.items():
        if p.get("centre"):
            assert p["group"] in DATA["victory_groups"]["groups"], pid
        else:
            assert "group" not in p


def test_rules_table():
    assert DATA["start_phase"] == "S01M"
    assert DATA["rules"]["edition"] == "1976"
    assert DATA["rules"]["retreat_default"] == "right_hand"


def test_rules_options_are_known_to_the_engine():
    from app.engine.rules import rule_options

    options = rule_options(DATA["rules"])
    assert options.edition == "1976" and options.retreat_default == "right_hand"


def test_engine_map_builder_accepts_the_map():
    from app.engine.geo import Province, Terrain, build_map

    provinces = [
        Province(
            id=pid,
            name=p["name"],
            terrain=Terrain(p["type"]),
            centre=bool(p.get("centre")),
            coasts=tuple(f"{pid}/{c}" for c in coasts(pid)),
            island=bool(p.get("island")),
        )
        for pid, p in PROVS.items()
    ]
    army = {pid: list(p["army"]) for pid, p in PROVS.items() if "army" in p}
    fleet = {loc: list(fleet_of(loc)) for pid, p in PROVS.items() if p["type"] != "land" for loc in locations(pid)}
    aliases = {pid: [pid, p["name"], *p.get("aliases", [])] for pid, p in PROVS.items()}
    game_map = build_map(provinces, army, fleet, aliases)
    assert game_map.lookup("Vladivastok") == "VLA"
    for pid in PROVS:
        if PROVS[pid]["type"] != "impassable":
            assert game_map.neighbours(pid) == set(PROVS[pid]["clockwise"])


# ---------------------------------------------------------------- aliases (Map Clarification 6 and the text)
SEED_SPELLINGS = {
    # Map Clarification 6
    "B": "BEN", "Benelux": "BEN", "Gr.": "GRE", "Greece": "GRE", "K": "KOR", "Korea": "KOR",
    "M": "MAL", "Malaya": "MAL", "Nfld.": "NFL", "Newfoundland": "NFL",
    "St.L.": "STL", "St. Lawrence Gulf": "STL", "C.A.": "CAM", "Central America": "CAM",
    # rule 2
    "New York": "NYK", "California": "CAL", "Texas": "TEX", "South Africa": "SAF",
    "Ethiopia": "ETH", "Nigeria": "NIG", "Canton": "CAN", "Mukden": "MUK", "Peking": "PEK",
    "Arabia": "ARA", "Egypt": "EGY", "Persia": "PER", "Leningrad": "LEN",
    "Vladivastok": "VLA", "Vladivostok": "VLA", "Moscow": "MOS", "Samarkand": "SAM",
    "Irkutsk": "IRK", "LaPlata": "LAP", "La Plata": "LAP", "Peru": "PRU", "Brazil": "BRA",
    "France": "FRA", "Germany": "GER", "Spain": "SPA", "Burma": "BUR", "England": "ENG",
    "Japan": "JAP", "New Zealand": "NZL", "Sydney": "SYD",
    # rules 5-15 and the clarifications
    "India": "IND", "Hawaii": "HAW", "Hawaiian": "HAW", "Turkey": "TUR", "Ukraine": "UKR",
    "Ontario": "ONT", "Sinkiang": "SIN", "Hudson Bay": "HUD", "Colombia": "COL",
    "Eastern Med.": "EMS", "EMS": "EMS", "Red Sea": "RED", "Caribbean": "CAR",
    "Galapagos": "GAL", "Morocco": "MOR", "Aden": "ADE", "Indonesia": "INO",
    "Western Med.": "WMS", "Mid-Atlantic": "MAO", "MAO": "MAO", "SAO": "SAO",
    "South Atlantic": "SAO", "Arabia Sea": "ARB", "Bay of Bengal": "BOB",
    "South China Sea": "SCS", "Scandinavia": "SCA", "Scandanavia": "SCA",
    "Baltic": "BAL", "Baltic Sea": "BAL", "North Sea": "NTH",
    "Philippines": "PHI", "Quebec": "QUE", "Siam": "SIA", "Antarctica": "ANT",
    "Antarctic": "ANT", "Alaska": "ALA", "North Pacific": "NPO", "South Pacific": "SPO",
    "Bering Sea": "BER", "Roaring 40's": "ROR", "Afghanistan": "AFG", "Pakistan": "PAK",
    "Kamchatka": "KAM", "Venezuela": "VEN", "Black Sea": "BLA",
}


@pytest.mark.parametrize("spelling,expected", sorted(SEED_SPELLINGS.items()))
def test_seed_spelling_resolves(spelling, expected):
    assert lookup(spelling) == expected


def test_no_alias_names_two_provinces():
    clashes = {k: v for k, v in ALIASES.items() if len(v) > 1}
    assert not clashes


# ---------------------------------------------------------------- rule 5: standing armies, India
def test_standing_armies_rule_5_and_15_1():
    standing = {pid for pid, p in PROVS.items() if p.get("standing_army")}
    assert standing == {"IND", "HAW"} == set(DATA["setups"]["eight"]["standing_armies"])
    assert set(SEVEN["standing_armies"]) == {"IND", "JAP"}
    for pid in ("IND", "HAW", "JAP"):
        assert PROVS[pid]["centre"]
    assert not any(pid in p["home"] for p in POWERS for pid in ("IND", "HAW"))
    assert PROVS["IND"]["no_attack_before"] == "S02M"


def test_ownership_gives_build_rights_rule_5_and_15_1():
    homes = DATA["conditional_homes"]

    def owners(province, setup):
        return {h["power"] for h in homes if h["province"] == province and h.get("setup", setup) == setup}

    assert owners("IND", "eight") == set(POWER_IDS)
    assert owners("IND", "seven") == set(POWER_IDS)
    assert owners("HAW", "eight") == set(POWER_IDS)
    assert owners("JAP", "seven") == set(SEVEN["powers"])


# ---------------------------------------------------------------- rule 6: building
def test_two_coasted_provinces_rule_6_1():
    for pid in ("ARA", "FRA", "LEN"):
        assert len(coasts(pid)) == 2, pid
        assert all(seas_of(pid)), pid
    choices = {c["power"]: c for c in DATA["hidden_choices"]}
    assert set(choices["ISLAM"]["options"]) == {"F ARA/EC", "F ARA/WC"}
    assert set(choices["RUSSIA"]["options"]) == {"F LEN/NC", "F LEN/SC"}
    assert set(choices["WESTERN_EUROPE"]["options"]) == {"F FRA/NC", "F FRA/SC"}
    # the two coasts of each reach different waters
    for pid in ("ARA", "FRA", "LEN"):
        a, b = [set(fleet_of(loc)) for loc in locations(pid)]
        assert a != b


def test_peking_army_or_fleet_rule_6_2():
    choice = next(c for c in DATA["hidden_choices"] if c["power"] == "CHINA")
    assert set(choice["options"]) == {"A PEK", "F PEK"}
    assert choice["unit"] in power("CHINA")["units"]
    assert PROVS["PEK"]["type"] == "coast" and not coasts("PEK")


def test_hidden_choices_default_is_a_starting_unit():
    for choice in DATA["hidden_choices"]:
        assert choice["unit"] in power(choice["power"])["units"]
        assert choice["unit"] in choice["options"]
        assert choice["reveal_with"] == "S01M"


def test_turkey_home_for_islam_rule_6_3():
    assert any(h["power"] == "ISLAM" and h["province"] == "TUR" and "setup" not in h
               for h in DATA["conditional_homes"])
    assert PROVS["TUR"]["centre"] and not any("TUR" in p["home"] for p in POWERS)


def test_england_western_european_rule_6_4():
    we = power("WESTERN_EUROPE")
    assert "ENG" in we["home"] and "ENG" in we["centres"]
    assert not any(u.split()[1] == "ENG" for u in we["units"])


def test_build_centres_rule_6_5():
    sites = {(s["power"], s["province"], s["unit"]) for s in DATA["build_sites"]}
    assert sites == {("RUSSIA", "UKR", "F"), ("NORTH_AMERICA", "ONT", "F"), ("CHINA", "SIN", "A")}
    for pid in ("UKR", "ONT", "SIN"):
        assert not PROVS[pid].get("centre")
    assert PROVS["UKR"]["type"] == "coast" and PROVS["SIN"]["type"] == "land"
    # Ontario's fleet builds are on the Hudson Bay coast: its only water is Hudson Bay
    assert seas_of("ONT") == {"HUD"}


def test_burma_rule_6_6():
    assert not PROVS["BUR"].get("centre")
    assert not any(s["province"] == "BUR" for s in DATA["build_sites"])
    assert not any(h["province"] == "BUR" for h in DATA["conditional_homes"])
    assert "F BUR" in power("WESTERN_EUROPE")["units"]


# ---------------------------------------------------------------- rule 7: canals
def test_canals_rule_7():
    assert fleet_adj("EMS", "RED") and fleet_adj("RED", "EMS")
    assert fleet_adj("CAR", "GAL") and fleet_adj("GAL", "CAR")
    for pid in ("CAM", "COL", "EGY"):
        assert not coasts(pid), f"{pid} must have one coast"
    assert {"EMS", "RED"} <= set(fleet_of("EGY"))
    assert {"CAR", "GAL"} <= set(fleet_of("CAM")) and {"CAR", "GAL"} <= set(fleet_of("COL"))
    assert army_adj("EGY", "ARA") and army_adj("CAM", "COL")
    canals = {frozenset(c["seas"]): c for c in DATA["canals"]}
    assert set(canals) == {frozenset(("EMS", "RED")), frozenset(("CAR", "GAL"))}
    assert all(c["army_fleet"] is False for c in canals.values())  # rule 10.1


# ---------------------------------------------------------------- rule 8: direct passages
@pytest.mark.parametrize("a,b,sea1,sea2", [
    ("SPA", "MOR", "WMS", "MAO"),
    ("ETH", "ADE", "RED", "ARB"),
    ("MAL", "INO", "BOB", "SCS"),
])
def test_direct_passages_rule_8(a, b, sea1, sea2):
    assert army_adj(a, b) and army_adj(b, a)
    assert fleet_adj(a, b) and fleet_adj(b, a)
    assert fleet_adj(sea1, sea2), "the normal passage of fleets is not affected"
    assert any(set(p["provinces"]) == {a, b} and set(p["seas"]) == {sea1, sea2} for p in DATA["passages"])


def test_germany_touches_scandinavia_rule_8():
    assert army_adj("GER", "SCA") and fleet_adj("GER", "SCA")
    assert fleet_adj("NTH", "BAL") and fleet_adj("BAL", "NTH")


# ---------------------------------------------------------------- rules 9-10: convoys and A/F
def test_fast_ferry_and_army_fleet_rules_9_10():
    af = DATA["army_fleet"]
    assert af["fast_ferry_max_seas"] == 1
    assert af["same_power_only"] is True
    assert af["rations"] == 3


def test_af_in_hawaii_not_indonesia_rule_10_3():
    assert PROVS["HAW"]["island"] is True
    assert not PROVS["INO"].get("island")
    assert PROVS["INO"]["type"] == "coast"


# ---------------------------------------------------------------- rule 12: solid provinces
@pytest.mark.parametrize("pid", ["INO", "JAP", "NFL", "NZL", "PHI"])
def test_solid_provinces_rule_12(pid):
    p = PROVS[pid]
    assert p["type"] == "coast" and not p.get("island") and not coasts(pid)


def test_hawaii_single_island_rule_12():
    assert PROVS["HAW"]["island"] is True and not coasts("HAW")
    assert PROVS["HAW"]["army"] == []


# ---------------------------------------------------------------- rule 13: impassable north
def test_northern_areas_impassable_rule_13():
    arctic = PROVS["ARC"]
    assert arctic["type"] == "impassable"
    assert not arctic.get("army") and not arctic.get("fleet")
    for pid in PROVS:
        assert "ARC" not in neighbours(pid)
    # nothing playable lies north of 70 degrees (y < 111)
    for pid, p in PROVS.items():
        if p["type"] != "impassable":
            assert p["xy"][1] > 111, pid


# ---------------------------------------------------------------- rule 14: coastal crawl
@pytest.mark.parametrize("a,b", [
    ("LEN/NC", "SCA"), ("LEN/SC", "SCA"),
    ("QUE", "NFL"),
    ("ARA/WC", "ADE"), ("ARA/EC", "ADE"),
    ("FRA/NC", "SPA"), ("FRA/SC", "SPA"),
    ("SIA", "MAL"),
])
def test_coastal_crawl_rule_14(a, b):
    assert fleet_adj(a, b) and fleet_adj(b, a)


# ---------------------------------------------------------------- rule 15: seven players
def test_seven_player_changes_rule_15():
    assert set(SEVEN["not_centres"]) == {"ANT", "HAW"}
    for pid in ("JAP", "NZL", "SYD"):
        assert is_centre_seven(pid)
        assert not any(pid in power(p)["home"] for p in SEVEN["powers"])
    assert any(h["power"] == "NORTH_AMERICA" and h["province"] == "ALA" and h.get("setup") == "seven"
               for h in DATA["conditional_homes"])
    assert not any(h["province"] == "ALA" and h.get("setup") != "seven" for h in DATA["conditional_homes"])


# ---------------------------------------------------------------- Map Clarifications
@pytest.mark.parametrize("sea", ["NPO", "SPO", "BER", "ROR"])
def test_clarification_1_seas_on_both_sides(sea):
    p = PROVS[sea]
    assert p["type"] == "sea"
    assert "xy2" in p
    xs = sorted([p["xy"][0], p["xy2"][0]])
    assert xs[0] < 500 and xs[1] > 1500, "one label near each edge"
    sides = {PROVS[n]["xy"][0] < 1000 for n in neighbours(sea)}
    assert sides == {True, False}, "neighbours on both the American and the Asian side"


def test_clarification_1_wrap_seas_are_one_id_each():
    for name in ("North Pacific", "South Pacific", "Bering Sea", "Roaring 40's"):
        assert len(ALIASES[norm(name)]) == 1


@pytest.mark.parametrize("a,b,kind", [
    ("AFG", "IND", "army"),
    ("NTH", "BAL", "fleet"),
    ("GER", "SCA", "army"),
    ("BOB", "SCS", "fleet"),
])
def test_clarification_2_touches(a, b, kind):
    if kind == "army":
        assert army_adj(a, b) and army_adj(b, a)
    else:
        assert fleet_adj(a, b) and fleet_adj(b, a)


@pytest.mark.parametrize("a,b", [("PAK", "SIN"), ("ALA", "KAM"), ("PRU", "VEN"), ("EMS", "BLA")])
def test_clarification_3_does_not_touch(a, b):
    assert not touches(a, b) and not touches(b, a)


def test_clarification_4_turkey_on_both_sides_of_the_straits():
    assert {"BLA", "EMS"} <= set(fleet_of("TUR"))
    assert not coasts("TUR"), "one coast: a fleet passes the straits through Turkey"
    european = {"GRE", "BLK"}
    asian = {"PER", "CAU", "ARA"}
    assert european <= set(PROVS["TUR"]["army"]) and asian <= set(PROVS["TUR"]["army"])
    assert not fleet_adj("BLA", "EMS")


def test_clarification_5_home_centres_by_sea():
    homes = {h for p in POWERS for h in p["home"]}
    inland = {"MOS", "SAM", "IRK"}
    for pid in homes - inland:
        assert PROVS[pid]["type"] == "coast" and seas_of(pid), pid
    for pid in inland:
        assert PROVS[pid]["type"] == "land", pid
        assert not seas_of(pid)


def test_clarification_6_abbreviations():
    for abbr, pid in [("B", "BEN"), ("Gr.", "GRE"), ("K", "KOR"), ("M", "MAL"),
                      ("Nfld.", "NFL"), ("St.L.", "STL"), ("C.A.", "CAM")]:
        assert lookup(abbr) == pid


# ---------------------------------------------------------------- optional rule: groups
def test_victory_groups_optional_rule():
    groups = {pid: p["group"] for pid, p in PROVS.items() if p.get("centre")}
    assert groups["HAW"] == "americas"
    assert groups["ARA"] == "europe_africa" and groups["ANT"] == "europe_africa"
    assert groups["PER"] == groups["SYD"] == groups["NZL"] == "asia"
    vg = DATA["victory_groups"]
    assert vg["minimum_per_group"] == 2 and vg["enabled"] is False
    for g in vg["groups"]:
        assert sum(1 for x in groups.values() if x == g) >= 2
    # every group holds enough centres that the requirement can be met in both set-ups
    for pid in SEVEN["not_centres"]:
        groups.pop(pid)
    for g in vg["groups"]:
        assert sum(1 for x in groups.values() if x == g) >= 2


def test_computed_clockwise_is_sorted_by_bearing():
    # a computed (non-override) clockwise list is sorted by bearing from the province label
    p = PROVS["FRA"]
    x0, y0 = p["xy"]

    def bearing(q):
        x, y = PROVS[q]["xy"]
        return (math.atan2(y - y0, x - x0) + math.pi / 2) % (2 * math.pi)

    cw = p["clockwise"]
    start = cw.index(min(cw, key=bearing))
    rotated = cw[start:] + cw[:start]
    assert rotated == sorted(cw, key=bearing)
