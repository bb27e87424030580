"""A game's name: what every way of creating a game accepts (CREATE, DOD3 CREATE, the dashboard,
`judge game create`).  Names fit their column (games.name) and every subject and address they go in."""

from __future__ import annotations

import re

from app.services.errors import DomainError

__all__ = ["check_game_name"]

_NAME = re.compile(r"[a-z][a-z0-9_-]{1,29}")


def check_game_name(name: str) -> str:
    """``name`` lower-cased, or ``DomainError('bad_name')`` saying what a name may be."""
    name = name.lower()
    if not _NAME.fullmatch(name):
        raise DomainError("bad_name", "a game name is 2 to 30 letters, digits, '-' or '_', starting with a letter")
    return name
