"""A use case's refusal as the web door words it (issue 27.2): the controls of the page, never
a mail command.

The use case gives a code, its values and a door-neutral message (``DomainError``); this says it
to a GM at a form: which field it belongs to (the form comes back filled in, the error beside
that field), and which control settles it: the deadline form's "set it anyway" checkbox (a
deadline inside a player's absence), the "Process now" button (a deadline already past).  A code
this table does not know is shown as its message.  The mail door's words are
``app/mail/commands/refusals.py``.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.services.errors import DomainError

__all__ = ["WebRefusal", "web_refusal"]


@dataclass(frozen=True)
class WebRefusal:
    text: str
    field: str | None = None  # the form field it belongs to (None: the form as a whole)
    confirm: bool = False  # offer the deadline form's "set it anyway" checkbox
    process_now: bool = False  # offer the "Process now" button


def web_refusal(error: DomainError) -> WebRefusal:
    """``error`` as a page shows it."""
    field = error.values.get("field")
    field = str(field) if field else None
    if error.code == "deadline_in_past" and "deadline" in error.values:
        return WebRefusal(f"{error.message}. To adjudicate the phase now, use Process now.", field or "when",
                          process_now=True)
    if error.code == "deadline_in_absence" and "deadline" in error.values:
        return WebRefusal(f"{error.message}. To set {error.values['deadline']} all the same, tick "
                          "\"set it anyway\" and set the deadline again.", field or "when", confirm=True)
    return WebRefusal(error.message, field)
