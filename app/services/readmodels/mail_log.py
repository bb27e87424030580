"""The GM's mail log of a game: searched, filtered (power, direction, status) and paged (issue 21.17).

Mail in is filtered by its sender, mail out by its recipients; a power stands for the addresses of
its seats.  Only the columns the log shows are read (never the raw mail or the bodies)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.db.models import Game, InboundMessage, OutboundMessage, Player
from app.db.statuses import InboundStatus, OutboundStatus
from app.services.errors import DomainError
from app.services.kernel.actor import Actor, Role
from app.services.kernel.context import Judge
from app.services.kernel.uow import UnitOfWork
from app.services.mailout.redact import mask_passwords
from app.services.readmodels.dashboard import MailEntry, gm_game_named
from app.services.ruleset.powers import PowerBook
from app.services.seats.confirmations import HeldMail, held_mails

__all__ = ["MAIL_PAGE_SIZE", "MailFilter", "MailLogPage", "held_mail", "mail_log_page"]

MAIL_PAGE_SIZE = 25
DIRECTIONS = ("in", "out")
# the statuses a stored mail can have, each once ("failed" is both kinds'): the filter's choices
STATUSES: tuple[str, ...] = tuple(dict.fromkeys(s for s in (*InboundStatus, *OutboundStatus)
                                                if s is not InboundStatus.DUPLICATE))


@dataclass(frozen=True)
class MailFilter:
    text: str = ""  # found in the subject or the address, any case
    power: str = ""  # a power id: mail from or to its players
    direction: str = ""  # in | out | "" (both)
    status: str = ""
    page: int = 1


@dataclass(frozen=True)
class MailLogPage:
    entries: tuple[MailEntry, ...]
    filter: MailFilter
    total: int  # entries matching the filter
    page: int
    pages: int
    powers: tuple[tuple[str, str], ...]  # (id, name) to filter by
    quarantined: int = 0  # quarantined mail in the whole log (to be dealt with)
    directions: tuple[str, ...] = DIRECTIONS
    statuses: tuple[str, ...] = STATUSES


def _addresses(db: Session, game: Game, power: str) -> set[str]:
    seats = db.scalars(select(Player).where(Player.game_id == game.id, Player.power == power.upper()))
    return {seat.email.lower() for seat in seats}


def _entries(db: Session, game: Game, wanted: MailFilter) -> list[MailEntry]:
    entries: list[MailEntry] = []
    if wanted.direction in ("", "in"):
        query = select(InboundMessage.id, InboundMessage.received_at, InboundMessage.sender, InboundMessage.subject,
                       InboundMessage.status).where(InboundMessage.game_id == game.id)
        if wanted.status:
            query = query.where(InboundMessage.status == wanted.status)
        entries += [MailEntry("in", i, at, sender, mask_passwords(subject), status, "mail")
                    for i, at, sender, subject, status in db.execute(query)]
    if wanted.direction in ("", "out"):
        query_out = select(OutboundMessage.id, OutboundMessage.created_at, OutboundMessage.recipients,
                           OutboundMessage.subject, OutboundMessage.status, OutboundMessage.kind
                           ).where(OutboundMessage.game_id == game.id)
        if wanted.status:
            query_out = query_out.where(OutboundMessage.status == wanted.status)
        entries += [MailEntry("out", i, at, ", ".join(to or ()), mask_passwords(subject), status, kind)
                    for i, at, to, subject, status, kind in db.execute(query_out)]
    if wanted.power:
        addresses = _addresses(db, game, wanted.power)
        entries = [e for e in entries if addresses & {a.strip().lower() for a in e.party.split(",")}]
    text = wanted.text.strip().lower()
    if text:
        entries = [e for e in entries if text in e.subject.lower() or text in e.party.lower()]
    entries.sort(key=lambda e: (e.at, e.direction == "out", e.id), reverse=True)
    return entries


def mail_log_page(judge: Judge, uow: UnitOfWork, actor: Actor, name: str, wanted: MailFilter) -> MailLogPage:
    """One page of a game's mail log, newest first, with the filter applied."""
    db = uow.session
    game = gm_game_named(uow, actor, name)
    book = PowerBook(judge.variant_data(game.variant))
    powers = tuple((p, book.name(p)) for p in book.ids)
    clean = MailFilter(text=wanted.text[:200], power=wanted.power.upper() if wanted.power.upper() in book.ids else "",
                       direction=wanted.direction if wanted.direction in DIRECTIONS else "",
                       status=wanted.status if wanted.status in STATUSES else "", page=wanted.page)
    entries = _entries(db, game, clean)
    quarantined = db.scalar(select(func.count()).select_from(InboundMessage).where(
        InboundMessage.game_id == game.id, InboundMessage.status == InboundStatus.QUARANTINED)) or 0
    pages = max(1, -(-len(entries) // MAIL_PAGE_SIZE))
    page = min(max(1, clean.page), pages)
    start = (page - 1) * MAIL_PAGE_SIZE
    return MailLogPage(tuple(entries[start:start + MAIL_PAGE_SIZE]), clean, len(entries), page, pages, powers,
                       quarantined=int(quarantined))


def held_mail(uow: UnitOfWork, actor: Actor) -> tuple[HeldMail, ...]:
    """The judgekeeper's list of the mails an answer budget held back (issue 29): nobody else's."""
    if actor.role != Role.KEEPER:
        raise DomainError("not_keeper", "only the judgekeeper sees the held mail")
    return tuple(replace(mail, subject=mask_passwords(mail.subject)) for mail in held_mails(uow))
