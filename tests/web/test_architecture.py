"""The web door never blocks the event loop (issue 20.4): every route of app/web is a plain ``def``,
which FastAPI runs in its threadpool, and no ``async`` dependency takes the database or the judge.
An ``async def`` route runs on the event loop itself: its database work, a PROCESS, a replay, a
map or an argon2 hash there would stall every other request of the dashboard meanwhile."""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from typing import Any

import fastapi.routing
from fastapi import Depends, FastAPI, Request
from fastapi.dependencies.models import Dependant

from app.db.session import make_engine, make_sessionmaker
from app.services.kernel.context import Judge
from app.settings import Settings
from app.web import create_app
from app.web.deps import JudgeDep, Uow, csrf_protect, get_judge, get_uow

_BLOCKING = (get_uow, get_judge)  # the unit of work, and the judge (whose sessions open more)


def _app() -> FastAPI:
    url = "sqlite://"  # never connected to: the routes are only looked at
    judge = Judge(settings=Settings(database_url=url, judge_address="judge@judge.test", admin_address="k@example.com"),
                  sessions=make_sessionmaker(make_engine(url)))
    return create_app(judge)


def _tree(dependant: Dependant) -> Iterator[Dependant]:
    for sub in dependant.dependencies:
        yield sub
        yield from _tree(sub)


def web_routes(app: FastAPI) -> list[Any]:
    """Every route of app/web as it is served, the dependencies of its router's inclusion (the CSRF
    guard) among its own: FastAPI 0.165 keeps an included router as one entry of ``app.routes``,
    which ``iter_route_contexts`` opens; earlier versions list the routes themselves."""
    contexts = getattr(fastapi.routing, "iter_route_contexts", None)
    routes = list(contexts(app.routes)) if contexts is not None else list(app.routes)
    return [route for route in routes if isinstance(getattr(route, "dependant", None), Dependant)
            and getattr(getattr(route, "endpoint", None), "__module__", "").startswith("app.web")]


def on_the_loop(app: FastAPI) -> list[str]:
    """What would run blocking work on the event loop: an ``async`` route of app/web, an ``async``
    dependency that takes the database or the judge."""
    found = []
    for route in web_routes(app):
        if inspect.iscoroutinefunction(route.endpoint):
            found.append(f"route {route.path} ({route.endpoint.__module__}.{route.endpoint.__name__})")
        for dependency in _tree(route.dependant):
            takes = [sub.call for sub in dependency.dependencies if sub.call in _BLOCKING]
            if inspect.iscoroutinefunction(dependency.call) and takes:
                found.append(f"dependency {getattr(dependency.call, '__qualname__', dependency.call)} of {route.path}")
    return sorted(set(found))


def test_no_route_or_dependency_of_the_dashboard_runs_blocking_work_on_the_event_loop() -> None:
    app = _app()
    paths = {route.path for route in web_routes(app)}
    assert len(paths) > 40 and {"/healthz", "/games/new", "/games/{name}/process", "/mailbox/send",
                                "/api/games/{name}/phases/{code}/override/commit"} <= paths, paths
    guarded = [r for r in web_routes(app) if r.path == "/games/{name}/process" and "POST" in r.methods]
    assert csrf_protect in [d.call for d in _tree(guarded[0].dependant)]  # the inclusion's guard is looked at
    assert on_the_loop(app) == []


def test_an_async_route_or_dependency_with_the_database_is_caught() -> None:
    """The check above is no formality: it names an ``async`` route that takes the session, and an
    ``async`` dependency that takes the judge."""
    app = _app()

    async def judge_first(request: Request, judge: JudgeDep) -> None:
        return None

    async def slow(uow: Uow) -> dict[str, str]:
        return {}

    def fine(uow: Uow) -> dict[str, str]:
        return {}

    for name, endpoint in (("slow", slow), ("fine", fine)):
        endpoint.__module__ = "app.web.spy"
        app.add_api_route(f"/{name}", endpoint)

    def guarded(_: None = Depends(judge_first)) -> dict[str, str]:
        return {}

    guarded.__module__ = "app.web.spy"
    app.add_api_route("/guarded", guarded)
    found = [line for line in on_the_loop(app) if "spy" in line or "/guarded" in line]  # /fine is no finding
    assert found == ["dependency test_an_async_route_or_dependency_with_the_database_is_caught.<locals>.judge_first "
                     "of /guarded", "route /slow (app.web.spy.slow)"], found
