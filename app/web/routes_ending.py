"""The end of a game by the GM's ruling on the dashboard (issue 28.8): a page that lists the powers
still in the game, where the GM declares a draw (the powers ticked) or a concession (one power) with
a statement; the same use case as the mail's ``DECLARE DRAW`` / ``DECLARE CONCESSION``."""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import RedirectResponse, Response

from app.services.games.ending import declare_end, end_choices
from app.web.deps import JudgeDep, PageGame, PostedForm, Uow, game_row
from app.web.forms import form_text, storable
from app.web.templating import pages

__all__ = ["router"]

router = APIRouter(include_in_schema=False)


@router.get("/games/{name}/end")
def end_page(request: Request, name: str, judge: JudgeDep, uow: Uow, actor: PageGame) -> Response:
    choices = end_choices(judge, uow, actor, game_row(uow, name))
    return pages(request).render(request, "end_game.html.j2", title=f"End {choices.game}", choices=choices)


@router.post("/games/{name}/end")
def end_game(name: str, judge: JudgeDep, uow: Uow, actor: PageGame, form: PostedForm) -> Response:
    if form_text(form, "confirm") != "yes":
        raise HTTPException(status_code=400, detail="Tick the box to confirm: the game ends and every player is mailed.")
    how = form_text(form, "how")
    if how == "concession":
        powers = form_text(form, "concede_to")
    else:
        powers = ",".join(storable(value) for value in form.getlist("power") if isinstance(value, str))
    ended = declare_end(judge, uow, actor, game_row(uow, name), how, powers, form_text(form, "statement", strip=False))
    what = "a draw" if ended.how == "draw" else "a concession"
    return RedirectResponse(f"/games/{name}?done=game ended in {what}#admin", status_code=303)
