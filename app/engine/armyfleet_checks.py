"""Checking one power's A/F orders on arrival as the movement phase will read them.

Davis's "board, sail and land in one move" (`A Can boards F Scs` with `A/F Scs - Bob`
and `A disembarks Bur`, or `A/F Scs - Bob - Bur`) names an A/F that exists only once
the boarding is made. The movement phase boards first and then reads the fleet's
order again (armyfleet_orders.py); an order check does the same on a copy, so every
form the adjudicator accepts is accepted by mail too.
"""

from __future__ import annotations

from . import armyfleet_orders
from . import outcomes as oc
from .explain import order_result
from .geo import province_of
from .legality import IllegalOrder, legal_order
from .orders import ARMY_FLEET, Board, Waive
from .outcomes import OrderEntry
from .state import GameState
from .variant import Variant


def recheck_after_boarding(variant: Variant, state: GameState, entries: list[OrderEntry]) -> None:
    """Entries of one power, read against `state`: orders that become legal once the
    power's boardings are made (and its sailing A/Fs joined to their landings) get their
    legal order and lose their refusal, in place. Other entries are left as they are."""
    if state.phase.kind != "M":
        return
    chosen: dict[str, OrderEntry] = {}
    for entry in entries:  # the last legal order of each unit, as the mail stores them
        if entry.order is not None and not isinstance(entry.order, Waive):
            chosen[province_of(entry.order.unit.location)] = entry
    if not any(isinstance(e.order, Board) for e in chosen.values()):
        armyfleet_orders.join_landings(variant, state, chosen, entries)
        return
    copies = {id(e): OrderEntry(e.power, e.text, e.order, e.result, e.parsed) for e in entries}
    twins = [copies[id(e)] for e in entries]
    chosen_twins = {p: copies[id(e)] for p, e in chosen.items()}
    boarded_state, chosen_twins = armyfleet_orders.board(variant, state, chosen_twins, twins)
    armyfleet_orders.join_landings(variant, boarded_state, chosen_twins, twins)
    _reread_for_the_af(variant, state, boarded_state, [t for t in twins if t not in chosen_twins.values()])
    for entry, twin in zip(entries, twins):
        if entry.order is None and twin.order is not None:
            entry.order, entry.result = twin.order, None
        elif twin.order is not None and twin.order != entry.order and twin.result is None:
            entry.order = twin.order  # the fleet's order, read again for the A/F it became
        elif twin.order is None and entry.order is not None and twin.result is not None:
            entry.order, entry.result = None, twin.result  # legal for the fleet, not for the A/F


def _reread_for_the_af(variant: Variant, before: GameState, boarded: GameState, others: list[OrderEntry]) -> None:
    """The other orders given to a fleet boarded this phase (an earlier line, replaced by a
    later one) are read for the A/F too, so none is acknowledged for a plain fleet:
    `A/F Car - Gal` beside `A Mex boards F Car` is refused (Small World 10.1) whatever
    line follows it (issue 22.15)."""
    for twin in others:
        order = twin.order
        if order is None or isinstance(order, (Board, Waive)) or twin.result is not None:
            continue
        province = province_of(order.unit.location)
        now = boarded.units.get(province)
        if now is None or now == before.units.get(province) or now[1].type != ARMY_FLEET:
            continue  # not a fleet boarded this phase (an army that boarded has left its province)
        try:
            twin.order = legal_order(armyfleet_orders.as_army_fleet(order), twin.power, boarded, variant)
        except IllegalOrder as error:
            twin.order = None
            twin.result = order_result(twin.power, twin.text, None, oc.Illegal(f"after boarding: {error}"))
