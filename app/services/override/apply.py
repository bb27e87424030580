"""Override a processed phase (the GM dashboard's use case): preview old and new side by side, or
commit: the phase adjudicated again, later phases replayed, everyone told, the audit written.

Built on the ROLLBACK path's idea (a processed phase is reopened to the engine) but without
losing the game's course: the later phases are replayed from their stored orders.
"""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.db import queries
from app.db.models import Game, OrderRow, Phase
from app.db.statuses import GameStatus, PhaseStatus, SeatStatus
from app.services.errors import DomainError
from app.services.kernel.access import require_gm
from app.services.kernel.actor import Actor
from app.services.kernel.audit import audit
from app.services.kernel.context import Judge
from app.services.kernel.outcome import bump_version
from app.services.kernel.uow import UnitOfWork
from app.services.orders.submit import check_advance_orders
from app.services.override.changes import OverrideChanges
from app.services.override.diff import order_diffs, position_diff
from app.services.override.mail import queue_correction
from app.services.override.plan import RedonePhase, ReplayPlan, plan_override
from app.services.override.preview import OverrideCommitted, OverridePreview, ReplayedPhase
from app.services.results.ending import Ending, clear_ending, record_ending
from app.services.ruleset import engine as game_engine
from app.services.ruleset.options import options_of
from app.services.ruleset.stored import StoredState, stored_state
from app.services.ruleset.timing import next_deadline
from app.services.seats.absence import clear_of_absences
from app.services.turns.adjudicate import orders_as_json, orders_as_text
from app.services.turns.publish import previous_owners, render_results, results_view
from app.services.turns.store import eliminate

__all__ = ["OverrideCommitted", "OverridePreview", "ReplayedPhase", "commit_override", "preview_override"]


def _comparable(plan: ReplayPlan, old_after: StoredState | None, new_after: StoredState) -> StoredState | None:
    """The old course's position to set beside ``new_after``: when the new course no longer plays
    a retreat phase the old one did, the position after that retreat phase, or, while it is still
    open, with the centres its moves took (before the retreats the Fall's centres have not changed
    hands yet, and every power would seem to gain them)."""
    dropped = {s.code: s for s in plan.dropped}
    while old_after is not None and old_after.phase != new_after.phase:
        skipped = dropped.get(old_after.phase)
        if skipped is None:
            break
        if skipped.state_after is None:  # the retreat phase is the open one: its start (``old_after``
            if skipped.code.endswith("R"):  # as stored) with its moves' centres
                return stored_state(game_engine.centres_after_moves(plan.variant, skipped.state_before))
            break
        old_after = skipped.state_after
    return old_after


def _preview(game: Game, phase_code: str, changes: OverrideChanges, plan: ReplayPlan) -> OverridePreview:
    variant = plan.variant
    target = plan.target
    stored = target.stored
    replayed = tuple(ReplayedPhase(
        phase=r.code, orders=order_diffs(variant, r.stored.results, r.typed_results),
        position=position_diff(_comparable(plan, r.stored.state_after, r.typed_after), r.typed_after),
        unfit=r.unfit) for r in plan.replayed)
    unfit = (*target.unfit, *(u for r in plan.replayed for u in r.unfit), *plan.open_unfit)
    return OverridePreview(
        game=game.name, phase=phase_code.upper(), changes=changes, rulings=plan.rulings,
        orders=order_diffs(variant, stored.results, target.typed_results),
        position=position_diff(_comparable(plan, stored.state_after, target.typed_after), target.typed_after),
        replayed=replayed, dropped_phases=tuple(s.code for s in plan.dropped),
        current_phase_old=plan.current_old, current_phase_new=plan.open_code,
        current_position=position_diff(plan.current_state_old, plan.open_position),
        unfit=tuple(unfit), notes=plan.notes, current_state=plan.open_state,
    )


def preview_override(judge: Judge, uow: UnitOfWork, actor: Actor, game: Game, phase_code: str,
                     changes: OverrideChanges) -> OverridePreview:
    """What overriding ``phase_code`` with ``changes`` would do; nothing is written or sent."""
    del judge  # the same signature as commit_override; nothing here needs the clock or templates
    require_gm(actor, game)
    return _preview(game, phase_code, changes, plan_override(uow, game, phase_code, changes))


def _write_redone(db: Session, redone: RedonePhase) -> Phase:
    row = db.get_one(Phase, redone.stored.id)
    row.state_before = redone.state_before
    row.orders_parsed = orders_as_text(redone.orders)
    row.orders_typed = orders_as_json(redone.orders)
    row.results = redone.results
    row.state_after = redone.state_after
    row.status = PhaseStatus.PROCESSED
    return row


