"""The outbox drain: lease the due rows of the outbox table, send them, record the outcome.

The services only queue mail (``app.services.mailout.outbox.enqueue``) in their own transaction;
this loop, run by the composition root, is the one place outgoing mail leaves the judge.

A round leases a batch of due mails in one transaction (``FOR UPDATE SKIP LOCKED``: several drains
share the outbox, each taking other rows, none waiting for another), sends them over one SMTP
session, then writes the batch's outcome in one transaction (the mails sent: one statement).  A
mail whose map is not drawn yet is not due: the painter (``run_drain`` runs it beside the sender,
``drain_once`` before it) draws each map once, off the send path, so no mail waits for another
game's map.  Delivery is at least once: a crash after the SMTP server accepted mails of a batch
and before the batch's outcome is committed sends them again when the lease runs out, with the
same Message-ID.
"""

from __future__ import annotations

import asyncio
import logging
import zlib
from collections import OrderedDict
from contextlib import AsyncExitStack
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import literal, select, update

from app.db import queries
from app.db.models import Game, MapImage, OutboundMessage
from app.db.statuses import OutboundStatus
from app.mail.outbound.mailer import Mailer, MailerDeferred, MailerRejected, MailerSession, MailerUnavailable
from app.mail.reading.messages import Attachment, OutgoingMail, render_message
from app.mail.reading.outgoing import AUTO_GENERATED, AUTO_REPLIED, list_id
from app.services.bootstrap import transaction
from app.services.kernel.context import Judge
from app.services.kernel.uow import UnitOfWork
from app.services.mailout.outbox import enqueue, release_drawn
from app.services.results.maps import content_id, draw_due_map, map_filename, without_inline_map

__all__ = ["BATCH", "LOOP", "MAX_ATTEMPTS", "drain_once", "paint_due", "run_drain"]

log = logging.getLogger(__name__)
MAX_ATTEMPTS = 50
BATCH = 50  # mails a round leases, sends, then records in one transaction
SESSIONS = 4  # SMTP sessions a drain sends a batch over at once (the round trips of one wait for the others)
MAILS_A_SESSION = 10  # a small batch goes over fewer sessions
EXPIRED_EVERY = 10.0  # seconds: how often a drain looks for mails whose lease ran out (a crashed sender's)
LOOP = "drain"
"""The name of the loop in ``judge.health`` (``/healthz``)."""
_PICTURES_KEPT = 64  # maps a drain keeps at hand (a phase's mails come one after the other)


@dataclass(frozen=True)
class _Leased:
    """A mail as the drain leased it: what it sends, and how often it was tried."""

    id: int
    message_id: str
    recipients: list[str]
    subject: str
    body_text: str
    body_html: str | None
    in_reply_to: str | None
    reply_to: str | None
    map_id: int | None
    attempts: int
    kind: str
    thread_refs: str | None
    unsubscribe: str | None
    game_id: int | None
    game: str | None = None  # the game's name (its List-Id)


@dataclass(frozen=True)
class _Picture:
    png: bytes  # empty: the map could not be drawn (the mail goes without it)
    filename: str
    digest: str


@dataclass
class _Outcome:
    sent: list[int]
    deferred: list[tuple[_Leased, str]]  # put off by the server (4xx), or a mail that could not be made
    rejected: list[tuple[_Leased, str]]  # refused for good
    unsent: list[_Leased]  # the server is gone: the rest of the batch, for later
    error: str = ""


# ---------------------------------------------------------------------------------- leasing


def _due(status: OutboundStatus, limit: int, *conditions: Any) -> Any:
    """The first ``limit`` mails of ``status`` meeting ``conditions``, locked, those another drain
    holds skipped; the status written into the statement, so that PostgreSQL reads the mails from
    their status's partial index (the pending ones from ``ix_outbound_messages_pending``, the leases
    run out from ``ix_outbound_messages_sending``), not past every mail sent.
    A pending mail's map is drawn (mails waiting for theirs are ``waiting``: ``mailout.outbox``)."""
    return (select(OutboundMessage.id)
            .where(OutboundMessage.status == literal(status.value, literal_execute=True), *conditions)
            .order_by(OutboundMessage.id).limit(limit).with_for_update(skip_locked=True))


_LEASED = (OutboundMessage.id, OutboundMessage.message_id, OutboundMessage.recipients, OutboundMessage.subject,
           OutboundMessage.body_text, OutboundMessage.body_html, OutboundMessage.in_reply_to, OutboundMessage.reply_to,
           OutboundMessage.map_id, OutboundMessage.attempts, OutboundMessage.kind, OutboundMessage.thread_refs,
           OutboundMessage.unsubscribe, OutboundMessage.game_id)


