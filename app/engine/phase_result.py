"""What adjudicating one phase gives: every order's result, the next position, and what
stays secret or comes to light."""

from __future__ import annotations

from dataclasses import dataclass, field

from .orders import Unit
from .outcomes import OrderResult
from .phases import Phase
from .state import Dislodged, GameState


@dataclass(frozen=True)
class HiddenBuild:
    """A build whose site stays secret until a later phase (Zeus 5 rule 4: the USA's New
    York unit may stand in New York or California). Others see `public` ("F NYK/CAL")
    instead of the unit until the results of `reveal_after` are published."""

    power: str
    unit: Unit
    public: str
    reveal_after: str


@dataclass(frozen=True)
class RevealedStart:
    """A starting unit whose coast or type was secret (Small World 6.1/6.2), as its
    power's orders of this phase revealed it."""

    power: str
    unit: Unit


@dataclass
class PhaseResult:
    phase: Phase
    results: list[OrderResult]
    state: GameState  # the position after this phase, at the next phase
    winner: str | None = None
    removed: list[tuple[str, Unit]] = field(default_factory=list)  # units destroyed this phase
    hidden_builds: tuple[HiddenBuild, ...] = ()
    revealed: tuple[RevealedStart, ...] = ()
    # Dislodged units with no retreat, destroyed at once (no retreat phase for them alone).
    destroyed: tuple[Dislodged, ...] = ()
