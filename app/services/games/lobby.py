"""Games before play: create, join, observe, start, take over a vacant power."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from app.db import queries
from app.db.models import Game, Phase, Player
from app.db.statuses import GameStatus, PhaseStatus, SeatRole, SeatStatus
from app.dod3.variant import VARIANT as DOD3
from app.services.errors import DomainError
from app.services.kernel.access import book_of, find_game, gm_game
from app.services.kernel.actor import Actor
from app.services.kernel.audit import audit
from app.services.kernel.context import Judge
from app.services.kernel.game_names import check_game_name
from app.services.kernel.limits import check_observer_seat, take_create_quota
from app.services.kernel.render import format_deadline
from app.services.kernel.security import hash_password, new_token
from app.services.kernel.uow import UnitOfWork
from app.services.mailout.addresses import check_player_address
from app.services.mailout.notify import mail_master, mail_seat
from app.services.ruleset import engine as game_engine
from app.services.ruleset.options import DEFAULT_SETTINGS, check_settings, options_of
from app.services.ruleset.powers import PowerBook, full_stop
from app.services.ruleset.timing import next_deadline
from app.services.seats.takeover import TakeoverAsked, TookOver, request_or_take
from app.services.turns.snapshot import take_opening

__all__ = ["GameCreated", "GameStarted", "Joined", "TakeoverAsked", "TookOver", "assign_powers", "create_game", "join_game",
           "start_game", "takeover"]

@dataclass(frozen=True)
class GameCreated:
    game_id: int
    name: str
    variant: str


@dataclass(frozen=True)
class GameStarted:
    game_id: int
    name: str
    phase: str
    deadline: datetime | None
    timezone: str


@dataclass(frozen=True)
class Joined:
    game_id: int
    game_name: str
    seat_id: int
    observer: bool
    players: int = 0  # players joined so far, this one included
    seats: int = 0  # powers of the variant
    ignored: tuple[str, ...] = ()  # unknown words in the preferences
    started: GameStarted | None = None  # the last player to join starts the game


def create_game(judge: Judge, uow: UnitOfWork, actor: Actor, name: str, password: str, variant: str = "standard",
                settings: dict[str, Any] | None = None, press: str = "white", *, limited: bool = True) -> GameCreated:
    """A forming game with the actor as its master; ``limited``: counted against the address's daily
    quota (``limits``; the judgekeeper's command line is not)."""
    db = uow.session
    name = check_game_name(name)
    if queries.game_by_name(db, name) is not None:
        raise DomainError("game_exists", f"a game called '{name}' already exists")
    try:
        info = judge.variant_data(variant)
    except Exception as error:
        raise DomainError("unknown_variant", f"unknown variant '{variant}'") from error
    if not info:
        raise DomainError("unknown_variant", f"unknown variant '{variant}'")
    master = check_player_address(actor.address, judge.settings.judge_address)
    if limited:
        take_create_quota(judge, uow, master)
    merged = {**DEFAULT_SETTINGS, **(settings or {})}
    check_settings(merged)
    game = Game(name=name, variant=variant, status=GameStatus.FORMING, master_email=master,
                master_password_hash=hash_password(password), press=press, settings=merged)
    db.add(game)
    db.flush()
    audit(uow, actor, game, "create", variant=variant)
    return GameCreated(game.id, game.name, game.variant)


def _new_seat(judge: Judge, db: Session, actor: Actor, game: Game, password: str, *, role: str, preferences: str = "") -> Player:
    seat = Player(game_id=game.id, power=None, role=role, email=check_player_address(actor.address, judge.settings.judge_address),
                  password_hash=hash_password(password),
                  status=SeatStatus.ACTIVE, reply_token=new_token(), preferences=preferences)
    db.add(seat)
    game.players.append(seat)
    db.flush()
    return seat


def join_game(judge: Judge, uow: UnitOfWork, actor: Actor, game_name: str, password: str, *, power: str | None = None,
              preferences: str = "", observe: bool = False) -> Joined:
    """Join a forming game (``power`` first among the preferences), or observe any game."""
    db = uow.session
    game = find_game(uow, game_name)
    book = book_of(judge, game)
    if observe:
        check_observer_seat(judge, uow, game, actor.address)
        seat = _new_seat(judge, db, actor, game, password, role=SeatRole.OBSERVER)
        return Joined(game.id, game.name, seat.id, observer=True)
    if game.status != GameStatus.FORMING:
        raise DomainError("not_forming", f"game '{game.name}' is not forming; take over a vacant power instead",
                          game=game.name, takeover=True)
    if game.variant == DOD3:  # its players come from a rule 3.1 grouping: the GM seats them (DOD3 SEAT)
        raise DomainError("seated_by_gm", f"the players of the Days of Decision III game '{game.name}' are seated by "
                                          "its GM: ask the GM for a seat", game=game.name)
    if power is not None:
        wanted = book.find(power)
        if wanted is None:
            raise DomainError("unknown_power", f"no power called '{power}'")
        preferences = wanted + ("," + preferences if preferences else "")
    players = [s for s in game.players if s.role == SeatRole.PLAYER]
    if len(players) >= len(book.ids):
        raise DomainError("game_full", f"game '{game.name}' is full")
    if any(s.email == actor.address for s in players):
        raise DomainError("already_joined", f"you have already joined game '{game.name}'")
    prefs, unknown = book.parse_list(preferences)
    seat = _new_seat(judge, db, actor, game, password, role=SeatRole.PLAYER, preferences=",".join(prefs))
    started = None
    if len(players) + 1 == len(book.ids) and options_of(game).auto_start:
        started = _start(judge, uow, actor, game)
    return Joined(game.id, game.name, seat.id, False, len(players) + 1, len(book.ids), tuple(unknown), started)


def assign_powers(seats: list[Player], book: PowerBook, rng: random.Random) -> None:
    """The GM's assignments stand (the dashboard's forming list); then preferences, in joining
    order; everyone else at random."""
    free = [pid for pid in book.ids if all(s.power != pid for s in seats)]
    for seat in seats:
        if seat.power is not None:
            continue
        for pid in [p for p in seat.preferences.split(",") if p]:
            if pid in free:
                seat.power = pid
                free.remove(pid)
                break
    rng.shuffle(free)
    for seat in seats:
        if seat.power is None:
            seat.power = free.pop()


def start_game(judge: Judge, uow: UnitOfWork, actor: Actor) -> GameStarted:
    """The master starts the forming game once every power has a player."""
    return _start(judge, uow, actor, gm_game(uow, actor))


def _start(judge: Judge, uow: UnitOfWork, actor: Actor, game: Game) -> GameStarted:
    db = uow.session
    if game.status != GameStatus.FORMING:
        raise DomainError("already_started", f"game '{game.name}' has already started")
    book = book_of(judge, game)
    seats = [s for s in game.players if s.role == SeatRole.PLAYER]
    if len(seats) != len(book.ids):
        raise DomainError("not_enough_players", f"game '{game.name}' needs {len(book.ids)} players and has {len(seats)}")
    assign_powers(seats, book, random.Random())
    state = game_engine.initial_state(game.variant)
    now = judge.now()
    game.status = GameStatus.ACTIVE
    game.phase = state["phase"]
    game.deadline = next_deadline(options_of(game), game.phase, now)
    first = Phase(game_id=game.id, seq=1, code=game.phase, status=PhaseStatus.OPEN, state_before=state,
                  deadline=game.deadline)
    db.add(first)
    db.flush()
    take_opening(game, first)
    audit(uow, actor, game, "start", powers={s.power: s.email for s in seats})
    zone = options_of(game).timezone
    roster = "\n".join(f"  {book.name(s.power or ''):<10} {s.email}" for s in seats)
    for seat in seats:
        text = (f"Game '{game.name}' ({game.variant}) has started.\n\n"
                f"You are {full_stop(book.name(seat.power or ''))}  Sign on with\n\n"
                f"  SIGNON {book.letter(seat.power or '')}{game.name} <your password>\n\n"
                f"or simply reply to this mail: replies to {judge.settings.token_address(seat.reply_token)}\n"
                f"sign you on without a password.  Keep that address private.\n\n"
                f"The players:\n{roster}\n\n"
                f"The first phase is {game.phase}; the deadline for orders is {format_deadline(game.deadline, zone)}.\n")
        mail_seat(uow, judge, seat, f"Diplomacy game {game.name} has started", text, kind="start")
    mail_master(uow, judge, game, f"Diplomacy game {game.name} has started",
                f"Game '{game.name}' ({game.variant}), of which you are the master, has started.\n\n"
                f"The players:\n{roster}\n\n"
                f"The first phase is {game.phase}; the deadline for orders is {format_deadline(game.deadline, zone)}.\n"
                f"Sign on with SIGNON master@{game.name} <password> to manage it.\n", kind="notice")
    return GameStarted(game.id, game.name, game.phase, game.deadline, str(zone))


def takeover(judge: Judge, uow: UnitOfWork, actor: Actor, game_name: str, power: str,
             password: str) -> TookOver | TakeoverAsked:
    """Take a vacant power (resigned, ejected or abandoned), or ask the GM (``app/services/seats/takeover.py``)."""
    return request_or_take(judge, uow, actor, game_name, power, password)
