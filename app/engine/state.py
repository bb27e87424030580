"""The position on the board between phases."""

from __future__ import annotations

from dataclasses import dataclass, field

from .orders import Unit
from .phases import Phase

NEUTRAL = "NEUTRAL"  # owner of standing neutral armies


@dataclass(frozen=True)
class Dislodged:
    power: str
    unit: Unit
    attacker_from: str | None  # province the dislodging unit came from
    retreats: tuple[str, ...]  # locations the unit may retreat to


@dataclass
class GameState:
    phase: Phase
    units: dict[str, tuple[str, Unit]]  # province -> (power, unit)
    centres: dict[str, str]  # supply centre province -> owning power
    dislodged: dict[str, Dislodged] = field(default_factory=dict)  # by province

    def units_of(self, power: str) -> list[Unit]:
        return [unit for owner, unit in self.units.values() if owner == power]

    def centres_of(self, power: str) -> list[str]:
        return [prov for prov, owner in self.centres.items() if owner == power]
