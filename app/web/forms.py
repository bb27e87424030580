"""Text from the browser as the database can keep it: PostgreSQL's text holds no NUL character
(SQLite does), so the web door drops it, as the mail door drops it from a mail's text."""

from __future__ import annotations

from starlette.datastructures import FormData

__all__ = ["form_text", "storable"]


def storable(text: str) -> str:
    """``text`` without NUL characters."""
    return text.replace("\x00", "")


def form_text(form: FormData, key: str, *, strip: bool = True) -> str:
    """The form field ``key`` as storable text ("" when it is missing or a file)."""
    value = form.get(key, "")
    if not isinstance(value, str):
        return ""
    value = storable(value)
    return value.strip() if strip else value
