"""The history of a game's corrections and its audit log, for its GM (read only): who corrected
which phase, when and why, with the results as the players were first mailed them beside the
correction mail they got."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select

from app.db.models import AuditEntry, Game
from app.services.kernel.access import require_gm
from app.services.kernel.actor import Actor
from app.services.kernel.uow import UnitOfWork

__all__ = ["AuditLine", "Correction", "audit_log", "audit_words", "corrections_of"]


@dataclass(frozen=True)
class Correction:
    id: int
    at: datetime
    by: str
    phase: str  # the phase corrected
    phases: tuple[str, ...]  # every phase whose results it changed: the phase and those replayed
    reason: str
    results_as_mailed: dict[str, str]  # phase -> its results as mailed before (empty: not kept)
    results_corrected: dict[str, str]  # phase -> its results as they read after the correction
    correction_mail: str  # the notice every player got ("" for a correction made before it was kept)
    mails: int | None


@dataclass(frozen=True)
class AuditLine:
    id: int
    at: datetime
    by: str
    action: str
    phase: str | None
    reason: str | None
    detail: dict[str, Any]
    what: str = ""  # the detail in words: ``movement grace 24 h → 0 h``, a note's or a message's text


# Kept out of an audit line's words: shown in columns of their own, or too long for a line.
_NOT_SAID = frozenset({"phase", "reason", "changes", "results_as_mailed", "results_corrected", "correction_mail",
                       "replayed", "text", "to", "later", "orders"})


def _scalar(value: Any) -> str:
    if isinstance(value, list | tuple):
        return ", ".join(str(v) for v in value)
    return str(value)


def audit_words(action: str, detail: dict[str, Any]) -> str:
    """What an audit row did, in words (issue 28.2): each setting changed with its value before and
    after, the text of a note or a message (and whom it went to), else the row's own facts."""
    changes = detail.get("changes")
    if isinstance(changes, list) and changes:
        return "; ".join(f"{what} {old} → {new}" for what, old, new in changes)
    if "old" in detail and "new" in detail and not isinstance(detail["old"], dict | list):
        return f"{detail['old']} → {detail['new']}"
    if "text" in detail:
        to = detail.get("to")
        return (f"to {to}: " if to else "") + str(detail["text"])
    return ", ".join(f"{key.replace('_', ' ')} {_scalar(value)}" for key, value in detail.items()
                     if key not in _NOT_SAID and value not in (None, "", [], {}) and not isinstance(value, dict))


def _texts(value: Any) -> dict[str, str]:
    return {str(k): str(v) for k, v in value.items()} if isinstance(value, dict) else {}


def _correction(entry: AuditEntry) -> Correction:
    d = entry.detail or {}
    phase = str(d.get("phase") or "")
    mails = d.get("mails")
    return Correction(
        id=entry.id, at=entry.created_at, by=entry.actor, phase=phase,
        phases=(phase, *(str(p) for p in d.get("replayed") or [])), reason=str(d.get("reason") or ""),
        results_as_mailed=_texts(d.get("results_as_mailed")), results_corrected=_texts(d.get("results_corrected")),
        correction_mail=str(d.get("correction_mail") or ""), mails=mails if isinstance(mails, int) else None)


def corrections_of(uow: UnitOfWork, actor: Actor, game: Game, phase: str | None = None) -> tuple[Correction, ...]:
    """The game's corrections, newest first; with ``phase``, those that changed its results (the
    phase corrected, or replayed after it)."""
    db = uow.session
    require_gm(actor, game)
    rows = db.scalars(select(AuditEntry).where(AuditEntry.game_id == game.id, AuditEntry.action == "override")
                      .order_by(AuditEntry.id.desc()))
    found = (_correction(row) for row in rows)
    return tuple(c for c in found if phase is None or phase.upper() in c.phases)


def audit_log(uow: UnitOfWork, actor: Actor, game: Game) -> tuple[AuditLine, ...]:
    """Every audit row of the game, newest first, for its GM."""
    db = uow.session
    require_gm(actor, game)
    rows = db.scalars(select(AuditEntry).where(AuditEntry.game_id == game.id).order_by(AuditEntry.id.desc()))
    return tuple(AuditLine(id=row.id, at=row.created_at, by=row.actor, action=row.action,
                           phase=(str(row.detail.get("phase")) if (row.detail or {}).get("phase") else None),
                           reason=(str(row.detail.get("reason")) if (row.detail or {}).get("reason") else None),
                           detail=dict(row.detail or {}), what=audit_words(row.action, dict(row.detail or {})))
                 for row in rows)
