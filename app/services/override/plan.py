"""The new course of a game after a processed phase is changed: that phase adjudicated again, every
later processed phase replayed from its stored orders, and where the game then stands.  Reads only.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from app.db import queries
from app.db.models import Game, Phase
from app.db.statuses import PhaseStatus
from app.services.errors import DomainError
from app.services.kernel.uow import UnitOfWork
from app.services.override.changes import (
    AppliedRuling,
    OverrideChanges,
    apply_order_changes,
    apply_rule_changes,
    apply_rulings,
    record_rulings,
)
from app.services.override.diff import UnfitOrder, unfit_orders
from app.services.ruleset import engine as game_engine
from app.services.ruleset.engine import OrderInput, Variant
from app.services.ruleset.kinds import ruleset_for
from app.services.ruleset.stored import StoredResult, StoredState, stored_result, stored_state
from app.services.turns.adjudicate import adjudicate_position, phase_orders, stored_order

__all__ = ["RedonePhase", "ReplayPlan", "StoredPhase", "plan_override"]


@dataclass(frozen=True)
class StoredPhase:
    """A phase row as it was before the override (its results and the position they left, read)."""

    id: int
    seq: int
    code: str
    status: str
    state_before: dict[str, Any]  # as stored: what the phase is adjudicated again from
    orders: dict[str, list[OrderInput]]  # as adjudicated
    results: StoredResult | None
    state_after: StoredState | None
    deadline: datetime | None

    @classmethod
    def of(cls, row: Phase) -> StoredPhase:
        return cls(id=row.id, seq=row.seq, code=row.code, status=row.status, state_before=dict(row.state_before),
                   orders=phase_orders(row),
                   results=stored_result(row.results) if row.results is not None else None,
                   state_after=stored_state(row.state_after) if row.state_after is not None else None,
                   deadline=row.deadline)


@dataclass(frozen=True)
class RedonePhase:
    """A processed phase adjudicated again (the changed one, or a later one replayed): the stored
    forms of its start, results and end (what is written), and the results and end read."""

    stored: StoredPhase
    state_before: dict[str, Any]
    orders: dict[str, list[OrderInput]]
    results: dict[str, Any]
    state_after: dict[str, Any]
    typed_results: StoredResult
    typed_after: StoredState
    winner: str | None
    unfit: tuple[UnfitOrder, ...]

    @property
    def code(self) -> str:
        return self.stored.code


@dataclass(frozen=True)
class ReplayPlan:
    rules: dict[str, Any]  # the game's rule options after the override
    variant: Variant
    target: RedonePhase
    rulings: tuple[AppliedRuling, ...]
    replayed: tuple[RedonePhase, ...]
    dropped: tuple[StoredPhase, ...]  # stored phases the new course no longer reaches
    current_old: str | None  # the phase open before (None: the game was over)
    current_state_old: StoredState | None
    kept_open: StoredPhase | None  # the open phase, kept with a new starting position
    open_code: str | None  # the phase open after (None: the game is over)
    open_state: dict[str, Any] | None  # as stored: the open phase's start, or the last one's end
    open_position: StoredState | None  # ``open_state`` read
    open_unfit: tuple[UnfitOrder, ...]  # orders already given for the open phase that no longer fit
    open_unfit_rows: tuple[int, ...]
    notes: tuple[str, ...]


def _redo(variant: Variant, stored: StoredPhase, state_before: dict[str, Any], orders: dict[str, list[OrderInput]],
          rulings: tuple[AppliedRuling, ...] = ()) -> RedonePhase:
    outcome = adjudicate_position(variant, state_before, orders)
    results = record_rulings(outcome.results, rulings)
    typed = stored_result(results) if rulings else outcome.typed_results
    return RedonePhase(stored=stored, state_before=state_before, orders=orders, results=results,
                       state_after=outcome.state_after, typed_results=typed, typed_after=outcome.typed_after,
                       winner=outcome.winner, unfit=unfit_orders(stored.code, typed))


def _chain(db: Session, game: Game, phase_code: str) -> list[StoredPhase]:
    rows = queries.phases_of(db, game.id, processed_only=False)
    for index, row in enumerate(rows):
        if row.code == phase_code.upper() and row.status == PhaseStatus.PROCESSED:
            return [StoredPhase.of(r) for r in rows[index:]]
    raise DomainError("no_such_phase", f"no processed phase {phase_code.upper()} in game '{game.name}'")


def _open_unfit(db: Session, game: Game, variant: Variant, code: str,
                state: dict[str, Any]) -> tuple[tuple[UnfitOrder, ...], tuple[int, ...]]:
    rows = [row for row in queries.orders_for(db, game.id, code) if row.checked]
    position = game_engine.state_of(variant, state)
    unfit: list[UnfitOrder] = []
    ids: list[int] = []
    for row in rows:
        order = stored_order(row)
        if order is None:
            continue
        check = game_engine.check_orders(variant, position, row.power, [order])[0]
        if not check.ok:
            unfit.append(UnfitOrder(phase=code, power=row.power, order=row.order or row.line,
                                    why=check.error or "no longer a valid order"))
            ids.append(row.id)
    return tuple(unfit), tuple(ids)


def plan_override(uow: UnitOfWork, game: Game, phase_code: str, changes: OverrideChanges) -> ReplayPlan:
    """Adjudicate ``phase_code`` again with ``changes`` and replay the phases after it."""
    db = uow.session
    if not ruleset_for(game.variant).has_map:
        raise DomainError("not_a_map_game", "only a map game's phases can be overridden")
    if changes.empty:
        raise DomainError("no_changes", "say what to change: orders, a rule option or a ruling on a unit")
    chain = _chain(db, game, phase_code)
    rules = apply_rule_changes(game_engine.game_rules(game.settings), changes.rules)
    variant = game_engine.game_variant(game.variant, rules)
    first = chain[0]
    state = game_engine.state_of(variant, first.state_before)
    orders = apply_order_changes(variant, state, first.orders, changes.orders)
    orders, rulings = apply_rulings(variant, state, orders, changes.rulings, first.code)
    target = _redo(variant, first, first.state_before, orders, rulings)
    current_old = next((s for s in chain if s.status == PhaseStatus.OPEN), None)
    replayed: list[RedonePhase] = []
    dropped: list[StoredPhase] = []
    skipped: list[StoredPhase] = []
    notes: list[str] = []
    kept_open: StoredPhase | None = None
    open_code: str | None = None
    open_state: dict[str, Any] | None = None
    open_position: StoredState | None = None
    previous, index = target, 1
    while True:
        if previous.winner:
            dropped = chain[index:]
            notes.append(f"{previous.winner} wins in {previous.code}; the game ends there.")
            break
        next_code = previous.typed_after.phase
        ahead = next((j for j in range(index, len(chain)) if chain[j].code == next_code), None)
        if ahead is not None and ahead > index:  # a phase no longer played (a retreat without dislodgements)
            skipped.extend(chain[index:ahead])
            notes.extend(f"{s.code} is no longer played." for s in chain[index:ahead])
            index = ahead
        stored = chain[index] if index < len(chain) else None
        if stored is None or stored.code != next_code:
            dropped = chain[index:]
            open_code, open_state, open_position = next_code, previous.state_after, previous.typed_after
            was = f"instead of {stored.code}" if stored is not None else "instead of the end of the game"
            notes.append(f"{next_code} now follows {previous.code} ({was}); the game goes on from {next_code}.")
            break
        if stored.status == PhaseStatus.OPEN:
            kept_open, open_code = stored, stored.code
            open_state, open_position = previous.state_after, previous.typed_after
            break
        position = game_engine.state_of(variant, previous.state_after)
        later_orders = game_engine.retype_orders(position, stored.orders)
        later_orders = apply_order_changes(variant, position, later_orders, changes.later_for(stored.code))
        redone = _redo(variant, stored, previous.state_after, later_orders)
        replayed.append(redone)
        previous, index = redone, index + 1
    replayed_codes = {r.code for r in replayed}
    for entry in changes.later:
        if entry.phase.upper() == first.code:
            raise DomainError("later_is_target", f"{first.code} is the phase corrected: change its orders directly")
        if entry.orders and entry.phase.upper() not in replayed_codes:
            raise DomainError("not_replayed", f"{entry.phase.upper()} is not a processed phase replayed after "
                                              f"{first.code} by this correction: its orders cannot be changed here")
    open_unfit: tuple[UnfitOrder, ...] = ()
    open_rows: tuple[int, ...] = ()
    if kept_open is not None and open_state is not None:
        open_unfit, open_rows = _open_unfit(db, game, variant, kept_open.code, open_state)
    last = chain[-1]
    return ReplayPlan(
        rules=rules, variant=variant, target=target, rulings=rulings, replayed=tuple(replayed),
        dropped=(*skipped, *dropped), current_old=current_old.code if current_old else None,
        current_state_old=stored_state(current_old.state_before) if current_old else last.state_after,
        kept_open=kept_open, open_code=open_code, open_state=open_state if open_code else previous.state_after,
        open_position=open_position if open_code else previous.typed_after,
        open_unfit=open_unfit, open_unfit_rows=open_rows, notes=tuple(notes),
    )
