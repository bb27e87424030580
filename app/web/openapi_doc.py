"""The API's description (/openapi.json): how a client signs in and carries the CSRF token.

The dashboard serves no API browser (Swagger UI loads from a CDN: blank on a closed network);
/openapi.json is the reference and docs/api.md holds curl examples."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi

from app.web.config import SESSION_COOKIE

__all__ = ["CSRF_HEADER", "describe_api"]

CSRF_HEADER = "X-CSRF-Token"
_CHANGES = ("post", "put", "patch", "delete")
_CSRF_TEXT = ("The session's CSRF token (GET /api/session returns it): every request that changes "
              "something carries it, or is refused with 403.")


def _with_security(schema: dict[str, Any]) -> dict[str, Any]:
    components = schema.setdefault("components", {})
    components.setdefault("securitySchemes", {}).update({
        "session": {"type": "apiKey", "in": "cookie", "name": SESSION_COOKIE,
                    "description": "The session cookie that POST /signin (a form: address, password, "
                                   "csrf_token) sets; see docs/api.md."},
        "csrf": {"type": "apiKey", "in": "header", "name": CSRF_HEADER, "description": _CSRF_TEXT},
    })
    for path, operations in schema.get("paths", {}).items():
        if not path.startswith("/api/"):
            continue
        for method, operation in operations.items():
            if method in _CHANGES:
                operation["security"] = [{"session": [], "csrf": []}]
                parameters = operation.setdefault("parameters", [])
                if not any(p.get("name") == CSRF_HEADER for p in parameters):
                    parameters.append({"name": CSRF_HEADER, "in": "header", "required": True,
                                       "description": _CSRF_TEXT, "schema": {"type": "string"}})
            elif method == "get":
                operation["security"] = [{"session": []}]
    return schema


def describe_api(app: FastAPI) -> None:
    """/openapi.json with the session cookie and the X-CSRF-Token header documented."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = _with_security(get_openapi(title=app.title, version=app.version,
                                                            description=app.description, routes=app.routes))
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
