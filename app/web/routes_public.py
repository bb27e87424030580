"""Public pages: what the judge has published, for anyone."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response
from sqlalchemy import select

from app.db.models import Game
from app.services.kernel.actor import Actor
from app.services.readmodels.dashboard import show_public_game
from app.web.deps import JudgeDep, Uow
from app.web.maps import can_draw
from app.web.templating import pages

__all__ = ["router"]

router = APIRouter(include_in_schema=False)


@router.get("/public")
def public_index(request: Request, uow: Uow) -> Response:
    db = uow.session
    games = list(db.execute(select(Game.name, Game.variant, Game.status, Game.phase).order_by(Game.name)))
    return pages(request).render(request, "public_index.html.j2", title="Games", games=games)


@router.get("/public/games/{name}")
def public_game(request: Request, name: str, judge: JudgeDep, uow: Uow) -> Response:
    game = show_public_game(judge, uow, Actor("public"), name)
    return pages(request).render(request, "public_game.html.j2", title=f"Game {game.name}", g=game,
                                 has_map=can_draw(game.variant))
