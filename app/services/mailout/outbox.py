"""The transactional outbox: a use case queues mail in its caller's transaction (the door's or
the job's unit of work); the mail door's drain (``app.mail.outbound.drain``) sends it once that has
committed.  A unit of work may hold the mails queued back (``UnitOfWork.hold``): the mail door
queues its answer first, then what the mail caused.

A mail that carries a map not drawn yet is queued ``waiting``, out of the drain's queue: the
painter that draws the map releases its mails (``release_map``, in the painter's transaction), so
a lease reads only mails it can send, however many wait for their maps (at 10,000 games due at
once, tens of thousands: a lease that stepped over them cost tens of milliseconds of the
database's time, once for every map drawn)."""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from typing import Any, cast

from sqlalchemy import Table, bindparam, exists, insert, literal, select, update

from app.db.models import MapImage, OutboundMessage
from app.db.statuses import OutboundStatus
from app.services.kernel.context import Judge
from app.services.kernel.uow import UnitOfWork

__all__ = ["enqueue", "enqueue_all", "new_message_id", "queue_held", "release_drawn", "release_map"]

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
    if map_id is not None and map_id not in _drawn(uow, {map_id}):
        row.status = OutboundStatus.WAITING
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
    rows = [_values(judge, **mail) for mail in mails]
    drawn = _drawn(uow, {row["map_id"] for row in rows if row["map_id"] is not None})
    for row in rows:
        if row["map_id"] is not None and row["map_id"] not in drawn:
            row["status"] = OutboundStatus.WAITING
    uow.session.connection().execute(_INSERT_ALL, rows)
    return len(mails)


def _drawn(uow: UnitOfWork, map_ids: set[int]) -> set[int]:
    """Which of ``map_ids`` are drawn (or could not be: their mails go without them).  The rows are
    read ``FOR SHARE``: a painter drawing one of them now is waited for (and its mails are then
    queued ready), and one cannot start until this transaction ends (its ``release_map`` then sees
    the mails queued ``waiting`` here).  No such map at all: nothing to wait for.  A map this unit
    recorded itself is not drawn, and is not asked about (a turn's results: no statement)."""
    map_ids = map_ids - uow.new_maps  # recorded by this unit: not drawn, no painter can see them yet
    if not map_ids:
        return set()
    query = select(MapImage.id, MapImage.png.is_not(None)).where(MapImage.id.in_(map_ids)).with_for_update(read=True)
    found: dict[int, bool] = {map_id: drawn for map_id, drawn in uow.session.execute(query).all()}
    return {map_id for map_id in map_ids if found.get(map_id, True)}


_WAITING = OutboundMessage.status == OutboundStatus.WAITING
_OUTBOX = cast(Table, OutboundMessage.__table__)
# Built once, on the table (no ORM bookkeeping: run once for every map drawn); the status written
# into the statement, so that PostgreSQL's plan of it, prepared once, reads ``ix_outbound_messages_waiting``.
_RELEASE = (update(_OUTBOX).where(_OUTBOX.c.status == literal(OutboundStatus.WAITING.value, literal_execute=True),
                                  _OUTBOX.c.map_id == bindparam("released_map"))
            .values(status=OutboundStatus.PENDING.value))


def release_map(uow: UnitOfWork, map_id: int) -> None:
    """The mails waiting for map ``map_id`` into the drain's queue (its painter has drawn it, or
    given up on it), in the painter's transaction."""
    uow.session.connection().execute(_RELEASE, {"released_map": map_id})


def release_drawn(uow: UnitOfWork) -> int:
    """Every mail still waiting for a map that is drawn (or gone): what ``release_map`` would have
    released, had its mails been queued ``waiting`` after all.  A safety net the painter runs when
    it has nothing to draw (a read of an index, when nothing waits); the number released."""
    if uow.session.scalar(select(OutboundMessage.id).where(_WAITING).limit(1)) is None:
        return 0
    drawn = exists().where(MapImage.id == OutboundMessage.map_id, MapImage.png.is_not(None))
    done = uow.session.execute(update(OutboundMessage)
                               .where(_WAITING, OutboundMessage.map_id.is_(None) | drawn
                                      | ~exists().where(MapImage.id == OutboundMessage.map_id))
                               .values(status=OutboundStatus.PENDING).execution_options(synchronize_session=False))
    return int(getattr(done, "rowcount", 0) or 0)


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