def _lease(judge: Judge, limit: int, known: set[int], expired: bool = True
           ) -> tuple[list[_Leased], dict[int, _Picture]]:
    """Lease up to ``limit`` due mails (one transaction: rows another drain holds are skipped), with
    the pictures they carry that are not in ``known``; ``expired``: those whose lease ran out first."""
    now = judge.now()
    with transaction(judge) as unit:
        db = unit.session
        # leased by a sender whose lease ran out (a crash mid-send), then pending and due
        ids = list(db.scalars(_due(OutboundStatus.SENDING, limit, OutboundMessage.lease_until < now))) if expired else []
        if len(ids) < limit:
            ids += db.scalars(_due(OutboundStatus.PENDING, limit - len(ids), OutboundMessage.next_try <= now))
        if not ids:
            return [], {}
        lease = now + timedelta(seconds=judge.settings.outbox_lease_seconds)
        rows = db.execute(update(OutboundMessage).where(OutboundMessage.id.in_(ids))
                          .values(status=OutboundStatus.SENDING, lease_until=lease, attempts=OutboundMessage.attempts + 1)
                          .returning(*_LEASED).execution_options(synchronize_session=False)).all()
        leased = sorted((_Leased(**row._asdict()) for row in rows), key=lambda row: row.id)
        games = {row.game_id for row in leased if row.game_id is not None}
        if games:
            names = {game_id: name for game_id, name in db.execute(select(Game.id, Game.name).where(Game.id.in_(games)))}
            leased = [replace(row, game=names.get(row.game_id)) if row.game_id is not None else row for row in leased]
        wanted = {row.map_id for row in leased if row.map_id is not None} - known
        return leased, _pictures(unit, wanted)


def _pictures(uow: UnitOfWork, ids: set[int]) -> dict[int, _Picture]:
    db = uow.session
    if not ids:
        return {}
    found = db.execute(select(MapImage.id, MapImage.png, MapImage.phase, MapImage.digest, Game.name)
                       .outerjoin(Game, Game.id == MapImage.game_id).where(MapImage.id.in_(ids)))
    return {image_id: _Picture(bytes(png or b""), map_filename(name or "map", phase), digest)
            for image_id, png, phase, digest, name in found}


# ---------------------------------------------------------------------------------- one mail


def _render(row: _Leased, picture: _Picture | None, judge: Judge) -> bytes:
    """The mail's bytes: its map inline in its HTML (the zine), else attached; without it when it
    could not be drawn, or when the mail cannot carry it."""
    pictures: tuple[Attachment, ...] = ()
    html = row.body_html
    if picture is not None and picture.png:
        cid = content_id(picture.digest, judge.settings.judge_domain) if html else None
        pictures = (Attachment(picture.filename, "image/png", picture.png, content_id=cid),)
    elif html is not None and row.map_id is not None:
        html = without_inline_map(html)  # no picture after all: no broken image in the zine
    mail = OutgoingMail(to=row.recipients[0], subject=row.subject, text=row.body_text, html=html,
                        attachments=pictures, message_id=row.message_id, in_reply_to=row.in_reply_to,
                        reply_to=row.reply_to, sender=judge.settings.judge_address,
                        references=tuple((row.thread_refs or "").split()),
                        auto_submitted=AUTO_REPLIED if row.kind == "reply" else AUTO_GENERATED,
                        list_id=list_id(row.game, judge.settings.judge_domain) if row.game else None,
                        unsubscribe=row.unsubscribe)
    if not pictures:
        return render_message(mail, judge.settings.judge_address)
    try:
        return render_message(mail, judge.settings.judge_address)
    except ValueError:  # the mail itself matters more than its picture
        log.exception("outbound %s: sent without its map", row.id)
        return render_message(replace(mail, attachments=(), html=row.body_html and without_inline_map(row.body_html)),
                              judge.settings.judge_address)


# ---------------------------------------------------------------------------------- the outcome


def _backoff(attempts: int, now: datetime) -> datetime:
    return now + timedelta(seconds=min(600, 2 ** min(attempts, 10)))


