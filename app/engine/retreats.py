"""The retreat phase: where a dislodged unit may go, what it does when its player sends
no order, and how retreats resolve (several into one province: all disband)."""

from __future__ import annotations

from collections.abc import Mapping

from . import outcomes as oc
from .entries import one_order_per_unit
from .explain import order_result
from .geo import GameMap, Terrain, province_of
from .orders import ARMY_FLEET, Disband, Order, Retreat, Unit, Waive
from .outcomes import OrderEntry, OrderResult
from .rules import RetreatDefault
from .state import GameState
from .variant import Variant


def retreat_options(
    game_map: GameMap,
    unit: Unit,
    occupied: Mapping[str, object],
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


def resolve_retreats(
    variant: Variant, state: GameState, entries: list[OrderEntry]
) -> tuple[list[OrderResult], GameState, list[tuple[str, Unit]]]:
    """Every retreat order's result, the position after the retreats (its phase still
    to be set) and the units disbanded."""
    chosen = one_order_per_unit(entries)
    defaults: list[OrderEntry] = []
    for province, dislodged in state.dislodged.items():
        if province not in chosen:
            default = default_retreat(variant, state, province)
            entry = OrderEntry(dislodged.power, str(default), default)
            defaults.append(entry)
            chosen[province] = entry
    targets: dict[str, list[str]] = {}
    for province, entry in chosen.items():
        if isinstance(entry.order, Retreat):
            targets.setdefault(province_of(entry.order.target), []).append(province)
    units = dict(state.units)
    af_moves = dict(state.af_moves)
    removed: list[tuple[str, Unit]] = []
    retreated = set(state.retreated)
    for province, entry in chosen.items():
        order = entry.order
        dislodged = state.dislodged[province]
        outcome: oc.Outcome
        if order is None:
            continue
        if isinstance(order, Retreat) and len(targets[province_of(order.target)]) == 1:
            units[province_of(order.target)] = (dislodged.power, Unit(dislodged.unit.type, order.target))
            if dislodged.unit.type == ARMY_FLEET:
                af_moves[province_of(order.target)] = dislodged.af_moves
            retreated.add(province_of(order.target))
            outcome = oc.Retreated(order.target)
        elif isinstance(order, Retreat):
            others = [str(state.dislodged[p].unit) for p in targets[province_of(order.target)] if p != province]
            removed.append((dislodged.power, dislodged.unit))
            outcome = oc.RetreatStandoff(tuple(others))
        else:
            removed.append((dislodged.power, dislodged.unit))
            outcome = oc.Disbanded(no_retreat=not dislodged.retreats)
        entry.result = order_result(entry.power, entry.text, str(order), outcome, default=any(entry is d for d in defaults))
    for entry in entries:  # a repeated identical order shares its twin's result
        if entry.result is None and entry.order is not None and not isinstance(entry.order, Waive):
            twin = chosen.get(province_of(entry.order.unit.location))
            entry.result = twin.result if twin and twin.result else None
    new_state = state.evolve(units=units, dislodged={}, retreated=frozenset(retreated), af_moves=af_moves)
    results = [e.result for e in entries + defaults if e.result is not None]
    return results, new_state, removed
