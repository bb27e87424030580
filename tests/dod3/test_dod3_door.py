"""The DoD III mail door: the actor of a mail, and refusals as reply lines."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from app.mail.commands.dod3_door import actor_of, refused
from app.mail.commands.registry import CommandError
from app.services.errors import DomainError
from app.services.kernel.actor import Actor, Role


@dataclass
class Seat:
    power: str | None
    role: str
    id: int = 7


@dataclass
class Game:
    id: int = 3


class Session:
    """The parts of a mail session the door reads (with or without ``actor()``)."""

    def __init__(self, seat: Seat | None, *, master: bool = False, actor: Actor | None = None) -> None:
        self.sender = "ann@example.com"
        self.game = Game()
        self.seat = seat
        self.master = master
        if actor is not None:
            self.actor = lambda: actor


CASES: list[tuple[Any, Actor]] = [
    (Session(Seat("RU", "dod3")), Actor("ann@example.com", Role.PLAYER, 3, "RU")),
    (Session(None, master=True), Actor("ann@example.com", Role.GM, 3, None)),
    # a session whose actor() knows only map-game seats: the DoD III seat's power is filled in
    (Session(Seat("RU", "dod3"), actor=Actor("ann@example.com", Role.PLAYER, 3, None)),
     Actor("ann@example.com", Role.PLAYER, 3, "RU")),
    (Session(Seat("RU", "dod3"), actor=Actor("ann@example.com", Role.PLAYER, 3, "GE")),
     Actor("ann@example.com", Role.PLAYER, 3, "GE")),
]


@pytest.mark.parametrize(("ctx", "expected"), CASES)
def test_actor_of_a_mail(ctx: Any, expected: Actor) -> None:
    assert actor_of(ctx) == expected


def test_a_refusal_becomes_the_mail_error() -> None:
    def refuse() -> None:
        raise DomainError("not_your_power", "you do not play Germany")

    with pytest.raises(CommandError, match="^you do not play Germany$"):
        refused(refuse)
    assert refused(lambda: 5) == 5
