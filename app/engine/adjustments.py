"""Winter adjustments: builds in owned home centres, removals, waives, civil disorder.

Orders are carried out one by one (DATC 4.D.4-4.D.6): the first legal builds or
removals count, later ones fail as too many. Removals a power owes but did not
order follow the variant's default (civil disorder, or least impact).
"""

from __future__ import annotations

from . import outcomes as oc
from .explain import order_result
from .geo import province_of
from .least_impact import least_impact_order
from .legality import build_sites
from .orders import Build, Remove, Unit, Waive
from .outcomes import OrderEntry, OrderResult
from .rules import CivilDisorderRemoval, RemovalDefault
from .state import GameState
from .variant import Variant


def adjustment_counts(variant: Variant, state: GameState) -> dict[str, int]:
    """Builds (positive) or removals (negative) owed per power."""
    counts: dict[str, int] = {}
    for power in variant.power_ids:
        counts[power] = len(state.centres_of(power)) - state.unit_count(power)
    return counts


def adjustments_needed(variant: Variant, state: GameState) -> bool:
    for power, count in adjustment_counts(variant, state).items():
        if count < 0 or (count > 0 and build_sites(power, state, variant)):
            return True
    return False


def resolve_adjustments(
    variant: Variant, state: GameState, entries: list[OrderEntry]
) -> tuple[list[OrderResult], dict[str, tuple[str, Unit]], list[tuple[str, Unit]]]:
    counts = adjustment_counts(variant, state)
    units = dict(state.units)
    removed: list[tuple[str, Unit]] = []
    used: dict[str, int] = dict.fromkeys(counts, 0)
    extra: list[OrderResult] = []
    for entry in entries:
        if entry.result is not None or entry.order is None:
            continue
        order, power = entry.order, entry.power
        owed = counts.get(power, 0)
        outcome: oc.Outcome
        if isinstance(order, (Build, Waive)):
            if used[power] >= owed:
                outcome = oc.TooMany(owed, builds=True)
            elif isinstance(order, Waive):
                used[power] += 1
                outcome = oc.Waived()
            elif province_of(order.unit.location) in units:
                outcome = oc.SiteTaken()
            else:
                used[power] += 1
                units[province_of(order.unit.location)] = (power, order.unit)
                outcome = oc.Built(str(order.unit))
        elif isinstance(order, Remove):
            province = province_of(order.unit.location)
            if used[power] >= -owed:
                outcome = oc.TooMany(owed, builds=False)
            elif province not in units or units[province][0] != power:
                outcome = oc.AlreadyRemoved()
            else:
                used[power] += 1
                removed.append(units.pop(province))
                outcome = oc.Removed(str(order.unit))
        else:
            continue
        entry.result = order_result(power, entry.text, str(order), outcome)
    least_impact = variant.rules.removal_default is RemovalDefault.LEAST_IMPACT
    for power, owed in counts.items():
        if owed < 0 and used[power] < -owed:
            for unit in default_removals(variant, state, power, units, -owed - used[power]):
                removed.append(units.pop(province_of(unit.location)))
                text = f"REMOVE {unit}"
                chosen = oc.LeastImpactRemoval(str(unit)) if least_impact else oc.CivilDisorderRemoval(str(unit))
                extra.append(order_result(power, text, text, chosen, default=True))
        elif owed > 0 and used[power] < owed:
            sites = build_sites(power, state.evolve(units=units), variant)
            waived = min(owed - used[power], len(sites))
            for _ in range(waived):
                extra.append(order_result(power, "WAIVE", "WAIVE", oc.Waived(), default=True))
    results = [e.result for e in entries if e.result is not None] + extra
    return results, units, removed


def default_removals(
    variant: Variant, state: GameState, power: str, units: dict[str, tuple[str, Unit]], count: int
) -> list[Unit]:
    """The units a power that ordered too few removals loses."""
    mine = [unit for owner, unit in units.values() if owner == power]
    if variant.rules.removal_default is RemovalDefault.LEAST_IMPACT:
        return least_impact_order(variant, state, power, mine)[:count]
    return civil_disorder_order(variant, state, power, mine)[:count]


def civil_disorder_order(variant: Variant, state: GameState, power: str, mine: list[Unit]) -> list[Unit]:
    """Units in the order civil disorder removes them: farthest first, fleets before
    armies at equal distance, then alphabetically by province name (DATC 4.D.8, 6.J)."""
    game_map = variant.map
    far = 10_000
    if variant.rules.civil_disorder_removal is CivilDisorderRemoval.OWNED_ANY_TERRAIN:
        targets = frozenset(p for p, owner in state.centres.items() if owner == power)
        distances = {"A": game_map.distances_from(targets, "any"), "F": game_map.distances_from(targets, "any")}
    else:
        targets = frozenset(variant.power(power).home)
        distances = {"A": game_map.distances_from(targets, "any"), "F": game_map.distances_from(targets, "F")}

    def distance(unit: Unit) -> int:
        table = distances[unit.type]
        key = unit.location if unit.type == "F" and variant.rules.civil_disorder_removal is not CivilDisorderRemoval.OWNED_ANY_TERRAIN else province_of(unit.location)
        return table.get(key, far)

    return sorted(mine, key=lambda u: (-distance(u), u.type != "F", game_map.name(province_of(u.location))))
