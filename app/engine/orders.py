"""Typed orders: small immutable values, never strings passed around.

A unit is named by its type (`"A"` army, `"F"` fleet) and location. Supports
and convoys name the supported or convoyed unit by its *province*, as the
rules do (a support to a coast is a support to the province).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union


@dataclass(frozen=True, slots=True)
class Unit:
    type: str  # "A" or "F"
    location: str

    def __str__(self) -> str:
        kind = self.type
        return f"{kind} {self.location}" if kind != ARMY_FLEET else f"A/F {self.location}"


ARMY_FLEET = "AF"  # an army aboard a fleet of its power (the Army/Fleet module)


@dataclass(frozen=True, slots=True)
class Hold:
    unit: Unit

    def __str__(self) -> str:
        return f"{self.unit} H"


@dataclass(frozen=True, slots=True)
class Move:
    unit: Unit
    target: str  # location, with a coast for a fleet into a multi-coast province
    via_convoy: bool = False

    def __str__(self) -> str:
        return f"{self.unit} - {self.target}" + (" VIA" if self.via_convoy else "")


@dataclass(frozen=True, slots=True)
class SupportHold:
    unit: Unit
    supported: str  # province of the supported unit

    def __str__(self) -> str:
        return f"{self.unit} S {self.supported}"


@dataclass(frozen=True, slots=True)
class SupportMove:
    unit: Unit
    supported: str  # province the supported unit moves from
    target: str  # location it moves to; a coast, when given, must match the move (DATC 6.B.9)

    def __str__(self) -> str:
        return f"{self.unit} S {self.supported} - {self.target}"


@dataclass(frozen=True, slots=True)
class Convoy:
    unit: Unit
    army: str  # province the convoyed army moves from
    target: str  # province it moves to

    def __str__(self) -> str:
        return f"{self.unit} C {self.army} - {self.target}"


@dataclass(frozen=True, slots=True)
class Board:
    """An army boards a fleet of its power at sea; together they become an A/F."""

    unit: Unit
    fleet: str  # province of the fleet

    def __str__(self) -> str:
        return f"{self.unit} BOARDS F {self.fleet}"


@dataclass(frozen=True, slots=True)
class Land:
    """An A/F puts its army ashore at `target`, after moving to the sea `via` if given."""

    unit: Unit
    target: str
    via: str | None = None

    def __str__(self) -> str:
        route = f" - {self.via}" if self.via else ""
        return f"{self.unit}{route} - {self.target}"


@dataclass(frozen=True, slots=True)
class Retreat:
    unit: Unit
    target: str

    def __str__(self) -> str:
        return f"{self.unit} R {self.target}"


@dataclass(frozen=True, slots=True)
class Disband:
    unit: Unit

    def __str__(self) -> str:
        return f"{self.unit} D"


@dataclass(frozen=True, slots=True)
class Build:
    unit: Unit

    def __str__(self) -> str:
        return f"BUILD {self.unit}"


@dataclass(frozen=True, slots=True)
class Remove:
    unit: Unit

    def __str__(self) -> str:
        return f"REMOVE {self.unit}"


@dataclass(frozen=True, slots=True)
class Waive:
    def __str__(self) -> str:
        return "WAIVE"


MovementOrder = Union[Hold, Move, SupportHold, SupportMove, Convoy, Board, Land]
RetreatOrder = Union[Retreat, Disband]
AdjustmentOrder = Union[Build, Remove, Waive]
Order = Union[MovementOrder, RetreatOrder, AdjustmentOrder]
