"""One phase in, the next state out: read orders, apply defaults, resolve, explain.

`adjudicate(variant, state, orders)` is the engine's front door. Orders come as
text (or typed orders) per power; each gets an `OrderResult` in the order given,
and units without an order get the variant's default, reported as such.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Union

from . import adjustments, armyfleet, retreats
from .geo import province_of
from .legality import IllegalOrder, legal_order
from .orders import ARMY_FLEET, Board, Build, Convoy, Hold, Land, Move, Order, Retreat, SupportHold, SupportMove, Unit
from .outcomes import FAILS, INVALID, SUCCEEDS, OrderResult, Reason
from .parse import OrderSyntaxError, parse_order
from .phase_result import HiddenBuild, PhaseResult, RevealedStart
from .phases import Phase
from .resolve import MovementResolution, resolve_movement
from .state import NEUTRAL, Dislodged, GameState
from .variant import Variant

OrderInput = Union[str, Order]  # an order as written, or already typed


@dataclass
class OrderEntry:
    power: str
    text: str
    order: Order | None = None  # the legal order
    result: OrderResult | None = None
    parsed: Order | None = None  # as written, legal or not


def read_orders(variant: Variant, state: GameState, orders: Mapping[str, Sequence[OrderInput]]) -> list[OrderEntry]:
    """Parse and check every order; invalid ones get their result at once."""
    entries: list[OrderEntry] = []
    for power, lines in orders.items():
        for line in lines:
            entry = OrderEntry(power, line if isinstance(line, str) else str(line))
            entries.append(entry)
            try:
                parsed = parse_order(line, variant.map) if isinstance(line, str) else line
                entry.parsed = parsed
                entry.order = legal_order(parsed, power, state, variant)
            except OrderSyntaxError as error:
                entry.result = OrderResult(power, entry.text, None, INVALID, Reason.UNREADABLE, str(error))
            except IllegalOrder as error:
                entry.result = OrderResult(power, entry.text, None, INVALID, Reason.ILLEGAL, str(error))
    return entries


def adjudicate(variant: Variant, state: GameState, orders: Mapping[str, Sequence[OrderInput]]) -> PhaseResult:
    state = reveal_hidden_choices(variant, state, orders)
    entries = read_orders(variant, state, orders)
    if state.phase.kind == "M":
        result = _movement(variant, state, entries)
    elif state.phase.kind == "R":
        result = _retreats(variant, state, entries)
    else:
        result = _adjustments(variant, state, entries)
        result.hidden_builds = hidden_builds(variant, state.phase, entries)
    result.revealed = revealed_starts(variant, state)
    return result


def revealed_starts(variant: Variant, state: GameState) -> tuple[RevealedStart, ...]:
    """The secret starting units due to be revealed in this phase, as they stand."""
    found = []
    for choice in variant.hidden_choices:
        if variant.phase(choice.reveal_with) != state.phase:
            continue
        default = parse_order(choice.unit, variant.map).unit
        here = state.units.get(province_of(default.location))
        if here is not None and here[0] == choice.power:
            found.append(RevealedStart(choice.power, here[1]))
    return tuple(found)


def hidden_builds(variant: Variant, phase: Phase, entries: list[OrderEntry]) -> tuple[HiddenBuild, ...]:
    """Builds of this phase whose site stays secret for a while (Zeus 5 rule 4)."""
    hidden = []
    for rule in variant.hidden_builds:
        if variant.phase(rule.phase) != phase:
            continue
        built = [
            entry.order.unit
            for entry in entries
            if entry.power == rule.power
            and isinstance(entry.order, Build)
            and entry.result is not None
            and entry.result.result == SUCCEEDS
            and province_of(entry.order.unit.location) in rule.sites
        ]
        if len(built) >= len(rule.sites):  # built in every one of the sites: nothing to hide
            continue
        for unit in built:
            public = f"{unit.type} {'/'.join(rule.sites)}"
            hidden.append(HiddenBuild(rule.power, unit, public, rule.reveal_after))
    return tuple(hidden)


def reveal_hidden_choices(variant: Variant, state: GameState, orders: Mapping[str, Sequence[OrderInput]]) -> GameState:
    """A starting unit whose coast or type was secret (Small World 6.1, 6.2) becomes what
    its power's orders of the reveal phase say it is; without such an order, its default."""
    due = [h for h in variant.hidden_choices if variant.phase(h.reveal_with) == state.phase]
    if not due:
        return state
    units = dict(state.units)
    for choice in due:
        default = parse_order(choice.unit, variant.map).unit
        province = province_of(default.location)
        if units.get(province) != (choice.power, default):
            continue
        for line in orders.get(choice.power, []):
            try:
                written = parse_order(line, variant.map) if isinstance(line, str) else line
            except OrderSyntaxError:
                continue
            unit = getattr(written, "unit", None)
            if unit is None or province_of(unit.location) != province:
                continue
            for option in choice.options:
                candidate = parse_order(option, variant.map).unit
                if candidate.type == unit.type and (candidate.location == unit.location or "/" not in candidate.location):
                    units[province] = (choice.power, candidate)
            break
    return state.evolve(units=units)


