"""The one error a use case raises: a refusal with a reason code and a message.

The doors translate it: the mail door into a reply line, the web door into a page or
an HTTP status.  ``code`` is short and stable (tests and the dashboard match on it);
``message`` is a plain English sentence a player can act on.
"""

from __future__ import annotations

__all__ = ["DomainError"]


class DomainError(Exception):
    """A use case refused: ``code`` says which rule, ``message`` says it to a person."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __str__(self) -> str:
        return self.message
