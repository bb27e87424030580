"""Use cases for the command line (a newcomer's game, benchmarks), in the caller's unit of work."""

from __future__ import annotations

from dataclasses import dataclass

from app.services.games.lobby import GameCreated, GameStarted, Joined, create_game, join_game, start_game
from app.services.kernel.actor import Actor, Role
from app.services.kernel.context import Judge
from app.services.kernel.uow import UnitOfWork
from app.services.ruleset.engine import DEFAULT_VARIANT

__all__ = ["GameSetUp", "SeatSpec", "create_game_direct"]


@dataclass(frozen=True)
class SeatSpec:
    email: str
    password: str
    power: str = ""


@dataclass(frozen=True)
class GameSetUp:
    created: GameCreated
    joined: tuple[Joined, ...]
    started: GameStarted | None


def create_game_direct(judge: Judge, uow: UnitOfWork, name: str, master: str, password: str, *,
                       variant: str = DEFAULT_VARIANT, settings: dict[str, object] | None = None, press: str = "white",
                       seats: list[SeatSpec] | None = None, start: bool = True) -> GameSetUp:
    """Create a game (optionally with its players, then start it with the master's authority), in
    the caller's unit of work.  Such a game never starts itself when its seats fill (``start``
    decides), whatever ``settings`` say: the CLI passes every option, ``auto_start`` included."""
    options = dict(settings or {})
    options["auto_start"] = False
    created = create_game(judge, uow, Actor(master.lower()), name, password, variant, options, press,
                          limited=False)
    joined = tuple(join_game(judge, uow, Actor(seat.email.lower()), created.name, seat.password,
                             power=seat.power or None) for seat in seats or [])
    started = None
    if start and seats:
        started = start_game(judge, uow, Actor(master.lower(), Role.GM, created.game_id))
    return GameSetUp(created, joined, started)
