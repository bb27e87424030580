"""The dashboard's Jinja templates (templates/web/), autoescaped, rendered into HTML responses."""

from __future__ import annotations

from datetime import datetime
from functools import cached_property
from pathlib import Path
from typing import Any

import jinja2
from fastapi import Request
from fastapi.responses import HTMLResponse

from app.db.statuses import GameStatus, InboundStatus, PhaseStatus, SeatStatus
from app.services.kernel.render import format_deadline
from app.services.ruleset.rule_choices import rule_choices
from app.web.charts import centre_chart
from app.web.reasons import reason_text

__all__ = ["Pages", "pages"]

DEFAULT_DIR = Path(__file__).resolve().parent.parent.parent / "templates" / "web"


def _when(value: datetime | None) -> str:
    return format_deadline(value) if value is not None else "—"


class Pages:
    """Renders a page with the request's sign-in state and CSRF token always at hand."""

    def __init__(self, directory: Path | None = None) -> None:
        self.directory = directory or DEFAULT_DIR

    @cached_property
    def env(self) -> jinja2.Environment:
        env = jinja2.Environment(
            loader=jinja2.FileSystemLoader(str(self.directory)),
            autoescape=True,  # every page: player text is data, never markup
            trim_blocks=True,
            lstrip_blocks=True,
            undefined=jinja2.StrictUndefined,
        )
        env.filters["when"] = _when
        env.filters["reason_text"] = reason_text
        env.globals["centre_chart"] = centre_chart
        env.globals["rule_choices"] = rule_choices
        # Statuses by their enum members, as the code names them (tests/test_architecture.py).
        env.globals.update(GameStatus=GameStatus, PhaseStatus=PhaseStatus, SeatStatus=SeatStatus,
                           InboundStatus=InboundStatus)
        return env

    def render(self, request: Request, name: str, status_code: int = 200, **context: Any) -> HTMLResponse:
        context.setdefault("principal", getattr(request.state, "principal", None))
        context.setdefault("csrf_token", getattr(request.state, "csrf_token", ""))
        context.setdefault("title", "Postal Judge")
        html = self.env.get_template(name).render(request=request, **context)
        return HTMLResponse(html, status_code=status_code)


def pages(request: Request) -> Pages:
    """The app's page renderer (set up by ``create_app``)."""
    found: Pages = request.app.state.pages
    return found
