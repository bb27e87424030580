"""Turn processing of a map game in three steps: adjudicate (pure) -> store -> publish.

Everything happens in the caller's transaction, so a crash leaves the game either fully
before or fully after the turn.  The crash points (``judge.crash``) name the places the
fault tests kill the process at.  Days of Decision III games are processed by their own
ruleset (``app/services/ruleset/kinds.py`` dispatches); this module knows nothing of them.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.db import queries
from app.db.models import Game, Phase, Player
from app.db.statuses import GameStatus, SeatStatus
from app.services.kernel.context import Judge
from app.services.kernel.outcome import ProcessError, TurnOutcome, bump_version
from app.services.kernel.uow import UnitOfWork
from app.services.orders.submit import seat_statuses
from app.services.results.ending import Ending, end_game
from app.services.ruleset.phases import PhaseName
from app.services.seats.votes import check_standing_votes
from app.services.turns.adjudicate import adjudicate_open_phase
from app.services.turns.disorder import announce_missed_deadlines, due_at_once, tell_eliminated
from app.services.turns.publish import publish_turn
from app.services.turns.store import store_turn

__all__ = ["describe", "everyone_ready", "late_powers",
           "process_turn"]


def process_turn(uow: UnitOfWork, judge: Judge, game: Game, *, expected_phase: str | None = None,
                 notes: Sequence[str] | None = None) -> TurnOutcome:
    """Adjudicate and store the open phase of ``game`` and queue everyone's results."""
    db = uow.session
    crash = judge.crash
    crash("turn:start")
    if expected_phase and game.phase and expected_phase.upper() != game.phase.upper():
        raise ProcessError(f"the phase is {game.phase}, not {expected_phase.upper()}", "stale_phase")
    phase, adjudication = adjudicate_open_phase(uow, game)
    # Read before the turn writes anything: what it writes then goes to the database in one flush.
    press = [] if uow.has_none("press", game.id) else queries.unpublished_press(db, game.id)
    # The claim (after the reading: the game locked by this transaction, its new version goes with
    # that flush; otherwise an UPDATE that fails if another process changed the game meanwhile).
    bump_version(uow, game)
    uow.remember_open_phase(game, phase)  # claiming the game leaves its open phase as it was
    crash("turn:claimed")  # adjudicated and claimed, nothing of the turn written yet
    stored = store_turn(uow, game, phase, adjudication, judge.now(), crash)
    mails = publish_turn(uow, judge, game, phase, stored, adjudication.nmr, list(notes or []), crash, press,
                         adjudication.outcome)
    at_once = False
    def seats(ids: Sequence[int]) -> list[Player]:
        return [seat for seat in game.players if seat.id in ids]

    announce_missed_deadlines(uow, judge, game, seats(stored.disordered), seats(stored.dismissed),
                              seats(stored.abandoned), phase.code)
    tell_eliminated(uow, judge, game, seats(stored.eliminated), phase.code)
    if stored.winner:  # how it ended, kept with the game and mailed to everyone (issue 28.20)
        end_game(judge, uow, game, Ending("solo", (stored.winner.upper(),), "board", phase.code, judge.now()), "judge")
    elif stored.next_phase:
        check_standing_votes(judge, uow, game, phase.code)
    if stored.next_phase and game.status == GameStatus.ACTIVE:
        opened = uow.open_phase_of(game)  # the phase store_turn has just opened
        at_once = opened is not None and due_at_once(uow, game, opened, judge.now(), stored.next_orders)
    crash("turn:done")
    return TurnOutcome(game=game.name, phase=phase.code, next_phase=stored.next_phase, winner=stored.winner,
                       mails=mails, due_at_once=at_once)


def late_powers(uow: UnitOfWork, game: Game, phase: Phase) -> list[Player]:
    return [seat for seat, status in seat_statuses(uow, game, phase)
            if status.needs_orders and not status.submitted and seat.status == SeatStatus.ACTIVE]


def everyone_ready(uow: UnitOfWork, game: Game, phase: Phase) -> bool:
    """Every active power has complete orders and no seated power (in civil disorder too) asked to wait."""
    for seat, status in seat_statuses(uow, game, phase):
        if seat.wait and seat.status in (SeatStatus.ACTIVE, SeatStatus.ABSENT, SeatStatus.CD):
            return False
        if seat.status in (SeatStatus.ACTIVE, SeatStatus.ABSENT) and status.needs_orders and not status.complete:
            return False
    return True


def describe(phase_code: str) -> str:
    return PhaseName(phase_code).next_words
