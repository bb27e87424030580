"""Army/Fleet orders of a movement phase: boardings first, then landings joined to the
A/F moves they follow (see armyfleet.py for the module's rules)."""

from __future__ import annotations

from . import armyfleet
from . import outcomes as oc
from .explain import order_result
from .geo import province_of
from .legality import IllegalOrder, legal_order
from .orders import (
    ARMY_FLEET,
    Board,
    Convoy,
    Hold,
    Land,
    Move,
    Order,
    SupportHold,
    SupportMove,
    Unit,
    Waive,
)
from .outcomes import OrderEntry
from .state import GameState
from .variant import Variant


def board(
    variant: Variant, state: GameState, chosen: dict[str, OrderEntry], entries: list[OrderEntry]
) -> tuple[GameState, dict[str, OrderEntry]]:
    """Boardings happen first; the boarded fleet's order then moves the new A/F."""
    boardings = [(e.power, e.order) for e in chosen.values() if isinstance(e.order, Board)]
    if not boardings:
        return state, chosen
    state, boarded = armyfleet.board(state, boardings)
    for fleet in boarded:
        power = state.units[fleet][0]
        entry = chosen.get(fleet) or next(
            (e for e in entries if e.power == power and e.parsed is not None and not isinstance(e.parsed, Waive)
             and province_of(e.parsed.unit.location) == fleet), None)
        if entry is None or entry.parsed is None:
            continue
        try:  # the fleet's order is read again: it now moves an A/F
            entry.order = legal_order(as_army_fleet(entry.parsed), entry.power, state, variant)
            entry.result = None
            chosen[fleet] = entry
        except IllegalOrder as error:
            entry.result = order_result(entry.power, entry.text, None, oc.Illegal(f"after boarding: {error}"))
            entry.order = None
            chosen.pop(fleet, None)
    return state, chosen


def join_landings(variant: Variant, state: GameState, chosen: dict[str, OrderEntry], entries: list[OrderEntry]) -> None:
    """`A/F Wms - Ems` and `A disembarks Gre` in one order set: the A/F sails, then lands
    (Davis's example). The two orders become one landing, and both lines report it."""
    for entry in entries:
        parsed = entry.parsed
        if not (isinstance(parsed, Land) and parsed.unit.location == "?" and entry.order is None):
            continue
        for mover in chosen.values():
            order = mover.order
            if (
                mover.power == entry.power
                and isinstance(order, Move)
                and order.unit.type == ARMY_FLEET
                and armyfleet.can_land(variant.map, order.target, parsed.target)
            ):
                try:
                    landing = legal_order(Land(order.unit, parsed.target, order.target), entry.power, state, variant)
                except IllegalOrder:
                    continue
                mover.order = entry.order = landing
                entry.result = None
                break


def as_army_fleet(order: Order) -> Order:
    """A fleet's order, given to the A/F that fleet became."""
    if isinstance(order, Waive):
        return order
    unit = Unit(ARMY_FLEET, order.unit.location)
    if isinstance(order, Move):
        return Move(unit, order.target)
    if isinstance(order, Hold):
        return Hold(unit)
    if isinstance(order, SupportHold):
        return SupportHold(unit, order.supported)
    if isinstance(order, SupportMove):
        return SupportMove(unit, order.supported, order.target)
    if isinstance(order, Convoy):
        return Convoy(unit, order.army, order.target)
    if isinstance(order, Land):
        return Land(unit, order.target, order.via)
    if isinstance(order, Board):
        return Board(unit, order.fleet)
    return order
