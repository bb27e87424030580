"""The GM's turn tools on the dashboard (issue 21.10, 21.12): what processing now would do (the
powers defaulted, the would-be results; nothing written), a power's orders entered by the GM (as
``BECOME`` does by mail), and the phases a rollback can reopen.  Rollback and processing
themselves are ``app/services/turns/control.py``."""

from __future__ import annotations

from dataclasses import dataclass

from app.db import queries
from app.db.models import Game
from app.db.statuses import RUNNING, SeatRole
from app.services.errors import DomainError
from app.services.kernel.access import book_of, require_gm
from app.services.kernel.actor import Actor
from app.services.kernel.audit import audit
from app.services.kernel.context import Judge
from app.services.kernel.uow import UnitOfWork
from app.services.mailout.notify import mail_seat
from app.services.orders.submit import OrdersReceipt, seat_statuses, split_order_line, submit_orders
from app.services.ruleset.kinds import ruleset_for
from app.services.ruleset.options import options_of
from app.services.turns.adjudicate import adjudicate_open_phase
from app.services.turns.publish import previous_owners, render_results, results_view

__all__ = ["ProcessPlan", "enter_orders", "plan_processing", "rollback_targets"]


@dataclass(frozen=True)
class ProcessPlan:
    """Processing the open phase now, before it is done: nothing is stored, nothing is sent."""

    game: str
    phase: str
    defaulted: tuple[str, ...]  # powers (names) that owe orders and sent none: no moves received (NMR)
    incomplete: tuple[str, ...]  # powers that sent some orders but not all (the rest hold or default)
    waiting: tuple[str, ...]  # powers that asked the judge to WAIT
    nmr_policy: str  # what the game does with a defaulted power (cd | hold | wait | dismiss)
    results_text: str | None  # the results as they would be mailed (map games)
    checked: bool = True  # False: a game without a drawn position (its own steps): nobody is listed


def _running(game: Game) -> None:
    if game.status not in RUNNING:
        raise DomainError("not_running", f"game '{game.name}' is {game.status}")


def plan_processing(judge: Judge, uow: UnitOfWork, actor: Actor, game: Game) -> ProcessPlan:
    """What PROCESS would do now: who is defaulted and the results it would mail; nothing is written."""
    db = uow.session
    require_gm(actor, game)
    _running(game)
    phase = queries.open_phase(db, game.id)
    if phase is None:
        raise DomainError("no_open_phase", f"game '{game.name}' has no open phase")
    book = book_of(judge, game)
    incomplete: list[str] = []
    waiting = tuple(book.name(s.power) for s in game.players if s.power and s.role == SeatRole.PLAYER and s.wait)
    text: str | None = None
    if ruleset_for(game.variant).has_map and "units" in (phase.state_before or {}):
        _phase, adjudication = adjudicate_open_phase(uow, game)
        outcome = adjudication.outcome
        view = results_view(judge, game, phase, outcome.typed_results, outcome.typed_after, adjudication.nmr,
                            phase.deadline or game.deadline, None, previous_owners(uow, game))
        view.preview = True
        text = render_results(judge, view, "judge")[0]
        defaulted = [book.name(p) for p in adjudication.nmr]
        for seat, status in seat_statuses(uow, game, phase):
            if seat.power and status.needs_orders and status.missing and seat.power not in adjudication.nmr:
                incomplete.append(book.name(seat.power))
    else:  # a game without a drawn position (Days of Decision III): its own steps, no orders to list here
        defaulted = []
    return ProcessPlan(game.name, phase.code, tuple(defaulted), tuple(incomplete), waiting,
                       options_of(game).nmr, text, checked=text is not None)


def rollback_targets(uow: UnitOfWork, actor: Actor, game: Game) -> tuple[str, ...]:
    """The processed phases a rollback can reopen, the latest first."""
    db = uow.session
    require_gm(actor, game)
    return tuple(p.code for p in reversed(queries.phases_of(db, game.id)))


def enter_orders(judge: Judge, uow: UnitOfWork, actor: Actor, game: Game, power: str, text: str) -> OrdersReceipt:
    """The GM gives a power's orders for the open phase (as ``BECOME`` by mail): each line is checked
    and stored like the player's own; the power's player is sent a copy."""
    db = uow.session
    require_gm(actor, game)
    book = book_of(judge, game)
    pid = book.find(power)
    if pid is None:
        raise DomainError("unknown_power", f"no power called '{power}'")
    lines = [part for line in text.splitlines() for part in split_order_line(line) if part.strip()]
    if not lines:
        raise DomainError("no_orders", "write one order a line")
    acting = Actor(actor.address, actor.role, game.id, pid)
    receipt = submit_orders(judge, uow, acting, game, lines)
    audit(uow, actor, game, "gm_orders", phase=receipt.phase, power=pid, stored=receipt.stored,
          lines=[line.line for line in receipt.lines])
    seat = queries.seat_for_power(db, game.id, pid)
    if seat is not None and receipt.stored:
        body = "\n".join(f"  {r.order or r.line}" + ("" if r.ok else f"  (refused: {r.error})") for r in receipt.lines)
        mail_seat(uow, judge, seat, f"Diplomacy game {game.name}: the GM entered orders for {book.name(pid)}",
                  f"The game master entered these orders for {book.name(pid)} in {receipt.phase}:\n\n{body}\n\n"
                  f"Send your own orders before the deadline to change them.\n")
    return receipt
