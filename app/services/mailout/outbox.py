"""The transactional outbox: a use case queues mail in its caller's transaction (the door's or
the job's unit of work); the mail door's drain (``app.mail.outbound.drain``) sends it once that has
committed.  A unit of work may hold the mails queued back (``UnitOfWork.hold``): the mail door
queues its answer first, then what the mail caused."""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from typing import Any, cast

from sqlalchemy import Table, insert

from app.db.models import OutboundMessage
from app.db.statuses import OutboundStatus
from app.services.kernel.context import Judge
from app.services.kernel.uow import UnitOfWork

__all__ = ["enqueue", "enqueue_all", "new_message_id", "queue_held"]

_ID_COLUMN = 400  # OutboundMessage.in_reply_to: a reference that does not fit whole is left out


def new_message_id(domain: str) -> str:
    return f"<{uuid.uuid4().hex}@{domain}>"


def enqueue(
    uow: UnitOfWork,
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
    references: tuple[str, ...] = (),
    unsubscribe: str | None = None,
) -> OutboundMessage:
    """Add one mail to the outbox; it is sent only if the caller's transaction commits.
    ``map_id``: a stored map (``app.services.results.maps``) the mail carries as a picture;
    ``references``: the Message-IDs the mail answered (``in_reply_to``) referred to, before it;
    ``unsubscribe``: the one-time address that stops the seat's mail (``mailout.leaving``)."""
    row = OutboundMessage(**_values(judge, to=to, subject=subject, text=text, html=html, kind=kind, game_id=game_id,
                                    in_reply_to=in_reply_to, reply_to=reply_to, map_id=map_id,
                                    references=references, unsubscribe=unsubscribe))
    uow.enqueue(row)
    return row


_INSERT_ALL = insert(cast(Table, OutboundMessage.__table__))  # built once; executemany, no row objects


def enqueue_all(uow: UnitOfWork, judge: Judge, mails: Sequence[Mapping[str, Any]]) -> int:
    """Add several mails (each the keywords of ``enqueue``) to the outbox in one statement, as a
    turn's results go to every player: no row objects for the session to keep and flush.  Mails a
    unit of work holds back go as ``enqueue`` queues them.  Returns how many were queued."""
    if uow.holding() or len(mails) < 2:
        for mail in mails:
            enqueue(uow, judge, **mail)
        return len(mails)
    uow.session.flush()  # what the session holds goes first: the outbox keeps the order mails were queued in
    uow.session.connection().execute(_INSERT_ALL, [_values(judge, **mail) for mail in mails])
    return len(mails)


def _values(judge: Judge, *, to: str, subject: str, text: str, html: str | None = None, kind: str = "reply",
            game_id: int | None = None, in_reply_to: str | None = None, reply_to: str | None = None,
            map_id: int | None = None, references: tuple[str, ...] = (),
            unsubscribe: str | None = None) -> dict[str, Any]:
    refs = " ".join(references)
    return {
        "message_id": new_message_id(judge.settings.judge_domain),
        "kind": kind,
        "game_id": game_id,
        "recipients": [to.strip().lower()],
        "subject": subject[:400],
        "body_text": text,
        "body_html": html,
        "in_reply_to": in_reply_to if in_reply_to and len(in_reply_to) <= _ID_COLUMN else None,
        "reply_to": reply_to,
        "thread_refs": refs if refs and in_reply_to and len(in_reply_to) <= _ID_COLUMN else None,
        "unsubscribe": unsubscribe,
        "map_id": map_id,
        "status": OutboundStatus.PENDING,
        "next_try": judge.now(),
    }


def queue_held(uow: UnitOfWork, rows: list[OutboundMessage]) -> None:
    """Queue the mails ``UnitOfWork.take_held`` returned (in the caller's transaction)."""
    session = uow.session
    for row in rows:
        session.add(row)
