"""The web door: the GM dashboard and its JSON API (FastAPI), a thin adapter over app/services."""

from app.web.app import WebConfig, create_app
from app.web.serve import make_server, serve_dashboard

__all__ = ["WebConfig", "create_app", "make_server", "serve_dashboard"]
