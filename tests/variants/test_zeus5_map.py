"""Checks of the Zeus 5 variant data (variants/zeus5/variant.toml).

The file is read with tomllib directly, so these tests do not depend on the
loader. Each seed map rule has its own test; the seed is
/work/shared/seeds/zeus5-rules.txt, the map facts come from vDiplomacy's Zeus5
(see variants/zeus5/NOTES.md).
"""

from __future__ import annotations

import re
import tomllib
from collections import Counter
from functools import cache
from pathlib import Path

import pytest

VARIANT_FILE = Path(__file__).resolve().parents[2] / "variants" / "zeus5" / "variant.toml"

MAP_WIDTH, MAP_HEIGHT = 1106, 1072  # the reference map image the xy refer to

SEED_HOMES = {  # rule 3, capital first
    "BRITAIN": ["LON", "EDI", "CAN", "EGY", "MDE"],
    "CHINA": ["CHU", "CTN", "PEK"],
    "GERMANY": ["BER", "HAM", "MUN"],
    "ITALY": ["ROM", "VEN", "TRI"],
    "JAPAN": ["TOK", "SAP", "SEN"],
    "USA": ["WAS", "HAW", "NYK"],
    "USSR": ["MOS", "LEN", "STA", "MAG"],
}

NEUTRAL_CENTRES = {
    "DEN", "FIN", "GRE", "INC", "KOR", "MID", "NWY", "OKI",
    "PAN", "PAR", "POL", "RUM", "SOL", "SPA", "TUR", "YUG",
}

# Every province name of the reference data (install.php spelling) -> our id.
MAP_NAMES = {
    "Adriatic Sea": "ADR", "Alaska": "ALA", "Amursk": "AMU", "Arctic Ocean": "ARC",
    "Austria": "AUS", "Baltic Sea": "BAL", "Bay of Bengal": "BOB", "Bay of Biscay": "BIS",
    "Benghazi": "BEN", "Berlin": "BER", "Black Sea": "BLA", "Burma": "BRM",
    "California": "CAL", "Canada": "CAN", "Canton": "CTN", "Caroline Isl.": "CAR",
    "Central Pacific Ocean": "CPO", "Chungking": "CHU", "Columbia": "COL", "Czech": "CZE",
    "Denmark": "DEN", "East China Sea": "ECS", "East Siberian Sea": "ESS",
    "Eastern Mediterranean Sea": "EMS", "Edinburgh": "EDI", "Egypt": "EGY",
    "English Channel": "ENG", "Finland": "FIN", "Greece": "GRE", "Gulf of Bothnia": "BOT",
    "Hamburg": "HAM", "Hawaii": "HAW", "Helgoland": "HEL", "Hungary": "HUN", "India": "IND",
    "Indian Ocean": "INO", "IndoChina": "INC", "Ionian Sea": "ION", "Iran": "IRA",
    "Kazakhstan": "KAZ", "Korea": "KOR", "Kyushu": "KYU", "Leningrad": "LEN",
    "Lithuania": "LIT", "London": "LON", "Low Countries": "LOW", "Magadan": "MAG",
    "Mid-Atlantic Ocean": "MAO", "Mid-Pacific Ocean": "MPO", "Middle East": "MDE",
    "Midway Isl.": "MID", "Moscow": "MOS", "Munich": "MUN", "Nepal": "NEP",
    "New York": "NYK", "North Africa": "NAF", "North Atlantic Ocean": "NAO",
    "North Pacific Ocean": "NPO", "North Sea": "NTH", "Norway": "NWY", "Okinawa": "OKI",
    "Oregon": "ORE", "Panama": "PAN", "Paris": "PAR", "Peking": "PEK", "Piedmont": "PIE",
    "Poland": "POL", "Prussia": "PRU", "Rome": "ROM", "Rumania": "RUM", "Sapporo": "SAP",
    "Sea of Japan": "SOJ", "Sea of Okhotsk": "SOO", "Sendai": "SEN", "Siberia": "SIB",
    "Sinkiang": "SIN", "Solomon Isl.": "SOL", "South Atlantic Ocean": "SAO",
    "South China Sea": "SCS", "South Pacific Ocean": "SPO", "Spain": "SPA",
    "Stalingrad": "STA", "Sweden": "SWE", "Switzerland": "SWI", "Tokyo": "TOK",
    "Tripoli": "TRI", "Turkey": "TUR", "Venice": "VEN", "Vichy-France": "VIC",
    "Washington": "WAS", "Western Britain": "WBR", "Western Mediterranean": "WMS",
    "Yellow Sea": "YEL", "Yugoslavia": "YUG",
}

