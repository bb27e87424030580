"""Dependencies of the routes: the database session, who is signed in, CSRF, the posted form, and
the guards.

Every route that does blocking work (the database, PROCESS, replays, maps, argon2) is a plain
``def``: FastAPI runs it in its threadpool, never on the event loop (tests/web/test_architecture.py).
The one thing awaited is the request's form (``PostedForm``), read here before the route runs.

Pages refuse by redirecting to the sign-in page (303); ``/api/`` routes answer 401 when nobody
is signed in and 403 when the GM signed in does not run the game."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from typing import Annotated
from urllib.parse import quote, urlsplit

from fastapi import Depends, HTTPException, Request
from starlette.datastructures import FormData

from app.db import queries
from app.db.models import Game
from app.services.bootstrap import read_only, transaction
from app.services.errors import DomainError
from app.services.games.gm_accounts import GmPrincipal, gm_actor, principal_for_session
from app.services.kernel.actor import Actor
from app.services.kernel.context import Judge
from app.services.kernel.uow import UnitOfWork
from app.web.config import ANON_CSRF_COOKIE, SESSION_COOKIE, WebConfig

__all__ = [
    "ApiGame",
    "ApiGm",
    "Uow",
    "JudgeDep",
    "MaybeGm",
    "PageGame",
    "PageGm",
    "PostedForm",
    "SignInRequired",
    "csrf_protect",
    "safe_next",
]

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


class SignInRequired(Exception):
    """A page needs a GM (of this game): the app answers with a redirect to the sign-in page."""

    def __init__(self, next_url: str, reason: str = "") -> None:
        super().__init__(reason)
        self.next_url = next_url
        self.reason = reason

    @property
    def location(self) -> str:
        target = f"/signin?next={quote(safe_next(self.next_url), safe='/')}"
        return target + ("&denied=1" if self.reason else "")


def safe_next(value: str | None) -> str:
    """Only a local path may follow sign-in (no open redirect to another site).  Browsers drop
    tabs and newlines and read a backslash as a slash, so "/<tab>/evil" is refused as well."""
    if not value or not value.startswith("/") or any(c <= " " or c in "\\\x7f" for c in value):
        return "/"
    parts = urlsplit(value)
    if value.startswith("//") or parts.scheme or parts.netloc:
        return "/"
    return value


def get_judge(request: Request) -> Judge:
    judge: Judge = request.app.state.judge
    return judge


def get_config(request: Request) -> WebConfig:
    config: WebConfig = request.app.state.web
    return config


JudgeDep = Annotated[Judge, Depends(get_judge)]


def get_uow(request: Request, judge: JudgeDep) -> Iterator[UnitOfWork]:
    """One unit of work per request (``app.services.kernel.uow``), committed when the route returns
    and before the response is sent (``scope="function"``): a commit that fails answers 500, never
    the route's 200 or 303.  The use cases' events (orders changed -> early processing) are
    handled at that commit, as the mail door's are.  A read (GET, HEAD) runs in a read-only unit:
    on embedded SQLite it takes no write lock, so a page never waits for the poller or a turn."""
    with (read_only if request.method in SAFE_METHODS else transaction)(judge) as unit:
        yield unit


Uow = Annotated[UnitOfWork, Depends(get_uow, scope="function")]


def optional_principal(request: Request, judge: JudgeDep, uow: Uow) -> GmPrincipal | None:
    config = get_config(request)
    principal = principal_for_session(judge, uow, request.cookies.get(SESSION_COOKIE, ""),
                                      keeper_address=config.keeper_address)
    request.state.principal = principal
    if principal is not None:
        request.state.csrf_token = principal.csrf_token
    else:
        token = request.cookies.get(ANON_CSRF_COOKIE) or ""
        if len(token) < 20:
            token = secrets.token_urlsafe(32)
            request.state.new_anon_csrf = token  # set as a cookie by the app's middleware
        request.state.csrf_token = token
    return principal


MaybeGm = Annotated[GmPrincipal | None, Depends(optional_principal)]


async def csrf_protect(request: Request, principal: MaybeGm) -> None:
    """Every state-changing request carries the CSRF token: the session's own once signed in,
    before that the double-submit cookie.  As a form field ``csrf_token`` or header ``X-CSRF-Token``."""
    if request.method in SAFE_METHODS:
        return
    expected = principal.csrf_token if principal is not None else request.cookies.get(ANON_CSRF_COOKIE, "")
    sent = request.headers.get("x-csrf-token", "")
    if not sent and "form" in request.headers.get("content-type", ""):
        value = (await request.form()).get("csrf_token", "")
        sent = value if isinstance(value, str) else ""
    if not expected or not sent or not secrets.compare_digest(expected.encode(), sent.encode()):
        raise HTTPException(status_code=403, detail="Missing or wrong CSRF token: reload the page and try again.")


async def posted_form(request: Request) -> FormData:
    """The request's form fields, read on the event loop so that the route that takes them may be
    a plain ``def`` (Starlette keeps the form: ``csrf_protect`` read it first)."""
    return await request.form()


PostedForm = Annotated[FormData, Depends(posted_form)]


def _page_url(request: Request) -> str:
    return request.url.path + (f"?{request.url.query}" if request.url.query else "")


def page_principal(request: Request, principal: MaybeGm) -> GmPrincipal:
    if principal is None:
        raise SignInRequired(_page_url(request))
    return principal


def api_principal(principal: MaybeGm) -> GmPrincipal:
    if principal is None:
        raise HTTPException(status_code=401, detail="Sign in as a GM first.", headers={"WWW-Authenticate": "Cookie"})
    return principal


PageGm = Annotated[GmPrincipal, Depends(page_principal)]
ApiGm = Annotated[GmPrincipal, Depends(api_principal)]


def game_row(uow: UnitOfWork, name: str) -> Game:
    """The game called ``name`` (its GM has been checked by the route's dependency), or a 404."""
    db = uow.session
    game = queries.game_by_name(db, name)
    if game is None:
        raise HTTPException(status_code=404, detail=f"There is no game '{name}'.")
    return game


def _actor_for(uow: UnitOfWork, principal: GmPrincipal, name: str) -> Actor | None:
    """The GM actor for game ``name``; None when it is not theirs (or, for a GM, does not exist)."""
    db = uow.session
    game = queries.game_by_name(db, name)
    if game is None:
        if principal.keeper:
            raise HTTPException(status_code=404, detail=f"There is no game '{name}'.")
        return None
    try:
        return gm_actor(uow, principal, game)
    except DomainError:
        return None


def page_game(request: Request, name: str, principal: PageGm, uow: Uow) -> Actor:
    actor = _actor_for(uow, principal, name)
    if actor is None:
        raise SignInRequired(_page_url(request), reason="not_gm")
    return actor


def api_game(name: str, principal: ApiGm, uow: Uow) -> Actor:
    actor = _actor_for(uow, principal, name)
    if actor is None:
        raise HTTPException(status_code=403, detail=f"You are not the GM of game '{name}'.")
    return actor


PageGame = Annotated[Actor, Depends(page_game)]
ApiGame = Annotated[Actor, Depends(api_game)]
