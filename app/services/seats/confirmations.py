"""Confirmed opt-in (issue 29): nothing happens to an address until it answers.

A ``From`` line proves nothing, so a command that gives an address a seat, a game or a standing
answer from the judge (JOIN, OBSERVE, CREATE, DOD3 CREATE, TAKEOVER) does not run on a mail that
has not proved its mailbox (a reply through a personal reply address, a sign-on with the password
of a seat of that very address).  It waits here: the judge mails the address one short
confirmation, with a one-time token; a reply to ``judge+c-<token>@`` (or ``CONFIRM <token>``) runs
the waiting mail's commands from that line on, as if just sent.  A token is used once (one
conditional ``UPDATE``), and it expires after ``JUDGE_CONFIRM_HOURS``.

Mail an answer budget held back (``InboundStatus.HELD``) is not lost: once its sender confirms, its
latest held mails run again, and the judgekeeper sees every held mail on the dashboard.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import func, select, update

from app.db.models import Confirmation, InboundMessage
from app.db.statuses import InboundStatus
from app.services.kernel.context import Judge
from app.services.kernel.uow import UnitOfWork
from app.services.mailout.address_confirmation import new_confirm_token

__all__ = ["RELEASED_PER_CONFIRMATION", "Confirmed", "HeldMail", "ask_confirmation", "held_mails", "release_held",
           "use_confirmation"]

RELEASED_PER_CONFIRMATION = 5
"""At most this many of an address's latest held mails (of the last day) run again when it confirms."""


@dataclass(frozen=True)
class Confirmed:
    address: str
    inbound_id: int | None
    line: int
    what: str
    game_id: int | None = None
    player_id: int | None = None
    secret: str | None = None
    detail: str | None = None


@dataclass(frozen=True)
class HeldMail:
    id: int
    at: datetime
    sender: str
    subject: str
    why: str


def ask_confirmation(judge: Judge, uow: UnitOfWork, address: str, inbound_id: int, line: int, what: str) -> str:
    """Store a waiting command of ``address`` (the mail ``inbound_id`` from ``line`` on); its token."""
    db = uow.session
    token = new_confirm_token()
    now = judge.now()
    db.add(Confirmation(token=token, address=address.strip().lower()[:320], inbound_id=inbound_id, line=line,
                        what=what[:40], created_at=now,
                        expires_at=now + timedelta(hours=judge.settings.confirm_hours)))
    db.flush()
    return token


def use_confirmation(judge: Judge, uow: UnitOfWork, token: str) -> Confirmed | None:
    """Use a token once: the waiting command, or None (unknown, used, expired).  One conditional
    ``UPDATE ... RETURNING``: of two mails racing with one token, one wins."""
    now = judge.now()
    row = uow.session.execute(
        update(Confirmation)
        .where(Confirmation.token == token.strip().lower()[:40], Confirmation.used_at.is_(None),
               Confirmation.expires_at > now)
        .values(used_at=now)
        .returning(Confirmation.address, Confirmation.inbound_id, Confirmation.line, Confirmation.what,
                   Confirmation.game_id, Confirmation.player_id, Confirmation.secret, Confirmation.detail)
    ).first()
    if row is None:
        return None
    return Confirmed(row.address, row.inbound_id, row.line, row.what, row.game_id, row.player_id, row.secret,
                     row.detail)


def release_held(judge: Judge, uow: UnitOfWork, address: str) -> int:
    """The latest held mails of a confirmed address (of the last day) run again: back to received."""
    db = uow.session
    since = judge.now() - timedelta(days=1)
    ids = list(db.scalars(
        select(InboundMessage.id)
        .where(InboundMessage.status == InboundStatus.HELD, func.lower(InboundMessage.sender) == address.lower(),
               InboundMessage.received_at > since)
        .order_by(InboundMessage.id.desc()).limit(RELEASED_PER_CONFIRMATION)))
    if ids:
        db.execute(update(InboundMessage).where(InboundMessage.id.in_(ids), InboundMessage.status == InboundStatus.HELD)
                   .values(status=InboundStatus.RECEIVED, attempts=0))
    return len(ids)


def held_mails(uow: UnitOfWork, limit: int = 100) -> tuple[HeldMail, ...]:
    """The mails an answer budget held back, newest first (the judgekeeper's list)."""
    rows = uow.session.execute(select(InboundMessage.id, InboundMessage.received_at, InboundMessage.sender,
                             InboundMessage.subject, InboundMessage.error)
                      .where(InboundMessage.status == InboundStatus.HELD)
                      .order_by(InboundMessage.id.desc()).limit(limit))
    return tuple(HeldMail(i, at, sender, subject, why or "") for i, at, sender, subject, why in rows)
