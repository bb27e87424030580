"""What a game master may change about a processed phase: orders, a rule option, a ruling on a unit.

A ruling is applied honestly, as a changed order that is recorded as a ruling: ``HOLDS`` gives
the unit a hold order instead of its own; ``FAILS`` voids the unit's order (in a movement phase
the unit stays where it is and its move, support or convoy has no effect; in a retreat phase the
retreat fails and the unit is disbanded).  The results then show the unit's own order, failed by
the GM's ruling (reason ``ruling``), and the phase's results keep a ``rulings`` list.  A ruling
that a move *succeeds* cannot be honoured without rewriting the adjudication: the GM changes the
orders instead (for instance, honours the order as the player meant it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from app.services.errors import DomainError
from app.services.ruleset import engine as game_engine
from app.services.ruleset.engine import Disband, GameState, Hold, Order, OrderInput, Unit, Variant
from app.services.ruleset.phases import PhaseKind

__all__ = ["AppliedRuling", "LaterOrders", "OrderChange", "OverrideChanges", "RuleChange", "Ruling", "UnitRuling",
           "apply_order_changes", "apply_rule_changes", "apply_rulings", "record_rulings"]


class Ruling(str, Enum):
    HOLDS = "holds"  # the unit holds instead of obeying its order
    FAILS = "fails"  # the unit's order fails: it stays (movement) or is disbanded (retreat)


@dataclass(frozen=True)
class OrderChange:
    """Replace every order of ``power`` in the phase by ``orders`` (empty: the power ordered nothing)."""

    power: str
    orders: tuple[str, ...]


@dataclass(frozen=True)
class RuleChange:
    """Set a rule option of the game (``None``: back to the variant's default)."""

    option: str
    value: str | bool | None


@dataclass(frozen=True)
class UnitRuling:
    """The GM rules on the unit in ``location`` (``PAR``, ``A PAR``, ``Paris``)."""

    location: str
    ruling: Ruling


@dataclass(frozen=True)
class LaterOrders:
    """Orders changed in a later processed phase, in the same correction (issue 21.14): the phase is
    replayed with them instead of its stored orders (for instance a build the first change allows)."""

    phase: str
    orders: tuple[OrderChange, ...]


@dataclass(frozen=True)
class OverrideChanges:
    orders: tuple[OrderChange, ...] = ()
    rules: tuple[RuleChange, ...] = ()
    rulings: tuple[UnitRuling, ...] = ()
    later: tuple[LaterOrders, ...] = ()

    @property
    def empty(self) -> bool:
        return not (self.orders or self.rules or self.rulings or any(c.orders for c in self.later))

    def later_for(self, phase: str) -> tuple[OrderChange, ...]:
        """The order changes for the later ``phase`` (every entry for it, in order)."""
        return tuple(c for entry in self.later if entry.phase.upper() == phase.upper() for c in entry.orders)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "orders": {c.power.upper(): list(c.orders) for c in self.orders},
            "rules": {c.option: c.value for c in self.rules},
            "rulings": [{"location": r.location, "ruling": r.ruling.value} for r in self.rulings],
        }
        if self.later:
            out["later"] = {entry.phase.upper(): {c.power.upper(): list(c.orders) for c in entry.orders}
                            for entry in self.later}
        return out


@dataclass(frozen=True)
class AppliedRuling:
    power: str
    unit: str  # ``A PAR``
    ruling: Ruling
    original: str | None  # the order the unit had, if any
    substitute: str  # the order adjudicated in its place

    def to_json(self) -> dict[str, Any]:
        return {"power": self.power, "unit": self.unit, "ruling": self.ruling.value, "order": self.original,
                "adjudicated_as": self.substitute}


def apply_rule_changes(rules: Mapping[str, Any], changes: tuple[RuleChange, ...]) -> dict[str, Any]:
    out = dict(rules)
    for change in changes:
        if change.value is None:
            out.pop(change.option, None)
        else:
            out[change.option] = change.value
    return out


