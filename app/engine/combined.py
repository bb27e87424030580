"""Fall retreats made with the Winter adjustments (Small World II-R rule 11.2).

With the rule option `retreats_with_adjustments`, the phase after a Fall movement
that dislodged units is the Winter adjustment phase, carrying the units still waiting
to retreat: players send retreats and builds or removals in one set of orders, and
one deadline settles them in this order:

  1. the retreats (unordered ones take the variant's default, as in a retreat phase);
  2. centre ownership (after the Fall turn, retreats included), and a winner, if any;
  3. the adjustments, counted on the position the retreats left: builds beyond what it
     allows fail as too many, builds on a site a retreat filled or a centre lost fail
     and say why, and removals owed but not ordered follow the variant's default
     (least impact: the units that retreated this Fall go first, rule 11.3).
"""

from __future__ import annotations

from .adjustments import adjustment_counts, resolve_adjustments
from .explain import order_result
from .legality import IllegalOrder, build_sites, legal_order
from .orders import Disband, Retreat, Unit
from .outcomes import Illegal, OrderEntry, OrderResult
from .retreats import resolve_retreats
from .state import GameState
from .variant import Variant
from .victory import update_centres, victor


def carries_retreats(state: GameState) -> bool:
    """A Winter adjustment phase that still has Fall retreats to settle."""
    return state.phase.kind == "A" and bool(state.dislodged)


def combined_phase(
    variant: Variant, state: GameState, entries: list[OrderEntry]
) -> tuple[list[OrderResult], GameState, list[tuple[str, Unit]], str | None]:
    """Every order's result, the position after retreats and adjustments (its phase still
    to be set), the units destroyed, and the winner after the Fall turn."""
    retreat_entries = [e for e in entries if _is_retreat(e)]
    adjustment_entries = [e for e in entries if not _is_retreat(e)]
    results, after_retreats, removed = resolve_retreats(variant, state, retreat_entries)
    update_centres(variant, after_retreats)
    winner = victor(variant, after_retreats)
    for entry in adjustment_entries:  # read again against the position the retreats left
        if entry.parsed is None or entry.order is None:
            continue
        try:
            entry.order = legal_order(entry.parsed, entry.power, after_retreats, variant)
        except IllegalOrder as error:
            entry.order = None
            entry.result = order_result(entry.power, entry.text, None, Illegal(f"after the retreats: {error}"))
    adjusted, units, removals = resolve_adjustments(variant, after_retreats, adjustment_entries)
    after = after_retreats.evolve(units=units, dislodged={}, retreated=frozenset())
    return results + adjusted, after, removed + removals, winner


def provisional_counts(variant: Variant, state: GameState) -> dict[str, int]:
    """Builds (+) or removals (-) per power as the position stands before the retreats:
    centres as if every unit waiting to retreat gets away (and none takes a centre)."""
    projected = state.evolve(dislodged={})
    update_centres(variant, projected)
    counts = adjustment_counts(variant, projected)
    for waiting in state.dislodged.values():
        if waiting.retreats and waiting.power in counts:
            counts[waiting.power] -= 2 if waiting.unit.type == "AF" else 1
    return counts


def provisional_sites(variant: Variant, state: GameState, power: str) -> dict[str, frozenset[str] | None]:
    projected = state.evolve(dislodged={})
    update_centres(variant, projected)
    return build_sites(power, projected, variant)


def _is_retreat(entry: OrderEntry) -> bool:
    """A legal retreat or disband of a unit waiting to retreat (legality.is_retreat_order
    sent it there); everything else, refusals included, goes with the adjustments."""
    return isinstance(entry.order, (Retreat, Disband))
