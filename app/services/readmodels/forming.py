"""A forming game as its GM sees it (issue 21.1): who has joined, with their preferences, the powers
the GM has assigned, and whether the game can start; a Days of Decision III game's rule 3.1
players with their powers and seats (issue 21.2).  The GM assigns a power to a joined player here;
the game starts through the same use case as the mail START (``lobby.start_game``), which keeps
the assignments and deals the other powers by preference, then at random."""

from __future__ import annotations

from dataclasses import dataclass

from app.db.models import Game, Player
from app.db.models_web import GmAccountGame
from app.db.statuses import GameStatus, SeatRole
from app.services.dod3.setup import GameCreated as Dod3Created
from app.services.dod3.setup import new_dod3_game
from app.services.dod3.store import is_dod3, seat_of, setup_of
from app.services.errors import DomainError
from app.services.kernel.access import book_of, gm_game, require_gm_role
from app.services.kernel.actor import Actor
from app.services.kernel.audit import audit
from app.services.kernel.context import Judge
from app.services.kernel.uow import UnitOfWork

__all__ = ["Dod3Group", "FormingView", "JoinedPlayer", "assign_power", "create_linked_dod3_game", "show_forming"]


@dataclass(frozen=True)
class JoinedPlayer:
    seat_id: int
    address: str
    preferences: tuple[str, ...]  # power names, first choice first
    power: str | None  # assigned by the GM (None: dealt at the start)
    power_name: str | None


@dataclass(frozen=True)
class Dod3Group:
    """One player of a DoD III rule 3.1 grouping: the powers he plays and who holds the seat."""

    player: str
    powers: tuple[str, ...]
    address: str | None


@dataclass(frozen=True)
class FormingView:
    seats: int  # players the game needs
    players: tuple[JoinedPlayer, ...]  # in joining order
    powers: tuple[tuple[str, str], ...]  # (id, name) of every power, for the assignment form
    dod3: tuple[Dod3Group, ...] = ()
    ready: bool = False  # every seat taken: START may run


def _joined(seats: list[Player], names: dict[str, str]) -> tuple[JoinedPlayer, ...]:
    return tuple(JoinedPlayer(s.id, s.email, tuple(names.get(p, p) for p in s.preferences.split(",") if p),
                              s.power, names.get(s.power) if s.power else None) for s in seats)


def show_forming(judge: Judge, uow: UnitOfWork, actor: Actor, game: Game) -> FormingView | None:
    """The forming game's players (None once it has started)."""
    gm_game(uow, actor)
    if game.status != GameStatus.FORMING:
        return None
    if is_dod3(game):
        setup = setup_of(game)
        groups = []
        for player, powers in setup.players:
            seat = seat_of(uow, game, powers[0])
            groups.append(Dod3Group(player, tuple(powers), seat.email if seat else None))
        return FormingView(len(groups), (), (), tuple(groups), all(g.address for g in groups))
    book = book_of(judge, game)
    names = {pid: book.name(pid) for pid in book.ids}
    seats = sorted((s for s in game.players if s.role == SeatRole.PLAYER), key=lambda s: s.id)
    return FormingView(len(book.ids), _joined(seats, names), tuple(names.items()),
                       ready=len(seats) == len(book.ids))


def assign_power(judge: Judge, uow: UnitOfWork, actor: Actor, seat_id: int, power: str) -> JoinedPlayer:
    """Give a joined player a power before the start (``""``: back to the deal at the start)."""
    db = uow.session
    game = gm_game(uow, actor)
    if game.status != GameStatus.FORMING or is_dod3(game):
        raise DomainError("not_forming", f"game '{game.name}' is not a forming game whose powers are dealt")
    seat = db.get(Player, seat_id)
    if seat is None or seat.game_id != game.id or seat.role != SeatRole.PLAYER:
        raise DomainError("no_player", f"game '{game.name}' has no such player")
    book = book_of(judge, game)
    pid = book.find(power) if power.strip() else None
    if power.strip() and pid is None:
        raise DomainError("unknown_power", f"no power called '{power}'")
    holder = next((s for s in game.players if s.role == SeatRole.PLAYER and s.power == pid and s.id != seat.id), None)
    if pid is not None and holder is not None:
        raise DomainError("power_taken", f"{book.name(pid)} is already assigned to {holder.email}")
    seat.power = pid
    audit(uow, actor, game, "assign_power", address=seat.email, power=pid)
    names = {p: book.name(p) for p in book.ids}
    return _joined([seat], names)[0]


def create_linked_dod3_game(judge: Judge, uow: UnitOfWork, actor: Actor, account_id: int, name: str, password: str,
                            grouping: str, soviets: str = "") -> Dod3Created:
    """``DOD3 CREATE name password PRESET grouping [SOVIETS side]`` for the signed-in GM, whose
    account is linked to the new game (issue 21.2): the players of the rule 3.1 grouping, to seat."""
    db = uow.session
    require_gm_role(actor)
    if not password.strip():
        raise DomainError("no_password", "give the game a master password")
    if grouping.strip() == "2" and not soviets.strip():
        raise DomainError("bad_setup", "the 2-player grouping needs the Soviets' side: fascists or democrats")
    game, created = new_dod3_game(judge, uow, Actor(actor.address), name, password.strip(), preset=grouping.strip(),
                                   soviet_with=soviets.strip() or None)
    db.add(GmAccountGame(account_id=account_id, game_id=game.id, linked_at=judge.now()))
    db.flush()
    return created
