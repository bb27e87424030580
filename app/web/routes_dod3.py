"""The GM's Days of Decision III entries as forms: the record, a power's number, the weather."""

from __future__ import annotations

from fractions import Fraction

from fastapi import APIRouter, HTTPException
from fastapi.responses import RedirectResponse, Response
from starlette.datastructures import FormData

from app.services.dod3.gm_entries import NumberEntry, PowerField, change_number, record_text, record_weather_result
from app.services.errors import DomainError
from app.web.deps import JudgeDep, PageGame, PostedForm, Uow
from app.web.forms import form_text

__all__ = ["number_entry", "router"]

router = APIRouter(include_in_schema=False)


def _text(form: FormData, key: str) -> str:
    return form_text(form, key)


def number_entry(text: str) -> NumberEntry:
    """``+2`` / ``-1/2`` add to the current value; ``4`` sets it (as ``DOD3 MONEY GE +2`` by mail)."""
    try:
        value = Fraction(text.strip())
    except (ValueError, ZeroDivisionError) as error:
        raise DomainError("bad_number", "a number is like 4, +2 or -1/2") from error
    return NumberEntry(value, relative=text.strip()[:1] in "+-")


def _done(name: str, what: str) -> Response:
    return RedirectResponse(f"/games/{name}?done={what}#dod3", status_code=303)


@router.post("/games/{name}/dod3/record")
def record(name: str, judge: JudgeDep, uow: Uow, actor: PageGame, form: PostedForm) -> Response:
    record_text(judge, uow, actor, _text(form, "text"))
    return _done(name, "recorded")


@router.post("/games/{name}/dod3/weather")
def weather(name: str, judge: JudgeDep, uow: Uow, actor: PageGame, form: PostedForm) -> Response:
    record_weather_result(judge, uow, actor, _text(form, "text"))
    return _done(name, "weather")


@router.post("/games/{name}/dod3/number")
def number(name: str, judge: JudgeDep, uow: Uow, actor: PageGame, form: PostedForm) -> Response:
    try:
        field = PowerField(_text(form, "field"))
    except ValueError as error:
        raise HTTPException(status_code=400, detail="Choose which number to change.") from error
    change_number(judge, uow, actor, _text(form, "power"), field, number_entry(_text(form, "value")))
    return _done(name, "number")
