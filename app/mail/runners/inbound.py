"""Inbound mail: store the raw bytes first, then run its commands in one transaction.

The Message-ID makes processing idempotent.  Each attempt is counted *before* it runs, so a
message that crashes the process is also retried a bounded number of times, then quarantined
and reported.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from app.db import queries
from app.db.models import Game, InboundMessage
from app.db.statuses import InboundStatus
from app.mail.commands.catalogue import run_commands, split_lines
from app.mail.commands.registry import find
from app.mail.commands.reply import reply_context, reply_template
from app.mail.commands.session import MailSession, parse_sign_on_target
from app.mail.reading import OwnMarks
from app.mail.reading.auth_results import sender_failed_authentication
from app.mail.reading.headers import clean, storable
from app.mail.reading.messages import IncomingMail, message_id_of, parse_message
from app.mail.replies.subjects import answer_subject
from app.mail.runners import answer_budget, unsubscribe
from app.mail.runners.strangers import quote_nothing, run_confirmed, tell_forged
from app.services.bootstrap import transaction
from app.services.kernel.context import Judge
from app.services.kernel.limits import address_of_record
from app.services.kernel.uow import UnitOfWork
from app.services.mailout.addresses import deliverable
from app.services.mailout.outbox import enqueue, queue_held
from app.services.seats.confirmations import Confirmed, use_confirmation

__all__ = ["InboundOutcome", "handle_raw", "process_stored", "report_unreadable", "store_raw"]

log = logging.getLogger(__name__)


@dataclass
class InboundOutcome:
    status: InboundStatus  # done | ignored | duplicate | failed | quarantined
    inbound_id: int | None = None
    error: str | None = None

    @property
    def finished(self) -> bool:
        return self.status in (InboundStatus.DONE, InboundStatus.IGNORED, InboundStatus.HELD, InboundStatus.DUPLICATE,
                               InboundStatus.QUARANTINED)


def store_raw(judge: Judge, raw: bytes, uid: str | None = None) -> tuple[int, bool]:
    """Insert the raw bytes (own transaction), keyed by the Message-ID of the header lines, with the
    decoded sender and subject cut to their columns; should those fail to store, the bytes are stored
    without them: whatever the headers hold, the mail is kept, and then processed or quarantined.
    Returns (id, new)."""
    message_id = message_id_of(raw)
    sender, subject = _described(raw)
    try:
        return _insert(judge, raw, uid, message_id, sender, subject)
    except IntegrityError:
        pass
    except Exception:
        if not (sender or subject):
            raise  # the bytes alone failed: the database is unavailable
        log.exception("the sender and subject of a mail could not be stored; storing its bytes alone")
        try:
            return _insert(judge, raw, uid, message_id, "", "")
        except IntegrityError:
            pass
    with transaction(judge) as unit:
        db = unit.session
        existing = db.scalar(select(InboundMessage.id).where(InboundMessage.message_id == message_id))
        if existing is None:
            raise LookupError(f"the stored mail {message_id!r} vanished")
        return existing, False


def _described(raw: bytes) -> tuple[str, str]:
    """The sender and subject of a mail, decoded and cut to their columns (for the dashboard)."""
    try:
        mail = parse_message(raw)
        return clean(mail.sender, 320), clean(mail.subject, 400)
    except Exception:
        log.exception("the headers of a mail could not be read")
        return "", ""


def _insert(judge: Judge, raw: bytes, uid: str | None, message_id: str, sender: str, subject: str) -> tuple[int, bool]:
    with transaction(judge) as unit:
        db = unit.session
        row = InboundMessage(message_id=message_id, source_uid=uid[:200] if uid else None, sender=sender,
                             subject=subject, raw=raw, status=InboundStatus.RECEIVED)
        db.add(row)
        db.flush()
        return row.id, True


def _start_attempt(judge: Judge, inbound_id: int) -> InboundMessage | InboundStatus:
    """Count one more attempt; or the status of a message that is finished already."""
    with transaction(judge) as unit:
        db = unit.session
        row = db.get(InboundMessage, inbound_id, with_for_update=True)
        if row is None:
            return InboundStatus.DUPLICATE
        if row.status not in (InboundStatus.RECEIVED, InboundStatus.FAILED):
            # A message quarantined earlier (say, by a retry after a crash) stays quarantined: its file
            # goes to the quarantine folder, it is not marked done.
            return InboundStatus.QUARANTINED if row.status == InboundStatus.QUARANTINED else InboundStatus.DUPLICATE
        row.attempts += 1
        return row


_STALE_TOKEN = ("Error: this personal reply address no longer signs anyone on (the seat was resigned, "
                "ejected, taken over, or given a new address).  Sign on with SIGNON <power letter><game> "
                "<password>.")
_NO_COMMAND = ("Error: no commands found in your mail (it was empty, or had only a signature or quoted "
               "text).\nTo give orders, start with SIGNON <power letter><game> <password> and write one order "
               "per line, e.g. A Par-Bur;\nor reply to a mail of your game.  Send HELP for the list of "
               "commands, LIST for the games on this judge.")


_CONFIRMED_WORDS = ("JOIN", "OBSERVE", "WATCH", "MONITOR", "CREATE", "TAKEOVER", "OVER")
"""The last word of the commands that may wait for a confirmation (``SIGNON ?game`` is a JOIN too)."""
_STALE_CONFIRMATION = ("Error: this confirmation was used already, or it expired (or its code is mistyped): "
                       "nothing was run.  Send the command again for a new confirmation.")


def _confirm_tokens(judge: Judge, mail: IncomingMail) -> list[str]:
    """The tokens of the one-time confirmation addresses (``judge+c-<token>@domain``) the mail was sent to."""
    local = re.escape(judge.settings.judge_local.lower())
    domain = re.escape(judge.settings.judge_domain.lower())
    pattern = re.compile(rf"^{local}\+c-([a-z0-9]+)@{domain}$")
    return [m.group(1) for address in mail.to if (m := pattern.match(address.strip().lower()))]


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


def _run(judge: Judge, inbound_id: int) -> InboundStatus:
    crash = judge.crash
    with transaction(judge) as unit:
        db = unit.session
        row = db.get_one(InboundMessage, inbound_id, with_for_update=True)
        if row.status not in (InboundStatus.RECEIVED, InboundStatus.FAILED):
            return InboundStatus.DUPLICATE
        mail = parse_message(row.raw, OwnMarks(judge.settings.judge_address))
        crash("inbound:parsed")
        own = _is_own_address(judge, mail.sender)
        leaving = unsubscribe.leave_tokens(judge, mail)
        if leaving:  # a seat's one-time address: it stops the seat's mail, whatever the mail says
            done = unsubscribe.unsubscribe(judge, unit, mail, leaving, answer=not (mail.automatic or own))
            row.game_id = next((told.game_id for told in done if told.game_id is not None), None)
            row.status = InboundStatus.DONE if row.game_id is not None else InboundStatus.IGNORED
            row.error = None if row.game_id is not None else "an unsubscribe address no seat has (used already?)"
            row.processed_at = judge.now()
            return InboundStatus(row.status)
        if mail.automatic or not mail.sender or own:
            row.status = InboundStatus.IGNORED
            row.error = "automatic mail" if mail.automatic else ("from the judge itself" if own else _no_sender(mail))
            row.processed_at = judge.now()
            return InboundStatus.IGNORED
        unusable = deliverable(mail.sender)
        if unusable is not None:  # an answer could not be sent (poison14\x80@...: issue 29 item 10): none is made
            row.status, row.processed_at = InboundStatus.IGNORED, judge.now()
            row.error = f"a sender address the judge cannot write to ({unusable})"[:1000]
            return InboundStatus.IGNORED
        ctx = MailSession(judge, unit, sender=mail.sender, subject=mail.subject, message_id=row.message_id)
        ctx.inbound_id = row.id
        ctx.sender_trusted = not sender_failed_authentication(mail.auth_results, judge.settings.authserv_id,
                                                              mail.sender)
        lines = split_lines(mail.text)
        if not ctx.sender_trusted:  # the judge knows the sender is forged: nothing of its mail runs (issue 29.3)
            return _forged(judge, unit, row, mail)
        confirmed = [waiting for token in _confirm_tokens(judge, mail)
                     if (waiting := use_confirmation(judge, unit, token)) is not None]
        if confirmed:  # a reply to a confirmation mail: its waiting mail runs; its own text is the quote
            return _answer(judge, unit, row, mail, None, confirmed)
        if _confirm_tokens(judge, mail):
            ctx.echo("(confirmation address)", [_STALE_CONFIRMATION])
        tokens = _reply_tokens(judge, mail)
        by_token = bool(tokens) and any(ctx.sign_on_token(token) for token in tokens)
        if tokens and not by_token:
            ctx.echo("(personal reply address)", [_STALE_TOKEN])
        ctx.proven = by_token
        ctx.of_record = by_token or address_of_record(judge, unit, ctx.sender)
        held = None
        if not ctx.of_record:
            held = answer_budget.stranger_hold(judge, unit, ctx.sender, asks_confirmation=_asks_confirmation(lines))
            if held not in (None, answer_budget.CONFIRMATION):  # neither run nor answered (the judge is no mail
                row.status, row.error, row.processed_at = InboundStatus.HELD, held, judge.now()  # cannon), but kept
                return InboundStatus.HELD
        unit.hold()  # what the commands cause (results, notices) is queued after the answer to the mail
        for cut in mail.cuts:
            ctx.echo("(this mail was cut)", [f"Warning: {cut}.  What was not read was not run: send it "
                                             f"again (in a shorter mail, if it was too long)."])
        found = run_commands(ctx, lines)
        crash("inbound:commands_run")
        if found == 0 and ctx.orders_accepted == 0:  # no command, no valid order: an auto-responder?
            if not answer_budget.may_answer(judge, unit, ctx.sender):
                row.status, row.error, row.processed_at = InboundStatus.IGNORED, "no command: answer budget spent", judge.now()
                return InboundStatus.IGNORED
            answer_budget.record_answer(judge, unit, ctx.sender)
            if not ctx.echoes and not ctx.sections:
                ctx.echo("(no commands found)", [_NO_COMMAND + (f" ({'; '.join(mail.problems)})" if mail.problems
                                                                else "")])
        _note_reading(ctx, mail)
        if not ctx.of_record:
            answer_budget.record_stranger_answer(judge, unit, ctx.sender,
                                                 confirmation=held == answer_budget.CONFIRMATION)
            quote_nothing(ctx, mail)
        confirmed = [waiting for token in ctx.confirming if (waiting := use_confirmation(judge, unit, token)) is not None]
        if ctx.confirming and not confirmed:
            ctx.echo("(CONFIRM)", [_STALE_CONFIRMATION])
        return _answer(judge, unit, row, mail, ctx, confirmed)


def _answer(judge: Judge, unit: UnitOfWork, row: InboundMessage, mail: IncomingMail, ctx: MailSession | None,
            confirmed: list[Confirmed]) -> InboundStatus:
    """Run the confirmed waiting mails, then queue the answers: this mail's (``ctx``), each waiting
    mail's, then what their commands caused."""
    unit.hold()  # what the commands cause (results, notices) is queued after the answers
    runs = [run for done in confirmed if (run := run_confirmed(judge, unit, done, mail)) is not None]
    unit.session.flush()
    judge.crash("inbound:flushed")
    unit.publish()  # what the commands' events cause (early processing), before the answer tells of it
    caused = unit.take_held()
    if ctx is not None:
        _send_reply(judge, unit, ctx, mail)
    for run_ctx, run_mail in runs:
        _send_reply(judge, unit, run_ctx, run_mail)
    queue_held(unit, caused)
    judge.crash("inbound:reply_queued")
    row.status = InboundStatus.DONE
    game = ctx.game if ctx is not None else next((run.game for run, _ in runs if run.game), None)
    row.game_id = game.id if game else None
    row.processed_at = judge.now()
    row.error = None
    return InboundStatus.DONE


