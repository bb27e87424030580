"""Close a game's open phase or step (deadline, PROCESS, everyone ready) and open the next,
by its ruleset: map games through ``map_turn`` (adjudicate, store, publish), Days of Decision
III games through ``app.services.dod3``."""

from __future__ import annotations

from collections.abc import Sequence

from app.db.models import Game
from app.services import dod3
from app.services.kernel.context import Judge
from app.services.kernel.outcome import TurnOutcome
from app.services.kernel.uow import UnitOfWork
from app.services.ruleset.kinds import DOD3, ruleset_for
from app.services.turns import map_turn

__all__ = ["process_turn"]


def process_turn(uow: UnitOfWork, judge: Judge, game: Game, *, expected_phase: str | None = None,
                 notes: Sequence[str] | None = None) -> TurnOutcome:
    """Process the open phase of ``game`` in the caller's transaction."""
    if ruleset_for(game.variant) is DOD3:
        return dod3.process_turn(uow, judge, game, expected_phase=expected_phase, notes=notes)
    return map_turn.process_turn(uow, judge, game, expected_phase=expected_phase,
                                 notes=None if notes is None else list(notes))
