"""Per-address limits: how many games one address may create a day, how many games it may observe.

A mail's ``From`` proves nothing, so whatever one address may cause is bounded: ``CREATE`` (and
``DOD3 CREATE``) at most ``JUDGE_CREATES_PER_DAY`` games in any 24 hours, and at most
``JUDGE_OBSERVER_SEATS`` observer seats in all, one per game (each seat is a copy of every results
mail).  The creations are counted as audit rows (``create_quota``), so the rule needs no table.
"""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import func, select

from app.db.models import AuditEntry, Game, Player
from app.db.statuses import LIVE_GAMES, SeatRole
from app.services.errors import DomainError
from app.services.kernel.audit import audit
from app.services.kernel.context import Judge
from app.services.kernel.uow import UnitOfWork

__all__ = ["CREATE_WINDOW", "address_of_record", "check_observer_seat", "take_create_quota"]

CREATE_WINDOW = timedelta(hours=24)
_QUOTA = "create_quota"


def take_create_quota(judge: Judge, uow: UnitOfWork, address: str) -> None:
    """Count one game created by ``address``; refuse it past ``creates_per_day`` in 24 hours."""
    db = uow.session
    address = address.strip().lower()[:320]
    since = judge.now() - CREATE_WINDOW
    made = db.scalar(select(func.count()).select_from(AuditEntry).where(
        AuditEntry.action == _QUOTA, AuditEntry.actor == address, AuditEntry.created_at > since)) or 0
    limit = judge.settings.creates_per_day
    if made >= limit:
        raise DomainError("create_limit", f"{address} has created {made} games in the last 24 hours, the most "
                                          f"one address may (JUDGE_CREATES_PER_DAY = {limit}); try again tomorrow")
    audit(uow, address, None, _QUOTA, at=judge.now())


def check_observer_seat(judge: Judge, uow: UnitOfWork, game: Game, address: str) -> None:
    """One seat per address and game; at most ``observer_seats`` observer seats per address in all."""
    db = uow.session
    address = address.strip().lower()
    if any(seat.email == address for seat in game.players):
        raise DomainError("already_seated", f"{address} already has a seat in game '{game.name}' (one address "
                                            f"holds one seat per game)")
    held = db.scalar(select(func.count()).select_from(Player).join(Game, Game.id == Player.game_id).where(
        Player.role == SeatRole.OBSERVER, Player.email == address,
        Game.status.in_(LIVE_GAMES))) or 0
    limit = judge.settings.observer_seats
    if held >= limit:
        raise DomainError("observer_limit", f"{address} already observes {held} games, the most one address may "
                                            f"(JUDGE_OBSERVER_SEATS = {limit}); leave one first",
                          address=address, held=held, limit=limit)


def address_of_record(judge: Judge, uow: UnitOfWork, address: str) -> bool:
    """Whether ``address`` plays, observes or runs a game on this judge (finished ones too), or is the
    judgekeeper's: everyone else is a stranger, whose answers are few and small."""
    db = uow.session
    address = address.strip().lower()
    if not address:
        return False
    if address == judge.settings.admin_address.strip().lower():
        return True
    seat = db.scalar(select(Player.id).where(Player.email == address).limit(1))
    if seat is not None:
        return True
    return db.scalar(select(Game.id).where(Game.master_email == address).limit(1)) is not None
