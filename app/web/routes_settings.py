"""The settings page (issue 28.4, DPjudge's status page): every setting a GM can ``SET`` by mail,
the deadline with its "set it anyway" checkbox, and absence grants.

A refused value (issue 28.3) is answered on purpose: the page comes back, status 400, filled in
with what the GM posted and the refusal beside its field, worded for the web
(``app/web/refusals.py``: a "Process now" button, never "use PROCESS"); nothing of the request is
written or told (``UnitOfWork.savepoint``)."""

from __future__ import annotations

from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response

from app.services.errors import DomainError
from app.services.games import gm
from app.services.games.co_masters import add_co_master, co_masters_of, hand_over, remove_co_master
from app.services.games.settings import change_settings
from app.services.kernel.actor import Actor
from app.services.kernel.context import Judge
from app.services.kernel.uow import UnitOfWork
from app.services.readmodels.game_settings import settings_page
from app.services.seats.absence import grant_absence
from app.web.deps import JudgeDep, PageGame, PostedForm, Uow, game_row
from app.web.forms import form_text
from app.web.refusals import WebRefusal, web_refusal
from app.web.routes_gm_game import settings_change
from app.web.templating import pages

__all__ = ["router"]

router = APIRouter(include_in_schema=False)


def _page(request: Request, judge: Judge, uow: UnitOfWork, actor: Actor, name: str, *, status: int = 200,
          form: dict[str, str] | None = None, errors: dict[str, WebRefusal] | None = None) -> Response:
    game = game_row(uow, name)
    page = settings_page(judge, actor, game)
    return pages(request).render(request, "settings.html.j2", status_code=status, title=f"Settings of {page.game}",
                                 p=page, form=form or {}, errors=errors or {}, nmr_policies=gm.NMR_POLICIES,
                                 done=request.query_params.get("done", ""), masters=co_masters_of(uow, actor, game),
                                 co_master=actor.co_master)


def _refused(request: Request, judge: Judge, uow: UnitOfWork, actor: Actor, name: str, form: PostedForm,
             error: DomainError, field: str) -> Response:
    refusal = web_refusal(error)
    values = {key: form_text(form, key) for key in form if key != "csrf_token"}
    return _page(request, judge, uow, actor, name, status=400, form=values, errors={refusal.field or field: refusal})


@router.get("/games/{name}/settings")
def settings_view(request: Request, name: str, judge: JudgeDep, uow: Uow, actor: PageGame) -> Response:
    return _page(request, judge, uow, actor, name)


@router.post("/games/{name}/settings")
def save_settings(request: Request, name: str, judge: JudgeDep, uow: Uow, actor: PageGame, form: PostedForm) -> Response:
    """As the mail's ``SET`` commands: only what differs is changed, audited and told (one notice)."""
    try:
        with uow.savepoint():
            change_settings(judge, uow, actor, settings_change(form), game_row(uow, name))
    except DomainError as error:  # on purpose: the form again, filled in, the reason beside its field
        return _refused(request, judge, uow, actor, name, form, error, "settings")
    if form_text(form, "back") == "settings":
        return RedirectResponse(f"/games/{name}/settings?done=saved", status_code=303)
    return RedirectResponse(f"/games/{name}?done=settings#settings", status_code=303)


@router.post("/games/{name}/deadline")
def deadline(request: Request, name: str, judge: JudgeDep, uow: Uow, actor: PageGame, form: PostedForm) -> Response:
    """``SET DEADLINE``; a deadline inside a player's absence needs the "set it anyway" box (issue 22.2)."""
    words = form_text(form, "when").split()
    typed = bool(words) and words[-1].upper() == "CONFIRM"  # the mail's word, still understood
    confirm = form_text(form, "confirm") == "yes" or typed
    try:
        with uow.savepoint():
            gm.set_deadline(judge, uow, actor, " ".join(words[:-1] if typed else words), confirm=confirm)
    except DomainError as error:
        return _refused(request, judge, uow, actor, name, form, error, "when")
    if form_text(form, "back") == "settings":
        return RedirectResponse(f"/games/{name}/settings?done=deadline", status_code=303)
    return RedirectResponse(f"/games/{name}?done=deadline#admin", status_code=303)


_MASTERS = {"add": add_co_master, "remove": remove_co_master}


@router.post("/games/{name}/masters")
def masters(request: Request, name: str, judge: JudgeDep, uow: Uow, actor: PageGame, form: PostedForm) -> Response:
    """The game's GMs (issue 28.5): ``action=add`` or ``remove`` a co-GM (``address``; as ``PROMOTE`` and
    ``DEMOTE`` by mail), ``handover`` the game to a co-GM (as ``HANDOVER``)."""
    action, address = form_text(form, "action"), form_text(form, "address")
    try:
        with uow.savepoint():
            if action == "handover":
                hand_over(judge, uow, actor, address)
            else:
                _MASTERS.get(action, add_co_master)(judge, uow, actor, address)
    except DomainError as error:
        return _refused(request, judge, uow, actor, name, form, error, "address")
    if action == "handover":  # the game is the new master's now; the old one stays a co-GM (its account
        # runs the game again once it has proven its address by a mailed code)
        return RedirectResponse(f"/?done={quote(f'{name} handed over to {address}')}", status_code=303)
    done = "co-GM added" if action != "remove" else "co-GM removed"
    return RedirectResponse(f"/games/{name}/settings?done={done}#masters", status_code=303)


@router.post("/games/{name}/absence")
def absence(request: Request, name: str, judge: JudgeDep, uow: Uow, actor: PageGame, form: PostedForm) -> Response:
    """``GRANT ABSENCE power days``."""
    try:
        days = int(form_text(form, "days"))
    except ValueError:
        days = -1  # refused by the use case, in its words
    try:
        with uow.savepoint():
            grant_absence(judge, uow, actor, form_text(form, "power"), days)
    except DomainError as error:
        return _refused(request, judge, uow, actor, name, form, error, "days")
    return RedirectResponse(f"/games/{name}/settings?done=absence granted#absences", status_code=303)
