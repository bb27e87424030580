"""The GM's least-impact removal (Small World 11.3), made deterministic.

When a player owes removals and orders none, remove first the units whose loss
changes the game least:
  1. units that were dislodged this year ("dislodged units should always be removed
     first in NMR situations");
  2. then units that guard nothing: a unit on one of its power's own centres with a
     foreign unit next to it guards that centre and goes last;
  3. then units farthest from any foreign unit (farthest from the action);
  4. then units off supply centres before units on them;
  5. then by province name, so the choice is always the same.
The GM can override the result on the dashboard; `removal_default = "civil_disorder"`
keeps the rulebook's distance rule (fleets before armies at equal distance) instead.
"""

from __future__ import annotations

from collections import deque

from .geo import GameMap, province_of
from .orders import Unit
from .state import GameState
from .variant import Variant


def _distance_to_foreign(game_map: GameMap, start: str, foreign: set[str]) -> int:
    seen = {start}
    queue = deque([(start, 0)])
    while queue:
        here, distance = queue.popleft()
        if here in foreign and here != start:
            return distance
        for nxt in game_map.neighbours(here):
            if nxt not in seen:
                seen.add(nxt)
                queue.append((nxt, distance + 1))
    return 1_000


def least_impact_order(variant: Variant, state: GameState, power: str, mine: list[Unit]) -> list[Unit]:
    game_map = variant.map
    foreign = {p for p, (owner, _u) in state.units.items() if owner != power}

    def key(unit: Unit) -> tuple[bool, bool, int, bool, str]:
        province = province_of(unit.location)
        on_own_centre = state.centres.get(province) == power
        guards = on_own_centre and any(n in foreign for n in game_map.neighbours(province))
        return (
            province not in state.retreated,
            guards,
            -_distance_to_foreign(game_map, province, foreign),
            game_map.provinces[province].centre,
            game_map.name(province),
        )

    return sorted(mine, key=key)
