"""The GM's pages: the overview of their games, a game, a phase, one mail of the log."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import PlainTextResponse, Response

from app.services.actor import Actor, Role
from app.services.dashboard import list_games, show_game, show_mail, show_phase
from app.services.errors import DomainError
from app.web.deps import Db, JudgeDep, PageGame, PageGm
from app.web.templating import pages

__all__ = ["router"]

router = APIRouter(include_in_schema=False)


@router.get("/")
def overview(request: Request, judge: JudgeDep, db: Db, principal: PageGm) -> Response:
    actor = Actor(principal.email, Role.KEEPER if principal.keeper else Role.GM)
    games = list_games(judge, db, actor)
    return pages(request).render(request, "overview.html.j2", title="Your games", games=games)


@router.get("/games/{name}")
def game_page(request: Request, name: str, judge: JudgeDep, db: Db, actor: PageGame) -> Response:
    detail = show_game(judge, db, actor, name)
    return pages(request).render(request, "game.html.j2", title=f"Game {detail.summary.name}", g=detail)


@router.get("/games/{name}/phases/{code}")
def phase_page(request: Request, name: str, code: str, judge: JudgeDep, db: Db, actor: PageGame) -> Response:
    try:
        phase = show_phase(judge, db, actor, name, code)
    except DomainError as error:
        raise HTTPException(status_code=404, detail=error.message) from error
    return pages(request).render(request, "phase.html.j2", title=f"{phase.game} {phase.code}", p=phase)


@router.get("/games/{name}/mail/{direction}/{mail_id}")
def raw_mail(name: str, direction: Literal["in", "out"], mail_id: int, judge: JudgeDep, db: Db,
             actor: PageGame) -> Response:
    try:
        mail = show_mail(judge, db, actor, name, direction, mail_id)
    except DomainError as error:
        raise HTTPException(status_code=404, detail=error.message) from error
    # Plain text, never sniffed as HTML: a mail's raw bytes are shown exactly as they came.
    return PlainTextResponse(mail.text, headers={"X-Content-Type-Options": "nosniff",
                                                 "Content-Security-Policy": "default-src 'none'"})
