"""The mail door's own refusal: a command line it cannot understand (usage, syntax)."""

from __future__ import annotations

__all__ = ["CommandError", "NeedsConfirmation"]


class CommandError(Exception):
    """A refusal with a reason; it becomes a reply line, never a crash."""


class NeedsConfirmation(Exception):
    """A command that gives an address a seat, a game or a standing answer, on a mail that has not
    proved its mailbox: it waits for the address's confirmation (``what``: join, observe, ...)."""

    def __init__(self, what: str) -> None:
        super().__init__(what)
        self.what = what
