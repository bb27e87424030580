"""Contested adjudications on the web: the GM previews an override of a processed phase (old and new
side by side, both maps), commits it with a reason, and answers the player's contest."""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import RedirectResponse, Response
from starlette.datastructures import FormData

from app.services.errors import DomainError
from app.services.games.contests import Verdict, answer_contest, check_open
from app.services.override.apply import commit_override
from app.services.override.changes import LaterOrders, OrderChange, OverrideChanges, RuleChange, Ruling, UnitRuling
from app.services.override.review import PhaseOrders, phase_orders, review_override
from app.services.readmodels.maps import MapData
from app.web.deps import JudgeDep, PageGame, PostedForm, Uow, game_row
from app.web.forms import form_text
from app.web.maps import data_uri, map_svg
from app.web.templating import pages

__all__ = ["changes_from_form", "later_from_text", "router"]

router = APIRouter(include_in_schema=False)



def _text(form: FormData, key: str) -> str:
    return form_text(form, key, strip=False)


def _lines(text: str) -> tuple[str, ...]:
    return tuple(line.strip() for line in text.replace("\r\n", "\n").split("\n") if line.strip())


def _rule_value(text: str) -> str | bool | None:
    value = text.strip()
    if not value or value.lower() == "default":
        return None
    if value.lower() in ("on", "yes", "true"):
        return True
    if value.lower() in ("off", "no", "false"):
        return False
    return value


def later_from_text(text: str) -> tuple[LaterOrders, ...]:
    """``W1901A Russia: BUILD A WAR``, one order a line: each power named in a phase gets the
    lines given for it as its whole orders of that phase (``W1901A Russia:`` alone: no orders)."""
    found: dict[tuple[str, str], list[str]] = {}
    for line in _lines(text):
        head, colon, order = line.partition(":")
        words = head.split()
        if not colon or len(words) != 2:
            raise DomainError("bad_later_order", f"'{line}': write a later phase's order as 'W1901A Russia: BUILD A WAR'")
        orders = found.setdefault((words[0].upper(), words[1].upper()), [])
        if order.strip():
            orders.append(order.strip())
    phases: dict[str, list[OrderChange]] = {}
    for (phase, power), orders in found.items():
        phases.setdefault(phase, []).append(OrderChange(power, tuple(orders)))
    return tuple(LaterOrders(phase, tuple(changes)) for phase, changes in phases.items())


def changes_from_form(form: FormData, original: PhaseOrders) -> OverrideChanges:
    """The GM's edits: a power's orders when its text differs from what it sent, a rule option,
    a ruling on a unit."""
    orders = []
    for power, lines in original.orders:
        key = f"orders_{power}"
        if key in form:
            edited = _lines(_text(form, key))
            if edited != tuple(line.strip() for line in lines):
                orders.append(OrderChange(power, edited))
    rules = []
    option = _text(form, "rule_option").strip()
    if option:
        rules.append(RuleChange(option, _rule_value(_text(form, "rule_value"))))
    rulings = []
    location = _text(form, "ruling_location").strip()
    verdict = _text(form, "ruling").strip().lower()
    if location:
        if verdict not in (Ruling.HOLDS.value, Ruling.FAILS.value):
            raise DomainError("bad_ruling", "choose whether the unit holds or its order fails")
        rulings.append(UnitRuling(location, Ruling(verdict)))
    return OverrideChanges(tuple(orders), tuple(rules), tuple(rulings), later_from_text(_text(form, "later_orders")))


def _contest_id(form: FormData) -> int | None:
    raw = _text(form, "contest").strip()
    return int(raw) if raw.isdigit() else None


@router.post("/games/{name}/phases/{code}/override")
def override(request: Request, name: str, code: str, judge: JudgeDep, uow: Uow, actor: PageGame,
             form: PostedForm) -> Response:
    """``action=preview``: old and new side by side; ``action=commit``: re-adjudicate, replay, mail."""
    game = game_row(uow, name)
    original = phase_orders(judge, uow, actor, game, code)
    form_values = {k: _text(form, k) for k in form}
    contest = _contest_id(form)
    try:
        changes = changes_from_form(form, original)
        if _text(form, "action") == "commit":
            if contest is not None:
                check_open(judge, uow, actor, game, contest)
            committed = commit_override(judge, uow, actor, game, original.phase, changes, _text(form, "reason"))
            if contest is not None:
                answer_contest(judge, uow, actor, game, contest, Verdict.UPHELD, committed.reason)
            return RedirectResponse(f"/games/{game.name}/phases/{original.phase}?corrected={committed.mails}",
                                    status_code=303)
        review = review_override(judge, uow, actor, game, original.phase, changes)
    except DomainError as error:  # on purpose: the form again, the GM's edits kept, with the reason
        return pages(request).render(request, "override.html.j2", status_code=400, title=f"Override {original.phase}",
                                     game=game.name, phase=original.phase, error=error.message, review=None,
                                     form=form_values, original=original, contest=contest, new_map=None)
    try:
        new_map: str | None = data_uri(map_svg(MapData(review.variant, f"Game {game.name} (corrected)", review.state_before_new,
                                           review.results_new)))
    except HTTPException:
        new_map = None
    return pages(request).render(request, "override.html.j2", title=f"Override {original.phase}", game=game.name,
                                 phase=original.phase, error=None, review=review, form=form_values,
                                 original=original, contest=contest, new_map=new_map)


@router.post("/games/{name}/contests/{contest_id}/answer")
def answer(name: str, contest_id: int, judge: JudgeDep, uow: Uow, actor: PageGame, form: PostedForm) -> Response:
    game = game_row(uow, name)
    try:
        verdict = Verdict(_text(form, "verdict"))
    except ValueError as error:
        raise HTTPException(status_code=400, detail="Choose rejected or answered.") from error
    view = answer_contest(judge, uow, actor, game, contest_id, verdict, _text(form, "answer"))
    return RedirectResponse(f"/games/{game.name}/phases/{view.phase}#contests", status_code=303)