# Spellings used by the seed rules text and by the names overlay (mapNames.png).
SEED_AND_LABEL_SPELLINGS = {
    # seed
    "Okhotsk": "MAG", "N.Y.": "NYK", "West Med. Sea": "WMS", "East Med. Sea": "EMS",
    "MAO": "MAO", "SAO": "SAO", "Solomon Is.": "SOL", "Midway": "MID", "Hawaiian": "HAW",
    "Wales": "WBR", "SW England": "WBR", "Irish Sea": "WBR", "Ireland": "WBR",
    "Kiel": "HAM", "Near East": "MDE", "Colombia": "COL",
    # overlay labels
    "East Siberean Sea": "ESS", "Western Mediterranean Sea": "WMS", "Helgo-land": "HEL",
    "Switz": "SWI", "Eng Ch": "ENG", "Midway Isl": "MID", "Solomon Isl": "SOL",
    "Caroline Isl.": "CAR", "Yugo-slavia": "YUG", "Vichy-France": "VIC",
}


# --------------------------------------------------------------------------- helpers


@cache
def variant() -> dict:
    with VARIANT_FILE.open("rb") as f:
        return tomllib.load(f)


def provinces() -> dict[str, dict]:
    return variant()["provinces"]


def powers() -> dict[str, dict]:
    return {p["id"]: p for p in variant()["powers"]}


def normalise(text: str) -> str:
    """Alias matching: case-insensitive, punctuation and spaces removed."""
    return "".join(ch for ch in text.lower() if ch.isalnum())


def alias_index() -> dict[str, set[str]]:
    index: dict[str, set[str]] = {}
    for pid, prov in provinces().items():
        for spelling in [pid, prov["name"], *prov.get("aliases", [])]:
            index.setdefault(normalise(spelling), set()).add(pid)
    return index


def resolve(spelling: str) -> str:
    hits = alias_index().get(normalise(spelling), set())
    assert len(hits) == 1, f"{spelling!r} resolves to {sorted(hits)}"
    return next(iter(hits))


def locations() -> set[str]:
    """Every place a fleet can stand: single-coast provinces, seas, and PROV/COAST."""
    locs = set()
    for pid, prov in provinces().items():
        if prov["type"] == "land":
            continue
        if "coasts" in prov:
            locs |= {f"{pid}/{c}" for c in prov["coasts"]}
        else:
            locs.add(pid)
    return locs


def army_graph() -> dict[str, set[str]]:
    return {pid: set(p.get("army", [])) for pid, p in provinces().items()}


def fleet_graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for pid, prov in provinces().items():
        if "coasts" in prov:
            for cid, coast in prov["coasts"].items():
                graph[f"{pid}/{cid}"] = set(coast.get("fleet", []))
        elif prov["type"] != "land":
            graph[pid] = set(prov.get("fleet", []))
    return graph


def one_sided(graph: dict[str, set[str]]) -> list[tuple[str, str]]:
    return sorted((a, b) for a, nbrs in graph.items() for b in nbrs if a not in graph.get(b, set()))


