"""One phase in, the next state out: the engine's front door.

`adjudicate(variant, state, orders)` reveals secret starting units due, reads the
orders (text or typed, per power), hands them to the phase's module (movement.py,
retreats.py, adjustments.py) and sets the phase that follows, with the centres and
a winner after the Fall turn. Each order gets an `OrderResult` in the order given;
units without an order get the variant's default, reported as such.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .adjustments import adjustments_needed, resolve_adjustments
from .combined import carries_retreats, combined_phase
from .entries import OrderInput, read_orders
from .hidden import hidden_builds, reveal_hidden_choices, revealed_starts
from .movement import movement_phase
from .orders import Unit
from .outcomes import OrderEntry, OrderResult
from .phase_result import PhaseResult
from .phases import Phase
from .retreats import resolve_retreats
from .state import Dislodged, GameState
from .variant import Variant
from .victory import update_centres, victor

__all__ = ["OrderEntry", "OrderInput", "PhaseResult", "adjudicate", "read_orders", "reveal_hidden_choices"]


def adjudicate(variant: Variant, state: GameState, orders: Mapping[str, Sequence[OrderInput]]) -> PhaseResult:
    state = reveal_hidden_choices(variant, state, orders)
    entries = read_orders(variant, state, orders)
    kind = state.phase.kind
    winner = None
    if kind == "M":
        results, after, removed = movement_phase(variant, state, entries)
    elif kind == "R":
        results, after, removed = resolve_retreats(variant, state, entries)
    elif carries_retreats(state):  # Small World 11.2: the Fall retreats, then the adjustments
        results, after, removed, winner = combined_phase(variant, state, entries)
    else:
        results, units, removed = resolve_adjustments(variant, state, entries)
        after = state.evolve(units=units, dislodged={}, retreated=frozenset())
    result = finish_phase(variant, state.phase, results, after, removed)
    result.winner = result.winner or winner
    if kind == "A":
        result.hidden_builds = hidden_builds(variant, state.phase, entries)
    result.revealed = revealed_starts(variant, state)
    return result


def finish_phase(
    variant: Variant, phase: Phase, results: list[OrderResult], state: GameState,
    removed: list[tuple[str, Unit]],
) -> PhaseResult:
    """Set the phase that follows; after the Fall turn, centres change hands and a
    winner may emerge. A retreat phase follows only when some dislodged unit can
    retreat: units with nowhere to go are destroyed at once (issue 8.1)."""
    winner = None
    destroyed: tuple[Dislodged, ...] = ()
    if phase.kind == "M" and state.dislodged and not any(d.retreats for d in state.dislodged.values()):
        destroyed = tuple(state.dislodged.values())
        removed = [*removed, *((d.power, d.unit) for d in destroyed)]
        state.dislodged = {}
    if phase.kind == "M" and state.dislodged and phase.season == "F" and variant.rules.retreats_with_adjustments:
        # Small World 11.2: the retreats come with the adjustments. Centres change hands
        # now as the board stands and again after the retreats; the winner is known then.
        update_centres(variant, state)
        state.phase = phase.with_("W", "A")
    elif phase.kind == "M" and state.dislodged:
        state.phase = phase.with_(phase.season, "R")
    elif phase.kind == "A":
        state.phase = phase.with_("S", "M", phase.year + 1)
    elif phase.season == "S":
        state.phase = phase.with_("F", "M")
    else:  # the end of the Fall turn: centres change hands
        update_centres(variant, state)
        winner = victor(variant, state)
        if adjustments_needed(variant, state):
            state.phase = phase.with_("W", "A")
        else:
            state.phase = phase.with_("S", "M", phase.year + 1)
    return PhaseResult(phase, results, state, winner, removed, destroyed=destroyed)
