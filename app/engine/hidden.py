"""Hidden information: secret starting units (Small World 6.1/6.2) and secret build
sites (Zeus 5 rule 4). The engine reports both in its phase result."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .entries import OrderInput
from .geo import province_of
from .orders import Build
from .outcomes import SUCCEEDS, OrderEntry
from .parse import OrderSyntaxError, parse_order
from .phase_result import HiddenBuild, RevealedStart
from .phases import Phase
from .setup import read_unit
from .state import GameState
from .variant import Variant


def reveal_hidden_choices(variant: Variant, state: GameState, orders: Mapping[str, Sequence[OrderInput]]) -> GameState:
    """A starting unit whose coast or type was secret (Small World 6.1, 6.2) becomes what
    its power's orders of the reveal phase say it is; without such an order, its default."""
    due = [h for h in variant.hidden_choices if variant.phase(h.reveal_with) == state.phase]
    if not due:
        return state
    units = dict(state.units)
    for choice in due:
        default = read_unit(choice.unit, variant)
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
            fitting = [c for c in (read_unit(o, variant) for o in choice.options)
                       if c.type == unit.type and (c.location == unit.location or "/" not in c.location)]
            if not fitting and "/" not in unit.location:
                # No coast written (issue 9.6): the coast from which the order's target is reached.
                target = getattr(written, "target", None)
                fitting = [c for c in (read_unit(o, variant) for o in choice.options) if c.type == unit.type
                           and isinstance(target, str) and variant.map.can_reach_province(
                               c.type, c.location, province_of(target))]
            if len(fitting) == 1 or (fitting and "/" not in fitting[0].location):
                units[province] = (choice.power, fitting[-1])
            break
    return state.evolve(units=units)


def revealed_starts(variant: Variant, state: GameState) -> tuple[RevealedStart, ...]:
    """The secret starting units due to be revealed in this phase, as they stand."""
    found = []
    for choice in variant.hidden_choices:
        if variant.phase(choice.reveal_with) != state.phase:
            continue
        default = read_unit(choice.unit, variant)
        here = state.units.get(province_of(default.location))
        if here is not None and here[0] == choice.power:
            found.append(RevealedStart(choice.power, here[1]))
    return tuple(found)


def hidden_builds(variant: Variant, phase: Phase, entries: list[OrderEntry]) -> tuple[HiddenBuild, ...]:
    """Builds of this phase whose site stays secret for a while (Zeus 5 rule 4). A power
    that builds in every one of the sites has nothing to hide."""
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
        if len(built) >= len(rule.sites):
            continue
        for unit in built:
            public = f"{unit.type} {'/'.join(rule.sites)}"
            hidden.append(HiddenBuild(rule.power, unit, public, rule.reveal_after))
    return tuple(hidden)
