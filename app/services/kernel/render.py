"""Jinja templates for mail (templates/mail/), loaded on first use."""

from __future__ import annotations

import textwrap
from datetime import datetime
from functools import cached_property
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import jinja2

__all__ = ["Templates", "format_deadline"]

DEFAULT_DIR = Path(__file__).resolve().parents[3] / "templates"  # the repository's templates/


def format_deadline(when: datetime | None, zone: str = "UTC") -> str:
    """Judge style: ``Mon Mar 09 2026 20:00 UTC``."""
    if when is None:
        return "none set"
    try:
        tz = ZoneInfo(zone)
    except (ZoneInfoNotFoundError, ValueError):
        tz = ZoneInfo("UTC")
    local = when.astimezone(tz)
    return local.strftime("%a %b %d %Y %H:%M ") + (local.tzname() or zone)


def _wrap(text: str, width: int = 72, indent: str = "") -> str:
    """Each line of ``text`` filled to ``width`` (the lines of a listing stay lines)."""
    return f"\n{indent}".join(textwrap.fill(line, width=width, subsequent_indent=indent, break_on_hyphens=False)
                               for line in text.split("\n"))


class Templates:
    def __init__(self, directory: Path | None = None) -> None:
        self.directory = directory or DEFAULT_DIR

    @cached_property
    def env(self) -> jinja2.Environment:
        env = jinja2.Environment(
            loader=jinja2.FileSystemLoader(str(self.directory)),
            autoescape=jinja2.select_autoescape(enabled_extensions=("html", "htm", "html.j2"), default=False),
            keep_trailing_newline=True,
            trim_blocks=True,
            lstrip_blocks=True,
            undefined=jinja2.StrictUndefined,
        )
        env.filters["wrap"] = _wrap
        env.filters["deadline"] = format_deadline
        return env

    def render(self, name: str, **context: Any) -> str:
        return self.env.get_template(name).render(**context)
