"""Administration from the dashboard where no use case existed: a game created by a signed-in GM
(and linked to their account), a results mail sent again, quarantined mail set aside, and the
embedded mailbox (what the judge sent to an address)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import ColumnElement, select
from sqlalchemy.orm import Session

from app.db.models import AuditEntry, Game, InboundMessage, OutboundMessage
from app.db.models_web import GmAccountGame
from app.db.statuses import RUNNING, GameStatus, InboundStatus, SeatRole
from app.dod3.variant import VARIANT as DOD3
from app.services.errors import DomainError
from app.services.games.lobby import GameCreated, create_game
from app.services.kernel.access import book_of, require_gm, require_gm_role
from app.services.kernel.actor import Actor, Role
from app.services.kernel.audit import audit
from app.services.kernel.context import Judge
from app.services.kernel.uow import UnitOfWork
from app.services.mailout.display import shown_text
from app.services.mailout.outbox import enqueue
from app.services.mailout.recipients import writable_recipient
from app.services.mailout.redact import mask_passwords
from app.services.ruleset.options import options_of
from app.services.seats.takeover import is_vacant

__all__ = ["SentMail", "create_linked_game", "invite_player", "mail_sent_to", "resend_mail", "set_aside_quarantined"]

MAILBOX_LIMIT = 50


@dataclass(frozen=True)
class SentMail:
    id: int
    at: datetime
    to: str
    subject: str
    kind: str
    status: str
    text: str


def create_linked_game(judge: Judge, uow: UnitOfWork, actor: Actor, account_id: int, name: str, password: str,
                       variant: str, press: str, settings: dict[str, Any]) -> GameCreated:
    """``lobby.create_game`` for the signed-in GM, whose account is linked to the new game."""
    db = uow.session
    require_gm_role(actor)
    if not password.strip():
        raise DomainError("no_password", "give the game a master password")
    if press not in ("none", "white", "grey", "white/grey"):
        raise DomainError("bad_press", "press is none, white, grey or white/grey")
    created = create_game(judge, uow, Actor(actor.address), name, password.strip(), variant, settings, press)
    db.add(GmAccountGame(account_id=account_id, game_id=created.game_id, linked_at=judge.now()))
    db.flush()
    return created


def resend_mail(judge: Judge, uow: UnitOfWork, actor: Actor, game: Game, mail_id: int) -> int:
    """Queue a mail of the game again (a results mail a player lost); returns the new outbox id."""
    db = uow.session
    require_gm(actor, game)
    old = db.get(OutboundMessage, mail_id)
    if old is None or old.game_id != game.id:
        raise DomainError("no_mail", f"game '{game.name}' has no such mail")
    new = None
    for recipient in old.recipients:
        new = enqueue(uow, judge, to=recipient, subject=old.subject, text=old.body_text, html=old.body_html,
                      kind=old.kind, game_id=game.id, reply_to=old.reply_to, map_id=old.map_id,
                      in_reply_to=old.in_reply_to, references=tuple((old.thread_refs or "").split()),
                      unsubscribe=old.unsubscribe)
    if new is None:
        raise DomainError("no_recipient", "that mail had no recipient")
    db.flush()
    audit(uow, actor, game, "resend_mail", mail=old.id, again=new.id)
    return new.id


def set_aside_quarantined(judge: Judge, uow: UnitOfWork, actor: Actor, game: Game, mail_id: int) -> None:
    """The GM has dealt with a quarantined mail (answered it by hand): it no longer needs attention."""
    db = uow.session
    require_gm(actor, game)
    row = db.get(InboundMessage, mail_id)
    if row is None or row.game_id != game.id or row.status != InboundStatus.QUARANTINED:
        raise DomainError("no_mail", f"game '{game.name}' has no such quarantined mail")
    row.status = InboundStatus.IGNORED
    audit(uow, actor, game, "quarantine_resolved", mail=row.id)


def mail_sent_to(judge: Judge, uow: UnitOfWork, actor: Actor, address: str, game_ids: set[int] | None) -> tuple[SentMail, ...]:
    """What the judge sent to ``address``, newest first: all of it for the judgekeeper, for a GM the
    mail of their games (``game_ids``); passwords masked, unrevealed DoD III bids hidden."""
    db = uow.session
    require_gm_role(actor)
    wanted = address.strip().lower()
    rows = db.scalars(select(OutboundMessage).order_by(OutboundMessage.id.desc()).limit(2000))
    found = []
    for row in rows:
        if wanted not in [r.lower() for r in row.recipients]:
            continue
        if actor.role is not Role.KEEPER and (game_ids is None or row.game_id not in game_ids):
            continue
        game = db.get(Game, row.game_id) if row.game_id is not None else None
        found.append(SentMail(row.id, row.created_at, ", ".join(row.recipients), mask_passwords(row.subject), row.kind,
                              row.status, shown_text(uow, game, row.body_text)))
        if len(found) >= MAILBOX_LIMIT:
            break
    return tuple(found)


INVITES_PER_GAME = 10  # invitations of one game within INVITE_WINDOW
INVITES_PER_GM = 30  # invitations sent by one GM (all games) within INVITE_WINDOW
INVITE_WINDOW = timedelta(days=1)


def _invites(db: Session, since: datetime, *where: ColumnElement[bool]) -> list[AuditEntry]:
    return list(db.scalars(select(AuditEntry).where(AuditEntry.action == "invite", AuditEntry.created_at > since,
                                                    *where)))


def invite_player(judge: Judge, uow: UnitOfWork, actor: Actor, game: Game, address: str, note: str = "", *,
                  proven: bool = False) -> None:
    """Mail ``address`` an invitation to join ``game`` (while it forms, or to take over a vacant power).

    Only to an address the judge may write to, once a day per address and game, at most
    ``INVITES_PER_GAME`` a day per game and ``INVITES_PER_GM`` a day per GM; a note of the GM's own
    only from an account that proved its address by a mailed code (``proven``) or the judgekeeper."""
    db = uow.session
    require_gm(actor, game)
    to = writable_recipient(judge, address)
    if note.strip() and not (proven or actor.role is Role.KEEPER):
        raise DomainError("unproven", "an invitation carries a note of yours only once your account has proven "
                                      "its address: sign in once with a code mailed to it, or send no note")
    # The commands exactly as docs/commands.md gives them (issue 21.7): JOIN game password
    # [preferences], TAKEOVER power@game password.
    if game.status == GameStatus.FORMING and game.variant == DOD3:  # JOIN is refused: the GM seats the players
        how = (f"In Days of Decision III the game master seats the players of '{game.name}' (DOD3 SEAT): answer "
               f"{game.master_email} with the password you want; the start mail then tells you how to sign on.")
    elif game.status == GameStatus.FORMING:
        how = (f"JOIN {game.name} <password> [preferences]\n\n"
               "with a password of your choice and, if you like, the powers you prefer, "
               f"like: JOIN {game.name} <password> France Germany")
    elif game.status in RUNNING:
        book, options = book_of(judge, game), options_of(game)
        vacant = [s.power for s in game.players if s.role == SeatRole.PLAYER and s.power and is_vacant(s, options)]
        example = (vacant or book.ids)[0].lower()
        how = (f"TAKEOVER <power>@{game.name} <password>\n\n"
               f"with a vacant power (now: {', '.join(book.name(p) for p in vacant) or 'none yet'}) and a password of your choice, "
               f"like: TAKEOVER {example}@{game.name} <password>")
    else:
        raise DomainError("not_open", f"game '{game.name}' is {game.status}: nobody can join it")
    since = judge.now() - INVITE_WINDOW
    of_game = _invites(db, since, AuditEntry.game_id == game.id)
    if any(row.detail.get("address") == to for row in of_game):
        raise DomainError("invited", f"{to} was invited to '{game.name}' within the last day")
    if len(of_game) >= INVITES_PER_GAME:
        raise DomainError("too_many_invites", f"game '{game.name}' sent its {INVITES_PER_GAME} invitations for "
                                              "today: try again tomorrow")
    if len(_invites(db, since, AuditEntry.actor == actor.address[:320])) >= INVITES_PER_GM:
        raise DomainError("too_many_invites", f"you sent your {INVITES_PER_GM} invitations for today: "
                                              "try again tomorrow")
    join = (f"{how}\n" if game.variant == DOD3
            else f"To join, send a mail to {judge.settings.judge_address} with the line:\n\n    {how}\n")
    text = f"The game master of the Diplomacy game '{game.name}' ({game.variant}) invites you to play.\n\n{join}"
    if note.strip():
        text += f"\nThe game master adds:\n{note.strip()[:2000]}\n"
    enqueue(uow, judge, to=to, subject=f"Diplomacy invitation to {game.name}", text=text, kind="invite",
            game_id=game.id)
    audit(uow, actor, game, "invite", at=judge.now(), address=to)
    db.flush()
