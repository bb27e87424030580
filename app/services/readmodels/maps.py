"""What the dashboard's maps are drawn from: a position, or a processed phase with its results.

The GM's maps (``gm_map``) read any phase of their game; the public ones (``public_map``) only what
the judge has published: the position after the last processed phase and the results of processed
phases.  The renderer itself hides secret builds and hidden starts."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.db import queries
from app.db.models import Game, Phase
from app.db.statuses import PhaseStatus
from app.services.errors import DomainError
from app.services.kernel.access import require_gm
from app.services.kernel.actor import Actor
from app.services.kernel.context import Judge
from app.services.kernel.uow import UnitOfWork
from app.services.ruleset.kinds import ruleset_for

__all__ = ["MapData", "gm_map", "public_map"]


@dataclass(frozen=True)
class MapData:
    variant: str
    title: str
    state: dict[str, Any] | None  # None: the variant's start
    results: dict[str, Any] | None  # with results: the phase's orders and outcomes


def _map_game(db: Session, name: str) -> Game:
    game = queries.game_by_name(db, name)
    if game is None:
        raise DomainError("no_game", f"There is no game '{name}'.")
    if not ruleset_for(game.variant).has_map:
        raise DomainError("no_map", f"Game '{game.name}' is not played on a map.")
    return game


def _processed(db: Session, game: Game, code: str) -> Phase:
    phase = db.scalar(select(Phase).where(Phase.game_id == game.id, func.upper(Phase.code) == code.upper(),
                                          Phase.status == PhaseStatus.PROCESSED).order_by(Phase.seq.desc()))
    if phase is None:
        raise DomainError("no_phase", f"Game '{game.name}' has no processed phase {code.upper()}.")
    return phase


def _published_position(uow: UnitOfWork, game: Game) -> dict[str, Any] | None:
    db = uow.session
    done = queries.phases_of(db, game.id, processed_only=True)
    if done:
        return dict(done[-1].state_after or {}) or None
    opened = queries.open_phase(db, game.id)
    return dict(opened.state_before or {}) if opened is not None else None  # the starting position


def _of(uow: UnitOfWork, game: Game, code: str | None) -> MapData:
    db = uow.session
    if code is None:
        return MapData(game.variant, f"Game {game.name}", _published_position(uow, game), None)
    phase = _processed(db, game, code)
    return MapData(game.variant, f"Game {game.name}", dict(phase.state_before or {}), dict(phase.results or {}))


def gm_map(judge: Judge, uow: UnitOfWork, actor: Actor, name: str, code: str | None = None) -> MapData:
    """The current position (``code`` None) or a processed phase's results, for the game's GM."""
    db = uow.session
    game = _map_game(db, name)
    require_gm(actor, game)
    return _of(uow, game, code)


def public_map(judge: Judge, uow: UnitOfWork, actor: Actor, name: str, code: str | None = None) -> MapData:
    """What anyone may see: the published position, or a processed (so published) phase's results."""
    db = uow.session
    return _of(uow, _map_game(db, name), code)
