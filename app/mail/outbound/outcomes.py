"""What sending a mail can come to, for every transport (``app.mail.outbound.mailer``): the envelope
checked before anything is sent, and the failures raised, by SMTP reply code.

``MailerUnavailable``: the mail could not be handed over now and may be sent again later (the server
unreachable or gone; ``MailerDeferred``, a subclass: a 4xx answer for that mail alone, the next mails
may go); ``MailerRejected``: a 5xx answer, retrying cannot help.
"""

from __future__ import annotations

__all__ = ["MailerDeferred", "MailerRejected", "MailerUnavailable", "by_code", "check_envelope"]


class MailerUnavailable(Exception):
    """The mail could not be handed over now; the same send may succeed later."""


class MailerDeferred(MailerUnavailable):
    """The server put this mail off (4xx) and is still there: the next mails may go now."""


class MailerRejected(Exception):
    """The server refused the mail for good (5xx): sending it again will not help."""


def check_envelope(sender: str, recipients: list[str]) -> None:
    """Refuses (``ValueError``) an envelope that could inject SMTP commands, before connecting."""
    if not recipients:
        raise ValueError("no recipients")
    for rcpt in recipients:
        if "@" not in rcpt:
            raise ValueError(f"not an envelope recipient: {rcpt!r}")
    for address in (sender, *recipients):
        if any(ch in address for ch in "\r\n\0<>") or " " in address.strip():
            raise ValueError(f"not an envelope address: {address!r}")


def by_code(code: int, text: str) -> Exception:
    """The failure an SMTP reply code means: 4xx put off, 5xx refused, none (negative) unavailable."""
    if 400 <= code < 500:
        return MailerDeferred(text)
    return MailerUnavailable(text) if code < 0 else MailerRejected(text)
