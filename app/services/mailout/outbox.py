"""The transactional outbox: a use case queues mail in its own transaction; the mail door's drain
(``app.mail.drain``) sends it once the transaction has committed."""

from __future__ import annotations

import uuid

from sqlalchemy.orm import Session

from app.db.models import OutboundMessage
from app.services.kernel.context import Judge

__all__ = ["enqueue", "hold", "new_message_id", "queue_held", "take_held"]

_HELD = "outbox.held"
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
        status="pending",
        next_try=judge.now(),
    )
    held = session.info.get(_HELD)
    if held is not None:
        held.append(row)
    else:
        session.add(row)
    return row


def hold(session: Session) -> None:
    """Keep the mails queued from now on back (``take_held``, then ``queue_held``): the door queues its
    answer to a mail first, so that the GM reads the acknowledgement of PROCESS before the results."""
    session.info.setdefault(_HELD, [])


def take_held(session: Session) -> list[OutboundMessage]:
    """Stop holding; the mails kept back so far, in the order they were queued."""
    held: list[OutboundMessage] = session.info.pop(_HELD, [])
    return held


def queue_held(session: Session, rows: list[OutboundMessage]) -> None:
    """Queue the mails ``take_held`` returned (in the caller's transaction)."""
    for row in rows:
        session.add(row)
