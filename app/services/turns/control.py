"""What the game master does to the course of a game: process now, preview, roll back and forward.

Use cases over the turn steps; the mail commands (``app/mail/commands/turns.py``) and the
dashboard render the values returned here.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import select

from app.db import queries
from app.db.models import Game, Phase
from app.db.statuses import RUNNING, GameStatus, PhaseStatus
from app.services.errors import DomainError
from app.services.kernel.access import book_of, require_gm
from app.services.kernel.actor import Actor
from app.services.kernel.audit import audit
from app.services.kernel.context import Judge
from app.services.kernel.outcome import TurnOutcome
from app.services.kernel.render import format_deadline
from app.services.kernel.uow import UnitOfWork
from app.services.mailout.notify import mail_game
from app.services.orders.submit import phase_variant_state, store_orders
from app.services.results.ending import clear_ending, names_text
from app.services.results.maps import phase_map
from app.services.results.report import ResultsView
from app.services.ruleset import engine as game_engine
from app.services.ruleset.kinds import ruleset_for
from app.services.seats.absence import clear_of_absences
from app.services.turns import snapshot
from app.services.turns.adjudicate import adjudicate_open_phase, phase_orders
from app.services.turns.process import process_turn
from app.services.turns.publish import previous_owners, results_view

__all__ = ["RolledBack", "RolledForward", "TurnPreview", "preview_turn", "process_now", "rollback", "rollforward"]


@dataclass(frozen=True)
class TurnPreview:
    """The results as they would be now; nothing stored, nothing sent."""

    game: str
    phase: str
    view: ResultsView
    map_id: int | None = None  # the would-be results map (kept in the map cache only)


@dataclass(frozen=True)
class RolledBack:
    game: str
    phase: str  # the phase open again
    restore: bool  # its orders were kept
    deadline: datetime | None
    mails: int
    cleared: tuple[str, ...] = ()  # the phases whose orders were cleared, in order
    withdrawn_draws: tuple[str, ...] = ()  # the powers (names) whose draw vote the rollback withdrew
    withdrawn_concessions: tuple[str, ...] = ()  # the powers (names) whose concession it withdrew
    reopened: bool = False  # the game had ended: it is in play again


def _rollback_notice(game: Game, target: str, cleared: tuple[str, ...], restore: bool,
                     votes: tuple[tuple[str, ...], tuple[str, ...]] = ((), ()), reopened: bool = False) -> str:
    """What a rollback did to the orders and the votes, for everyone (issue 22.1, 28.16)."""
    phases = ", ".join(cleared)
    lines = [f"The master rolled game '{game.name}' back to {target}"
             f"{' with its orders' if restore else ''}."]
    if reopened:
        lines.append("The game had ended; it is in play again.")
    if cleared:
        lines.append(f"Cleared: every order given for {phases}.")
    draws, concessions = votes
    if draws:
        lines.append(f"Withdrawn: the draw vote{'s' if len(draws) > 1 else ''} of {names_text(list(draws))}, "
                     f"cast after {target} opened (SET DRAW to vote again).")
    if concessions:
        lines.append(f"Withdrawn: the concession{'s' if len(concessions) > 1 else ''} of "
                     f"{names_text(list(concessions))}, made after {target} opened (SET CONCEDE to concede again).")
    if restore:
        lines.append(f"The orders of {target} stand again; send new ones to change them.")
    else:
        lines.append(f"Send your orders for {target} again.")
    lines.append(f"Orders given in advance (PHASE) for the phases after {target} are as they were "
                 f"when {target} was processed (STATUS lists yours).")
    return "\n".join(lines)


@dataclass(frozen=True)
class RolledForward:
    game: str
    phase: str | None  # the phase open now


def _running(game: Game) -> None:
    if game.status not in RUNNING:
        raise DomainError("not_running", f"game '{game.name}' is {game.status}")


def process_now(judge: Judge, uow: UnitOfWork, actor: Actor, game: Game,
                expected_phase: str | None = None) -> TurnOutcome:
    """PROCESS: the open phase now (``expected_phase`` guards against a stale command)."""
    require_gm(actor, game)
    _running(game)
    outcome = process_turn(uow, judge, game, expected_phase=expected_phase)
    audit(uow, actor, game, "process", phase=outcome.phase)
    return outcome


def preview_turn(judge: Judge, uow: UnitOfWork, actor: Actor, game: Game) -> TurnPreview:
    """PREVIEW: the would-be results of the open phase; nothing is written."""
    db = uow.session
    require_gm(actor, game)
    _running(game)
    if not ruleset_for(game.variant).has_map:
        raise DomainError("not_a_map_game", "PREVIEW shows the results of a map game's phase")
    phase, adjudication = adjudicate_open_phase(uow, game)
    outcome = adjudication.outcome
    view = results_view(judge, game, phase, outcome.typed_results, outcome.typed_after, adjudication.nmr,
                        phase.deadline or game.deadline, None, previous_owners(uow, game))
    view.preview = True
    picture = phase_map(uow, game, phase.code, phase.state_before, outcome.results, kind="preview")
    db.flush()
    return TurnPreview(game=game.name, phase=phase.code, view=view, map_id=picture.id if picture else None)


def _restore_orders(uow: UnitOfWork, game: Game, target: Phase) -> None:
    """The orders the phase was adjudicated with become its current orders again (read by the engine)."""
    variant, state = phase_variant_state(game, target)
    for power, orders in phase_orders(target).items():
        checks = game_engine.check_orders(variant, state, power, orders)
        store_orders(uow, game, target.code, power, checks, whole_set=False)


def rollback(judge: Judge, uow: UnitOfWork, actor: Actor, game: Game, target_phase: str | None = None,
             restore: bool = False, full: bool = False) -> RolledBack:
    """ROLLBACK: reopen an earlier phase (the last processed one by default); ``restore`` keeps its orders.
    The orders given in advance and the seats come back as they were at that phase; ``full`` also
    the players and the game's settings (DPjudge's FULL; ``app/services/turns/snapshot.py``)."""
    db = uow.session
    require_gm(actor, game)
    processed = queries.phases_of(db, game.id)
    if not processed:
        raise DomainError("nothing_to_roll_back", "nothing to roll back")
    target = processed[-1]
    if target_phase:
        matches = [p for p in processed if p.code == target_phase.upper()]
        if not matches:
            raise DomainError("no_such_phase", f"no processed phase {target_phase.upper()}")
        target = matches[-1]
    later = list(db.scalars(select(Phase).where(Phase.game_id == game.id, Phase.seq > target.seq,
                                                Phase.status != PhaseStatus.ROLLED_BACK)))
    cleared = tuple(dict.fromkeys(([] if restore else [target.code]) + [p.code for p in
                                                                         sorted(later, key=lambda p: p.seq)]))
    for phase in later:
        phase.status = PhaseStatus.ROLLED_BACK
        queries.clear_orders(db, game.id, phase.code)
    queries.clear_orders(db, game.id, target.code)
    db.flush()
    cast = {seat.id: (seat.draw, seat.concede) for seat in game.players}
    snapshot.restore(uow, game, target, full=full)
    book = book_of(judge, game)
    draws = tuple(book.name(seat.power or "") for seat in game.players
                  if cast.get(seat.id, (None, None))[0] is not None and seat.draw != cast[seat.id][0])
    concessions = tuple(book.name(seat.power or "") for seat in game.players
                        if cast.get(seat.id, (None, None))[1] is not None and seat.concede != cast[seat.id][1])
    if restore and target.orders_received:
        _restore_orders(uow, game, target)
    target.status = PhaseStatus.OPEN
    game.phase = target.code
    reopened = game.status == GameStatus.FINISHED
    if reopened:
        game.status = GameStatus.ACTIVE
        clear_ending(game)
    game.deadline = clear_of_absences(uow, game, judge.now() + timedelta(hours=24))
    target.deadline = game.deadline
    game.grace_until = None
    game.version += 1
    db.flush()
    audit(uow, actor, game, "rollback", phase=target.code, restore=restore, full=full)
    mails = mail_game(uow, judge, game, f"Diplomacy game {game.name} rolled back",
                      _rollback_notice(game, target.code, cleared, restore, (draws, concessions), reopened)
                      + f"\nNew deadline: {format_deadline(game.deadline)}.\n")
    return RolledBack(game=game.name, phase=target.code, restore=restore, deadline=game.deadline, mails=mails,
                      cleared=cleared, withdrawn_draws=draws, withdrawn_concessions=concessions, reopened=reopened)


def rollforward(judge: Judge, uow: UnitOfWork, actor: Actor, game: Game) -> RolledForward:
    """ROLLFORWARD: undo a rollback, if nothing was processed since."""
    db = uow.session
    del judge  # the same shape as the other use cases; nothing here needs the clock or templates
    require_gm(actor, game)
    current = queries.open_phase(db, game.id)
    if current is None or current.results is None:
        raise DomainError("nothing_to_roll_forward", "nothing to roll forward (or the phase was processed again since)")
    redo = list(db.scalars(select(Phase).where(Phase.game_id == game.id, Phase.seq > current.seq,
                                               Phase.status == PhaseStatus.ROLLED_BACK).order_by(Phase.seq)))
    if not redo:
        raise DomainError("nothing_to_roll_forward", "nothing to roll forward")
    current.status = PhaseStatus.PROCESSED
    seq = current.seq
    for phase in redo:
        if phase.seq != seq + 1:
            break
        phase.status = PhaseStatus.PROCESSED if phase.results is not None else PhaseStatus.OPEN
        seq = phase.seq
        if phase.status == PhaseStatus.OPEN:
            game.phase, game.deadline = phase.code, phase.deadline
            break
    db.flush()
    audit(uow, actor, game, "rollforward", phase=game.phase)
    return RolledForward(game=game.name, phase=game.phase)
