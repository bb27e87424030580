"""The engine as the services see it: engine values in, engine values out.

    variant = app.variants.load_game_variant("standard", {"civil_disorder_removal": ...})
    state = initial_state(variant)
    checks = check_orders(variant, state, "FRANCE", ["A Par-Bur"])   # one OrderCheck per line
    todo = orderable(variant, state, "FRANCE")                      # an Orderable
    result = adjudicate(variant, state, {"FRANCE": [c.order for c in checks if c.order]})
    state = state_after(result)

Stored JSON goes through `app.db.codec`; nothing here reads files or JSON.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .adjudicate import adjudicate
from .adjustments import adjustment_counts
from .combined import carries_retreats, provisional_counts, provisional_sites
from .entries import OrderInput, read_orders
from .geo import province_of
from .hidden import reveal_hidden_choices
from .hidden_checks import hidden_placements
from .legality import build_sites
from .orders import ARMY_FLEET, Order, Unit
from .outcomes import OrderEntry
from .phase_result import HiddenBuild, PhaseResult, RevealedStart
from .phases import PhaseKind
from .rules import RuleOptionError
from .setup import initial_state
from .state import GameState
from .variant import Variant, with_game_rules

__all__ = [
    "GameState",
    "HiddenBuild",
    "OrderCheck",
    "Orderable",
    "PhaseResult",
    "RevealedStart",
    "RuleOptionError",
    "Variant",
    "adjudicate",
    "check_orders",
    "initial_state",
    "orderable",
    "orders_for",
    "state_after",
    "with_game_rules",
]


@dataclass(frozen=True)
class OrderCheck:
    """One order line as the judge read it, on arrival."""

    line: str
    order: Order | None  # the legal order, exact (None when the line was refused)
    unit: Unit | None  # the ordered unit (the build site for builds), even when refused
    error: str | None  # why it was refused, for the player
    reason: str | None  # the reason code of a refusal ("unreadable", "illegal")

    @property
    def ok(self) -> bool:
        return self.error is None


@dataclass(frozen=True)
class Orderable:
    """What a power has to order in a phase."""

    kind: PhaseKind
    units: tuple[Unit, ...] = ()  # movement: its units; retreat (and Winter with retreats): dislodged units
    builds: int = 0  # adjustment: builds it may make (no more than it has sites)
    sites: tuple[str, ...] = ()  # adjustment: where it may build
    removals: int = 0  # adjustment: units it must remove


def check_orders(variant: Variant, state: GameState, power: str, lines: Sequence[OrderInput]) -> list[OrderCheck]:
    """Check one power's orders as they arrive: each line, understood or not, and why.

    A/F orders are read as the movement phase will read them (after the power's
    boardings); an order naming a secret build (Zeus 5 rule 4) gets the same answer
    wherever the unit really stands (hidden_checks.py)."""
    power = power.upper()
    state = reveal_hidden_choices(variant, state, {power: lines})
    readings = []
    for position in hidden_placements(variant, state, power):
        entries = read_orders(variant, position, {power: lines})
        variant.hooks.recheck_orders(variant, position, entries)  # A/F orders, after the boardings
        readings.append(entries)
    chosen = [next((e for e in line if e.result is None), line[0]) for line in zip(*readings)]
    return [_check(state, power, entry) for entry in chosen]


def _check(state: GameState, power: str, entry: OrderEntry) -> OrderCheck:
    order = entry.order
    unit: Unit | None = None
    if order is not None and hasattr(order, "unit"):
        unit = order.unit
        here = state.units.get(province_of(unit.location))
        if here is not None and here[0] == power and unit.type == ARMY_FLEET and here[1].type != ARMY_FLEET:
            unit = here[1]  # an A/F order for a fleet boarded this phase: the fleet's row
    elif entry.parsed is not None and hasattr(entry.parsed, "unit"):
        # A refused order still names its unit, so a correction replaces it.
        here = state.units.get(province_of(entry.parsed.unit.location))
        if here is not None and here[0] == power:
            unit = here[1]
    refusal = entry.result
    return OrderCheck(
        line=entry.text,
        order=order,
        unit=unit,
        error=refusal.explanation if refusal is not None else None,
        reason=refusal.reason if refusal is not None else None,
    )


def orderable(variant: Variant, state: GameState, power: str) -> Orderable:
    """What `power` has to order in this phase."""
    power = power.upper()
    kind = state.phase.kind
    if kind is PhaseKind.MOVEMENT:
        return Orderable(PhaseKind.MOVEMENT, units=tuple(sorted(state.units_of(power), key=str)))
    if kind is PhaseKind.RETREAT:
        mine = [d.unit for d in state.dislodged.values() if d.power == power]
        return Orderable(PhaseKind.RETREAT, units=tuple(sorted(mine, key=str)))
    if carries_retreats(state):  # Small World 11.2: retreats first, then provisional counts
        waiting = tuple(sorted((d.unit for d in state.dislodged.values() if d.power == power and d.retreats), key=str))
        owed = provisional_counts(variant, state).get(power, 0)
        if owed > 0:
            sites = provisional_sites(variant, state, power)
            return Orderable(PhaseKind.ADJUSTMENT, waiting, builds=min(owed, len(sites)), sites=tuple(sorted(sites)))
        return Orderable(PhaseKind.ADJUSTMENT, waiting, removals=max(0, -owed))
    owed = adjustment_counts(variant, state).get(power, 0)
    if owed > 0:
        sites = build_sites(power, state, variant)
        return Orderable(PhaseKind.ADJUSTMENT, builds=min(owed, len(sites)), sites=tuple(sorted(sites)))
    return Orderable(PhaseKind.ADJUSTMENT, removals=max(0, -owed))


def state_after(result: PhaseResult) -> GameState:
    """The position to store for the next phase."""
    return result.state


def orders_for(checks: Mapping[str, Sequence[OrderCheck]]) -> dict[str, list[Order]]:
    """The legal orders of checked lines, per power, ready for `adjudicate`."""
    return {power: [c.order for c in items if c.order is not None] for power, items in checks.items()}