def fleet_borders(pid: str) -> set[str]:
    """Province ids a fleet in any coast of pid can reach."""
    graph = fleet_graph()
    out: set[str] = set()
    for loc, nbrs in graph.items():
        if loc.split("/")[0] == pid:
            out |= {n.split("/")[0] for n in nbrs}
    return out


def fleet_adjacent(a: str, b: str) -> bool:
    return b in fleet_borders(a)


def army_adjacent(a: str, b: str) -> bool:
    return b in provinces()[a].get("army", [])


# --------------------------------------------------------------------------- top level


def test_top_level() -> None:
    v = variant()
    assert v["name"] == "zeus5"
    assert v["title"]
    assert v["start_phase"] == "W1939A"
    assert v["victory_centres"] == 21
    assert v["rules"]["edition"] == "1976"


def test_seven_powers() -> None:
    assert sorted(powers()) == sorted(SEED_HOMES)
    letters = [p["letter"] for p in powers().values()]
    assert len(set(letters)) == 7, letters


@pytest.mark.parametrize("power", sorted(SEED_HOMES))
def test_home_centres_and_capital_per_seed(power: str) -> None:
    p = powers()[power]
    assert p["home"] == SEED_HOMES[power]
    assert p["capital"] == SEED_HOMES[power][0]
    assert p.get("centres", p["home"]) == SEED_HOMES[power]
    assert p["units"] == []  # rule 4: everybody builds in Winter 1939
    for pid in p["home"]:
        assert provinces()[pid].get("centre") is True, pid


def test_home_centre_counts() -> None:
    counts = {k: len(v["home"]) for k, v in powers().items()}
    assert counts == {"BRITAIN": 5, "CHINA": 3, "GERMANY": 3, "ITALY": 3,
                      "JAPAN": 3, "USA": 3, "USSR": 4}
    assert sum(counts.values()) == 24


def test_41_supply_centres() -> None:
    centres = {pid for pid, p in provinces().items() if p.get("centre")}
    assert len(centres) == 41
    homes = {c for p in powers().values() for c in p["home"]}
    assert centres - homes == NEUTRAL_CENTRES | {"IND"}
    assert 2 * variant()["victory_centres"] > len(centres)


def test_province_counts_and_ids() -> None:
    types = Counter(p["type"] for p in provinces().values())
    assert types == {"sea": 28, "coast": 55, "land": 11}
    for pid in provinces():
        assert re.fullmatch(r"[A-Z]{3,4}", pid), pid


def test_every_province_has_name_and_xy_on_the_map() -> None:
    for pid, prov in provinces().items():
        assert prov["name"], pid
        x, y = prov["xy"]
        assert 0 <= x < MAP_WIDTH and 0 <= y < MAP_HEIGHT, pid
        for cid, coast in prov.get("coasts", {}).items():
            x, y = coast["xy"]
            assert 0 <= x < MAP_WIDTH and 0 <= y < MAP_HEIGHT, (pid, cid)


# --------------------------------------------------------------------------- integrity


def test_shape_of_province_tables() -> None:
    for pid, prov in provinces().items():
        kind = prov["type"]
        if kind == "sea":
            assert "army" not in prov and "coasts" not in prov, pid
            assert prov["fleet"], pid
        elif kind == "land":
            assert "fleet" not in prov and "coasts" not in prov, pid
            assert prov["army"], pid
        else:
            assert kind == "coast", pid
            assert prov["army"], pid
            if "coasts" in prov:
                assert "fleet" not in prov, pid
                assert len(prov["coasts"]) >= 2, pid
            else:
                assert prov["fleet"], pid


def test_every_referenced_id_exists() -> None:
    provs = set(provinces())
    locs = locations()
    for pid, nbrs in army_graph().items():
        assert nbrs <= provs, (pid, nbrs - provs)
    for loc, nbrs in fleet_graph().items():
        assert nbrs <= locs, (loc, nbrs - locs)
    for p in powers().values():
        for key in ("home", "centres", "territories"):
            assert set(p.get(key, [])) <= provs, (p["id"], key)
        assert p["capital"] in provs
    for site in variant().get("build_sites", []):
        assert site["power"] in powers() and site["province"] in provs
    for hidden in variant().get("hidden_builds", []):
        assert hidden["power"] in powers() and set(hidden["sites"]) <= provs