# -- movement -----------------------------------------------------------------


def _one_order_per_unit(entries: list[OrderEntry]) -> dict[str, OrderEntry]:
    """DATC 4.D.3 (choice c): a unit given different orders holds; repeats count once."""
    chosen: dict[str, OrderEntry] = {}
    conflicted: set[str] = set()
    for entry in entries:
        if entry.order is None:
            continue
        province = province_of(entry.order.unit.location)
        first = chosen.get(province)
        if first is None:
            chosen[province] = entry
        elif first.order != entry.order:
            conflicted.add(province)
    for entry in entries:
        if entry.order is not None and province_of(entry.order.unit.location) in conflicted:
            entry.result = OrderResult(
                entry.power, entry.text, str(entry.order), INVALID, Reason.DUPLICATE,
                "this unit was given different orders, so it holds",
            )
            chosen.pop(province_of(entry.order.unit.location), None)
    return chosen


def _movement(variant: Variant, state: GameState, entries: list[OrderEntry]) -> PhaseResult:
    chosen = _one_order_per_unit(entries)
    if armyfleet.enabled(variant):
        state, chosen = _board(variant, state, chosen, entries)
        _join_landings(variant, state, chosen, entries)
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
    carried = armyfleet.split_landings(units, orders) if armyfleet.enabled(variant) else {}
    resolution = resolve_movement(variant.map, variant.rules, units, orders, carried)
    names = _UnitNames(state)
    for entry in entries:
        if entry.result is None and entry.order is not None:
            province = province_of(entry.order.unit.location)
            if isinstance(entry.order, Board):
                entry.result = OrderResult(entry.power, entry.text, str(entry.order), SUCCEEDS, Reason.OK,
                                           f"boards the fleet at {entry.order.fleet}: an A/F")
            else:
                twin = chosen.get(province)  # a repeated or joined order shares its twin's result
                if twin is entry or (twin is not None and entry.order == twin.order):
                    entry.result = _explain(entry, province, resolution, names)
    for entry in defaults:
        province = province_of(entry.order.unit.location)
        explained = _explain(entry, province, resolution, names)
        entry.result = OrderResult(
            entry.power, entry.text, entry.text, explained.result, explained.reason,
            "no order received: the unit holds" + ("; " + explained.explanation if explained.reason != Reason.OK else ""),
            default=True, dislodged_by=explained.dislodged_by,
        )
    new_state, removed = _after_movement(variant, state, resolution)
    results = [e.result for e in entries + defaults if e.result is not None]
    return _finish_phase(variant, state.phase, results, new_state, removed)


