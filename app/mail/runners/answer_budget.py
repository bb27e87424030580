"""The answer budgets: how many answers an hour one address gets.

- Loops: an auto-responder that does not mark itself (no ``Auto-Submitted``) would otherwise answer
  each answer of the judge for ever.  Every answered mail without a command (a reply to one of the
  judge's own answers included) is counted per sender; past ``JUDGE_ANSWER_BUDGET`` in the last
  hour such mails are stored but not answered.
- Strangers: anyone can write any ``From`` line, so the judge must not be turned into a mail cannon
  aimed at a third party.  An address that is no player, observer or GM of record (and did not
  write through a personal reply address) gets at most ``JUDGE_STRANGER_BUDGET`` answers an hour
  in all, whatever its mails say; past it, its mails are held (``InboundStatus.HELD``): stored, neither
  run nor answered, listed for the judgekeeper on the dashboard, and run once the address confirms.
- A mail of a stranger that asks for a confirmation (JOIN, OBSERVE, CREATE, TAKEOVER) has its own
  allowance, ``CONFIRMATIONS_PER_HOUR`` per address: forged mails that spent an address's answers do
  not keep its owner's own JOIN from its confirmation (issue 29 item 4).
- All strangers together: at most ``JUDGE_STRANGER_CAP`` answers an hour (confirmations included);
  past it every stranger's mail is held, and the judgekeeper is told once (issue 29 item 5).
"""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import func, select

from app.db.locks import hold_locks
from app.db.models import AuditEntry
from app.services.kernel.audit import audit
from app.services.kernel.context import Judge
from app.services.kernel.uow import UnitOfWork
from app.services.mailout.outbox import enqueue

__all__ = ["CONFIRMATION", "CONFIRMATIONS_PER_HOUR", "WINDOW", "may_answer", "record_answer", "record_stranger_answer",
           "stranger_hold"]

WINDOW = timedelta(hours=1)
_ACTION = "answer_no_command"
_STRANGER = "answer_stranger"
CONFIRMATIONS_PER_HOUR = 3
_CONFIRMATION = "answer_confirmation"
_CAP_TOLD = "stranger_cap_told"


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


def _all_strangers(judge: Judge, uow: UnitOfWork) -> int:
    since = judge.now() - WINDOW
    return uow.session.scalar(select(func.count()).select_from(AuditEntry).where(
        AuditEntry.action.in_((_STRANGER, _CONFIRMATION)), AuditEntry.created_at > since)) or 0


CONFIRMATION = "confirmation"
"""``stranger_hold``'s answer for a mail answered on the confirmations' allowance."""


def stranger_hold(judge: Judge, uow: UnitOfWork, sender: str, *, asks_confirmation: bool) -> str | None:
    """Why a stranger's mail is held back this hour; ``None``: it is run and answered on the address's
    answers; ``CONFIRMATION``: on its confirmations' allowance (a mail with a JOIN, OBSERVE, ...).
    The count and the answer's row are taken under one lock (PostgreSQL), held until the mail's unit
    commits: two pollers at once never answer past the cap."""
    hold_locks(uow.session, "stranger-answers")
    if _all_strangers(judge, uow) >= judge.settings.stranger_cap:
        _tell_keeper_once(judge, uow)
        return "held: the answers to unconfirmed addresses reached their hourly cap (JUDGE_STRANGER_CAP)"
    if asks_confirmation and _count(judge, uow, _CONFIRMATION, sender) < CONFIRMATIONS_PER_HOUR:
        return CONFIRMATION
    if _count(judge, uow, _STRANGER, sender) >= judge.settings.stranger_budget:
        return "held: this unconfirmed address's hourly answers are spent (JUDGE_STRANGER_BUDGET)"
    return None


def _tell_keeper_once(judge: Judge, uow: UnitOfWork) -> None:
    """The judgekeeper hears once an hour at most that the cap was reached."""
    since = judge.now() - WINDOW
    told = uow.session.scalar(select(func.count()).select_from(AuditEntry).where(
        AuditEntry.action == _CAP_TOLD, AuditEntry.created_at > since)) or 0
    if told:
        return
    audit(uow, judge.settings.admin_address, None, _CAP_TOLD, at=judge.now())
    cap = judge.settings.stranger_cap
    enqueue(uow, judge, to=judge.settings.admin_address, kind="notice",
            subject="Judge: answers to unconfirmed addresses held back",
            text=f"The judge answered {cap} mails from unconfirmed addresses in the last hour, the most it may\n"
                 f"(JUDGE_STRANGER_CAP = {cap}): someone may be forging senders to turn the judge against third\n"
                 f"parties.  Further such mail is held, not answered, for the rest of the hour; the dashboard's\n"
                 f"overview lists the held mails.  This notice is sent once an hour at most.\n")


def record_stranger_answer(judge: Judge, uow: UnitOfWork, sender: str, *, confirmation: bool = False) -> None:
    audit(uow, sender, None, _CONFIRMATION if confirmation else _STRANGER, at=judge.now())
