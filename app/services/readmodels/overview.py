"""The overview of a GM's games (issue 28.9): each game at a glance, sorted by what needs the GM
today.

A game needs the GM today when something waits for them (an open contest, a takeover request,
quarantined mail), when its powers are late (the deadline passed and some powers sent nothing:
the game waits in its grace period, whose end is shown where the deadline was), when every power
missed the last deadline (a game nobody plays any more), or when its deadline falls within 24
hours.  Those games come first, the most pressing first (``today``: the reasons, in words); then
the other running games by their deadline, then forming games, then the games over.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import and_, func, or_, select

from app.db import queries
from app.db.models import Game, InboundMessage, Phase
from app.db.models_web import CoMaster, GmAccount, GmAccountGame
from app.db.statuses import RUNNING, GameStatus, InboundStatus, SeatRole, SeatStatus
from app.services.games.contests import open_contest_count
from app.services.kernel.access import book_of, require_gm_role
from app.services.kernel.actor import Actor, Role
from app.services.kernel.context import Judge
from app.services.kernel.uow import UnitOfWork
from app.services.orders.submit import seat_statuses
from app.services.seats.takeover import waiting_requests

__all__ = ["SOON", "Attention", "GameSummary", "game_summary", "list_games", "order_statuses"]

SOON = timedelta(hours=24)  # a deadline this close needs the GM today

# The order of the reasons, the most pressing first (a game's rank is its first reason's).
_TODAY = ("contested", "takeover", "quarantined_mail", "all_missed", "late", "due_soon")


@dataclass(frozen=True)
class Attention:
    code: str  # quarantined_mail | contested | takeover | all_missed | late | due_soon | absent | civil_disorder | paused
    text: str


@dataclass(frozen=True)
class GameSummary:
    name: str
    variant: str
    status: str
    phase: str | None
    deadline: datetime | None
    master: str
    not_ordered: tuple[str, ...]  # powers that owe orders and sent none
    incomplete: tuple[str, ...]  # powers that sent some orders but not all
    waiting: tuple[str, ...]  # powers that asked the judge to WAIT
    paused_reason: str | None
    attention: tuple[Attention, ...]
    grace_until: datetime | None = None  # the late powers' grace period ends (the deadline passed)
    today: tuple[str, ...] = ()  # why the game needs the GM today, most pressing first (empty: it does not)
    co_master: bool = False  # the GM reading it is a co-GM of the game


def order_statuses(uow: UnitOfWork, game: Game, phase: Phase | None) -> dict[str, Any]:
    """Power -> order status, for map games with an open phase (others have none to show)."""
    if phase is None or game.status not in RUNNING or "units" not in (phase.state_before or {}):
        return {}
    return {seat.power: status for seat, status in seat_statuses(uow, game, phase) if seat.power}


def _names(judge: Judge, game: Game, seats: list[Any]) -> list[str]:
    book = book_of(judge, game)
    return [book.name(s.power) if s.power else s.email for s in seats]


def _attention(judge: Judge, uow: UnitOfWork, game: Game, owing: list[str]) -> list[Attention]:
    db = uow.session
    flags: list[Attention] = []
    now = judge.now()
    quarantined = db.scalar(select(func.count()).select_from(InboundMessage).where(
        InboundMessage.game_id == game.id, InboundMessage.status == InboundStatus.QUARANTINED)) or 0
    if quarantined:
        flags.append(Attention("quarantined_mail", f"{quarantined} quarantined mail"))
    contested = open_contest_count(uow, game)
    if contested:
        flags.append(Attention("contested", f"{contested} contested phase{'s' if contested > 1 else ''}"))
    requests = waiting_requests(uow, game) if game.status in RUNNING else []
    if requests:
        flags.append(Attention("takeover", f"{len(requests)} takeover request{'s' if len(requests) > 1 else ''} "
                                           "to approve"))
    if game.status == GameStatus.PAUSED:
        flags.append(Attention("paused", f"paused: {game.paused_reason or 'by the GM'}"))
    seats = [s for s in game.players if s.role == SeatRole.PLAYER]
    playing = [s for s in seats if s.status not in (SeatStatus.ELIMINATED, SeatStatus.RESIGNED)]
    if game.status == GameStatus.ACTIVE and playing and all(s.missed_in_row >= 1 for s in playing):
        flags.append(Attention("all_missed", "every power missed the last deadline"))
    passed = game.grace_until is not None or (game.deadline is not None and game.deadline <= now)
    if game.status == GameStatus.ACTIVE and passed and owing:
        flags.append(Attention("late", "late: " + ", ".join(owing)))
    elif (game.status == GameStatus.ACTIVE and game.deadline is not None and now < game.deadline <= now + SOON):
        flags.append(Attention("due_soon", "deadline within 24 hours"
                                           + (f": no orders yet from {', '.join(owing)}" if owing else "")))
    absent = _names(judge, game, [s for s in seats if s.status == SeatStatus.ABSENT])
    if absent:
        flags.append(Attention("absent", "absent: " + ", ".join(absent)))
    disorder = _names(judge, game, [s for s in seats if s.status in (SeatStatus.CD, SeatStatus.DUMMY,
                                                                        SeatStatus.ABANDONED)])
    if disorder:
        flags.append(Attention("civil_disorder", "civil disorder: " + ", ".join(disorder)))
    return flags


def game_summary(judge: Judge, uow: UnitOfWork, game: Game, *, co_master: bool = False) -> GameSummary:
    db = uow.session
    phase = queries.open_phase(db, game.id)
    statuses = order_statuses(uow, game, phase)
    book = book_of(judge, game)
    owing = [(book.name(p), s) for p, s in statuses.items() if s.needs_orders and not s.complete]
    not_ordered = [name for name, s in owing if not s.submitted]
    incomplete = [name for name, s in owing if s.submitted]
    waiting = [book.name(s.power) for s in game.players if s.wait and s.power]
    attention = tuple(_attention(judge, uow, game, not_ordered + incomplete))
    today = tuple(a.text for code in _TODAY for a in attention if a.code == code)
    return GameSummary(
        name=game.name, variant=game.variant, status=game.status, phase=game.phase, deadline=game.deadline,
        master=game.master_email, not_ordered=tuple(not_ordered), incomplete=tuple(incomplete),
        waiting=tuple(waiting), paused_reason=game.paused_reason, attention=attention,
        grace_until=game.grace_until, today=today, co_master=co_master,
    )


_STATUS_ORDER: dict[str, int] = {GameStatus.ACTIVE: 0, GameStatus.PAUSED: 1, GameStatus.FORMING: 2}


def _rank(summary: GameSummary) -> tuple[Any, ...]:
    """Needing the GM today first (the most pressing reason first, then the earliest deadline), then the
    running games by deadline, forming games, the games over; by name within."""
    codes = [a.code for a in summary.attention]
    first = min((_TODAY.index(code) for code in codes if code in _TODAY), default=len(_TODAY))
    when = summary.grace_until or summary.deadline
    return (0 if summary.today else 1, first, _STATUS_ORDER.get(summary.status, 3),
            when is None, when or datetime.min, summary.name)


def list_games(judge: Judge, uow: UnitOfWork, actor: Actor, *, co_games: bool = False) -> tuple[GameSummary, ...]:
    """Every game of the judgekeeper; a GM's linked games that are still run from their address (and,
    with ``co_games``, for an account that proved its address, the games it is a co-GM of), sorted by
    what needs the GM today."""
    db = uow.session
    require_gm_role(actor)
    stmt = select(Game).order_by(Game.name)
    address = actor.address.lower()
    co: set[int] = set()
    if actor.role is not Role.KEEPER:
        linked = select(GmAccountGame.game_id).join(GmAccount, GmAccount.id == GmAccountGame.account_id).where(
            GmAccount.email == address)
        own = and_(Game.id.in_(linked), func.lower(Game.master_email) == address)
        if co_games:
            co = set(db.scalars(select(CoMaster.game_id).where(CoMaster.email == address)))
            own = or_(own, Game.id.in_(co))
        stmt = stmt.where(own)
    summaries = [game_summary(judge, uow, game, co_master=game.id in co and game.master_email.lower() != address)
                 for game in db.scalars(stmt)]
    return tuple(sorted(summaries, key=_rank))