def _board(
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
            (e for e in entries if e.power == power and e.parsed is not None and hasattr(e.parsed, "unit")
             and province_of(e.parsed.unit.location) == fleet), None)
        if entry is None or entry.parsed is None:
            continue
        try:  # the fleet's order is read again: it now moves an A/F
            entry.order = legal_order(_as_army_fleet(entry.parsed), entry.power, state, variant)
            entry.result = None
            chosen[fleet] = entry
        except IllegalOrder as error:
            entry.result = OrderResult(entry.power, entry.text, None, INVALID, Reason.ILLEGAL, f"after boarding: {error}")
            entry.order = None
            chosen.pop(fleet, None)
    return state, chosen


def _join_landings(variant: Variant, state: GameState, chosen: dict[str, OrderEntry], entries: list[OrderEntry]) -> None:
    """`A/F Wms - Ems` and `A disembarks Gre` in one order set: the A/F sails, then lands
    (Davis's example). The two orders become one landing, and both lines report it."""
    for entry in entries:
        parsed = entry.parsed
        if not (isinstance(parsed, Land) and parsed.unit.location == "?" and entry.order is None):
            continue
        for province, mover in chosen.items():
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


def _as_army_fleet(order: Order) -> Order:
    unit = Unit(ARMY_FLEET, order.unit.location)
    if isinstance(order, Move):
        return Move(unit, order.target)
    fields = [name for name in order.__dataclass_fields__ if name != "unit"]
    return type(order)(unit, *[getattr(order, name) for name in fields])


class _UnitNames:
    def __init__(self, state: GameState) -> None:
        self.state = state

    def __call__(self, province: str) -> str:
        here = self.state.units.get(province)
        return str(here[1]) if here else province


def describe_order(order: Order, name: _UnitNames) -> str:
    """The order in the judges' short form, naming supported and convoyed units."""
    if isinstance(order, SupportHold):
        return f"{order.unit} S {name(order.supported)}"
    if isinstance(order, SupportMove):
        return f"{order.unit} S {name(order.supported)} - {order.target}"
    if isinstance(order, Convoy):
        return f"{order.unit} C A {order.army} - {order.target}"
    return str(order)


def _explain(entry: OrderEntry, province: str, res: MovementResolution, name: _UnitNames) -> OrderResult:
    order = entry.order
    text = describe_order(order, name)

    def result(ok: bool, reason: str, explanation: str, by: str | None = None) -> OrderResult:
        return OrderResult(entry.power, entry.text, text, SUCCEEDS if ok else FAILS, reason, explanation, dislodged_by=by)

    dislodger = res.dislodged_by.get(province)
    dislodged_note = f"; dislodged by {name(dislodger)}" if dislodger else ""
    if isinstance(order, Land):
        army_part = province + armyfleet.ARMY_PART
        if res.succeeded[army_part]:
            return result(True, Reason.OK, f"the army lands at {order.target}" + dislodged_note, dislodger)
        if order.via and not res.succeeded[province]:
            _reason, why = _why_move_failed(province, res, name)
            return result(False, Reason.BOUNCE, f"the A/F could not reach {order.via} ({why}): the army stays aboard" + dislodged_note, dislodger)
        reason, why = _why_move_failed(army_part, res, name)
        return result(False, reason, f"could not land ({why}): the army stays aboard" + dislodged_note, dislodger)
    if isinstance(order, Move):
        if res.succeeded[province]:
            target = province_of(order.target)
            victim = f", dislodging {name(target)}" if target in res.dislodged_by else ""
            via = " by convoy" if province in res.convoy_moves else ""
            return result(True, Reason.OK, f"moves{via} to {order.target}{victim}")
        reason, why = _why_move_failed(province, res, name)
        if dislodger:
            return result(False, Reason.DISLODGED, why + dislodged_note, dislodger)
        return result(False, reason, why)
    if isinstance(order, (SupportHold, SupportMove)):
        if province in res.void_supports:
            supported = name(order.supported)
            wanted = f"move to {order.target}" if isinstance(order, SupportMove) else "hold"
            return result(False, Reason.VOID, f"void: {supported} did not {wanted}" + dislodged_note, dislodger)
        if res.succeeded[province]:
            return result(True, Reason.OK, "support given")
        if dislodger:
            return result(False, Reason.DISLODGED, f"support cut: dislodged by {name(dislodger)}", dislodger)
        cutters = " and ".join(name(c) for c in res.strengths.support_cutters(province))
        return result(False, Reason.CUT, f"support cut by {cutters}" if cutters else "support cut")
    if isinstance(order, Convoy):
        if province in res.paradox_fleets:
            return result(False, Reason.PARADOX, "convoy paradox: by Szykman's rule this fleet holds" + dislodged_note, dislodger)
        if dislodger:
            return result(False, Reason.DISLODGED, f"convoy disrupted: dislodged by {name(dislodger)}", dislodger)
        army_order = res.orders.get(order.army)
        if not (isinstance(army_order, Move) and army_order.target == order.target):
            return result(False, Reason.VOID, f"void: {name(order.army)} did not move to {order.target}")
        return result(True, Reason.OK, "convoys")
    if dislodger:
        return result(False, Reason.DISLODGED, f"dislodged by {name(dislodger)}", dislodger)
    return result(True, Reason.OK, "holds")


