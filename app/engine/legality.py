"""Is an order legal on this board? Returns the order made exact, or says why not.

The parser knows names; this module knows the board: it fills in the unit type
from the unit actually there (DATC 4.C.1, 4.C.2), ignores a wrong coast of the
ordered unit (4.B.5), picks the only reachable coast (4.B.2) and refuses a move
to an impossible or unnamed coast (4.B.3, 4.B.1).
"""

from __future__ import annotations

from . import armyfleet
from .convoy import convoy_fleets, convoyable, fleet_routes, route_exists
from .geo import GameMap, Terrain, province_of
from .orders import (
    ARMY_FLEET,
    Board,
    Build,
    Convoy,
    Disband,
    Hold,
    Land,
    Move,
    Order,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
    Unit,
    Waive,
)
from .phases import Phase
from .state import GameState
from .variant import Variant

UNIT_NAMES = {"A": "army", "F": "fleet", ARMY_FLEET: "A/F"}


class IllegalOrder(ValueError):
    """An order the rules do not allow; the message is written for the player."""


def legal_order(order: Order, power: str, state: GameState, variant: Variant) -> Order:
    kind = state.phase.kind
    if kind == "M":
        return _remembered_movement(order, power, state, variant)
    if kind == "R" or (state.dislodged and is_retreat_order(order, power, state)):
        return _retreat(order, power, state, variant.map, not variant.hooks.may_disband_with_retreat)
    return _adjustment(order, power, state, variant)


def is_retreat_order(order: Order, power: str, state: GameState) -> bool:
    """In a Winter phase that carries the Fall retreats (Small World 11.2): a retreat,
    or a disband of one of the power's units still waiting to retreat."""
    if isinstance(order, (Retreat, Move)):
        return True
    if not isinstance(order, (Disband, Remove)):
        return False
    province = province_of(order.unit.location)
    waiting = state.dislodged.get(province)
    standing = state.units.get(province)
    return waiting is not None and waiting.power == power and (standing is None or standing[0] != power)


# -- movement ------------------------------------------------------------------


def _remembered_movement(order: Order, power: str, state: GameState, variant: Variant) -> Order:
    """`_movement`, remembered per map where the answer depends only on the order, the
    unit it names and the unit it supports: holds, moves over land or sea (not by
    convoy), and supports of units that could move without a convoy, ordered by the
    unit's owner. Refusals are not remembered."""
    kind = type(order)
    if kind not in _REMEMBERED_KINDS:
        return _movement(order, power, state, variant)
    units = state.units
    location = order.unit.location  # type: ignore[union-attr]  # one of the kinds above
    slash = location.find("/")
    here = units.get(location if slash < 0 else location[:slash])
    if here is None or here[0] != power or here[1].type == ARMY_FLEET:
        return _movement(order, power, state, variant)  # refused, or an A/F: not remembered
    supported = units.get(order.supported) if kind is SupportHold or kind is SupportMove else None  # type: ignore[union-attr]
    # Keyed by identity (cheap to hash); the entry holds the objects, so no other object
    # can take their ids while it lives, and a hit is checked against them.
    supported_unit = supported[1] if supported is not None else None
    # Only the unit's owner reaches this far (nobody orders another's unit), and then
    # the answer does not depend on who the owner is: the same unit object may stand
    # there for another power later (interned units).
    key = ("legal", id(order), id(here[1]), id(supported_unit))
    known = variant.map.memo.get(key)
    if type(known) is _Remembered and known.order is order and known.unit is here[1] and known.supported is supported_unit:
        return known.legal
    legal = _movement(order, power, state, variant)
    if _depends_on_board_only_through_units(order, legal, supported, variant.map):
        variant.map.remember(key, _Remembered(order, here[1], supported_unit, legal))
    return legal


_REMEMBERED_KINDS = frozenset({Hold, Move, SupportHold, SupportMove})


class _Remembered:
    __slots__ = ("order", "unit", "supported", "legal")

    def __init__(self, order: Order, unit: Unit, supported: Unit | None, legal: Order) -> None:
        self.order, self.unit, self.supported, self.legal = order, unit, supported, legal


