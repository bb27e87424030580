"""The transactional outbox: a use case queues mail in its caller's transaction (the door's or
the job's unit of work); the mail door's drain (``app.mail.drain``) sends it once that has
committed.  A unit of work may hold the mails queued back (``UnitOfWork.hold``): the mail door
queues its answer first, then what the mail caused."""

from __future__ import annotations

import uuid

from sqlalchemy.orm import Session

from app.db.models import OutboundMessage
from app.db.statuses import OutboundStatus
from app.services.kernel.context import Judge
from app.services.kernel.uow import current

__all__ = ["enqueue", "new_message_id", "queue_held"]

_ID_COLUMN = 400  # OutboundMessage.in_reply_to: a reference that does not fit whole is left out


def new_message_id(domain: str) -> str:
    return f"<{uuid.uuid4().hex}@{domain}>"


def enqueue(
    session: Session,
    judge: Judge,
    *,
    to: str,
    subject: str,
    text: str,
    html: str | None = None,
    kind: str = "reply",
    game_id: int | None = None,
    in_reply_to: str | None = None,
    reply_to: str | None = None,
    map_id: int | None = None,
) -> OutboundMessage:
    """Add one mail to the outbox; it is sent only if the caller's transaction commits.
    ``map_id``: a stored map (``app.services.results.maps``) the mail carries as a picture."""
    recipients = [to.strip().lower()]
    row = OutboundMessage(
        message_id=new_message_id(judge.settings.judge_domain),
        kind=kind,
        game_id=game_id,
        recipients=recipients,
        subject=subject[:400],
        body_text=text,
        body_html=html,
        in_reply_to=in_reply_to if in_reply_to and len(in_reply_to) <= _ID_COLUMN else None,
        reply_to=reply_to,
        map_id=map_id,
        status=OutboundStatus.PENDING,
        next_try=judge.now(),
    )
    unit = current(session)
    if unit is not None and unit.held is not None:
        unit.held.append(row)
    else:
        session.add(row)
    return row


def queue_held(session: Session, rows: list[OutboundMessage]) -> None:
    """Queue the mails ``UnitOfWork.take_held`` returned (in the caller's transaction)."""
    for row in rows:
        session.add(row)
