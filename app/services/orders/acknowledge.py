"""What an acknowledgement tells a power beside its orders: where its dislodged units may
retreat, and the orders it has stored in advance for later phases (``PHASE``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select

from app.db.models import Game, OrderRow, Phase
from app.db.statuses import PhaseStatus
from app.services.kernel.uow import UnitOfWork
from app.services.ruleset.stored import stored_state

__all__ = ["AdvanceOrders", "RetreatChoice", "advance_orders", "retreat_choices"]


@dataclass(frozen=True)
class RetreatChoice:
    unit: str  # "F ANK"
    options: tuple[str, ...]  # where it may retreat ("ARM", "SMY"); it may always disband


@dataclass(frozen=True)
class AdvanceOrders:
    phase: str
    orders: tuple[str, ...]  # as written: checked when that phase opens


def retreat_choices(state: Mapping[str, Any], power: str) -> tuple[RetreatChoice, ...]:
    """The dislodged units of ``power`` in a retreat phase's stored position, with their retreats."""
    return tuple(RetreatChoice(d.unit, d.retreats)
                 for d in sorted(stored_state(state).dislodged_of(power), key=lambda d: d.unit))


def advance_orders(uow: UnitOfWork, game: Game, power: str, open_phase: str) -> tuple[AdvanceOrders, ...]:
    """Orders ``power`` gave for phases after ``open_phase`` (stored unread, by phase); the orders of
    processed phases are history, never orders in advance."""
    db = uow.session
    processed = select(Phase.code).where(Phase.game_id == game.id, Phase.status == PhaseStatus.PROCESSED)
    rows = db.scalars(select(OrderRow).where(OrderRow.game_id == game.id, OrderRow.power == power.upper(),
                                             OrderRow.phase != open_phase, OrderRow.phase.not_in(processed),
                                             OrderRow.checked.is_(False))
                      .order_by(OrderRow.id)).all()
    by_phase: dict[str, list[str]] = {}
    for row in rows:
        by_phase.setdefault(row.phase, []).append(row.line)
    return tuple(AdvanceOrders(phase, tuple(lines)) for phase, lines in by_phase.items())