def _depends_on_board_only_through_units(
    order: Order, legal: Order, supported: tuple[str, Unit] | None, game_map: GameMap
) -> bool:
    """The legal form of `order` follows from the map, the ordered unit (and its owner)
    and the supported unit alone: nothing went by convoy, nothing depends on the phase."""
    if isinstance(legal, Hold):
        return True
    if isinstance(legal, SupportHold):
        return supported is not None
    if not isinstance(legal, (Move, SupportMove)) or game_map.provinces[province_of(legal.target)].no_attack_before:
        return False
    if isinstance(legal, Move):
        return not legal.via_convoy and not (isinstance(order, Move) and order.via_convoy)
    return supported is not None and (
        supported[1].type == "F" or game_map.army_can_move(supported[1].location, legal.target)
    )


def _own_unit(unit: Unit, power: str, state: GameState, game_map: GameMap) -> Unit:
    province = province_of(unit.location)
    here = state.units.get(province)
    if here is None:
        raise IllegalOrder(f"no unit at {game_map.name(province)}")
    owner, actual = here
    if owner != power:
        raise IllegalOrder(f"the unit at {game_map.name(province)} is not yours")
    return actual


def _movement(order: Order, power: str, state: GameState, variant: Variant) -> Order:
    game_map = variant.map
    kind = type(order)
    if isinstance(order, (Retreat, Disband, Build, Remove, Waive)):
        raise IllegalOrder(f"{_order_word(order)} orders belong to another phase; this is a movement phase")
    if (kind is Board or kind is Land) and kind not in variant.hooks.order_kinds:
        raise IllegalOrder("this variant has no Army/Fleet rules: armies cross water by convoy")
    if isinstance(order, Land) and order.unit.location == "?":
        order = Land(_landing_af(order.target, power, state, variant), order.target, order.via)
    unit = _own_unit(order.unit, power, state, game_map)
    if kind is Hold:
        return order if order.unit == unit else Hold(unit)
    here = province_of(unit.location)
    if isinstance(order, (Move, SupportMove, Land)) and game_map.provinces[province_of(order.target)].no_attack_before:
        _check_protected(province_of(order.target), state, game_map)
    if unit.type == ARMY_FLEET:
        return _army_fleet_order(order, unit, state, variant)
    if isinstance(order, Board):
        return _legal_boarding(unit, order.fleet, power, state, variant)
    if isinstance(order, Land):
        raise IllegalOrder(f"{unit} carries no army: only an A/F can land one")
    max_fleets = variant.hooks.convoy_max_fleets
    if isinstance(order, Move):
        move = _legal_move(unit, order.target, order.via_convoy, game_map)
        if unit.type == "A" and move.via_convoy and not route_exists(here, move.target, state, game_map, max_fleets=max_fleets):
            if max_fleets and route_exists(here, move.target, state, game_map):
                raise IllegalOrder(
                    f"a convoy may cross only one sea (the Fast Ferry): board a fleet to go further (A {here} boards F ...)"
                )
            if not game_map.army_can_move(here, move.target):
                raise IllegalOrder(f"no fleets stand where they could convoy {unit} to {game_map.name(move.target)}")
            move = Move(unit, move.target)  # "via convoy" with no fleet to take: by land
        return move
    if isinstance(order, SupportHold):
        return _support_hold(unit, order, state, game_map)
    if isinstance(order, SupportMove):
        supported = _supported_unit(unit, order, state, game_map)
        if order.supported == here:
            raise IllegalOrder("a unit cannot support its own move")
        supported_unit = supported[1]
        reachable = _could_reach(supported_unit, province_of(order.target), game_map)
        if reachable and supported_unit.type == "A" and not game_map.army_can_move(supported_unit.location, order.target):
            # A convoyed army: some route must stand without the supporting unit (DATC 6.D.31).
            reachable = route_exists(
                order.supported, province_of(order.target), state, game_map, excluded=here, max_fleets=max_fleets
            )
        if not reachable:
            raise IllegalOrder(
                f"the {UNIT_NAMES[supported_unit.type]} at {game_map.name(order.supported)} "
                f"cannot reach {game_map.name(order.target)}"
            )
        if "/" in order.target and supported_unit.type == "A":
            return SupportMove(unit, order.supported, province_of(order.target))
        return SupportMove(unit, order.supported, order.target)
    if isinstance(order, Convoy):
        if unit.type != "F" or not game_map.provinces[here].convoy_water:
            raise IllegalOrder("only a fleet at sea can convoy")
        army = state.units.get(order.army)
        if army is None or army[1].type != "A":
            raise IllegalOrder(f"there is no army at {game_map.name(order.army)} to convoy")
        if order.army == order.target or not game_map.is_coastal(order.target) or not game_map.is_coastal(order.army):
            raise IllegalOrder(f"an army cannot be convoyed from {game_map.name(order.army)} to {game_map.name(order.target)}")
        if unit.type == ARMY_FLEET:
            raise IllegalOrder("an A/F cannot convoy")
        routes = fleet_routes(order.army, order.target, convoy_fleets(state, game_map), game_map)
        if not any(here in route for route in routes if not max_fleets or len(route) <= max_fleets):
            hint = variant.hooks.convoy_hint(variant, here, order.army, order.target)
            raise IllegalOrder(
                f"{unit} is on no convoy route from {game_map.name(order.army)} to {game_map.name(order.target)}{hint}"
            )
        return Convoy(unit, order.army, order.target)
    raise IllegalOrder(f"{order} is not a movement order")