def _open_after(uow: UnitOfWork, judge: Judge, game: Game, plan: ReplayPlan) -> None:
    """The phase open after the override: the same one with a new start, a new one, or none."""
    db = uow.session
    if plan.kept_open is not None and plan.open_state is not None:
        row = db.get_one(Phase, plan.kept_open.id)
        row.state_before = plan.open_state
        for order_id in plan.open_unfit_rows:
            order_row = db.get(OrderRow, order_id)
            if order_row is not None:
                db.delete(order_row)
        return
    if plan.open_code is None or plan.open_state is None:
        last = plan.replayed[-1] if plan.replayed else plan.target
        game.status, game.deadline, game.grace_until = GameStatus.FINISHED, None, None
        game.phase = last.code
        if last.winner:  # how it ends now (issue 28.20)
            record_ending(game, Ending("solo", (last.winner.upper(),), "board", last.code, judge.now()))
        return
    top = db.scalar(select(func.max(Phase.seq)).where(Phase.game_id == game.id)) or 0
    deadline = clear_of_absences(uow, game, next_deadline(options_of(game), plan.open_code, judge.now()))
    row = Phase(game_id=game.id, seq=top + 1, code=plan.open_code, status=PhaseStatus.OPEN, state_before=plan.open_state,
                deadline=deadline)
    db.add(row)
    db.flush()
    check_advance_orders(uow, game, row)
    game.phase, game.deadline, game.grace_until, game.reminded_phase = plan.open_code, deadline, None, None
    if game.status == GameStatus.FINISHED:
        game.status = GameStatus.ACTIVE
        clear_ending(game)


def _nmr(redone: RedonePhase) -> list[str]:
    defaulted = {e.power for e in redone.typed_results.orders if e.default}
    return sorted(p for p in defaulted if not redone.orders.get(p))


def _rerender(uow: UnitOfWork, judge: Judge, game: Game, plan: ReplayPlan) -> None:
    """The results kept for the history say what the phases now say."""
    db = uow.session
    redone = [plan.target, *plan.replayed]
    layout = options_of(game).layout
    for index, phase in enumerate(redone):
        row = db.get_one(Phase, phase.stored.id)
        following = redone[index + 1].stored.deadline if index + 1 < len(redone) else game.deadline
        view = results_view(judge, game, row, phase.typed_results, phase.typed_after, _nmr(phase), row.deadline,
                            following if phase.winner is None else None, previous_owners(uow, game, row.seq))
        row.results_text = render_results(judge, view, layout)[0]


def _reseat(game: Game, state: StoredState) -> None:
    present = state.in_play()
    for seat in game.players:
        if seat.status == SeatStatus.ELIMINATED and seat.power in present:
            seat.status = SeatStatus.ACTIVE
    eliminate(game, state)


def commit_override(judge: Judge, uow: UnitOfWork, actor: Actor, game: Game, phase_code: str,
                    changes: OverrideChanges, reason: str) -> OverrideCommitted:
    """Override ``phase_code``: adjudicate it again with ``changes``, replay the later phases, tell
    every player and the GM, and record who, when, what and why."""
    db = uow.session
    require_gm(actor, game)
    if not reason.strip():
        raise DomainError("no_reason", "say why the phase is corrected; the players are told")
    plan = plan_override(uow, game, phase_code, changes)
    preview = _preview(game, phase_code, changes, plan)
    bump_version(uow, game)
    if changes.rules:
        game.settings = {**(game.settings or {}), "rules": plan.rules}
    for redone in (plan.target, *plan.replayed):
        _write_redone(db, redone)
    for dropped in plan.dropped:
        db.get_one(Phase, dropped.id).status = PhaseStatus.ROLLED_BACK
        for order_row in queries.orders_for(db, game.id, dropped.code):
            order_row.checked = False  # kept as orders in advance, checked if that phase comes again
    db.flush()
    _open_after(uow, judge, game, plan)
    _reseat(game, plan.open_position or plan.target.typed_after)
    db.flush()
    every = (plan.target, *plan.replayed)
    as_mailed = {r.code: db.get_one(Phase, r.stored.id).results_text or "" for r in every}
    _rerender(uow, judge, game, plan)
    corrected = {r.code: db.get_one(Phase, r.stored.id).results_text or "" for r in every}
    mails, mail_text = queue_correction(uow, judge, game, preview, reason.strip(), corrected[plan.target.code])
    entry = audit(uow, actor, game, "override", phase=preview.phase, changes=changes.to_json(),
                  reason=reason.strip(), rulings=[r.to_json() for r in plan.rulings],
                  changed_orders=len(preview.changed_orders), replayed=[r.phase for r in preview.replayed],
                  dropped=list(preview.dropped_phases), current_before=preview.current_phase_old,
                  current_after=preview.current_phase_new,
                  unfit=[{"phase": u.phase, "power": u.power, "order": u.order, "why": u.why}
                         for u in preview.unfit],
                  # the texts as the players were mailed them: the results before, the correction
                  results_as_mailed=as_mailed, results_corrected=corrected, correction_mail=mail_text,
                  mails=mails)
    db.flush()
    return OverrideCommitted(preview=preview, reason=reason.strip(), audit_id=entry.id, mails=mails)