def test_army_borders_symmetric() -> None:
    assert one_sided(army_graph()) == []


def test_fleet_borders_symmetric() -> None:
    assert one_sided(fleet_graph()) == []


def test_symmetry_check_catches_a_one_sided_border() -> None:
    graph = army_graph()
    assert "MOS" not in graph["PAR"]
    graph["PAR"] = graph["PAR"] | {"MOS"}
    assert ("PAR", "MOS") in one_sided(graph)


def test_no_self_or_duplicate_borders() -> None:
    for pid, prov in provinces().items():
        lists = [prov.get("army", []), prov.get("fleet", [])]
        lists += [c["fleet"] for c in prov.get("coasts", {}).values()]
        for nbrs in lists:
            assert len(nbrs) == len(set(nbrs)), pid
            assert all(n.split("/")[0] != pid for n in nbrs), pid


def test_armies_never_border_seas() -> None:
    for pid, nbrs in army_graph().items():
        for n in nbrs:
            assert provinces()[n]["type"] != "sea", (pid, n)


def test_every_coastal_province_touches_water() -> None:
    for pid, prov in provinces().items():
        if prov["type"] != "coast":
            continue
        seas = {n for n in fleet_borders(pid)
                if provinces()[n]["type"] == "sea" or provinces()[n].get("island")}
        assert seas, pid


def test_map_is_connected() -> None:
    graph: dict[str, set[str]] = {pid: set() for pid in provinces()}
    for pid, nbrs in army_graph().items():
        graph[pid] |= nbrs
    for loc, nbrs in fleet_graph().items():
        graph[loc.split("/")[0]] |= {n.split("/")[0] for n in nbrs}
    seen, todo = {"LON"}, ["LON"]
    while todo:
        for n in graph[todo.pop()] - seen:
            seen.add(n)
            todo.append(n)
    assert seen == set(provinces())


# --------------------------------------------------------------------------- aliases


def test_aliases_are_unambiguous() -> None:
    clashes = {k: v for k, v in alias_index().items() if len(v) > 1}
    assert clashes == {}


@pytest.mark.parametrize("name", sorted(MAP_NAMES))
def test_every_map_name_resolves(name: str) -> None:
    assert resolve(name) == MAP_NAMES[name]


@pytest.mark.parametrize("spelling", sorted(SEED_AND_LABEL_SPELLINGS))
def test_seed_and_label_spellings_resolve(spelling: str) -> None:
    assert resolve(spelling) == SEED_AND_LABEL_SPELLINGS[spelling]


def test_okhotsk_and_magadan_are_the_ussr_fourth_centre() -> None:
    assert resolve("Okhotsk") == resolve("Magadan") == "MAG"
    assert "MAG" in powers()["USSR"]["home"]
    assert resolve("Sea of Okhotsk") == "SOO" != "MAG"
    assert provinces()["SOO"]["type"] == "sea"


def test_tripoli_is_italys_third_centre() -> None:
    assert resolve("Tripoli") == "TRI"
    assert powers()["ITALY"]["home"][2] == "TRI"
    assert provinces()["TRI"]["centre"] is True
    # Benghazi and North Africa are separate non-centre provinces
    assert resolve("Benghazi") == "BEN" and resolve("North Africa") == "NAF"
    assert not provinces()["BEN"].get("centre") and not provinces()["NAF"].get("centre")


def test_colombia_and_columbia() -> None:
    assert resolve("Colombia") == resolve("Columbia") == "COL"


# --------------------------------------------------------------------------- seed rules