def _check_protected(province: str, state: GameState, game_map: GameMap) -> None:
    """A province nobody may attack before a given phase (Small World 5.1: India in 01)."""
    until = game_map.provinces[province].no_attack_before
    if until and state.phase.index < Phase.parse(until).index:
        name = game_map.provinces[province].name
        raise IllegalOrder(f"nobody may attack {name} before {Phase.parse(until).describe()}")


def _order_word(order: Order) -> str:
    return type(order).__name__.lower()


def _support_hold(unit: Unit, order: SupportHold, state: GameState, game_map: GameMap) -> SupportHold:
    _check_support_reach(unit, order.supported, game_map)
    if order.supported not in state.units:
        raise IllegalOrder(f"there is no unit at {game_map.name(order.supported)} to support")
    return SupportHold(unit, order.supported)


def _supported_unit(unit: Unit, order: SupportMove, state: GameState, game_map: GameMap) -> tuple[str, Unit]:
    """The unit a support of a move names, once the supporter is known to reach the target."""
    _check_support_reach(unit, order.target, game_map)
    supported = state.units.get(order.supported)
    if supported is None:
        raise IllegalOrder(f"there is no unit at {game_map.name(order.supported)} to support")
    return supported


def _check_support_reach(unit: Unit, target: str, game_map: GameMap) -> None:
    province = province_of(target)
    if province == province_of(unit.location):
        raise IllegalOrder("a unit cannot support a move into its own province")
    if not game_map.can_reach_province(unit.type, unit.location, province):
        raise IllegalOrder(
            f"the {UNIT_NAMES[unit.type]} at {game_map.name(unit.location)} cannot reach "
            f"{game_map.name(province)}, so it cannot support there"
        )


def _could_reach(unit: Unit, province: str, game_map: GameMap) -> bool:
    if province == province_of(unit.location):
        return False
    if unit.type == "F":
        return game_map.fleet_reaches_province(unit.location, province)
    if game_map.army_can_move(unit.location, province):
        return True
    return convoyable(unit.location, province, game_map)


# -- the Army/Fleet module -------------------------------------------------------


def _landing_af(target: str, power: str, state: GameState, variant: Variant) -> Unit:
    """`A disembarks Nwy`: the power's one A/F that can land there."""
    candidates = [
        unit for owner, unit in state.units.values()
        if owner == power and unit.type == ARMY_FLEET and armyfleet.can_land(variant.map, unit.location, target)
    ]
    if len(candidates) != 1:
        which = "none of your A/Fs" if not candidates else "several of your A/Fs"
        raise IllegalOrder(f"{which} can land at {variant.map.name(target)}: write A/F <sea> - {target}")
    return candidates[0]


def _legal_boarding(army: Unit, fleet: str, power: str, state: GameState, variant: Variant) -> Board:
    game_map = variant.map
    if army.type != "A":
        raise IllegalOrder("only an army can board a fleet")
    here = province_of(army.location)
    carrier = state.units.get(fleet)
    if carrier is None or carrier[1].type != "F":
        raise IllegalOrder(f"there is no fleet at {game_map.name(fleet)} to board")
    if carrier[0] != power:
        raise IllegalOrder("an A/F is one army and one fleet of the same power")
    if not armyfleet.af_water(game_map, fleet) or not game_map.fleet_reaches_province(fleet, here):
        raise IllegalOrder(f"the army at {game_map.name(here)} cannot board a fleet at {game_map.name(fleet)}")
    return Board(army, fleet)