def _why_move_failed(source: str, res: MovementResolution, name: _UnitNames) -> tuple[str, str]:
    if source in res.convoy_moves and not res.path_ok[source]:
        order = res.orders[source]
        fleets = [p for p, o in res.orders.items() if isinstance(o, Convoy) and o.army == source and o.target == province_of(order.target)]
        if any(f in res.paradox_fleets for f in fleets):
            return Reason.PARADOX, "no convoy: the convoy is part of a paradox, and by Szykman's rule its fleets hold"
        if not fleets:
            return Reason.NO_CONVOY, "no convoy: no fleet was ordered to convoy this army"
        return Reason.NO_CONVOY, "no convoy: the convoy was disrupted"
    strengths = res.strengths
    target = province_of(res.orders[source].target)
    attack = strengths.attack(source)
    if attack == 0:
        return Reason.BOUNCE, f"bounced: cannot dislodge {name(target)} of its own power"
    if strengths.head_to_head(source):
        defend = strengths.defend(target)
        if attack <= defend:
            how = "equal strength" if attack == defend else "lost the head-to-head battle,"
            return Reason.BOUNCE, f"bounced: {how} {attack} vs {defend} with {name(target)}"
    else:
        hold = strengths.hold(target)
        if attack <= hold:
            how = "equal strength" if attack == hold else "weaker,"
            return Reason.BOUNCE, f"bounced: {how} {attack} vs {hold} with {name(target)}"
    for other in strengths.attackers(target):
        if other != source:
            prevent = strengths.prevent(other)
            if attack <= prevent:
                how = "equal strength" if attack == prevent else "weaker,"
                return Reason.BOUNCE, f"bounced: {how} {attack} vs {prevent} with {name(other)}"
    return Reason.BOUNCE, "bounced"


