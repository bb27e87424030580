"""The answer budgets: how many answers an hour one address gets.

- Loops: an auto-responder that does not mark itself (no ``Auto-Submitted``) would otherwise answer
  each answer of the judge for ever.  Every answered mail without a command (a reply to one of the
  judge's own answers included) is counted per sender; past ``JUDGE_ANSWER_BUDGET`` in the last
  hour such mails are stored but not answered.
- Strangers: anyone can write any ``From`` line, so the judge must not be turned into a mail cannon
  aimed at a third party.  An address that is no player, observer or GM of record (and did not
  write through a personal reply address) gets at most ``JUDGE_STRANGER_BUDGET`` answers an hour
  in all, whatever its mails say; past it, its mails are stored, neither run nor answered.
"""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import func, select

from app.db.models import AuditEntry
from app.services.kernel.audit import audit
from app.services.kernel.context import Judge
from app.services.kernel.uow import UnitOfWork

__all__ = ["WINDOW", "may_answer", "may_answer_stranger", "record_answer", "record_stranger_answer"]

WINDOW = timedelta(hours=1)
_ACTION = "answer_no_command"
_STRANGER = "answer_stranger"


def _count(judge: Judge, uow: UnitOfWork, action: str, sender: str) -> int:
    db = uow.session
    since = judge.now() - WINDOW
    return db.scalar(select(func.count()).select_from(AuditEntry).where(
        AuditEntry.action == action, AuditEntry.actor == sender[:320], AuditEntry.created_at > since)) or 0


def may_answer(judge: Judge, uow: UnitOfWork, sender: str) -> bool:
    """Whether a mail without a command from ``sender`` still gets an answer this hour."""
    return _count(judge, uow, _ACTION, sender) < judge.settings.answer_budget


def record_answer(judge: Judge, uow: UnitOfWork, sender: str) -> None:
    audit(uow, sender, None, _ACTION, at=judge.now())


def may_answer_stranger(judge: Judge, uow: UnitOfWork, sender: str) -> bool:
    """Whether a stranger's mail is still run and answered this hour."""
    return _count(judge, uow, _STRANGER, sender) < judge.settings.stranger_budget


def record_stranger_answer(judge: Judge, uow: UnitOfWork, sender: str) -> None:
    audit(uow, sender, None, _STRANGER, at=judge.now())