def _asks_confirmation(lines: list[str]) -> bool:
    """Whether a line of the mail is a command that waits for a confirmation of a stranger's address."""
    for line in lines[:200]:
        found = find(line.strip())
        if found is not None and (found.name.split()[-1] in _CONFIRMED_WORDS or (
                found.name in ("SIGNON", "SIGN ON") and found.args.startswith("?"))):
            return True
    return False


def _forged(judge: Judge, unit: UnitOfWork, row: InboundMessage, mail: IncomingMail) -> InboundStatus:
    """A sender that failed SPF/DMARC: nothing runs; a short notice, within the strangers' caps."""
    row.processed_at = judge.now()
    if answer_budget.stranger_hold(judge, unit, mail.sender, asks_confirmation=False) is not None:
        row.status, row.error = InboundStatus.IGNORED, "sender failed SPF/DMARC; answers to strangers spent"
        return InboundStatus.IGNORED
    answer_budget.record_stranger_answer(judge, unit, mail.sender.lower())
    tell_forged(judge, unit, mail)
    row.status, row.error = InboundStatus.DONE, "sender failed SPF/DMARC: nothing was run"
    return InboundStatus.DONE


def _no_sender(mail: IncomingMail) -> str:
    """Why the mail has no sender the judge can answer, as its record says."""
    why = [problem for problem in mail.problems if "From" in problem]
    return f"no sender: {'; '.join(why)}"[:1000] if why else "no sender"