def _af_cannot_move(variant: Variant, here: str, there: str) -> str:
    words = f"an A/F cannot move from {variant.map.name(here)} to {variant.map.name(there)}"
    reason = armyfleet.closed_link_reason(variant, here, there)
    return f"{words}: {reason}" if reason else words


def _army_fleet_order(order: Order, unit: Unit, state: GameState, variant: Variant) -> Order:
    game_map = variant.map
    here = unit.location
    if isinstance(order, Move) and not armyfleet.af_water(game_map, province_of(order.target)):
        order = Land(unit, order.target)
    if isinstance(order, Move):
        if not armyfleet.af_can_move(variant, here, order.target):
            raise IllegalOrder(_af_cannot_move(variant, here, order.target))
        return Move(unit, province_of(order.target))
    if isinstance(order, Land):
        sea = order.via or here
        if order.via and not armyfleet.af_can_move(variant, here, order.via):
            raise IllegalOrder(_af_cannot_move(variant, here, order.via))
        if not armyfleet.can_land(game_map, sea, order.target):
            raise IllegalOrder(f"the army cannot land at {game_map.name(order.target)} from {game_map.name(sea)}")
        return Land(unit, province_of(order.target), order.via)
    if isinstance(order, Convoy):
        raise IllegalOrder("an A/F cannot convoy")
    if isinstance(order, Board):
        raise IllegalOrder("this army is already aboard")
    if isinstance(order, SupportHold):
        return _support_hold(unit, order, state, game_map)
    if isinstance(order, SupportMove):
        _supported_unit(unit, order, state, game_map)
        return SupportMove(unit, order.supported, order.target)
    raise IllegalOrder(f"{order} is not an order an A/F can take")


def _legal_move(unit: Unit, target: str, via_convoy: bool, game_map: GameMap) -> Move:
    here = province_of(unit.location)
    target_province = province_of(target)
    province = game_map.provinces[target_province]
    if target_province == here:
        raise IllegalOrder("a unit cannot move to the province it is in")
    if province.terrain is Terrain.IMPASSABLE:
        raise IllegalOrder(f"{province.name} is impassable")
    if unit.type == "A":
        if province.terrain is Terrain.SEA and not province.island:
            raise IllegalOrder(f"armies cannot move to {province.name}")
        if game_map.army_can_move(here, target_province):
            return Move(unit, target_province, via_convoy)
        if convoyable(here, target_province, game_map):
            return Move(unit, target_province, True)
        raise IllegalOrder(f"the army at {game_map.name(here)} cannot reach {province.name}")
    # fleets
    if province.terrain is Terrain.LAND:
        raise IllegalOrder(f"fleets cannot move to {province.name}")
    if province.coasts:
        reachable = game_map.fleet_targets_in(unit.location, target_province)
        if "/" in target:
            if target not in reachable:
                raise IllegalOrder(f"the fleet at {game_map.name(unit.location)} cannot reach {game_map.name(target)}")
            return Move(unit, target)
        if len(reachable) == 1:
            return Move(unit, reachable[0])
        if not reachable:
            raise IllegalOrder(f"the fleet at {game_map.name(unit.location)} cannot reach {province.name}")
        raise IllegalOrder(f"{province.name} needs a coast: {' or '.join(sorted(reachable))}")
    if not game_map.fleet_can_move(unit.location, target_province):
        raise IllegalOrder(f"the fleet at {game_map.name(unit.location)} cannot reach {province.name}")
    return Move(unit, target_province)


# -- retreats -----------------------------------------------------------------


