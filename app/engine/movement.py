"""The movement phase: default holds, A/F boardings and landings, resolution, each
order's outcome, and the board after the moves (with the dislodged units' retreats)."""

from __future__ import annotations

from . import armyfleet, retreats
from . import outcomes as oc
from .entries import one_order_per_unit
from .explain import order_result
from .geo import province_of
from .movement_outcomes import order_outcome
from .orders import ARMY_FLEET, Board, Convoy, Hold, Move, MovementOrder, Order, SupportHold, SupportMove, Unit, Waive
from .outcomes import OrderEntry, OrderResult
from .resolve import MovementResolution, resolve_movement
from .state import NEUTRAL, Dislodged, GameState
from .variant import Variant


class UnitNames:
    """Province -> the unit that stood there at the start of the phase (`A BUR`)."""

    def __init__(self, state: GameState) -> None:
        self.units = state.units

    def __call__(self, province: str) -> str:
        here = self.units.get(province)
        return str(here[1]) if here else province


def describe_order(order: Order, name: UnitNames) -> str:
    """The order in the judges' short form, naming supported and convoyed units."""
    if isinstance(order, SupportHold):
        return f"{order.unit} S {name(order.supported)}"
    if isinstance(order, SupportMove):
        return f"{order.unit} S {name(order.supported)} - {order.target}"
    if isinstance(order, Convoy):
        return f"{order.unit} C A {order.army} - {order.target}"
    return str(order)


def movement_phase(
    variant: Variant, state: GameState, entries: list[OrderEntry]
) -> tuple[list[OrderResult], GameState, list[tuple[str, Unit]]]:
    """Resolve a movement phase: every order's result, the next position (its phase
    still to be set) and the units destroyed."""
    chosen = one_order_per_unit(entries)
    state, chosen = variant.hooks.prepare_movement(variant, state, chosen, entries)  # A/F boardings
    orders: dict[str, Order] = {
        p: e.order for p, e in chosen.items() if e.order is not None and not isinstance(e.order, Board)
    }
    defaults: list[OrderEntry] = []
    for province, (power, unit) in state.units.items():
        if province not in orders:
            orders[province] = Hold(unit)
            if power != NEUTRAL:
                defaults.append(OrderEntry(power, f"{unit} H", Hold(unit)))
    units = dict(state.units)
    carried = variant.hooks.split_orders(units, orders)  # A/F landings: a fleet part and an army part
    movement_orders: dict[str, MovementOrder] = orders  # type: ignore[assignment]  # legal in this phase
    resolution = resolve_movement(variant.map, variant.rules, units, movement_orders, carried)
    names = UnitNames(state)
    starved: set[str] = set()
    aboard: dict[str, str] = {}  # army -> fleet: a failed Fast Ferry landing of one power (Davis rule 2)
    new_state, removed = after_movement(variant, state, resolution, starved, aboard)
    for entry in entries:
        if entry.result is not None or entry.order is None:
            continue
        if isinstance(entry.order, Board):
            entry.result = order_result(entry.power, entry.text, str(entry.order), oc.Boarded(entry.order.fleet))
            continue
        if isinstance(entry.order, Waive):
            continue
        province = province_of(entry.order.unit.location)
        twin = chosen.get(province)  # a repeated or joined order shares its twin's result
        if twin is entry or (twin is not None and entry.order == twin.order):
            entry.result = _result(entry, province, resolution, names, starved=province in starved,
                                   ferry=aboard.get(province))
    for entry in defaults:
        if entry.order is not None and not isinstance(entry.order, Waive):
            province = province_of(entry.order.unit.location)
            entry.result = _result(entry, province, resolution, names, default=True, starved=province in starved)
    results = [e.result for e in entries + defaults if e.result is not None]
    return results, new_state, removed


def _result(
    entry: OrderEntry, province: str, res: MovementResolution, names: UnitNames,
    default: bool = False, starved: bool = False, ferry: str | None = None,
) -> OrderResult:
    order = entry.order
    if order is None or isinstance(order, Board):  # pragma: no cover - callers pass movement orders
        raise ValueError("no movement order")
    outcome = order_outcome(order, province, res)
    if ferry is not None:  # the army could not land from its own Fast Ferry: it is aboard, an A/F
        outcome = oc.LandingFailed("ferry", outcome, ferry)
    if starved:  # Army/Fleet rations: the A/F's army did not land in time
        outcome = oc.ArmyStarved(outcome)
    text = entry.text if default else describe_order(order, names)
    return order_result(
        entry.power, entry.text, text, outcome, names, default=default, dislodged_by=res.dislodged_by.get(province)
    )


def after_movement(
    variant: Variant, state: GameState, res: MovementResolution, starved: set[str] | None = None,
    aboard: dict[str, str] | None = None,
) -> tuple[GameState, list[tuple[str, Unit]]]:
    """The board after the moves: units moved, dislodged units with their retreats."""
    units: dict[str, tuple[str, Unit]] = {}
    moved: dict[str, tuple[str, Unit]] = {}
    for province, (power, unit) in state.units.items():
        order = res.orders[province]
        if province in res.dislodged_by:
            continue
        if isinstance(order, Move) and res.succeeded[province]:
            moved[province_of(order.target)] = (power, Unit(unit.type, order.target))
        else:
            units[province] = (power, unit)
    units.update(moved)
    removed: list[tuple[str, Unit]] = []
    af_moves = variant.hooks.after_movement(variant, state, res, units, removed, starved, aboard)
    standoffs = {
        target
        for source, target in res.resolver.target.items()  # every move, by its target province
        if not res.succeeded[source]
        and target not in units
        and res.dislodged_by.get(source) != target  # lost a head-to-head (DATC 6.H.9)
        and not res.path_failed(source)
    }
    dislodged: dict[str, Dislodged] = {}
    for province, attacker in res.dislodged_by.items():
        power, unit = state.units[province]
        if power == NEUTRAL:  # a standing army never retreats
            removed.append((power, unit))
            continue
        if unit.type == ARMY_FLEET and armyfleet.landed(res, province):
            unit = Unit("F", unit.location)  # its army got ashore; only the fleet is dislodged
        attacker = attacker.removesuffix(armyfleet.ARMY_PART)
        came_by_convoy = attacker in res.convoy_moves
        blocked_origin = None if (came_by_convoy and variant.rules.retreat_to_convoy_origin) else attacker
        options = retreats.retreat_options(variant.map, unit, units, standoffs, blocked_origin)
        moves_at_sea = 0
        if unit.type == ARMY_FLEET:
            options = [o for o in options if armyfleet.af_can_move(variant, unit.location, o)]
            moves_at_sea = state.af_moves.get(province, 0) + 1
        dislodged[province] = Dislodged(power, unit, attacker, tuple(options), moves_at_sea)
    # Only the Fall's dislodged units matter to the Winter removals (Small World 11.3).
    return state.evolve(units=units, dislodged=dislodged, af_moves=af_moves, retreated=frozenset()), removed