def _note_reading(ctx: MailSession, mail: IncomingMail) -> None:
    """Say where reading stopped, how much was not read, and which parts were not read."""
    if mail.stopped:
        lines = f"{mail.unread_lines} non-blank line{'s' if mail.unread_lines != 1 else ''}"
        ctx.echo("(reading stopped here)", [f"Note: reading stopped at line {mail.stopped_line} of your mail: "
                                            f"{mail.stopped}.  What follows was taken for a quote: its {lines} "
                                            f"were not read.  Write your commands above any quoted mail."])
    for part in mail.unread_parts:
        why = ("the judge cannot read Outlook's rich text format: set your mail client to send plain text or HTML"
               if "winmail.dat" in part else "the judge reads the text of a mail, not its attachments: write your "
               "commands in the mail itself")
        ctx.echo("(a part of your mail was not read)", [f"Note: {part} was not read; {why}."])


def _token_reply_to(judge: Judge, ctx: MailSession, address: str, *, verified: bool) -> str | None:
    """The personal reply address goes only to the seat's registered address (a sender that
    failed SPF/DMARC is a stranger even there); a stranger who knew the password never gets it."""
    seat = ctx.seat
    if seat is None or not verified or address != seat.email.lower():
        return None
    return judge.settings.token_address(seat.reply_token)


