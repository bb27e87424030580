"""Inbound mail: store the raw bytes first, then run its commands in one transaction.

The Message-ID makes processing idempotent.  Each attempt is counted *before* it runs, so a
message that crashes the process is also retried a bounded number of times, then quarantined
and reported.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from app.db.models import Game, InboundMessage
from app.mail.commands_all import run_commands, split_lines
from app.mail.messages import IncomingMail, derived_message_id, parse_message
from app.mail.replies import reply_context, reply_template
from app.mail.session import MailSession
from app.services.context import Judge
from app.services.deadlines import check_early
from app.services.outbox import enqueue, hold, queue_held, take_held

__all__ = ["InboundOutcome", "handle_raw", "process_stored", "store_raw"]

log = logging.getLogger(__name__)


@dataclass
class InboundOutcome:
    status: str  # done | ignored | duplicate | failed | quarantined
    inbound_id: int | None = None
    error: str | None = None

    @property
    def finished(self) -> bool:
        return self.status in ("done", "ignored", "duplicate", "quarantined")


def store_raw(judge: Judge, raw: bytes, uid: str | None = None) -> tuple[int, bool]:
    """Insert the raw message (own transaction).  Returns (id, new)."""
    mail = parse_message(raw)
    message_id = (mail.message_id or derived_message_id(raw))[:400]
    try:
        with judge.sessions.begin() as db:
            row = InboundMessage(message_id=message_id, source_uid=uid, sender=(mail.sender or "")[:320],
                                 subject=(mail.subject or "")[:400], raw=raw, status="received")
            db.add(row)
            db.flush()
            return row.id, True
    except IntegrityError:
        with judge.sessions.begin() as db:
            existing = db.scalar(select(InboundMessage.id).where(InboundMessage.message_id == message_id))
            if existing is None:
                raise
            return existing, False


def _start_attempt(judge: Judge, inbound_id: int) -> InboundMessage | None:
    with judge.sessions.begin() as db:
        row = db.get(InboundMessage, inbound_id, with_for_update=True)
        if row is None or row.status not in ("received", "failed"):
            return None
        row.attempts += 1
        return row


def _reply_tokens(judge: Judge, mail: IncomingMail) -> list[str]:
    """The tokens of the personal reply addresses (``judge+<token>@domain``) the mail was sent to."""
    local = re.escape(judge.settings.judge_local.lower())
    domain = re.escape(judge.settings.judge_domain.lower())
    pattern = re.compile(rf"^{local}\+([a-z0-9]+)@{domain}$")
    return [m.group(1) for address in mail.to if (m := pattern.match(address.strip().lower()))]


def _is_own_address(judge: Judge, address: str) -> bool:
    """Mail from the judge's own address (or a personal reply address) would start a loop."""
    local, _, domain = address.strip().lower().rpartition("@")
    own_local = judge.settings.judge_local.lower()
    return domain == judge.settings.judge_domain.lower() and (local == own_local or local.startswith(own_local + "+"))


def _run(judge: Judge, inbound_id: int) -> str:
    crash = judge.crash
    with judge.sessions.begin() as db:
        row = db.get_one(InboundMessage, inbound_id, with_for_update=True)
        if row.status not in ("received", "failed"):
            return "duplicate"
        mail = parse_message(row.raw)
        crash("inbound:parsed")
        own = _is_own_address(judge, mail.sender)
        if mail.automatic or not mail.sender or own:
            row.status = "ignored"
            row.error = "automatic mail" if mail.automatic else ("from the judge itself" if own else "no sender")
            row.processed_at = judge.now()
            return "ignored"
        ctx = MailSession(judge, db, sender=mail.sender, subject=mail.subject, message_id=row.message_id)
        hold(db)  # what the commands cause (results, notices) is queued after the answer to the mail
        for token in _reply_tokens(judge, mail):
            if ctx.sign_on_token(token):
                break
        lines = split_lines(mail.text)
        if not any(line.strip() for line in lines):
            ctx.echo("(empty message)", ["Error: no commands found. Send HELP for the list of commands."
                                         + (f" ({'; '.join(mail.problems)})" if mail.problems else "")])
        run_commands(ctx, lines)
        crash("inbound:commands_run")
        db.flush()
        crash("inbound:flushed")
        for game_id in ctx.games_touched:
            game = db.get(Game, game_id)
            if game is not None and ctx.changed:
                check_early(db, judge, game)
        caused = take_held(db)
        _send_reply(judge, db, ctx, mail)
        queue_held(db, caused)
        crash("inbound:reply_queued")
        row.status = "done"
        row.game_id = ctx.game.id if ctx.game else None
        row.processed_at = judge.now()
        row.error = None
        return "done"