def test_rule4_fleet_builds_need_a_coast_in_canada_leningrad_middle_east() -> None:
    for pid in ("CAN", "LEN", "MDE"):
        assert len(provinces()[pid]["coasts"]) == 2, pid


def test_multi_coast_provinces() -> None:
    multi = {pid for pid, p in provinces().items() if "coasts" in p}
    assert multi == {"CAN", "COL", "FIN", "LEN", "MDE"}
    assert set(provinces()["CAN"]["coasts"]) == {"EC", "WC"}
    assert set(provinces()["LEN"]["coasts"]) == {"NC", "SC"}
    assert set(provinces()["MDE"]["coasts"]) == {"SC", "WC"}


@pytest.mark.parametrize("pid", ["EGY", "HAM", "PAN"])
def test_rule5_canal_provinces_have_one_coast(pid: str) -> None:
    prov = provinces()[pid]
    assert "coasts" not in prov and prov["type"] == "coast"
    assert prov.get("canal") is True


def test_rule5_egypt_canal_joins_mediterranean_and_red_sea_sides() -> None:
    egy = set(provinces()["EGY"]["fleet"])
    assert {"EMS", "INO"} <= egy
    assert "INO" not in provinces()["EMS"]["fleet"]  # only through the canal


def test_rule5_hamburg_canal_joins_baltic_and_helgoland() -> None:
    ham = set(provinces()["HAM"]["fleet"])
    assert {"BAL", "HEL"} <= ham
    assert "HEL" not in provinces()["BAL"]["fleet"]


def test_rule5_panama_canal_joins_atlantic_and_pacific() -> None:
    pan = set(provinces()["PAN"]["fleet"])
    assert {"MAO", "SAO"} <= pan and "SPO" in pan
    for atlantic in ("MAO", "SAO"):
        assert "SPO" not in provinces()[atlantic]["fleet"]


@pytest.mark.parametrize("a,b", [("DEN", "SWE"), ("KOR", "KYU"), ("TOK", "KYU"), ("SPA", "NAF")])
def test_rule6_land_crossings_for_armies_and_fleets(a: str, b: str) -> None:
    assert army_adjacent(a, b) and army_adjacent(b, a)
    assert fleet_adjacent(a, b) and fleet_adjacent(b, a)


@pytest.mark.parametrize("pid", ["DEN", "SWE", "KOR", "KYU", "TOK", "SPA"])
def test_rule6_one_coast_provinces(pid: str) -> None:
    assert "coasts" not in provinces()[pid]
    assert provinces()[pid]["fleet"]


def test_rule6_tokyo_single_coast_keeps_both_sides() -> None:
    tok = set(provinces()["TOK"]["fleet"])
    assert {"SOJ", "SAP"} <= tok  # former west coast
    assert {"MPO", "SEN", "CAR", "OKI"} <= tok  # former east coast
    assert "KYU" in tok


def test_rule6_no_fleet_border_north_sea_baltic() -> None:
    assert "BAL" not in provinces()["NTH"]["fleet"]
    assert "NTH" not in provinces()["BAL"]["fleet"]
    # but through the intervening land spaces
    assert "DEN" in provinces()["NTH"]["fleet"] and "DEN" in provinces()["BAL"]["fleet"]
    assert "SWE" in provinces()["NTH"]["fleet"] and "SWE" in provinces()["BAL"]["fleet"]


@pytest.mark.parametrize("other", ["YEL", "OKI"])
def test_rule6_no_fleet_border_sea_of_japan_yellow_sea_okinawa(other: str) -> None:
    assert other not in provinces()["SOJ"]["fleet"]
    assert "SOJ" not in provinces()[other]["fleet"]
    assert "SOJ" not in provinces()[other].get("army", [])


def test_rule6_sea_of_japan_reaches_yellow_sea_and_okinawa_via_land() -> None:
    soj = set(provinces()["SOJ"]["fleet"])
    for via, target in (("KOR", "YEL"), ("KYU", "YEL"), ("KYU", "OKI"), ("TOK", "OKI")):
        assert via in soj and target in provinces()[via]["fleet"], (via, target)


