"""A player's own settings: WAIT, DRAW, CONCEDE, ABSENCE, PASSWORD, ADDRESS, RESIGN."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy.orm import Session

from app.db import queries
from app.db.models import Game, Player
from app.db.statuses import GameStatus, SeatRole, SeatStatus
from app.services.errors import DomainError
from app.services.kernel.access import actor_game, actor_seat, book_of, power_seat
from app.services.kernel.actor import Actor
from app.services.kernel.audit import audit
from app.services.kernel.context import Judge
from app.services.kernel.render import format_deadline
from app.services.kernel.security import hash_password, new_token
from app.services.kernel.uow import OrdersChanged, record
from app.services.mailout.addresses import check_player_address
from app.services.mailout.notify import mail_game, mail_master
from app.services.ruleset.options import options_of
from app.services.ruleset.powers import full_stop
from app.services.ruleset.timing import parse_when
from app.services.seats.absence import check_absence_cap, clear_of_absences, granted_days, inclusive_end, record_absence
from app.services.seats.takeover import announce_vacancy

__all__ = ["AbsenceSet", "AddressChanged", "Concession", "DrawVote", "Resigned", "check_standing_draw", "resign",
           "set_absence", "set_address", "set_concede", "set_draw", "set_password", "set_wait"]

MAX_ABSENCE_DAYS = 14
MIN_PASSWORD = 8


@dataclass(frozen=True)
class DrawVote:
    powers: tuple[str, ...]  # empty: the vote was withdrawn
    power_names: tuple[str, ...]
    game_over: bool = False


@dataclass(frozen=True)
class Concession:
    power: str | None  # None: the concession was withdrawn
    power_name: str | None
    game_over: bool = False


@dataclass(frozen=True)
class AbsenceSet:
    start: datetime
    end: datetime
    timezone: str
    deadline_moved: bool


@dataclass(frozen=True)
class AddressChanged:
    address: str


@dataclass(frozen=True)
class Resigned:
    left: bool  # an observer, or a player before the start: the seat is gone
    power_name: str | None


def set_wait(judge: Judge, db: Session, actor: Actor, wait: bool) -> bool:
    """WAIT: no early processing of this phase for the actor's power; returns the setting."""
    seat = power_seat(db, actor)
    seat.wait = wait
    record(db, OrdersChanged(seat.game_id))
    return wait


def _surviving(game: Game) -> list[Player]:
    return [s for s in game.players if s.role == SeatRole.PLAYER and s.power and s.status != SeatStatus.ELIMINATED]


def set_draw(judge: Judge, db: Session, actor: Actor, powers: str | None) -> DrawVote:
    """Vote for a draw among ``powers`` (a list of power names; empty: every survivor); None withdraws."""
    seat = power_seat(db, actor)
    game = actor_game(db, actor)
    if powers is None:
        seat.draw = None
        return DrawVote((), ())
    book = book_of(judge, game)
    listed, unknown = book.parse_list(powers)
    if unknown:
        raise DomainError("unknown_powers", f"unknown powers: {', '.join(unknown)}")
    alive = sorted(s.power for s in _surviving(game) if s.power)
    wanted = sorted(listed) if listed else alive
    seat.draw = ",".join(wanted)
    names = tuple(book.name(p) for p in wanted)
    over = _declare_agreed_draw(judge, db, game, actor.address)
    return DrawVote(tuple(wanted), names, game_over=over)


def _declare_agreed_draw(judge: Judge, db: Session, game: Game, by: str) -> bool:
    """Every surviving power with a player voted for the same draw: the game ends in it."""
    votes = {s.draw for s in _surviving(game) if s.status not in (SeatStatus.CD, SeatStatus.DUMMY, SeatStatus.ABANDONED)}
    if len(votes) != 1 or None in votes:
        return False
    wanted = sorted(p for p in (votes.pop() or "").split(",") if p)
    book = book_of(judge, game)
    names = [book.name(p) for p in wanted]
    game.status, game.deadline = GameStatus.FINISHED, None
    listed_text = ", ".join(names[:-1]) + f", and {names[-1]}" if len(names) > 2 else " and ".join(names)
    audit(db, by, game, "draw", at=judge.now(), powers=wanted)
    mail_game(db, judge, game, f"Diplomacy game {game.name} is over",
              f"Game '{game.name}' has been declared a draw between {full_stop(listed_text)}\n"
              f"Congratulations on a well-played game.\n", kind="end")
    return True


def check_standing_draw(judge: Judge, db: Session, game: Game) -> bool:
    """After a processed phase: the votes stand until withdrawn (njudge, DPjudge; issue 22.4), so a
    draw the survivors all voted for (one of them eliminated, or gone to civil disorder) ends the game."""
    if game.status != GameStatus.ACTIVE:
        return False
    return _declare_agreed_draw(judge, db, game, "judge")


