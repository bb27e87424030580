"""The app factory of the dashboard: routers, error pages, cookies and security headers."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

from fastapi import Depends, FastAPI, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.responses import JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException as StarletteHTTPException

from app.services.bootstrap import read_only
from app.services.errors import DomainError
from app.services.kernel.context import Judge
from app.web import (
    routes_admin,
    routes_api,
    routes_api_tools,
    routes_auth,
    routes_dod3,
    routes_ending,
    routes_gm_game,
    routes_mailbox,
    routes_maps,
    routes_override,
    routes_pages,
    routes_public,
    routes_settings,
    routes_turns,
)
from app.web.config import ANON_CSRF_COOKIE, WebConfig
from app.web.deps import SignInRequired, csrf_protect
from app.web.errors import refusal_status
from app.web.openapi_doc import CSRF_HEADER, describe_api
from app.web.refusals import web_refusal
from app.web.routes_mailbox import InboxWriter
from app.web.templating import Pages

__all__ = ["WebConfig", "create_app"]

STATIC_DIR = Path(__file__).resolve().parent / "static"
_PAGE_CSP = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; frame-ancestors 'none'"


def _seconds(value: float | None) -> float | None:
    return None if value is None else round(value, 1)


def _is_api(request: Request) -> bool:
    return request.url.path.startswith("/api/") or request.url.path == "/api"


def _game_of(path: str) -> str | None:
    """The game a page below a game's page belongs to (/games/<name>/..., /public/games/<name>/...),
    for the error page's way back; None for other pages (the game's own page among them)."""
    parts = path.strip("/").split("/")
    if parts[:1] == ["public"]:
        parts = parts[1:]
    return parts[1] if len(parts) >= 3 and parts[0] == "games" else None


def _error_page(request: Request, status: int, detail: str) -> Response:
    pages: Pages = request.app.state.pages
    return pages.render(request, "error.html.j2", status_code=status, title=f"Error {status}",
                        status=status, detail=detail, back_game=_game_of(request.url.path))


def create_app(judge: Judge, *, keeper_address: str | None = None, secure_cookies: bool = False,
               inbox_writer: InboxWriter | None = None, trusted_proxies: tuple[str, ...] | None = None) -> FastAPI:
    """The dashboard over ``judge``'s use cases.  The judgekeeper defaults to the settings'
    ``admin_address``; ``secure_cookies`` must be on when it is served over https.  ``inbox_writer``
    (embedded mail mode) drops a raw mail into the judge's inbox: the mailbox page writes with it.
    ``trusted_proxies`` (default: the settings' ``JUDGE_WEB_TRUSTED_PROXIES``): the reverse proxies
    whose ``X-Forwarded-For`` names the client for the sign-in limits."""
    app = FastAPI(title="Postal Judge dashboard", version="1", docs_url=None, redoc_url=None,
                  description="The GM dashboard's JSON API: a GM signs in on /signin; every /api/ route "
                              "needs the session cookie of a GM of that game (401 signed out, 403 another GM), "
                              f"and every request that changes something the header {CSRF_HEADER} with the "
                              "session's CSRF token (GET /api/session; 403 without it). curl examples: "
                              "docs/api.md.")
    describe_api(app)
    app.state.judge = judge
    app.state.web = WebConfig(keeper_address=(keeper_address or judge.settings.admin_address).lower(),
                              secure_cookies=secure_cookies,
                              trusted_proxies=judge.settings.trusted_proxies if trusted_proxies is None
                              else trusted_proxies)
    app.state.pages = Pages()
    app.state.inbox_writer = inbox_writer
    guarded = [Depends(csrf_protect)]
    for router in (routes_auth.router, routes_admin.router, routes_gm_game.router, routes_turns.router, routes_dod3.router,
                   routes_pages.router, routes_override.router, routes_maps.router, routes_public.router,
                   routes_api.router, routes_api_tools.router, routes_mailbox.router, routes_ending.router,
                   routes_settings.router):
        app.include_router(router, dependencies=guarded)
    app.mount("/static", StaticFiles(directory=str(STATIC_DIR)), name="static")

    @app.get("/healthz", tags=["health"],
             summary="The dashboard is up, its database answers and every loop of the judge ran lately",
             description="200 with each loop's last good round (poller, drain, scheduler under `judge serve`); "
                         "503 when one of them died, hangs or keeps failing (`JUDGE_HEALTH_STALE_SECONDS`).")
    def healthz() -> JSONResponse:
        database: dict[str, object] = {"healthy": True}
        try:
            with read_only(judge) as unit:  # no write lock: it answers while a turn is being processed
                unit.session.execute(text("SELECT 1"))
        except (SQLAlchemyError, OSError) as error:  # the database is down: a 503 that says so, never a 500
            database = {"healthy": False, "error": type(error).__name__,
                        "reason": f"the database does not answer ({type(error).__name__})"}
        loops = judge.health.reports()
        reasons = ([str(database["reason"])] if not database["healthy"] else []) + [
            f"{loop.name}: {loop.reason}" for loop in loops if loop.reason]
        healthy = not reasons
        return JSONResponse({"status": "ok" if healthy else "unhealthy", "reasons": reasons, "database": database,
                             "loops": {
            loop.name: {"healthy": loop.healthy, "last_ok": loop.last_ok.isoformat() if loop.last_ok else None,
                        "seconds_since_ok": _seconds(loop.seconds_since_ok), "busy_seconds": _seconds(loop.busy_seconds),
                        "crashes": loop.crashes, "last_error": loop.last_error, "reason": loop.reason}
            for loop in loops}}, status_code=200 if healthy else 503)

    @app.exception_handler(SignInRequired)
    async def _to_sign_in(request: Request, exc: SignInRequired) -> Response:
        return RedirectResponse(exc.location, status_code=303)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> Response:
        if _is_api(request) or request.url.path in ("/healthz", "/openapi.json"):
            return await http_exception_handler(request, exc)
        detail = exc.detail if isinstance(exc.detail, str) else "Something went wrong."
        return _error_page(request, exc.status_code, detail)

    @app.exception_handler(DomainError)
    async def _refused(request: Request, exc: DomainError) -> Response:
        """A use case refused (app/web/errors.py: the status); the request's writes rolled back."""
        status = refusal_status(request.method, exc.code)
        if _is_api(request):
            body = {"detail": exc.message, "code": exc.code, **({"values": exc.values} if exc.values else {})}
            return JSONResponse(body, status_code=status)
        return _error_page(request, status, web_refusal(exc).text)

    @app.middleware("http")
    async def _headers(request: Request, call_next: Callable[[Request], Awaitable[Response]]) -> Response:
        response = await call_next(request)
        token = getattr(request.state, "new_anon_csrf", None)
        if token:
            response.set_cookie(ANON_CSRF_COOKIE, token, path="/", httponly=True, samesite="lax",
                                secure=secure_cookies)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("X-Frame-Options", "DENY")
        response.headers.setdefault("Referrer-Policy", "same-origin")
        response.headers.setdefault("Content-Security-Policy", _PAGE_CSP)
        if request.url.path not in ("/healthz",) and not request.url.path.startswith("/static"):
            response.headers.setdefault("Cache-Control", "no-store")
        return response

    return app