def apply_order_changes(variant: Variant, state: GameState, orders: Mapping[str, Sequence[OrderInput]],
                        changes: tuple[OrderChange, ...]) -> dict[str, list[OrderInput]]:
    """The phase's orders with each changed power's orders replaced; every new order must be legal."""
    out = {power: list(items) for power, items in orders.items()}
    for change in changes:
        power = change.power.upper()
        if power not in variant.power_ids:
            raise DomainError("unknown_power", f"no power {change.power!r} in {variant.name}")
        checks = game_engine.check_orders(variant, state, power, list(change.orders))
        read: list[OrderInput] = []
        for check in checks:
            if check.order is None:
                raise DomainError("illegal_order", f"{power}: '{check.line}': {check.error or 'not a valid order'}")
            read.append(check.order)
        out[power] = read
    return out


def _ruled_unit(variant: Variant, state: GameState, ruling: UnitRuling, phase: str) -> tuple[str, Unit]:
    """The power and unit a ruling is about, in a movement or retreat phase."""
    province = game_engine.unit_province(variant, ruling.location)
    if province is None:
        raise DomainError("unknown_place", f"no place called {ruling.location!r}")
    if state.phase.kind is PhaseKind.MOVEMENT:
        here = state.units.get(province)
        if here is None:
            raise DomainError("no_unit", f"no unit in {province} in {phase}")
        return here
    if state.phase.kind is PhaseKind.RETREAT:
        if ruling.ruling is Ruling.HOLDS:
            raise DomainError("bad_ruling", "a dislodged unit cannot hold; rule that its retreat fails")
        dislodged = state.dislodged.get(province)
        if dislodged is None:
            raise DomainError("no_unit", f"no dislodged unit in {province} in {phase}")
        return dislodged.power, dislodged.unit
    raise DomainError("bad_ruling", "rule on an adjustment phase by changing its orders")


def apply_rulings(variant: Variant, state: GameState, orders: Mapping[str, Sequence[OrderInput]],
                  rulings: tuple[UnitRuling, ...],
                  phase: str) -> tuple[dict[str, list[OrderInput]], tuple[AppliedRuling, ...]]:
    """The orders with each ruled unit's order replaced by the order that carries out the ruling."""
    out = {power: list(items) for power, items in orders.items()}
    applied: list[AppliedRuling] = []
    for ruling in rulings:
        power, unit = _ruled_unit(variant, state, ruling, phase)
        substitute: Order = Hold(unit) if state.phase.kind is PhaseKind.MOVEMENT else Disband(unit)
        items = out.get(power, [])
        checks = game_engine.check_orders(variant, state, power, items)
        original: str | None = None
        kept: list[OrderInput] = []
        for item, check in zip(items, checks, strict=True):
            if check.unit == unit:
                original = str(check.order) if check.order is not None else str(item)
            else:
                kept.append(item)
        out[power] = [*kept, substitute]
        applied.append(AppliedRuling(power=power, unit=str(unit), ruling=ruling.ruling, original=original,
                                     substitute=str(substitute)))
    return out, tuple(applied)


def record_rulings(results: dict[str, Any], rulings: tuple[AppliedRuling, ...]) -> dict[str, Any]:
    """The stored results with each ruling shown on its unit's order (reason ``ruling``)."""
    if not rulings:
        return results
    entries = [dict(entry) for entry in results.get("orders") or []]
    for ruling in rulings:
        for entry in entries:
            if entry.get("power") != ruling.power or ruling.substitute not in (entry.get("order"),
                                                                                entry.get("normalized")):
                continue
            if ruling.ruling is Ruling.FAILS:
                shown = ruling.original or ruling.substitute
                kind = "stays where it is" if ruling.substitute.endswith(" H") else "is disbanded"
                entry.update(order=shown, normalized=shown, result="fails", reason="ruling",
                             explanation=f"the GM ruled that this order fails: the unit {kind}")
            else:
                instead = f" instead of {ruling.original}" if ruling.original else ""
                entry.update(explanation=f"the GM ruled that the unit holds{instead}")
            break
    return {**results, "orders": entries, "rulings": [r.to_json() for r in rulings]}
