"""What anyone may look up: the games on this judge, one game's status, its results and its summary."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select

from app.db import queries
from app.db.models import Game
from app.db.statuses import LIVE_GAMES, GameStatus, SeatRole
from app.services.kernel.access import book_of, find_game
from app.services.kernel.actor import Actor
from app.services.kernel.context import Judge
from app.services.kernel.uow import UnitOfWork
from app.services.results.centres import projected_centres
from app.services.results.ending import ending_of, ending_text
from app.services.results.report import Names
from app.services.ruleset.kinds import ruleset_for
from app.services.ruleset.options import options_of
from app.services.ruleset.phases import PhaseName
from app.services.ruleset.stored import StoredState, stored_state

__all__ = ["GameInfo", "GameRow", "History", "SeatRow", "Summary", "game_history", "game_info", "game_summary",
           "list_games"]


@dataclass(frozen=True)
class GameRow:
    name: str
    variant: str
    status: str
    phase: str | None


@dataclass(frozen=True)
class SeatRow:
    label: str  # the power's name, or the seat's role (observer, or a player before the start)
    status: str
    email: str
    observer: bool = False  # an observer's seat: no power (LIST counts them apart, issue 28.21)


@dataclass(frozen=True)
class GameInfo:
    name: str
    variant: str
    status: str
    press: str  # the press rule, ``white (postal)`` when press is published with the results
    phase: str | None
    deadline: datetime | None  # in the grace period: the deadline that passed
    timezone: str
    seats: tuple[SeatRow, ...]
    grace_until: datetime | None = None  # the grace period runs until then


@dataclass(frozen=True)
class History:
    game_name: str
    results: tuple[str, ...]  # the results text of each phase asked for (then how the game ended)


@dataclass(frozen=True)
class Summary:
    game_name: str
    variant: str
    status: str
    powers: tuple[str, ...]  # power ids, in the variant's order
    centres: tuple[tuple[str, tuple[int, ...]], ...]  # (phase, supply centres per power)
    players: tuple[SeatRow, ...]  # label: the power's name, or "?"
    ending: str | None = None  # how a finished game ended, in the results' words (results/ending.py)


def list_games(judge: Judge, uow: UnitOfWork, actor: Actor) -> tuple[GameRow, ...]:
    """The games forming or in play, by name."""
    db = uow.session
    games = db.scalars(select(Game).where(Game.status.in_(LIVE_GAMES)).order_by(Game.name))
    return tuple(GameRow(g.name, g.variant, g.status, g.phase) for g in games)


def game_info(judge: Judge, uow: UnitOfWork, actor: Actor, name: str) -> GameInfo:
    game = find_game(uow, name)
    book = book_of(judge, game)
    seats = tuple(SeatRow(book.name(s.power) if s.power else s.role, s.status, s.email, s.role == SeatRole.OBSERVER)
                  for s in game.players)
    options = options_of(game)
    press = game.press + (" (postal)" if options.postal_press else "")
    deadline = game.deadline
    if game.grace_until is not None:
        phase = uow.open_phase_of(game)
        deadline = phase.deadline if phase is not None else None
    return GameInfo(game.name, game.variant, game.status, press, game.phase, deadline,
                    options.timezone, seats, game.grace_until)


def game_history(judge: Judge, uow: UnitOfWork, actor: Actor, name: str, start: str | None = None,
                 end: str | None = None) -> History:
    """The results of the processed phases from ``start`` to ``end`` (phase codes, both included)."""
    db = uow.session
    game = find_game(uow, name)
    chunks: list[str] = []
    active = start is None
    for phase in queries.phases_of(db, game.id):
        if start and phase.code.upper() == start.upper():
            active = True
        if active and phase.results_text:
            chunks.append(phase.results_text)
        if end and phase.code.upper() == end.upper():
            return History(game.name, tuple(chunks))
    ending = ending_of(game) if game.status == GameStatus.FINISHED else None
    if ending is not None and active:  # the end of the game closes its history
        chunks.append(ending_text(judge, game, ending))
    return History(game.name, tuple(chunks))


def game_summary(judge: Judge, uow: UnitOfWork, actor: Actor, name: str) -> Summary:
    """The centre counts after each processed phase (none in a game without a map: Days of Decision
    III), the players, and how the game ended. A Fall movement that retreats follow
    counts who stands on each centre after the moves, and its retreat phase has its own row
    (the ownership the Winter adjustments use)."""
    db = uow.session
    game = find_game(uow, name)
    book = book_of(judge, game)
    supply = Names(judge.variant_data(game.variant)).centres
    centres: list[tuple[str, tuple[int, ...]]] = []
    has_map = ruleset_for(game.variant).has_map
    for phase in queries.phases_of(db, game.id) if has_map else ():  # DoD III has no supply centres
        if not phase.state_after:
            continue
        after = stored_state(phase.state_after)
        held: Mapping[str, Sequence[str]] = after.centres if after is not None else {}
        if after is not None and _fall_before_retreats(phase.code, after):
            held = projected_centres(held, after.units, supply)
        centres.append((phase.code, tuple(len(held.get(p, ())) for p in book.ids)))
    players = tuple(SeatRow(book.name(s.power) if s.power else "?", s.status, s.email)
                    for s in game.players if s.role == SeatRole.PLAYER or (not has_map and s.power))
    ending = ending_of(game) if game.status == GameStatus.FINISHED else None
    return Summary(game.name, game.variant, game.status, tuple(book.ids) if has_map else (), tuple(centres), players,
                   ending_text(judge, game, ending, header=False) if ending is not None else None)


def _fall_before_retreats(code: str, state_after: StoredState) -> bool:
    name, following = PhaseName(code), PhaseName(state_after.phase)
    return name.kind == "movement" and name.season == "Fall" and following.kind == "retreat"
