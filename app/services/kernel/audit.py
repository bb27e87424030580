"""Audit rows written by the use cases themselves: who, when (the row's time), what, and why."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from app.db.models import AuditEntry, Game
from app.services.errors import DomainError
from app.services.kernel.actor import Actor, Role

__all__ = ["record_audit", "require_master"]


def require_master(actor: Actor, game: Game) -> None:
    """Only the game's master (or the judgekeeper) may go on."""
    if actor.role == Role.KEEPER or (actor.role == Role.GM and actor.game_id == game.id):
        return
    raise DomainError("not_master", "only the game master may do that (sign on as master@game)")


def record_audit(db: Session, actor: Actor, game: Game | None, action: str, **detail: Any) -> AuditEntry:
    entry = AuditEntry(game_id=game.id if game else None, actor=actor.address, action=action, detail=detail)
    db.add(entry)
    return entry
