"""Old and new side by side: every order's outcome, and the position a phase leaves."""

from __future__ import annotations

from dataclasses import dataclass

from app.services.ruleset import engine as game_engine
from app.services.ruleset.engine import Variant
from app.services.ruleset.stored import StoredDislodged, StoredOrder, StoredResult, StoredState, Table

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
    def label(self) -> str:
        """The unit as a page shows it: ``A PAR``; an order that names no unit (WAIVE) shows none, never
        its key (``#WAIVE#10``, issue 28.21)."""
        return "" if self.unit.startswith("#") else self.unit.split("#", 1)[0]

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


def _outcome(entry: StoredOrder) -> OrderOutcome:
    return OrderOutcome(order=entry.text, result=entry.result, reason=entry.reason, explanation=entry.explanation)


def _keyed(variant: Variant, results: StoredResult | None) -> dict[tuple[str, str], OrderOutcome]:
    keyed: dict[tuple[str, str], OrderOutcome] = {}
    for index, entry in enumerate(results.orders if results is not None else ()):
        outcome = _outcome(entry)
        parsed = game_engine.parse_unit(variant, outcome.order)
        unit = str(parsed).upper() if parsed is not None else f"#{outcome.order}#{index}"
        key = (entry.power, unit)
        if key in keyed:
            key = (entry.power, f"{unit}#{index}")
        keyed[key] = outcome
    return keyed


def order_diffs(variant: Variant, old: StoredResult | None, new: StoredResult | None) -> tuple[OrderDiff, ...]:
    """Every order of a phase with its old and new outcome, by power and unit."""
    before, after = _keyed(variant, old), _keyed(variant, new)
    keys = list(before) + [key for key in after if key not in before]
    return tuple(OrderDiff(power=power, unit=unit, old=before.get((power, unit)), new=after.get((power, unit)))
                 for power, unit in sorted(keys))


def _sorted(table: Table) -> dict[str, tuple[str, ...]]:
    return {power: tuple(sorted(items)) for power, items in table.items()}


def _dislodged(units: tuple[StoredDislodged, ...]) -> dict[str, tuple[str, ...]]:
    by_power: dict[str, list[str]] = {}
    for unit in units:
        by_power.setdefault(unit.power, []).append(unit.unit)
    return {power: tuple(sorted(items)) for power, items in by_power.items()}


def position_diff(old: StoredState | None, new: StoredState | None) -> PositionDiff:
    """Units, centres and dislodged units per power, and the next phase, old against new."""
    states = (old, new)
    units = tuple(_sorted(s.units) if s is not None else {} for s in states)
    centres = tuple(_sorted(s.centres) if s is not None else {} for s in states)
    dislodged = tuple(_dislodged(s.dislodged) if s is not None else {} for s in states)
    powers = sorted({p for table in (*units, *centres, *dislodged) for p in table})
    return PositionDiff(
        phase_old=old.phase if old is not None else None, phase_new=new.phase if new is not None else None,
        powers=tuple(PowerPositionDiff(
            power=p, units_old=units[0].get(p, ()), units_new=units[1].get(p, ()),
            centres_old=centres[0].get(p, ()), centres_new=centres[1].get(p, ()),
            dislodged_old=dislodged[0].get(p, ()), dislodged_new=dislodged[1].get(p, ()),
        ) for p in powers),
    )


def unfit_orders(phase: str, results: StoredResult) -> tuple[UnfitOrder, ...]:
    """The replayed orders the engine found void in the new position."""
    return tuple(UnfitOrder(phase=phase, power=e.power, order=e.order, why=e.explanation)
                 for e in results.orders if e.result == "invalid")
