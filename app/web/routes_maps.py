"""The maps as SVG: a game's position and a processed phase's results (GM), and the published ones."""

from __future__ import annotations

from fastapi import APIRouter, HTTPException
from fastapi.responses import Response

from app.services.errors import DomainError
from app.services.kernel.actor import Actor
from app.services.readmodels.maps import MapData, gm_map, public_map
from app.web.deps import Db, JudgeDep, PageGame
from app.web.maps import map_svg, svg_response

__all__ = ["router"]

router = APIRouter(include_in_schema=False)


def _svg(found: MapData) -> Response:
    return svg_response(map_svg(found))


def _or_404(error: DomainError) -> HTTPException:
    return HTTPException(status_code=404, detail=error.message)


@router.get("/games/{name}/map.svg")
def game_map(name: str, judge: JudgeDep, db: Db, actor: PageGame) -> Response:
    try:
        return _svg(gm_map(judge, db, actor, name))
    except DomainError as error:
        raise _or_404(error) from error


@router.get("/games/{name}/phases/{code}/map.svg")
def phase_map(name: str, code: str, judge: JudgeDep, db: Db, actor: PageGame) -> Response:
    try:
        return _svg(gm_map(judge, db, actor, name, code))
    except DomainError as error:
        raise _or_404(error) from error


@router.get("/public/games/{name}/map.svg")
def public_game_map(name: str, judge: JudgeDep, db: Db) -> Response:
    try:
        return _svg(public_map(judge, db, Actor("public"), name))
    except DomainError as error:
        raise _or_404(error) from error


@router.get("/public/games/{name}/phases/{code}/map.svg")
def public_phase_map(name: str, code: str, judge: JudgeDep, db: Db) -> Response:
    try:
        return _svg(public_map(judge, db, Actor("public"), name, code))
    except DomainError as error:
        raise _or_404(error) from error