def _record(judge: Judge, outcome: _Outcome) -> None:
    """The batch's outcome, in one transaction: the mails sent in one statement, the others (few)
    each put back for later or failed for good (their game's master told)."""
    now = judge.now()
    with transaction(judge) as unit:
        db = unit.session
        leased = OutboundMessage.status == OutboundStatus.SENDING
        if outcome.sent:
            db.execute(update(OutboundMessage).where(OutboundMessage.id.in_(outcome.sent), leased)
                       .values(status=OutboundStatus.SENT, sent_at=now, lease_until=None)
                       .execution_options(synchronize_session=False))
        later = [(row, error) for row, error in outcome.deferred if row.attempts < MAX_ATTEMPTS]
        later += [(row, outcome.error) for row in outcome.unsent]
        failed = [(row, error) for row, error in outcome.deferred if row.attempts >= MAX_ATTEMPTS]
        failed += outcome.rejected
        for row, error in later:
            db.execute(update(OutboundMessage).where(OutboundMessage.id == row.id, leased)
                       .values(status=OutboundStatus.PENDING, lease_until=None, last_error=error[:2000],
                               next_try=_backoff(row.attempts, now)).execution_options(synchronize_session=False))
        for row, error in failed:
            db.execute(update(OutboundMessage).where(OutboundMessage.id == row.id, leased)
                       .values(status=OutboundStatus.FAILED, lease_until=None, last_error=error[:2000])
                       .execution_options(synchronize_session=False))
            _report_failure(unit, judge, row.id, error[:500])


def _report_failure(uow: UnitOfWork, judge: Judge, row_id: int, error: str) -> None:
    """A mail of a game that failed for good: the game's master and its proven co-GMs are told (the
    judgekeeper when the mail was to the master).  A report that fails is not reported again (no loop)."""
    db = uow.session
    row = db.get(OutboundMessage, row_id)
    if row is None or row.kind == "undeliverable" or row.game_id is None:
        return
    game = db.get(Game, row.game_id)
    if game is None:
        return
    to = row.recipients[0] if row.recipients else "(none)"
    gms = queries.gm_addresses(db, game)  # the master and its proven co-GMs
    tells = [judge.settings.admin_address] if to in gms[:1] else [gm for gm in gms if gm != to]
    where = f" of game '{game.name}'"
    for tell in tells:
        if not tell or tell == to:
            continue
        enqueue(uow, judge, to=tell, subject=f"Judge: undeliverable mail{where}"[:400], kind="undeliverable",
                game_id=game.id,
                text=f"A mail{where} to {to} (subject: {row.subject!r}) could not be delivered and will not be\n"
                     f"retried:\n\n  {error}\n\nCheck that player's address (the player can change it with "
                     f"SET ADDRESS, the game master with REPLACE).\n")


# ---------------------------------------------------------------------------------- the drain