def _send_reply(judge: Judge, uow: UnitOfWork, ctx: MailSession, mail: IncomingMail) -> None:
    template = reply_template(ctx.layout())
    text = judge.templates.render(template, r=reply_context(ctx))
    game_id = ctx.game.id if ctx.game else None
    to = ctx.sender
    enqueue(uow, judge, to=to, subject=ctx.reply_subject(), text=text, kind="reply", game_id=game_id,
            in_reply_to=mail.message_id or None, references=mail.references,
            reply_to=(judge.settings.confirm_address(ctx.confirmation) if ctx.confirmation else
                      _token_reply_to(judge, ctx, to, verified=ctx.sender_trusted)), map_id=ctx.map_id)
    for address in sorted(ctx.copies - {to}):
        note = (f"This is a copy of the judge's answer to a mail sent by {ctx.sender}, which named you\n"
                f"as the player (or master) of record.  If it was not you, tell the game master.")
        copy = judge.templates.render(template, r=reply_context(ctx, copy_note=note))
        enqueue(uow, judge, to=address, subject=f"Copy: {ctx.reply_subject()}", text=copy, kind="copy",
                game_id=game_id, reply_to=_token_reply_to(judge, ctx, address, verified=True))


def _fail(judge: Judge, inbound_id: int, error: BaseException) -> InboundOutcome:
    """Record a failed attempt (own transaction); after the last one the mail is quarantined whatever
    the failure, and its notices follow, each in a savepoint of its own: one that cannot be queued
    never keeps the mail out of the quarantine."""
    with transaction(judge) as unit:
        db = unit.session
        row = db.get_one(InboundMessage, inbound_id, with_for_update=True)
        if row.status not in (InboundStatus.RECEIVED, InboundStatus.FAILED):  # another process finished it meanwhile
            return InboundOutcome(InboundStatus.DUPLICATE, inbound_id)
        row.error = storable(f"{type(error).__name__}: {error}")[:4000]
        if row.attempts < judge.settings.max_attempts:
            row.status = InboundStatus.FAILED
            return InboundOutcome(InboundStatus.FAILED, inbound_id, row.error)
        row.status = InboundStatus.QUARANTINED
        row.processed_at = judge.now()
        db.flush()
        mail = parse_message(row.raw)
        _noticed(unit, "the judgekeeper's notice", lambda: _tell_keeper(judge, unit, row),
                 lambda: _tell_keeper(judge, unit, row, plain=True))
        _noticed(unit, "the answer to its sender", lambda: _tell_sender(judge, unit, row, mail),
                 lambda: _tell_sender(judge, unit, row, mail, plain=True))
        _noticed(unit, "the GM's notice", lambda: _tell_master(judge, unit, mail), lambda: None)
        return InboundOutcome(InboundStatus.QUARANTINED, inbound_id, row.error)


def _noticed(uow: UnitOfWork, what: str, notice: Callable[[], object], plain: Callable[[], object]) -> None:
    """Queue ``notice`` in a savepoint; when it fails, its ``plain`` twin (no text taken from the mail)."""
    for attempt in (notice, plain):
        try:
            with uow.session.begin_nested():
                attempt()
                uow.session.flush()
            return
        except Exception:
            log.exception("quarantine: %s could not be queued", what)


