"""A mail as the dashboard shows it, at display time (the stored mail is untouched): passwords
masked (``redact.mask_passwords``) and the amounts of Days of Decision III bids hidden while the
game's bids are not revealed (``BID JA 6``, the acknowledgement's "Bid recorded" and "Your bids
this turn"); a raw mail's encoded text parts decoded first, so no password hides in base64 or
quoted-printable.
"""

from __future__ import annotations

import re
from email import message_from_bytes, policy
from email.message import EmailMessage, Message

from app.db import queries
from app.db.models import Game
from app.services.kernel.uow import UnitOfWork
from app.services.mailout.redact import mask_passwords

__all__ = ["bids_secret", "hide_bids", "readable_mail", "shown_text"]

_BID_ORDER = re.compile(r"\bBID\s+(?:[^\s\d]+\s+){1,3}?-?\d+(?:\s+OPTIONS?\s+\d+)?", re.IGNORECASE)
_BID_RECORDED = re.compile(r"\bBid recorded:[^\n]*?\bbid points?(?: for \d+ options?)?", re.IGNORECASE)
_YOUR_BIDS = re.compile(r"(\bYour bids this turn:)[^\n]*", re.IGNORECASE)
_DIGITS = re.compile(r"-?\d+")


def hide_bids(text: str) -> str:
    """``text`` with the amounts of DoD III bids hidden."""
    text = _BID_ORDER.sub(lambda m: _DIGITS.sub("**", m.group(0)), text)
    text = _BID_RECORDED.sub(lambda m: _DIGITS.sub("**", m.group(0)), text)
    return _YOUR_BIDS.sub(lambda m: m.group(1) + " (hidden until the bids are revealed)", text)


def bids_secret(uow: UnitOfWork, game: Game | None) -> bool:
    """A DoD III game whose open step takes bids (step A): its bids are not revealed yet."""
    db = uow.session
    if game is None or game.variant != "dod3":
        return False
    phase = queries.open_phase(db, game.id)
    return phase is not None and phase.code.upper().endswith("A")


def shown_text(uow: UnitOfWork, game: Game | None, text: str) -> str:
    """A mail's text as the dashboard shows it: passwords masked, unrevealed bids hidden."""
    text = mask_passwords(text)
    return hide_bids(text) if bids_secret(uow, game) else text


def _decoded_parts(message: Message) -> list[str]:
    out = []
    for part in message.walk():
        if part.is_multipart():
            continue
        kind = part.get_content_type()
        if part.get_content_maintype() == "text" and isinstance(part, EmailMessage):
            try:
                body = part.get_content()
            except (LookupError, ValueError):
                payload = part.get_payload(decode=True)
                body = payload.decode("utf-8", "replace") if isinstance(payload, bytes) else ""
            out.append(f"--- {kind} ({part.get('Content-Transfer-Encoding', '7bit')}, decoded) ---\n{body}")
        else:
            out.append(f"--- {kind}: not shown ---")
    return out


def _header(value: object) -> str:
    try:
        return " ".join(str(value).split())
    except (LookupError, ValueError, UnicodeError):
        return "(undecodable)"


def readable_mail(uow: UnitOfWork, game: Game | None, raw: bytes) -> str:
    """A received mail for the dashboard: its headers decoded and unfolded (one per line, so no
    password hides in an encoded word or a folded line); its body as it came when it is plain 7- or
    8-bit text, else each text part decoded; secrets masked (``shown_text``)."""
    text = raw.decode("utf-8", errors="replace").replace("\r\n", "\n")
    head, sep, body = text.partition("\n\n")
    message = message_from_bytes(raw, policy=policy.default)
    try:
        head = "\n".join(f"{key}: {_header(value)}" for key, value in message.items())
    except (LookupError, ValueError, UnicodeError, TypeError):
        head = " ".join(head.split("\n "))  # unfolded at least
    encodings = {str(part.get("Content-Transfer-Encoding", "7bit")).strip().lower() for part in message.walk()}
    if message.is_multipart() or not encodings <= {"7bit", "8bit", ""}:
        body = "\n".join(_decoded_parts(message))
    return shown_text(uow, game, head + sep + body)
