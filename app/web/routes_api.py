"""The JSON API under /api/: the same use cases as the pages (described by /openapi.json; curl
examples in docs/api.md).  A refusal answers ``{"detail", "code"}`` (app/web/errors.py: the status)."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from fastapi import APIRouter, HTTPException
from fastapi.encoders import jsonable_encoder
from pydantic import BaseModel, Field

from app.services.kernel.actor import Actor, Role
from app.services.override.apply import commit_override, preview_override
from app.services.override.changes import LaterOrders, OrderChange, OverrideChanges, RuleChange, Ruling, UnitRuling
from app.services.readmodels.corrections import AuditLine, audit_log
from app.services.readmodels.dashboard import GameDetail, GameSummary, PhaseOutcomes, list_games, show_game, show_phase
from app.web.deps import ApiGame, ApiGm, JudgeDep, Uow, game_row
from app.web.forms import storable

__all__ = ["router"]

router = APIRouter(prefix="/api", tags=["api"])


class SessionInfo(BaseModel):
    """Who is signed in, and the CSRF token every request that changes something carries."""

    email: str
    keeper: bool
    csrf_token: str = Field(description="Send it as the header X-CSRF-Token with every POST.")


@router.get("/session", response_model=SessionInfo, summary="The signed-in GM and the session's CSRF token")
def api_session(principal: ApiGm) -> SessionInfo:
    return SessionInfo(email=principal.email, keeper=principal.keeper, csrf_token=principal.csrf_token)


@router.get("/games", response_model=list[GameSummary], summary="The games of the signed-in GM")
def api_games(judge: JudgeDep, uow: Uow, principal: ApiGm) -> list[GameSummary]:
    actor = Actor(principal.email, Role.KEEPER if principal.keeper else Role.GM)
    return list(list_games(judge, uow, actor, co_games=principal.proven))


@router.get("/games/{name}", response_model=GameDetail, summary="One game: powers, current orders, mail log, press, phases")
def api_game(name: str, judge: JudgeDep, uow: Uow, actor: ApiGame) -> GameDetail:
    return show_game(judge, uow, actor, name)


@router.get("/games/{name}/phases/{code}", response_model=PhaseOutcomes,
            summary="A phase with its stored results: each order's result, reason and structured outcome")
def api_phase(name: str, code: str, judge: JudgeDep, uow: Uow, actor: ApiGame) -> PhaseOutcomes:
    return show_phase(judge, uow, actor, name, code)


@router.get("/games/{name}/audit", response_model=list[AuditLine],
            summary="The game's audit log, newest first: who did what, when and why (corrections with the texts mailed)")
def api_audit(name: str, uow: Uow, actor: ApiGame) -> list[AuditLine]:
    return list(audit_log(uow, actor, game_row(uow, name)))


class OverrideRequest(BaseModel):
    """An override of a processed phase: a power's whole new orders, rule options, rulings on units."""

    orders: dict[str, list[str]] = Field(default_factory=dict, examples=[{"FRANCE": ["A PAR - BUR", "A MAR - SPA"]}])
    rules: dict[str, str | bool | None] = Field(default_factory=dict)
    rulings: list[dict[str, str]] = Field(default_factory=list, examples=[[{"location": "PAR", "ruling": "holds"}]])
    later: dict[str, dict[str, list[str]]] = Field(
        default_factory=dict, description="Orders of later processed phases, changed in the same correction",
        examples=[{"W1901A": {"RUSSIA": ["BUILD A WAR"]}}])
    reason: str = ""

    def changes(self) -> OverrideChanges:
        try:
            rulings = tuple(UnitRuling(r["location"], Ruling(r["ruling"].lower())) for r in self.rulings)
        except (KeyError, ValueError) as error:
            raise HTTPException(status_code=422, detail="a ruling is {location, ruling: holds|fails}") from error
        return OverrideChanges(
            orders=tuple(OrderChange(p.upper(), tuple(storable(line) for line in lines)) for p, lines in self.orders.items()),
            rules=tuple(RuleChange(option, value) for option, value in self.rules.items()), rulings=rulings,
            later=tuple(LaterOrders(phase.upper(), tuple(OrderChange(p.upper(), tuple(storable(line) for line in lines))
                                                          for p, lines in powers.items()))
                        for phase, powers in self.later.items()))



@router.post("/games/{name}/phases/{code}/override/preview",
             summary="What an override would do: every order's old and new outcome, the positions, the replay")
def api_override_preview(name: str, code: str, body: OverrideRequest, judge: JudgeDep, uow: Uow,
                         actor: ApiGame) -> Any:
    preview = preview_override(judge, uow, actor, game_row(uow, name), code, body.changes())
    return jsonable_encoder(asdict(preview))


@router.post("/games/{name}/phases/{code}/override/commit",
             summary="Override the phase: re-adjudicated, later phases replayed, every player mailed, audited")
def api_override_commit(name: str, code: str, body: OverrideRequest, judge: JudgeDep, uow: Uow,
                        actor: ApiGame) -> Any:
    done = commit_override(judge, uow, actor, game_row(uow, name), code, body.changes(), storable(body.reason))
    return jsonable_encoder({"audit_id": done.audit_id, "mails": done.mails, "reason": done.reason,
                             "preview": asdict(done.preview)})