def _tell_keeper(judge: Judge, uow: UnitOfWork, row: InboundMessage, *, plain: bool = False) -> None:
    what = (f"The stored message {row.id}" if plain else
            f"The message {row.message_id} from {row.sender or '(unknown)'}\n(subject: {row.subject!r})")
    error = "(on the dashboard, with the quarantined mail)" if plain else row.error
    enqueue(uow, judge, to=judge.settings.admin_address,
            subject=f"Judge: message quarantined after {row.attempts} attempts", kind="quarantine",
            text=f"{what} failed {row.attempts} times and was quarantined.\n\nLast error: {error}\n")


def _game_of(judge: Judge, db: Any, mail: IncomingMail) -> Game | None:
    """The game a mail was about, as far as can be told without running it: its personal reply
    address, or the game named on its first SIGNON line."""
    for token in _reply_tokens(judge, mail):
        seat = queries.player_by_token(db, token)
        if seat is not None:
            return db.get(Game, seat.game_id)  # type: ignore[no-any-return]
    for line in split_lines(mail.text)[:200]:
        words = line.split()
        if len(words) >= 2 and words[0].upper() in ("SIGNON", "SIGN"):
            word = words[2] if words[0].upper() == "SIGN" and len(words) > 2 else words[1]
            try:
                name = parse_sign_on_target(word).game
            except Exception:
                return None
            return queries.game_by_name(db, name)
    return None


def _tell_sender(judge: Judge, uow: UnitOfWork, row: InboundMessage, mail: IncomingMail, *, plain: bool = False) -> None:
    """One answer to the sender of a mail that could not be processed."""
    if not mail.sender or mail.automatic or _is_own_address(judge, mail.sender):
        return
    if plain or not address_of_record(judge, uow, mail.sender):  # nothing of the mail (to a stranger: issue 29.5)
        enqueue(uow, judge, to=mail.sender, subject="Judge reply: your mail could not be processed", kind="reply",
                text=f"A mail you sent could not be processed:\nthe judge failed on it {row.attempts} times.  None of "
                     f"its commands were carried out.\nThe judgekeeper has been told.  Please check it and send it "
                     f"again,\nor send HELP for the list of commands.\n")
        return
    game = _game_of(judge, uow.session, mail)
    subject = answer_subject(mail.subject, "Judge reply")
    enqueue(uow, judge, to=mail.sender, subject=subject, kind="reply", in_reply_to=mail.message_id or None,
            references=mail.references,
            game_id=game.id if game else None,
            text=f"Your mail{f' about game {game.name!r}' if game else ''} (subject: {mail.subject!r}) could "
                 f"not be processed:\nthe judge failed on it {row.attempts} times.  None of its commands "
                 f"were carried out.\nThe judgekeeper{' and the game master have' if game else ' has'} "
                 f"been told.  Please check it and send it again,\nor send HELP for the list of "
                 f"commands.\n")


def _tell_master(judge: Judge, uow: UnitOfWork, mail: IncomingMail) -> None:
    """A word to the GM of the game the quarantined mail was about (and its proven co-GMs)."""
    game = _game_of(judge, uow.session, mail)
    if game is None:
        return
    for gm in queries.gm_addresses(uow.session, game):
        enqueue(uow, judge, to=gm, subject=f"Diplomacy mail quarantined {game.name}",
                kind="gm", game_id=game.id,
                text=f"A mail from {mail.sender or '(unknown)'} about game '{game.name}' (subject: "
                     f"{mail.subject!r})\ncould not be processed and was quarantined; its sender has been "
                     f"told.\nThe judgekeeper has the details.\n")


def process_stored(judge: Judge, inbound_id: int) -> InboundOutcome:
    row = _start_attempt(judge, inbound_id)
    if isinstance(row, str):
        return InboundOutcome(row, inbound_id)
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
    with transaction(judge) as unit:
        db = unit.session
        return list(db.scalars(select(InboundMessage.id).where(
            InboundMessage.status.in_((InboundStatus.RECEIVED, InboundStatus.FAILED))).order_by(InboundMessage.id)))


def report_unreadable(judge: Judge, uid: str, error: str) -> None:
    """Tell the judgekeeper of a mail file the inbox could not read (it was moved to the quarantine)."""
    with transaction(judge) as unit:
        enqueue(unit, judge, to=judge.settings.admin_address, subject="Judge: unreadable mail quarantined",
                kind="quarantine",
                text=f"The mail {uid!r} could not be read and was moved to the quarantine folder unread:\n\n"
                     f"  {error}\n\nThe rest of the inbox keeps flowing.  Fix the file (permissions, disk) "
                     f"and move it back to process it.\n")
