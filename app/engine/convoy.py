"""Convoys in one place: which armies go by sea, which fleets could carry them, and
whether a route of convoying fleets still stands.

Used by legality (is a convoy order or a convoyed move possible on this board?) and
by the resolver (does this move go by convoy? does its path stand? DATC 5.C).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping

from .geo import GameMap, province_of
from .orders import Move, MovementOrder
from .rules import AdjacentConvoy
from .state import GameState


def goes_by_convoy(
    game_map: GameMap,
    order: MovementOrder,
    source: str,
    target: str,
    convoyers: Collection[str],
    owner: Mapping[str, str],
    moves_to: Mapping[str, str],
    rule: AdjacentConvoy,
) -> bool:
    """Does this army's move go by convoy (DATC 4.A.3)? `convoyers`: the fleets ordered
    to convoy it; `moves_to`: move source -> target province, for every move."""
    if type(order) is not Move or order.unit.type != "A":
        return False
    if not game_map.army_can_move(source, target):
        return True
    if order.via_convoy and rule is AdjacentConvoy.INTENT:
        return True
    if not convoyers:
        return False
    if rule is AdjacentConvoy.OPPOSITE:  # 1971 (DATC 4.A.3 a)
        return moves_to.get(target) == source
    # 2000/2023 (DATC 4.A.3 c, no fallback to the land route)
    return any(owner[f] == owner[source] for f in convoyers)


def path_stands(
    standing: Iterable[str], source: str, target: str, reaches: Callable[[str, str], bool]
) -> bool:
    """Some chain of the `standing` convoying fleets links `source` to `target`."""
    fleets = list(standing)
    frontier = [f for f in fleets if reaches(f, source)]
    seen = set(frontier)
    while frontier:
        fleet = frontier.pop()
        if reaches(fleet, target):
            return True
        for other in fleets:
            if other not in seen and reaches(fleet, other):
                seen.add(other)
                frontier.append(other)
    return False


def convoyable(source: str, target: str, game_map: GameMap) -> bool:
    """Some chain of convoy waters could carry an army (ignoring where fleets are)."""
    return (
        game_map.is_coastal(province_of(source))
        and game_map.is_coastal(target)
        and game_map.sea_route_exists(province_of(source), target)
    )


def convoy_fleets(state: GameState, game_map: GameMap, excluded: str | None = None) -> list[str]:
    """Provinces holding a fleet that could convoy (at sea, or on an island)."""
    waters = game_map.convoy_waters
    return [
        province
        for province, (_owner, unit) in state.units.items()
        if unit.type == "F" and province in waters and province != excluded
    ]


FleetRoutes = tuple[tuple[str, ...], ...]


def fleet_routes(source: str, target: str, fleets: list[str], game_map: GameMap) -> FleetRoutes:
    """Every minimal chain of fleets that could carry an army from `source` to `target`:
    no fleet of it could be left out (DATC 4.E.1, 6.G.19). Only the fleets linked to
    `source` by some chain can be on a route, so only they make the answer; it is
    remembered per map, keyed by them (in their order) and the two provinces."""
    linked = _linked_fleets(source, fleets, game_map)
    key = ("fleet routes", source, target, tuple(linked))
    known = game_map.memo.get(key)
    if type(known) is tuple:
        return known
    routes = tuple(tuple(route) for route in _find_fleet_routes(source, target, linked, game_map))
    game_map.remember(key, routes)
    return routes


def _linked_fleets(source: str, fleets: list[str], game_map: GameMap) -> list[str]:
    """The `fleets` some chain of them links to `source`, in their given order."""
    reach = game_map.fleet_province_reach
    frontier = [f for f in fleets if source in reach(f)]
    linked = set(frontier)
    while frontier:
        near = reach(frontier.pop())
        for other in fleets:
            if other not in linked and other in near:
                linked.add(other)
                frontier.append(other)
    return [f for f in fleets if f in linked]


def _find_fleet_routes(source: str, target: str, fleets: list[str], game_map: GameMap) -> list[list[str]]:
    reach = game_map.fleet_province_reach
    near = {fleet: reach(fleet) for fleet in fleets}  # fleet -> provinces it reaches
    routes: list[list[str]] = []

    def extend(route: list[str]) -> None:
        last = near[route[-1]]
        if target in last:
            routes.append(list(route))
            return
        for fleet in fleets:
            if fleet in route or fleet not in last or source in near[fleet]:
                continue
            if any(fleet in near[earlier] for earlier in route[:-1]):
                continue  # a shortcut exists: not minimal
            if any(target in near[earlier] for earlier in route):
                continue
            route.append(fleet)
            extend(route)
            route.pop()

    for first in fleets:
        if source in near[first]:
            extend([first])
    return routes


def route_exists(
    source: str, target: str, state: GameState, game_map: GameMap,
    excluded: str | None = None, max_fleets: int | None = None,
) -> bool:
    """Some chain of fleets on the board (but `excluded`), at most `max_fleets` long,
    could carry an army from `source` to `target`. The shortest chain is minimal, so
    this is "some route of `fleet_routes` is short enough", found breadth first."""
    if not convoyable(source, target, game_map):
        return False
    source = province_of(source)
    reach = game_map.fleet_province_reach
    fleets = convoy_fleets(state, game_map, excluded)
    frontier = [f for f in fleets if source in reach(f)]
    seen = set(frontier)
    length = 1
    while frontier and (max_fleets is None or length <= max_fleets):
        if any(target in reach(f) for f in frontier):
            return True
        following = []
        for fleet in frontier:
            near = reach(fleet)
            for other in fleets:
                if other not in seen and other in near:
                    seen.add(other)
                    following.append(other)
        frontier = following
        length += 1
    return False
