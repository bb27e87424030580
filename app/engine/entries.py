"""Order entries: each order line of a phase as written, as read, and its result.

`read_orders` parses and checks every line (invalid ones get their result at
once); `one_order_per_unit` settles units given several orders (DATC 4.D.3).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Union, cast

from . import outcomes as oc
from .explain import order_result
from .geo import province_of
from .legality import IllegalOrder, legal_order
from .orders import Order, Waive
from .outcomes import OrderEntry
from .parse import OrderSyntaxError, parse_order
from .state import GameState
from .variant import Variant

OrderInput = Union[str, Order]  # an order as written, or already typed


def unit_province(order: Order) -> str | None:
    """The province of the unit an order is for (None for a waive)."""
    return None if isinstance(order, Waive) else province_of(order.unit.location)


def parse_line(line: str, variant: Variant) -> Order:
    """`parse_order`, remembered per map: the same text always reads the same."""
    game_map = variant.map
    known = game_map.parsed.get(line)
    if known is not None:
        return cast(Order, known)
    order = parse_order(line, game_map)
    game_map.remember_parsed(line, order)
    return order


def read_orders(variant: Variant, state: GameState, orders: Mapping[str, Sequence[OrderInput]]) -> list[OrderEntry]:
    """Parse and check every order; invalid ones get their result at once."""
    entries: list[OrderEntry] = []
    for power, lines in orders.items():
        for line in lines:
            entry = OrderEntry(power, line if isinstance(line, str) else str(line))
            entries.append(entry)
            try:
                parsed = parse_line(line, variant) if isinstance(line, str) else line
                entry.parsed = parsed
                entry.order = legal_order(parsed, power, state, variant)
            except OrderSyntaxError as unreadable:  # a name per type: mypyc gives a name one type
                entry.result = order_result(power, entry.text, None, oc.Unreadable(str(unreadable)))
            except IllegalOrder as illegal:
                entry.result = order_result(power, entry.text, None, oc.Illegal(str(illegal)))
    return entries


def one_order_per_unit(entries: list[OrderEntry]) -> dict[str, OrderEntry]:
    """DATC 4.D.3 (choice c): a unit given different orders holds; repeats count once."""
    chosen: dict[str, OrderEntry] = {}
    conflicted: set[str] = set()
    placed: list[tuple[str, OrderEntry]] = []
    for entry in entries:
        order = entry.order
        if order is None or isinstance(order, Waive):
            continue
        location = order.unit.location
        slash = location.find("/")
        province = location if slash < 0 else location[:slash]
        placed.append((province, entry))
        first = chosen.get(province)
        if first is None:
            chosen[province] = entry
        elif first.order != order:
            conflicted.add(province)
    if conflicted:
        for province, entry in placed:
            if province in conflicted:
                entry.result = order_result(entry.power, entry.text, str(entry.order), oc.Duplicate())
                chosen.pop(province, None)
    return chosen
