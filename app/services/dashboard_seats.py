"""The players' standing flags for the GM (issue 21.16, part of 21.15): each power's WAIT flag, its
draw vote and concession, its absence, its missed deadlines and whether it is in civil disorder
or abandoned; and where the draw votes stand."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.orm import Session

from app.services.access import book_of
from app.services.actor import Actor
from app.services.context import Judge
from app.services.dashboard import gm_game_named

__all__ = ["SeatBoard", "SeatFlags", "seat_board"]


@dataclass(frozen=True)
class SeatFlags:
    power: str  # name
    player: str
    status: str  # active | absent | cd | abandoned | resigned | eliminated
    wait: bool
    draw: tuple[str, ...] | None  # the powers (names) of the draw voted for; None: no vote
    concede_to: str | None  # the power (name) conceded to
    absent_from: datetime | None
    absent_to: datetime | None
    misses: int  # deadlines missed in the game
    missed_in_row: int  # of them, the latest in a row


@dataclass(frozen=True)
class SeatBoard:
    seats: tuple[SeatFlags, ...]
    draw_votes: int  # seats voting for a draw
    voters: int  # surviving seats with a player (all must vote for the same draw)
    unanimous_draw: tuple[str, ...] | None  # the draw every vote is for, if all votes agree


def seat_board(judge: Judge, db: Session, actor: Actor, name: str) -> SeatBoard:
    game = gm_game_named(db, actor, name)
    book = book_of(judge, game)
    seats = [s for s in game.players if s.role == "player" and s.power]
    rows = []
    for seat in seats:
        draw = tuple(book.name(p) for p in seat.draw.split(",") if p) if seat.draw is not None else None
        rows.append(SeatFlags(book.name(seat.power or ""), seat.email, seat.status, seat.wait, draw,
                              book.name(seat.concede) if seat.concede else None, seat.absence_from,
                              seat.absence_to, seat.misses, seat.missed_in_row))
    voters = [s for s in seats if s.status not in ("eliminated", "cd", "abandoned", "resigned")]
    votes = {s.draw for s in voters if s.draw is not None}
    agreed = None
    if len(votes) == 1:
        agreed = tuple(book.name(p) for p in (next(iter(votes)) or "").split(",") if p)
    return SeatBoard(tuple(rows), sum(1 for s in voters if s.draw is not None), len(voters), agreed)
