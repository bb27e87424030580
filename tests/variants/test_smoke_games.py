"""Smoke games: ten game years of random legal orders per variant, through the
public JSON interface (app.jsonapi), checking the invariants after every phase.

Orders are drawn with a seeded random.Random: for each power, every candidate
order of every unit (hold, moves to neighbours, supports, and for variants with
the A/F module boarding, A/F moves and landings) is checked with
jsonapi.check_orders, and one accepted order per unit is picked. Retreats pick
from the dislodged unit's retreats (or leave it to the variant's default);
builds use the listed sites; removals pick own units (or leave it to the
default). Now and then a power sends nothing, to exercise the NMR defaults.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from typing import Any

import pytest

from app import jsonapi

YEARS = 10
TIME_LIMIT = 30.0  # seconds per game

GAMES = [(variant, seed) for variant in ("standard", "zeus5", "smallworld8", "smallworld7") for seed in (1, 2, 3)]


class Board:
    """The map as `judge variant show --json` gives it."""

    def __init__(self, variant: str) -> None:
        data = jsonapi.variant_map(variant)
        self.provinces: dict[str, dict[str, Any]] = {p["id"]: p for p in data["provinces"]}
        self.coast_fleet: dict[str, list[str]] = {
            c["id"]: c["fleet"] for p in data["provinces"] for c in p["coasts"]
        }
        self.centres = {pid for pid, p in self.provinces.items() if p["supply_center"]}

    def type(self, province: str) -> str:
        return self.provinces[province]["type"]

    def island(self, province: str) -> bool:
        return bool(self.provinces[province].get("island"))

    def reach(self, kind: str, location: str) -> list[str]:
        """Locations a unit of `kind` at `location` may move to."""
        province = location.split("/")[0]
        if kind == "A":
            return list(self.provinces[province]["army"])
        if "/" in location:
            return list(self.coast_fleet.get(location, []))
        return list(self.provinces[province]["fleet"])  # fleets and A/Fs

    def seas_next_to(self, province: str) -> list[str]:
        info = self.provinces[province]
        locations = list(info["fleet"]) + [x for c in info["coasts"] for x in c["fleet"]]
        return sorted({x.split("/")[0] for x in locations})


def split(unit: str) -> tuple[str, str, str]:
    """`F SPA/NC` -> ("F", "SPA/NC", "SPA"); `A/F NWG` -> ("A/F", "NWG", "NWG")."""
    kind, location = unit.split(" ", 1)
    return kind, location, location.split("/")[0]


def weight(unit: str) -> int:
    return 2 if unit.startswith("A/F") else 1  # an A/F is an army and a fleet


# -- order generation --------------------------------------------------------------------------


def movement_orders(rng: random.Random, state: dict, power: str, units: list[str], board: Board) -> list[str]:
    everyone = [(p, u) for p, us in state["units"].items() for u in us]
    by_province = {split(u)[2]: u for _, u in everyone}
    candidates: dict[str, list[tuple[str, str]]] = {}
    for unit in units:
        kind, location, province = split(unit)
        lines = [("hold", f"{unit} H")]
        reach = board.reach("A" if kind == "A" else "F", location)
        reach_provinces = {r.split("/")[0] for r in reach}
        for target in reach:
            lines.append(("move", f"{unit} - {target}"))
        supports = []
        for other_province, other in by_province.items():
            if other_province == province or other.startswith("A/F"):
                continue
            if other_province in reach_provinces:
                supports.append(f"{unit} S {other}")
            o_kind, o_location, _ = split(other)
            for target in board.reach(o_kind, o_location):
                if target.split("/")[0] in reach_provinces and target.split("/")[0] != province:
                    supports.append(f"{unit} S {other} - {target.split('/')[0]}")
        rng.shuffle(supports)
        lines += [("support", s) for s in supports[:8]]
        if kind == "A":
            for sea in board.seas_next_to(province):
                mine = by_province.get(sea)
                if mine and mine.startswith("F ") and mine in units:
                    lines.append(("board", f"{unit} boards {mine}"))
        candidates[unit] = lines
    flat = [line for lines in candidates.values() for _, line in lines]
    checked = jsonapi.check_orders(state, power, flat)
    ok = {c["line"] for c in checked if c["ok"]}
    orders = []
    for unit, lines in candidates.items():
        legal = [(what, line) for what, line in lines if line in ok]
        if not legal:
            continue
        by_kind: dict[str, list[str]] = {}
        for what, line in legal:
            by_kind.setdefault(what, []).append(line)
        kinds = list(by_kind)
        weights = [{"hold": 1, "move": 6, "support": 5, "board": 2}[k] for k in kinds]
        kind = rng.choices(kinds, weights)[0]
        orders.append(rng.choice(by_kind[kind]))
    return orders


def retreat_orders(rng: random.Random, state: dict, power: str) -> list[str]:
    orders = []
    for unit, info in state["dislodged"].get(power, {}).items():
        if info.get("retreats") and rng.random() < 0.8:
            orders.append(f"{unit} R {rng.choice(info['retreats'])}")
    return orders


def adjustment_orders(rng: random.Random, state: dict, power: str, what: dict, board: Board) -> list[str]:
    if "builds" in what:
        sites = list(what["sites"])
        rng.shuffle(sites)
        lines = []
        for site in sites:
            lines += [f"BUILD A {site}", f"BUILD F {site}"]
            lines += [f"BUILD F {c['id']}" for c in board.provinces[site]["coasts"]]
        ok = [c["line"] for c in jsonapi.check_orders(state, power, lines) if c["ok"]] if lines else []
        orders: list[str] = []
        used: set[str] = set()
        for line in ok:
            site = line.split()[-1].split("/")[0]
            if site in used or len(orders) >= what["builds"]:
                continue
            if rng.random() < 0.5 and any(l.split()[-1].split("/")[0] == site for l in ok if l != line):
                continue  # leave the other unit type of this site a chance
            orders.append(line)
            used.add(site)
        return orders
    if "removals" in what:
        mine = [u for u in state["units"].get(power, [])]
        rng.shuffle(mine)
        lines = [f"REMOVE {u}" for u in mine]
        ok = [c["line"] for c in jsonapi.check_orders(state, power, lines) if c["ok"]]
        return ok[: what["removals"]]
    return []


# -- invariants -----------------------------------------------------------------------------


def parse_phase(phase: str) -> tuple[str, int, int, str]:
    return phase[0], int(phase[1:-1]), len(phase) - 2, phase[-1]


def legal_next(phase: str, dislodged: bool, retreats_with_adjustments: bool = False) -> set[str]:
    season, year, width, kind = parse_phase(phase)
    next_spring = f"S{str(year + 1).zfill(width)}M"
    this = str(year).zfill(width)
    if kind == "M" and dislodged and season == "F" and retreats_with_adjustments:
        return {f"W{this}A"}  # Small World 11.2: the Fall retreats come with the adjustments
    if kind == "M" and dislodged:
        return {f"{season}{this}R"}
    if season == "S":
        return {f"F{this}M"}
    if season == "F":
        return {f"W{this}A", next_spring}
    return {next_spring}


def check_invariants(board: Board, variant: str, before: dict, result: dict, what: dict[str, dict]) -> None:
    where = f"{variant} {before['phase']}"
    assert "error" not in result, f"{where}: {result.get('error')}"
    assert result["phase"] == before["phase"], where
    can_retreat = any(info.get("retreats") for units in result["dislodged"].values() for info in units.values())
    combined = variant.startswith("smallworld")
    assert result["next_phase"] in legal_next(before["phase"], can_retreat, combined), (
        f"{where}: next phase {result['next_phase']}"
    )
    if result["next_phase"].endswith("R"):
        assert result["dislodged"], f"{where}: a retreat phase without dislodged units"

    # one unit per province, each where its type may stand
    provinces = Counter(split(u)[2] for us in result["units"].values() for u in us)
    doubled = [p for p, n in provinces.items() if n > 1]
    assert not doubled, f"{where}: two units in {doubled}"
    for power, units in result["units"].items():
        for unit in units:
            kind, location, province = split(unit)
            assert province in board.provinces, f"{where}: {unit} on no province"
            terrain = board.type(province)
            coasts = [c["id"] for c in board.provinces[province]["coasts"]]
            if kind == "A":
                assert terrain in ("land", "coast"), f"{where}: army {unit} on {terrain}"
                assert "/" not in location, f"{where}: army with a coast {unit}"
            elif kind == "F":
                assert terrain in ("coast", "sea"), f"{where}: fleet {unit} on {terrain}"
                if coasts:
                    assert location in coasts, f"{where}: fleet {unit} must name its coast"
                else:
                    assert "/" not in location, f"{where}: fleet {unit} names a coast"
            else:
                assert kind == "A/F", f"{where}: unknown unit {unit}"
                assert terrain == "sea" or board.island(province), f"{where}: A/F on {terrain} {province}"
                assert province != "INO" or not variant.startswith("smallworld"), f"{where}: A/F in Indonesia"
                assert power != "NEUTRAL", where

    # standing armies never move and are never rebuilt
    assert set(result["units"].get("NEUTRAL", [])) <= set(before["units"].get("NEUTRAL", [])), where

    # supply centres: real centres, one owner each, changed only at the end of the Fall turn
    owners = Counter(c for cs in result["centers"].values() for c in cs)
    assert all(n == 1 for n in owners.values()), f"{where}: a centre with two owners"
    assert set(owners) <= board.centres, f"{where}: not a centre: {set(owners) - board.centres}"
    season, _, _, kind = parse_phase(before["phase"])
    # Small World 11.2: centres change after the Fall moves and again after the retreats
    # the Winter phase carries
    carried = kind == "A" and any(before.get("dislodged", {}).values())
    fall_ends = (season == "F" and not result["next_phase"].endswith("R")) or carried
    def norm(cs):
        return {p: sorted(v) for p, v in cs.items() if v}
    if not fall_ends:
        assert norm(result["centers"]) == norm(before["centers"]), f"{where}: centres changed"
    else:
        for power, units in result["units"].items():
            for unit in units:
                province = split(unit)[2]
                if province in board.centres and power != "NEUTRAL":
                    assert province in result["centers"].get(power, []), (
                        f"{where}: {power} stands in {province} after Fall but does not own it"
                    )

    units_before = {p: sum(weight(u) for u in us) for p, us in before["units"].items()}
    for power, entries in before.get("dislodged", {}).items():  # retreating units come back
        units_before[power] = units_before.get(power, 0) + sum(weight(u) for u in entries)
    units_after = {p: sum(weight(u) for u in us) for p, us in result["units"].items()}
    if kind != "A":
        for power, n in units_after.items():
            assert n <= units_before.get(power, 0), f"{where}: {power} gained units outside Winter"
    else:
        centres = {p: len(cs) for p, cs in result["centers"].items()}
        for power, n in units_after.items():
            if power == "NEUTRAL":
                continue
            assert n <= centres.get(power, 0), f"{where}: {power} has {n} units for {centres.get(power, 0)} centres"
            owed = what.get(power, {})
            gained = n - units_before.get(power, 0)
            if gained > 0:
                assert gained <= owed.get("builds", 0), f"{where}: {power} built {gained}, allowed {owed}"
                new = set(result["units"][power]) - set(before["units"].get(power, []))
                retreated = {o["outcome"].get("to", "").split("/")[0] for o in result["orders"]
                             if o.get("outcome", {}).get("kind") == "retreated"}
                new = {u for u in new if split(u)[2] not in retreated}
                sites = set(owed.get("sites", []))
                assert {split(u)[2] for u in new} <= sites, f"{where}: {power} built outside {sites}: {new}"
        for power, owed in what.items() if not carried else ():  # carried: counts are provisional
            have = units_before.get(power, 0)
            owned = len(before["centers"].get(power, []))
            if "builds" in owed:
                assert 0 <= owed["builds"] <= owned - have, f"{where}: {power} offered {owed} with {owned}/{have}"
            if "removals" in owed:
                assert owed["removals"] == have - owned, f"{where}: {power} owes {owed} with {owned}/{have}"


# -- the games ---------------------------------------------------------------------------------


def play(variant: str, seed: int) -> list[str]:
    rng = random.Random(seed)
    board = Board(variant)
    powers = [p["id"] for p in jsonapi.variant_info(variant)["powers"]]
    state = jsonapi.initial_state(variant)
    first_year = parse_phase(state["phase"])[1]
    if state["phase"].startswith("W"):
        first_year += 1  # Zeus 5 opens with the Winter 1939 builds
    phases = []
    started = time.monotonic()
    while parse_phase(state["phase"])[1] < first_year + YEARS:
        kind = state["phase"][-1]
        orders: dict[str, list[str]] = {}
        what: dict[str, dict] = {}
        for power in powers:
            todo = jsonapi.orderable(state, power)
            if kind == "A" and ("builds" in todo or "removals" in todo):
                what[power] = todo
            if rng.random() < 0.05:
                continue  # no orders from this power: the defaults apply
            if todo["kind"] == "movement" and todo["units"]:
                orders[power] = movement_orders(rng, state, power, todo["units"], board)
            elif todo["kind"] == "retreat" and todo["units"]:
                orders[power] = retreat_orders(rng, state, power)
            elif todo["kind"] == "adjustment":
                orders[power] = adjustment_orders(rng, state, power, todo, board)
        result = jsonapi.adjudicate_request({**state, "orders": orders})
        check_invariants(board, variant, state, result, what)
        phases.append(state["phase"])
        if result.get("winner"):
            break
        state = jsonapi.next_state(result, variant)
        assert time.monotonic() - started < TIME_LIMIT, f"{variant}: too slow at {state['phase']}"
    return phases


@pytest.mark.parametrize("variant, seed", GAMES)
def test_smoke_game(variant, seed):
    phases = play(variant, seed)
    assert len(phases) >= 2 * YEARS or phases  # ten years, or a win before that
    years = {parse_phase(p)[1] for p in phases}
    assert len(years) >= 2
