"""The Army/Fleet module (Davis 1984) and the Fast Ferry, as Small World II-R uses them.

An A/F is one army aboard one fleet of the same power, standing at sea. It moves,
supports and is supported with the strength of one fleet, and cannot convoy.

A turn with A/Fs runs like this (choices for the module's open questions are in
variants/smallworld/NOTES.md and docs/rules.md):
  1. Boarding first: `A Mar boards F Lyo` never fails (Agar); the fleet's order of the
     same turn moves the new A/F (`F Lyo - Wes` or `A/F Lyo - Wes`).
  2. A landing (`A/F Wes - Tun`, `A/F Lyo - Wes - Tun`, `A disembarks Tun`) is split in
     two resolver units: the fleet part (holding, or moving to the sea it names) and the
     army part, a move into the landing province that needs the fleet part's move to
     succeed. The army part's origin is a placeholder nobody can attack.
  3. After the moves: a landed army stands ashore and the fleet stays a fleet; an army
     that could not land stays aboard wherever its fleet is; a dislodged A/F retreats as
     one unit to a sea. An army convoyed by a Fast Ferry of its own power that cannot
     land goes aboard instead (Davis rule 2); a foreign ferry brings it back.
  4. Rations: an A/F still at sea after its fourth consecutive move loses its army.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .geo import GameMap, province_of
from .orders import ARMY_FLEET, Board, Convoy, Hold, Land, Move, Order, SupportMove, Unit
from .resolve import MovementResolution
from .state import GameState
from .variant import Variant

ARMY_PART = "+A"  # suffix of the placeholder province of a landing army part


def settings(variant: Variant) -> dict[str, Any]:
    return dict(variant.extra.get("army_fleet", {}))


def _closed_links(variant: Variant) -> set[frozenset[str]]:
    """Sea-to-sea links an A/F may not use (canals marked `army_fleet = false`)."""
    return {
        frozenset(canal["seas"])
        for canal in variant.extra.get("canals", [])
        if not canal.get("army_fleet", True)
    }


def closed_link_reason(variant: Variant, source: str, target: str) -> str | None:
    """Why an A/F may not sail from `source` to `target` when a canal closed to A/Fs
    joins them (Small World 10.1), with the rule the variant cites; None otherwise."""
    link = frozenset((province_of(source), province_of(target)))
    for canal in variant.extra.get("canals", []):
        if not canal.get("army_fleet", True) and frozenset(canal["seas"]) == link:
            rule = canal.get("army_fleet_rule")
            return (f"the {canal.get('name', 'canal')} is closed to A/Fs; the army must land in an adjacent"
                    f" land province first{f' ({rule})' if rule else ''}")
    return None


def af_water(game_map: GameMap, province: str) -> bool:
    return game_map.provinces[province].convoy_water


def af_can_move(variant: Variant, source: str, target: str) -> bool:
    game_map = variant.map
    return (
        af_water(game_map, province_of(target))
        and game_map.fleet_can_move(source, target)
        and frozenset((province_of(source), province_of(target))) not in _closed_links(variant)
    )


def can_land(game_map: GameMap, sea: str, target: str) -> bool:
    province = game_map.provinces[province_of(target)]
    return not province.convoy_water and game_map.fleet_reaches_province(sea, province.id)


def rations(variant: Variant) -> int:
    """Moves an A/F may spend at sea before its army starves (boarding move included)."""
    return int(settings(variant).get("rations", 3)) + 1


# -- the movement phase -----------------------------------------------------------


@dataclass
class Prepared:
    state: GameState  # the board after boarding
    boarded: dict[str, str]  # fleet province -> province the army came from
    carried: dict[str, str | None]  # army-part placeholder -> fleet part that must move first
    landings: dict[str, str]  # army-part placeholder -> the A/F's province


def board(state: GameState, boardings: list[tuple[str, Board]]) -> tuple[GameState, dict[str, str]]:
    """Carry out the (legal) boardings before anything moves."""
    units = dict(state.units)
    af_moves = dict(state.af_moves)
    boarded: dict[str, str] = {}
    for power, order in boardings:
        army_province = province_of(order.unit.location)
        if order.fleet in boarded or army_province not in units:
            continue
        del units[army_province]
        units[order.fleet] = (power, Unit(ARMY_FLEET, order.fleet))
        af_moves[order.fleet] = 0
        boarded[order.fleet] = army_province
    return state.evolve(units=units, af_moves=af_moves), boarded


def split_landings(
    units: dict[str, tuple[str, Unit]], orders: dict[str, Order]
) -> dict[str, str | None]:
    """Turn each Land order into a fleet-part order and an army-part move (in place)."""
    carried: dict[str, str | None] = {}
    for province, order in list(orders.items()):
        if not isinstance(order, Land):
            continue
        power, unit = units[province]
        placeholder = province + ARMY_PART
        if order.via:
            orders[province] = Move(unit, order.via)
        else:
            orders[province] = Hold(unit)
        units[placeholder] = (power, Unit("A", placeholder))
        orders[placeholder] = Move(Unit("A", placeholder), province_of(order.target))
        carried[placeholder] = province if order.via else None
    # Supports of a landing name the A/F's province: point them at the army part.
    for province, order in list(orders.items()):
        if isinstance(order, SupportMove):
            placeholder = order.supported + ARMY_PART
            landing = orders.get(placeholder)
            if isinstance(landing, Move) and landing.target == province_of(order.target):
                orders[province] = SupportMove(order.unit, placeholder, order.target)
    return carried


def ferry_boarders(
    units: dict[str, tuple[str, Unit]],
    orders: Mapping[str, object],
    succeeded: dict[str, bool],
    dislodged: set[str],
) -> dict[str, str]:
    """Armies whose Fast Ferry of their own power could not land them: army -> fleet."""
    result: dict[str, str] = {}
    for province, order in orders.items():
        if not isinstance(order, Convoy) or province in dislodged or province in result.values():
            continue
        army = order.army
        move = orders.get(army)
        if (
            isinstance(move, Move)
            and province_of(move.target) == order.target
            and not succeeded.get(army, True)
            and army not in dislodged
            and units[army][0] == units[province][0]
        ):
            result[army] = province
    return result


def landed(res: MovementResolution, province: str) -> bool:
    """The army of the A/F at `province` got ashore this turn."""
    return res.succeeded.get(province + ARMY_PART, False)


def after_movement(
    variant: Variant,
    state: GameState,
    res: MovementResolution,
    units: dict[str, tuple[str, Unit]],
    removed: list[tuple[str, Unit]],
    starved: set[str] | None = None,
    aboard: dict[str, str] | None = None,
    fast_ferry: bool = False,
) -> dict[str, int]:
    """Landings, Fast Ferry boardings (with `fast_ferry`) and rations, on the board after the moves.

    Changes `units` and `removed` in place (adds to `starved` the provinces, before the
    moves, of the A/Fs whose army ran out of rations, and to `aboard` each army that its
    own Fast Ferry took aboard: army -> fleet); returns each A/F's moves made at sea."""
    af_moves: dict[str, int] = {}
    where = {}  # A/F province before the moves -> after (when not dislodged)
    for province, (power, unit) in state.units.items():
        if unit.type != ARMY_FLEET or province in res.dislodged_by:
            continue  # a dislodged A/F carries its count in its Dislodged record
        order = res.orders[province]
        moved = isinstance(order, Move) and res.succeeded[province]
        where[province] = province_of(order.target) if isinstance(order, Move) and moved else province
    for origin, now in where.items():
        power, unit = units[now]
        if landed(res, origin):
            landing = res.orders[origin + ARMY_PART]
            target = province_of(landing.target) if isinstance(landing, Move) else origin
            units[target] = (power, Unit("A", target))
            units[now] = (power, Unit("F", unit.location))
        else:
            af_moves[now] = state.af_moves.get(origin, 0) + 1
    dislodged = set(res.dislodged_by)
    ferried = ferry_boarders(state.units, res.orders, res.succeeded, dislodged) if fast_ferry else {}
    for army, fleet in ferried.items():
        power, fleet_unit = units[fleet]
        if fleet_unit.type != "F" or units.get(army, (None, None))[1] != state.units[army][1]:
            continue
        del units[army]
        units[fleet] = (power, Unit(ARMY_FLEET, fleet_unit.location))
        af_moves[fleet] = 1
        if aboard is not None:
            aboard[army] = fleet
    limit = rations(variant)
    origin_of = {now: origin for origin, now in where.items()}
    for province, moves in list(af_moves.items()):
        if moves >= limit:  # the army starves: it has not landed in time
            power, unit = units[province]
            units[province] = (power, Unit("F", unit.location))
            removed.append((power, Unit("A", province)))
            del af_moves[province]
            if starved is not None:
                starved.add(origin_of.get(province, province))
    return af_moves
