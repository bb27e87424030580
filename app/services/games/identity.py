"""Who is speaking: sign on as a power, the master or an observer; by a personal reply token; BECOME."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select

from app.db import queries
from app.db.models import Game, Player
from app.db.models_web import GmAccount
from app.db.statuses import SeatRole, SeatStatus
from app.services.errors import DomainError
from app.services.games import lockout
from app.services.games.co_masters import is_co_master
from app.services.kernel.access import actor_seat, book_of, find_game, gm_game
from app.services.kernel.actor import Actor, Role
from app.services.kernel.context import Judge
from app.services.kernel.security import new_token, verify_password
from app.services.kernel.uow import UnitOfWork

__all__ = ["SEATED", "Became", "SignOn", "SignOnTarget", "TokenRenewed", "become", "record_address", "renew_token",
           "revoke_token", "seat_sign_on", "sign_on", "sign_on_by_token"]

SEATED = (SeatStatus.ACTIVE, SeatStatus.ABSENT, SeatStatus.CD)
"""The statuses of a seat whose personal reply address signs it on (not resigned, abandoned or eliminated)."""

_MASTER = "MASTER"
_OBSERVER = "OBSERVER"


@dataclass(frozen=True)
class SignOnTarget:
    """Whom to sign on as: the master, an observer, a power by name, or a power by its letter."""

    game: str
    power: str | None = None  # a name players write: "france", "fra"
    letter: str | None = None  # "F"; "M" and "O" mean the master and an observer where no power has them
    master: bool = False
    observer: bool = False


@dataclass(frozen=True)
class SignOn:
    game_id: int
    game_name: str
    role: Role
    seat_id: int | None = None
    power: str | None = None
    power_name: str | None = None
    record_address: str | None = None  # the address of record, told whenever someone signs on as it
    co_master: bool = False  # a co-GM signed on as a GM of the game (with its own account's password)


@dataclass(frozen=True)
class Became:
    power: str
    power_name: str
    record_address: str | None


def _resolve(judge: Judge, uow: UnitOfWork, target: SignOnTarget) -> tuple[Game, str]:
    """The game and ``MASTER``, ``OBSERVER`` or a power id."""
    game = find_game(uow, target.game)
    book = book_of(judge, game)
    if target.master:
        return game, _MASTER
    if target.observer:
        return game, _OBSERVER
    if target.power is not None:
        pid = book.find(target.power)
        if pid is None:
            raise DomainError("unknown_power", f"no power called '{target.power}' in game '{game.name}'")
        return game, pid
    letter = (target.letter or "").upper()
    if letter == "M":
        return game, book.by_letter("M") or _MASTER
    if letter == "O" and book.by_letter("O") is None:
        return game, _OBSERVER
    pid = book.by_letter(letter)
    if pid is None:
        raise DomainError("unknown_letter", f"no power with the letter '{letter}' in game '{game.name}'")
    return game, pid


def sign_on(judge: Judge, uow: UnitOfWork, actor: Actor, target: SignOnTarget, password: str) -> SignOn:
    """Check the password of the master, an observer (by the actor's address) or a power.

    A seat with too many failed password sign-ons refuses them for a while from every address, its
    registered one included: a ``From`` line proves nothing (``lockout``).  Its personal reply
    address (``sign_on_by_token``) still signs it on."""
    db = uow.session
    game, who = _resolve(judge, uow, target)
    if who == _OBSERVER:
        seat = next((s for s in game.players if s.role == SeatRole.OBSERVER and s.email == actor.address), None)
        if seat is None or not verify_password(seat.password_hash, password):
            raise DomainError("no_observer", f"no observer with that address and password in '{game.name}'")
        return SignOn(game.id, game.name, Role.OBSERVER, seat_id=seat.id)
    if who == _MASTER:
        label, registered, password_hash = "the master", game.master_email, game.master_password_hash
        player = None
    else:
        label = book_of(judge, game).name(who)
        player = queries.seat_for_power(db, game.id, who)
        if player is None:
            raise DomainError("no_player", f"{label} has no player in game '{game.name}'")
        registered, password_hash = player.email, player.password_hash
    lockout.check_not_locked(judge, uow, game, who, label)
    right = verify_password(password_hash, password)
    if not right and player is None and _co_master_password(uow, game, actor, password):
        return SignOn(game.id, game.name, Role.GM, record_address=actor.address, co_master=True)
    if not right:
        lockout.record_failure(judge, uow, game, who, label, actor.address, registered)
        if player is None:
            raise DomainError("wrong_password", f"wrong master password for game '{game.name}'")
        raise DomainError("wrong_password", f"wrong password for {label} in game '{game.name}'")
    if player is None:
        return SignOn(game.id, game.name, Role.GM, record_address=game.master_email)
    if player.status in (SeatStatus.RESIGNED, SeatStatus.ABANDONED):
        raise DomainError("vacant", f"{label} is vacant: take it over instead", power=label)
    return SignOn(game.id, game.name, Role.PLAYER, player.id, who, label, player.email)


def _co_master_password(uow: UnitOfWork, game: Game, actor: Actor, password: str) -> bool:
    """A co-GM signs on as a GM of the game with its own dashboard account's password, once that
    account has proven the address by a mailed code (as on the dashboard): the sender's address
    names the account, the password proves it (a ``From`` line alone proves nothing)."""
    address = actor.address.strip().lower()
    if not address or not is_co_master(uow, game, address):
        return False
    account = uow.session.scalar(select(GmAccount).where(GmAccount.email == address))
    if account is None or account.proven_at is None or not account.password_hash:
        return False
    return verify_password(account.password_hash, password)


def record_address(judge: Judge, uow: UnitOfWork, target: SignOnTarget) -> str | None:
    """The address of record of a master or power (told of a wrong password); None for the rest."""
    db = uow.session
    try:
        game, who = _resolve(judge, uow, target)
    except DomainError:
        return None
    if who == _MASTER:
        return game.master_email
    if who == _OBSERVER:
        return None
    seat = queries.seat_for_power(db, game.id, who)
    return seat.email if seat is not None else None


def sign_on_by_token(judge: Judge, uow: UnitOfWork, token: str) -> SignOn | None:
    """A personal reply address signs its seat on without a password."""
    db = uow.session
    seat = queries.player_by_token(db, token)
    if seat is None or (seat.role == SeatRole.PLAYER and seat.status not in SEATED):
        return None  # a resigned, ejected or replaced player's address no longer signs on
    game = db.get_one(Game, seat.game_id)
    return _seat_sign_on(judge, game, seat)


def seat_sign_on(judge: Judge, uow: UnitOfWork, seat_id: int) -> SignOn:
    """The sign-on of a seat just created or taken over by the actor."""
    db = uow.session
    seat = db.get_one(Player, seat_id)
    return _seat_sign_on(judge, db.get_one(Game, seat.game_id), seat)


def _seat_sign_on(judge: Judge, game: Game, seat: Player) -> SignOn:
    if seat.role == SeatRole.OBSERVER:
        return SignOn(game.id, game.name, Role.OBSERVER, seat_id=seat.id, record_address=seat.email)
    name = book_of(judge, game).name(seat.power) if seat.power else None
    return SignOn(game.id, game.name, Role.PLAYER, seat.id, seat.power, name, seat.email)


def become(judge: Judge, uow: UnitOfWork, actor: Actor, power: str) -> Became:
    """The master acts as a power (its player of record is told)."""
    db = uow.session
    game = gm_game(uow, actor)
    book = book_of(judge, game)
    pid = book.find(power)
    if pid is None:
        raise DomainError("unknown_power", f"no power called '{power}'")
    seat = queries.seat_for_power(db, game.id, pid)
    return Became(pid, book.name(pid), seat.email if seat is not None else None)


def revoke_token(seat: Player) -> None:
    """The seat's personal reply address stops signing anyone on; it gets a new one."""
    seat.reply_token = new_token()


@dataclass(frozen=True)
class TokenRenewed:
    reply_address: str


def renew_token(judge: Judge, uow: UnitOfWork, actor: Actor) -> TokenRenewed:
    """A new personal reply address for the actor's seat; the old one no longer signs on."""
    seat = actor_seat(uow, actor)
    revoke_token(seat)
    return TokenRenewed(judge.settings.token_address(seat.reply_token))
