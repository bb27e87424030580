"""What processing a turn gives, for every ruleset: the outcome, the refusal, and the guard
that lets only one process close a phase."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import bindparam, update
from sqlalchemy.engine import CursorResult
from sqlalchemy.orm.attributes import set_committed_value

from app.db.models import Game
from app.services.errors import DomainError
from app.services.kernel.uow import UnitOfWork

__all__ = ["ProcessError", "TurnOutcome", "bump_version"]


class ProcessError(DomainError):
    """The turn could not be processed (stale phase, lost race, nothing open)."""

    def __init__(self, message: str, code: str = "not_processed") -> None:
        super().__init__(code, message)


@dataclass
class TurnOutcome:
    game: str
    phase: str
    next_phase: str | None
    winner: str | None
    mails: int
    due_at_once: bool = False  # the next phase waits for nobody (turns.disorder.due_at_once)


_CLAIM = (update(Game).where(Game.id == bindparam("game_id"), Game.version == bindparam("seen"))
          .values(version=bindparam("claimed")).execution_options(synchronize_session=False))  # built once


def bump_version(uow: UnitOfWork, game: Game) -> None:
    """Claim the game for this transaction: fails if another process changed it meanwhile."""
    db = uow.session
    claimed = game.version + 1
    if uow.holds_lock(game):
        # Locked and read afresh by this transaction: nobody else can have changed it, nor can
        # before the commit.  The new version goes with the transaction's own UPDATE of the game.
        game.version = claimed
        uow.remember_lock(game)
        return
    result = db.execute(_CLAIM, {"game_id": game.id, "seen": game.version, "claimed": claimed})
    if not isinstance(result, CursorResult) or result.rowcount != 1:
        raise ProcessError(f"game '{game.name}' was changed by another process", "changed_meanwhile")
    # What the row now holds: no second UPDATE of it at the next flush (the version went up by
    # two a turn, the game row written twice).
    set_committed_value(game, "version", claimed)
