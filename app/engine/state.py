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
    af_moves: int = 0  # a dislodged A/F's moves at sea so far (rations)


@dataclass
class GameState:
    phase: Phase
    units: dict[str, tuple[str, Unit]]  # province -> (power, unit)
    centres: dict[str, str]  # supply centre province -> owning power
    dislodged: dict[str, Dislodged] = field(default_factory=dict)  # by province
    territories: dict[str, str] = field(default_factory=dict)  # tracked non-centre province -> owner
    retreated: frozenset[str] = frozenset()  # where units dislodged this year now stand
    af_moves: dict[str, int] = field(default_factory=dict)  # A/F province -> moves made at sea

    def evolve(self, **changes: object) -> GameState:
        """A copy with some fields replaced; the mappings are copied, never shared."""
        fields = {
            "phase": self.phase,
            "units": dict(self.units),
            "centres": dict(self.centres),
            "dislodged": dict(self.dislodged),
            "territories": dict(self.territories),
            "retreated": self.retreated,
            "af_moves": dict(self.af_moves),
        }
        fields.update(changes)
        return GameState(**fields)  # type: ignore[arg-type]

    def owner(self, province: str) -> str | None:
        return self.centres.get(province) or self.territories.get(province)

    def units_of(self, power: str) -> list[Unit]:
        return [unit for owner, unit in self.units.values() if owner == power]

    def unit_count(self, power: str) -> int:
        """Units for the supply count: an A/F is an army and a fleet."""
        return sum(2 if unit.type == "AF" else 1 for owner, unit in self.units.values() if owner == power)

    def centres_of(self, power: str) -> list[str]:
        return [prov for prov, owner in self.centres.items() if owner == power]
