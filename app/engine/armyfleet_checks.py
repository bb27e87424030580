"""Checking one power's A/F orders on arrival as the movement phase will read them.

Davis's "board, sail and land in one move" (`A Can boards F Scs` with `A/F Scs - Bob`
and `A disembarks Bur`, or `A/F Scs - Bob - Bur`) names an A/F that exists only once
the boarding is made. The movement phase boards first and then reads the fleet's
order again (armyfleet_orders.py); an order check does the same on a copy, so every
form the adjudicator accepts is accepted by mail too.
"""

from __future__ import annotations

from . import armyfleet, armyfleet_orders
from .entries import OrderEntry
from .geo import province_of
from .orders import Board, Waive
from .state import GameState
from .variant import Variant


def recheck_after_boarding(variant: Variant, state: GameState, entries: list[OrderEntry]) -> None:
    """Entries of one power, read against `state`: orders that become legal once the
    power's boardings are made (and its sailing A/Fs joined to their landings) get their
    legal order and lose their refusal, in place. Other entries are left as they are."""
    if state.phase.kind != "M" or not armyfleet.enabled(variant):
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
    for entry, twin in zip(entries, twins):
        if entry.order is None and twin.order is not None:
            entry.order, entry.result = twin.order, None
        elif twin.order is not None and twin.order != entry.order and twin.result is None:
            entry.order = twin.order  # the fleet's order, read again for the A/F it became
        elif twin.order is None and entry.order is not None and twin.result is not None:
            entry.order, entry.result = None, twin.result  # legal for the fleet, not for the A/F
