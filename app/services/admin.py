"""Use cases for the command line (a newcomer's game, benchmarks): each one transaction."""

from __future__ import annotations

from dataclasses import dataclass

from app.mail.session import MailSession
from app.services.context import Judge
from app.services.lobby import create_game, join_game, start_game

__all__ = ["SeatSpec", "create_game_direct"]


@dataclass(frozen=True)
class SeatSpec:
    email: str
    password: str
    power: str = ""


def create_game_direct(judge: Judge, name: str, master: str, password: str, *, variant: str = "standard",
                       settings: dict[str, object] | None = None, press: str = "white",
                       seats: list[SeatSpec] | None = None, start: bool = True) -> list[str]:
    """Create a game (optionally with its players, then start it); returns the notes for the user."""
    with judge.sessions.begin() as db:
        ctx = MailSession(judge, db, sender=master, subject="", message_id="")
        options = dict(settings or {})
        options.setdefault("auto_start", False)
        game = create_game(ctx, name, password, variant, options, press)
        for seat in seats or []:
            ctx.sender = seat.email.lower()
            target = f"{seat.power}@{game.name}" if seat.power else game.name
            join_game(ctx, target, seat.password)
        if start and seats:
            start_game(ctx, game)
        return [note for item in ctx.echoes for note in item.notes]