def _send_reply(judge: Judge, db: Any, ctx: MailSession, mail: IncomingMail) -> None:
    template = reply_template(ctx.layout())
    text = judge.templates.render(template, r=reply_context(ctx))
    reply_to = judge.settings.token_address(ctx.seat.reply_token) if ctx.seat is not None else None
    game_id = ctx.game.id if ctx.game else None
    if ctx.seat is not None and ctx.seat.email == ctx.sender:
        to = ctx.seat.email
    else:
        to = ctx.sender
    enqueue(db, judge, to=to, subject=ctx.reply_subject(), text=text, kind="reply", game_id=game_id,
            in_reply_to=mail.message_id or None, reply_to=reply_to, map_id=ctx.map_id)
    for address in sorted(ctx.copies - {to}):
        note = (f"This is a copy of the judge's answer to a mail sent by {ctx.sender}, which named you\n"
                f"as the player (or master) of record.  If it was not you, tell the game master.")
        copy = judge.templates.render(template, r=reply_context(ctx, copy_note=note))
        enqueue(db, judge, to=address, subject=f"Copy: {ctx.reply_subject()}", text=copy, kind="copy",
                game_id=game_id)


def _fail(judge: Judge, inbound_id: int, error: BaseException) -> InboundOutcome:
    with judge.sessions.begin() as db:
        row = db.get_one(InboundMessage, inbound_id, with_for_update=True)
        if row.status not in ("received", "failed"):  # another process finished it meanwhile
            return InboundOutcome("duplicate", inbound_id)
        row.error = f"{type(error).__name__}: {error}"[:4000]
        if row.attempts >= judge.settings.max_attempts:
            row.status = "quarantined"
            enqueue(db, judge, to=judge.settings.admin_address,
                    subject=f"Judge: message quarantined after {row.attempts} attempts",
                    text=f"The message {row.message_id} from {row.sender or '(unknown)'}\n"
                         f"(subject: {row.subject!r}) failed {row.attempts} times and was quarantined.\n\n"
                         f"Last error: {row.error}\n", kind="quarantine")
            return InboundOutcome("quarantined", inbound_id, row.error)
        row.status = "failed"
        return InboundOutcome("failed", inbound_id, row.error)


def process_stored(judge: Judge, inbound_id: int) -> InboundOutcome:
    row = _start_attempt(judge, inbound_id)
    if row is None:
        return InboundOutcome("duplicate", inbound_id)
    if row.attempts > judge.settings.max_attempts:
        return _fail(judge, inbound_id, RuntimeError("too many attempts (the process died while handling it)"))
    try:
        status = _run(judge, inbound_id)
    except Exception as error:
        log.exception("inbound message %s failed", inbound_id)
        return _fail(judge, inbound_id, error)
    return InboundOutcome(status, inbound_id)


def handle_raw(judge: Judge, raw: bytes, uid: str | None = None) -> InboundOutcome:
    """Store, then process one received message.  Never raises for a bad message."""
    inbound_id, _new = store_raw(judge, raw, uid)
    judge.crash("inbound:stored")
    return process_stored(judge, inbound_id)


def pending_ids(judge: Judge) -> list[int]:
    """Stored messages not finished yet (a crash after storing, or a failure to retry)."""
    with judge.sessions.begin() as db:
        return list(db.scalars(select(InboundMessage.id).where(
            InboundMessage.status.in_(("received", "failed"))).order_by(InboundMessage.id)))
