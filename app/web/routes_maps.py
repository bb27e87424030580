"""The maps as SVG: a game's position and a processed phase's results (GM), and the published ones
(a game or phase without one: 404, app/web/errors.py)."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import Response

from app.services.kernel.actor import Actor
from app.services.readmodels.maps import MapData, gm_map, public_map
from app.web.deps import JudgeDep, PageGame, Uow
from app.web.maps import map_svg, svg_response

__all__ = ["router"]

router = APIRouter(include_in_schema=False)


def _svg(found: MapData) -> Response:
    return svg_response(map_svg(found))


@router.get("/games/{name}/map.svg")
def game_map(name: str, judge: JudgeDep, uow: Uow, actor: PageGame) -> Response:
    return _svg(gm_map(judge, uow, actor, name))


@router.get("/games/{name}/phases/{code}/map.svg")
def phase_map(name: str, code: str, judge: JudgeDep, uow: Uow, actor: PageGame) -> Response:
    return _svg(gm_map(judge, uow, actor, name, code))


@router.get("/public/games/{name}/map.svg")
def public_game_map(name: str, judge: JudgeDep, uow: Uow) -> Response:
    return _svg(public_map(judge, uow, Actor("public"), name))


@router.get("/public/games/{name}/phases/{code}/map.svg")
def public_phase_map(name: str, code: str, judge: JudgeDep, uow: Uow) -> Response:
    return _svg(public_map(judge, uow, Actor("public"), name, code))
