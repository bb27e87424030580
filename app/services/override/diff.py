"""Old and new side by side: every order's outcome, and the position a phase leaves."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from app.services.ruleset import engine as game_engine
from app.services.ruleset.engine import Variant

__all__ = ["OrderDiff", "OrderOutcome", "PositionDiff", "PowerPositionDiff", "UnfitOrder", "order_diffs",
           "position_diff", "unfit_orders"]


@dataclass(frozen=True)
class OrderOutcome:
    order: str  # as the judge understood it
    result: str  # succeeds | fails | invalid
    reason: str
    explanation: str


@dataclass(frozen=True)
class OrderDiff:
    """One unit's (or build site's) order in a phase, before and after the override."""

    power: str
    unit: str  # ``A PAR``; for an order without a unit (WAIVE) a numbered key
    old: OrderOutcome | None
    new: OrderOutcome | None

    @property
    def changed(self) -> bool:
        def key(outcome: OrderOutcome | None) -> tuple[str, str, str] | None:
            return None if outcome is None else (outcome.order, outcome.result, outcome.reason)

        return key(self.old) != key(self.new)


@dataclass(frozen=True)
class UnfitOrder:
    """A stored order that no longer fits the corrected position; it is reported, and adjudicated
    as the engine says (void), never silently dropped."""

    phase: str
    power: str
    order: str
    why: str


@dataclass(frozen=True)
class PowerPositionDiff:
    power: str
    units_old: tuple[str, ...]
    units_new: tuple[str, ...]
    centres_old: tuple[str, ...]
    centres_new: tuple[str, ...]
    dislodged_old: tuple[str, ...]
    dislodged_new: tuple[str, ...]

    @property
    def units_removed(self) -> tuple[str, ...]:
        return tuple(u for u in self.units_old if u not in self.units_new)

    @property
    def units_added(self) -> tuple[str, ...]:
        return tuple(u for u in self.units_new if u not in self.units_old)

    @property
    def centres_lost(self) -> tuple[str, ...]:
        return tuple(c for c in self.centres_old if c not in self.centres_new)

    @property
    def centres_gained(self) -> tuple[str, ...]:
        return tuple(c for c in self.centres_new if c not in self.centres_old)

    @property
    def changed(self) -> bool:
        return (self.units_old, self.centres_old, self.dislodged_old) != (
            self.units_new, self.centres_new, self.dislodged_new)


@dataclass(frozen=True)
class PositionDiff:
    """The position after a phase (the next phase's start), old and new."""

    phase_old: str | None
    phase_new: str | None
    powers: tuple[PowerPositionDiff, ...]  # every power with a unit or centre in either

    @property
    def changed(self) -> bool:
        return self.phase_old != self.phase_new or any(p.changed for p in self.powers)

    @property
    def changed_powers(self) -> tuple[PowerPositionDiff, ...]:
        return tuple(p for p in self.powers if p.changed)


def _outcome(entry: Mapping[str, Any]) -> OrderOutcome:
    return OrderOutcome(order=str(entry.get("normalized") or entry.get("order") or ""),
                        result=str(entry.get("result") or ""), reason=str(entry.get("reason") or ""),
                        explanation=str(entry.get("explanation") or ""))


def _keyed(variant: Variant, results: Mapping[str, Any] | None) -> dict[tuple[str, str], OrderOutcome]:
    keyed: dict[tuple[str, str], OrderOutcome] = {}
    for index, entry in enumerate((results or {}).get("orders") or []):
        outcome = _outcome(entry)
        power = str(entry.get("power") or "").upper()
        parsed = game_engine.parse_unit(variant, outcome.order)
        unit = str(parsed).upper() if parsed is not None else f"#{outcome.order}#{index}"
        key = (power, unit)
        if key in keyed:
            key = (power, f"{unit}#{index}")
        keyed[key] = outcome
    return keyed


def order_diffs(variant: Variant, old: Mapping[str, Any] | None, new: Mapping[str, Any] | None) -> tuple[OrderDiff, ...]:
    """Every order of a phase with its old and new outcome, by power and unit."""
    before, after = _keyed(variant, old), _keyed(variant, new)
    keys = list(before) + [key for key in after if key not in before]
    return tuple(OrderDiff(power=power, unit=unit, old=before.get((power, unit)), new=after.get((power, unit)))
                 for power, unit in sorted(keys))


def _by_power(state: Mapping[str, Any] | None, key: str) -> dict[str, tuple[str, ...]]:
    table = (state or {}).get(key) or {}
    return {str(power).upper(): tuple(sorted(str(item) for item in items)) for power, items in table.items()}


def position_diff(old: Mapping[str, Any] | None, new: Mapping[str, Any] | None) -> PositionDiff:
    """Units, centres and dislodged units per power, and the next phase, old against new."""
    units = (_by_power(old, "units"), _by_power(new, "units"))
    centres = (_by_power(old, "centers"), _by_power(new, "centers"))
    dislodged = (_by_power(old, "dislodged"), _by_power(new, "dislodged"))
    powers = sorted({p for table in (*units, *centres, *dislodged) for p in table})
    return PositionDiff(
        phase_old=(old or {}).get("phase"), phase_new=(new or {}).get("phase"),
        powers=tuple(PowerPositionDiff(
            power=p, units_old=units[0].get(p, ()), units_new=units[1].get(p, ()),
            centres_old=centres[0].get(p, ()), centres_new=centres[1].get(p, ()),
            dislodged_old=dislodged[0].get(p, ()), dislodged_new=dislodged[1].get(p, ()),
        ) for p in powers),
    )


def unfit_orders(phase: str, results: Mapping[str, Any]) -> tuple[UnfitOrder, ...]:
    """The replayed orders the engine found void in the new position."""
    return tuple(UnfitOrder(phase=phase, power=str(e.get("power") or "").upper(), order=str(e.get("order") or ""),
                            why=str(e.get("explanation") or ""))
                 for e in results.get("orders") or [] if e.get("result") == "invalid")
