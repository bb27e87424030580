"""Step two of a turn: store an adjudication (the phase's results, the seats, the next phase).

Everything happens in the caller's transaction.  The turn processor has already bumped the game
row's ``version`` with a guarded UPDATE (``kernel.outcome.bump_version``), so two processes can
never both process one phase.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from app.db.models import Game, OrderRow, Phase
from app.db.statuses import GameStatus, PhaseStatus, SeatRole, SeatStatus
from app.services.kernel.uow import UnitOfWork
from app.services.orders.submit import check_advance_orders
from app.services.ruleset.options import options_of
from app.services.ruleset.stored import StoredState
from app.services.ruleset.timing import next_deadline
from app.services.seats.absence import clear_of_absences
from app.services.turns.adjudicate import Adjudication, orders_as_json, orders_as_text
from app.services.turns.disorder import miss_consequence, reached_abandonment
from app.services.turns.snapshot import take_advance_orders, take_opening

__all__ = ["StoredTurn", "eliminate", "open_next_phase", "store_turn"]


@dataclass(frozen=True)
class StoredTurn:
    phase_code: str
    deadline: datetime | None  # the deadline the processed phase had
    next_phase: str | None  # None: the game is over
    next_deadline: datetime | None
    winner: str | None
    abandoned: tuple[int, ...] = ()  # the seats this turn's miss abandoned (issue 22.3)
    disordered: tuple[int, ...] = ()  # the seats this turn's miss put in civil disorder (issue 28.13)
    dismissed: tuple[int, ...] = ()  # the seats whose player this turn's miss dismissed
    eliminated: tuple[int, ...] = ()  # the seats this turn eliminated (issue 28.20)
    next_orders: tuple[OrderRow, ...] | None = None  # the next phase's orders as it opens (None: not known)


def eliminate(game: Game, state_after: StoredState) -> list[int]:
    """Powers with neither units nor centres left are out; the seats that just went out."""
    in_play = state_after.in_play()
    out: list[int] = []
    for seat in game.players:
        if seat.role == SeatRole.PLAYER and seat.power and seat.power not in in_play:
            if seat.status != SeatStatus.ELIMINATED:
                out.append(seat.id)
            seat.status = SeatStatus.ELIMINATED
    return out


def open_next_phase(uow: UnitOfWork, game: Game, phase: Phase, next_code: str | None, state_after: dict[str, Any],
                    next_at: datetime | None, advance: Sequence[OrderRow] | None = None) -> Sequence[OrderRow] | None:
    """Open the phase after ``phase`` (checking the orders given for it in advance), or end the game.
    ``advance``: the stored orders for the next phase when the caller has just read them (None: read
    them here).  Returns the orders the new phase opens with, when known without reading them again."""
    db = uow.session
    opened: Sequence[OrderRow] | None = None
    if next_code:
        new_phase = Phase(game_id=game.id, seq=phase.seq + 1, code=next_code, status=PhaseStatus.OPEN,
                          state_before=state_after, deadline=next_at)
        take_opening(game, new_phase)
        db.add(new_phase)  # flushed with the game below (or by what checking orders in advance reads)
        opened = check_advance_orders(uow, game, new_phase, advance)
        game.phase = next_code
        game.deadline = next_at
        uow.remember_open_phase(game, new_phase)
    else:
        game.status = GameStatus.FINISHED
        game.deadline = None
    game.grace_until = None
    game.reminded_phase = None
    return opened


def store_turn(uow: UnitOfWork, game: Game, phase: Phase, adjudication: Adjudication, now: datetime,
               crash: Callable[[str], None]) -> StoredTurn:
    """Write the adjudication of ``phase``: its results, the seats (misses, eliminations), the next phase.
    Nothing is flushed here: the turn's rows go to the database together, with its results text
    (``publish_turn``), in one flush."""
    db = uow.session
    outcome = adjudication.outcome
    deadline = phase.deadline or game.deadline
    # read with the phase's orders, before the phase row changes: one UPDATE of it
    advance = take_advance_orders(uow, game, phase, adjudication.orders.later)
    phase.orders_received = adjudication.orders.received
    phase.orders_parsed = orders_as_text(adjudication.orders.orders)
    phase.orders_typed = orders_as_json(adjudication.orders.orders)
    phase.results = outcome.results
    phase.state_after = outcome.state_after
    phase.status = PhaseStatus.PROCESSED
    phase.processed_at = now
    crash("turn:phase_stored")
    ordered = {power.upper() for power, items in adjudication.orders.orders.items() if items}
    # Processed before its deadline (early, or by the GM), the phase is no missed deadline for a
    # power that had time left (issue 22.3).
    missed = phase.deadline is None or now >= phase.deadline
    abandoned: list[int] = []
    consequences: dict[SeatStatus, list[int]] = {SeatStatus.CD: [], SeatStatus.RESIGNED: []}
    options = options_of(game)
    for seat in game.players:
        if seat.power in adjudication.nmr:
            if missed:  # counted, and the NMR policy applies (issue 28.13: njudge's PROCESS counts it too)
                seat.misses += 1
                seat.missed_in_row += 1
                if reached_abandonment(seat, options):
                    abandoned.append(seat.id)
                status = miss_consequence(seat, options)
                if status is not None:
                    seat.status = status
                    consequences[status].append(seat.id)
        elif (seat.power or "").upper() in ordered and seat.missed_in_row:
            seat.missed_in_row = 0
        if seat.wait:  # (a seat left as it was is no work for the flush)
            seat.wait = False  # draw votes stand until withdrawn (issue 22.4)
    eliminated = eliminate(game, outcome.typed_after)
    crash("turn:seats_updated")
    next_code = outcome.next_phase
    with db.no_autoflush:  # the absences are audit rows, which a turn does not write: the turn is written once, later
        next_at = clear_of_absences(uow, game, next_deadline(options, next_code, now)) if next_code else None
    given = sorted((row for row in advance if row.phase == next_code), key=lambda row: (row.power, row.id))
    opened = open_next_phase(uow, game, phase, next_code, outcome.state_after, next_at, given)
    crash("turn:next_phase_opened")
    return StoredTurn(phase_code=phase.code, deadline=deadline, next_phase=next_code, next_deadline=next_at,
                      winner=outcome.winner, abandoned=tuple(abandoned),
                      disordered=tuple(consequences[SeatStatus.CD]), dismissed=tuple(consequences[SeatStatus.RESIGNED]),
                      eliminated=tuple(eliminated),
                      next_orders=None if opened is None else tuple(opened))
