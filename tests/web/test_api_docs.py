"""Issue 19.9: the API is described by /openapi.json, with its session cookie and its X-CSRF-Token
header, and by docs/api.md's curl examples; no page of the dashboard loads anything from another
site (Swagger UI at /docs did, from a CDN: blank on a closed network)."""

from __future__ import annotations

import re
from pathlib import Path

from tests.web.conftest import GM, GM_PASSWORD, World, signed_in

ROOT = Path(__file__).resolve().parents[2]
_EXTERNAL = re.compile(r"""(?:src|href)\s*=\s*["']?\s*(?:https?:)?//""", re.I)
PREVIEW = "/api/games/alpha/phases/S1901M/override/preview"


def test_no_api_browser_that_needs_a_cdn(world: World) -> None:
    client = signed_in(world, GM, GM_PASSWORD)
    for path in ("/docs", "/redoc", "/docs/oauth2-redirect"):
        assert client.get(path).status_code == 404, path
    for path in ("/", "/signin", "/games/alpha", "/public", "/public/games/alpha"):
        page = client.get(path)
        assert page.status_code == 200, path
        assert not _EXTERNAL.search(page.text), (path, _EXTERNAL.findall(page.text))
    assert 'href="/openapi.json"' in client.get("/").text


def test_openapi_documents_the_csrf_header(world: World) -> None:
    schema = world.client().get("/openapi.json").json()
    schemes = schema["components"]["securitySchemes"]
    assert schemes["csrf"] == {**schemes["csrf"], "type": "apiKey", "in": "header", "name": "X-CSRF-Token"}
    assert schemes["session"]["in"] == "cookie" and schemes["session"]["name"] == "pj_session"
    posts = [(path, op) for path, ops in schema["paths"].items() for method, op in ops.items() if method == "post"]
    assert {path for path, _ in posts} >= {"/api/games/{name}/phases/{code}/override/preview",
                                           "/api/games/{name}/phases/{code}/override/commit"}
    for path, op in posts:
        header = [p for p in op.get("parameters", []) if p["in"] == "header" and p["name"] == "X-CSRF-Token"]
        assert header and header[0]["required"] is True, path
        assert {"session": [], "csrf": []} in op["security"], path
    assert "/api/session" in schema["paths"]
    assert "X-CSRF-Token" in schema["info"]["description"]


def test_the_curl_examples_of_docs_api_md_work(world: World) -> None:
    """The steps of docs/api.md, as curl takes them: the sign-in form's cookie as the header, then
    the session's token from /api/session for every POST."""
    guide = (ROOT / "docs" / "api.md").read_text()
    for step in ("/signin", "pj_csrf", "X-CSRF-Token", "/api/session", "/api/games", "override/preview"):
        assert step in guide, step
    client = world.client()
    assert client.get("/signin").status_code == 200
    cookie = client.cookies["pj_csrf"]
    signed = client.post("/signin", data={"address": GM, "password": GM_PASSWORD}, headers={"X-CSRF-Token": cookie})
    assert signed.status_code == 303, signed.text
    session = client.get("/api/session").json()
    assert session["email"] == GM and session["keeper"] is False and len(session["csrf_token"]) >= 20
    assert [game["name"] for game in client.get("/api/games").json()] == ["alpha"]
    body = {"orders": {"FRANCE": ["A PAR - BUR", "A MAR - SPA", "F BRE - MAO"]}}
    assert client.post(PREVIEW, json=body).status_code == 403
    assert client.post(PREVIEW, json=body, headers={"X-CSRF-Token": cookie}).status_code == 403  # the old token
    preview = client.post(PREVIEW, json=body, headers={"X-CSRF-Token": session["csrf_token"]})
    assert preview.status_code == 200, preview.text


def test_the_session_route_needs_a_session(world: World) -> None:
    assert world.client().get("/api/session").status_code == 401