class _Drain:
    """Sends the due mails, batch after batch; keeps the pictures of the last maps it sent."""

    def __init__(self, judge: Judge, mailer: Mailer) -> None:
        self.judge, self.mailer = judge, mailer
        self.pictures: OrderedDict[int, _Picture] = OrderedDict()
        self.expired_checked: datetime | None = None  # when this drain last looked for leases run out

    def _look_for_expired(self) -> bool:
        """Whether this lease looks for mails whose lease ran out (a sender that crashed): at the
        first lease, then at most every ``EXPIRED_EVERY`` seconds.  Such mails are rare, and the
        look reads past every mail sent since the database last vacuumed its index (with
        PostgreSQL's autovacuum off, 13 ms a lease at 4,000 games, a third of its CPU)."""
        now = self.judge.now()
        if self.expired_checked is not None and now < self.expired_checked + timedelta(seconds=EXPIRED_EVERY):
            return False
        self.expired_checked = now
        return True

    async def send_due(self, limit: int) -> int:
        """Send up to ``limit`` due mails, a batch at a time, over a few SMTP sessions kept open
        for the batches of this call; the number sent."""
        sent = 0
        async with AsyncExitStack() as stack:
            sessions: list[MailerSession] = []
            while sent < limit:
                rows, found = await asyncio.to_thread(_lease, self.judge, min(BATCH, limit - sent), set(self.pictures),
                                                      self._look_for_expired())
                if not rows:
                    break
                self._keep(found)
                wanted = min(SESSIONS, -(-len(rows) // MAILS_A_SESSION))
                while len(sessions) < wanted:
                    sessions.append(await stack.enter_async_context(self.mailer.session()))
                outcome = await self._send(rows, sessions[:wanted])
                await asyncio.to_thread(_record, self.judge, outcome)
                sent += len(outcome.sent)
                if outcome.unsent:
                    log.warning("mailer unavailable: %s", outcome.error)
                    break
        return sent

    def _keep(self, found: dict[int, _Picture]) -> None:
        self.pictures.update(found)
        while len(self.pictures) > _PICTURES_KEPT:
            self.pictures.popitem(last=False)

    async def _send(self, rows: list[_Leased], sessions: list[MailerSession]) -> _Outcome:
        """The batch over ``sessions`` at once (a share each: their round trips overlap); a recipient's
        mails all go over one of them, in the order they were queued."""
        shares: list[list[_Leased]] = [[] for _ in sessions]
        for row in rows:
            shares[zlib.crc32(row.recipients[0].encode("utf-8", "replace")) % len(sessions)].append(row)
        done = await asyncio.gather(*(self._send_over(session, share) for session, share in zip(sessions, shares)),
                                    return_exceptions=True)
        outcome = _Outcome([], [], [], [])
        for part in done:
            if isinstance(part, BaseException):
                raise part  # a crash point (the others have finished their share): nothing recorded
            outcome.sent += part.sent
            outcome.deferred += part.deferred
            outcome.rejected += part.rejected
            outcome.unsent += part.unsent
            outcome.error = outcome.error or part.error
        return outcome

    async def _send_over(self, session: MailerSession, rows: list[_Leased]) -> _Outcome:
        judge = self.judge
        outcome = _Outcome([], [], [], [])
        for index, row in enumerate(rows):
            picture = self.pictures.get(row.map_id) if row.map_id is not None else None
            try:
                payload = _render(row, picture, judge)
                judge.crash("drain:before_send")
                await session.send(payload, judge.settings.judge_address, list(row.recipients))
            except MailerDeferred as error:  # this mail, later; the next ones now
                log.warning("outbound %s put off: %s", row.id, error)
                outcome.deferred.append((row, str(error)))
                continue
            except MailerUnavailable as error:  # the server is gone: the rest of the share, later
                outcome.unsent, outcome.error = rows[index:], str(error)[:2000]
                break
            except (MailerRejected, ValueError) as error:  # permanent: a bad address or header
                log.warning("outbound %s rejected: %s", row.id, error)
                outcome.rejected.append((row, str(error)))
                continue
            except Exception as error:  # a bad message must not block the queue
                log.exception("sending outbound %s failed", row.id)
                outcome.deferred.append((row, repr(error)))
                continue
            judge.crash("drain:after_send")
            outcome.sent.append(row.id)
        return outcome


# ---------------------------------------------------------------------------------- the painter


def _paint_one(judge: Judge) -> bool:
    """Draw one map a mail waits for (one transaction; a map another painter draws is skipped) and
    release its mails; with none to draw, release any mail still waiting for a drawn map."""
    with transaction(judge) as unit:
        if draw_due_map(unit) is not None:
            return True
        release_drawn(unit)
        return False


async def paint_due(judge: Judge) -> int:
    """Draw every map not drawn yet; the number drawn."""
    drawn = 0
    while await asyncio.to_thread(_paint_one, judge):
        drawn += 1
    return drawn


async def _run_painter(judge: Judge, stop: asyncio.Event, interval: float, drawn_one: asyncio.Event) -> None:
    """Draw maps as turns record them, beside the sender (which never waits for a map): each map
    drawn wakes the sender for the mails that carry it."""
    while not stop.is_set():
        drawn = 0
        try:
            while await asyncio.to_thread(_paint_one, judge):
                drawn += 1
                drawn_one.set()
        except Exception:
            log.exception("drawing the maps failed")
        if drawn == 0:
            try:
                await asyncio.wait_for(stop.wait(), timeout=interval)
            except TimeoutError:
                pass


async def drain_once(judge: Judge, mailer: Mailer, limit: int = 200) -> int:
    """Draw the maps waiting, then send what is due (up to ``limit``); returns the number of mails sent."""
    await paint_due(judge)
    return await _Drain(judge, mailer).send_due(limit)


async def run_drain(judge: Judge, mailer: Mailer, stop: asyncio.Event, interval: float = 1.0) -> None:
    """Drain until ``stop`` is set, the painter beside; each round is reported to ``judge.health``."""
    drain = _Drain(judge, mailer)
    drawn_one = asyncio.Event()
    painter = asyncio.create_task(_run_painter(judge, stop, interval, drawn_one))
    try:
        while not stop.is_set():
            judge.health.begin(LOOP)
            drawn_one.clear()
            try:
                sent = await drain.send_due(4 * BATCH)
            except Exception as error:
                judge.health.failed(LOOP, error)
                log.exception("outbox drain failed")
                sent = 0
            else:
                judge.health.ok(LOOP)
            if sent == 0:  # nothing due: wait for a map drawn, the stop, or the next round
                waits = [asyncio.ensure_future(stop.wait()), asyncio.ensure_future(drawn_one.wait())]
                await asyncio.wait(waits, timeout=interval, return_when=asyncio.FIRST_COMPLETED)
                for wait in waits:
                    wait.cancel()
    finally:
        painter.cancel()
        try:
            await painter
        except asyncio.CancelledError:
            pass
