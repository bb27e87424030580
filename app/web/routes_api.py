"""The JSON API under /api/: the same use cases as the pages (documented at /docs)."""

from __future__ import annotations

from fastapi import APIRouter, HTTPException

from app.services.actor import Actor, Role
from app.services.dashboard import GameDetail, GameSummary, PhaseOutcomes, list_games, show_game, show_phase
from app.services.errors import DomainError
from app.web.deps import ApiGame, ApiGm, Db, JudgeDep

__all__ = ["router"]

router = APIRouter(prefix="/api", tags=["api"])


@router.get("/games", response_model=list[GameSummary], summary="The games of the signed-in GM")
def api_games(judge: JudgeDep, db: Db, principal: ApiGm) -> list[GameSummary]:
    actor = Actor(principal.email, Role.KEEPER if principal.keeper else Role.GM)
    return list(list_games(judge, db, actor))


@router.get("/games/{name}", response_model=GameDetail, summary="One game: powers, current orders, mail log, press, phases")
def api_game(name: str, judge: JudgeDep, db: Db, actor: ApiGame) -> GameDetail:
    return show_game(judge, db, actor, name)


@router.get("/games/{name}/phases/{code}", response_model=PhaseOutcomes,
            summary="A phase with its stored results: each order's result, reason and structured outcome")
def api_phase(name: str, code: str, judge: JudgeDep, db: Db, actor: ApiGame) -> PhaseOutcomes:
    try:
        return show_phase(judge, db, actor, name, code)
    except DomainError as error:
        raise HTTPException(status_code=404, detail=error.message) from error
