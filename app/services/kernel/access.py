"""What most use cases check first: the game named, the actor's game, seat and role; the audit row."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from app.db import queries
from app.db.models import AuditEntry, Game, Player
from app.services.errors import DomainError
from app.services.kernel.actor import Actor, Role
from app.services.kernel.context import Judge
from app.services.ruleset.powers import PowerBook

__all__ = ["actor_game", "actor_seat", "audit", "book_of", "find_game", "gm_game", "power_seat"]


def find_game(db: Session, name: str) -> Game:
    game = queries.game_by_name(db, name.strip())
    if game is None:
        raise DomainError("no_game", f"there is no game called '{name.strip()}'")
    return game


def book_of(judge: Judge, game: Game) -> PowerBook:
    return PowerBook(judge.variant_data(game.variant))


def actor_game(db: Session, actor: Actor) -> Game:
    """The game the actor signed on to."""
    game = db.get(Game, actor.game_id) if actor.game_id is not None else None
    if game is None:
        raise DomainError("not_signed_on", "sign on to a game first (SIGNON <power letter><game> <password>)")
    return game


def gm_game(db: Session, actor: Actor) -> Game:
    """The game of an actor who is its master (or the judgekeeper)."""
    game = actor_game(db, actor)
    if not actor.is_gm:
        raise DomainError("not_gm", "only the game master may do that (sign on as master@game)")
    return game


def actor_seat(db: Session, actor: Actor) -> Player:
    """The seat (player or observer) the actor signed on as."""
    seat = db.get(Player, actor.seat_id) if actor.seat_id is not None else None
    if seat is None or actor.role not in (Role.PLAYER, Role.OBSERVER):
        raise DomainError("not_a_player", "sign on as a player first")
    return seat


def power_seat(db: Session, actor: Actor) -> Player:
    """The seat of a power (not an observer, not a player of a game not yet started)."""
    seat = actor_seat(db, actor)
    if seat.role != "player" or not seat.power:
        raise DomainError("not_a_power", "only a power can do that")
    return seat


def audit(db: Session, actor: Actor, game: Game | None, action: str, **detail: Any) -> None:
    db.add(AuditEntry(game_id=game.id if game else None, actor=actor.address, action=action, detail=detail))