def _after_movement(
    variant: Variant, state: GameState, res: MovementResolution
) -> tuple[GameState, list[tuple[str, Unit]]]:
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
    af_moves: dict[str, int] = {}
    if armyfleet.enabled(variant):
        af_moves = armyfleet.after_movement(variant, state, res, units, removed)
    standoffs = {
        province_of(order.target)
        for source, order in res.orders.items()
        if isinstance(order, Move)
        and not res.succeeded[source]
        and not (source in res.convoy_moves and not res.path_ok[source])
        and res.dislodged_by.get(source) != province_of(order.target)  # lost a head-to-head (DATC 6.H.9)
        and province_of(order.target) not in units
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


# -- retreats -----------------------------------------------------------------


def _retreats(variant: Variant, state: GameState, entries: list[OrderEntry]) -> PhaseResult:
    chosen = _one_order_per_unit(entries)
    defaults: list[OrderEntry] = []
    for province, dislodged in state.dislodged.items():
        if province not in chosen:
            order = retreats.default_retreat(variant, state, province)
            text = str(order)
            entry = OrderEntry(dislodged.power, text, order)
            defaults.append(entry)
            chosen[province] = entry
    targets: dict[str, list[str]] = {}
    for province, entry in chosen.items():
        if isinstance(entry.order, Retreat):
            targets.setdefault(province_of(entry.order.target), []).append(province)
    units = dict(state.units)
    af_moves = dict(state.af_moves)
    removed: list[tuple[str, Unit]] = []
    for province, entry in chosen.items():
        order = entry.order
        dislodged = state.dislodged[province]
        default = entry in defaults
        lead = "no order received: " if default else ""
        if isinstance(order, Retreat) and len(targets[province_of(order.target)]) == 1:
            units[province_of(order.target)] = (dislodged.power, Unit(dislodged.unit.type, order.target))
            if dislodged.unit.type == ARMY_FLEET:
                af_moves[province_of(order.target)] = dislodged.af_moves
            entry.result = OrderResult(entry.power, entry.text, str(order), SUCCEEDS, Reason.OK, f"{lead}retreats to {order.target}", default=default)
        elif isinstance(order, Retreat):
            others = [str(state.dislodged[p].unit) for p in targets[province_of(order.target)] if p != province]
            removed.append((dislodged.power, dislodged.unit))
            entry.result = OrderResult(entry.power, entry.text, str(order), FAILS, Reason.STANDOFF,
                                       f"{lead}bounced with {', '.join(others)}: disbanded", default=default)
        else:
            removed.append((dislodged.power, dislodged.unit))
            why = "no retreat possible: disbanded" if not dislodged.retreats else "disbanded"
            entry.result = OrderResult(entry.power, entry.text, str(order), SUCCEEDS, Reason.DISBANDED, f"{lead}{why}", default=default)
    for entry in entries:  # a repeated identical order shares its twin's result
        if entry.result is None and entry.order is not None:
            twin = chosen.get(province_of(entry.order.unit.location))
            entry.result = twin.result if twin and twin.result else None
    retreated = state.retreated | {
        province_of(e.order.target) for e in chosen.values() if isinstance(e.order, Retreat) and e.result.result == SUCCEEDS
    }
    new_state = state.evolve(units=units, dislodged={}, retreated=frozenset(retreated), af_moves=af_moves)
    results = [e.result for e in entries + defaults if e.result is not None]
    return _finish_phase(variant, state.phase, results, new_state, removed)


# -- adjustments --------------------------------------------------------------


def _adjustments(variant: Variant, state: GameState, entries: list[OrderEntry]) -> PhaseResult:
    results, units, removed = adjustments.resolve_adjustments(variant, state, entries)
    new_state = state.evolve(units=units, dislodged={}, retreated=frozenset())
    return _finish_phase(variant, state.phase, results, new_state, removed)


# -- the phase sequence --------------------------------------------------------


def _finish_phase(
    variant: Variant, phase: Phase, results: list[OrderResult], state: GameState,
    removed: list[tuple[str, Unit]],
) -> PhaseResult:
    winner = None
    if phase.kind == "M" and state.dislodged:
        state.phase = phase.with_(phase.season, "R")
    elif phase.kind == "A":
        state.phase = phase.with_("S", "M", phase.year + 1)
    elif phase.season == "S":
        state.phase = phase.with_("F", "M")
    else:  # the end of the Fall turn: centres change hands
        update_centres(variant, state)
        winner = victor(variant, state)
        if adjustments.adjustments_needed(variant, state):
            state.phase = phase.with_("W", "A")
        else:
            state.phase = phase.with_("S", "M", phase.year + 1)
    return PhaseResult(phase, results, state, winner, removed)


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
