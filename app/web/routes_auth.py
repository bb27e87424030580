"""Sign-in and sign-out."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, Request
from fastapi.responses import RedirectResponse, Response

from app.services.actor import Actor
from app.services.errors import DomainError
from app.services.gm_accounts import close_session, sign_in
from app.web.config import SESSION_COOKIE
from app.web.deps import Db, JudgeDep, MaybeGm, get_config, safe_next
from app.web.forms import storable
from app.web.templating import pages

__all__ = ["router"]

router = APIRouter(tags=["sign-in"])


@router.get("/signin", include_in_schema=False)
def signin_page(request: Request, principal: MaybeGm, next: str = "/", denied: int = 0) -> Response:
    return pages(request).render(request, "signin.html.j2", title="Sign in", next=safe_next(next),
                                  denied=bool(denied and principal), address="", error=None)


@router.post("/signin", include_in_schema=False)
def signin_submit(request: Request, judge: JudgeDep, db: Db, address: Annotated[str, Form(max_length=320)] = "",
                  password: Annotated[str, Form(max_length=200)] = "",
                  next: Annotated[str, Form(max_length=500)] = "/") -> Response:
    config = get_config(request)
    client = request.client.host if request.client else "unknown"
    address, password = storable(address), storable(password)
    try:
        signed = sign_in(judge, db, Actor(address.strip()), password, client=client,
                         keeper_address=config.keeper_address)
    except DomainError as error:  # the failed attempt is committed with this request all the same
        status = 429 if error.code == "too_many_attempts" else 401
        return pages(request).render(request, "signin.html.j2", status_code=status, title="Sign in",
                                      next=safe_next(next), denied=False, address=address, error=error.message)
    previous = request.cookies.get(SESSION_COOKIE, "")
    if previous:  # a new session for every sign-in: the old one (if any) ends here
        close_session(db, previous)
    response = RedirectResponse(safe_next(next), status_code=303)
    max_age = int((signed.expires_at - judge.now()).total_seconds())
    response.set_cookie(SESSION_COOKIE, signed.session_token, max_age=max_age, path="/",
                        httponly=True, samesite="lax", secure=config.secure_cookies)
    return response


@router.post("/signout", include_in_schema=False)
def signout(request: Request, db: Db, principal: MaybeGm) -> Response:
    token = request.cookies.get(SESSION_COOKIE, "")
    if token:
        close_session(db, token)
    response = RedirectResponse("/signin", status_code=303)
    response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="lax",
                           secure=get_config(request).secure_cookies)
    return response
