"""A reproducible corpus of dense standard-map movement positions for benchmarks.

Each position has 20-34 units, every unit ordered: head-to-head swaps, circular
moves, multi-fleet convoys, and many supports of those moves and of holds. Orders
are written in the classic short form that every judge reads.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from app.engine.geo import GameMap, Terrain, province_of
from app.variants import load_variant

POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")


@dataclass
class Position:
    units: dict[str, list[str]]
    orders: dict[str, list[str]]
    variant: str = "standard"
    phase: str = "S1901M"

    def request(self, case_id: str) -> dict:
        return {"id": case_id, "variant": self.variant, "phase": self.phase, "units": self.units, "orders": self.orders}


def _place_units(game_map: GameMap, rng: random.Random, count: int,
                 powers: tuple[str, ...] = POWERS) -> dict[str, tuple[str, str]]:
    """province -> (power, unit text)"""
    provinces = [p for p in game_map.provinces.values() if p.terrain is not Terrain.IMPASSABLE]
    rng.shuffle(provinces)
    placed: dict[str, tuple[str, str]] = {}
    for province in provinces[:count]:
        power = rng.choice(powers)
        if province.terrain is Terrain.LAND:
            unit = f"A {province.id}"
        elif province.terrain is Terrain.SEA:
            unit = f"F {province.id}"
        elif rng.random() < 0.5:
            unit = f"A {province.id}"
        else:
            location = rng.choice(province.coasts) if province.coasts else province.id
            unit = f"F {location}"
        placed[province.id] = (power, unit)
    return placed


def _moves_from(game_map: GameMap, unit: str) -> list[str]:
    kind, location = unit.split()
    if kind == "A":
        return sorted(game_map.army_borders.get(province_of(location), ()))
    return sorted(game_map.fleet_borders.get(location, ()))


def generate(seed: int, variant_name: str = "standard", count: int | None = None) -> Position:
    """A position of the standard map (20-34 units), or of ``variant_name`` with ``count`` units."""
    rng = random.Random(seed)
    variant = load_variant(variant_name)
    game_map = variant.map
    powers = POWERS if variant_name == "standard" else tuple(p.id for p in variant.powers)
    size = rng.randint(20, 34) if count is None else count
    placed = _place_units(game_map, rng, size, powers)
    orders: dict[str, str] = {}
    moves: dict[str, str] = {}  # source province -> target province

    def move(source: str, target: str, text: str) -> None:
        orders[source] = text
        moves[source] = province_of(target)

    # Convoys: an army on a coast, carried by a chain of fleets at sea.
    for province, (_power, unit) in list(placed.items()):
        if unit.startswith("A ") and province not in orders and game_map.provinces[province].terrain is Terrain.COAST:
            chain = [p for p in sorted(game_map.neighbours(province))
                     if p in placed and placed[p][1].startswith("F ") and game_map.provinces[p].terrain is Terrain.SEA
                     and p not in orders]
            if not chain or rng.random() < 0.5:
                continue
            fleet = chain[0]
            route = [fleet]
            nxt = [p for p in sorted(game_map.neighbours(fleet)) if p in placed and placed[p][1].startswith("F ")
                   and game_map.provinces[p].terrain is Terrain.SEA and p not in orders and p not in route]
            if nxt and rng.random() < 0.6:
                route.append(nxt[0])
            shores = [p for p in sorted(game_map.neighbours(route[-1]))
                      if game_map.provinces[p].terrain is Terrain.COAST and p != province]
            if not shores:
                continue
            target = rng.choice(shores)
            move(province, target, f"{unit} - {target} VIA")
            for sea in route:
                orders[sea] = f"{placed[sea][1]} C {unit} - {target}"
    # Head-to-head swaps and circular moves.
    for province, (_power, unit) in list(placed.items()):
        if province in orders:
            continue
        for target in _moves_from(game_map, unit):
            target_province = province_of(target)
            other = placed.get(target_province)
            if other and target_province not in orders and rng.random() < 0.3:
                back = [t for t in _moves_from(game_map, other[1]) if province_of(t) == province]
                if back:
                    move(province, target, f"{unit} - {target}")
                    move(target_province, back[0], f"{other[1]} - {back[0]}")
                    break
    # Every other unit: a move, a support of a move or a hold, or a hold.
    for province, (_power, unit) in placed.items():
        if province in orders:
            continue
        reachable = {province_of(t) for t in _moves_from(game_map, unit)}
        supportable = [s for s, t in moves.items() if t in reachable and s != province]
        holders = [p for p in sorted(reachable) if p in placed and p not in moves]
        roll = rng.random()
        if roll < 0.45 and supportable:
            source = rng.choice(supportable)
            orders[province] = f"{unit} S {placed[source][1]} - {moves[source]}"
        elif roll < 0.6 and holders:
            orders[province] = f"{unit} S {placed[rng.choice(holders)][1]}"
        elif roll < 0.95 and reachable:
            target = rng.choice(_moves_from(game_map, unit))
            move(province, target, f"{unit} - {target}")
        else:
            orders[province] = f"{unit} H"
    units: dict[str, list[str]] = {}
    by_power: dict[str, list[str]] = {}
    for province, (power, unit) in placed.items():
        units.setdefault(power, []).append(unit)
        by_power.setdefault(power, []).append(orders[province])
    start = variant.start_phase
    return Position(units, by_power, variant_name, str(start if start.kind == "M" else start.next_movement()))


def corpus(size: int, seed: int = 1901) -> list[Position]:
    return [generate(seed * 100_003 + i) for i in range(size)]
