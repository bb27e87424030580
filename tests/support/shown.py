"""A sent mail's text as a mail client shows it: a ``format=flowed`` part joined again (RFC 3676)."""

from __future__ import annotations

from email.message import EmailMessage, Message

from app.mail.reading.flowed import unflow

__all__ = ["shown_text", "without_trailing_spaces"]


def shown_text(part: Message | None) -> str:
    """The text of a ``text/plain`` part (``EmailMessage``; there is one), its soft line breaks joined."""
    assert isinstance(part, EmailMessage)
    text = str(part.get_content()).replace("\r\n", "\n")
    if str(part.get_param("format", "")).lower() == "flowed":
        text = unflow(text, str(part.get_param("delsp", "no")).lower() == "yes")
    return text


def without_trailing_spaces(text: str) -> str:
    """``text`` as flowed text keeps it: no line ends in a space (that would be a soft break)."""
    return "\n".join(line if line == "-- " else line.rstrip(" ") for line in text.replace("\r\n", "\n").split("\n"))
