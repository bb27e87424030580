"""Supply centres change hands after the Fall turn; a power with enough of them wins."""

from __future__ import annotations

from .state import NEUTRAL, GameState
from .variant import Variant


def update_centres(variant: Variant, state: GameState) -> None:
    """After the Fall turn, a centre (or a tracked territory) belongs to the power with
    a unit in it."""
    provinces = variant.map.provinces
    territories = variant.territory_provinces
    for province, (power, _unit) in state.units.items():
        if power == NEUTRAL:
            continue
        if provinces[province].centre:
            state.centres[province] = power
        elif province in territories:
            state.territories[province] = power


def _in_every_group(variant: Variant, state: GameState, power: str) -> bool:
    """The optional three-group rule (Small World): enough centres in each group."""
    if not variant.victory_groups:
        return True
    provinces = variant.map.provinces
    for group in variant.victory_groups:
        held = sum(1 for c, owner in state.centres.items() if owner == power and provinces[c].group == group)
        if held < variant.group_minimum:
            return False
    return True


def victor(variant: Variant, state: GameState) -> str | None:
    """The power that has won, if any: enough centres, and more than any other."""
    counts: dict[str, int] = {}
    for owner in state.centres.values():
        counts[owner] = counts.get(owner, 0) + 1
    leaders = [
        p for p, n in counts.items()
        if n >= variant.victory_centres and p != NEUTRAL and _in_every_group(variant, state, p)
    ]
    if not leaders:
        return None
    leaders.sort(key=lambda p: -counts[p])
    if len(leaders) > 1 and counts[leaders[0]] == counts[leaders[1]]:
        return None
    return leaders[0]
