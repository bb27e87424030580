"""Who asks a use case for something: an address, a role, and the game and power it acts for."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

__all__ = ["Actor", "Role"]


class Role(str, Enum):
    ANYONE = "anyone"  # not signed on to a game (JOIN, CREATE, LIST …)
    PLAYER = "player"
    OBSERVER = "observer"
    GM = "gm"  # the game's master
    KEEPER = "keeper"  # the judgekeeper: every game


@dataclass(frozen=True)
class Actor:
    """Established by a door (mail sign-on, web sign-in); use cases trust it and check the role."""

    address: str
    role: Role = Role.ANYONE
    game_id: int | None = None
    power: str | None = None  # the power a player (or a GM who BECOMEs one) acts for
    seat_id: int | None = None  # the seat (player or observer) it signed on as, if any
    co_master: bool = False  # a co-GM of the game (``games.co_masters``), not its master of record
    proven: bool = False  # its address proved its mailbox (a reply address, a seat's password, a dashboard sign-in)

    def owns(self, address: str) -> bool:
        """Whether ``address`` is the actor's own, proven address: a seat pointed at it needs no confirmation."""
        return self.proven and address.strip().lower() == self.address.strip().lower()

    @property
    def is_gm(self) -> bool:
        return self.role in (Role.GM, Role.KEEPER)
