"""Password guessing: failed password sign-ons per seat, and the lock that follows too many.

After ``LOCK_AFTER`` failed password sign-ons for one seat within ``WINDOW``, password sign-ons
for that seat are refused for ``WINDOW`` from every address, the registered one included (anyone
can write its ``From`` line); the seat's personal reply address still signs it on.  The
player of record is told once, when the seat locks (how many failures, from which senders), and
so is the game master.  The failures and the locks are audit rows (``signon_failed``,
``signon_locked``), so the rule needs no table of its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.db import queries
from app.db.models import AuditEntry, Game
from app.services.errors import DomainError
from app.services.kernel.audit import audit
from app.services.kernel.context import Judge
from app.services.kernel.render import format_deadline
from app.services.kernel.uow import UnitOfWork
from app.services.mailout.outbox import enqueue

__all__ = ["LOCK_AFTER", "WINDOW", "SeatLock", "check_not_locked", "record_failure"]

LOCK_AFTER = 10
WINDOW = timedelta(hours=1)
_FAILED = "signon_failed"
_LOCKED = "signon_locked"


@dataclass(frozen=True)
class SeatLock:
    """A seat just locked: until when, after how many failures, from which senders."""

    until: datetime
    failures: int
    senders: tuple[str, ...]


def _recent(db: Session, judge: Judge, game: Game, action: str, seat: str) -> list[AuditEntry]:
    since = judge.now() - WINDOW
    rows = db.scalars(select(AuditEntry).where(AuditEntry.game_id == game.id, AuditEntry.action == action,
                                               AuditEntry.created_at > since).order_by(AuditEntry.id))
    return [row for row in rows if row.detail.get("seat") == seat]


def check_not_locked(judge: Judge, uow: UnitOfWork, game: Game, seat: str, label: str) -> None:
    """Refuse a password sign-on for a locked seat, from any address."""
    db = uow.session
    locks = _recent(db, judge, game, _LOCKED, seat)
    if locks:
        until = locks[-1].created_at + WINDOW
        raise DomainError("seat_locked", f"too many wrong passwords for {label}: password sign-ons are refused "
                                         f"until {format_deadline(until)}; the player's personal reply address "
                                         f"(a reply to the judge's mail) still works")


def record_failure(judge: Judge, uow: UnitOfWork, game: Game, seat: str, label: str, sender: str,
                   record_address: str | None) -> SeatLock | None:
    """Count one failed password sign-on; lock the seat (and tell its player and the GM) at the limit."""
    db = uow.session
    audit(uow, sender, game, _FAILED, at=judge.now(), seat=seat)
    db.flush()
    failures = _recent(db, judge, game, _FAILED, seat)
    if len(failures) < LOCK_AFTER or _recent(db, judge, game, _LOCKED, seat):
        return None
    senders = tuple(dict.fromkeys(row.actor for row in failures))
    lock = SeatLock(judge.now() + WINDOW, len(failures), senders)
    audit(uow, sender, game, _LOCKED, at=judge.now(), seat=seat, failures=lock.failures, senders=list(senders))
    text = (f"There were {lock.failures} failed password sign-ons for {label} in game '{game.name}' within "
            f"the last hour, from:\n\n" + "".join(f"  {address}\n" for address in senders)
            + f"\nUntil {format_deadline(lock.until)}, password sign-ons for {label} are refused from every "
              f"address.\nA player's personal reply address (a reply to the judge's mails of the game) still "
              f"signs the player on.\nIf this was not you, consider SET PASSWORD (at least 8 characters).\n")
    subject = f"Diplomacy sign-on locked {game.name}"
    if record_address:
        enqueue(uow, judge, to=record_address, subject=subject, text=text, kind="lockout", game_id=game.id)
    for gm in queries.gm_addresses(uow.session, game):  # the master and its proven co-GMs
        if gm != record_address:
            enqueue(uow, judge, to=gm, subject=subject, text=text, kind="lockout", game_id=game.id)
    return lock
