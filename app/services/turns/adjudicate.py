"""Step one of a turn: from the stored phase and orders to the engine's result.  Reads, never writes.

``adjudicate_position`` is the pure core (a stored position and orders in, the result and the
next position out); the override replays later phases with it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import bindparam, select

from app.db.models import Game, OrderRow, Phase
from app.db.statuses import PhaseStatus
from app.services.kernel.outcome import ProcessError
from app.services.kernel.uow import UnitOfWork
from app.services.orders.submit import phase_variant_state, seat_statuses
from app.services.ruleset import engine as game_engine
from app.services.ruleset.engine import OrderInput, PhaseResult, Variant
from app.services.ruleset.stored import StoredResult, StoredState, stored_result, stored_state

__all__ = ["Adjudicated", "Adjudication", "ProcessError", "orders_as_json", "orders_as_text", "phase_orders", "stored_order", "PhaseOrders", "adjudicate_open_phase", "adjudicate_phase", "adjudicate_position",
           "collect_orders"]


def orders_as_text(orders: Mapping[str, Sequence[OrderInput]]) -> dict[str, list[str]]:
    """The stored text form of read orders (``phases.orders_parsed``)."""
    return {power: [str(order) for order in items] for power, items in orders.items()}


def orders_as_json(orders: Mapping[str, Sequence[OrderInput]]) -> dict[str, Any] | None:
    """The codec's order JSON of read orders (``phases.orders_typed``); None when some order
    was stored before orders were kept read (then the text form is what there is)."""
    if any(isinstance(order, str) for items in orders.values() for order in items):
        return None
    return {power: [game_engine.order_json(o) for o in items if not isinstance(o, str)]
            for power, items in orders.items()}


def phase_orders(phase: Phase) -> dict[str, list[OrderInput]]:
    """The orders a processed phase was adjudicated with: read, or their text for older phases."""
    if phase.orders_typed is not None:
        return {power: list(items) for power, items in game_engine.orders_from_json(phase.orders_typed).items()}
    return {power: [str(order) for order in items] for power, items in (phase.orders_parsed or {}).items()}


@dataclass(frozen=True)
class PhaseOrders:
    received: dict[str, list[str]]  # per power, as written
    orders: dict[str, list[OrderInput]]  # per power, as read on arrival: what is adjudicated
    rows: tuple[OrderRow, ...] = ()  # the stored rows they come from
    # The orders given in advance for later phases, read in the same statement (in the order they
    # were given; None: not read): the turn keeps them (phase_snapshot.take_advance_orders).
    later: tuple[OrderRow, ...] | None = None


@dataclass(frozen=True)
class Adjudicated:
    """The engine's result of one phase, with the stored forms of the result and the next position
    (what is written) and the same read back as the use cases read a stored phase."""

    result: PhaseResult
    results: dict[str, Any]  # the stored shape of ``phases.results``
    state_after: dict[str, Any]  # the stored shape of the next phase's ``state_before``
    typed_results: StoredResult  # ``results`` read
    typed_after: StoredState  # ``state_after`` read

    @property
    def winner(self) -> str | None:
        return self.result.winner

    @property
    def next_phase(self) -> str | None:
        return None if self.result.winner else self.typed_after.phase or None


@dataclass(frozen=True)
class Adjudication:
    """A whole turn adjudicated: the open phase, its orders, the result, who sent no orders."""

    phase_code: str
    orders: PhaseOrders
    outcome: Adjudicated
    nmr: tuple[str, ...]


def adjudicate_position(variant: Variant, state_before: Mapping[str, Any],
                        orders: Mapping[str, Sequence[OrderInput]]) -> Adjudicated:
    """Pure: a stored position and the accepted orders in, the result and the next position out."""
    state = game_engine.state_of(variant, state_before)
    result = game_engine.adjudicate(variant, state, orders)
    results, state_after = game_engine.result_json(variant, result), game_engine.state_json(variant, result.state)
    return Adjudicated(result=result, results=results, state_after=state_after, typed_results=stored_result(results),
                       typed_after=stored_state(state_after))


def stored_order(row: OrderRow) -> OrderInput | None:
    """An accepted order as read on arrival (a row stored before orders were kept read: its text)."""
    if row.order_json:
        return game_engine.order_from_json(row.order_json)
    return row.order


# One statement for a phase's orders and those given in advance for later phases (not the
# history: the orders of the phases processed before it); built once.
_LIVE_ORDERS = (select(OrderRow)
                .where(OrderRow.game_id == bindparam("game_id"),
                       OrderRow.phase.not_in(select(Phase.code).where(Phase.game_id == bindparam("game_id"),
                                                                      Phase.status == PhaseStatus.PROCESSED,
                                                                      Phase.seq < bindparam("seq"))))
                .order_by(OrderRow.power, OrderRow.id))


def collect_orders(uow: UnitOfWork, game: Game, phase: Phase) -> PhaseOrders:
    """The stored orders; orders given in advance and not yet read are checked now (the last for
    each unit that has no checked order counts; illegal ones are left out)."""
    db = uow.session
    received: dict[str, list[str]] = {}
    orders: dict[str, list[OrderInput]] = {}
    unchecked: dict[str, list[str]] = {}
    ordered: dict[str, set[str]] = {}
    live = list(db.scalars(_LIVE_ORDERS, {"game_id": game.id, "seq": phase.seq}))
    rows = [row for row in live if row.phase == phase.code]
    later = tuple(sorted((row for row in live if row.phase != phase.code), key=lambda row: row.id))
    for row in rows:
        received.setdefault(row.power, []).append(row.line)
        order = stored_order(row) if row.checked else None
        if order is not None:
            orders.setdefault(row.power, []).append(order)
            ordered.setdefault(row.power, set()).add(row.unit.upper())
        elif not row.checked:
            unchecked.setdefault(row.power, []).append(row.line)
    if unchecked:
        variant, state = phase_variant_state(game, phase)
        for power, lines in unchecked.items():
            latest: dict[str, OrderInput] = {}
            for index, check in enumerate(game_engine.check_orders(variant, state, power, lines)):
                unit = str(check.unit).upper() if check.unit is not None else ""
                if check.order is not None and unit not in ordered.get(power, set()):
                    latest[unit or f"#{index}"] = check.order
            orders.setdefault(power, []).extend(latest.values())
    return PhaseOrders(received=received, orders=orders, rows=tuple(rows), later=later)


def _nmr_powers(uow: UnitOfWork, game: Game, phase: Phase, orders: PhaseOrders) -> tuple[str, ...]:
    return tuple(seat.power for seat, status in seat_statuses(uow, game, phase, orders.rows)
                 if seat.power and status.needs_orders and not orders.orders.get(seat.power))


def adjudicate_phase(uow: UnitOfWork, game: Game, phase: Phase) -> Adjudication:
    """Adjudicate ``phase`` of ``game`` from its stored orders, with the game's rule options."""
    orders = collect_orders(uow, game, phase)
    variant = game_engine.game_variant(game.variant, game_engine.game_rules(game.settings))
    outcome = adjudicate_position(variant, phase.state_before, orders.orders)
    return Adjudication(phase_code=phase.code, orders=orders, outcome=outcome,
                        nmr=_nmr_powers(uow, game, phase, orders))


def adjudicate_open_phase(uow: UnitOfWork, game: Game) -> tuple[Phase, Adjudication]:
    """The open phase of ``game`` and its adjudication; nothing is written."""
    phase = uow.open_phase_of(game)
    if phase is None:
        raise ProcessError(f"game '{game.name}' has no open phase", "no_open_phase")
    return phase, adjudicate_phase(uow, game, phase)
