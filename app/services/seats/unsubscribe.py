"""A mail to a seat's one-time address (``judge+u-<token>@``, its mails' ``List-Unsubscribe``;
``app.services.mailout.leaving``) stops that seat's mail: an observer seat, or a player's seat in a
game not started, is left at once (as ``RESIGN`` leaves it).  A power in a game under way is not
given up on a click: the seat stays, and the answer says to ``RESIGN`` or ask the game master.  The
address is the proof (as a personal reply address is): who sent the mail does not matter."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from sqlalchemy import select

from app.db.models import Game, Player
from app.db.statuses import SeatRole
from app.services.kernel.access import book_of
from app.services.kernel.context import Judge
from app.services.kernel.uow import UnitOfWork
from app.services.mailout.leaving import LEAVE_PREFIX, seat_kind
from app.services.mailout.notify import LISTENING

__all__ = ["Unsubscribed", "UnsubscribeOutcome", "leave_by_token"]


class UnsubscribeOutcome(StrEnum):
    LEFT = "left"  # an observer, or a player before the start: the seat is gone
    PLAYING = "playing"  # a power in a game under way: nothing changed (RESIGN, or ask the GM)
    OVER = "over"  # the game is over: no more of its mail comes
    UNKNOWN = "unknown"  # no seat mailed has this address (used already, never made, or the player left)


@dataclass(frozen=True)
class Unsubscribed:
    outcome: UnsubscribeOutcome
    address: str = ""  # the seat's address (its answer goes there, not to the sender)
    game: str = ""
    game_id: int | None = None
    kind: str = ""  # ``over``, ``observer``, ``forming`` or ``player`` (``mailout.leaving.seat_kind``)
    power_name: str | None = None
    master: str = ""  # the game master's address


def leave_by_token(judge: Judge, uow: UnitOfWork, token: str) -> Unsubscribed:
    """Stop the mail of the seat whose one-time token is ``token`` (``u-`` prefix or not)."""
    token = token.removeprefix(LEAVE_PREFIX)
    db = uow.session
    seat = db.scalar(select(Player).where(Player.leave_token == token).with_for_update()) if token else None
    if seat is None or (seat.role == SeatRole.PLAYER and seat.status not in LISTENING):
        return Unsubscribed(UnsubscribeOutcome.UNKNOWN)  # (a resigned or replaced player gets no mail already)
    game: Game = seat.game
    kind = "observer" if seat.role == SeatRole.OBSERVER else seat_kind(seat, game)
    name = book_of(judge, game).name(seat.power) if seat.power and seat.role == SeatRole.PLAYER else None
    told = Unsubscribed(UnsubscribeOutcome.LEFT, seat.email, game.name, game.id, kind, name, game.master_email or "")
    if kind in ("observer", "forming"):
        game.players.remove(seat)
        db.delete(seat)
        return told
    over = kind == "over"  # a player's seat stays with the game's record
    return Unsubscribed(UnsubscribeOutcome.OVER if over else UnsubscribeOutcome.PLAYING, seat.email, game.name,
                        game.id, kind, name, game.master_email or "")
