"""The audit row: who (an actor, or an address), which game, what, when and why.

``audit`` is the one way a row gets into ``audit_log``: the use cases call it, and so do the
doors (``MailSession.audit``, the answer budget); ``tests/test_architecture.py`` finds no
``AuditEntry(`` anywhere else in ``app/``."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from app.db.models import AuditEntry, Game
from app.services.kernel.actor import Actor
from app.services.kernel.uow import UnitOfWork

__all__ = ["audit"]

_WHO = 320  # the width of AuditEntry.actor, String(320)


def audit(uow: UnitOfWork, who: Actor | str, game: Game | None, action: str, /, *, at: datetime | None = None,
          **detail: Any) -> AuditEntry:
    """Add the row for ``action`` by ``who`` (its address cut to the column) on ``game`` (None: the
    judge's own business, such as an answer budget), with ``detail`` as its JSON.  ``at`` is the
    judge's clock (``judge.now()``) where the row's time matters to a rule (a quota counted over a
    day, a lock-out); otherwise the database's default, the wall clock, stamps it."""
    db = uow.session
    address = who if isinstance(who, str) else who.address
    entry = AuditEntry(game_id=game.id if game is not None else None, actor=address[:_WHO], action=action,
                       detail=detail)
    if at is not None:
        entry.created_at = at
    db.add(entry)
    return entry
