"""The players' standing flags for the GM (issue 21.16, 21.15): each power's WAIT flag, its draw
vote and concession, its absence, its missed deadlines and reliability, whether it is in civil
disorder, abandoned or vacant; where the draw votes stand; the takeover requests waiting for the
GM's approval (approved with ``gm.replace``, which gives the requester the password they chose)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from app.db import queries
from app.db.statuses import SeatRole
from app.services.kernel.access import book_of
from app.services.kernel.actor import Actor
from app.services.kernel.context import Judge
from app.services.kernel.uow import UnitOfWork
from app.services.readmodels.dashboard import gm_game_named
from app.services.ruleset.options import options_of
from app.services.seats.absence import spoken_absence
from app.services.seats.takeover import is_vacant, waiting_requests
from app.services.seats.votes import DIAS, draw_of, survivors, voters

__all__ = ["SeatBoard", "SeatFlags", "TakeoverRequest", "seat_board"]


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
    absence: str | None  # as the mail says it: the end at 23:59 of the last day, in the game's zone
    misses: int  # deadlines missed in the game
    missed_in_row: int  # of them, the latest in a row
    vacant: bool  # open for takeover (resigned, ejected, or abandoned)
    phases: int  # the deadlines that fell in the game (phases processed at their deadline)
    reliability: int | None  # per cent of those the power met (None: no deadline fell yet)


@dataclass(frozen=True)
class TakeoverRequest:
    power_id: str
    power: str  # name
    address: str
    asked_at: datetime


@dataclass(frozen=True)
class SeatBoard:
    seats: tuple[SeatFlags, ...]
    draw_votes: int  # seats voting for a draw
    voters: int  # surviving seats with a player (all must vote for the same draw)
    unanimous_draw: tuple[str, ...] | None  # the draw every vote is for, if all votes agree
    requests: tuple[TakeoverRequest, ...] = ()  # waiting for the GM, oldest first


def seat_board(judge: Judge, uow: UnitOfWork, actor: Actor, name: str) -> SeatBoard:
    db = uow.session
    game = gm_game_named(uow, actor, name)
    book = book_of(judge, game)
    seats = [s for s in game.players if s.role == SeatRole.PLAYER and s.power]
    options = options_of(game)
    # The deadlines that fell: phases processed at (or after) their deadline, not early nor by the GM's
    # PROCESS (the rule of a missed deadline, ``turn_store``); a new player starts with no misses.
    fell = sum(1 for p in queries.phases_of(db, game.id)
               if p.processed_at is not None and (p.deadline is None or p.processed_at >= p.deadline))
    rows = []
    for seat in seats:
        draw = (None if seat.draw is None else () if seat.draw == DIAS  # DIAS: "every survivor"
                else tuple(book.name(p) for p in seat.draw.split(",") if p))
        phases = max(fell, seat.misses)
        reliability = round(100 * (phases - seat.misses) / phases) if phases else None
        rows.append(SeatFlags(book.name(seat.power or ""), seat.email, seat.status, seat.wait, draw,
                              book.name(seat.concede) if seat.concede else None, seat.absence_from,
                              seat.absence_to, spoken_absence(seat, options.timezone), seat.misses, seat.missed_in_row,
                              is_vacant(seat, options), phases, reliability))
    voting = voters(game)  # the surviving powers with a player at the board (seats/votes.py)
    alive = sorted(s.power for s in survivors(game) if s.power)
    votes = {draw_of(s.draw, alive) for s in voting if s.draw is not None}
    agreed = None
    if len(votes) == 1:
        agreed = tuple(book.name(p) for p in book.ids if p in (next(iter(votes)) or ()))
    return SeatBoard(tuple(rows), sum(1 for s in voting if s.draw is not None), len(voting), agreed,
                     tuple(TakeoverRequest(power, book.name(power), address, at)
                           for power, address, at in waiting_requests(uow, game)))
