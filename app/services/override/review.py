"""The override as the dashboard shows it: the preview (old and new side by side) with what both
maps need, and the orders a GM starts editing from.  Reads only; ``commit_override`` writes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.db.models import Game, Phase
from app.db.statuses import PhaseStatus
from app.services.errors import DomainError
from app.services.kernel.access import require_gm
from app.services.kernel.actor import Actor
from app.services.kernel.context import Judge
from app.services.kernel.uow import UnitOfWork
from app.services.override.apply import OverridePreview, preview_override
from app.services.override.changes import OverrideChanges
from app.services.override.plan import plan_override
from app.services.ruleset.stored import stored_state

__all__ = ["OverrideReview", "PhaseOrders", "phase_orders", "review_override"]


@dataclass(frozen=True)
class PhaseOrders:
    """The orders each power gave for a processed phase, as text (what the GM edits)."""

    phase: str
    orders: tuple[tuple[str, tuple[str, ...]], ...]  # (power, order lines)

    def of(self, power: str) -> tuple[str, ...]:
        return dict(self.orders).get(power.upper(), ())


@dataclass(frozen=True)
class OverrideReview:
    preview: OverridePreview
    variant: str
    state_before_old: dict[str, Any]
    results_old: dict[str, Any] | None
    state_before_new: dict[str, Any]
    results_new: dict[str, Any]


def _processed(db: Session, game: Game, code: str) -> Phase:
    phase = db.scalar(select(Phase).where(Phase.game_id == game.id, func.upper(Phase.code) == code.upper(),
                                          Phase.status == PhaseStatus.PROCESSED).order_by(Phase.seq.desc()))
    if phase is None:
        raise DomainError("no_phase", f"game '{game.name}' has no processed phase {code.upper()}")
    return phase


def phase_orders(judge: Judge, uow: UnitOfWork, actor: Actor, game: Game, phase_code: str) -> PhaseOrders:
    """The orders of every power of a processed phase, as the adjudicator got them (defaults left out)."""
    db = uow.session
    require_gm(actor, game)
    phase = _processed(db, game, phase_code)
    parsed = phase.orders_parsed or {}
    powers = list(stored_state(phase.state_before).units)
    powers += [p for p in parsed if p not in powers]
    return PhaseOrders(phase.code, tuple((p.upper(), tuple(str(o) for o in parsed.get(p) or [])) for p in powers))


def review_override(judge: Judge, uow: UnitOfWork, actor: Actor, game: Game, phase_code: str,
                    changes: OverrideChanges) -> OverrideReview:
    """What overriding ``phase_code`` with ``changes`` would do, with the phase's old and new
    position and results (for both maps).  Nothing is written or sent."""
    db = uow.session
    preview = preview_override(judge, uow, actor, game, phase_code, changes)
    stored = _processed(db, game, phase_code)
    target = plan_override(uow, game, phase_code, changes).target
    return OverrideReview(preview=preview, variant=game.variant, state_before_old=dict(stored.state_before or {}),
                          results_old=stored.results, state_before_new=target.state_before,
                          results_new=target.results)
