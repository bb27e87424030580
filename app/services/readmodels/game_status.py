"""The GM's view of a running game (issue 8.14): every power with its player, its status,
whether its orders are complete, the units still without orders, WAIT and its last mail."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.db import queries
from app.db.models import InboundMessage
from app.db.statuses import RUNNING, SeatRole
from app.services.kernel.access import book_of, gm_game
from app.services.kernel.actor import Actor
from app.services.kernel.context import Judge
from app.services.kernel.uow import UnitOfWork
from app.services.orders.submit import seat_statuses
from app.services.ruleset.options import options_of
from app.services.seats.takeover import VACANT, is_vacant

__all__ = ["GameOverview", "PowerLine", "game_overview"]


@dataclass(frozen=True)
class PowerLine:
    power: str
    power_name: str
    player: str
    status: str  # active, cd, absent, resigned, abandoned, eliminated ...
    needs_orders: bool
    complete: bool
    missing: tuple[str, ...]  # units still without orders
    builds_missing: int  # adjustment orders still to give
    orders: int  # orders received
    wait: bool
    last_mail: datetime | None


@dataclass(frozen=True)
class GameOverview:
    game: str
    status: str
    phase: str | None
    deadline: datetime | None
    grace_until: datetime | None
    timezone: str
    powers: tuple[PowerLine, ...]


def _last_mails(db: Session, game_id: int) -> dict[str, datetime]:
    """The time of the last mail each address sent to this game."""
    rows = db.execute(
        select(func.lower(InboundMessage.sender), func.max(InboundMessage.processed_at))
        .where(InboundMessage.game_id == game_id)
        .group_by(func.lower(InboundMessage.sender))
    ).all()
    return {str(sender): when for sender, when in rows if when is not None}


def game_overview(judge: Judge, uow: UnitOfWork, actor: Actor) -> GameOverview:
    """STATUS from the GM: the whole game at a glance."""
    db = uow.session
    game = gm_game(uow, actor)
    book = book_of(judge, game)
    options = options_of(game)
    phase = queries.open_phase(db, game.id) if game.status in RUNNING else None
    statuses = {seat.id: status for seat, status in seat_statuses(uow, game, phase)} if phase else {}
    mails = _last_mails(db, game.id)
    lines = []
    seats = sorted((s for s in game.players if s.role == SeatRole.PLAYER and s.power),
                   key=lambda s: book.ids.index(s.power) if s.power in book.ids else len(book.ids))
    for seat in seats:
        status = statuses.get(seat.id)
        lines.append(PowerLine(
            power=seat.power or "", power_name=book.name(seat.power or ""), player=seat.email,
            status=seat.status + (", abandoned" if seat.status not in VACANT and is_vacant(seat, options)
                                  else ""),
            needs_orders=bool(status and status.needs_orders), complete=bool(status is None or status.complete),
            missing=tuple(status.missing) if status else (), builds_missing=status.builds_missing if status else 0,
            orders=len(status.orders) if status else 0, wait=seat.wait, last_mail=mails.get(seat.email.lower())))
    return GameOverview(game=game.name, status=game.status, phase=game.phase, deadline=game.deadline,
                        grace_until=game.grace_until, timezone=options.timezone,
                        powers=tuple(lines))
