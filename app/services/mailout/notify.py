"""Mails that follow from state changes, written to the outbox in the caller's transaction."""

from __future__ import annotations

from typing import Any

from app.db import queries
from app.db.models import Game, Player
from app.db.statuses import SeatRole, SeatStatus
from app.services.kernel.context import Judge
from app.services.kernel.uow import UnitOfWork
from app.services.mailout.leaving import leave_address, seat_kind, with_stop_note
from app.services.mailout.outbox import enqueue, enqueue_all

__all__ = ["mail_game", "mail_master", "mail_seat"]

LISTENING = (SeatStatus.ACTIVE, SeatStatus.ABSENT, SeatStatus.CD, SeatStatus.ELIMINATED)


def mail_seat(uow: UnitOfWork, judge: Judge, seat: Player, subject: str, text: str, *,
              html: str | None = None, kind: str = "notice", map_id: int | None = None) -> None:
    """One mail to a seat: its personal reply address, the note saying how to stop the game's mail
    and the seat's one-time address for ``List-Unsubscribe`` (``mailout.leaving``)."""
    text, html = with_stop_note(judge, seat.game, seat_kind(seat, seat.game), text, html)
    enqueue(uow, judge, to=seat.email, subject=subject, text=text, html=html, kind=kind,
            game_id=seat.game_id, reply_to=judge.settings.token_address(seat.reply_token), map_id=map_id,
            unsubscribe=leave_address(judge, seat))


def gm_addresses(uow: UnitOfWork, game: Game) -> list[str]:
    """Where the GM's mail of a game goes (``queries.gm_addresses``), read once a unit of work: a
    turn mails the GMs its results and may mail them a notice too."""
    if game.id not in uow.gm_mail:
        if uow.has_none("co_masters", game.id):  # no co-GMs when the turn locked the game
            uow.gm_mail[game.id] = [game.master_email] if game.master_email else []
        else:
            uow.gm_mail[game.id] = queries.gm_addresses(uow.session, game)
    return uow.gm_mail[game.id]


def mail_master(uow: UnitOfWork, judge: Judge, game: Game, subject: str, text: str, *, kind: str = "gm",
                html: str | None = None, map_id: int | None = None) -> None:
    """To the game master of record and its proven co-GMs (``queries.gm_addresses``)."""
    enqueue_all(uow, judge, [{"to": to, "subject": subject, "text": text, "html": html, "kind": kind,
                              "game_id": game.id, "reply_to": None, "map_id": map_id}
                             for to in gm_addresses(uow, game)])


def mail_game(uow: UnitOfWork, judge: Judge, game: Game, subject: str, text: str, *, html: str | None = None,
              kind: str = "broadcast", master: bool = True, observers: bool = True, map_id: int | None = None,
              skip: Player | None = None) -> int:
    """One mail per seat (each with its personal reply address), plus the master and its proven
    co-GMs (``queries.gm_addresses``); ``map_id``: the
    stored map every one of them carries; ``skip``: a seat told otherwise.  Queued in one statement.
    Each seat's mail ends with how to stop it and carries its one-time address (``mail_seat``)."""
    mails: list[dict[str, Any]] = []
    noted: dict[str, tuple[str, str | None]] = {}  # the text for each kind of seat, made once
    for seat in game.players:
        if seat is skip or (seat.status not in LISTENING and seat.role == SeatRole.PLAYER):
            continue
        if seat.role == SeatRole.OBSERVER and not observers:
            continue
        seat_of = seat_kind(seat, game)
        if seat_of not in noted:
            noted[seat_of] = with_stop_note(judge, game, seat_of, text, html)
        seat_text, seat_html = noted[seat_of]
        mails.append({"to": seat.email, "subject": subject, "text": seat_text, "html": seat_html, "kind": kind,
                      "game_id": seat.game_id, "reply_to": judge.settings.token_address(seat.reply_token),
                      "map_id": map_id, "unsubscribe": leave_address(judge, seat)})
    if master:
        mails.extend({"to": to, "subject": subject, "text": text, "html": None, "kind": kind,
                      "game_id": game.id, "reply_to": None, "map_id": map_id}
                     for to in gm_addresses(uow, game))
    return enqueue_all(uow, judge, mails)