def test_rule6_no_other_fleet_route_sea_of_japan_to_yellow_sea() -> None:
    # Amursk-Peking is army-only (see NOTES.md): no fleet route avoids Korea/Kyushu/Tokyo
    assert army_adjacent("AMU", "PEK")
    assert not fleet_adjacent("AMU", "PEK")


def test_rule6_no_move_greece_turkey() -> None:
    for a, b in (("GRE", "TUR"), ("TUR", "GRE")):
        assert not army_adjacent(a, b)
        assert not fleet_adjacent(a, b)


@pytest.mark.parametrize("a,b", [("WMS", "MAO"), ("WMS", "SAO"), ("EMS", "BLA")])
def test_rule7_sea_links(a: str, b: str) -> None:
    assert b in provinces()[a]["fleet"] and a in provinces()[b]["fleet"]


def test_rule8_islands() -> None:
    islands = {pid for pid, p in provinces().items() if p.get("island")}
    assert islands == {"HAW", "MID", "OKI", "SOL"}
    assert provinces()["CAR"]["type"] == "sea"  # Caroline Isl. is an ordinary sea


@pytest.mark.parametrize("pid", ["HAW", "MID", "OKI", "SOL"])
def test_rule8_islands_have_army_and_fleet_borders(pid: str) -> None:
    prov = provinces()[pid]
    assert prov["type"] == "coast" and "coasts" not in prov
    assert prov["army"] and prov["fleet"]


@pytest.mark.parametrize("a,b", [("CAL", "HAW"), ("CAL", "MID"), ("HAW", "MID"), ("HAW", "PAN"),
                                 ("KYU", "OKI"), ("OKI", "SOL"), ("OKI", "TOK")])
def test_rule8_armies_reach_islands_without_convoy(a: str, b: str) -> None:
    assert army_adjacent(a, b) and army_adjacent(b, a)


def test_rule9_western_britain_is_one_coastal_space() -> None:
    wbr = provinces()["WBR"]
    assert wbr["type"] == "coast" and "coasts" not in wbr and not wbr.get("island")
    for part in ("Wales", "SW England", "Irish Sea", "Ireland"):
        assert resolve(part) == "WBR"
    assert {"LON", "EDI"} <= set(wbr["army"])
    assert {"MAO", "NAO", "ENG", "BIS"} <= set(wbr["fleet"])


def test_rule10_india_standing_army() -> None:
    ind = provinces()["IND"]
    assert ind.get("standing_army") is True and ind.get("centre") is True
    owned = {c for p in powers().values() for c in p.get("centres", p["home"])}
    assert "IND" not in owned
    assert [pid for pid, p in provinces().items() if p.get("standing_army")] == ["IND"]


def test_rule11_usa_may_build_in_california_while_owning_it() -> None:
    sites = [s for s in variant()["build_sites"] if s["province"] == "CAL"]
    assert {s["unit"] for s in sites} == {"A", "F"}
    assert all(s["power"] == "USA" and s.get("requires_owned") is True for s in sites)
    assert all("from_phase" not in s for s in sites)  # "always"
    assert not provinces()["CAL"].get("centre")  # not one of the 41
    assert "CAL" in powers()["USA"]["territories"]  # owned at the start


def test_rule4_usa_hidden_new_york_or_california_build() -> None:
    assert variant()["hidden_builds"] == [
        {"power": "USA", "phase": "W1939A", "sites": ["NYK", "CAL"], "reveal_after": "S1940M"}
    ]


def test_starting_territories_do_not_overlap() -> None:
    owned = [pid for p in powers().values()
             for pid in [*p.get("centres", p["home"]), *p.get("territories", [])]]
    assert len(owned) == len(set(owned))
    for p in powers().values():
        for pid in p.get("territories", []):
            assert not provinces()[pid].get("centre"), pid
