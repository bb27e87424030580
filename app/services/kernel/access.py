"""What most use cases check first: the game named, the actor's game, seat and role.

One check for "the GM of this game" (``require_gm``, ``gm_game``; ``is_gm_of`` where a GM only
sees more), for its master and its co-GMs alike (the door that signs a co-GM in says so:
``Actor.co_master``; ``require_master`` keeps the GMs' own business to the master), one refusal
for it: code ``not_gm``, "only the game master of 'NAME' may do that"
(``require_gm_role``, before there is a game: "only a game master may do that").  The doors
answer ``not_gm`` alike: a mail's ``Error:`` line, the web's 403 on a read.  Codes that stay
apart say something else: ``not_signed_on`` (a mail signed on to no game: there is no game to be
the GM of yet), ``not_a_player`` / ``not_a_power`` (a seat, not the GM, is what is missing),
``not_keeper`` (the judgekeeper's own powers), ``cannot_link`` (linking a game to a GM account:
there is no such game run from that address, on purpose one answer for both)."""

from __future__ import annotations

from app.db import queries
from app.db.models import Game, Player
from app.db.statuses import SeatRole
from app.services.errors import DomainError
from app.services.kernel.actor import Actor, Role
from app.services.kernel.context import Judge
from app.services.kernel.uow import UnitOfWork
from app.services.ruleset.powers import PowerBook

__all__ = ["actor_game", "actor_seat", "book_of", "find_game", "gm_game", "is_gm_of", "not_gm", "power_seat", "require_gm",
           "require_gm_role", "require_master"]


def find_game(uow: UnitOfWork, name: str) -> Game:
    db = uow.session
    game = queries.game_by_name(db, name.strip())
    if game is None:
        raise DomainError("no_game", f"there is no game called '{name.strip()}'")
    return game


def book_of(judge: Judge, game: Game) -> PowerBook:
    return PowerBook(judge.variant_data(game.variant))


def actor_game(uow: UnitOfWork, actor: Actor) -> Game:
    """The game the actor signed on to."""
    db = uow.session
    game = db.get(Game, actor.game_id) if actor.game_id is not None else None
    if game is None:
        raise DomainError("not_signed_on", "sign on to a game first")
    return game


def not_gm(game_name: str) -> DomainError:
    """The refusal of everything only the GM of game ``game_name`` may do (every door's 'not yours')."""
    return DomainError("not_gm", f"only the game master of '{game_name}' may do that")


def is_gm_of(actor: Actor, game: Game) -> bool:
    """Whether the actor is the game's master (or the judgekeeper, the master of every game)."""
    return actor.role == Role.KEEPER or (actor.role == Role.GM and actor.game_id == game.id)


def require_gm(actor: Actor, game: Game) -> None:
    """Only the game's master (or the judgekeeper) may go on."""
    if not is_gm_of(actor, game):
        raise not_gm(game.name)


def require_master(actor: Actor, game: Game) -> None:
    """Only the game's master of record (or the judgekeeper), not a co-GM: who runs the game's GMs
    (adding or removing a co-GM, handing the game over).  Refused as ``not_master``."""
    require_gm(actor, game)
    if actor.co_master:
        raise DomainError("not_master", f"only the master of '{game.name}' may do that, not a co-GM",
                          game=game.name)


def require_gm_role(actor: Actor) -> None:
    """A game master of some game (or the judgekeeper), before there is a game to be the GM of:
    creating a game from the dashboard, reading what was mailed to an address."""
    if actor.role not in (Role.GM, Role.KEEPER):
        raise DomainError("not_gm", "only a game master may do that")


def gm_game(uow: UnitOfWork, actor: Actor) -> Game:
    """The game the actor signed on to, if it is its master (or the judgekeeper)."""
    game = actor_game(uow, actor)
    require_gm(actor, game)
    return game


def actor_seat(uow: UnitOfWork, actor: Actor) -> Player:
    """The seat (player or observer) the actor signed on as."""
    db = uow.session
    seat = db.get(Player, actor.seat_id) if actor.seat_id is not None else None
    if seat is None or actor.role not in (Role.PLAYER, Role.OBSERVER):
        raise DomainError("not_a_player", "sign on as a player first")
    return seat


def power_seat(uow: UnitOfWork, actor: Actor) -> Player:
    """The seat of a power (not an observer, not a player of a game not yet started)."""
    seat = actor_seat(uow, actor)
    if seat.role != SeatRole.PLAYER or not seat.power:
        raise DomainError("not_a_power", "only a power can do that")
    return seat