def set_concede(judge: Judge, db: Session, actor: Actor, power: str | None) -> Concession:
    """Concede the game to ``power`` (a power's name); None withdraws the concession."""
    seat = power_seat(db, actor)
    game = actor_game(db, actor)
    book = book_of(judge, game)
    if power is None:
        seat.concede = None
        return Concession(None, None)
    pid = book.find(power)
    if pid is None:
        raise DomainError("unknown_power", f"no power called '{power}'")
    seat.concede = pid
    others = [s for s in _surviving(game) if s.power != pid and s.status not in (SeatStatus.CD, SeatStatus.DUMMY, SeatStatus.ABANDONED)]
    if not (others and all(s.concede == pid for s in others)):
        return Concession(pid, book.name(pid))
    game.status, game.deadline = GameStatus.FINISHED, None
    audit(db, actor, game, "concede", power=pid)
    mail_game(db, judge, game, f"Diplomacy game {game.name} is over",
              f"Game '{game.name}' has been conceded to {full_stop(book.name(pid))}  Congratulations!\n", kind="end")
    return Concession(pid, book.name(pid), game_over=True)


def set_absence(judge: Judge, db: Session, actor: Actor, start: str, end: str) -> AbsenceSet:
    """An absence from ``start`` to ``end`` (dates or times in the game's zone, ``+48h``; no start: now;
    an end date without a time takes in that whole day); the deadline, if inside it, moves after it
    (and so does every deadline the judge sets later: ``absence.clear_of_absences``)."""
    seat = power_seat(db, actor)
    game = actor_game(db, actor)
    zone = options_of(game).timezone
    now = judge.now()
    begins = parse_when(start.strip(), now, zone) if start.strip() else now
    ends = parse_when(end.strip(), now, zone) if end.strip() else None
    if ends is not None:
        ends = inclusive_end(end, ends)
    if begins is None or ends is None or ends <= begins:
        raise DomainError("bad_absence", "say when the absence starts and ends, like 2026-12-01 to 2026-12-07")
    if ends - begins > timedelta(days=MAX_ABSENCE_DAYS + granted_days(game, seat.power)) and not actor.is_gm:
        raise DomainError("absence_too_long", f"absences are at most {MAX_ABSENCE_DAYS} days")
    if not actor.is_gm:
        check_absence_cap(judge, db, game, seat, begins, ends)
    record_absence(judge, db, actor, game, seat, begins, ends)
    seat.absence_from, seat.absence_to = begins, ends
    db.flush()
    moved = False
    if game.deadline is not None and game.grace_until is None:
        deadline = clear_of_absences(db, game, game.deadline)
        moved = deadline != game.deadline
        if moved:
            game.deadline = deadline
            phase = queries.open_phase(db, game.id)
            if phase is not None and (phase.deadline is None or phase.deadline < deadline):
                phase.deadline = deadline
            mail_game(db, judge, game, f"Diplomacy deadline changed {game.name}",
                      f"Because of an absence, the deadline for {game.phase} is now "
                      f"{format_deadline(game.deadline, zone)}.\n")
    return AbsenceSet(begins, ends, zone, moved)


def set_password(judge: Judge, db: Session, actor: Actor, password: str) -> bool:
    """The actor's own password (the master's, signed on as the master).  A seat's personal reply
    address changes with it (the old one no longer signs on); returns whether it did."""
    if len(password.split()) != 1 or len(password) < MIN_PASSWORD:
        raise DomainError("bad_password", f"a password is one word of at least {MIN_PASSWORD} characters")
    if actor.is_gm and actor.seat_id is None:
        actor_game(db, actor).master_password_hash = hash_password(password)
        return False
    seat = actor_seat(db, actor)
    seat.password_hash = hash_password(password)
    seat.reply_token = new_token()
    return True


def set_address(judge: Judge, db: Session, actor: Actor, address: str) -> AddressChanged:
    """Where the judge writes to the actor (empty: the actor's own address); refused when the judge
    cannot write to it."""
    address = check_player_address(address.strip() or actor.address, judge.settings.judge_address)
    if actor.is_gm and actor.seat_id is None:
        actor_game(db, actor).master_email = address
    else:
        actor_seat(db, actor).email = address
    return AddressChanged(address)


def resign(judge: Judge, db: Session, actor: Actor) -> Resigned:
    """Leave the game: an observer or a player before the start goes; a power is opened for TAKEOVER."""
    seat = actor_seat(db, actor)
    game = actor_game(db, actor)
    if seat.role == SeatRole.OBSERVER or game.status == GameStatus.FORMING:
        game.players.remove(seat)
        db.delete(seat)
        return Resigned(True, None)
    seat.status = SeatStatus.RESIGNED
    seat.reply_token = new_token()  # its personal reply address no longer signs anyone on
    name = book_of(judge, game).name(seat.power or "")
    mail_master(db, judge, game, f"Diplomacy player resigned {game.name}",
                f"{name} ({seat.email}) has resigned from '{game.name}'.  The power is open for TAKEOVER,\n"
                f"or REPLACE it.\n")
    announce_vacancy(db, judge, game, seat, name, "has lost its player, who resigned", master=False)
    return Resigned(False, name)
