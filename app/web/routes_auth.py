"""Sign-in (password or a code mailed to the address), sign-up and password reset (a code),
sign-out, and linking a game to the signed-in account (its master password).

These forms catch their refusals themselves instead of leaving them to the app's DomainError
handler, which rolls the request back: a failed attempt counts towards the limits (it is
committed with the answer), and the sign-in forms come back with the address filled in."""

from __future__ import annotations

from typing import Annotated
from urllib.parse import quote

from fastapi import APIRouter, Form, Request
from fastapi.responses import RedirectResponse, Response

from app.services.errors import DomainError
from app.services.games.gm_accounts import SignedIn, close_session, link_game, sign_in
from app.services.games.gm_signup import request_code, sign_in_with_code
from app.services.kernel.actor import Actor
from app.web.clients import client_address
from app.web.config import SESSION_COOKIE
from app.web.deps import JudgeDep, MaybeGm, PageGm, Uow, get_config, safe_next
from app.web.errors import LIMITED, refusal_status
from app.web.forms import storable
from app.web.templating import pages

__all__ = ["router"]

router = APIRouter(tags=["sign-in"])

def _client(request: Request) -> str:
    return client_address(request, get_config(request).trusted_proxies)


def _signin_page(request: Request, *, next: str, address: str = "", error: DomainError | None = None,
                 denied: bool = False) -> Response:
    status = 200 if error is None else 429 if error.code in LIMITED else 401
    return pages(request).render(request, "signin.html.j2", status_code=status, title="Sign in",
                                 next=safe_next(next), denied=denied, address=address,
                                 error=error.message if error else None, locked=bool(error and error.code in LIMITED))


def _code_page(request: Request, *, next: str, address: str, error: DomainError | None = None) -> Response:
    status = 200 if error is None else 429 if error.code in LIMITED else 400
    return pages(request).render(request, "signin_code.html.j2", status_code=status, title="Sign in with a code",
                                 next=safe_next(next), address=address, error=error.message if error else None)


def _signed_in(request: Request, judge: JudgeDep, uow: Uow, signed: SignedIn, next: str) -> Response:
    previous = request.cookies.get(SESSION_COOKIE, "")
    if previous:  # a new session for every sign-in: the old one (if any) ends here
        close_session(uow, previous)
    response = RedirectResponse(safe_next(next), status_code=303)
    max_age = int((signed.expires_at - judge.now()).total_seconds())
    response.set_cookie(SESSION_COOKIE, signed.session_token, max_age=max_age, path="/",
                        httponly=True, samesite="lax", secure=get_config(request).secure_cookies)
    return response


@router.get("/signin", include_in_schema=False)
def signin_page(request: Request, principal: MaybeGm, next: str = "/", denied: int = 0) -> Response:
    return _signin_page(request, next=next, denied=bool(denied and principal))


@router.post("/signin", include_in_schema=False)
def signin_submit(request: Request, judge: JudgeDep, uow: Uow, address: Annotated[str, Form(max_length=320)] = "",
                  password: Annotated[str, Form(max_length=200)] = "",
                  next: Annotated[str, Form(max_length=500)] = "/") -> Response:
    config = get_config(request)
    address, password = storable(address), storable(password)
    try:
        signed = sign_in(judge, uow, Actor(address.strip()), password, client=_client(request),
                         keeper_address=config.keeper_address)
    except DomainError as error:  # the failed attempt is committed with this request all the same
        return _signin_page(request, next=next, address=address, error=error)
    return _signed_in(request, judge, uow, signed, next)


@router.post("/signin/code/send", include_in_schema=False)
def code_send(request: Request, judge: JudgeDep, uow: Uow, address: Annotated[str, Form(max_length=320)] = "",
              next: Annotated[str, Form(max_length=500)] = "/") -> Response:
    """Mail a one-time code to the address (the page says the same whether one went or not)."""
    address = storable(address)
    try:
        asked = request_code(judge, uow, address, client=_client(request),
                             keeper_address=get_config(request).keeper_address)
    except DomainError as error:
        return _code_page(request, next=next, address=address.strip(), error=error)
    return _code_page(request, next=next, address=asked.address)


@router.post("/signin/code", include_in_schema=False)
def code_submit(request: Request, judge: JudgeDep, uow: Uow, address: Annotated[str, Form(max_length=320)] = "",
                code: Annotated[str, Form(max_length=40)] = "", password: Annotated[str, Form(max_length=200)] = "",
                next: Annotated[str, Form(max_length=500)] = "/") -> Response:
    address, code, password = storable(address), storable(code), storable(password)
    try:
        signed = sign_in_with_code(judge, uow, address, code, password, client=_client(request),
                                   keeper_address=get_config(request).keeper_address)
    except DomainError as error:  # the failed attempt is committed with this request all the same
        return _code_page(request, next=next, address=address.strip(), error=error)
    return _signed_in(request, judge, uow, signed, next)


@router.post("/account/link", include_in_schema=False)
def link(request: Request, judge: JudgeDep, uow: Uow, principal: PageGm, name: Annotated[str, Form(max_length=40)] = "",
         password: Annotated[str, Form(max_length=200)] = "") -> Response:
    """Link a game run from the account's address: the signed-in GM shows its master password."""
    try:
        link_game(judge, uow, principal, name, password, client=_client(request))
    except DomainError as error:  # on purpose, as the sign-in forms: the failed attempt is committed all the same
        status = refusal_status(request.method, error.code)
        return pages(request).render(request, "error.html.j2", status_code=status, title="Not linked",
                                     status=status, detail=error.message)
    return RedirectResponse(f"/games/{quote(name.strip(), safe='')}", status_code=303)


@router.post("/signout", include_in_schema=False)
def signout(request: Request, uow: Uow, principal: MaybeGm) -> Response:
    token = request.cookies.get(SESSION_COOKIE, "")
    if token:
        close_session(uow, token)
    response = RedirectResponse("/signin", status_code=303)
    response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="lax",
                           secure=get_config(request).secure_cookies)
    return response
