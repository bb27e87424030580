"""Mail to a seat's one-time address, ``judge+u-<token>@domain`` (the ``List-Unsubscribe`` of the
seat's mails, RFC 2369): the mail door's side of ``app.services.seats.unsubscribe``.  Routed as the
personal reply addresses are (``judge+<token>@``), told apart by the ``u-`` of its token: the
address does one thing, whatever the mail says (its lines are not read), and its answer goes to
the seat's own address, never to the sender (the address is the proof; ``From:`` proves nothing)."""

from __future__ import annotations

import re

from app.mail.reading.messages import IncomingMail
from app.mail.runners import answer_budget
from app.services.kernel.context import Judge
from app.services.kernel.uow import UnitOfWork
from app.services.mailout.leaving import LEAVE_PREFIX
from app.services.mailout.outbox import enqueue
from app.services.seats.unsubscribe import Unsubscribed, UnsubscribeOutcome, leave_by_token

__all__ = ["leave_tokens", "unsubscribe"]


def leave_tokens(judge: Judge, mail: IncomingMail) -> list[str]:
    """The tokens of the one-time addresses (``judge+u-<token>@domain``) the mail was sent to."""
    local = re.escape(judge.settings.judge_local.lower())
    domain = re.escape(judge.settings.judge_domain.lower())
    pattern = re.compile(rf"^{local}\+{re.escape(LEAVE_PREFIX)}([a-z0-9]+)@{domain}$")
    return [m.group(1) for address in mail.to if (m := pattern.match(address.strip().lower()))]


def unsubscribe(judge: Judge, uow: UnitOfWork, mail: IncomingMail, tokens: list[str], *, answer: bool) -> list[Unsubscribed]:
    """Stop the mail of each seat named by ``tokens``; with ``answer``, tell each seat's address
    what was done (nothing is said for a token no seat has: used already, or never made)."""
    done = [leave_by_token(judge, uow, token) for token in dict.fromkeys(tokens)]
    for told in done:
        if not answer or told.outcome == UnsubscribeOutcome.UNKNOWN or not told.address:
            continue
        if told.outcome != UnsubscribeOutcome.LEFT:  # a seat that stays: the address could be written to again
            if not answer_budget.may_answer(judge, uow, told.address):
                continue  # a few answers an hour, as to a mail without a command: the judge is no mail cannon
            answer_budget.record_answer(judge, uow, told.address)
        subject, text = judge.templates.notice("unsubscribed", outcome=told.outcome.value, kind=told.kind,
                                               game=told.game, power=told.power_name, master=told.master)
        enqueue(uow, judge, to=told.address, subject=subject, text=text, kind="reply", game_id=told.game_id,
                in_reply_to=mail.message_id or None, references=mail.references)
    return done