def _retreat(order: Order, power: str, state: GameState, game_map: GameMap, no_voluntary_disband: bool) -> Order:
    if isinstance(order, (Build, Waive)):
        raise IllegalOrder("builds belong to the adjustment phase; this is a retreat phase")
    province = province_of(order.unit.location)
    dislodged = state.dislodged.get(province)
    if dislodged is None:
        raise IllegalOrder(f"no dislodged unit at {game_map.name(province)}")
    if dislodged.power != power:
        raise IllegalOrder(f"the dislodged unit at {game_map.name(province)} is not yours")
    unit = dislodged.unit
    if isinstance(order, (Disband, Remove)):
        if no_voluntary_disband and dislodged.retreats:
            raise IllegalOrder(f"{unit} must retreat while it can: retreats {', '.join(dislodged.retreats)}")
        return Disband(unit)
    if isinstance(order, (Retreat, Move)):
        target = order.target
        options = dislodged.retreats
        if "/" not in target:
            matches = [loc for loc in options if province_of(loc) == target]
            if len(matches) == 1:
                return Retreat(unit, matches[0])
            if len(matches) > 1:
                raise IllegalOrder(f"{game_map.name(target)} needs a coast: {' or '.join(matches)}")
        elif unit.type == "A":
            target = province_of(target)
        if target in options:
            return Retreat(unit, target)
        allowed = ", ".join(options) if options else "none: the unit must disband"
        raise IllegalOrder(f"{unit} cannot retreat to {game_map.name(target)} (retreats: {allowed})")
    raise IllegalOrder("in a retreat phase a dislodged unit may only retreat or disband")


# -- adjustments --------------------------------------------------------------


def build_sites(power: str, state: GameState, variant: Variant) -> dict[str, frozenset[str] | None]:
    """Where `power` may build now: province -> the unit types allowed there (None: any)."""
    home = set(variant.power(power).home)
    home.update(c.province for c in variant.conditional_homes if c.power == power)
    sites: dict[str, frozenset[str] | None] = {p: None for p in home if state.centres.get(p) == power}
    for site in variant.build_sites:
        if site.power != power or (site.requires_owned and state.owner(site.province) != power):
            continue
        if site.from_year is not None and state.phase.year < site.from_year:
            continue
        if site.province in sites and sites[site.province] is None:
            continue
        allowed = frozenset((site.unit,)) if site.unit else None
        if allowed is None:
            sites[site.province] = None
        else:
            sites[site.province] = (sites.get(site.province) or frozenset()) | allowed
    return {p: t for p, t in sites.items() if p not in state.units}


def _adjustment(order: Order, power: str, state: GameState, variant: Variant) -> Order:
    game_map = variant.map
    if isinstance(order, Waive):
        return order
    if isinstance(order, (Remove, Disband)):
        return Remove(_own_unit(order.unit, power, state, game_map))
    if not isinstance(order, Build):
        raise IllegalOrder("in the adjustment phase you may build, remove or waive")
    unit = order.unit
    province = province_of(unit.location)
    prov = game_map.provinces[province]
    if province in state.units:  # occupied: say so only where one could otherwise build
        empty = {p: u for p, u in state.units.items() if p != province}
        if province in build_sites(power, state.evolve(units=empty), variant):
            raise IllegalOrder(f"{prov.name} is occupied")
    sites = build_sites(power, state, variant)
    if province not in sites:
        if state.centres.get(province) != power and province in variant.power(power).home:
            raise IllegalOrder(f"you do not own {prov.name}")
        raise IllegalOrder(f"{prov.name} is not one of your home centres")
    unit_type = unit.type
    if unit_type == "?":  # DATC 4.C.3, choice c
        if prov.terrain is Terrain.LAND:
            unit_type = "A"
        elif "/" in unit.location:
            unit_type = "F"
        else:
            raise IllegalOrder(f"say whether to build an army or a fleet in {prov.name}")
    allowed = sites[province]
    if allowed is not None and unit_type not in allowed:
        kinds = " and ".join(sorted({"A": "armies", "F": "fleets"}[t] for t in allowed))
        raise IllegalOrder(f"only {kinds} may be built in {prov.name}")
    if unit_type == "A":
        return Build(Unit("A", province))
    if prov.terrain is Terrain.LAND:
        raise IllegalOrder(f"fleets cannot be built in {prov.name}, which is inland")
    site_coast = next((s.coast for s in variant.build_sites if s.power == power and s.province == province and s.coast), None)
    if prov.coasts:
        location = unit.location if "/" in unit.location else site_coast
        if location is None:
            raise IllegalOrder(f"a fleet built in {prov.name} needs a coast: {' or '.join(prov.coasts)}")
        if site_coast and location != site_coast:
            raise IllegalOrder(f"fleets may be built in {prov.name} only on {site_coast}")
        return Build(Unit("F", location))
    return Build(Unit("F", province))
