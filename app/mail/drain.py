"""The outbox drain: lease the due rows of the outbox table, send them, record the outcome.

The services only queue mail (``app.services.mailout.outbox.enqueue``) in their own transaction;
this loop, run by the composition root, is the one place outgoing mail leaves the judge.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import or_, select, update

from app.db.models import Game, MapImage, OutboundMessage
from app.db.statuses import OutboundStatus
from app.mail.mailer import Mailer, MailerRejected, MailerUnavailable
from app.mail.messages import Attachment, OutgoingMail, render_message
from app.services.handlers import transaction
from app.services.kernel.context import Judge
from app.services.mailout.outbox import enqueue
from app.services.results.maps import content_id, map_filename, map_png, without_inline_map

__all__ = ["LOOP", "MAX_ATTEMPTS", "drain_once", "run_drain"]

log = logging.getLogger(__name__)
MAX_ATTEMPTS = 50
LOOP = "drain"
"""The name of the loop in ``judge.health`` (``/healthz``)."""


def _claim(judge: Judge, limit: int) -> list[OutboundMessage]:
    """Lease due rows: pending ones, and 'sending' ones whose lease ran out (a crash mid-send)."""
    now = judge.now()
    lease = timedelta(seconds=judge.settings.outbox_lease_seconds)
    with transaction(judge) as unit:
        session = unit.session
        candidates = session.scalars(
            select(OutboundMessage.id)
            .where(
                or_(
                    (OutboundMessage.status == OutboundStatus.PENDING) & (OutboundMessage.next_try <= now),
                    (OutboundMessage.status == OutboundStatus.SENDING) & (OutboundMessage.lease_until < now),
                )
            )
            .order_by(OutboundMessage.id)
            .limit(limit)
        ).all()
        claimed: list[OutboundMessage] = []
        for row_id in candidates:
            result = session.execute(
                update(OutboundMessage)
                .where(
                    OutboundMessage.id == row_id,
                    or_(
                        OutboundMessage.status == OutboundStatus.PENDING,
                        (OutboundMessage.status == OutboundStatus.SENDING) & (OutboundMessage.lease_until < now),
                    ),
                )
                .values(status=OutboundStatus.SENDING, lease_until=now + lease, attempts=OutboundMessage.attempts + 1)
            )
            if result.rowcount == 1:  # type: ignore[attr-defined]
                claimed.append(session.get_one(OutboundMessage, row_id))
        return claimed


def _pictures(row: OutboundMessage, judge: Judge) -> tuple[Attachment, ...]:
    """The map a queued mail carries: inline in its HTML (the zine), else attached."""
    if row.map_id is None:
        return ()
    with transaction(judge) as unit:
        session = unit.session
        image = session.get(MapImage, row.map_id)
        if image is None:
            return ()
        png = map_png(session, image)  # drawn by the first mail that carries it, then kept
        if png is None:
            return ()
        game = session.get(Game, image.game_id) if image.game_id is not None else None
        return (Attachment(map_filename(game.name if game else "map", image.phase), "image/png", png,
                           content_id=content_id(image, judge.settings.judge_domain) if row.body_html else None),)


def _render(row: OutboundMessage, judge: Judge) -> bytes:
    pictures = _pictures(row, judge)
    html = row.body_html
    if html is not None and row.map_id is not None and not pictures:
        html = without_inline_map(html)  # no picture after all: no broken image in the zine
    mail = OutgoingMail(
        to=row.recipients[0],
        subject=row.subject,
        text=row.body_text,
        html=html,
        attachments=pictures,
        message_id=row.message_id,
        in_reply_to=row.in_reply_to,
        reply_to=row.reply_to,
        sender=judge.settings.judge_address,
    )
    if not mail.attachments:
        return render_message(mail, judge.settings.judge_address)
    try:
        return render_message(mail, judge.settings.judge_address)
    except ValueError:  # the mail itself matters more than its picture
        log.exception("outbound %s: sent without its map", row.id)
        return render_message(replace(mail, attachments=()), judge.settings.judge_address)


def _finish(judge: Judge, row_id: int, values: dict[str, Any]) -> None:
    with transaction(judge) as unit:
        session = unit.session
        session.execute(
            update(OutboundMessage)
            .where(OutboundMessage.id == row_id, OutboundMessage.status == OutboundStatus.SENDING)
            .values(**values)
        )


def _report_failure(judge: Judge, row_id: int, error: str) -> None:
    """A mail of a game that failed for good: the game's master is told (the judgekeeper when the
    mail was to the master).  A report that fails is not reported again (no loop)."""
    with transaction(judge) as unit:
        session = unit.session
        row = session.get(OutboundMessage, row_id)
        if row is None or row.kind == "undeliverable" or row.game_id is None:
            return
        game = session.get(Game, row.game_id)
        if game is None:
            return
        to = row.recipients[0] if row.recipients else "(none)"
        tell = game.master_email if game.master_email != to else judge.settings.admin_address
        if not tell or tell == to:
            return
        where = f" of game '{game.name}'"
        enqueue(session, judge, to=tell, subject=f"Judge: undeliverable mail{where}"[:400], kind="undeliverable",
                game_id=game.id,
                text=f"A mail{where} to {to} (subject: {row.subject!r}) could not be delivered and will not be\n"
                     f"retried:\n\n  {error}\n\nCheck that player's address (the player can change it with "
                     f"SET ADDRESS, the game master with REPLACE).\n")


def _backoff(attempts: int, now: datetime) -> datetime:
    return now + timedelta(seconds=min(600, 2 ** min(attempts, 10)))


async def drain_once(judge: Judge, mailer: Mailer, limit: int = 200) -> int:
    """Send what is due; returns the number of mails sent."""
    rows = await asyncio.to_thread(_claim, judge, limit)
    sent = 0
    for index, row in enumerate(rows):
        try:
            payload = _render(row, judge)
            judge.crash("drain:before_send")
            await mailer.send(payload, judge.settings.judge_address, list(row.recipients))
        except MailerUnavailable as error:
            # The server is down: put this one and the rest of the batch back for later.
            for pending in rows[index:]:
                await asyncio.to_thread(
                    _finish,
                    judge,
                    pending.id,
                    {"status": OutboundStatus.PENDING, "lease_until": None, "last_error": str(error)[:2000],
                     "next_try": _backoff(pending.attempts, judge.now())},
                )
            log.warning("mailer unavailable: %s", error)
            return sent
        except (MailerRejected, ValueError) as error:  # permanent: a bad address or header
            log.warning("outbound %s rejected: %s", row.id, error)
            await asyncio.to_thread(
                _finish, judge, row.id, {"status": OutboundStatus.FAILED, "lease_until": None, "last_error": str(error)[:2000]}
            )
            await asyncio.to_thread(_report_failure, judge, row.id, str(error)[:500])
            continue
        except Exception as error:  # a bad message must not block the queue
            status = OutboundStatus.FAILED if row.attempts >= MAX_ATTEMPTS else OutboundStatus.PENDING
            log.exception("sending outbound %s failed", row.id)
            await asyncio.to_thread(
                _finish,
                judge,
                row.id,
                {"status": status, "lease_until": None, "last_error": repr(error)[:2000],
                 "next_try": _backoff(row.attempts, judge.now())},
            )
            if status == OutboundStatus.FAILED:
                await asyncio.to_thread(_report_failure, judge, row.id, repr(error)[:500])
            continue
        judge.crash("drain:after_send")
        await asyncio.to_thread(
            _finish, judge, row.id, {"status": OutboundStatus.SENT, "sent_at": judge.now(), "lease_until": None}
        )
        sent += 1
    return sent


async def run_drain(judge: Judge, mailer: Mailer, stop: asyncio.Event, interval: float = 1.0) -> None:
    """Drain until ``stop`` is set; each round is reported to ``judge.health``."""
    while not stop.is_set():
        judge.health.begin(LOOP)
        try:
            sent = await drain_once(judge, mailer)
        except Exception as error:
            judge.health.failed(LOOP, error)
            log.exception("outbox drain failed")
            sent = 0
        else:
            judge.health.ok(LOOP)
        if sent == 0:
            try:
                await asyncio.wait_for(stop.wait(), timeout=interval)
            except TimeoutError:
                pass
