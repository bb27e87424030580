"""Jinja templates for mail (templates/mail/), loaded on first use; the use cases' notices are
``templates/mail/notices/*.txt.j2`` (``Templates.notice``), never f-strings in a use case."""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from datetime import datetime
from functools import cached_property
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import jinja2

__all__ = ["DeadlineText", "Templates", "deadline_text", "format_deadline"]

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


@dataclass(frozen=True)
class DeadlineText:
    """A phase's deadline as the answers print it: ``at`` (the date of the ``::`` line), and while the
    grace period runs, when it ends (``grace_ends``: the deadline passed; late orders still count)."""

    at: str
    grace_ends: str | None = None

    @property
    def sentence(self) -> str:
        """The words after "The deadline for S1901M orders ...": ``is Mon ...`` or ``passed on Mon ...;
        the grace period ends Tue ...`` (issue 28.14: never "is none set" for a late order)."""
        if self.grace_ends is not None:
            return f"passed on {self.at}; the grace period ends {self.grace_ends}"
        return f"is {self.at}"


def deadline_text(deadline: datetime | None, grace_until: datetime | None, phase_deadline: datetime | None,
                  zone: str = "UTC") -> DeadlineText:
    """The game's deadline (``games.deadline``), or in the grace period (the game's deadline is then
    cleared) the deadline that passed (the phase's) and the end of the grace."""
    if grace_until is not None:
        return DeadlineText(format_deadline(phase_deadline or deadline, zone), format_deadline(grace_until, zone))
    return DeadlineText(format_deadline(deadline, zone))


def _wrap_items(items: list[str], width: int = 72, indent: str = "", head: str = "", end: str = "") -> str:
    """``head``, then ``items`` joined by commas, then ``end``, filled to ``width`` without breaking
    inside an item (``Por -->F`` stays whole); continuation lines start with ``indent``."""
    keep = "\x00"  # stands for the spaces inside an item while the line is filled
    joined = ", ".join(item.replace(" ", keep) for item in items)
    return _wrap(head + joined + end, width, indent).replace(keep, " ")


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
        env.filters["wrap_items"] = _wrap_items
        env.filters["deadline"] = format_deadline
        return env

    def render(self, name: str, **context: Any) -> str:
        return self.env.get_template(name).render(**context)

    def notice(self, name: str, **context: Any) -> tuple[str, str]:
        """A notice of ``templates/mail/notices/<name>.txt.j2``: its ``Subject:`` line, then after a
        blank line its body.  Returns (subject, body)."""
        text = self.render(f"mail/notices/{name}.txt.j2", **context)
        head, _, body = text.partition("\n\n")
        if not head.startswith("Subject: ") or "\n" in head:
            raise ValueError(f"notice template {name} does not start with one Subject: line")
        return head.removeprefix("Subject: "), body
