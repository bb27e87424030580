"""Property tests (hypothesis) of the adjudicator through app.jsonapi.

Random standard positions (random provinces, unit types valid for the terrain,
random owners) with random orders (holds, moves to neighbours, supports of other
units' moves and holds, convoys, garbage lines):

- the resolver never raises and never answers a well-formed request with "error";
- the result does not depend on the order in which powers and orders are listed;
- at most one unit per province, on terrain it may stand on, after every phase;
- a whole year chained through next_state (movement, retreats, movement, retreats,
  adjustments): after the adjustments no power has more units than centres.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from app import jsonapi
from app.engine.geo import Terrain, province_of
from app.variants import load_variant
from tests.support.hypothesis_profiles import examples

VARIANT = load_variant("standard")
MAP = VARIANT.map
POWERS = list(VARIANT.power_ids)
HOMES = {p.id: list(p.home) for p in VARIANT.powers}
CENTRES = sorted(pid for pid, prov in MAP.provinces.items() if prov.centre)
PLAYABLE = sorted(pid for pid, prov in MAP.provinces.items() if prov.terrain is not Terrain.IMPASSABLE)


def _unit_choices(pid: str) -> list[str]:
    prov = MAP.provinces[pid]
    if prov.terrain is Terrain.LAND:
        return [f"A {pid}"]
    if prov.terrain is Terrain.SEA:
        return [f"F {pid}"]
    fleets = [f"F {c}" for c in prov.coasts] or [f"F {pid}"]
    return [f"A {pid}", *fleets]


UNIT_CHOICES = {pid: _unit_choices(pid) for pid in PLAYABLE}

GARBAGE = [
    "",
    "hello",
    "A XYZ - PAR",
    "F Burgundi - Par",
    "A PAR - ",
    "A PAR S",
    "F NTH C",
    "F NTH C F LON - NWY",
    "A PAR - PAR",
    "A MUN - SWI",
    "F SPA - MAO",
    "F MAO - SPA",
    "build A PAR",
    "remove A PAR",
    "waive",
    "A PAR R BUR",
    "A PAR S A PAR",
    "A LON - NWY VIA",
    "A BER - SYR VIA",
    "F LYO C A MAR - NAF",
]
TEXT = st.one_of(st.text(alphabet="AFSCH- /()abcdefghijklmnopqrstuvwxyz.,;>0123456789", max_size=24), st.text(max_size=12))


# -- board helpers -------------------------------------------------------------------


def _units_of(units: dict[str, list[str]]) -> list[tuple[str, str, str]]:
    """(power, type, location) of every unit in a JSON units object."""
    out = []
    for power, texts in units.items():
        for text in texts:
            kind, location = text.split()
            out.append((power, kind, location))
    return out


def _neighbours(kind: str, location: str) -> list[str]:
    if kind == "A":
        return sorted(p for p in MAP.army_borders.get(location, ()) if MAP.provinces[p].terrain is not Terrain.SEA)
    return sorted(MAP.fleet_borders.get(location, ()))


def _reaches(kind: str, location: str, province: str) -> bool:
    if kind == "A":
        return province in MAP.army_borders.get(province_of(location), ())
    return MAP.fleet_reaches_province(location, province)


def check_board(result: dict[str, Any]) -> None:
    """One unit per province; every unit (and dislodged unit) on terrain it may stand on."""
    assert "error" not in result, result
    seen: dict[str, str] = {}
    for power, kind, location in _units_of(result["units"]):
        province = province_of(location)
        assert province not in seen, f"two units in {province}: {seen[province]} and {power} {kind} {location}"
        seen[province] = f"{power} {kind} {location}"
        _check_terrain(kind, location)
    for power, entries in result["dislodged"].items():
        for text, info in entries.items():
            kind, location = text.split()
            _check_terrain(kind, location)
            for option in info["retreats"]:
                assert province_of(option) not in seen, f"{text} may retreat to occupied {option}"
                _check_terrain(kind, option)


def _check_terrain(kind: str, location: str) -> None:
    province = MAP.provinces[province_of(location)]
    assert province.terrain is not Terrain.IMPASSABLE, location
    if kind == "A":
        assert "/" not in location and province.terrain is not Terrain.SEA, location
    else:
        assert province.terrain is not Terrain.LAND, location
        assert location in MAP.fleet_borders, f"fleet at {location}: not a fleet location"


def _outcomes(result: dict[str, Any]) -> Counter:
    return Counter(
        (o["power"], o["order"], o["result"], o["reason"], o.get("normalized"), bool(o.get("default")))
        for o in result["orders"]
    )


def _summary(result: dict[str, Any]) -> dict[str, Any]:
    return {
        "units": {p: sorted(u) for p, u in result["units"].items() if u},
        "dislodged": {p: {u: {"attacker_from": i["attacker_from"], "retreats": sorted(i["retreats"])}
                          for u, i in d.items()} for p, d in result["dislodged"].items() if d},
        "centers": {p: sorted(c) for p, c in result["centers"].items() if c},
        "next_phase": result["next_phase"],
        "winner": result.get("winner"),
        "outcomes": _outcomes(result),
    }


def _shuffled(request: dict[str, Any], rnd: random.Random, within_powers: bool = True) -> dict[str, Any]:
    shuffled = copy.deepcopy(request)
    for key in ("units", "orders", "centers"):
        if key not in shuffled:
            continue
        items = list(shuffled[key].items())
        rnd.shuffle(items)
        if within_powers or key != "orders":
            for _power, values in items:
                rnd.shuffle(values)
        shuffled[key] = dict(items)
    if "dislodged" in shuffled:
        items = [(p, list(d.items())) for p, d in shuffled["dislodged"].items()]
        rnd.shuffle(items)
        for _p, entries in items:
            rnd.shuffle(entries)
        shuffled["dislodged"] = {p: dict(entries) for p, entries in items}
    return shuffled


# -- strategies ----------------------------------------------------------------------


@st.composite
def positions(draw: Any, min_units: int = 2, max_units: int = 34) -> dict[str, Any]:
    provinces = draw(st.lists(st.sampled_from(PLAYABLE), min_size=min_units, max_size=max_units, unique=True))
    units: dict[str, list[str]] = {}
    for pid in provinces:
        unit = draw(st.sampled_from(UNIT_CHOICES[pid]))
        units.setdefault(draw(st.sampled_from(POWERS)), []).append(unit)
    centres: dict[str, list[str]] = {}
    for centre in CENTRES:
        owner = draw(st.sampled_from([*POWERS, None]))
        if owner:
            centres.setdefault(owner, []).append(centre)
    return {"units": units, "centers": centres}


def movement_orders(draw: Any, units: dict[str, list[str]]) -> dict[str, list[str]]:
    board = _units_of(units)
    by_province = {province_of(loc): (power, kind, loc) for power, kind, loc in board}
    orders: dict[str, list[str]] = {}
    moves: dict[str, str] = {}  # province -> target location
    roles: dict[str, str] = {}
    for power, kind, loc in board:
        role = draw(st.sampled_from(["move", "move", "move", "support", "support", "support", "hold", "convoy", "garbage", "foreign", "none"]))
        roles[province_of(loc)] = role
        if role == "move":
            targets = _neighbours(kind, loc)
            attacks = [t for t in targets if province_of(t) in by_province]
            if attacks and draw(st.booleans()):
                targets = attacks  # attacks make supports, cuts and dislodgements
            if targets:
                moves[province_of(loc)] = draw(st.sampled_from(targets))
    for power, kind, loc in board:
        here = province_of(loc)
        role = roles[here]
        line: str | None = None
        if here in moves:
            via = kind == "A" and draw(st.integers(0, 5)) == 0
            line = f"{kind} {loc} - {moves[here]}" + (" VIA" if via else "")
        elif role == "support":
            moving = [(p, t) for p, t in moves.items() if p != here and _reaches(kind, loc, province_of(t)) and province_of(t) != here]
            staying = [p for p in by_province if p != here and p not in moves and _reaches(kind, loc, p)]
            if moving and draw(st.booleans()):
                source, target = draw(st.sampled_from(moving))
                other = by_province[source]
                line = f"{kind} {loc} S {other[1]} {other[2]} - {target}"
            elif staying:
                other = by_province[draw(st.sampled_from(staying))]
                line = f"{kind} {loc} S {other[1]} {other[2]}"
            else:
                line = f"{kind} {loc} H"
        elif role == "convoy" and kind == "F" and MAP.provinces[here].convoy_water:
            armies = [p for p, (_pw, k, _l) in by_province.items() if k == "A" and MAP.is_coastal(p)]
            nearby = [p for p in armies if p in MAP.neighbours(here)]
            if nearby and draw(st.booleans()):
                armies = nearby
            coasts = sorted(p for p in MAP.neighbours(here) if MAP.is_coastal(p))
            if armies and coasts:
                army = draw(st.sampled_from(armies))
                target = draw(st.sampled_from(coasts))
                line = f"F {loc} C A {army} - {target}"
                if army not in moves and draw(st.booleans()) and target != army:
                    moves[army] = target  # the army takes the convoy (its order is written below)
                    army_power = by_province[army][0]
                    orders.setdefault(army_power, []).append(f"A {army} - {target} VIA")
        elif role == "garbage":
            line = draw(st.one_of(st.sampled_from(GARBAGE), TEXT))
            power = draw(st.sampled_from([power, *POWERS]))
        elif role == "foreign":  # an order for someone else's unit: invalid, and harmless
            targets = _neighbours(kind, loc)
            line = f"{kind} {loc} - {draw(st.sampled_from(targets))}" if targets else f"{kind} {loc} H"
            power = draw(st.sampled_from([p for p in POWERS if p != power]))
        elif role == "hold":
            line = draw(st.sampled_from([f"{kind} {loc} H", f"{kind} {loc} holds", f"{loc} H"]))
        if line is not None:
            orders.setdefault(power, []).append(line)
    return orders


def retreat_orders(draw: Any, dislodged: dict[str, dict[str, Any]]) -> dict[str, list[str]]:
    orders: dict[str, list[str]] = {}
    for power, entries in dislodged.items():
        for text, info in entries.items():
            choice = draw(st.sampled_from(["retreat", "retreat", "retreat", "disband", "bad", "foreign", "none"]))
            if choice == "retreat" and info["retreats"]:
                orders.setdefault(power, []).append(f"{text} R {draw(st.sampled_from(info['retreats']))}")
            elif choice == "disband":
                orders.setdefault(power, []).append(f"{text} D")
            elif choice == "bad":
                orders.setdefault(power, []).append(f"{text} - {draw(st.sampled_from(PLAYABLE))}")
            elif choice == "foreign" and info["retreats"]:
                other = draw(st.sampled_from([p for p in POWERS if p != power]))
                orders.setdefault(other, []).append(f"{text} R {draw(st.sampled_from(info['retreats']))}")
    return orders


def adjustment_orders(draw: Any, state: dict[str, Any]) -> dict[str, list[str]]:
    orders: dict[str, list[str]] = {}
    units = state["units"]
    for power in POWERS:
        lines = []
        for _ in range(draw(st.integers(0, 4))):
            kind = draw(st.sampled_from(["build", "build", "remove", "remove", "waive", "garbage"]))
            if kind == "build":
                site = draw(st.sampled_from(HOMES[power] + CENTRES))
                unit = draw(st.sampled_from(UNIT_CHOICES[site] + [f"? {site}"]))
                lines.append("build " + unit.removeprefix("? "))
            elif kind == "remove":
                everyone = [u for us in units.values() for u in us]
                candidates = units.get(power) or everyone
                if candidates:
                    lines.append("remove " + draw(st.sampled_from(candidates)))
            elif kind == "waive":
                lines.append("waive")
            else:
                lines.append(draw(st.one_of(st.sampled_from(GARBAGE), TEXT)))
        if lines:
            orders[power] = lines
    return orders


# -- properties ----------------------------------------------------------------------

SETTINGS = settings(max_examples=examples(250), deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(data=st.data(), position=positions(min_units=2), phase=st.sampled_from(["S1901M", "F1901M", "S1907M", "F1910M"]))
def test_movement_never_fails_and_keeps_one_unit_per_province(data: Any, position: dict[str, Any], phase: str) -> None:
    orders = movement_orders(data.draw, position["units"])
    request = {"id": "p", "variant": "standard", "phase": phase, **position, "orders": orders}
    result = jsonapi.adjudicate_request(copy.deepcopy(request))
    check_board(result)
    event(f"dislodged: {sum(len(d) for d in result['dislodged'].values())}")
    event(f"successful supports: {min(3, sum(1 for o in result['orders'] if ' S ' in (o.get('normalized') or '') and o['result'] == 'succeeds'))}")
    event(f"convoyed moves: {min(2, sum(1 for o in result['orders'] if 'by convoy' in o['explanation']))}")
    assert result["id"] == "p"
    assert result["phase"] == phase
    given_orders = sum(len(v) for v in orders.values())
    assert len([o for o in result["orders"] if not o.get("default")]) == given_orders
    assert {o["result"] for o in result["orders"]} <= {"succeeds", "fails", "invalid"}
    before = sum(len(v) for v in position["units"].values())
    after = sum(len(v) for v in result["units"].values())
    dislodged = sum(len(d) for d in result["dislodged"].values())
    assert after + dislodged == before


@SETTINGS
@given(data=st.data(), position=positions(min_units=12), rnd=st.randoms(use_true_random=False))
def test_movement_result_does_not_depend_on_listing_order(data: Any, position: dict[str, Any], rnd: random.Random) -> None:
    orders = movement_orders(data.draw, position["units"])
    request = {"variant": "standard", "phase": "F1901M", **position, "orders": orders}
    first = jsonapi.adjudicate_request(copy.deepcopy(request))
    check_board(first)
    second = jsonapi.adjudicate_request(_shuffled(request, rnd))
    assert _summary(second) == _summary(first)


def _retreat_request(draw: Any) -> dict[str, Any] | None:
    """A retreat phase reached from a random movement phase, or None if nobody was dislodged."""
    for _attempt in range(4):
        position = draw(positions(min_units=16))
        movement = jsonapi.adjudicate_request(
            {"variant": "standard", "phase": "S1901M", **position, "orders": movement_orders(draw, position["units"])}
        )
        check_board(movement)
        if any(movement["dislodged"].values()):
            break
    else:
        return None
    state = jsonapi.next_state(movement, variant="standard")
    return {**state, "orders": retreat_orders(draw, state["dislodged"])}


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), rnd=st.randoms(use_true_random=False))
def test_retreat_result_does_not_depend_on_listing_order(data: Any, rnd: random.Random) -> None:
    request = _retreat_request(data.draw)
    if request is None:
        event("nobody dislodged")
        return
    event("retreats")
    first = jsonapi.adjudicate_request(copy.deepcopy(request))
    check_board(first)
    assert not any(first["dislodged"].values())
    second = jsonapi.adjudicate_request(_shuffled(request, rnd))
    assert _summary(second) == _summary(first)


@SETTINGS
@given(data=st.data(), position=positions(), rnd=st.randoms(use_true_random=False))
def test_adjustment_result_does_not_depend_on_power_order(data: Any, position: dict[str, Any], rnd: random.Random) -> None:
    request = {"variant": "standard", "phase": "W1901A", **position, "orders": adjustment_orders(data.draw, position)}
    first = jsonapi.adjudicate_request(copy.deepcopy(request))
    check_board(first)
    _check_counts(first)
    # within one power, the first legal builds or removals count (DATC 4.D.4-4.D.6): keep each list's order
    second = jsonapi.adjudicate_request(_shuffled(request, rnd, within_powers=False))
    assert _summary(second) == _summary(first)


def _check_counts(result: dict[str, Any]) -> None:
    for power in POWERS:
        units = len(result["units"].get(power, []))
        centres = len(result["centers"].get(power, []))
        assert units <= centres, f"{power}: {units} units, {centres} centres after the adjustments"


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), position=positions(min_units=16))
def test_a_chained_year(data: Any, position: dict[str, Any]) -> None:
    """S1901M -> (S1901R) -> F1901M -> (F1901R) -> (W1901A) -> S1902M, random orders throughout."""
    draw = data.draw
    state: dict[str, Any] = {"variant": "standard", "phase": "S1901M", **position, "dislodged": {}}
    seen_phases = []
    for _step in range(6):
        phase = state["phase"]
        seen_phases.append(phase)
        if phase.endswith("M"):
            orders = movement_orders(draw, state["units"])
        elif phase.endswith("R"):
            orders = retreat_orders(draw, state["dislodged"])
        else:
            orders = adjustment_orders(draw, state)
        result = jsonapi.adjudicate_request({**copy.deepcopy(state), "orders": orders})
        check_board(result)
        if phase.endswith("R"):
            assert not any(result["dislodged"].values())
            retreating = sum(len(d) for d in state["dislodged"].values())
            assert sum(len(u) for u in result["units"].values()) <= sum(len(u) for u in state["units"].values()) + retreating
        if result["next_phase"].endswith("R"):
            assert any(result["dislodged"].values())
        if phase.endswith("A") or (phase.startswith("F") and result["next_phase"] == "S1902M"):
            _check_counts(result)
        state = jsonapi.next_state(result, variant="standard")
        if state["phase"] == "S1902M":
            break
    event(" ".join(seen_phases))
    assert state["phase"] == "S1902M", seen_phases
    assert seen_phases[0] == "S1901M" and "F1901M" in seen_phases
