"""Administration forms: create a game, deadlines, pause and resume, replace a player,
resend a mail, set a quarantined mail aside.  Each form calls one use case and redirects back."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from zoneinfo import ZoneInfo

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import RedirectResponse, Response
from starlette.datastructures import FormData

from app.services.errors import DomainError
from app.services.games import gm
from app.services.games.gm_admin import create_linked_game, invite_player, resend_mail, set_aside_quarantined
from app.services.games.settings import DOD3_GROUPINGS, change_settings, default_settings, game_variants
from app.services.kernel.actor import Actor, Role
from app.services.readmodels.forming import create_linked_dod3_game
from app.web.deps import Db, JudgeDep, PageGame, PageGm, game_row
from app.web.forms import form_text
from app.web.routes_gm_game import settings_change
from app.web.templating import pages

__all__ = ["router"]

router = APIRouter(include_in_schema=False)

NMR_POLICIES = ("cd", "hold", "wait", "dismiss")


def _text(form: FormData, key: str) -> str:
    return form_text(form, key)



def _back(name: str, note: str = "") -> RedirectResponse:
    return RedirectResponse(f"/games/{name}?done={note}#admin" if note else f"/games/{name}#admin", status_code=303)


def _new_game_page(request: Request, status: int = 200, error: str | None = None,
                   form: dict[str, str] | None = None) -> Response:
    return pages(request).render(request, "new_game.html.j2", status_code=status, title="New game", error=error,
                                 form=form or {}, variants=game_variants(), nmr_policies=NMR_POLICIES,
                                 settings=default_settings(), groupings=DOD3_GROUPINGS)


@router.get("/games/new")
def new_game(request: Request, principal: PageGm) -> Response:
    return _new_game_page(request)


def _settings(form: FormData) -> dict[str, Any]:
    settings: dict[str, Any] = {"timezone": _text(form, "timezone") or "UTC"}
    if _text(form, "nmr") in NMR_POLICIES:
        settings["nmr"] = _text(form, "nmr")
    hours = _text(form, "deadline_hours")
    if hours:
        try:
            value = float(hours)
        except ValueError as error:
            raise DomainError("bad_hours", "hours between deadlines is a number, like 48") from error
        if not 1 <= value <= 24 * 30:
            raise DomainError("bad_hours", "hours between deadlines are 1 to 720")
        settings["timing"] = {"movement": {"next_hours": value}}
    return settings


@router.post("/games/new")
async def create(request: Request, judge: JudgeDep, db: Db, principal: PageGm) -> Response:
    form = await request.form()
    values = {k: _text(form, k) for k in form if k not in ("password", "csrf_token")}
    actor = Actor(principal.email, Role.KEEPER if principal.keeper else Role.GM)
    try:
        ZoneInfo(_text(form, "timezone") or "UTC")
    except Exception:
        return _new_game_page(request, 400, "Unknown time zone: use a name like Europe/Paris or UTC.", values)
    created_id: int | None = None
    if _text(form, "variant") == "dod3":  # DOD3 CREATE: a rule 3.1 grouping, then its players seated
        try:
            dod3 = create_linked_dod3_game(judge, db, actor, principal.account_id, _text(form, "name"),
                                           _text(form, "password"), _text(form, "grouping"), _text(form, "soviets"))
        except DomainError as error:
            return _new_game_page(request, 400, error.message, values)
        return RedirectResponse(f"/games/{dod3.game}?done=created#forming", status_code=303)
    try:
        press = _text(form, "press") or "white"
        created = create_linked_game(judge, db, actor, principal.account_id, _text(form, "name"),
                                     _text(form, "password"), _text(form, "variant") or "standard",
                                     "white" if press == "postal" else press, _settings(form))
        created_id = created.game_id
        game_actor = Actor(principal.email, actor.role if actor.role is Role.KEEPER else Role.GM, created.game_id)
        change_settings(judge, db, game_actor, settings_change(form), game_row(db, created.name))
        option = _text(form, "rule_option")
        if option:
            value: str | bool = _text(form, "rule_value") or True
            if isinstance(value, str) and value.lower() in ("on", "yes", "true"):
                value = True
            elif isinstance(value, str) and value.lower() in ("off", "no", "false"):
                value = False
            gm.set_rule(judge, db, Actor(principal.email, actor.role if actor.role is Role.KEEPER else Role.GM,
                                         created.game_id), option, value)
    except DomainError as error:
        if created_id is None:  # nothing written yet: the form again, filled in
            return _new_game_page(request, 400, error.message, values)
        raise HTTPException(status_code=400, detail=error.message) from error  # the request's writes roll back
    return RedirectResponse(f"/games/{created.name}?done=created", status_code=303)


def _run(action: Callable[[], object], name: str, note: str) -> Response:
    try:
        action()
    except DomainError as error:
        raise HTTPException(status_code=400, detail=error.message) from error
    return _back(name, note)


@router.post("/games/{name}/pause")
def pause(name: str, judge: JudgeDep, db: Db, actor: PageGame) -> Response:
    return _run(lambda: gm.pause(judge, db, actor), name, "paused")


@router.post("/games/{name}/resume")
def resume(name: str, judge: JudgeDep, db: Db, actor: PageGame) -> Response:
    return _run(lambda: gm.resume(judge, db, actor), name, "resumed")


@router.post("/games/{name}/deadline")
async def deadline(request: Request, name: str, judge: JudgeDep, db: Db, actor: PageGame) -> Response:
    form = await request.form()
    words = _text(form, "when").split()
    confirm = bool(words) and words[-1].upper() == "CONFIRM"  # a deadline inside an absence (issue 22.2)
    when = " ".join(words[:-1] if confirm else words)
    return _run(lambda: gm.set_deadline(judge, db, actor, when, confirm=confirm), name, "deadline")


@router.post("/games/{name}/replace")
async def replace(request: Request, name: str, judge: JudgeDep, db: Db, actor: PageGame) -> Response:
    form = await request.form()
    return _run(lambda: gm.replace(judge, db, actor, _text(form, "power"), _text(form, "address"),
                                   _text(form, "password") or None), name, "replaced")


@router.post("/games/{name}/invite")
async def invite(request: Request, name: str, judge: JudgeDep, db: Db, actor: PageGame, principal: PageGm) -> Response:
    form = await request.form()
    game = game_row(db, name)
    return _run(lambda: invite_player(judge, db, actor, game, _text(form, "address"), _text(form, "note"),
                                      proven=principal.proven), name, "invited")


@router.post("/games/{name}/mail/out/{mail_id}/resend")
def resend(name: str, mail_id: int, judge: JudgeDep, db: Db, actor: PageGame) -> Response:
    game = game_row(db, name)
    return _run(lambda: resend_mail(judge, db, actor, game, mail_id), name, "resent")


@router.post("/games/{name}/mail/in/{mail_id}/resolve")
def resolve(name: str, mail_id: int, judge: JudgeDep, db: Db, actor: PageGame) -> Response:
    game = game_row(db, name)
    return _run(lambda: set_aside_quarantined(judge, db, actor, game, mail_id), name, "resolved")
