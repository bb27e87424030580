"""The answer budget: a sender whose mails contain no command gets at most a few answers an hour.

An auto-responder that does not mark itself (no ``Auto-Submitted``) would otherwise answer each
answer of the judge for ever.  Every answered mail without a command (a reply to one of the
judge's own answers included) is counted per sender; past ``JUDGE_ANSWER_BUDGET`` in the last
hour such mails are stored but not answered.  Mail with a command is always answered.
"""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.db.models import AuditEntry
from app.services.context import Judge

__all__ = ["WINDOW", "may_answer", "record_answer"]

WINDOW = timedelta(hours=1)
_ACTION = "answer_no_command"


def may_answer(judge: Judge, db: Session, sender: str) -> bool:
    """Whether a mail without a command from ``sender`` still gets an answer this hour."""
    since = judge.now() - WINDOW
    count = db.scalar(select(func.count()).select_from(AuditEntry).where(
        AuditEntry.action == _ACTION, AuditEntry.actor == sender[:320], AuditEntry.created_at > since)) or 0
    return count < judge.settings.answer_budget


def record_answer(judge: Judge, db: Session, sender: str) -> None:
    db.add(AuditEntry(game_id=None, actor=sender[:320], action=_ACTION, detail={}, created_at=judge.now()))
