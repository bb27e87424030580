"""Secrets kept out of the dashboard's views of mail, at display time (the stored mail is untouched).

- ``mask_passwords``: on every line, the words after a password-taking command word (``SIGNON``,
  ``CREATE``, ``JOIN``, ``OBSERVE``, ``TAKEOVER``, ``RESIGN``, ``SET PASSWORD``, ``REPLACE``,
  ``DOD3 SEAT`` …, wherever it stands on the line, in any case, behind punctuation or invisible
  characters) show as ``****`` from the command's first secret word on; a command with fewer words
  than that (``SIGNON pw``) has all of them masked.  It may mask more than a password (prose that
  uses such a word), never less.  A dashboard sign-in code is masked too (the judgekeeper's
  mailbox view shows every address's mail).
- ``hide_bids``: the amounts of Days of Decision III bids (``BID JA 6``, the acknowledgement's
  "Bid recorded" and "Your bids this turn") while the game's bids are not revealed.
- ``readable_mail``: a raw mail as text for the dashboard, its encoded text parts decoded (so no
  password hides in base64 or quoted-printable), both of the above applied.
"""

from __future__ import annotations

import re
import string
from email import message_from_bytes, policy
from email.message import EmailMessage, Message

from sqlalchemy.orm import Session

from app.db import queries
from app.db.models import Game

__all__ = ["MASK", "bids_secret", "hide_bids", "mask_passwords", "readable_mail", "shown_text"]

MASK = "****"
_INVISIBLE = dict.fromkeys(map(ord, "\ufeff\u200b\u200c\u200d\u200e\u200f\u2060\u00ad\u180e\u202a\u202b\u202c"
                                    "\u202d\u202e\u2066\u2067\u2068\u2069"), None)

# (the command's words, how many argument words before the first secret one, whether a command
# with no more words than that is all secret: ``SIGNON pw``, ``RESIGN pw``)
_RULES: tuple[tuple[tuple[str, ...], int, bool], ...] = (
    (("DOD3", "CREATE"), 1, True),
    (("DOD3", "SEAT"), 2, True),
    (("SET", "PASSWORD"), 0, True),
    (("SIGN", "ON"), 1, True),
    (("TAKE", "OVER"), 1, True),
    (("SIGNON",), 1, True),
    (("CREATE",), 1, True),
    (("JOIN",), 1, True),
    (("OBSERVE",), 1, True),
    (("WATCH",), 1, True),
    (("MONITOR",), 1, True),
    (("TAKEOVER",), 1, True),
    (("RESIGN",), 1, True),
    (("WITHDRAW",), 1, True),
    (("REPLACE",), 2, True),
    (("BECOME",), 1, False),
    (("PASSWORD",), 0, True),
)
_WORD = re.compile(r"\S+")


def _bare(word: str) -> str:
    return word.translate(_INVISIBLE).strip(string.punctuation + "\u00ab\u00bb\u201c\u201d").upper()


def _mask_line(line: str) -> str:
    spans = [m.span() for m in _WORD.finditer(line)]
    words = [_bare(line[a:b]) for a, b in spans]
    for i in range(len(words)):
        for names, keep, short_secret in _RULES:
            if tuple(words[i:i + len(names)]) != names:
                continue
            args = spans[i + len(names):]
            secret = args[keep:] if len(args) > keep else (args if short_secret else [])
            if not secret:
                return line
            out, last = [], 0
            for a, b in secret:
                out.append(line[last:a] + MASK)
                last = b
            return "".join(out) + line[last:]
    return line


_SIGNIN_CODE = re.compile(r"(Your code: )[A-Z0-9]{5}-[A-Z0-9]{5}")


def mask_passwords(text: str) -> str:
    """``text`` with every password position masked, line by line (and a dashboard sign-in code)."""
    text = _SIGNIN_CODE.sub(r"\1*****-*****", text)
    return "\n".join(_mask_line(line) for line in text.split("\n"))


_BID_ORDER = re.compile(r"\bBID\s+(?:[^\s\d]+\s+){1,3}?-?\d+(?:\s+OPTIONS?\s+\d+)?", re.IGNORECASE)
_BID_RECORDED = re.compile(r"\bBid recorded:[^\n]*?\bbid points?(?: for \d+ options?)?", re.IGNORECASE)
_YOUR_BIDS = re.compile(r"(\bYour bids this turn:)[^\n]*", re.IGNORECASE)
_DIGITS = re.compile(r"-?\d+")


def hide_bids(text: str) -> str:
    """``text`` with the amounts of DoD III bids hidden."""
    text = _BID_ORDER.sub(lambda m: _DIGITS.sub("**", m.group(0)), text)
    text = _BID_RECORDED.sub(lambda m: _DIGITS.sub("**", m.group(0)), text)
    return _YOUR_BIDS.sub(lambda m: m.group(1) + " (hidden until the bids are revealed)", text)


def bids_secret(db: Session, game: Game | None) -> bool:
    """A DoD III game whose open step takes bids (step A): its bids are not revealed yet."""
    if game is None or game.variant != "dod3":
        return False
    phase = queries.open_phase(db, game.id)
    return phase is not None and phase.code.upper().endswith("A")


def shown_text(db: Session, game: Game | None, text: str) -> str:
    """A mail's text as the dashboard shows it: passwords masked, unrevealed bids hidden."""
    text = mask_passwords(text)
    return hide_bids(text) if bids_secret(db, game) else text


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


def readable_mail(db: Session, game: Game | None, raw: bytes) -> str:
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
    return shown_text(db, game, head + sep + body)
