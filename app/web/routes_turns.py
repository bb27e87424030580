"""The GM's turn tools (issue 21.10, 21.12): processing after a confirmation page that lists the powers
defaulted and previews the results, a rollback, a power's orders entered by the GM."""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import RedirectResponse, Response

from app.services.turns.control import process_now, rollback
from app.services.turns.gm_tools import enter_orders, plan_processing
from app.web.deps import JudgeDep, PageGame, PostedForm, Uow, game_row
from app.web.forms import form_text
from app.web.templating import pages

__all__ = ["router"]

router = APIRouter(include_in_schema=False)


def _back(name: str, note: str) -> RedirectResponse:
    return RedirectResponse(f"/games/{name}?done={note}#admin", status_code=303)


@router.get("/games/{name}/process")
def confirm_process(request: Request, name: str, judge: JudgeDep, uow: Uow, actor: PageGame) -> Response:
    plan = plan_processing(judge, uow, actor, game_row(uow, name))
    return pages(request).render(request, "process.html.j2", title=f"Process {plan.game} {plan.phase}", plan=plan)


@router.post("/games/{name}/process")
def process(name: str, judge: JudgeDep, uow: Uow, actor: PageGame, form: PostedForm) -> Response:
    if form_text(form, "confirm") != "yes":  # one click never adjudicates: the confirmation page first
        return RedirectResponse(f"/games/{name}/process", status_code=303)
    process_now(judge, uow, actor, game_row(uow, name), form_text(form, "phase") or None)
    return _back(name, "processed")


@router.post("/games/{name}/rollback")
def roll_back(name: str, judge: JudgeDep, uow: Uow, actor: PageGame, form: PostedForm) -> Response:
    if form_text(form, "confirm") != "yes":
        raise HTTPException(status_code=400, detail="Tick the box to confirm the rollback: every player is mailed.")
    done = rollback(judge, uow, actor, game_row(uow, name), form_text(form, "phase") or None,
                    restore=form_text(form, "restore") == "yes")
    return _back(name, f"rolled back to {done.phase}")


@router.post("/games/{name}/orders")
def gm_orders(request: Request, name: str, judge: JudgeDep, uow: Uow, actor: PageGame, form: PostedForm) -> Response:
    receipt = enter_orders(judge, uow, actor, game_row(uow, name), form_text(form, "power"), form_text(form, "orders"))
    if receipt.stored and all(line.ok for line in receipt.lines):
        return _back(name, f"orders of {receipt.power} stored")
    return pages(request).render(request, "orders_receipt.html.j2", status_code=200 if receipt.stored else 400,
                                 title=f"Orders of {receipt.power}", receipt=receipt)
