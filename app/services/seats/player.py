"""A player's own settings: WAIT, ABSENCE, PASSWORD, ADDRESS, RESIGN (DRAW and CONCEDE: ``votes.py``)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from app.db import queries
from app.db.statuses import GameStatus, SeatRole, SeatStatus
from app.services.errors import DomainError
from app.services.kernel.access import actor_game, actor_seat, book_of, power_seat, require_master
from app.services.kernel.actor import Actor
from app.services.kernel.context import Judge
from app.services.kernel.render import format_deadline
from app.services.kernel.security import hash_password, new_token
from app.services.kernel.uow import OrdersChanged, UnitOfWork
from app.services.mailout.address_confirmation import ask_address_confirmation
from app.services.mailout.addresses import check_player_address
from app.services.mailout.notify import mail_game, mail_master
from app.services.ruleset.options import options_of
from app.services.ruleset.timing import parse_when
from app.services.seats.absence import check_absence_cap, clear_of_absences, granted_days, inclusive_end, record_absence
from app.services.seats.takeover import announce_vacancy

__all__ = ["AbsenceSet", "AddressChanged", "Resigned", "resign", "set_absence", "set_address", "set_password",
           "set_wait"]

MAX_ABSENCE_DAYS = 14
MIN_PASSWORD = 8


@dataclass(frozen=True)
class AbsenceSet:
    start: datetime
    end: datetime
    timezone: str
    deadline_moved: bool


@dataclass(frozen=True)
class AddressChanged:
    address: str
    pending: bool = False  # the new address was mailed a confirmation: nothing changed yet


@dataclass(frozen=True)
class Resigned:
    left: bool  # an observer, or a player before the start: the seat is gone
    power_name: str | None


def set_wait(judge: Judge, uow: UnitOfWork, actor: Actor, wait: bool) -> bool:
    """WAIT: no early processing of this phase for the actor's power; returns the setting."""
    seat = power_seat(uow, actor)
    seat.wait = wait
    uow.record(OrdersChanged(seat.game_id))
    return wait


def set_absence(judge: Judge, uow: UnitOfWork, actor: Actor, start: str, end: str) -> AbsenceSet:
    """An absence from ``start`` to ``end`` (dates or times in the game's zone, ``+48h``; no start: now;
    an end date without a time takes in that whole day); the deadline, if inside it, moves after it
    (and so does every deadline the judge sets later: ``absence.clear_of_absences``)."""
    db = uow.session
    seat = power_seat(uow, actor)
    game = actor_game(uow, actor)
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
        check_absence_cap(judge, uow, game, seat, begins, ends)
    record_absence(judge, uow, actor, game, seat, begins, ends)
    seat.absence_from, seat.absence_to = begins, ends
    db.flush()
    moved = False
    if game.deadline is not None and game.grace_until is None:
        deadline = clear_of_absences(uow, game, game.deadline)
        moved = deadline != game.deadline
        if moved:
            game.deadline = deadline
            phase = queries.open_phase(db, game.id)
            if phase is not None and (phase.deadline is None or phase.deadline < deadline):
                phase.deadline = deadline
            mail_game(uow, judge, game, f"Diplomacy deadline changed {game.name}",
                      f"Because of an absence, the deadline for {game.phase} is now "
                      f"{format_deadline(game.deadline, zone)}.\n")
    return AbsenceSet(begins, ends, zone, moved)


def set_password(judge: Judge, uow: UnitOfWork, actor: Actor, password: str) -> bool:
    """The actor's own password (the master's, signed on as the master).  A seat's personal reply
    address changes with it (the old one no longer signs on); returns whether it did."""
    if len(password.split()) != 1 or len(password) < MIN_PASSWORD:
        raise DomainError("bad_password", f"a password is one word of at least {MIN_PASSWORD} characters")
    if actor.is_gm and actor.seat_id is None:
        game = actor_game(uow, actor)
        require_master(actor, game)  # a co-GM's password is its own dashboard account's
        game.master_password_hash = hash_password(password)
        return False
    seat = actor_seat(uow, actor)
    seat.password_hash = hash_password(password)
    seat.reply_token = new_token()
    return True


def set_address(judge: Judge, uow: UnitOfWork, actor: Actor, address: str) -> AddressChanged:
    """Where the judge writes to the actor (empty: the actor's own address); refused when the judge
    cannot write to it."""
    address = check_player_address(address.strip() or actor.address, judge.settings.judge_address)
    game = actor_game(uow, actor)
    if actor.is_gm and actor.seat_id is None:
        require_master(actor, game)  # the master of record's address, not a co-GM's
        if (game.master_email or "").lower() == address or actor.owns(address):
            game.master_email = address
            return AddressChanged(address)
        ask_address_confirmation(judge, uow, asked_by=actor.address, address=address, what="master_address",
                                 game=game)
        return AddressChanged(address, pending=True)
    seat = actor_seat(uow, actor)
    if seat.email.lower() == address or actor.owns(address):
        seat.email = address
        return AddressChanged(address)
    ask_address_confirmation(judge, uow, asked_by=actor.address, address=address, what="set_address", game=game,
                             player_id=seat.id)  # the seat keeps its address until the new one confirms (issue 29)
    return AddressChanged(address, pending=True)


def resign(judge: Judge, uow: UnitOfWork, actor: Actor) -> Resigned:
    """Leave the game: an observer or a player before the start goes; a power is opened for TAKEOVER."""
    db = uow.session
    seat = actor_seat(uow, actor)
    game = actor_game(uow, actor)
    if seat.role == SeatRole.OBSERVER or game.status == GameStatus.FORMING:
        game.players.remove(seat)
        db.delete(seat)
        return Resigned(True, None)
    seat.status = SeatStatus.RESIGNED
    seat.reply_token = new_token()  # its personal reply address no longer signs anyone on
    name = book_of(judge, game).name(seat.power or "")
    mail_master(uow, judge, game, f"Diplomacy player resigned {game.name}",
                f"{name} ({seat.email}) has resigned from '{game.name}'.  The power is open for TAKEOVER,\n"
                f"or REPLACE it.\n")
    announce_vacancy(uow, judge, game, seat, name, "has lost its player, who resigned", master=False)
    return Resigned(False, name)
