"""Step one of a turn: from the stored phase and orders to the engine's result.  Reads, never writes.

``adjudicate_position`` is the pure core (a stored position and orders in, the result and the
next position out); the override replays later phases with it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from app.db import queries
from app.db.models import Game, Phase
from app.engine.adjudicate import PhaseResult
from app.engine.variant import Variant
from app.services import game_engine
from app.services.errors import DomainError
from app.services.orders import phase_variant_state, seat_statuses

__all__ = ["Adjudicated", "Adjudication", "ProcessError", "PhaseOrders", "adjudicate_open_phase", "adjudicate_phase", "adjudicate_position",
           "collect_orders"]


@dataclass(frozen=True)
class PhaseOrders:
    received: dict[str, list[str]]  # per power, as written
    parsed: dict[str, list[str]]  # per power, as the judge understood them: what is adjudicated


@dataclass(frozen=True)
class Adjudicated:
    """The engine's result of one phase, with the stored forms of the result and the next position."""

    result: PhaseResult
    results: dict[str, Any]  # the stored shape of ``phases.results``
    state_after: dict[str, Any]  # the stored shape of the next phase's ``state_before``

    @property
    def winner(self) -> str | None:
        return self.result.winner

    @property
    def next_phase(self) -> str | None:
        return None if self.result.winner else str(self.state_after.get("phase") or "") or None


@dataclass(frozen=True)
class Adjudication:
    """A whole turn adjudicated: the open phase, its orders, the result, who sent no orders."""

    phase_code: str
    orders: PhaseOrders
    outcome: Adjudicated
    nmr: tuple[str, ...]


class ProcessError(DomainError):
    """The turn could not be processed (stale phase, lost race, nothing open)."""

    def __init__(self, message: str, code: str = "not_processed") -> None:
        super().__init__(code, message)


def adjudicate_position(variant: Variant, state_before: Mapping[str, Any],
                        orders: Mapping[str, Sequence[str]]) -> Adjudicated:
    """Pure: a stored position and the accepted orders in, the result and the next position out."""
    state = game_engine.state_of(variant, state_before)
    result = game_engine.adjudicate(variant, state, orders)
    return Adjudicated(result=result, results=game_engine.result_json(variant, result), state_after=game_engine.state_json(variant, result.state))


def collect_orders(db: Session, game: Game, phase: Phase) -> PhaseOrders:
    """The stored orders; orders given in advance and not yet read are checked now (the last for
    each unit that has no checked order counts; illegal ones are left out)."""
    received: dict[str, list[str]] = {}
    parsed: dict[str, list[str]] = {}
    unchecked: dict[str, list[str]] = {}
    ordered: dict[str, set[str]] = {}
    for row in queries.orders_for(db, game.id, phase.code):
        received.setdefault(row.power, []).append(row.line)
        if row.checked and row.order:
            parsed.setdefault(row.power, []).append(row.order)
            ordered.setdefault(row.power, set()).add(row.unit.upper())
        elif not row.checked:
            unchecked.setdefault(row.power, []).append(row.line)
    if unchecked:
        variant, state = phase_variant_state(game, phase)
        for power, lines in unchecked.items():
            latest: dict[str, str] = {}
            for index, check in enumerate(game_engine.check_orders(variant, state, power, lines)):
                unit = (check.unit or "").upper()
                if check.ok and check.order and unit not in ordered.get(power, set()):
                    latest[unit or f"#{index}"] = check.order
            parsed.setdefault(power, []).extend(latest.values())
    return PhaseOrders(received=received, parsed=parsed)


def _nmr_powers(db: Session, game: Game, phase: Phase, parsed: Mapping[str, list[str]]) -> tuple[str, ...]:
    return tuple(seat.power for seat, status in seat_statuses(db, game, phase)
                 if seat.power and status.needs_orders and not parsed.get(seat.power))


def adjudicate_phase(db: Session, game: Game, phase: Phase) -> Adjudication:
    """Adjudicate ``phase`` of ``game`` from its stored orders, with the game's rule options."""
    orders = collect_orders(db, game, phase)
    variant = game_engine.game_variant(game.variant, game_engine.game_rules(game.settings))
    outcome = adjudicate_position(variant, phase.state_before, orders.parsed)
    return Adjudication(phase_code=phase.code, orders=orders, outcome=outcome,
                        nmr=_nmr_powers(db, game, phase, orders.parsed))


def adjudicate_open_phase(db: Session, game: Game) -> tuple[Phase, Adjudication]:
    """The open phase of ``game`` and its adjudication; nothing is written."""
    phase = queries.open_phase(db, game.id)
    if phase is None:
        raise ProcessError(f"game '{game.name}' has no open phase", "no_open_phase")
    return phase, adjudicate_phase(db, game, phase)
