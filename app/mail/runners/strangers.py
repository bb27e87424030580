"""What an unconfirmed address gets (issue 29): answers that quote nothing it sent, the notice to a
sender the judge knows to be forged, and the run of a waiting mail once its address confirms.

A ``From`` line proves nothing: the answer to a stranger (an address that is no player, observer or
GM of record, writing without a personal reply address) may land in a third party's mailbox, so it
carries none of the mail's text (its lines, its subject, the words of an error about them): only
the command words, the judge's own sentences, and what the judge itself holds (HELP, LIST).
"""

from __future__ import annotations

import re

from app.db import queries
from app.db.models import InboundMessage
from app.mail.commands.catalogue import run_commands, split_lines
from app.mail.commands.registry import find
from app.mail.commands.session import EchoItem, MailSession
from app.mail.reading import OwnMarks
from app.mail.reading.messages import IncomingMail, parse_message
from app.services.games.address_confirm import apply_address_change
from app.services.kernel.context import Judge
from app.services.kernel.uow import UnitOfWork
from app.services.mailout.address_confirmation import ADDRESS_KINDS
from app.services.mailout.outbox import enqueue
from app.services.seats.confirmations import Confirmed, release_held

__all__ = ["FORGED", "quote_nothing", "run_confirmed", "tell_forged"]

FORGED = ("Your mail failed its domain's SPF or DMARC check at the judge's mail server, so the judge ran none of\n"
          "its commands: nothing changed.  Send it again from a mailbox whose domain authenticates its mail.\n")
_REFUSED = ("Error: refused.  (The judge quotes nothing back to an address it does not know yet: check the "
            "line, or send HELP, or LIST for the games.)")
_LEFT_OUT = "(an answer that would repeat the text of your mail was left out)"
_OWN_LINE = "(a line of your mail)"
_LISTED = re.compile(r" \(the first \d+ (?:is|are) listed below\)")
_QUOTED = re.compile(r"'([^'\n]{1,80})'")


def _quotes(text: str, mail: IncomingMail) -> bool:
    """Whether ``text`` repeats a line of the mail that is no command, or a long word of one."""
    for line in mail.text.splitlines():  # the subject is never repeated: the answer's is "Judge reply"
        line = line.strip()
        found = find(line)
        if found is not None:
            continue  # a command line: its words are checked by ``_error_quotes``
        if len(line) >= 12 and line in text:
            return True
        if any(len(word) >= 10 and word in text for word in line.split()):
            return True
    return False


def _error_quotes(ctx: MailSession, note: str, mail: IncomingMail) -> bool:
    """Whether an error repeats the mail: its arguments, or a quoted value found in the mail that is not
    the name of a game of this judge (``there is no game called 'NGLAND'`` for ``SIGNON ENGLAND``)."""
    if '"' in note or _quotes(note, mail):
        return True
    for line in mail.text.splitlines():
        found = find(line.strip())
        if found is not None and any(len(word) >= 3 and word in note and queries.game_by_name(ctx.db, word) is None
                                     for word in found.args.split()):
            return True  # an argument repeated, unless it names a game of this judge
    text = f"{mail.subject}\n{mail.text}".lower()
    return any(value.lower() in text and queries.game_by_name(ctx.db, value) is None
               for value in _QUOTED.findall(note))


def quote_nothing(ctx: MailSession, mail: IncomingMail) -> None:
    """Rewrite the answer to a stranger so that it quotes nothing of the mail (in place)."""
    echoes: list[EchoItem] = []
    for item in ctx.echoes:
        found = find(item.line)
        if found is not None:
            line = found.name + (" ****" if found.command.secret_args and found.args else "")
        elif item.line.startswith("(") and item.line.endswith(")") and not _quotes(item.line, mail):
            line = _LISTED.sub("", item.line)  # the judge's own mark ("(this mail was cut)"); no lines listed
        else:
            line = _OWN_LINE
        notes = [_REFUSED if note.startswith("Error") and _error_quotes(ctx, note, mail) else note
                 for note in item.notes]
        echoes.append(EchoItem(line, [note if not _quotes(note, mail) else _LEFT_OUT for note in notes]))
    ctx.echoes = echoes
    if ctx.unprocessed:  # still said that the rest was not done, without its lines
        count = len(ctx.unprocessed)
        ctx.unprocessed = [f"({count} line{'s' if count != 1 else ''} of your mail, not read)"]
    ctx.sections = [section if not _quotes(section, mail) else _LEFT_OUT for section in ctx.sections]
    ctx.subject = ""


def tell_forged(judge: Judge, uow: UnitOfWork, mail: IncomingMail) -> None:
    """The short notice to a sender that failed SPF/DMARC: no command of its mail ran."""
    enqueue(uow, judge, to=mail.sender, subject="Judge reply: nothing was run", text=FORGED, kind="reply",
            in_reply_to=mail.message_id or None)


def run_confirmed(judge: Judge, uow: UnitOfWork, confirmed: Confirmed,
                  answering: IncomingMail) -> tuple[MailSession, IncomingMail] | None:
    """Run a waiting mail's commands (from its waiting line on) as if just sent, by its confirmed address;
    its address's latest held mails then run again too (``release_held``).  An address change (a seat or
    game pointed at this address: ``ADDRESS_KINDS``) is made instead, answered in reply to ``answering``."""
    if confirmed.what in ADDRESS_KINDS:
        note = apply_address_change(judge, uow, confirmed)
        ctx = MailSession(judge, uow, sender=confirmed.address, subject=answering.subject,
                          message_id=answering.message_id)
        ctx.echo("(confirmed)", [note])
        return ctx, answering
    if confirmed.inbound_id is None:
        return None
    original = uow.session.get(InboundMessage, confirmed.inbound_id)
    if original is None:
        return None
    mail = parse_message(original.raw, OwnMarks(judge.settings.judge_address))
    ctx = MailSession(judge, uow, sender=confirmed.address, subject=mail.subject, message_id=original.message_id)
    ctx.inbound_id = original.id
    ctx.proven = ctx.of_record = True  # the address answered the confirmation mail: it owns the mailbox
    ctx.echo("(confirmed)", ["Confirmed: the commands of your mail run now, from the line that waited."])
    run_commands(ctx, split_lines(mail.text)[confirmed.line:])
    released = release_held(judge, uow, confirmed.address)
    if released:
        ctx.echo("(held mail)", [f"{released} earlier mail{'s' if released != 1 else ''} of yours that the judge "
                                 f"held back (too many answers to an unconfirmed address) will now be answered."])
    return ctx, mail
