"""Where a dislodged unit may go, and what it does when its player sends no order."""

from __future__ import annotations

from .geo import GameMap, Terrain, province_of
from .orders import Disband, Order, Retreat, Unit
from .rules import RetreatDefault
from .state import GameState
from .variant import Variant


def retreat_options(
    game_map: GameMap,
    unit: Unit,
    occupied: dict[str, object],
    standoffs: set[str],
    blocked_origin: str | None,
) -> list[str]:
    """Locations a dislodged unit may retreat to: empty, not contested by a standoff,
    and not where its attacker came from (unless the attack came by convoy, DATC 4.A.5)."""
    if unit.type == "A":
        candidates = [
            p for p in game_map.army_borders.get(province_of(unit.location), ())
            if game_map.provinces[p].terrain is not Terrain.SEA or game_map.provinces[p].island
        ]
    else:
        candidates = sorted(game_map.fleet_borders.get(unit.location, ()))
    options = []
    for location in sorted(candidates):
        province = province_of(location)
        if province in occupied or province in standoffs or province == blocked_origin:
            continue
        if game_map.provinces[province].terrain is Terrain.IMPASSABLE:
            continue
        options.append(location)
    return options


def default_retreat(variant: Variant, state: GameState, province: str) -> Order:
    """The order of a dislodged unit whose player sent none (the NMR default)."""
    dislodged = state.dislodged[province]
    rule = variant.rules.retreat_default
    if rule is RetreatDefault.RIGHT_HAND and dislodged.retreats:
        target = right_hand_retreat(variant.map, province, dislodged.attacker_from, dislodged.retreats)
        if target is not None:
            return Retreat(dislodged.unit, target)
    return Disband(dislodged.unit)


def right_hand_retreat(
    game_map: GameMap, province: str, attacker_from: str | None, options: tuple[str, ...]
) -> str | None:
    """Just's Right-Hand Rule: along the line from the attacker to the dislodged unit,
    take the open neighbour immediately to the right, then the first to the left, then
    the second to the right, and so on.

    The map lists each province's neighbours clockwise (as drawn, north up). Seen from
    the attacker, the right-hand side of the line is reached by going counter-clockwise
    round the ring from the attacker's province: attacker south, first choice east.
    """
    ring = list(game_map.provinces[province].clockwise)
    if not ring or attacker_from not in ring:
        return None
    by_province: dict[str, str] = {}
    for location in options:
        by_province.setdefault(province_of(location), location)
    start = ring.index(attacker_from)
    n = len(ring)
    for step in range(1, n):
        for direction in (-1, 1):  # right first, then left
            neighbour = ring[(start + direction * step) % n]
            if neighbour in by_province:
                return by_province[neighbour]
    return None
