"""The mail door's own refusal: a command line it cannot understand (usage, syntax)."""

from __future__ import annotations

__all__ = ["CommandError"]


class CommandError(Exception):
    """A refusal with a reason; it becomes a reply line, never a crash."""
