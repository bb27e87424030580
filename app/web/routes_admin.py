"""Administration forms: create a game, pause and resume, replace a player,
resend a mail, set a quarantined mail aside.  Each form calls one use case and redirects back."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote
from zoneinfo import ZoneInfo

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response
from starlette.datastructures import FormData

from app.db import queries
from app.services.errors import DomainError
from app.services.games import gm
from app.services.games.gm_accounts import GmPrincipal, gm_actor
from app.services.games.gm_admin import create_linked_game, invite_player, resend_mail, set_aside_quarantined
from app.services.games.settings import DOD3_GROUPINGS, change_settings, default_settings
from app.services.kernel.access import not_gm
from app.services.kernel.actor import Actor, Role
from app.services.kernel.context import Judge
from app.services.kernel.uow import UnitOfWork
from app.services.readmodels.forming import create_linked_dod3_game
from app.services.ruleset.catalogue import offered_variants
from app.services.ruleset.engine import DEFAULT_VARIANT
from app.services.ruleset.kinds import DOD3, ruleset_for
from app.services.ruleset.options import Cd, GameOptions, nmr_policy
from app.web.deps import JudgeDep, PageGame, PageGm, PostedForm, Uow, game_row
from app.web.forms import form_text
from app.web.routes_gm_game import settings_change
from app.web.templating import pages

__all__ = ["router"]

router = APIRouter(include_in_schema=False)


def _text(form: FormData, key: str) -> str:
    return form_text(form, key)


def _back(name: str, note: str = "") -> RedirectResponse:
    return RedirectResponse(f"/games/{name}?done={note}#admin" if note else f"/games/{name}#admin", status_code=303)


def _new_game_page(request: Request, status: int = 200, error: str | None = None,
                   form: dict[str, str] | None = None) -> Response:
    return pages(request).render(request, "new_game.html.j2", status_code=status, title="New game", error=error,
                                 form=form or {}, variants=offered_variants(), nmr_policies=gm.NMR_POLICIES,
                                 settings=default_settings(), groupings=DOD3_GROUPINGS)


@router.get("/games/new")
def new_game(request: Request, principal: PageGm) -> Response:
    return _new_game_page(request)


def _settings(form: FormData) -> dict[str, Any]:
    """What the game is created with; the rest of the form's settings (the phase timings among
    them) are then set through their use cases, which check them (``change_settings``)."""
    policy = nmr_policy(_text(form, "nmr"))
    options = GameOptions(nmr=policy or Cd()).with_(timezone=_text(form, "timezone") or "UTC")
    return options.encode()


def _rule_value(text: str) -> str | bool:
    if not text or text.lower() in ("on", "yes", "true"):
        return True
    return False if text.lower() in ("off", "no", "false") else text


def _create_game(judge: Judge, uow: UnitOfWork, principal: GmPrincipal, form: FormData) -> str:
    """The game of the form, its settings and rule option set; returns where to go next."""
    actor = Actor(principal.email, Role.KEEPER if principal.keeper else Role.GM)
    if ruleset_for(_text(form, "variant")) is DOD3:  # DOD3 CREATE: a rule 3.1 grouping, then its players seated
        dod3 = create_linked_dod3_game(judge, uow, actor, principal.account_id, _text(form, "name"),
                                       _text(form, "password"), _text(form, "grouping"), _text(form, "soviets"))
        return f"/games/{dod3.game}?done=created#forming"
    press = _text(form, "press") or "white"
    created = create_linked_game(judge, uow, actor, principal.account_id, _text(form, "name"), _text(form, "password"),
                                 _text(form, "variant") or DEFAULT_VARIANT, "white" if press == "postal" else press,
                                 _settings(form))
    game_actor = Actor(principal.email, actor.role, created.game_id)
    change_settings(judge, uow, game_actor, settings_change(form), game_row(uow, created.name))
    option = _text(form, "rule_option")
    if option:
        gm.set_rule(judge, uow, game_actor, option, _rule_value(_text(form, "rule_value")))
    return f"/games/{created.name}?done=created"


@router.post("/games/new")
def create(request: Request, judge: JudgeDep, uow: Uow, principal: PageGm, form: PostedForm) -> Response:
    values = {k: _text(form, k) for k in form if k not in ("password", "csrf_token")}
    try:
        ZoneInfo(_text(form, "timezone") or "UTC")
    except Exception:
        return _new_game_page(request, 400, "Unknown time zone: use a name like Europe/Paris or UTC.", values)
    try:
        with uow.savepoint():  # a refusal anywhere undoes the whole creation (settings, rule option)...
            target = _create_game(judge, uow, principal, form)
    except DomainError as error:  # ...and, on purpose, the form comes back filled in with the reason
        return _new_game_page(request, 400, error.message, values)
    return RedirectResponse(target, status_code=303)


@router.post("/games/{name}/pause")
def pause(name: str, judge: JudgeDep, uow: Uow, actor: PageGame) -> Response:
    gm.pause(judge, uow, actor)
    return _back(name, "paused")


@router.post("/games/{name}/resume")
def resume(name: str, judge: JudgeDep, uow: Uow, actor: PageGame) -> Response:
    gm.resume(judge, uow, actor)
    return _back(name, "resumed")


@router.post("/games/pause")
def pause_several(judge: JudgeDep, uow: Uow, principal: PageGm, form: PostedForm) -> Response:
    """Pause (``action=pause``) or resume (``action=resume``) every game ticked on the overview (a
    holiday), each as its own PAUSE or RESUME; a game that cannot be is named in the answer."""
    db = uow.session
    resume = _text(form, "action") == "resume"
    done, refused = [], []
    for name in dict.fromkeys(str(value) for value in form.getlist("game")):
        game = queries.game_by_name(db, name)
        try:
            with uow.savepoint():
                if game is None:
                    raise not_gm(name)
                (gm.resume if resume else gm.pause)(judge, uow, gm_actor(uow, principal, game))
            done.append(name)
        except DomainError as error:  # on purpose: the others go on; the overview names it
            refused.append(f"{name} ({error.message})")
    note = f"{'resumed' if resume else 'paused'} {', '.join(done) or 'no game'}"
    note += f"; not {'resumed' if resume else 'paused'}: {'; '.join(refused)}" if refused else ""
    return RedirectResponse(f"/?done={quote(note)}", status_code=303)


@router.post("/games/{name}/replace")
def replace(name: str, judge: JudgeDep, uow: Uow, actor: PageGame, form: PostedForm) -> Response:
    replaced = gm.replace(judge, uow, actor, _text(form, "power"), _text(form, "address"),
                          _text(form, "password") or None)
    return _back(name, "waiting+for+the+new+address+to+confirm" if replaced.pending else "replaced")


@router.post("/games/{name}/invite")
def invite(name: str, judge: JudgeDep, uow: Uow, actor: PageGame, principal: PageGm, form: PostedForm) -> Response:
    invite_player(judge, uow, actor, game_row(uow, name), _text(form, "address"), _text(form, "note"),
                  proven=principal.proven)
    return _back(name, "invited")


@router.post("/games/{name}/mail/out/{mail_id}/resend")
def resend(name: str, mail_id: int, judge: JudgeDep, uow: Uow, actor: PageGame) -> Response:
    resend_mail(judge, uow, actor, game_row(uow, name), mail_id)
    return _back(name, "resent")


@router.post("/games/{name}/mail/in/{mail_id}/resolve")
def resolve(name: str, mail_id: int, judge: JudgeDep, uow: Uow, actor: PageGame) -> Response:
    set_aside_quarantined(judge, uow, actor, game_row(uow, name), mail_id)
    return _back(name, "resolved")
