"""The one error a use case raises: a refusal with a reason code, its values and a plain message.

A use case says *what* it refused and with which data; each door words it for its own people
(issue 27.2): the mail door names the command to send (``app/mail/commands/refusals.py``: "add CONFIRM",
"use PROCESS"), the web door the control to use (``app/web/refusals.py``: a "set it anyway"
checkbox, a "Process now" button).  ``code`` is short and stable (tests, the doors and the JSON
API match on it); ``values`` are its data (plain strings and numbers: the API returns them);
``message`` is a door-neutral English sentence, what any door shows of a code it does not word
itself.  ``DomainError(code, message)`` without values stays valid: such a refusal is shown as its
message everywhere.
"""

from __future__ import annotations

from typing import Any

__all__ = ["DomainError"]


class DomainError(Exception):
    """A use case refused: ``code`` says which rule, ``values`` its data, ``message`` says it to a person."""

    def __init__(self, code: str, message: str, /, **values: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.values: dict[str, Any] = values

    def __str__(self) -> str:
        return self.message

    def with_values(self, **values: Any) -> DomainError:
        """The same refusal with more data (a door's form names the field it belongs to)."""
        error = DomainError(self.code, self.message, **{**self.values, **values})
        error.__cause__ = self.__cause__
        return error
