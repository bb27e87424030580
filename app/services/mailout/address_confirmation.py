"""A seat or a game pointed at another address waits for that address's confirmation (issue 29 item 1).

``SET ADDRESS``, ``REPLACE``, ``DOD3 SEAT`` (and the dashboard's *Replace* and *Seat*) that would give a
seat, or a game's master, an address other than the actor's own proven one change nothing yet: the
new address gets one short confirmation mail that quotes nothing anyone wrote, with a one-time reply
address ``judge+c-<token>@`` (or ``CONFIRM <token>``); only when it answers is the change made
(``app.services.games.address_confirm``).  One actor may ask at most
``ADDRESS_CONFIRMATIONS_PER_HOUR`` addresses an hour, so the confirmations themselves cannot be
aimed at third parties without limit.
"""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import func, select

from app.db.models import Confirmation, Game
from app.services.errors import DomainError
from app.services.kernel.context import Judge
from app.services.kernel.security import new_token
from app.services.kernel.uow import UnitOfWork
from app.services.mailout.outbox import enqueue

__all__ = ["ADDRESS_CONFIRMATIONS_PER_HOUR", "ADDRESS_KINDS", "ask_address_confirmation", "new_confirm_token"]

ADDRESS_CONFIRMATIONS_PER_HOUR = 5
"""How many address changes (SET ADDRESS, REPLACE, DOD3 SEAT to another address) one actor may ask
for in an hour: each mails a confirmation to an address that did not ask for it."""

ADDRESS_KINDS = {"set_address": "make this address the one it writes to for a seat",
                 "master_address": "make this address the one it writes to for the game's master",
                 "replace": "give a power to this address",
                 "dod3_seat": "seat this address as a player"}
"""The address changes that wait for the new address's confirmation, and what its mail says of each."""



def new_confirm_token() -> str:
    """A confirmation's token: short enough to type back as ``CONFIRM <token>``."""
    return new_token(16)


def ask_address_confirmation(judge: Judge, uow: UnitOfWork, *, asked_by: str, address: str, what: str, game: Game,
                             player_id: int | None = None, secret: str | None = None, detail: str | None = None) -> str:
    """A seat or game pointed at ``address`` (``what``: one of ``ADDRESS_KINDS``) waits for its
    confirmation: one short mail to it, quoting nothing anyone wrote; its token.  At most
    ``ADDRESS_CONFIRMATIONS_PER_HOUR`` an hour per actor (``asked_by``)."""
    db = uow.session
    now = judge.now()
    asked_by = asked_by.strip().lower()[:320]
    asked = db.scalar(select(func.count()).select_from(Confirmation).where(
        Confirmation.asked_by == asked_by, Confirmation.created_at > now - timedelta(hours=1))) or 0
    if asked >= ADDRESS_CONFIRMATIONS_PER_HOUR:
        raise DomainError("confirmations_spent",
                          f"you asked {asked} addresses for their confirmation in the last hour, the most the judge "
                          f"sends for one person: try again later", count=asked)
    token = new_confirm_token()
    db.add(Confirmation(token=token, address=address.strip().lower()[:320], inbound_id=None, line=0, what=what,
                        created_at=now, expires_at=now + timedelta(hours=judge.settings.confirm_hours),
                        game_id=game.id, player_id=player_id, asked_by=asked_by, secret=secret, detail=detail))
    db.flush()
    reply_to = judge.settings.confirm_address(token)
    subject, body = judge.templates.notice("confirm_address", game=game.name, what=ADDRESS_KINDS[what],
                                           address=reply_to, token=token, judge=judge.settings.judge_address,
                                           hours=judge.settings.confirm_hours)
    enqueue(uow, judge, to=address, subject=subject, text=body, kind="confirmation", reply_to=reply_to)
    return token
