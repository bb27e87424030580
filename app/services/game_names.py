"""The one rule for game names, whoever creates the game (mail, dashboard, DoD III): a name goes into
mail subjects and headers, so it is a short plain word."""

from __future__ import annotations

import re

from app.services.errors import DomainError

__all__ = ["checked_game_name"]

_NAME = re.compile(r"[a-z][a-z0-9_-]{1,29}")


def checked_game_name(name: str) -> str:
    """``name`` lower-cased, or ``DomainError("bad_name")``."""
    name = name.lower()
    if not _NAME.fullmatch(name):
        raise DomainError("bad_name", "a game name is 2 to 30 letters, digits, '-' or '_', starting with a letter")
    return name
